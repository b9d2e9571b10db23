"""End-to-end: the replay viewer (``spiderette.Replay``) in JupyterLab and Chromium.

The notebook replays deal 7 of spiderette as the hint ranking plays it (15 moves, deals included); the
test process computes every expected position with the engine.
"""

from __future__ import annotations

import json
import re

import jupyter_harness as H
import pytest
from test_widget_e2e import WORDS, card_name

from spiderette import Game
from spiderette.engine.cards import card_text, parse_card
from spiderette.notebook.view import view
from spiderette.players.ranking import greedy_move

pytestmark = pytest.mark.e2e

IMPORT = "from spiderette import Game, Replay"


def greedy_line(seed: int = 7) -> list[str]:
    g, seen = Game(seed=seed), set()
    while g.status == "playing" and (m := greedy_move(g, seen)) is not None:
        g.apply(m)
    return [str(m) for m in g.history]


LINE = greedy_line()


def game_at(k: int) -> Game:
    g = Game(seed=7)
    g.play(LINE[:k])
    return g


def open_replay(lab, name: str, extra: str = "") -> None:
    if not (H.SRC / "spiderette" / "static" / "replay.js").exists():
        pytest.fail("the replay front end is not built: run `npm run build`", pytrace=False)
    lab.open(name, [f"{IMPORT}\ng = Game(seed=7)\ng.play({' '.join(LINE)!r})\nr = Replay(g{extra})\nr"])


def shown(page) -> dict:
    """What the replay shows: its step, the table, the current and next rows of the move list."""
    return page.evaluate("""() => {
      const root = document.querySelector('.spiderette-replay');
      const current = root.querySelectorAll('[data-replay="moves"] [aria-current="step"]');
      return {
        step: Number(root.dataset.replayStep),
        current: [...current].map((e) => Number(e.dataset.replayMove)),
        slider: Number(root.querySelector('input[type=range][data-replay="slider"]').value),
        playing: root.dataset.playing,
      };
    }""")


def at_step(page, k: int) -> dict:
    """Wait until the replay shows step ``k``; check the table, the slider and the highlighted move."""
    page.wait_for_function(f"() => document.querySelector('.spiderette-replay')?.dataset.replayStep === '{k}'",
                           timeout=10_000, polling=50)
    s = shown(page)
    assert s["current"] == [k] and s["slider"] == k, s
    t = H.table(page)
    g = game_at(k)
    assert t["cols"] == H.cols_of_view(view(g)), f"step {k}: the cards drawn are the game's after {k} moves"
    assert t["status"]["moves"] == str(g.move_count) and t["status"]["deals"] == str(g.deals_left)
    assert t["status"]["step"] == f"{k}/{len(LINE)}"
    return t


def press(page, key: str, k: int) -> dict:
    page.keyboard.press(key)
    return at_step(page, k)


