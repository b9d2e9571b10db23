// Motion: cards fly from where they were to where the new drawing puts them (FLIP: First, Last,
// Invert, Play), and dragged cards spring back when a drop is refused. Nothing moves under
// prefers-reduced-motion.

const ANIM_MS = 150;

// (one query, asked once: matchMedia parses and evaluates its text on every call)
let motionQuery;
const reducedMotion = () => {
  if (motionQuery === undefined) {
    motionQuery = typeof window !== "undefined" && window.matchMedia
      ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
  }
  return !!motionQuery && motionQuery.matches;
};

// The flights under way (Element.animate of a card from where it was): animation -> card element.
const flying = new Map();

// Fly `el` with `keyframes` and `timing` (from `time` ms in, when given); it is .sp-moving meanwhile.
function fly(el, keyframes, timing, time) {
  el.classList.add("sp-moving");
  let a;
  try {
    a = typeof KeyframeEffect !== "undefined" && time !== undefined
      ? new Animation(new KeyframeEffect(el, keyframes, timing), document.timeline)
      : el.animate(keyframes, timing);
  } catch (_) {
    el.classList.remove("sp-moving");
    return;
  }
  const done = () => {
    if (!flying.delete(a)) return; // (landed already)
    if (![...flying.values()].includes(el)) el.classList.remove("sp-moving");
  };
  a.onfinish = done;
  a.oncancel = done;
  flying.set(a, el);
  if (time !== undefined) {
    a.currentTime = time;
    a.play();
  }
}

/**
 * The cards in flight in `table`: where each goes (its column and place, its code) and how far it is;
 * they land at once (so that the next drawing starts from their place). flyOn() lets them fly on in the
 * next drawing.
 */
export function land(table) {
  const out = [];
  for (const [a, e] of [...flying]) {
    if (!table.contains(e)) continue;
    if (a.playState === "running" && a.effect && a.effect.getKeyframes) {
      out.push({ col: Number(e.dataset.col), index: Number(e.dataset.index), card: e.dataset.card || "",
        keyframes: a.effect.getKeyframes(), timing: a.effect.getTiming(), time: a.currentTime });
    }
    flying.delete(a);
    a.finish();
    e.classList.remove("sp-moving");
  }
  return out;
}

/** The flights of land() go on in the drawing `refs`, for the same card (or the card a dealt back became). */
export function flyOn(flights, refs) {
  for (const f of flights) {
    const e = (refs.cards[f.col] || [])[f.index];
    if (!e || (f.card && e.dataset.card !== f.card)) continue;
    fly(e, f.keyframes, f.timing, f.time);
  }
}

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

// Play each [el, from] of `jobs`: el from the rectangle `from` (shifted by how far the whole table moved)
// to where it is now. (Every rectangle is read before any card starts to fly: one layout, not one a card.)
// `shift()` gives the table's move.
function animate(jobs, shift) {
  const live = jobs.filter(([el, from]) => from && typeof el.animate === "function");
  if (!live.length) return;
  const to = live.map(([el]) => el.getBoundingClientRect());
  const { x, y } = shift();
  live.forEach(([el, from], n) => {
    const dx = from.left + x - to[n].left;
    const dy = from.top + y - to[n].top;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
    fly(el, [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }],
      { duration: ANIM_MS, easing: "cubic-bezier(.2,.7,.3,1)" });
  });
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
  // how far the whole table moved between the two drawings (e.g. a banner appeared)
  const shift = () => {
    const now = table.getBoundingClientRect();
    return { x: now.left - before.table.left, y: now.top - before.table.top };
  };
  const jobs = [];
  if (sameTableau) {
    refs.cards.forEach((els, i) => els.forEach((e, j) => jobs.push([e, before.cards[i] && before.cards[i][j]])));
    animate(jobs, shift);
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
          jobs.push([e, oldSrc[oldSrc.length - k + j]]);
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
        jobs.push([e, before.stock]);
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
    jobs.push([e, oldPos.get(c)]);
  };
  refs.cards.forEach((els) => els.forEach(follow));
  newFound.forEach(follow);
  animate(jobs, shift);
}

// ---- moments: a card turning over, a refusal, a win ---------------------------------------------
// CSS animations started by a class (never Element.animate, which is for cards that fly); each ends by
// itself. Under prefers-reduced-motion the CSS keeps them still: a refusal is a red flash, a card simply
// turns, a win shows its overlay without the dance.

const REFUSAL_MS = 700;
const CELEBRATE_MS = 3200;

// The moments under way: element -> {class: timer}.
const momentTimers = new WeakMap();

// Add `cls` (and data-`attr`) to `els` for `ms`, then take it away (from the elements still drawn). An
// element that already has it (a drawing keeps elements that look the same) starts it again.
function moment(els, cls, ms, attr) {
  let restart = false;
  for (const e of els) {
    const timers = momentTimers.get(e) || {};
    momentTimers.set(e, timers);
    if (timers[cls]) clearTimeout(timers[cls]);
    if (e.classList.contains(cls)) {
      e.classList.remove(cls);
      restart = true;
    }
  }
  if (restart) void els[0].offsetWidth; // (style the element without it once: its CSS animation starts over)
  for (const e of els) {
    e.classList.add(cls);
    if (attr) e.setAttribute(attr, "true");
    const timers = momentTimers.get(e);
    timers[cls] = setTimeout(() => {
      delete timers[cls];
      e.classList.remove(cls);
      if (attr) e.removeAttribute(attr);
    }, ms);
  }
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
