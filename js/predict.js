// Instant response: draw what the view already tells before Python answers (docs/widget-protocol.md,
// "Predictions"). A prediction is a view like Python's, marked `predicted`, made from the view on the
// table and an intent:
// - a move (a legal drop, or a click: the destination is the one Python's table.click_move picks, read
//   from the view's targets in the same order);
// - a deal (a back lands on every column and stays a back until Python's view says which card it is);
// - a complete run sent to the foundations (its king shows there);
// - an undo or a redo (the table before or after, kept from earlier views).
// The front end holds no rules: what it cannot read from the views it leaves out (the targets of the
// predicted table, the score), and a card that turns over stays a back. Python's answer (the view with
// `answer` equal to the intent's `id`) replaces the prediction, confirming or correcting it.

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

// What a prediction leaves out: what Python computes with the rules.
function base(v, last, tableau) {
  return { ...v, tableau, targets: {}, clicks: {}, sendable: [], hint: null, last, predicted: true };
}

/** The table after moving the top `k` cards of `src` onto `dst`, if the view says it is legal; else null. */
export function predictMove(v, src, dst, k) {
  const from = v.tableau[src];
  if (!from || !v.tableau[dst] || from.coming || v.tableau[dst].coming || k < 1 || k > from.movable) return null;
  if (!targetsOf(v, src, k).includes(dst)) return null;
  const tableau = v.tableau.map(copyColumn);
  const s = tableau[src];
  const d = tableau[dst];
  d.up.push(...s.up.splice(s.up.length - k, k));
  // Left behind: the rest of the group still moves; a lone top card moves; a back stays a back.
  s.movable = s.up.length ? Math.max(1, from.movable - k) : 0;
  d.movable = k; // at least the group that came (Python says whether it joins a longer one)
  return base(v, { kind: "move", src, dst, count: k }, tableau.map(settle));
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
  s.movable = s.up.length ? 1 : 0; // (at least the top card; Python says how many more)
  const p = base(v, { kind: "send", src }, tableau.map(settle));
  p.foundations = [...v.foundations, run[0]];
  p.runs = (v.runs | 0) + 1;
  return p;
}

/** The table after a deal, if the view says one can be made: a back on every column; else null. */
export function predictDeal(v) {
  if (!v.can_deal || v.deals_left < 1) return null;
  const tableau = v.tableau.map((c) => ({ ...copyColumn(c), coming: (c.coming | 0) + 1, movable: 0 }));
  const p = base(v, { kind: "deal" }, tableau.map(settle));
  p.stock = Math.max(0, v.stock - v.columns);
  p.deals_left = v.deals_left - 1;
  return p;
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
export function createHistory() {
  let back = []; // earlier tables, the last one just before the table shown
  let ahead = []; // tables taken back, the last one the next redo

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
    return { ...p, version: v.version, last: { kind: "undo" }, predicted: true };
  }

  function redo(v) {
    const p = ahead[ahead.length - 1];
    if (!v.can_redo || !p || p.moves !== v.moves + 1) return null;
    return { ...p, version: v.version, last: { kind: "redo" }, predicted: true };
  }

  return { see, undo, redo };
}

/** The prediction for `intent` on the view `v` (with `history`), or null when the outcome is not known. */
export function predict(v, intent, history) {
  if (v.predicted) return null;
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
