// Instant response: draw what the view already tells before Python answers (docs/widget-protocol.md,
// "Predictions"). A prediction is a view like Python's, marked `predicted`, made from the view on the
// table and an intent:
// - a move (a legal drop, or a click: the destination is the one Python's table.click_move picks, read
//   from the view's targets in the same order);
// - a deal (a back lands on every column and stays a back until Python's view says which card it is);
// - a complete run sent to the foundations (its king shows there);
// - an undo or a redo (the table before or after, kept from earlier views).
// The front end holds no rules: what it cannot read from the views it leaves out (the score, the targets
// of what a move uncovers), and a card that turns over stays a back. Whether a deal can be made, whether a
// dealt card may complete a run, what the columns a move or a send changes hold then (movable, sendable)
// are Python's facts, sent with the view (each column's `blocks_deal` and `completes_in`, the stock's
// `deals`, and `after` each move or send); what the view says it cannot foresee it does not predict at all
// (`unforeseen`: a move that completes a run, which leaves for the foundations at once; a deal while a
// column that gets a card may complete one): such an intent waits for Python's answer, so that a
// prediction is never wrong. A prediction may be made on a prediction (the queue of intents made while
// Python answers, widget.js): the targets a predicted move still knows are carried over (targetsAfter),
// and so are the facts of the columns it left as they were; a target a group reaches anew, and a deal
// once a column changed without Python's facts, wait for Python. Python's answer (the view with `answer`
// equal to the intent's `id`) replaces the prediction, confirming or correcting it.

import { targetsOf } from "./view.js";

/** How many earlier tables the undo stack keeps. */
const KEEP = 200;

const copyColumn = (c) => ({ ...c, up: [...c.up] });
const settle = (c) => ({ ...c, total: c.down + c.up.length + (c.coming | 0) });

/**
 * The column a click on the top `k` cards of column `src` sends them to: Python's answer
 * (`table.click_move`), sent in the view's `clicks`; null when there is none (Python then says why) or
 * when the columns involved await Python's view.
 */
export function clickTarget(v, src, k) {
  const c = v.tableau[src];
  const dst = v.clicks[`${src}:${k}`];
  if (!c || c.coming || !Number.isInteger(dst) || !v.tableau[dst] || v.tableau[dst].coming) return null;
  return dst;
}

// What a prediction leaves out: what Python computes with the rules. What it knows: one more move, which
// may be taken back and leaves nothing to redo (the toolbar offers Undo at once). `after` (what the table
// after an intent knows) is Python's only: empty on a prediction unless Python's view gave it.
function base(v, last, tableau) {
  return { ...v, tableau, targets: {}, clicks: {}, unforeseen: {}, sendable: [], hint: null, last, predicted: true,
    moves: (v.moves | 0) + 1, can_undo: true, can_redo: false, after: {} };
}

/** Does the view say the move of the top `k` cards of `src` onto `dst` has an outcome only Python knows? */
export const unforeseen = (v, src, dst, k) => (v.unforeseen[`${src}:${k}`] || []).includes(dst);

// The prediction `p` after a move or a send that changed the columns `changed`, on the view `v`: their facts
// are what Python's view says of them after it (`f`: its `after` entry, {src, dst}), or not known (on a
// table Python has not seen: the top card movable alone, Python says how many more). The facts Python gave
// for moves and sends between other columns still hold (but the unforeseen targets: the whole table's).
function learn(p, v, f, changed, counts = {}) {
  const tableau = p.tableau.map((c, i) => {
    if (!changed.includes(i)) return c;
    const x = f && (i === changed[0] ? f.src : f.dst);
    if (x) return { ...c, movable: x.movable, known: true, blocks_deal: x.blocks_deal, completes_in: x.completes_in };
    return { ...c, movable: counts[i] || (c.up.length ? 1 : 0), known: false, blocks_deal: false, completes_in: null };
  });
  const sendable = [...v.sendable.filter((i) => !changed.includes(i)),
    ...changed.filter((i, n) => f && (n ? f.dst : f.src) && (n ? f.dst : f.src).sendable)].sort((x, y) => x - y);
  const after = {};
  for (const [key, x] of Object.entries(v.after)) {
    const cols = key.split(":").filter((w) => /^[0-9]+$/.test(w)).map(Number);
    const at = key.startsWith("send:") ? cols : [cols[0], cols[2]];
    if (!at.some((i) => changed.includes(i))) after[key] = { ...x, unforeseen: null };
  }
  return outlook({ ...p, tableau, sendable, after }, v);
}

