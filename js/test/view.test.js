// The view reader: every field present and of its type, the counts taken from Python's view (no rule of
// the game in the front end), and the replay's fields read by the same reader.
import { test } from "node:test";
import assert from "node:assert/strict";

import { readView, sendsRun } from "../view.js";
import { verdictText } from "../toolbar.js";

const model = (view) => ({ get: (key) => (key === "view" ? view : null) });

test("an empty or broken view reads as a table with every field of its type", () => {
  for (const raw of [undefined, null, 7, "x", [], {}, { tableau: "no", targets: [], status: 3 }]) {
    const v = readView(model(raw));
    assert.equal(v.columns, 1);
    assert.equal(v.tableau.length, 1);
    assert.deepEqual(v.tableau[0], { down: 0, up: [], movable: 0, coming: 0, total: 0, known: true,
      blocks_deal: false, completes_in: null });
    assert.deepEqual([v.deals, v.after], [[], {}]);
    assert.equal(v.status, "playing");
    assert.deepEqual(v.targets, {});
    assert.equal(v.runs_total, 0);
    assert.equal(v.run_length, 0);
    assert.equal(v.step, 0);
    assert.equal(v.title, "");
  }
});

test("the counts come from Python: columns, runs_total, run_length", () => {
  const v = readView(model({ columns: 10, runs_total: 8, run_length: 13, sendable: [2],
    tableau: [{ down: 2, up: ["KS"], movable: 1, completes_in: 11 }] }));
  assert.equal(v.columns, 10);
  assert.equal(v.tableau.length, 10);
  assert.deepEqual(v.tableau[0], { down: 2, up: ["KS"], movable: 1, coming: 0, total: 3, known: true,
    blocks_deal: false, completes_in: 11 });
  assert.equal(v.runs_total, 8);
  assert.equal(v.run_length, 13);
  assert.ok(sendsRun(v, 2, 13) && !sendsRun(v, 2, 14) && !sendsRun(v, 1, 13));
});

test("the replay's view is read by the same reader: its title, step and last step", () => {
  const v = readView(model({ columns: 7, title: "Spiderette", step: 3, steps: 15, status: "won" }));
  assert.deepEqual([v.title, v.step, v.steps, v.status], ["Spiderette", 3, 15, "won"]);
  assert.deepEqual([readView(model({ step: 2.5 })).step, readView(model({ steps: "9" })).steps], [0, 0]);
});

test("the post-mortem's view: where its undo goes and the range, an older view read as before", () => {
  const read = (analysis) => readView(model({ analysis })).analysis;
  assert.deepEqual(read({ state: "done", undo: 23, to: "winnable", lost_between: [4, 17] }),
    { state: "done", undo: 23, to: "winnable", lost_between: [4, 17] });
  assert.deepEqual(read({ state: "done", undo: 11 }), { state: "done", undo: 11, to: "turning", lost_between: null });
  assert.deepEqual(read({ state: "done", undo: null, to: "winnable", lost_between: [4, "x"] }),
    { state: "done", undo: null, to: null, lost_between: null });
  assert.equal(read({ state: "gone" }), null);
});

test("the Winnable? verdict: an unknown says Python's measured odds, or plain unknown when none were measured", () => {
  const read = (winnable) => readView(model({ winnable })).winnable;
  const odds = read({ state: "unknown", odds: "probably lost: 3 of 40 like it (21-30 cards hidden, undecided by 200,000 tables) proved winnable with 10× the search", probably_lost: true });
  assert.deepEqual(odds, { state: "unknown", moves: 0, odds: "probably lost: 3 of 40 like it (21-30 cards hidden, undecided by 200,000 tables) proved winnable with 10× the search",
    probably_lost: true, searching: false });
  assert.equal(verdictText(odds), "probably lost: 3 of 40 like it (21-30 cards hidden, undecided by 200,000 tables) proved winnable with 10× the search");
  assert.equal(verdictText(read({ state: "unknown", odds: "undecided: 9 of 20 like it (21-30 cards hidden, undecided by 200,000 tables) proved winnable with 10× the search", searching: true })),
    "undecided: 9 of 20 like it (21-30 cards hidden, undecided by 200,000 tables) proved winnable with 10× the search, searching on\u2026");
  assert.equal(verdictText(read({ state: "unknown", odds: null })), "unknown");
  assert.equal(verdictText(read({ state: "unknown", odds: 7 })), "unknown");
  assert.equal(verdictText(read({ state: "win", moves: 40 })), "winnable (line of 40 moves)");
  assert.equal(verdictText(read({ state: "win", moves: null })), "winnable (proven; no line kept)");
  assert.equal(verdictText(read({ state: "win", moves: 0 })), "won");
  assert.equal(verdictText(read({ state: "win", moves: "x" })), "won");
  assert.equal(read(null), null);
});
