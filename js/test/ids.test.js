// Ids unique in the page: every copy of the module (anywidget loads one for each widget model) counts on the
// page, not on its own, and an id already in the document is never given again.
import { test } from "node:test";
import assert from "node:assert/strict";

test("two copies of the module never give the same prefix", async () => {
  const a = await import("../ids.js?copy=a");
  const b = await import("../ids.js?copy=b");
  assert.notEqual(a, b); // (two module instances, as two widget models have)
  const seen = new Set();
  for (let i = 0; i < 50; i++) {
    for (const uniqueId of [a.uniqueId, b.uniqueId]) {
      const id = uniqueId("sp", null);
      assert.match(id, /^sp\d+[a-z0-9]*$/);
      assert.ok(!seen.has(id), id);
      seen.add(id);
    }
  }
});

test("an id the page already has is not given again", async () => {
  const { uniqueId } = await import("../ids.js");
  const taken = [];
  const doc = { querySelector: (sel) => (taken.length < 3 ? (taken.push(sel), {}) : null) };
  const id = uniqueId("sp", doc);
  assert.equal(taken.length, 3);
  assert.ok(!taken.some((sel) => sel.includes(`"${id}-"`)), "the prefix given is not one found taken");
});