// A deal on table `t`, as the views tell it: null when none can be made (no deal left in the stock, or a
// column blocks it); "waits" when its outcome is Python's to say (a dealt card may complete a run, or a
// column's facts are not known); else "known".
function dealOn(t) {
  const d = t.deals[0];
  if (!d || t.tableau.some((c) => c.known && c.blocks_deal)) return null;
  if (t.tableau.some((c, i) => !c.known || (i < d.dealt && c.completes_in === 0))) return "waits";
  return "known";
}

// The stock and unforeseen_deal of a prediction, from its columns (the stock is drawn as Python's view has
// it while a column's facts are not known).
function outlook(p, v) {
  const d = dealOn(p);
  const known = p.tableau.every((c) => c.known);
  const n = p.deals.length ? p.deals[0].dealt : 0;
  return { ...p, can_deal: known ? d !== null : v.can_deal,
    unforeseen_deal: [...p.tableau.keys()].filter((i) => i < n && p.tableau[i].completes_in === 0) };
}

/** The table after moving the top `k` cards of `src` onto `dst`, if the view says it is legal; else null. */
export function predictMove(v, src, dst, k) {
  const from = v.tableau[src];
  if (!from || !v.tableau[dst] || from.coming || v.tableau[dst].coming || k < 1 || k > from.movable) return null;
  if (!targetsOf(v, src, k).includes(dst) || unforeseen(v, src, dst, k)) return null;
  const tableau = v.tableau.map(copyColumn);
  const s = tableau[src];
  const d = tableau[dst];
  d.up.push(...s.up.splice(s.up.length - k, k));
  const p = base(v, { kind: "move", src, dst, count: k }, tableau.map(settle));
  p.targets = targetsAfter(src, dst, k, v.targets, true);
  const f = v.after[`${src}:${k}:${dst}`];
  if (f && f.unforeseen) p.unforeseen = f.unforeseen;
  else {
    // (a group whose target was src goes onto the cards that moved: whether it completes a run is Python's)
    p.unforeseen = targetsAfter(src, dst, k, v.unforeseen, false);
    for (const [key, ds] of Object.entries(p.targets)) {
      if (!ds.includes(dst) || key.startsWith(`${dst}:`)) continue;
      p.unforeseen[key] = [...new Set([...(p.unforeseen[key] || []), dst])].sort((x, y) => x - y);
    }
  }
  return learn(p, v, f, [src, dst], { [dst]: k }); // (without facts: the group that came moves on)
}

/**
 * The targets of the table after a move of `k` cards from `src` onto `dst`, as far as the view's own
 * targets tell them (a move's legality depends only on the cards moved and the top of the column they go
 * onto): a group of another column goes where it went before, and onto `dst` if it went onto `src` (whose
 * top card is on `dst` now; with `routed`); the cards that came to `dst` go where they went from `src`.
 * What the move uncovered on `src` is left out (the next move from or onto it waits for Python). The same
 * reading carries the view's unforeseen targets (`old`), without `routed`.
 */
function targetsAfter(src, dst, k, old, routed) {
  const out = {};
  const other = (d) => d !== src && d !== dst;
  for (const [key, ds] of Object.entries(old || {})) {
    const a = Number(key.split(":")[0]);
    if (a === src || a === dst || !Array.isArray(ds)) continue;
    const to = ds.filter(other);
    if (routed && ds.includes(src)) to.push(dst); // (its target src: the top card went onto dst)
    out[key] = to.sort((x, y) => x - y);
  }
  for (let c = 1; c <= k; c++) {
    const ds = (old || {})[`${src}:${c}`];
    if (Array.isArray(ds)) out[`${dst}:${c}`] = ds.filter(other);
  }
  return out;
}

/**
 * The table after sending the complete run on top of column `src` to the foundations, if the view says it
 * may go; else null. (A back it uncovers stays a back; the foundation shows the run's king.)
 */
