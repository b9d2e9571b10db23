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
