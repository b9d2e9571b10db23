// The one place that reads the game from the model: the synced `view` and `variants` traits
// (docs/widget-protocol.md), normalised once per change. Every other module receives the normalised
// view and can trust its shape; none of them calls model.get("view").

// No rule of the game here: the counts (columns, runs_total, run_length) come from Python's view.
import { arr, int, num, obj, str } from "./values.js";

// A column. `coming` (predictions only, never from Python): backs dealt on top, awaiting Python's view.
// `known`: its facts for a deal (blocks_deal, completes_in) are Python's, as on every column of Python's
// view; a prediction's column that changed without them is not known, and a deal then waits for Python.
function column(raw) {
  const c = obj(raw) || {};
  const up = arr(c.up);
  const down = c.down | 0;
  const f = factsOf(c);
  return { down, up, movable: c.movable | 0, coming: 0, total: down + up.length, known: true,
    blocks_deal: f.blocks_deal, completes_in: f.completes_in };
}

// The Winnable? verdict: null (the indicator is off) or {state: thinking | win | loss | unknown, moves, odds,
// probably_lost, searching}: an unknown's odds are Python's words for what was measured of such positions
// ("" if none); searching, whether a longer search of it goes on.
const VERDICTS = ["thinking", "win", "loss", "unknown"];
function verdict(raw) {
  const x = obj(raw);
  if (!x) return null;
  // (moves: the winning line's length; null for a win the proof pass reached without keeping a line)
  const moves = x.state === "win" && x.moves === null ? null : num(x.moves);
  return { state: VERDICTS.includes(x.state) ? x.state : "unknown", moves, odds: str(x.odds),
    probably_lost: x.probably_lost === true, searching: x.searching === true };
}

// "Where did it go wrong?": {state: running | done, undo (moves to take back, or null), to: turning | winnable
// | null (where the undo goes), lost_between: [first, last] move numbers or null}.
function analysisOf(x) {
  const between = Array.isArray(x.lost_between) && x.lost_between.length === 2 && x.lost_between.every(Number.isInteger)
    ? [x.lost_between[0], x.lost_between[1]] : null;
  const undo = Number.isInteger(x.undo) ? x.undo : null;
  return { state: x.state, undo, to: undo !== null && ["turning", "winnable"].includes(x.to) ? x.to : (undo !== null ? "turning" : null),
    lost_between: between };
}

// A column's facts (docs/widget-protocol.md; Python leaves out what is not so): movable, sendable,
// blocks_deal, completes_in (null: no dealt card may complete a run there).
function factsOf(raw) {
  const f = obj(raw) || {};
  return { movable: f.movable | 0, sendable: f.sendable === true, blocks_deal: f.blocks_deal === true,
    completes_in: Number.isInteger(f.completes_in) && f.completes_in >= 0 ? f.completes_in : null };
}

// What the table after a move ("src:count:dst") or a send ("send:src") knows (Python's `after`): the facts
// of the columns it changes, and its unforeseen targets.
function afterOf(raw) {
  const out = {};
  for (const [key, x] of Object.entries(obj(raw) || {})) {
    const f = obj(x);
    if (f && obj(f.src)) out[key] = { src: factsOf(f.src), dst: factsOf(f.dst), unforeseen: obj(f.unforeseen) || {} };
  }
  return out;
}

// The saved game the Resume button offers: null, or {variant, suits, seed, moves, score}.
function resumeOffer(raw) {
  const x = obj(raw);
  if (!x) return null;
  return { variant: str(x.variant), suits: x.suits | 0, seed: Number.isInteger(x.seed) ? x.seed : null,
    moves: num(x.moves), score: num(x.score) };
}

// The game timer: {elapsed (seconds, when the view came), running, at (performance.now() then)}. One
// stamp per view object, so that every view of the widget on the page ticks the same seconds. A view
// first seen long after it was synced (a page opened on a running game) is dated by the kernel's clock.
const stamps = new WeakMap();
function clock(raw, x, synced) {
  const c = obj(x) || {};
  let at = stamps.get(raw);
  if (at === undefined) {
    at = performance.now();
    if (!synced && c.running && num(c.at) > 0) at -= Math.min(Math.max(0, Date.now() - 1000 * num(c.at)), 864e5);
    stamps.set(raw, at);
  }
  const elapsed = Math.max(0, num(c.elapsed));
  // the clock stops counting a minute after the last action (Python's IDLE): `until` is where it stops
  const until = Number.isFinite(c.until) ? Math.max(elapsed, c.until) : Infinity;
  return { elapsed, running: !!c.running, at, until };
}

