// The keyboard: a cursor on the table (arrows, Tab), pick up and drop (Enter or Space, Escape
// cancels), and the letter keys (D deal, U undo, R redo, H hint, N new game, T to the toolbar; Ctrl+Z /
// Ctrl+Y). Any other combination with Ctrl, Meta or Alt is the notebook's (keep-keys.js).

import { cardName, letter } from "./cards.js";
import { markTargets } from "./table.js";
import { sendsRun, topCards } from "./view.js";

/** The table's own key combinations with Ctrl or Meta: Ctrl+Z, Ctrl+Shift+Z, Ctrl+Y, Ctrl+U (undo and redo). */
export function tableUses(e) {
  return (e.ctrlKey || e.metaKey) && !e.altKey && ["u", "z", "y"].includes(String(e.key).toLowerCase());
}

/** The first control of the toolbar that takes focus now (shown, enabled): New game, unless it is hidden. */
function firstControl(root) {
  return [...root.querySelectorAll(".sp-bar button, .sp-bar select, .sp-bar input")]
    .find((e) => !e.disabled && e.getClientRects().length > 0) || null;
}

/**
 * Keyboard play on `root`. `drawn` = {view, refs} is what the table shows now; `send(intent)` sends an
 * intent; `newGame()` asks for a new game (after "Abandon this game?" when one is in progress);
 * `say(text)` tells a screen reader. Returns
 * {apply(), drop(), cancel(), place(col, depth), pointerDown(e)}.
 */
