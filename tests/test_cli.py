"""The ``spiderette`` command line: play, solve, stats, lab (without launching Jupyter) and its errors."""

from __future__ import annotations

import importlib.util
import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from spiderette_testkit import src_env

from spiderette import Game, cli, hint, solve
from spiderette.cli import lab, main, play
from spiderette.engine.cards import card_code, card_text
from spiderette.engine.ccore import describe
from spiderette.engine.positions import text_picture
from spiderette.players.advice import planner_hint

REPO = Path(__file__).resolve().parents[1]


def run(capsys, monkeypatch, argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def usage_error(capsys, argv: list[str]) -> str:
    with pytest.raises(SystemExit) as e:
        main(argv)
    out, err = capsys.readouterr()
    assert e.value.code == 2 and not out
    assert "Traceback" not in err
    return err


# ---------------------------------------------------------------------- play
def test_play_moves_from_piped_input(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, ["play", "7"], "bd\nq\n")
    g = Game(seed=7)
    assert code == 0 and not err
    assert text_picture(g, card_text) in out  # the table at the start (suit symbols: capsys writes UTF-8)
    g.play("bd")
    assert text_picture(g, card_text) in out  # and after the move
    assert out.rstrip().splitlines()[-1] == ("Spiderette · deal 7 · 4 suits: not finished · score 499 · 1 move"
                                             " · runs 0/4")


def test_play_illegal_input_changes_nothing(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, ["play", "7"], "ga\nzz\nbd ga\nbd\n")
    assert code == 0
    g = Game(seed=7)
    with pytest.raises(ValueError) as e:
        g.play("ga")
    assert f"not played: {e.value}" in out
    assert "not played: bad move 'zz'" in out
    assert "not played: move 2 (ga): AS cannot go on 4H" in out and out.count("not played:") == 3
    assert out.count("score 499 · moves 1") == 1  # only bd was played, once; "bd ga" was all or nothing
    assert out.rstrip().endswith("1 move · runs 0/4")


def test_play_commands(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, ["play", "7"], "u\nr\nm\nh\nbd\nu\nr\nr\n?\nt\nquit\n")
    g = Game(seed=7)
    assert code == 0
    assert "nothing to undo" in out and out.count("nothing to redo") == 2
    legal = " ".join(g.notation(m) for m in g.legal_moves())
    assert f"legal moves: {legal}" in out
    h = planner_hint(g, name=card_text)   # (hint(g), in the table's card words)
    assert f"hint: {g.notation(h.move)} ({h.reason})" in out and h.reason != hint(g).reason
    assert "took back bd" in out and "played bd again" in out
    assert "u, undo" in out  # the help
    assert out.rstrip().endswith("score 499 · 1 move · runs 0/4")


def test_play_end_of_input_and_options(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, ["play", "3", "--variant", "spider", "--suits", "1"], "d\n")
    g = Game("spider", 3, 1)
    assert code == 0 and text_picture(g, card_text) in out
    g.play("d")
    assert text_picture(g, card_text) in out
    assert out.rstrip().splitlines()[-1].startswith("Spider · deal 3 · 1 suit: not finished")


def test_play_to_the_end(capsys, monkeypatch):
    res = solve(Game(seed=1, suits=1), time_limit=None, node_limit=200_000)
    assert res.result == "win"
    code, out, _ = run(capsys, monkeypatch, ["play", "1", "--suits", "1"],
                       " ".join(str(m) for m in res.moves) + "\nxyzzy\n")
    assert code == 0
    assert out.rstrip().splitlines()[-1].startswith("Spiderette · deal 1 · 1 suit: You won! · score")
    assert "xyzzy" not in out  # the game ended at the win: the last line was not read


def test_terminal_games_count_in_the_statistics(capsys, monkeypatch):
    from spiderette import stats

    run(capsys, monkeypatch, ["play", "7"], "q\n")                     # no move made: not counted
    assert len(stats()) == 0
    _, out, _ = run(capsys, monkeypatch, ["play", "7"], "bd\nq\n")    # given up after a move: a loss
    assert "counted in your statistics as a loss" in out
    _, out, _ = run(capsys, monkeypatch, ["play", "7", "--no-record"], "bd\nq\n")
    assert "counted" not in out
    res = solve(Game(seed=1, suits=1), time_limit=None, node_limit=200_000)
    _, out, _ = run(capsys, monkeypatch, ["play", "1", "--suits", "1"], " ".join(str(m) for m in res.moves) + "\n")
    assert "counted in your statistics as a win" in out
    s = stats()
    assert (s["spiderette", 4]["played"], s["spiderette", 4]["won"]) == (1, 0)
    assert (s["spiderette", 1]["played"], s["spiderette", 1]["won"]) == (1, 1)


def test_play_piped_in_a_real_process():
    env = src_env()
    p = subprocess.run([sys.executable, "-m", "spiderette", "play", "7"], input="bd\nq\n", env=env,
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and not p.stderr
    assert "> bd\n" in p.stdout and "score 499 · 1 move" in p.stdout


# ---------------------------------------------------------------------- solve
def test_solve_a_small_deal(capsys):
    assert main(["solve", "7", "--suits", "1", "--seconds", "20"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Spiderette · deal 7 · 1 suit"
    assert out[1] == "verdict: win (a winning line, replayed by the engine)"
    assert out[2].startswith("line: ")
    tokens = out[2].removeprefix("line: ").rsplit(" (", 1)[0].split()
    g = Game(seed=7, suits=1)
    g.play(" ".join(tokens))  # the line in notation wins from the deal
    assert g.is_won and out[2].endswith(f"({len(tokens)} moves)")
    assert out[3].startswith("nodes: ") and out[3].endswith(" tables expanded")
    assert out[4] == describe()   # (the search core that ran: compiled, or pure Python)
    assert out[5].startswith("time: ") and out[5].endswith(" s)") and "s in all (the solver " in out[5]


def test_solve_says_what_its_time_covers(capsys, monkeypatch):
    """The time is the whole command's, the searches' part named: once it was the solver's alone."""
    from spiderette.players import solver

    real = solver.solve

    def slow(g, time_limit):
        time.sleep(0.3)   # (work of the command outside the search)
        return real(g, time_limit=None, node_limit=2_000)

    monkeypatch.setattr(solver, "solve", slow)
    main(["solve", "80", "--prove", "--seconds", "0.1"])
    line = capsys.readouterr().out.splitlines()[-1]
    total, searches = line.removeprefix("time: ").split(" s in all (the solver ")
    solver_s, proof_s = searches.removesuffix(" s)").split(" s, the proof pass ")
    assert float(total) >= 0.3 + float(solver_s) + float(proof_s) - 0.02


def test_solve_unknown_within_a_tiny_budget(capsys):
    assert main(["solve", "5", "--variant", "spider", "--seconds", "0.01"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Spider · deal 5 · 4 suits"
    assert out[1] == "verdict: unknown (time limit reached)"
    assert not any(line.startswith("line:") for line in out)


def test_solve_with_prove_proves_a_lost_deal_the_solver_leaves_undecided(capsys, monkeypatch):
    """Deal 80 is lost (22,382 tables reachable): with a tiny solver budget it is undecided, and the layered
    proof pass that follows visits every table."""
    from spiderette.players import solver

    real = solver.solve
    monkeypatch.setattr(solver, "solve", lambda g, time_limit: real(g, time_limit=None, node_limit=3_000))
    assert main(["solve", "80", "--prove", "--seconds", "120"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == "verdict: loss (proven: every table the game can reach was visited)"
    assert out[2].startswith("proof: proven lost: every one of 22,382 reachable tables visited")
    assert not any(line.startswith("odds:") for line in out)


def test_solve_with_prove_says_how_far_a_proof_still_is(capsys):
    assert main(["solve", "180", "--prove", "--seconds", "0.2"]) == 0   # (lost: a proof of 5 million tables)
    out = capsys.readouterr().out.splitlines()
    assert out[1].startswith("verdict: unknown (time limit reached)")
    proof = next(line for line in out if line.startswith("proof: "))
    assert proof.startswith("proof: no proof yet (time limit): ") and "more to visit" in proof


def test_solve_with_prove_holds_at_most_max_held_tables(capsys, monkeypatch):
    from spiderette.players.proof import DEFAULT_MAX_HELD

    # (deal 180: lost, but only after 5 million tables, so neither search decides it in a fraction of a second)
    assert main(["solve", "180", "--prove", "--seconds", "0.2", "--max-held", "1000"]) == 0
    proof = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("proof: "))
    assert proof.startswith("proof: no proof yet (memory limit): ") and "more to visit" in proof
    held, real = [], cli.prove
    monkeypatch.setattr(cli, "prove", lambda g, **kw: held.append(kw["max_held"]) or real(g, node_limit=100))
    assert main(["solve", "180", "--prove", "--seconds", "0.1"]) == 0
    assert held == [DEFAULT_MAX_HELD], "a bound even when none is given"


# ---------------------------------------------------------------------- errors
@pytest.mark.parametrize("argv, words", [
    (["play", "1", "--variant", "klondike"], "invalid choice: 'klondike'"),
    (["solve", "-1"], "deal number -1 is out of range"),
    (["play", str(2**64)], "out of range: 0 <= seed < 2**64"),
    (["play", "seven"], "the deal number must be a whole number, not 'seven'"),
    (["play", "1", "--suits", "3"], "spiderette is played with 4, 2 or 1 suits, not 3"),
    (["solve", "1", "--variant", "red_black_spiderette", "--suits", "1"], "red_black_spiderette is played with 4"),
    (["solve", "1", "--seconds", "0"], "seconds must be a number > 0, not '0'"),
    (["solve", "1", "--seconds", "-3"], "seconds must be a number > 0"),
    (["solve", "1", "--seconds", "inf"], "seconds must be a number > 0, not 'inf'"),
    (["solve", "1", "--seconds", "soon"], "seconds must be a number > 0, not 'soon'"),
    (["solve", "1", "--seconds", "1e10"], "seconds must be at most 1,000,000,000 (about 31 years), not '1e10'"),
    (["solve", "1", "--prove", "--max-held", "0"], "the tables held must be a whole number from 1 to 1,000,000,000"),
    (["solve", "1", "--max-held", "2.5"], "the tables held must be a whole number from 1 to 1,000,000,000, not '2.5'"),
    (["solve", "1", "--max-held", str(10**9 + 1)], "the tables held must be a whole number from 1 to 1,000,000,000"),
    (["lab", "--port", "70000"], "the port must be a whole number from 1 to 65535"),
    (["dance"], "invalid choice: 'dance'"),
    ([], "the following arguments are required: COMMAND"),
])
def test_bad_arguments(capsys, argv, words):
    err = usage_error(capsys, argv)
    assert words in err and err.startswith("usage: spiderette")


def test_help_everywhere(capsys):
    for argv in (["--help"], ["lab", "--help"], ["play", "--help"], ["solve", "--help"], ["stats", "--help"]):
        with pytest.raises(SystemExit) as e:
            main(argv)
        assert e.value.code == 0
        assert capsys.readouterr().out.startswith("usage: spiderette")


def test_python_dash_m_help():
    env = src_env()
    p = subprocess.run([sys.executable, "-m", "spiderette", "--help"], env=env, capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 0 and not p.stderr
    assert p.stdout.startswith("usage: spiderette")
    for command in ("lab", "play", "solve", "stats"):
        assert command in p.stdout
    p = subprocess.run([sys.executable, "-m", "spiderette", "solve", "1", "--suits", "5"], env=env,
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "Traceback" not in p.stderr and "not 5" in p.stderr


# ---------------------------------------------------------------------- stats
def test_stats_prints_the_statistics(capsys, monkeypatch, tmp_path):
    try:  # spiderette.stats: the function (or a module holding it), from another branch
        from spiderette import stats
    except ImportError:
        pytest.skip("spiderette.stats is not there yet")
    stats = getattr(stats, "stats", stats)
    for var in ("HOME", "SPIDERETTE_HOME", "XDG_DATA_HOME"):
        monkeypatch.setenv(var, str(tmp_path / var.lower()))
    monkeypatch.chdir(tmp_path)
    assert main(["stats"]) == 0
    assert capsys.readouterr().out == str(stats()) + "\n"


def test_stats_with_a_stand_in(capsys, monkeypatch):
    import spiderette

    class Stats:
        def __str__(self) -> str:
            return "games: 3, won: 1"

    monkeypatch.setattr(spiderette, "stats", Stats, raising=False)
    assert main(["stats"]) == 0
    assert capsys.readouterr().out == "games: 3, won: 1\n"


def test_stats_missing(capsys, monkeypatch):
    import spiderette

    monkeypatch.delattr(spiderette, "stats", raising=False)
    monkeypatch.setitem(sys.modules, "spiderette.stats", None)
    assert main(["stats"]) == 1
    assert "keeps no statistics" in capsys.readouterr().err


# ---------------------------------------------------------------------- lab
@pytest.fixture
def launched(monkeypatch):
    """``spiderette lab`` with JupyterLab "installed" and its launch recorded instead of run."""
    calls = []
    monkeypatch.setattr(lab, "run_jupyter", lambda cmd, cwd: calls.append((cmd, cwd)) or 0)
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: object() if name == "jupyterlab" else real(name, *a))
    return calls


def test_lab_copies_the_notebook_and_starts_jupyterlab(capsys, monkeypatch, tmp_path, launched):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert main(["lab"]) == 0
    nb = tmp_path / lab.NOTEBOOK_NAME
    assert nb.read_bytes() == (REPO / "notebooks" / "01-play.ipynb").read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == [lab.NOTEBOOK_NAME]  # nothing else
    [(cmd, cwd)] = launched
    assert cwd == tmp_path.resolve()
    assert cmd == [sys.executable, "-m", "jupyterlab", f"--ServerApp.root_dir={tmp_path.resolve()}",
                   "--LabApp.default_url=/lab/tree/spiderette-play.ipynb"]
    assert f"Wrote {nb}" in capsys.readouterr().out


def test_lab_options_and_root(capsys, monkeypatch, tmp_path, launched):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    folder = tmp_path / "games"
    folder.mkdir()
    assert main(["lab", "--notebook-dir", str(folder), "--no-browser", "--port", "8899"]) == 0
    [(cmd, cwd)] = launched
    assert cwd == folder.resolve()
    assert cmd[3:] == [f"--ServerApp.root_dir={folder.resolve()}",
                       "--LabApp.default_url=/lab/tree/spiderette-play.ipynb", "--no-browser", "--port=8899",
                       "--allow-root"]
    assert (folder / lab.NOTEBOOK_NAME).is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games"]  # nothing in the current folder


def test_lab_never_overwrites(capsys, monkeypatch, tmp_path, launched):
    monkeypatch.chdir(tmp_path)
    mine = tmp_path / lab.NOTEBOOK_NAME
    mine.write_text('{"my": "own notebook"}')
    assert main(["lab"]) == 0
    assert mine.read_text() == '{"my": "own notebook"}'
    assert len(launched) == 1
    assert "kept as it is" in capsys.readouterr().out


def test_lab_without_jupyterlab(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(lab, "run_jupyter", lambda cmd, cwd: pytest.fail("launched"))
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "jupyterlab" else real(name, *a))
    assert main(["lab"]) == 1
    out, err = capsys.readouterr()
    assert err.strip() == 'JupyterLab is not installed: pip install "spiderette[lab]"'
    assert not list(tmp_path.iterdir())  # no notebook written either


def test_lab_bad_folder(capsys, monkeypatch, tmp_path, launched):
    err = usage_error(capsys, ["lab", "--notebook-dir", str(tmp_path / "nowhere")])
    assert "no such folder" in err and not launched


def test_packaged_notebook_is_the_play_notebook():
    assert lab.play_notebook() == (REPO / "notebooks" / "01-play.ipynb").read_bytes()


@pytest.mark.skipif(not hasattr(signal, "SIGTERM") or os.name != "posix", reason="POSIX signals")
def test_lab_passes_sigterm_on_to_jupyterlab(tmp_path):
    """``spiderette lab`` stopped with SIGTERM stops JupyterLab too (nothing is left running)."""
    ready, stopped = tmp_path / "ready", tmp_path / "stopped"
    child = ("import signal, sys, time, pathlib\n"
             f"def stop(*_):\n    pathlib.Path({str(stopped)!r}).write_text('term')\n    sys.exit(3)\n"
             "signal.signal(signal.SIGTERM, stop)\n"
             f"pathlib.Path({str(ready)!r}).write_text('up')\n"
             "time.sleep(60)\n")
    parent = ("import sys\nfrom pathlib import Path\nfrom spiderette.cli.lab import run_jupyter\n"
              f"sys.exit(run_jupyter([sys.executable, '-c', {child!r}], Path({str(tmp_path)!r})))\n")
    proc = subprocess.Popen([sys.executable, "-c", parent], env=src_env())
    try:
        deadline = time.monotonic() + 30
        while not ready.exists():
            assert proc.poll() is None and time.monotonic() < deadline, "the stand-in JupyterLab never started"
            time.sleep(0.05)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 3, "the exit code is JupyterLab's"
        assert stopped.read_text() == "term", "JupyterLab got the SIGTERM"
    finally:
        if proc.poll() is None:
            proc.kill()


def test_lab_environment_turns_the_build_check_off(tmp_path, monkeypatch):
    monkeypatch.setenv("JUPYTER_CONFIG_PATH", "/somewhere/else")
    env = lab.lab_environment(tmp_path / "cfg")
    assert env["JUPYTER_CONFIG_PATH"] == os.pathsep.join([str(tmp_path / "cfg"), "/somewhere/else"])
    page = json.loads((tmp_path / "cfg" / "labconfig" / "page_config.json").read_text())
    assert page == {"buildCheck": False, "buildAvailable": False}


def test_jupyterlab_output_has_its_long_lines_cut(tmp_path):
    """What ``run_jupyter`` passes on of JupyterLab's standard error: every line, a line of minified JavaScript
    cut to :data:`lab.LONG_LINE` characters and a note."""
    child = "import sys; sys.stderr.write('[E] Fail\\n' + 'var a=1;' * 2000 + '\\nError: boom\\n')"
    parent = ("import sys\nfrom pathlib import Path\nfrom spiderette.cli.lab import run_jupyter\n"
              f"sys.exit(run_jupyter([sys.executable, '-c', {child!r}], Path({str(tmp_path)!r})))\n")
    p = subprocess.run([sys.executable, "-c", parent], env=src_env(), capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr[-2000:]
    lines = p.stderr.splitlines()
    assert lines[0] == "[E] Fail" and lines[2] == "Error: boom" and len(lines) == 3
    assert lines[1] == "var a=1;" * 50 + f" [{8 * 2000 - 400} characters cut]"


FAKE_NODE = """#!/bin/sh
# a Node whose yarn fails with a line of minified JavaScript (as yarn does when it cannot read its configuration)
case "$*" in
  *yarn*) "$SPIDERETTE_TEST_PYTHON" -c "import sys; sys.stderr.write('yarn.js:1\\n' + 'var a=1;' * 1500)"
          exit 1;;
  *node-version-check*) echo ok;;
  *) exit 1;;
esac
"""


@pytest.mark.skipif(importlib.util.find_spec("jupyterlab") is None, reason="JupyterLab is not installed")
@pytest.mark.skipif(os.name != "posix", reason="a shell script stands in for Node")
def test_lab_starts_quietly_with_node_on_the_path(tmp_path):
    """``spiderette lab`` with a Node on the PATH: no line of minified JavaScript in its output, and the page it
    serves asks for no build check."""
    import socket
    import urllib.request

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "node").write_text(FAKE_NODE)
    (bin_dir / "node").chmod(0o755)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(src_env(), PATH=os.pathsep.join([str(bin_dir), os.environ["PATH"]]), JUPYTER_TOKEN="t0ken",
               SPIDERETTE_TEST_PYTHON=sys.executable, JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"),
               JUPYTER_CONFIG_DIR=str(tmp_path / "jupyter-config"))
    (tmp_path / "lab").mkdir()
    log = tmp_path / "log.txt"
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "spiderette", "lab", "--no-browser", "--port", str(port),
                                 "--notebook-dir", str(tmp_path / "lab")], env=env, stdout=out, stderr=out)
    try:
        deadline, page = time.monotonic() + 90, None
        while page is None:
            assert proc.poll() is None and time.monotonic() < deadline, log.read_text()[-3000:]
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/lab?token=t0ken", timeout=10) as r:
                    page = r.read().decode("utf-8")
            except OSError:
                time.sleep(0.3)
        assert '"buildCheck": false' in page and '"buildAvailable": false' in page
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
    text = log.read_text(encoding="utf-8", errors="replace")
    assert "yarn.js:1" in text, "the stand-in Node was used"   # (JupyterLab reads the yarn configuration)
    assert max(len(line) for line in text.splitlines()) < lab.LONG_LINE + 100, "a long line got through"
    assert "var a=1;" * 100 not in text


def test_play_offers_where_it_went_wrong(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, ["play", "12", "--no-record"], "ef\nq\ny\n")
    assert code == 0 and out.count("looking for where the game went wrong") == 1
    assert out.count(play.QUIT_QUESTION) == 1 and "y/N" in play.QUIT_QUESTION
    assert "Winnable all along" in out or "Turning point" in out or "turning point" in out
    _, out, _ = run(capsys, monkeypatch, ["play", "12", "--no-record"], "ef\nq\n\n")   # declined
    assert "looking for" not in out and play.QUIT_QUESTION in out


def test_quit_asks_only_about_a_game_w_has_not_looked_at(capsys, monkeypatch):
    """q right after w (which ran the post-mortem) quits at once: the next line is not taken as an answer."""
    _, out, _ = run(capsys, monkeypatch, ["play", "12", "--no-record"], "ef\nw\nq\ny\n")
    assert out.count("looking for where the game went wrong") == 1 and play.QUIT_QUESTION not in out
    assert "> y" not in out   # (piped lines are echoed: "y" was never read)
    _, out, _ = run(capsys, monkeypatch, ["play", "12", "--no-record"], "ef\nw\nd\nq\nn\n")   # played on since
    assert out.count(play.QUIT_QUESTION) == 1
    for nothing_played in ("q\ny\n", "ef\nu\nq\ny\n"):   # no move, or every move taken back
        _, out, _ = run(capsys, monkeypatch, ["play", "12", "--no-record"], nothing_played)
        assert play.QUIT_QUESTION not in out and "looking for" not in out


def test_play_help_says_what_quit_does(capsys, monkeypatch):
    _, out, _ = run(capsys, monkeypatch, ["play", "7", "--no-record"], "?\n")
    quit_help = out[out.index("q, quit"):]
    assert "asks (y/N)" in quit_help and "where the game went wrong" in quit_help
    guide = " ".join((REPO / "docs" / "play.md").read_text(encoding="utf-8").split())
    assert f'"{play.QUIT_QUESTION.strip()}"' in guide   # (the Play guide quotes the question)


def test_play_names_the_games_own_column_letters(capsys, monkeypatch):
    _, out, _ = run(capsys, monkeypatch, ["play", "7", "--no-record"], "zz\nbd zz\n")
    assert out.count("not played: bad move 'zz': write two column letters a-g and") == 2 and "a-j" not in out
    _, out, _ = run(capsys, monkeypatch, ["play", "7", "--variant", "spider", "--no-record"], "zz\n")
    assert "column letters a-j" in out


def test_play_hints_name_cards_as_the_table_does(capsys, monkeypatch):
    _, out, _ = run(capsys, monkeypatch, ["play", "7", "--no-record"], "bd\nh\n")
    said = next(line for line in out.splitlines() if line.startswith("hint: "))
    assert "♠" in said and "5S" not in said and "3S" not in said   # (the plan depends on the search core's budget)
    g = Game(seed=7)
    g.play("bd")
    h = planner_hint(g, name=card_text)
    assert h is not None and said == f"hint: {g.notation(h.move)} ({h.reason})"
    ascii_out = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    assert play.card_names(ascii_out) is card_code   # (a terminal without the symbols: TC on both)


def test_the_version_and_the_solve_command_say_which_search_core_runs(capsys, monkeypatch):
    from spiderette.engine import ccore

    with pytest.raises(SystemExit):
        main(["--version"])
    out = capsys.readouterr().out
    assert out.startswith("spiderette ") and f"search core: {ccore.CORE}" in out
    code, out, _ = run(capsys, monkeypatch, ["solve", "12"])
    assert code == 0 and ccore.describe() in out.splitlines()
    # turned off by the environment: the pure-Python core, and the line says why
    done = subprocess.run([sys.executable, "-m", "spiderette", "--version"], capture_output=True, text=True,
                          env={**src_env(), "SPIDERETTE_PURE_PYTHON": "1"}, timeout=120)
    assert done.stdout.strip().endswith("search core: pure Python (SPIDERETTE_PURE_PYTHON=1)")