/**
 * `model.get("view")` with every field present and of the right type; `tableau` has exactly `columns`
 * entries `{down, up, movable, coming, total}`. Field names are the protocol's. `synced`: the view has
 * just come (false for the view found when a widget view is drawn first).
 */
export function readView(model, synced = true) {
  const raw = obj(model.get("view"));
  const v = raw || {};
  const tableau = arr(v.tableau);
  const columns = Math.max(1, v.columns | 0 || tableau.length);
  return {
    version: v.version,
    variant: str(v.variant),
    suits: v.suits | 0,
    columns,
    tableau: Array.from({ length: columns }, (_, i) => column(tableau[i])),
    stock: v.stock | 0,
    deals_left: v.deals_left | 0,
    foundations: arr(v.foundations),
    runs_total: Math.max(0, v.runs_total | 0),
    run_length: Math.max(0, v.run_length | 0),
    score: num(v.score),
    moves: num(v.moves),
    runs: num(v.runs),
    status: str(v.status) || "playing",
    ending: str(v.ending),
    can_deal: !!v.can_deal,
    deal_error: str(v.deal_error) || null,
    can_undo: !!v.can_undo,
    can_redo: !!v.can_redo,
    sendable: arr(v.sendable),
    targets: obj(v.targets) || {},
    clicks: obj(v.clicks) || {},
    // what the front end must not predict: move targets that complete a run; columns where a dealt card may
    unforeseen: obj(v.unforeseen) || {},
    unforeseen_deal: arr(v.unforeseen_deal).filter(Number.isInteger),
    // the deals the stock holds ({dealt, stock, deals_left} each), and what the table after each move or
    // send the view foresees knows (for the intent made after it)
    deals: arr(v.deals).map(obj).filter(Boolean)
      .map((d) => ({ dealt: d.dealt | 0, stock: d.stock | 0, deals_left: d.deals_left | 0 })),
    after: afterOf(v.after),
    message: str(v.message),
    tone: str(v.tone),
    refused: obj(v.refused),
    hint: obj(v.hint),
    last: obj(v.last),
    thinking: !!v.thinking,
    winnable: verdict(v.winnable),
    undo_to_winnable: Number.isInteger(v.undo_to_winnable) ? v.undo_to_winnable : null,
    analysis: obj(v.analysis) && ["running", "done"].includes(v.analysis.state)
      ? analysisOf(v.analysis) : null,
    // why the table offers "Where did it go wrong?" (lost, no_move, resigned), or null
    offer_analysis: str(v.offer_analysis) || null,
    panel: v.panel === "stats" ? "stats" : null,
    resume: resumeOffer(v.resume),
    deal: typeof v.deal === "string" && v.deal ? v.deal : null,
    clock: clock(raw || {}, v.clock, synced),
    answer: str(v.answer) || null,
    // the replay viewer's: the game's title, the step shown and the last step ("" and 0 in the table's views)
    title: str(v.title),
    step: int(v.step),
    steps: int(v.steps),
    predicted: false,
  };
}

/** `model.get("variants")`: [{name, title, suits: [4, 2, 1]}], in Python's order. */
export function readVariants(model) {
  const out = [];
  for (const raw of arr(model.get("variants"))) {
    const x = obj(raw);
    if (!x || !str(x.name)) continue;
    out.push({
      name: x.name,
      title: str(x.title) || x.name,
      suits: arr(x.suits).filter((n) => Number.isInteger(n) && n > 0),
    });
  }
  return out;
}

/** The legal destination columns of the top `k` cards of column `src`. */
export const targetsOf = (v, src, k) => arr(v.targets[`${src}:${k}`]);

/** Does picking the top `k` cards of column `col` mean "send its complete run"? */
export const sendsRun = (v, col, k) => v.sendable.includes(col) && k <= v.run_length;

/** The top `k` face-up cards of column `c`, as one string: what a press or a pick-up holds. */
export const topCards = (c, k) => c.up.slice(c.up.length - k).join();

/** Equal for two views that show the same cards in the same places. */
export const tableauSignature = (v) => JSON.stringify([v.tableau, v.foundations, v.stock]);
