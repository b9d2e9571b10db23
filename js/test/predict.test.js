// The front end's predictions against Python's answers (node --test js/test/; tests/test_js_units.py runs
// it and keeps the fixture equal to what Python says).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { readView } from "../view.js";
import { GONE, agrees, clickTarget, inCards, predictDeal, predictMove, resolve, unforeseen } from "../predict.js";
import { fanTableau } from "../layout.js";

const model = (view) => ({ get: (key) => (key === "view" ? view : null) });
const positions = JSON.parse(readFileSync(new URL("./fixtures/python-answers.json", import.meta.url), "utf8"));

test("a click goes where Python's click_move sends it, in every variant", () => {
  let clicks = 0;
  for (const p of positions) {
    const v = readView(model(p.view));
    for (const [src, k, dst] of p.clicks) {
      assert.equal(clickTarget(v, src, k), dst, `${p.name}: click on ${src} with ${k} card(s)`);
      clicks++;
    }
  }
  assert.ok(clicks > 1000, `${clicks} clicks checked`);
});

// Exactly Python's table, but for the backs Python turned over (their cards are Python's to show).
function exactly(p, after) {
  const v = readView(model(after));
  return agrees(p, v) && JSON.stringify(p.foundations) === JSON.stringify(v.foundations) && p.stock === v.stock;
}

const finishes = (v, after) => after.foundations.length > v.foundations.length;

test("a move is predicted exactly as Python plays it, or not predicted (a run it completes leaves)", () => {
  let moves = 0;
  let declined = 0;
  let completing = 0;
  for (const p of positions) {
    const v = readView(model(p.view));
    for (const { move, view: after } of p.after) {
      const [src, dst, k] = move;
      const predicted = predictMove(v, src, dst, k);
      const what = `${p.name}: ${src}->${dst} (${k})`;
      if (finishes(v, after)) {
        completing++;
        assert.ok(unforeseen(v, src, dst, k), `${what} completes a run: the view says so`);
      }
      if (predicted) assert.ok(exactly(predicted, after), `${what} as Python plays it`);
      else {
        assert.ok(unforeseen(v, src, dst, k), `${what} is legal in the view, so it is predicted unless unforeseen`);
        declined++;
      }
      moves++;
    }
  }
  assert.ok(moves > 400, `${moves} moves checked`);
  assert.ok(completing >= 20 && declined === completing, `${completing} completing a run, ${declined} not predicted`);
});

const hasEmpty = (v) => v.tableau.some((c) => !c.total);

test("a deal is predicted as Python deals, not predicted where Python refuses it, and waits only where a dealt card may complete a run", () => {
  let deals = 0;
  let waits = 0;
  let refused = 0;
  let emptyDealt = 0;
  for (const p of positions) {
    const v = readView(model(p.view));
    const predicted = predictDeal(v);
    if (!p.deal) {
      assert.equal(predicted, null, `${p.name}: Python refuses the deal, so it is not predicted`);
      refused++;
      continue;
    }
    if (!predicted) {
      assert.ok(v.unforeseen_deal.length, `${p.name}: a deal Python makes is predicted unless unforeseen`);
      waits++;
      continue;
    }
    const py = readView(model(p.deal));
    assert.ok(agrees(predicted, py) && predicted.stock === py.stock, `${p.name}: the deal as Python deals it`);
    assert.equal(predicted.deals_left, v.deals_left - 1, `${p.name}: one deal fewer left`);
    emptyDealt += hasEmpty(v);
    deals++;
  }
  assert.ok(deals > 50 && waits >= 1 && refused >= 5 && emptyDealt >= 1,
    `${deals} deals checked (${emptyDealt} with an empty column), ${waits} not predicted, ${refused} refused`);
});

test("a deal on a predicted deal is predicted as Python deals twice, or waits where the first deal's cards may complete a run", () => {
  let twice = 0;
  let waits = 0;
  for (const p of positions) {
    if (!p.twice) continue;
    const p1 = predictDeal(readView(model(p.view)));
    if (!p1) continue;
    const p2 = predictDeal(p1);
    const what = `${p.name}: two deals`;
    if (p.twice.view === null) assert.equal(p2, null, `${what}: Python refuses the second`);
    else if (p.twice.waits) {
      assert.equal(p2, null, `${what}: the first deal's card may complete a run with the second's`);
      waits++;
    } else if (p2) {
      const py = readView(model(p.twice.view));
      assert.ok(agrees(p2, py) && p2.stock === py.stock && p2.deals_left === p1.deals_left - 1, `${what} as Python deals`);
      twice++;
    }
  }
  assert.ok(twice > 50 && waits >= 1, `${twice} deals on a deal checked, ${waits} waiting`);
});

