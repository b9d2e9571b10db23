// The intent queue (js/queue.js) on the bursts the browser tests play (tests/e2e/test_no_action_lost_e2e.py):
// several clicks and drags made before Python answers, an answer that disagrees, an answer to a move not
// predicted, a refusal in the middle of a burst. Python's answers are the widget's own
// (fixtures/queue-answers.json, written by tests/test_js_units.py, which runs these tests).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { readView } from "../view.js";
import { agrees } from "../predict.js";
import { chainView, initial, step } from "../queue.js";

const model = (view) => ({ get: (key) => (key === "view" ? view : null) });
const bursts = JSON.parse(readFileSync(new URL("./fixtures/queue-answers.json", import.meta.url), "utf8"));
const burst = (name) => bursts.find((b) => b.name === name);

// Deal 7: a 4H, b 6H, c JC, d 7C, e 3S, f 8H, g AS.
const click = (src, count = 1) => ({ action: "click", src, count });
const move = (src, dst, count = 1) => ({ action: "move", src, dst, count });
const press = (action) => ({ action });

/**
 * Play `acts` on the table of burst `b`, all made before Python answers anything (each on the table drawn
 * then), then let Python answer each message it receives, in turn, with the widget's answer. What the
 * table did, step by step: the messages posted, every effect, the table drawn after the acts and at the end.
 */
function play(b, acts) {
  let state = initial(readView(model(b.start), false), "t");
  let drawn = state.confirmed;
  const posts = [];
  const effects = [];
  const run = (event) => {
    const before = JSON.stringify(state.unanswered);
    const given = state;
    const out = step(state, event);
    assert.equal(JSON.stringify(given.unanswered), before, "the state given is not changed");
    state = out.state;
    for (const e of out.effects) {
      effects.push(e);
      if (e.type === "post") posts.push(e.msg);
      if (e.type === "chain") drawn = e.table;
      if (e.type === "show") drawn = e.view;
    }
    return out.effects;
  };
  const chains = [];
  for (const intent of acts) {
    const fx = run({ type: "intent", intent, drawn });
    chains.push(fx.find((e) => e.type === "chain"));
  }
  const afterActs = { drawn, posted: posts.length, waiting: state.unanswered.length, first: state.unanswered[0] };
  const answers = [];
  for (let i = 0; i < posts.length; i++) {
    const { msg, view } = b.steps[i];
    const { id, version, ...sent } = posts[i];
    assert.deepEqual(sent, msg, `${b.name}: message ${i + 1} as Python received it`);
    assert.equal(version, (i ? b.steps[i - 1].view : b.start).version, "it quotes Python's latest version");
    answers.push(run({ type: "view", view: readView(model({ ...view, answer: id })) }));
  }
  assert.equal(posts.length, b.steps.length, `${b.name}: every message Python received, and no other`);
  const last = readView(model(b.steps[b.steps.length - 1].view));
  const refusals = effects.filter((e) => e.type === "refuse").map((e) => e.text);
  return { state, posts, effects, chains, afterActs, answers, drawn, last, refusals };
}

test("a burst of clicks, drags, a deal and undos made before Python answers: each predicted, all played", () => {
  const b = burst("burst");
  const r = play(b, [click(1), move(4, 0), press("deal"), press("undo"), press("undo")]);
  assert.equal(r.afterActs.posted, 1, "one intent at a time is with Python");
  assert.equal(r.afterActs.waiting, 5);
  assert.ok(r.chains.every((c) => c.known && c.table.predicted), "every intent was predicted on the one before");
  assert.ok(agrees(r.afterActs.drawn, r.last), "the predicted end is where Python ends");
  assert.deepEqual(r.refusals, []);
  assert.equal(r.state.unanswered.length, 0);
  assert.equal(r.drawn, r.state.confirmed, "the table shows Python's last view");
});