def test_replay_steps_with_buttons_slider_keys_and_the_move_list(lab, request):
    assert len(LINE) >= 12 and "d" in LINE
    n = len(LINE)
    open_replay(lab, request.node.name, ", delay=0.1")
    page = lab.page
    root = page.locator(".spiderette-replay")
    at_step(page, 0)
    for name, label in (("first", "Go to the start"), ("back", "Step back"), ("play", "Play"),
                        ("forward", "Step forward"), ("last", "Go to the end")):
        assert root.locator(f'[data-replay="{name}"]').get_attribute("aria-label") == label
    assert root.locator('[data-replay="back"]').is_disabled() and root.locator('[data-replay="first"]').is_disabled()
    # the move list: the start and one row per move; the reasons of the moves shown so far are on the page
    rows = root.locator("[data-replay-move]")
    assert rows.count() == n + 1
    entries = json.loads(H.kernel_eval(page, "import json; print(json.dumps(r.entries))"))
    first = rows.nth(1).inner_text()
    assert LINE[0][:2] in first and entries[0]["reason"] in first and entries[0]["reason"].startswith("hint #")

    # buttons
    root.locator('[data-replay="forward"]').click()
    at_step(page, 1)
    root.locator('[data-replay="forward"]').click()
    at_step(page, 2)
    root.locator('[data-replay="back"]').click()
    at_step(page, 1)
    root.locator('[data-replay="last"]').click()
    at_step(page, n)
    assert root.locator('[data-replay="forward"]').is_disabled()
    assert [e["reason"] in rows.nth(i + 1).inner_text() for i, e in enumerate(entries)] == [True] * n
    root.locator('[data-replay="first"]').click()
    at_step(page, 0)

    # the slider
    page.evaluate("""() => {
      const s = document.querySelector('[data-replay="slider"]');
      s.value = '5';
      s.dispatchEvent(new Event('input', { bubbles: true }));
    }""")
    at_step(page, 5)
    # a click on a move in the list
    rows.nth(9).click()
    at_step(page, 9)
    assert H.kernel_json(page, "r.step") == 9
    # keys, with the focus on the replay
    H.pile(page, "tableau-0").click()
    press(page, "ArrowRight", 10)
    press(page, "ArrowLeft", 9)
    press(page, "ArrowLeft", 8)
    press(page, "End", n)
    press(page, "Home", 0)
    # Python moves it too
    H.kernel_eval(page, "r.go(4)")
    at_step(page, 4)

    # play (Space) to the end: every step is drawn, then it stops by itself
    root.focus()
    page.keyboard.press("Space")
    page.wait_for_function("() => document.querySelector('.spiderette-replay').dataset.playing === 'true'",
                           timeout=5_000)
    H.expect(root.locator('[data-replay="play"]')).to_have_attribute("aria-label", "Pause")
    page.wait_for_function(f"""() => {{
      const r = document.querySelector('.spiderette-replay');
      return r.dataset.replayStep === '{n}' && r.dataset.playing === 'false';
    }}""", timeout=20_000, polling=50)
    at_step(page, n)
    assert H.wait_kernel(page, "[r.step, r.playing]", lambda v: v == [n, False]) == [n, False]
    # the play button again plays from the start; pause stops it
    root.locator('[data-replay="play"]').click()
    page.wait_for_function("() => document.querySelector('.spiderette-replay').dataset.playing === 'true'")
    root.locator('[data-replay="play"]').click()
    page.wait_for_function("() => document.querySelector('.spiderette-replay').dataset.playing === 'false'")
    # (the page shows the pause at once; Python hears of it when the kernel handles the click's message)
    assert H.wait_kernel(page, "r.playing", lambda v: v is False) is False
    assert H.kernel_json(page, "r.step") < n
    H.screenshot(page, "replay.png")
    assert lab.widget_problems() == []


def hidden_at(k: int) -> set[str]:
    d = game_at(k).to_dict()
    return {c[1:] for col in d["tableau"] for c in col if c.startswith("|")} | set(d["stock"])


def assert_nothing_hidden_on_the_page(lab, k: int, mark: int) -> None:
    page = lab.page
    hidden = hidden_at(k)
    assert hidden
    texts = [page.evaluate(WORDS), page.locator(".spiderette-replay").evaluate("(e) => e.outerHTML")]
    for code in hidden:
        forms = [re.compile(rf"(?<![A-Za-z0-9]){code}(?![A-Za-z0-9])"),
                 re.compile(re.escape(card_text(parse_card(code)))), re.compile(card_name(code), re.I)]
        for text in texts:
            assert not [f.pattern for f in forms if f.search(text)], f"step {k}: {code} (face down) is on the page"
    frames = [f for f in lab.frames.since(mark) if f[2] and f[2]["header"]["msg_type"].startswith("comm")]
    assert frames, "the comm traffic was recorded"
    for _d, _size, msg, _raw in frames:
        text = json.dumps(msg["content"], ensure_ascii=False)
        assert not [c for c in hidden if f'"{c}"' in text or f" {c} " in text
                    or card_text(parse_card(c)) in text], f"step {k}: a face-down card went over the websocket"


def test_no_card_face_down_at_the_step_shown_reaches_the_page(lab, request):
    mark = lab.frames.mark()
    open_replay(lab, request.node.name)
    page = lab.page
    at_step(page, 0)
    assert_nothing_hidden_on_the_page(lab, 0, mark)
    root = page.locator(".spiderette-replay")
    for k in (1, 2, 3):
        mark = lab.frames.mark()
        root.locator('[data-replay="forward"]').click()
        at_step(page, k)
        assert_nothing_hidden_on_the_page(lab, k, mark)
    mark = lab.frames.mark()
    root.locator(f'[data-replay-move="{len(LINE) - 2}"]').click()
    at_step(page, len(LINE) - 2)
    assert_nothing_hidden_on_the_page(lab, len(LINE) - 2, mark)
    # a browser that asks for a step out of range gets the end, and nothing breaks
    H.send_intent(page, {"action": "ignored"})
    page.evaluate(f"""async () => {{
      const model = await ({H.MODEL_JS})(0);
      model.set('step', 999); model.save_changes();
    }}""")
    at_step(page, len(LINE))
    assert H.kernel_json(page, "r.step") == len(LINE)
    assert lab.widget_problems() == []


