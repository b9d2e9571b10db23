// The intents not answered yet (docs/widget-protocol.md, "No action is lost: the queue"), as a reducer:
// step(state, event) returns the next state and the effects the widget carries out, in order. No DOM, no
// model: the widget (widget.js) turns input into "intent" events and Python's views into "view" events,
// posts what the queue says to post and draws what it says to draw; tests play bursts on it alone
// (js/test/queue.test.js).
//
// One intent at a time is with Python (the first of `unanswered`: {intent, id, sent (the intent as sent,
// on Python's table), guess (its prediction, or null)}); the others wait their turn ({intent}, kept in the
// cards the player saw: predict.js, inCards). An answer that agrees with its prediction, or answers an
// intent not predicted (one Python refuses, or one the view says it cannot foresee), lets the next go, on
// Python's table; one that disagrees with its prediction, or a new game, drops the rest, said once.
//
// Events: {type: "intent", intent, drawn (the table it was made on)}, {type: "view", view (Python's)},
// {type: "silent", silent} (the kernel stopped or started answering: nothing is predicted meanwhile),
// {type: "gone"} (a message could not be sent: nothing more can be).
// Effects: {type: "post", msg}; {type: "show", view, guess} (Python's view, everything drawn from it; guess:
// the prediction it answers); {type: "chrome", view} (Python's view around the table only, the table still
// drawn from the intents waiting); {type: "chain", table, known} (the table after Python's view and the
// intents waiting, as far as the views tell it; known false: it is behind the intents made);
// {type: "refuse", text} (the status line says so).

import { GONE, agrees, clickTarget, createHistory, inCards, predict, resolve } from "./predict.js";
import { targetsOf } from "./view.js";

/** Intents that leave the table as it is (an intent queued after one of them is predicted on the same table). */
export const STILL = ["hint", "think", "stop_thinking", "stats", "winnable", "away"];

/** The queue before any intent: Python's first view `view`; `prefix` makes the intents' ids unique. */
export function initial(view, prefix = "q") {
  const history = createHistory();
  history.see(null, view);
  return { confirmed: view, history, unanswered: [], sent: 0, notPlayed: 0, silent: false, prefix };
}

/** The next state and the effects of `event` on `state` (which is not changed). */
export function step(state, event) {
  const fx = [];
  let s = state;
  if (event.type === "intent") {
    s = { ...s, unanswered: [...s.unanswered, { intent: inCards(event.drawn, event.intent) }] };
    if (s.unanswered.length === 1) s = sendFirst(s, fx);
    fx.push(chain(s));
  } else if (event.type === "view") {
    const history = s.history.fork();
    history.see(s.confirmed, event.view);
    s = { ...s, confirmed: event.view, history };
    if (!s.unanswered.length) fx.push({ type: "show", view: event.view, guess: null });
    else if (event.view.answer === s.unanswered[0].id) s = answer(s, event.view, fx);
    // (else not the answer yet: a view of a background thread's, or a later one of an earlier answer;
    // the prediction stays on the table)
  } else if (event.type === "silent") {
    s = { ...s, silent: !!event.silent };
  } else if (event.type === "gone") {
    s = { ...s, unanswered: [] };
  }
  return { state: sayNotPlayed(s, fx), effects: fx };
}

// Send the first intent not answered, on Python's latest table (its version), with its prediction. One
// whose cards are no longer where it can take them is not sent (counted, said once the queue is empty).
function sendFirst(s, fx) {
  const rest = [...s.unanswered];
  let { notPlayed, sent } = s;
  while (rest.length) {
    const intent = resolve(s.confirmed, rest[0].intent);
    if (intent === GONE) {
      rest.shift();
      notPlayed += 1;
      continue;
    }
    sent += 1;
    const id = `${s.prefix}-${sent}`;
    rest[0] = { ...rest[0], id, sent: intent, guess: predict(s.confirmed, intent, s.history) };
    fx.push({ type: "post", msg: { ...intent, version: s.confirmed.version, id } });
    break;
  }
  return { ...s, unanswered: rest, notPlayed, sent };
}

// Python's view `v` answers the first intent.
function answer(s, v, fx) {
  const [first, ...rest] = s.unanswered;
  const ok = first.guess ? agrees(first.guess, v) : !(v.last && v.last.kind === "new");
  const lost = ok ? 0 : rest.length;
  s = { ...s, unanswered: ok ? rest : [] };
  if (s.unanswered.length) {
    fx.push({ type: "chrome", view: v });
    s = sendFirst(s, fx);
    if (s.unanswered.length) {
      fx.push(chain(s));
      return s;
    }
  }
  fx.push({ type: "show", view: v, guess: first.guess || null });
  if (lost) {
    fx.push({ type: "refuse", text: `Python answered differently: ${lost} action${lost === 1 ? "" : "s"} made ` +
      `meanwhile ${lost === 1 ? "was" : "were"} not sent. ${v.message}`.trim() });
    s = { ...s, notPlayed: 0 };
  }
  return s;
}

// Once the queue is empty: the intents not sent since it was last empty (their cards had gone), said once.
function sayNotPlayed(s, fx) {
  if (!s.notPlayed || s.unanswered.length) return s;
  const n = s.notPlayed;
  fx.push({ type: "refuse", text: `${n === 1 ? "One action was" : `${n} actions were`} not played: ` +
    "the cards had moved before Python could play it." });
  return { ...s, notPlayed: 0 };
}

/** The table after Python's view and the intents not yet answered (see chainView). */
const chain = (s) => ({ type: "chain", ...chainView(s) });

/**
 * The table after Python's view and the intents not yet answered, as far as the views tell it: each is
 * predicted on top of the one before; an intent that Python refuses on that table changes nothing; an
 * intent with no prediction that may change the table ends it (`known` false: the table drawn is behind
 * the intents made). Nothing is predicted while Python does not answer.
 */
export function chainView(s) {
  if (!s.unanswered.length || s.silent) return { table: s.confirmed, known: true };
  const h = s.history.fork();
  let t = s.confirmed;
  for (const [i, item] of s.unanswered.entries()) {
    const intent = i === 0 ? item.sent : resolve(t, item.intent);
    if (intent === GONE) continue; // (its cards will have gone: it will not be sent)
    if (intent === null) return { table: t, known: false };
    const p = i === 0 ? item.guess : predict(t, intent, h);
    if (p) {
      h.see(t, p);
      t = p;
    } else if (!STILL.includes(intent.action) && !refused(t, intent)) {
      return { table: t, known: false };
    }
  }
  return { table: t, known: true };
}

/**
 * Does Python refuse `intent` on the table `t`, as its view tells: nothing to undo or redo; on Python's
 * own view, a move to a column its targets do not list, a click its clicks send nowhere, a send of a
 * column not sendable, a deal it cannot make. (A legal move not predicted, one the view says it cannot
 * foresee, is not refused: it changes the table, and the chain waits for Python there.)
 */
export function refused(t, intent) {
  if (intent.action === "undo") return !t.can_undo;
  if (intent.action === "redo") return !t.can_redo;
  if (t.predicted) return false;
  if (intent.action === "move") return !targetsOf(t, intent.src, intent.count).includes(intent.dst);
  if (intent.action === "click") return clickTarget(t, intent.src, intent.count) === null;
  if (intent.action === "send") return !t.sendable.includes(intent.src);
  if (intent.action === "deal") return !t.can_deal;
  return false;
}
