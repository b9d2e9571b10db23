"""A redraw keeps the elements of the cards that look the same (js/table.js ``drawInto``): after any
sequence of clicks, the table must be exactly what a fresh drawing of Python's view would be.

A seeded random player clicks cards (on their visible strips), the stock, Undo, Redo and Hint, and drags
a card onto a column now and then, in JupyterLab. After every answer from Python, each card element is
checked against the view: its place, code, face, its classes (movable, sendable, hinted, covered), its
art (on the top card only), its id, and its offset down the column.
"""

from __future__ import annotations

import random

import jupyter_harness as H
import pytest

pytestmark = pytest.mark.e2e

# Every card element, as the checks need it (the cards of each column in order, and the column's marks).
READ_CARDS = """(root) => {
  const cols = [];
  for (let c = 0; ; c++) {
    const p = root.querySelector(`[data-pile="tableau-${c}"]`);
    if (!p) break;
    const kids = [...p.children].map((e) => e.className.split(' ')[0]);
    const cards = [...p.querySelectorAll(':scope > .sp-card')].map((e) => {
      const art = e.querySelector('.sp-art');
      return {
        code: e.dataset.card || null, face: e.dataset.face || 'up', col: Number(e.dataset.col),
        index: Number(e.dataset.index), id: e.id, classes: [...e.classList].sort(),
        t: parseFloat(e.style.getPropertyValue('--t')),
        art: !!art && getComputedStyle(art).display !== 'none',
      };
    });
    cols.push({kids, cards, hintDst: p.classList.contains('sp-hint-dst')});
  }
  const stock = root.querySelector('[data-pile="stock"]');
  return {cols, stock: stock.querySelector('.sp-count').textContent.trim(),
          available: stock.dataset.available,
          foundations: [...root.querySelectorAll('[data-pile^="foundation-"]')].map((s) => {
            const c = s.querySelector('[data-card]');
            return c ? c.dataset.card : null;
          }),
          ids: [...root.querySelectorAll('[id]')].map((e) => e.id)};
}"""

# Classes a card carries for a moment (a flight, a refusal, a flip, the keyboard's marks): not its look.
MOMENTARY = {"sp-moving", "sp-refused", "sp-turn", "sp-turned", "sp-cursor", "sp-selected", "sp-uncovered",
             "sp-dragging"}

WAIT_ANSWER = f"""async ([answer]) => {{
  const model = await ({H.MODEL_JS})(0);
  const deadline = performance.now() + 10000;
  while (model.get('view').answer === answer) {{
    if (performance.now() > deadline) throw new Error('no answer from Python');
    await new Promise((r) => setTimeout(r, 20));
  }}
  await new Promise((r) => setTimeout(r, 60));  // (the drawing of Python's view; flights land)
  return JSON.parse(JSON.stringify(model.get('view')));
}}"""


def expected_classes(view: dict, col: int, j: int) -> set[str]:
    c = view["tableau"][col]
    total = c["down"] + len(c["up"])
    if j < c["down"]:
        return {"sp-card", "sp-down"}
    code = c["up"][j - c["down"]]
    k = total - j  # 1: the top card
    out = {"sp-card", "sp-up", f"sp-s{code[1].lower()}"}
    out |= {"sp-court"} if code[0] in "JQK" else {"sp-ace"} if code[0] == "A" else set()
    if k <= c["movable"]:
        out.add("sp-movable")
    if col in view["sendable"] and k <= 13:
        out.add("sp-sendable")
    hint = view.get("hint")
    if hint and hint.get("kind") != "deal" and hint.get("src") == col and k <= max(1, hint.get("count") or 0):
        out.add("sp-hint-src")
    if k > 1:
        out.add("sp-covered")
    return out


def check_drawing(page, view: dict, step: str) -> None:
    d = H.root(page).evaluate(READ_CARDS)
    assert len(d["ids"]) == len(set(d["ids"])), f"{step}: ids drawn twice"
    assert d["stock"] == str(view["deals_left"]), step
    assert d["available"] == ("true" if view["can_deal"] else "false"), step
    shown = [f for f in d["foundations"] if f]
    assert shown == view["foundations"], step
    for i, (drawn, c) in enumerate(zip(d["cols"], view["tableau"], strict=True)):
        where = f"{step}, column {i}"
        cards = drawn["cards"]
        assert drawn["kids"][0] == "sp-slot" and "sp-end" in drawn["kids"], where
        assert [x["code"] for x in cards] == [None] * c["down"] + c["up"], where
        assert all(x["face"] == ("down" if j < c["down"] else "up") for j, x in enumerate(cards)), where
        ts = [x["t"] for x in cards]
        assert ts == sorted(ts) and len(set(ts)) == len(ts) and (not ts or ts[0] == 0), where
        for j, x in enumerate(cards):
            assert x["col"] == i and x["index"] == j, where
            look = set(x["classes"]) - MOMENTARY
            assert look == expected_classes(view, i, j), f"{where}, card {j}: {sorted(look)}"
            if x["code"]:
                assert x["id"].endswith(f"-c{i}-{j}"), where
                assert x["art"] == (j == len(cards) - 1), f"{where}, card {j}: art {x['art']}"
        hint = view.get("hint")
        assert drawn["hintDst"] == bool(hint and hint.get("kind") != "deal" and hint.get("dst") == i), where


def test_any_sequence_of_clicks_draws_pythons_view(seed7):
    page = seed7.page
    rng = random.Random(2026)
    view = H.model_view(page)
    check_drawing(page, view, "start")
    root = H.root(page)
    played = []
    for step in range(70):
        answer = view.get("answer")
        up = [code for c in view["tableau"] for code in c["up"]]
        roll = rng.random()
        if roll < 0.45 and up:
            code = rng.choice(up)
            what = f"click {code}"
            page.mouse.click(*H.grab_point(H.card(page, code)))
        elif roll < 0.55 and up:
            code = rng.choice(up)
            dst = rng.randrange(view["columns"])
            what = f"drag {code} to column {dst}"
            H.drag(page, H.card(page, code), H.pile(page, f"tableau-{dst}"))
        elif roll < 0.65:
            what = "deal"
            H.pile(page, "stock").click()
        else:
            action = rng.choice(["undo", "undo", "redo", "hint"])
            button = root.locator(f'.sp-bar [data-action="{action}"]')
            if button.is_disabled():
                continue
            what = action
            button.click()
        played.append(what)
        if view["status"] in ("won", "lost"):
            break
        view = page.evaluate(WAIT_ANSWER, [answer])
        check_drawing(page, view, f"step {step} ({what}; after {played[-6:-1]})")
    assert len(played) > 40
    assert seed7.widget_problems() == []