export function predictSend(v, src) {
  const from = v.tableau[src];
  if (!from || from.coming || !v.sendable.includes(src) || from.up.length < v.run_length) return null;
  const tableau = v.tableau.map(copyColumn);
  const s = tableau[src];
  const run = s.up.splice(s.up.length - v.run_length, v.run_length);
  const p = base(v, { kind: "send", src }, tableau.map(settle));
  p.foundations = [...v.foundations, run[0]];
  p.runs = (v.runs | 0) + 1;
  return learn(p, v, v.after[`send:${src}`], [src]);
}

/**
 * The table after a deal, if the views say one can be made and what it leaves: a back on each column that
 * gets a card (the first `dealt` of the stock's next deal); else null.
 */
export function predictDeal(v) {
  if (dealOn(v) !== "known") return null; // (none can be made, or its outcome is Python's to say)
  const d = v.deals[0];
  const tableau = v.tableau.map((c, i) => (i < d.dealt ? { ...copyColumn(c), coming: (c.coming | 0) + 1, movable: 0,
    blocks_deal: false, completes_in: c.completes_in === null ? null : c.completes_in - 1 } : c)); // (one deal on)
  const p = base(v, { kind: "deal" }, tableau.map(settle));
  return outlook({ ...p, stock: d.stock, deals_left: d.deals_left, deals: v.deals.slice(1) }, v);
}

const sameTable = (a, b) =>
  JSON.stringify([a.tableau.map((c) => [c.down, c.up]), a.foundations, a.stock]) ===
  JSON.stringify([b.tableau.map((c) => [c.down, c.up]), b.foundations, b.stock]);

/**
 * Does Python's view `v` agree with the prediction `p`: the same cards where the prediction showed
 * them, a back that turned over aside? (Then an intent made on the predicted table means the same on
 * Python's.)
 */
export function agrees(p, v) {
  if (!p || !v || p.columns !== v.columns || p.foundations.length !== v.foundations.length) return false;
  return p.tableau.every((c, i) => {
    const w = v.tableau[i];
    if (c.total !== w.total || w.down > c.down) return false;
    // every face-up card of the prediction lies in the same place in Python's view
    return c.up.every((code, j) => w.up[c.down + j - w.down] === code);
  });
}

/**
 * The tables of the game before and after the one shown, from the views Python sent: see(prev, v) after
 * each view; undo(v) and redo(v): the predicted table of an undo or a redo of view `v`, or null.
 */
export function createHistory(start = [[], []]) {
  let back = [...start[0]]; // earlier tables, the last one just before the table shown
  let ahead = [...start[1]]; // tables taken back, the last one the next redo

  const keep = (v) => ({ ...v, hint: null, last: null, message: "", answer: null, predicted: false });

  function see(prev, v) {
    const kind = v.last && v.last.kind;
    if (!prev || kind === "new" || prev.variant !== v.variant || prev.columns !== v.columns) {
      back = [];
      ahead = [];
    } else if (["move", "deal", "send", "redo"].includes(kind) && v.moves === prev.moves + 1) {
      back.push(keep(prev));
      if (back.length > KEEP) back.shift();
      if (kind === "redo") ahead.pop();
      else ahead = [];
    } else if (kind === "undo") {
      while (back.length && back[back.length - 1].moves >= v.moves) back.pop();
      if (v.moves === prev.moves - 1) ahead.push(keep(prev));
      else ahead = [];
    } else if (!sameTable(prev, v) || prev.moves !== v.moves) {
      back = []; // changed from a script (w.refresh()): what came before is not known
      ahead = [];
    }
  }

  function undo(v) {
    const p = back[back.length - 1];
    if (!v.can_undo || !p || p.moves !== v.moves - 1) return null;
    return { ...p, version: v.version, last: { kind: "undo" }, predicted: true, can_redo: true };
  }

  function redo(v) {
    const p = ahead[ahead.length - 1];
    if (!v.can_redo || !p || p.moves !== v.moves + 1) return null;
    return { ...p, version: v.version, last: { kind: "redo" }, predicted: true, can_undo: true,
      can_redo: ahead.length > 1 };
  }

  // A copy to predict a chain of intents on (see() with predicted tables), the history itself unchanged.
  const fork = () => createHistory([back, ahead]);

  return { see, undo, redo, fork };
}

