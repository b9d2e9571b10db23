// The pointer (mouse, touch, pen): click a card to move it where Python finds room, drag cards onto a
// column or a foundation slot, click the stock to deal.

import { springBack } from "./animation.js";
import { showArt } from "./cards.js";
import { forget, markTargets, showEnd } from "./table.js";
import { sendsRun, topCards } from "./view.js";

const DRAG_THRESHOLD = 4; // px: less than this is a click

/**
 * Pointer play on `root`. `drawn` = {view, refs} is what the table shows now; `send(intent)` sends an
 * intent; `keyboard` is the keyboard controller (a pointer press moves its cursor and ends a pick-up).
 * Returns {abort(), rebase()}: drop a press or drag in progress; go on with it on the table drawn again.
 */
export function createPointer({ root, drawn, on, send, keyboard }) {
  // {pointerId, x0, y0, col, index, k, cards, movable, dragging, moved, els, targets, hover, tr, stale}
  let press = null;
  let stockPressed = false; // the last press went down on the stock
  const onStock = (el) => !!(el && el.closest && el.closest('[data-pile="stock"]'));

  function clearDragMarks() {
    root.querySelectorAll(".sp-target, .sp-drop-hover").forEach((e) =>
      e.classList.remove("sp-target", "sp-drop-hover"));
  }

  function abort() {
    const p = press;
    if (!p) return;
    press = null;
    try { root.releasePointerCapture(p.pointerId); } catch (_) { /* not captured */ }
    if (p.dragging) {
      clearDragMarks();
      springBack(p.els.filter((e) => e.isConnected));
      if (p.under) showArt(p.under, false);
    }
  }

  // The pile under most of the dragged top card wins; the pointer decides when nothing overlaps.
  function hitTest(p, x, y) {
    const r = p.els[0].getBoundingClientRect();
    let best = null;
    let bestArea = 0;
    const consider = (pile, hit) => {
      const q = pile.getBoundingClientRect();
      const w = Math.min(r.right, q.right) - Math.max(r.left, q.left);
      const hh = Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top);
      const area = w > 0 && hh > 0 ? w * hh : 0;
      if (area > bestArea) {
        bestArea = area;
        best = hit;
      }
      if (!best && x >= q.left && x <= q.right && y >= q.top && y <= q.bottom) best = hit;
    };
    drawn.refs.piles.forEach((pile, i) => consider(pile, { type: "tableau", col: i, el: pile }));
    drawn.refs.fslots.forEach((slot) => consider(slot, { type: "foundation", el: slot }));
    return best;
  }

  // The face-up card of the table shown at the point (x, y): {col, k} (k: the cards from it to the top,
  // with the backs of a deal still coming that lie on it, as a press counts them).
  function cardAt(x, y) {
    const el = document.elementFromPoint(x, y);
    const card = el && root.contains(el) ? el.closest(".sp-card[data-col]") : null;
    if (!card || card.dataset.face === "down") return null;
    const c = drawn.view.tableau[Number(card.dataset.col)];
    const k = c ? c.total - Number(card.dataset.index) : 0;
    return k >= 1 && k <= c.up.length + (c.coming | 0) ? { col: Number(card.dataset.col), k } : null;
  }

  function startDrag(p) {
    p.dragging = true;
    const under = drawn.refs.cards[p.col][p.index - 1];
    if (under && under.dataset.card) {
      showArt(under); // uncovered by the drag: seen whole
      forget(under); // (its look changed in place: the next drawing draws it anew)
      p.under = under;
    }
    p.els = drawn.refs.cards[p.col].slice(p.index);
    p.els.forEach((e) => e.classList.add("sp-dragging"));
    p.targets = markTargets(drawn.refs, drawn.view, p.col, p.k);
    root.classList.add("sp-is-dragging");
  }

  on(root, "pointerdown", (e) => {
    if (e.pointerType === "mouse" && e.button !== 0) return;
    if (e.target.closest("button, select, option, input, .sp-banner, .sp-confirm")) return;
    stockPressed = onStock(e.target);
    abort();
    keyboard.pointerDown(e);
    const card = e.target.closest(".sp-card[data-col]");
    if (!card) return;
    keyboard.cancel();
    if (card.dataset.face === "down") return;
    const col = Number(card.dataset.col);
    const index = Number(card.dataset.index);
    const c = drawn.view.tableau[col];
    const k = c.total - index;
    keyboard.place(col, Math.min(k, Math.max(1, c.movable)));
    const felt = root.querySelector(".sp-table");
    press = {
      pointerId: e.pointerId, x0: e.clientX, y0: e.clientY, col, index, k, felt,
      scroll0: felt ? [felt.scrollLeft, felt.scrollTop] : [0, 0],
      movable: k <= c.movable, dragging: false, moved: false, els: null,
      cards: topCards(c, k), tr: "", stale: false,
    };
    try { root.setPointerCapture(e.pointerId); } catch (_) { /* synthetic events */ }
  });

  on(root, "pointermove", (e) => {
    const p = press;
    if (!p || e.pointerId !== p.pointerId) return;
    const dx = e.clientX - p.x0;
    const dy = e.clientY - p.y0;
    if (!p.dragging) {
      if (Math.hypot(dx, dy) <= DRAG_THRESHOLD) return;
      if (p.stale) { // (its cards left while it was pressed: there is nothing to drag)
        abort();
        return;
      }
      p.moved = true;
      if (!p.movable) return;
      startDrag(p);
    }
    e.preventDefault();
    // (the felt may have scrolled under the pointer since the press: autoscroll.js)
    const sx = p.felt ? p.felt.scrollLeft - p.scroll0[0] : 0;
    const sy = p.felt ? p.felt.scrollTop - p.scroll0[1] : 0;
    const tr = `translate(${dx + sx}px, ${dy + sy}px)`;
    p.tr = tr;
    for (const el of p.els) el.style.transform = tr;
    const hit = hitTest(p, e.clientX, e.clientY);
    const hover = hit && !(hit.type === "tableau" && hit.col === p.col) ? hit.el : null;
    if (hover !== p.hover) {
      if (p.hover) p.hover.classList.remove("sp-drop-hover");
      if (hover) {
        showEnd(hover);
        hover.classList.add("sp-drop-hover");
      }
      p.hover = hover;
    }
  });

  on(root, "pointerup", (e) => {
    const p = press;
    if (!p || e.pointerId !== p.pointerId) return;
    press = null;
    try { root.releasePointerCapture(p.pointerId); } catch (_) { /* ignore */ }
    const v = drawn.view;
    if (!p.dragging) {
      // A click; or a drag of cards that cannot move together: ask anyway, so Python says why. A click
      // whose cards changed under it (the table was drawn again meanwhile) is a click on the card under
      // the pointer now.
      const at = p.stale ? cardAt(e.clientX, e.clientY) : p;
      if (!at) return;
      if (!p.moved && sendsRun(v, at.col, at.k)) send({ action: "send", src: at.col });
      else send({ action: "click", src: at.col, count: at.k });
      return;
    }
    const hit = hitTest(p, e.clientX, e.clientY);
    clearDragMarks();
    root.classList.remove("sp-is-dragging");
    if (p.under) showArt(p.under, false); // (on top once the cards have gone, covered again if they come back)
    let legal = false;
    if (hit && hit.type === "tableau" && hit.col !== p.col) {
      legal = p.targets.includes(hit.col);
      send({ action: "move", src: p.col, dst: hit.col, count: p.k });
    } else if (hit && hit.type === "foundation" && v.sendable.includes(p.col)) {
      legal = true;
      send({ action: "send", src: p.col });
    }
    if (!legal) {
      springBack(p.els.filter((el) => el.isConnected));
    } else {
      // A legal move: the cards wait where they were dropped for Python's answer (the redraw
      // replaces them); if no answer comes, they go home.
      setTimeout(() => springBack(p.els.filter((el) => el.isConnected && el.style.transform)), 600);
    }
  });

  const cancel = (e) => {
    if (press && e.pointerId === press.pointerId) {
      abort();
      root.classList.remove("sp-is-dragging");
    }
  };
  on(root, "pointercancel", cancel);
  on(root, "lostpointercapture", cancel);

  // (a stock drawn again between the press and the release is another element: the click then goes to the
  // table, and counts where it is released on the stock)
  on(root, "click", (e) => {
    if (onStock(e.target) || (stockPressed && onStock(document.elementFromPoint(e.clientX, e.clientY)))) {
      stockPressed = false;
      keyboard.drop();
      send({ action: "deal" });
    }
  });

  /**
   * The table was drawn again (Python's answer to the table the press began on, or a prediction): the
   * press or the drag goes on with the same cards, against the new table (its targets), if they are still
   * there; else a drag ends (the cards go home), and a press not dragged yet is a click where it is released.
   */
  function rebase() {
    const p = press;
    if (!p) return;
    const c = drawn.view.tableau[p.col];
    if (!c || c.total - p.index !== p.k || c.up.length < p.k || topCards(c, p.k) !== p.cards) {
      if (!p.dragging) {
        p.stale = true; // a press that is not a drag yet: its release is a click where it lands
        return;
      }
      abort();
      root.classList.remove("sp-is-dragging");
      return;
    }
    p.stale = false;
    p.movable = p.k <= c.movable;
    if (!p.dragging) return;
    const els = drawn.refs.cards[p.col].slice(p.index);
    for (const el of p.els) {
      if (!els.includes(el)) el.style.transform = "";
    }
    p.els = els;
    for (const el of els) {
      for (const a of el.getAnimations()) a.cancel(); // (held by the pointer: nothing flies it home)
      el.classList.add("sp-dragging");
      el.style.transform = p.tr;
    }
    const under = drawn.refs.cards[p.col][p.index - 1];
    if (p.under && p.under !== under) showArt(p.under, false);
    p.under = null;
    if (under && under.dataset.card) {
      showArt(under);
      forget(under);
      p.under = under;
    }
    const hover = p.hover && p.hover.isConnected ? p.hover : null;
    clearDragMarks();
    p.targets = markTargets(drawn.refs, drawn.view, p.col, p.k);
    if (hover) hover.classList.add("sp-drop-hover");
    p.hover = hover;
  }

  return { abort, rebase };
}
