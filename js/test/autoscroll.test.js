// The drag auto-scroll zone scales with the felt (issue 26): a fraction of its size, at most 44 px.

import assert from "node:assert/strict";
import { test } from "node:test";

import { edgeZone } from "../autoscroll.js";

test("the auto-scroll zone is a fraction of a small felt, 44 px at most on a large one", () => {
  assert.ok(edgeZone(116) < 20, "a 116 px felt: a zone of a few px, not 44");
  assert.ok(edgeZone(116) >= 6);
  assert.equal(edgeZone(1000), 44);
  assert.ok(edgeZone(244) < 244 / 4, "a pointer a quarter of the felt from its edge does not scroll it");
  for (let size = 50; size < 2000; size += 7) assert.ok(edgeZone(size) <= edgeZone(size + 7));
});