/**
 * The prediction for `intent` on the view `v` (with `history`), or null when the outcome is not known.
 * `v` may be a prediction itself (a chain of intents): what it leaves out (targets, sendable) is not
 * predicted on it.
 */
export function predict(v, intent, history) {
  if (intent.action === "undo") return history.undo(v);
  if (intent.action === "redo") return history.redo(v);
  if (intent.action === "deal") return predictDeal(v);
  if (intent.action === "send") return predictSend(v, intent.src);
  if (intent.action === "move") return predictMove(v, intent.src, intent.dst, intent.count);
  if (intent.action === "click") {
    const dst = clickTarget(v, intent.src, intent.count);
    return dst === null ? null : predictMove(v, intent.src, dst, intent.count);
  }
  return null;
}

// ------------------------------------------------------------------------------------ intents in cards
// An intent that names columns is made on the table drawn, which may be a prediction, or lag behind the
// intents made before it (one the views could not predict). It is kept in the cards the player saw: the
// card at the bottom of the group it takes (`card`; a send: the top card), and for a move the top card of
// the column it goes onto (`onto`; "" for an empty column). When its turn comes it is sent on Python's
// table for those cards, wherever they lie then (docs/widget-protocol.md, "No action is lost").

/** Not to be sent: the cards an intent names are no longer where it can take them. */
export const GONE = Object.freeze({ gone: true });

const NAMES_COLUMNS = ["move", "click", "send"];
const topOf = (c) => (c && !c.coming && c.up.length ? c.up[c.up.length - 1] : null);

/** `intent` (made on the table `v`) with the cards it names; unchanged when they are not all seen. */
export function inCards(v, intent) {
  if (!v || !NAMES_COLUMNS.includes(intent.action)) return intent;
  const c = v.tableau[intent.src];
  // (the group's bottom card among the face-up ones; cards of a deal still coming lie on top of them)
  const at = intent.action === "send" ? (c ? c.up.length - 1 : -1) : c ? c.up.length + (c.coming | 0) - intent.count : -1;
  if (!c || !Number.isInteger(at) || at < 0 || at >= c.up.length || (intent.action === "send" && c.coming)) return intent;
  const out = { ...intent, card: c.up[at] };
  if (intent.action === "move") {
    const d = v.tableau[intent.dst];
    if (d && !d.coming && (!d.total || d.up.length)) out.onto = d.total ? topOf(d) : "";
  }
  return out;
}

/**
 * The intent to send on the table `t` for `intent` (its columns found from its cards; without the card
 * fields), GONE when its cards are not where it can take them, or null when `t` does not tell (a column
 * that awaits the cards of a deal).
 */
export function resolve(t, intent) {
  if (intent.card === undefined) return intent; // (kept without cards: inCards adds onto only with card)
  // (two decks hold each card twice: the column the intent named first, else the leftmost)
  const prefer = (cols, i) => (cols.includes(i) ? i : cols.length ? cols[0] : -1);
  const holding = [...t.tableau.keys()].filter((i) => t.tableau[i].up.includes(intent.card));
  if (holding.some((i) => t.tableau[i].coming)) return null;
  const src = prefer(holding, intent.src);
  if (src < 0) return t.tableau.some((c) => c.coming) ? null : GONE;
  const up = t.tableau[src].up;
  const k = src === intent.src && up[up.length - intent.count] === intent.card ? intent.count
    : up.length - up.lastIndexOf(intent.card);
  if (intent.action === "send") return k === 1 ? { action: "send", src } : GONE;
  const out = { action: intent.action, src, count: k };
  if (intent.action === "click") return out;
  if (intent.onto === undefined) return { ...out, dst: intent.dst };
  if (intent.onto === "") {
    const d = t.tableau[intent.dst];
    return d && !d.total && intent.dst !== src ? { ...out, dst: intent.dst } : GONE;
  }
  const dst = prefer([...t.tableau.keys()].filter((i) => i !== src && topOf(t.tableau[i]) === intent.onto), intent.dst);
  if (dst < 0) return t.tableau.some((c) => c.coming) ? null : GONE;
  return dst === src ? GONE : { ...out, dst };
}
