// Motion: cards fly from where they were to where the new drawing puts them (FLIP: First, Last,
// Invert, Play), and dragged cards spring back when a drop is refused. Nothing moves under
// prefers-reduced-motion.

const ANIM_MS = 150;

const reducedMotion = () =>
  typeof window !== "undefined" && window.matchMedia &&
  window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/** Dragged cards go back to their place (animated from where they are). */
export function springBack(els) {
  const anim = !reducedMotion();
  for (const e of els) {
    const from = e.style.transform;
    e.style.transform = "";
    if (anim && from && typeof e.animate === "function" && e.isConnected) {
      try {
        const a = e.animate([{ transform: from }, { transform: "translate(0, 0)" }],
          { duration: ANIM_MS, easing: "ease-out" });
        const done = () => e.classList.remove("sp-dragging");
        a.onfinish = done;
        a.oncancel = done;
        continue;
      } catch (_) { /* fall through */ }
    }
    e.classList.remove("sp-dragging");
  }
}

/**
 * Where every card of the current drawing (`refs` from buildTable, inside `table`) is, before a
 * redraw; null when nothing should fly (no drawing yet, reduced motion, not in the page).
 */
export function snapshot(refs, table) {
  if (!refs || reducedMotion() || !table.isConnected) return null;
  const cards = refs.cards.map((els) => els.map((e) => e.getBoundingClientRect()));
  const codes = refs.cards.map((els) => els.map((e) => e.dataset.card || null));
  const founds = refs.fslots.map((s) => {
    const c = s.querySelector(".sp-card");
    return c ? c.getBoundingClientRect() : null;
  });
  return { cards, codes, founds, stock: refs.stock.getBoundingClientRect(), table: table.getBoundingClientRect() };
}

// Play el from the rectangle `from` (shifted by how far the whole table moved) to where it is now.
function animate(el, from, shift) {
  if (!from || typeof el.animate !== "function") return;
  const to = el.getBoundingClientRect();
  const dx = from.left + shift.x - to.left;
  const dy = from.top + shift.y - to.top;
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
  el.classList.add("sp-moving");
  try {
    const a = el.animate(
      [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }],
      { duration: ANIM_MS, easing: "cubic-bezier(.2,.7,.3,1)" });
    const done = () => el.classList.remove("sp-moving");
    a.onfinish = done;
    a.oncancel = done;
  } catch (_) {
    el.classList.remove("sp-moving");
  }
}

const countCodes = (lists) => {
  const m = new Map();
  lists.forEach((l) => l.forEach((c) => c && m.set(c, (m.get(c) || 0) + 1)));
  return m;
};

/**
 * Animate the new drawing (`refs` in `table`, view `v`) from `before` (a snapshot of the drawing of view
 * `prev`). `sameTableau`: the same cards in the same places (only dragged cards spring back).
 */
export function flip(before, prev, v, refs, table, sameTableau) {
  const now = table.getBoundingClientRect();
  // how far the whole table moved between the two drawings (e.g. a banner appeared)
  const shift = { x: now.left - before.table.left, y: now.top - before.table.top };
  if (sameTableau) {
    refs.cards.forEach((els, i) => els.forEach((e, j) => {
      const r = before.cards[i] && before.cards[i][j];
      if (r) animate(e, r, shift);
    }));
    return;
  }
  const last = v.last;
  // A new deal or a restart (both "new"): cards do not fly from the old game to the new one.
  if (last && last.kind === "new") return;
  if (prev.columns !== v.columns) return;
  const done = new Set();
  if (last && last.kind === "move" && Number.isInteger(last.src) && Number.isInteger(last.dst)) {
    const k = last.count | 0;
    const oldSrc = before.cards[last.src] || [];
    const oldCodes = before.codes[last.src] || [];
    const newDst = refs.cards[last.dst] || [];
    if (k > 0 && oldSrc.length >= k && newDst.length >= k) {
      for (let j = 0; j < k; j++) {
        const e = newDst[newDst.length - k + j];
        if (e.dataset.card && e.dataset.card === oldCodes[oldSrc.length - k + j]) {
          animate(e, oldSrc[oldSrc.length - k + j], shift);
          done.add(e);
        }
      }
    }
  }
  if (last && last.kind === "deal") {
    // the new top card of each column that got one comes from the stock
    refs.cards.forEach((els, i) => {
      const e = els[els.length - 1];
      if (e && (e.dataset.card || e.dataset.coming) && els.length > (before.cards[i] || []).length) {
        animate(e, before.stock, shift);
        done.add(e);
      }
    });
  }
  // Otherwise: follow cards whose code is unique before and after (undo, redo, runs leaving...).
  const oldCount = countCodes([...before.codes, prev.foundations]);
  const oldPos = new Map();
  before.codes.forEach((l, i) => l.forEach((c, j) => c && oldPos.set(c, before.cards[i][j])));
  prev.foundations.forEach((c, i) => before.founds[i] && oldPos.set(c, before.founds[i]));
  const newCodes = refs.cards.map((els) => els.map((e) => e.dataset.card || null));
  const newFound = refs.fslots.map((s) => s.querySelector(".sp-card")).filter(Boolean);
  const newCount = countCodes([...newCodes, newFound.map((e) => e.dataset.card)]);
  const follow = (e) => {
    const c = e.dataset.card;
    if (!c || done.has(e) || oldCount.get(c) !== 1 || newCount.get(c) !== 1) return;
    animate(e, oldPos.get(c), shift);
  };
  refs.cards.forEach((els) => els.forEach(follow));
  newFound.forEach(follow);
}