export function createKeyboard({ root, drawn, on, send, newGame, say }) {
  const cursor = { col: 0, depth: 1 }; // depth: how many cards from the top of the column
  let sel = null; // a pick-up: {src, k}
  let pointerFocus = false; // a pointer is down: focus now comes from it

  // The cursor stays on the table: a column that exists, within its movable group.
  function clamp() {
    const v = drawn.view;
    cursor.col = Math.min(Math.max(0, cursor.col | 0), v.columns - 1);
    cursor.depth = Math.min(Math.max(1, cursor.depth | 0), Math.max(1, v.tableau[cursor.col].movable));
  }

  // Draw the cursor (.sp-cursor, aria-current), the picked-up cards (.sp-selected) and their targets.
  // The cursor is seen as a ring (.sp-cursor-ring) around the cards it holds, from the card under it to
  // the top of the column (or around an empty column), over the cards: it never cuts across a card.
  function apply() {
    const refs = drawn.refs;
    if (!refs) return;
    root.querySelectorAll(".sp-cursor, .sp-selected, .sp-target").forEach((e) => {
      e.classList.remove("sp-cursor", "sp-selected", "sp-target");
      e.removeAttribute("aria-current");
    });
    root.querySelectorAll(".sp-cursor-ring").forEach((e) => e.remove());
    clamp();
    const { col, depth } = cursor;
    const els = refs.cards[col];
    if (sel) {
      const src = refs.cards[sel.src];
      src.slice(src.length - sel.k).forEach((e) => e.classList.add("sp-selected"));
      markTargets(refs, drawn.view, sel.src, sel.k);
    }
    // on a card (the top one while cards are held), or on the pile of an empty column
    const target = !els.length ? refs.piles[col] : els[els.length - (sel ? 1 : depth)];
    target.classList.add("sp-cursor");
    target.setAttribute("aria-current", "true");
    root.setAttribute("aria-activedescendant", target.id);
    const ring = document.createElement("span");
    ring.className = "sp-cursor-ring";
    ring.setAttribute("aria-hidden", "true");
    const top = els.length ? els[els.length - 1] : null;
    ring.style.setProperty("--t0", target === refs.piles[col] ? "0" : target.style.getPropertyValue("--t") || "0");
    ring.style.setProperty("--t1", top ? top.style.getPropertyValue("--t") || "0" : "0");
    if (sel && sel.src === col) ring.classList.add("sp-lifted");
    refs.piles[col].append(ring);
    if (root.classList.contains("sp-kbd")) reveal(refs.piles[col], target);
  }

  // Scroll the felt (when it is too narrow or too short for the table) to show the column `pile` sideways,
  // and up or down to the card `card` (the one under the cursor).
  function reveal(pile, card) {
    const sc = pile.closest(".sp-table");
    if (!sc) return;
    const a = sc.getBoundingClientRect();
    const margin = 10;
    if (sc.scrollWidth > sc.clientWidth + 1) {
      const b = pile.getBoundingClientRect();
      if (b.left < a.left + margin) sc.scrollLeft -= a.left + margin - b.left;
      else if (b.right > a.right - margin) sc.scrollLeft += b.right - (a.right - margin);
    }
    if (sc.scrollHeight > sc.clientHeight + 1) {
      const b = card.getBoundingClientRect();
      if (b.bottom > a.bottom - margin) sc.scrollTop += b.bottom - (a.bottom - margin);
      else if (b.top < a.top + margin) sc.scrollTop -= a.top + margin - b.top;
    }
  }

  function enter() {
    const v = drawn.view;
    const { col, depth } = cursor;
    if (sel) {
      const { src, k } = sel;
      sel = null;
      apply();
      send(col === src ? { action: "click", src, count: k } : { action: "move", src, dst: col, count: k });
      return;
    }
    const c = v.tableau[col];
    if (!c.up.length) return;
    if (sendsRun(v, col, depth)) {
      send({ action: "send", src: col });
      return;
    }
    // (the cursor is clamped to the movable group: these cards can be picked up)
    sel = { src: col, k: depth, cards: topCards(c, depth) };
    apply();
    const top = c.up[c.up.length - depth];
    say(`picked up ${depth === 1 ? cardName(top) : `${depth} cards from the ${cardName(top)}`}, column ${letter(col)}. ` +
      "Choose a column with the arrow keys and press Enter; Escape cancels.");
  }

  // An intent that replaces the table: a pick-up made on the old one is forgotten.
  const fresh = (intent) => {
    sel = null;
    send(intent);
  };

  on(root, "keydown", (e) => {
    if (e.target !== root) return; // buttons and selects keep their own keys
    const key = e.key;
    const lower = key.length === 1 ? key.toLowerCase() : key;
    const ctrl = e.ctrlKey || e.metaKey;
    const cols = drawn.view.columns;
    let handled = true;
    const nav = () => {
      root.classList.add("sp-kbd");
      apply();
    };
    const toColumn = (col) => {
      cursor.col = col;
      cursor.depth = 1;
      nav();
    };
    if (tableUses(e)) {
      if (lower === "u") fresh({ action: "undo" });
      else if (lower === "z") fresh({ action: e.shiftKey ? "redo" : "undo" });
      else fresh({ action: "redo" });
    } else if (e.altKey || ctrl) {
      handled = false;
    } else {
      switch (lower) {
        case "u": fresh({ action: "undo" }); break;
        case "r": fresh({ action: "redo" }); break;
        case "h": send({ action: "hint" }); break;
        case "d": fresh({ action: "deal" }); break;
        case "n":
          sel = null;
          newGame();
          break;
        case "t": { // the toolbar, which comes after the table in the tab order (Shift+Tab comes back)
          const control = firstControl(root);
          if (control) control.focus();
          else handled = false;
          break;
        }
        case "ArrowLeft": toColumn((cursor.col - 1 + cols) % cols); break;
        case "ArrowRight": toColumn((cursor.col + 1) % cols); break;
        case "Tab": {
          const next = cursor.col + (e.shiftKey ? -1 : 1);
          if (next < 0 || next >= cols) handled = false; // let focus leave the widget: no keyboard trap
          else toColumn(next);
          break;
        }
        case "ArrowUp":
          if (!sel) cursor.depth += 1;
          nav();
          break;
        case "ArrowDown":
          if (!sel) cursor.depth -= 1;
          nav();
          break;
        case "Enter":
        case " ":
          root.classList.add("sp-kbd");
          enter();
          break;
        case "Escape":
          if (sel) {
            sel = null;
            apply();
            say("cancelled");
          } else handled = false;
          break;
        default:
          handled = false;
      }
    }
    if (handled) {
      e.preventDefault();
      e.stopPropagation();
    }
  });

  // Focus that does not come from a pointer (Tab, script) shows the keyboard cursor.
  // (Focus from a pointer leaves the drawing alone: the cursor stays hidden, and the click is answered
  // sooner.)
  on(root, "focus", () => {
    if (pointerFocus) return;
    root.classList.add("sp-kbd");
    apply();
  });
  on(root, "blur", () => root.classList.remove("sp-kbd"));
  on(document, "pointerup", () => { pointerFocus = false; }, { capture: true });
  on(document, "pointercancel", () => { pointerFocus = false; }, { capture: true });

  return {
    apply,
    /**
     * The table was drawn again (Python's answer, a prediction): a pick-up goes on if its cards are still
     * on top of their column (made on a predicted table, it is dropped on the answered one); else it is
     * forgotten.
     */
    rebase() {
      if (!sel) return;
      const c = drawn.view.tableau[sel.src];
      if (!c || c.up.length < sel.k || topCards(c, sel.k) !== sel.cards) sel = null;
    },
    /** Forget a pick-up (the table is about to change). */
    drop() {
      sel = null;
    },
    /** Forget a pick-up and show that it is gone. */
    cancel() {
      if (sel) {
        sel = null;
        apply();
      }
    },
    /** Put the cursor on the top `depth` cards of column `col` (drawn at the next apply). */
    place(col, depth) {
      cursor.col = col;
      cursor.depth = depth;
    },
    /** A pointer went down on the widget: the keyboard cursor hides; focus comes from the pointer. */
    pointerDown(e) {
      root.classList.remove("sp-kbd");
      pointerFocus = true;
      // The browser focuses the root on mousedown (that focus is not :focus-visible, so the keyboard
      // cursor stays hidden); touch and pen get it here.
      if (e.pointerType !== "mouse" && document.activeElement !== root) root.focus({ preventScroll: true });
    },
  };
}
