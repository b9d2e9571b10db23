// The table as a function of the view: buildTable(view) draws the stock, the foundations, the column
// letters and the tableau, from nothing but the (normalised) view; drawInto(table, old, view) draws it
// over the last drawing, keeping the elements of what looks the same (the browser then restyles and lays
// out only what changed: a move touches two columns, a deal the top of each).

import { cardFace, cardName, h, letter } from "./cards.js";
import { DEFAULT_GEOMETRY, fanTableau } from "./layout.js";
import { targetsOf } from "./view.js";

function buildStock(v, hint) {
  const deals = v.deals_left;
  // Unavailable (a column is empty, or no deal is left): drawn so, the reason in its tip and label. (Not
  // aria-disabled: a press still asks Python, which says why, as for any refusal.)
  const why = v.can_deal ? null : (v.deal_error || "No deal possible");
  const stock = h("div", {
    class: `sp-pile sp-stock${v.can_deal ? "" : " sp-disabled"}${deals ? "" : " sp-empty"}`,
    "data-pile": "stock",
    "data-available": v.can_deal ? "true" : "false",
    role: "button",
    "aria-label": `stock: ${deals} ${deals === 1 ? "deal" : "deals"} left. ` +
      (why ? `No deal now: ${why}` : "Deal (D)"),
    title: why || "Deal a card to every column (D)",
  });
  stock.append(h("div", { class: "sp-slot", "aria-hidden": "true" }));
  for (let i = 0; i < Math.min(deals, 5); i++) {
    const b = h("div", { class: "sp-card sp-back", "aria-hidden": "true" });
    b.style.setProperty("--s", String(i));
    stock.append(b);
  }
  if (why && deals) stock.append(h("span", { class: "sp-no-deal", "aria-hidden": "true" }));
  stock.append(h("span", { class: "sp-count", "aria-hidden": "true", text: String(deals) }));
  if (hint && hint.kind === "deal") stock.classList.add("sp-hint-dst");
  return stock;
}

function buildFoundations(v, n) {
  const runsTotal = v.runs_total;
  const fbox = h("div", { class: "sp-foundations", role: "group", "aria-label": "completed runs" });
  const start = runsTotal <= n - 1 ? n - runsTotal + 1 : 2;
  fbox.style.gridColumn = `${start} / ${n + 1}`;
  const fslots = [];
  for (let i = 0; i < runsTotal; i++) {
    const slot = h("div", { class: "sp-pile sp-fslot", "data-pile": `foundation-${i}` });
    slot.append(h("div", { class: "sp-slot", "aria-hidden": "true" }));
    const code = v.foundations[i];
    if (typeof code === "string" && code) {
      const c = cardFace(code);
      c.setAttribute("aria-label", `${cardName(code)}, completed run`);
      slot.append(c);
    } else {
      // (a label needs a role: an empty slot is a picture of one)
      slot.setAttribute("role", "img");
      slot.setAttribute("aria-label", "empty foundation");
    }
    fslots.push(slot);
    fbox.append(slot);
  }
  return { fbox, fslots };
}

// Column i: what its pile says (aria-label, hint class) and its cards, face-down first, then face-up, bottom
// to top. Each card: {key, full, covered, t, make()}; `key` names what its element shows (same key: the
// element drawn last time may stay), `full` whether it needs its art (the top card), `covered` whether
// cards lie on it (.sp-covered hides an art it kept), `t` its offset in card heights (--t: compression
// changes it alone).
function columnSpec(v, i, f, hint, uid) {
  const c = v.tableau[i];
  const L = letter(i);
  const cards = [];
  let t = 0;
  const down = (j, coming) => () => h("div", {
    class: coming ? "sp-card sp-down sp-coming" : "sp-card sp-down",
    "data-face": "down",
    "data-coming": coming ? "true" : null,
    "data-col": i,
    "data-index": j,
    role: "img",
    "aria-label": coming ? `card being dealt, column ${L}` : `face-down card, column ${L}`,
  });
  for (let j = 0; j < c.down; j++) {
    cards.push({ key: "d", full: false, covered: false, t, make: down(j, false) });
    t += f.fd;
  }
  const hintSrc = hint && hint.src === i && hint.kind !== "deal" ? Math.max(1, hint.count | 0) : 0;
  const sendRun = v.sendable.includes(i);
  c.up.forEach((code, j) => {
    const index = c.down + j;
    const k = c.total - index;
    // (the art on the top card only: the others show their strip)
    const full = k === 1;
    const movable = k <= c.movable;
    const sendable = sendRun && k <= v.run_length;
    const hinted = k <= hintSrc;
    const make = () => {
      const card = cardFace(code, full);
      card.dataset.col = String(i);
      card.dataset.index = String(index);
      card.id = `${uid}-c${i}-${index}`;
      card.setAttribute("aria-label", `${cardName(code)}, column ${L}`);
      if (movable) card.classList.add("sp-movable");
      if (sendable) card.classList.add("sp-sendable");
      if (hinted) card.classList.add("sp-hint-src");
      return card;
    };
    cards.push({ key: `${code}${+movable}${+sendable}${+hinted}`, full, covered: !full, t, make });
    t += f.fu;
  });
  // (a prediction of a deal: backs dealt on top, until Python's view says which cards they are)
  for (let j = 0; j < c.coming; j++) {
    cards.push({ key: "c", full: false, covered: false, t, make: down(c.down + c.up.length + j, true) });
    t += f.fu;
  }
  return {
    label: c.total ? `column ${L}: ${c.down} face-down, ${c.up.length} face-up` : `column ${L}: empty`,
    // where its cards end (card heights): a target or a hint is drawn round the cards, not the whole column
    tend: (cards.length ? t - (c.up.length ? f.fu : f.fd) + 1 : 1).toFixed(4),
    hintDst: !!(hint && hint.dst === i && hint.kind !== "deal"),
    cards,
  };
}