test("a move that completes a run is not predicted; the intents made behind it are sent, in cards", () => {
  const b = burst("completes a run");
  // AS (g) onto KS..2S (a): the run leaves for the foundations; then 8D (c) onto 9C (f), then Undo
  const r = play(b, [move(6, 0), move(2, 5), press("undo")]);
  const start = readView(model(b.start));
  assert.ok(start.unforeseen["6:1"].includes(0), "Python marks the move");
  assert.equal(r.afterActs.first.guess, null, "not predicted");
  assert.ok(r.chains.every((c) => !c.known && c.table === r.afterActs.drawn), "the table waits for Python");
  assert.ok(agrees(r.afterActs.drawn, start), "nothing wrong was drawn: the table Python showed");
  assert.equal(r.posts.length, 3, "no intent lost");
  // once Python answered the run, the rest is predicted again on Python's table
  const chain = r.answers[0].find((e) => e.type === "chain");
  assert.ok(chain && chain.known && chain.table.predicted);
  assert.deepEqual(r.refusals, []);
  assert.ok(agrees(r.drawn, r.last) && r.drawn === r.state.confirmed);
});

test("an intent whose cards went with a run is not sent, and the status line says so once", () => {
  const b = burst("completes a run, then a card gone");
  // a second click on the AS, made on the table drawn before Python's answer (the AS has left since)
  const r = play(b, [move(6, 0), click(6), press("deal")]);
  assert.deepEqual(r.posts.map((m) => m.action), ["move", "deal"]);
  assert.deepEqual(r.refusals, ["One action was not played: the cards had moved before Python could play it."]);
  assert.ok(r.effects.findIndex((e) => e.type === "refuse") > r.effects.findLastIndex((e) => e.type === "show"),
    "said after Python's view is drawn (not written over)");
  assert.equal(r.state.unanswered.length, 0);
});

test("an answer that disagrees with its prediction: the intents made meanwhile are not sent, said once", () => {
  const b = burst("changed behind the table");
  // the game changed behind the table (b->d played from a script, no view sent): 7C onto 8H is drawn at
  // once, Python refuses it; the click made on the predicted table is not sent
  const r = play(b, [move(3, 5), click(4)]);
  assert.ok(r.chains[0].known && r.chains[0].table.predicted);
  assert.equal(r.posts.length, 1);
  assert.equal(r.refusals.length, 1);
  assert.match(r.refusals[0], /^Python answered differently: 1 action made meanwhile was not sent\. Not allowed/);
  assert.equal(r.drawn, r.state.confirmed, "the table shows Python's view");
  assert.equal(r.state.unanswered.length, 0);
});

test("a refusal in the middle of a burst changes nothing and loses nothing", () => {
  const b = burst("a refusal in the middle");
  // 6H onto 7C (predicted), 3S onto 8H (not legal: Python refuses), a deal
  const r = play(b, [click(1), move(4, 5), press("deal")]);
  assert.ok(r.chains[0].known);
  assert.ok(!r.chains[1].known, "on a predicted table the refusal is Python's to say: the chain waits");
  // Python's answer to the click: on Python's own view the move is known refused, the deal predicted
  const chain = r.answers[0].find((e) => e.type === "chain");
  assert.ok(chain.known && chain.table.predicted && chain.table.last.kind === "deal");
  assert.equal(r.posts.length, 3, "the deal after the refusal is sent");
  assert.ok(!r.refusals.some((t) => t.startsWith("Python answered differently")));
  assert.ok(agrees(r.drawn, r.last) && r.drawn === r.state.confirmed);
});

test("a view that is not the answer leaves the queue; a silent kernel draws Python's view; a comm gone empties it", () => {
  const b = burst("burst");
  let s = initial(readView(model(b.start), false), "t");
  let out = step(s, { type: "intent", intent: click(1), drawn: s.confirmed });
  s = out.state;
  out = step(s, { type: "intent", intent: move(4, 0), drawn: out.effects.at(-1).table });
  s = out.state;
  const background = readView(model({ ...b.start, version: 2, answer: null }));
  out = step(s, { type: "view", view: background });
  assert.deepEqual(out.effects, [], "a background thread's view: the prediction stays");
  assert.equal(out.state.unanswered.length, 2);
  s = step(out.state, { type: "silent", silent: true }).state;
  assert.deepEqual(chainView(s), { table: s.confirmed, known: true }, "nothing is predicted while silent");
  s = step(s, { type: "silent", silent: false }).state;
  assert.ok(chainView(s).table.predicted);
  assert.equal(step(s, { type: "gone" }).state.unanswered.length, 0);
});