def test_an_analysed_game_shows_its_verdicts_and_jumps_to_its_turning_point(lab, request):
    """Greedy loses one-suit deal 1; its analysis finds the move that lost a winnable game. The replay of the
    analysis marks each move's verdict (W, L, ?) and its Turning point button shows the table where that
    move is next."""
    from spiderette import analyse

    g, seen = Game(seed=1, suits=1), set()
    while g.status == "playing" and (m := greedy_move(g, seen)) is not None:
        g.apply(m)
    a = analyse(g, planner=False, node_limit=20_000)
    k = a.turning_point.index
    lab.open(request.node.name, [
        "from spiderette import Game, Replay, analyse\nfrom spiderette.players.ranking import greedy_move\n"
        "g, seen = Game(seed=1, suits=1), set()\n"
        "while g.status == 'playing' and (m := greedy_move(g, seen)) is not None:\n    g.apply(m)\n"
        "r = Replay(analyse(g, planner=False, node_limit=20_000))\nr"])
    page = lab.page
    root = page.locator(".spiderette-replay")
    button = root.locator('[data-replay="turning"]')
    button.wait_for(state="visible")
    assert "turning point" in root.locator('[data-replay="note"]').inner_text().lower()
    button.click()
    page.wait_for_function(f"() => document.querySelector('.spiderette-replay').dataset.replayStep === '{k}'",
                           timeout=10_000, polling=50)
    # the rows up to the next move carry their verdicts; the move that lost is the next one
    marks = root.evaluate("""(root) => [...root.querySelectorAll('[data-replay-move]')].map((row) => {
      const v = row.querySelector('[data-verdict]');
      return v ? v.dataset.verdict : null;
    })""")
    verdicts = [s.verdict for s in a.steps]
    assert marks[0] is None and marks[1:k + 2] == verdicts[1:k + 2], marks[:k + 3]
    assert marks[k + 1] == "lost" and marks[k] == "winnable"
    assert all(m is None for m in marks[k + 2:]), "a later move is not described before the replay gets there"
    root.focus()
    page.keyboard.press("End")
    page.keyboard.press("t")
    page.wait_for_function(f"() => document.querySelector('.spiderette-replay').dataset.replayStep === '{k}'",
                           timeout=10_000, polling=50)
    assert not lab.widget_problems()


# Every text and control of the status line and the controls row of replay `root`: clipped (cut by its own
# box, or lying outside the replay's box) or not.
CLIPPED = """(root) => {
  // (the replay's box, within the output area that shows it)
  const a = root.getBoundingClientRect();
  const o = (root.closest('.jp-OutputArea-output') || document.body).getBoundingClientRect();
  const r = {left: Math.max(a.left, o.left), right: Math.min(a.right, o.right)};
  const out = [];
  for (const e of root.querySelectorAll('.sp-stats > *, .sp-stat > *, .sp-rp-controls button, ' +
                                        '.sp-rp-controls input, .sp-rp-position')) {
    if (!e.getClientRects().length) continue;  // (not drawn: hidden)
    const b = e.getBoundingClientRect();
    const cut = e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible';
    if (cut || b.left < r.left - 0.5 || b.right > r.right + 0.5 || b.width < 1)
      out.push([e.className || e.tagName, e.textContent.trim(), Math.round(b.left - r.left), Math.round(b.width)]);
  }
  return {out, width: a.width, output: o.width, position: root.querySelector('.sp-rp-position').textContent.trim()};
}"""


def test_two_replays_side_by_side_clip_nothing(lab, request):
    """Two replays in an HBox (half the width each): the status line and the controls wrap or shrink,
    nothing is clipped ("0 / 45" whole, not "0 / 4")."""
    g, seen, line = Game(variant="spider", suits=2, seed=32), set(), []
    while len(line) < 45:
        line.append(str(greedy_move(g, seen)))
        g.apply(line[-1])
    lab.page.set_viewport_size({"width": 1024, "height": 900})
    lab.open(request.node.name, [f"{IMPORT}\nimport ipywidgets\ng = Game(variant='spider', suits=2, seed=32)\n"
                                 f"g.play({' '.join(line)!r})\nipywidgets.HBox([Replay(g), Replay(g)])"], widgets=2)
    page = lab.page
    page.evaluate("() => window.jupyterapp.commands.execute('filebrowser:activate')")
    page.wait_for_function("() => document.querySelector('#filebrowser') && "
                           "document.querySelector('#filebrowser').getBoundingClientRect().width > 100")
    for i in range(2):
        r = page.locator(".spiderette-replay").nth(i)
        page.wait_for_function("(root) => root.querySelector('.sp-rp-position').textContent.trim() !== ''",
                               arg=r.element_handle())
        c = r.evaluate(CLIPPED)
        assert c["position"] == "0 / 45", c
        assert c["width"] < 520, f"half the width: {c}"
        assert c["out"] == [], f"replay {i}: clipped {c}"
    H.ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(H.ARTIFACTS / "replay-side-by-side.png"))