// How each card element was drawn: {key, full} (see columnSpec); an element without one is drawn again.
const drawnKey = new WeakMap();

// May the element drawn as `was` show the card `spec`? The same key, and its art when it needs it (a
// top card that gets covered keeps its art, which the CSS hides under the next card).
const fits = (was, spec) => !!was && was.key === spec.key && (was.full || !spec.full);

/** Forget how card element `el` was drawn (its look was changed in place): the next drawing replaces it. */
export function forget(el) {
  drawnKey.delete(el);
}

const makeCard = (spec) => {
  const el = spec.make();
  if (spec.covered) el.classList.add("sp-covered");
  el.style.setProperty("--t", spec.t.toFixed(4));
  drawnKey.set(el, { key: spec.key, full: spec.full });
  return el;
};

// Column i, drawn anew: its pile element and its cards.
function buildColumn(v, i, f, hint, uid) {
  const spec = columnSpec(v, i, f, hint, uid);
  const pile = h("div", {
    class: `sp-pile sp-col${spec.hintDst ? " sp-hint-dst" : ""}`,
    "data-pile": `tableau-${i}`,
    id: `${uid}-p${i}`,
    role: "group", // (its cards, under its label; an empty column is a group of none)
    "aria-label": spec.label,
  });
  pile.append(h("div", { class: "sp-slot", "aria-hidden": "true" }));
  const els = spec.cards.map(makeCard);
  // (the cards go before an empty end mark: no card is ever a last child, so the page's :last-child
  // rules restyle nothing when cards come and go)
  pile.append(...els, h("span", { class: "sp-end", "aria-hidden": "true" }));
  cardsEnd.set(pile, spec.tend);
  if (spec.hintDst) showEnd(pile);
  return { pile, els };
}

// Where the cards of each column's pile end (card heights, see columnSpec). A pile shows it (--tend, for
// the ring of a target or a hint round its cards) only when it is marked: a custom property is inherited,
// so setting it restyles every card of the pile.
const cardsEnd = new WeakMap();

/** Let the marks of column pile `pile` (a target, a hint, a drop under the pointer) go round its cards. */
export function showEnd(pile) {
  const tend = cardsEnd.get(pile);
  if (tend !== undefined) setVarIfChanged(pile, "--tend", tend);
}

const setIfChanged = (el, name, value) => {
  if (el.getAttribute(name) !== value) el.setAttribute(name, value);
};
const setVarIfChanged = (el, name, value) => {
  if (el.style.getPropertyValue(name) !== value) el.style.setProperty(name, value);
};

// Column i drawn over its last drawing (`pile`, `old` its card elements): the cards that look the same
// from the bottom up stay (a card in flight flies on, and the browser restyles only what changed); the
// rest is drawn anew. Returns the column's card elements.
function patchColumn(v, i, f, hint, uid, pile, old) {
  const spec = columnSpec(v, i, f, hint, uid);
  setIfChanged(pile, "aria-label", spec.label);
  pile.classList.toggle("sp-hint-dst", spec.hintDst);
  cardsEnd.set(pile, spec.tend);
  if (spec.hintDst) showEnd(pile);
  let same = 0;
  while (same < old.length && same < spec.cards.length && fits(drawnKey.get(old[same]), spec.cards[same])) same++;
  const els = old.slice(0, same);
  for (let j = 0; j < same; j++) {
    setVarIfChanged(els[j], "--t", spec.cards[j].t.toFixed(4));
    if (els[j].classList.contains("sp-covered") !== spec.cards[j].covered) {
      els[j].classList.toggle("sp-covered", spec.cards[j].covered);
    }
  }
  for (let j = same; j < old.length; j++) old[j].remove();
  const fresh = spec.cards.slice(same).map(makeCard);
  if (fresh.length) pile.querySelector(":scope > .sp-end").before(...fresh);
  return els.concat(fresh);
}