test("two intents in a row: the second, predicted on the first's prediction, is exact, refused where Python refuses it, and waits only where Python's view says so", () => {
  let chains = 0;
  let second = 0;
  const deals = { refused: 0, predicted: 0, emptyRefused: 0, emptyDealt: 0 };
  for (const p of positions) {
    const v = readView(model(p.view));
    for (const { moves: [m1, m2], view: after, waits } of p.chains) {
      const p1 = predictMove(v, ...m1);
      if (!p1) continue;
      const p2 = m2 === "deal" ? predictDeal(p1) : predictMove(p1, ...m2);
      const what = `${p.name}: ${m1} then ${m2}`;
      chains++;
      if (after === null) {
        assert.equal(p2, null, `${what}: Python refuses the second, so it is not predicted`);
        deals.refused++;
        deals.emptyRefused += hasEmpty(p1);
        continue;
      }
      if (waits) assert.equal(p2, null, `${what}: its outcome is hidden (a run may complete), so it waits for Python`);
      if (p2) {
        assert.ok(exactly(p2, after), `${what} as Python plays them`);
        second++;
      } else if (m2 === "deal") {
        assert.ok(waits, `${what}: a deal Python makes after a predicted move is predicted unless a run may complete`);
      }
      if (m2 === "deal" && p2) {
        deals.predicted++;
        deals.emptyDealt += hasEmpty(p1);
      }
    }
  }
  assert.ok(chains > 300 && second > 100, `${chains} chains checked, ${second} second intents predicted`);
  assert.ok(deals.emptyRefused >= 10 && deals.emptyDealt >= 1 && deals.predicted > 50,
    `deals after a move: ${JSON.stringify(deals)}`);
});

test("a move the view does not list is not predicted", () => {
  const p = positions[0];
  const v = readView(model(p.view));
  for (let src = 0; src < v.columns; src++) {
    for (let dst = 0; dst < v.columns; dst++) {
      const listed = (v.targets[`${src}:1`] || []).includes(dst);
      assert.equal(predictMove(v, src, dst, 1) !== null, listed, `${src}->${dst}`);
    }
  }
});

test("a damaged view is read with every field present", () => {
  for (const raw of [null, 5, "x", [], { tableau: "x", columns: -3 }, { tableau: [{ up: 5, down: "x" }] }]) {
    const v = readView(model(raw));
    assert.ok(v.columns >= 1 && v.tableau.length === v.columns);
    for (const c of v.tableau) assert.deepEqual(Object.keys(c).sort(),
      ["blocks_deal", "coming", "completes_in", "down", "known", "movable", "total", "up"]);
    assert.equal(v.status, "playing");
    assert.deepEqual(v.targets, {});
  }
});

test("the fan keeps the tableau within the rows allowed", () => {
  for (const p of positions) {
    const v = readView(model(p.view));
    const { fans, rows } = fanTableau(v.tableau, { maxRows: 4.2 });
    assert.ok(rows <= 4.2 + 0.1 + 1e-9, `${p.name}: ${rows} rows`);
    assert.equal(fans.length, v.columns);
    for (const f of fans) assert.ok(f.fu > 0 && f.fd > 0);
  }
});

test("an intent kept in cards is sent for the same cards, wherever they lie", () => {
  let checked = 0;
  for (const p of positions) {
    const v = readView(model(p.view));
    for (const { move: [src, dst, k], view: after } of p.after) {
      const intent = { action: "move", src, dst, count: k };
      const kept = inCards(v, intent);
      assert.equal(kept.card, v.tableau[src].up[v.tableau[src].up.length - k]);
      // on the table it was made on it means what it said
      assert.deepEqual(resolve(v, kept), intent, `${p.name}: ${src}->${dst} (${k})`);
      // on the same table with its columns in another order, it names the same cards (where each is
      // the only one of its face: with fewer suits or two decks, the column it named is preferred)
      const seen = v.tableau.flatMap((c) => c.up);
      const once = (code) => seen.filter((x) => x === code).length === 1;
      if (!once(kept.card) || (kept.onto && !once(kept.onto))) continue;
      const order = [...v.tableau.keys()].reverse();
      const w = { ...v, tableau: order.map((i) => v.tableau[i]) };
      if (kept.onto === "" && w.tableau[dst].total) continue; // (an empty column is named by its place)
      const r = resolve(w, kept);
      assert.notEqual(r, GONE);
      assert.equal(order[r.src], src);
      if (v.tableau[dst].total) assert.equal(order[r.dst], dst);
      // once played, its cards are no longer where it can take them (they went onto the other column)
      const played = readView(model(after));
      const now = played.tableau.flatMap((c) => c.up);
      if (v.tableau[dst].total && now.filter((x) => x === kept.onto).length === 1) {
        assert.equal(resolve(played, kept), GONE, `${p.name}: ${src}->${dst} (${k}) twice`);
      }
      checked++;
    }
  }
  assert.ok(checked > 100, `${checked} intents checked`);
});

test("an intent made on a column that awaits a deal's cards waits for Python's table", () => {
  const v = readView(model(positions[0].view));
  const c = v.tableau.findIndex((col) => col.up.length);
  const dealt = { ...v, tableau: v.tableau.map((col) => ({ ...col, coming: 1, total: col.total + 1 })) };
  const kept = inCards(dealt, { action: "click", src: c, count: 2 }); // the top face-up card and the one coming
  assert.equal(kept.card, v.tableau[c].up[v.tableau[c].up.length - 1]);
  assert.equal(resolve(dealt, kept), null, "not known before the deal's cards are");
  assert.deepEqual(resolve(v, kept), { action: "click", src: c, count: 1 });
});
