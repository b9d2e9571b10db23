// The site's pictures of the notebooks' widgets (embed.js): a model that answers from the saved state and
// reaches no Python, and a view with nothing left running (it would never end on a page of the site).
import { test } from "node:test";
import assert from "node:assert/strict";

import { savedModel, still } from "../embed.js";

test("a saved model answers from its state, changes nothing and sends nothing", () => {
  const m = savedModel({ step: 3, view: { moves: 2 } });
  assert.equal(m.get("step"), 3);
  m.set("step", 4);
  m.save_changes();
  assert.equal(m.get("step"), 3);
  assert.throws(() => m.send({ action: "deal" }), /no kernel/);
});

test("a picture shows nothing still running: no search checking, no clock ticking, no Think", () => {
  const view = { thinking: true, winnable: { state: "thinking" }, analysis: { state: "running" },
    clock: { elapsed: 12, running: true }, score: 480 };
  const v = still(view);
  assert.deepEqual(v, { thinking: false, winnable: null, analysis: null, clock: { elapsed: 12, running: false },
    score: 480 });
  assert.equal(view.clock.running, true); // (the saved view itself is left as it was)
  const done = { thinking: false, winnable: { state: "win", moves: 80 }, analysis: { state: "done", undo: 2 } };
  assert.deepEqual(still(done), done);
});