// ---- moments: a card turning over, a refusal, a win ---------------------------------------------
// CSS animations started by a class (never Element.animate, which is for cards that fly); each ends by
// itself. Under prefers-reduced-motion the CSS keeps them still: a refusal is a red flash, a card simply
// turns, a win shows its overlay without the dance.

const REFUSAL_MS = 700;
const CELEBRATE_MS = 3200;

// Add `cls` (and data-`attr`) to `els` for `ms`, then take it away (from the elements still drawn).
function moment(els, cls, ms, attr) {
  for (const e of els) {
    e.classList.add(cls);
    if (attr) e.setAttribute(attr, "true");
  }
  setTimeout(() => els.forEach((e) => {
    e.classList.remove(cls);
    if (attr) e.removeAttribute(attr);
  }), ms);
}

// The cards a face-down card became: in each column that has fewer face-down cards than before (a move
// uncovered it), the lowest face-up card, if it is new here.
function turned(prev, v, refs) {
  const out = [];
  const kind = v.last && v.last.kind;
  if (prev.columns !== v.columns || !["move", "send", "redo"].includes(kind)) return out;
  v.tableau.forEach((c, i) => {
    const before = prev.tableau[i];
    if (c.down < before.down && c.up.length) {
      const e = refs.cards[i][c.down];
      if (e && e.dataset.card) out.push(e);
    }
  });
  return out;
}

// The elements a refusal names (view.refused): the cards asked to move, or the stock.
function refusedEls(refused, v, refs) {
  if (!refused) return [];
  if (refused.kind === "deal") return [refs.stock];
  const src = refused.src;
  if (!Number.isInteger(src) || !refs.cards[src]) return [];
  const els = refs.cards[src];
  const c = v.tableau[src];
  const k = Number.isInteger(refused.count) && refused.count > 0 ? refused.count : 1;
  const n = Math.min(k, c.up.length || 0);
  if (!n) return refs.piles[src] ? [refs.piles[src]] : [];
  return els.slice(els.length - n);
}

// A short shower of suits rising over the felt, and the runs on the foundations dancing in turn.
function celebrate(refs, stage) {
  refs.fslots.forEach((slot, i) => slot.style.setProperty("--i", String(i)));
  moment(refs.fslots, "sp-celebrate", CELEBRATE_MS);
  if (reducedMotion() || !stage) return;
  const old = stage.querySelector(".sp-confetti");
  if (old) old.remove();
  const layer = document.createElement("div");
  layer.className = "sp-confetti";
  layer.setAttribute("aria-hidden", "true");
  const suits = ["\u2660\uFE0E", "\u2665\uFE0E", "\u2666\uFE0E", "\u2663\uFE0E"];
  for (let i = 0; i < 24; i++) {
    const s = document.createElement("span");
    s.className = `sp-bit sp-bit-${i % 4}`;
    s.textContent = suits[i % 4];
    // spread evenly, with a little disorder (no Math.random: the same shower every time)
    s.style.setProperty("--x", `${((i * 37) % 100) + 0.5}%`);
    s.style.setProperty("--d", `${(i * 73) % 900}ms`);
    s.style.setProperty("--r", `${((i * 53) % 120) - 60}deg`);
    layer.append(s);
  }
  stage.append(layer);
  setTimeout(() => layer.remove(), CELEBRATE_MS);
}

/**
 * After a drawing of view `v` (refs from buildTable) that replaced the drawing of `prev`: turn over the
 * cards that were face down (`.sp-turn`), mark what Python refused (`.sp-refused`, `data-refused`) and
 * celebrate a win (`.sp-celebrate` on the foundations, suits over `stage`). Each only once per view.
 */
export function moments(prev, v, refs, stage) {
  if (!prev || prev.version === v.version) return; // (a first drawing, e.g. a reopened notebook: no news)
  const turn = turned(prev, v, refs);
  if (turn.length) moment(turn, "sp-turn", 400);
  const refused = refusedEls(v.refused, v, refs);
  if (refused.length) moment(refused, "sp-refused", REFUSAL_MS, "data-refused");
  if (v.status === "won" && prev.status !== "won") celebrate(refs, stage);
}
