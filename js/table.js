// The table as a function of the view: buildTable(view) draws the stock, the foundations, the column
// letters and the tableau, from nothing but the (normalised) view.

import { cardFace, cardName, h, letter } from "./cards.js";
import { DEFAULT_GEOMETRY, fanTableau } from "./layout.js";
import { RUN_LENGTH, targetsOf } from "./view.js";

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
  const fbox = h("div", { class: "sp-foundations", "aria-label": "completed runs" });
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
      slot.setAttribute("aria-label", "empty foundation");
    }
    fslots.push(slot);
    fbox.append(slot);
  }
  return { fbox, fslots };
}

// Column i: its pile element and its cards (face-down first, then face-up, bottom to top).
function buildColumn(v, i, f, hint, uid) {
  const c = v.tableau[i];
  const L = letter(i);
  const pile = h("div", {
    class: "sp-pile sp-col",
    "data-pile": `tableau-${i}`,
    id: `${uid}-p${i}`,
    "aria-label": c.total
      ? `column ${L}: ${c.down} face-down, ${c.up.length} face-up`
      : `column ${L}: empty`,
  });
  pile.append(h("div", { class: "sp-slot", "aria-hidden": "true" }));
  const els = [];
  let t = 0;
  for (let j = 0; j < c.down; j++) {
    const d = h("div", {
      class: "sp-card sp-down",
      "data-face": "down",
      "data-col": i,
      "data-index": j,
      role: "img",
      "aria-label": `face-down card, column ${L}`,
    });
    d.style.setProperty("--t", t.toFixed(4));
    t += f.fd;
    els.push(d);
  }
  const hintSrc = hint && hint.src === i && hint.kind !== "deal" ? Math.max(1, hint.count | 0) : 0;
  const sendRun = v.sendable.includes(i);
  c.up.forEach((code, j) => {
    const index = c.down + j;
    const k = c.total - index;
    const card = cardFace(code, k === 1); // (the art on the top card only: the others show their strip)
    card.dataset.col = String(i);
    card.dataset.index = String(index);
    card.id = `${uid}-c${i}-${index}`;
    card.setAttribute("aria-label", `${cardName(code)}, column ${L}`);
    if (k <= c.movable) card.classList.add("sp-movable");
    if (sendRun && k <= RUN_LENGTH) card.classList.add("sp-sendable");
    if (k <= hintSrc) card.classList.add("sp-hint-src");
    card.style.setProperty("--t", t.toFixed(4));
    t += f.fu;
    els.push(card);
  });
  // (a prediction of a deal: backs dealt on top, until Python's view says which cards they are)
  for (let j = 0; j < c.coming; j++) {
    const d = h("div", {
      class: "sp-card sp-down sp-coming", "data-face": "down", "data-coming": "true", "data-col": i,
      "data-index": c.down + c.up.length + j, role: "img", "aria-label": `card being dealt, column ${L}`,
    });
    d.style.setProperty("--t", t.toFixed(4));
    t += f.fu;
    els.push(d);
  }
  pile.append(...els);
  // where its cards end (card heights): a target or a hint is drawn round the cards, not the whole column
  pile.style.setProperty("--tend", (els.length ? t - (c.up.length ? f.fu : f.fd) + 1 : 1).toFixed(4));
  if (hint && hint.dst === i && hint.kind !== "deal") pile.classList.add("sp-hint-dst");
  return { pile, els };
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
  const { fbox, fslots } = buildFoundations(v, n);
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
  const { fans, rows } = fanTableau(
    v.tableau.map((c) => (c.coming ? { ...c, up: [...c.up, ...Array(c.coming)] } : c)), geometry);
  tab.style.setProperty("--rows", rows.toFixed(3));
  const refs = { stock, fslots, piles: [], cards: [] };
  for (let i = 0; i < n; i++) {
    const { pile, els } = buildColumn(v, i, fans[i], hint, uid);
    refs.piles.push(pile);
    refs.cards.push(els);
    tab.append(pile);
  }
  if (hint && hint.kind === "send") {
    const slot = fslots[v.foundations.length];
    if (slot) slot.classList.add("sp-hint-dst");
  }
  frag.append(tab);
  return { frag, refs };
}

/**
 * Light up (.sp-target) where the top `k` cards of column `src` may go, as the view says: columns,
 * and the next foundation slot for a complete run that may be sent. Returns the target columns.
 */
export function markTargets(refs, v, src, k) {
  const targets = targetsOf(v, src, k);
  for (const d of targets) if (refs.piles[d]) refs.piles[d].classList.add("sp-target");
  if (v.sendable.includes(src) && k >= RUN_LENGTH) {
    const slot = refs.fslots[v.foundations.length];
    if (slot) slot.classList.add("sp-target");
  }
  return targets;
}