// What decides the drawing of the stock, and of the foundations (each drawn again only when it changes).
const stockKey = (v) => JSON.stringify([v.deals_left, v.can_deal, v.deal_error, !!v.hint && v.hint.kind === "deal"]);
const foundationsKey = (v) => JSON.stringify([v.columns, v.runs_total, v.foundations,
  v.hint && v.hint.kind === "send" ? v.foundations.length : null]);

function buildFoundationBox(v, n, hint) {
  const { fbox, fslots } = buildFoundations(v, n);
  if (hint && hint.kind === "send") {
    const slot = fslots[v.foundations.length];
    if (slot) slot.classList.add("sp-hint-dst");
  }
  return { fbox, fslots };
}

/**
 * The table's content for view `v` (ids are prefixed with `uid`, one per widget view on the page), its
 * columns fanned for `geometry` (from the sizer: {maxRows, compact}).
 * Returns {frag, refs}: refs = {stock, piles[i], fslots[i], cards[i][j]} (cards[i]: column i bottom to
 * top, face-down cards included).
 */
export function buildTable(v, uid, geometry = DEFAULT_GEOMETRY) {
  const n = v.columns;
  const hint = v.hint;
  const frag = document.createDocumentFragment();
  const grid = `repeat(${n}, var(--card-w))`;

  // top row: stock, foundations
  const top = h("div", { class: "sp-top" });
  top.style.gridTemplateColumns = grid;
  const stock = buildStock(v, hint);
  const { fbox, fslots } = buildFoundationBox(v, n, hint);
  top.append(stock, fbox);
  frag.append(top);

  // column letters
  const letters = h("div", { class: "sp-letters", "aria-hidden": "true" });
  letters.style.gridTemplateColumns = grid;
  for (let i = 0; i < n; i++) letters.append(h("span", { class: "sp-letter", text: letter(i) }));
  frag.append(letters);

  // tableau
  const tab = h("div", { class: "sp-tableau" });
  tab.style.gridTemplateColumns = grid;
  const { fans, rows } = fanOf(v, geometry);
  const height = tableauHeight(rows);
  tab.style.height = height;
  const refs = { stock, fslots, piles: [], cards: [], fbox, tab, height, uid, stockKey: stockKey(v),
    foundationsKey: foundationsKey(v) };
  for (let i = 0; i < n; i++) {
    const { pile, els } = buildColumn(v, i, fans[i], hint, uid);
    refs.piles.push(pile);
    refs.cards.push(els);
    tab.append(pile);
  }
  frag.append(tab);
  return { frag, refs };
}

// (a height, not a custom property: that would be inherited, and restyle every card when the felt grows)
const tableauHeight = (rows) => `calc(var(--card-h) * ${rows.toFixed(3)})`;

const fanOf = (v, geometry) =>
  fanTableau(v.tableau.map((c) => (c.coming ? { ...c, up: [...c.up, ...Array(c.coming)] } : c)), geometry);

/**
 * Draw view `v` in `table` (the element holding the drawing `old`, the refs of buildTable or of this,
 * or null): what looks the same stays, the rest is drawn anew (a whole new drawing when the number of
 * columns changed). Returns the refs of the drawing, as buildTable's.
 */
export function drawInto(table, old, v, uid, geometry = DEFAULT_GEOMETRY) {
  if (!old || !old.tab || old.uid !== uid || old.piles.length !== v.columns || !old.tab.isConnected ||
      old.tab.parentNode !== table) {
    const { frag, refs } = buildTable(v, uid, geometry);
    table.replaceChildren(frag);
    return refs;
  }
  const n = v.columns;
  const hint = v.hint;
  const refs = { ...old, cards: [] };
  const sk = stockKey(v);
  if (sk !== old.stockKey) {
    const stock = buildStock(v, hint);
    old.stock.replaceWith(stock);
    Object.assign(refs, { stock, stockKey: sk });
  }
  const fk = foundationsKey(v);
  if (fk !== old.foundationsKey) {
    const { fbox, fslots } = buildFoundationBox(v, n, hint);
    old.fbox.replaceWith(fbox);
    Object.assign(refs, { fbox, fslots, foundationsKey: fk });
  }
  const { fans, rows } = fanOf(v, geometry);
  const height = tableauHeight(rows);
  if (old.height !== height) old.tab.style.height = height;
  refs.height = height;
  for (let i = 0; i < n; i++) refs.cards.push(patchColumn(v, i, fans[i], hint, uid, old.piles[i], old.cards[i]));
  return refs;
}

/**
 * Light up (.sp-target) where the top `k` cards of column `src` may go, as the view says: columns,
 * and the next foundation slot for a complete run that may be sent. Returns the target columns.
 */
export function markTargets(refs, v, src, k) {
  const targets = targetsOf(v, src, k);
  for (const d of targets) {
    if (!refs.piles[d]) continue;
    showEnd(refs.piles[d]);
    refs.piles[d].classList.add("sp-target");
  }
  if (v.sendable.includes(src) && k >= v.run_length) {
    const slot = refs.fslots[v.foundations.length];
    if (slot) slot.classList.add("sp-target");
  }
  return targets;
}
