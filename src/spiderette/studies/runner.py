"""Studies: play a strategy on many numbered deals, and compare strategies on the same deals.

>>> from spiderette import simulate, compare, GreedyStrategy, RulesOfThumb
>>> res = simulate(GreedyStrategy(), deals=range(1, 21), progress=False)
>>> res.rows[0]["deal"], sorted(res.rows[0])
(1, ['deal', 'end', 'face_down_left', 'moves', 'runs', 'score', 'seconds', 'suited', 'won'])
>>> len(res.game(1).history) == res.rows[0]["moves"]
True
>>> cmp = compare([GreedyStrategy(), RulesOfThumb()], deals=range(1, 21), progress=False)
>>> [row["strategy"] for row in cmp.table()]
['greedy', 'rules of thumb']

Each row is one deal: ``deal``, ``won``, ``runs`` (completed), ``score`` (the game's: 500 − moves + 100 × runs,
which counts every move against the player, so a strategy that resigns at once keeps 500: not a measure of
good play), ``moves``, ``face_down_left`` (cards
still face down in the tableau), ``suited`` (cards in suited runs at the end, completed runs included:
:func:`~spiderette.engine.predicates.cards_in_suited_runs`, a measure that moves when nobody wins),
``seconds`` and ``end``, how the game ended:

* ``"won"``;
* ``"resigned"``: the strategy answered ``None``;
* ``"no moves"``: the table allows no action, or is a dead end (see :attr:`spiderette.Game.status`);
* ``"move cap"``: ``max_moves`` moves were played (a strategy going round in circles ends too);
* ``"illegal move: <reason>"``: the strategy answered a move the rules refuse (the study goes on).

A strategy's ``note`` is added in brackets: ``"resigned (proven lost at move 0)"``. A strategy that raises
an exception stops the study with a :class:`StrategyError` naming the deal and the move; a
``KeyboardInterrupt`` (the notebook's Stop button) returns the deals finished so far, marked partial.

**Deterministic**: every seed (the redeal shown to an honest strategy at each move, a strategy's own random
choices) comes from the study's ``seed``, the deal number and the table, so the same strategy and deals give
the same rows, serial or in parallel (but for ``seconds``).
"""

from __future__ import annotations

import copy
import hashlib
import pickle
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from itertools import islice

from ..engine import platform
from ..engine.deals import MAX_SEED
from ..engine.errors import IllegalMoveError, NotationError, flag, quote, whole
from ..engine.game import Game
from ..engine.move import Move
from ..engine.predicates import cards_in_suited_runs, visible_key
from ..engine.words import plural
from ..players.extras import need
from ..players.limits import seed_of
from ..players.strategies import Strategy, strategy_label
from .results import Comparison, Simulation

__all__ = ["simulate", "compare", "play_deal", "StrategyError", "ENDS", "MAX_DEALS", "MAX_PROCESSES"]

#: The most deals a study plays: ``deals`` giving more (``range(10**9)``, ``itertools.count()``) is a
#: ``ValueError``, found without reading more than one deal past the cap.
MAX_DEALS = 1_000_000
#: The most worker processes ``processes`` may ask for (a study never starts more than it has deals).
MAX_PROCESSES = 256
#: The most moves one game of a study may take (``max_moves``).
MAX_MOVES = 1_000_000

#: How a game of a study can end (the first words of a row's ``end``).
ENDS = ("won", "resigned", "no moves", "move cap", "cycle", "illegal move")
#: A plain function (not a :class:`~spiderette.Strategy`, which never goes back to a table it has seen)
#: whose moves bring the same visible table back this many times is going round in circles: its game ends
#: with ``"cycle"``, not at the move cap.
CYCLE_REPEATS = 3
StrategyLike = Callable[[Game], "Move | str | None"]


class StrategyError(RuntimeError):
    """A strategy raised an exception: the message names the strategy, the deal and the move."""


def _mix(*parts: object) -> int:
    """A 64-bit seed from the parts, the same on every machine and in every process."""
    return int.from_bytes(hashlib.blake2b(repr(parts).encode(), digest_size=8).digest(), "big")


def _copy_for_one_game(strategy: StrategyLike) -> StrategyLike:
    """A copy of the strategy for one game (its memory of another game must not count)."""
    try:
        return copy.deepcopy(strategy)
    except Exception:  # something that cannot be copied plays as it is
        return strategy


def play_deal(strategy: StrategyLike, deal: int, variant: str = "spiderette", suits: int = 4, max_moves: int = 1000,
              seed: int = 0) -> tuple[dict, str]:
    """Play deal ``deal`` with ``strategy`` to the end: its row and the moves played, as notation.

    >>> row, line = play_deal(lambda game: None, 7)
    >>> row["end"], line
    ('resigned', '')
    """
    g = Game(variant, seed=deal, suits=suits)
    whole(max_moves, "max_moves", 1, MAX_MOVES)
    player = _copy_for_one_game(strategy)
    peeks = getattr(strategy, "peeks", False) is True
    played: list[str] = []
    t0 = time.perf_counter()
    end = None
    guard = not isinstance(player, Strategy)   # a plain function: watch for it going round in circles
    met: Counter = Counter({visible_key(g): 1} if guard else {})
    while end is None:
        status = g.status
        if status == "won":
            end = "won"
        elif status != "playing":
            end = "no moves"
        elif len(played) >= max_moves:
            end = "move cap"
        elif guard and met[visible_key(g)] >= CYCLE_REPEATS:
            end = f"cycle (the same table {CYCLE_REPEATS} times)"
        else:
            view = g.copy() if peeks else g.redeal_hidden(_mix(seed, deal, g.move_count))
            try:
                choice = player(view)
            except Exception as e:
                raise StrategyError(f"{strategy_label(strategy)} raised {type(e).__name__} on deal {deal} at move"
                                    f" {g.move_count}: {e}") from e
            if choice is None:
                end = "resigned"
                break
            try:
                move = g.resolve(choice)
                g.apply(move)
            except (IllegalMoveError, NotationError) as e:
                end = f"illegal move: {e}"
                break
            played.append(str(move))
            if guard:
                met[visible_key(g)] += 1
    note = getattr(player, "note", None)
    if isinstance(note, str) and note:
        end += f" ({note})"
    row = {"deal": deal, "won": g.is_won, "runs": g.runs_completed, "score": g.score, "moves": g.move_count,
           "face_down_left": sum(g.face_down(i) for i in range(g.columns)), "suited": cards_in_suited_runs(g),
           "seconds": time.perf_counter() - t0, "end": end}
    return row, " ".join(played)


def _play_chunk(strategy: StrategyLike, deals: Sequence[int], config: tuple) -> list[tuple[dict, str]]:
    """Several deals in one task (for an executor): fewer round trips."""
    return [play_deal(strategy, deal, *config) for deal in deals]


# ---------------------------------------------------------------------- checking the arguments
def _check_deals(deals: object) -> list[int]:
    """The deal numbers of ``deals`` as a list, read without ever holding more than :data:`MAX_DEALS` + 1."""
    if isinstance(deals, (str, bytes, dict)) or not isinstance(deals, Iterable):
        raise TypeError(f"deals must be an iterable of deal numbers like range(1000), not {quote(deals)}")
    too_many = f"deals must hold at most {MAX_DEALS:,} deal numbers"
    try:
        size = len(deals)  # type: ignore[arg-type]  # (a range or a list says its size; else caught below)
    except OverflowError:  # more than sys.maxsize, as range(2**64)
        raise ValueError(f"{too_many}, not {quote(deals)}") from None
    except Exception:  # no length (an iterator, a generator): read it, but no further than the cap
        size = None
    if size is not None and size > MAX_DEALS:
        raise ValueError(f"{too_many}, not {size:,} ({quote(deals)})")
    told = quote(deals)  # (before reading: an iterator's repr changes as it is read)
    out = list(islice(deals, MAX_DEALS + 1))
    if len(out) > MAX_DEALS:
        raise ValueError(f"{too_many}: {told} gives more")
    if not out:
        raise ValueError(f"deals is empty: give at least one deal number, not {told}")
    seen: set[int] = set()
    for d in out:
        whole(d, "each deal", 0, MAX_SEED - 1)
        if d in seen:
            raise ValueError(f"deals must not repeat a deal: {quote(d)} appears twice")
        seen.add(d)
    return out


def _check_strategy(strategy: object, parallel: bool) -> None:
    if not callable(strategy):
        raise TypeError(f"a strategy must be callable as strategy(game) -> Move | None, not {quote(strategy)}")
    if parallel:
        try:
            pickle.dumps(strategy)
        except Exception as e:
            raise TypeError(f"strategy {quote(strategy)} cannot be sent to other processes ({e}): define it at"
                            " the top level of a module, or run with processes=1") from None


def _check_executor(executor: object, processes: object) -> Executor | None:
    processes = whole(processes, "processes", 1)
    if processes > MAX_PROCESSES:
        raise ValueError(f"processes must be at most {MAX_PROCESSES}, not {quote(processes)}")
    if executor is None:
        return None
    if processes != 1:
        raise ValueError(f"give processes or executor, not both (processes={quote(processes)})")
    if executor == "dask":
        need("executor='dask'", "distributed")
        from distributed import get_client

        try:
            return get_client().get_executor()
        except ValueError:
            raise ValueError("executor='dask' needs a running Dask client: from dask.distributed import"
                             " Client; client = Client()") from None
    if not isinstance(executor, Executor):
        raise TypeError("executor must be a concurrent.futures.Executor (like a Dask client's"
                        f" client.get_executor()) or 'dask', not {quote(executor)}")
    return executor


class _NoBar:
    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


def _progress_bar(total: int, desc: str, progress: object):
    if not flag(progress, "progress"):
        return _NoBar()
    try:
        from tqdm.auto import tqdm
    except ImportError:  # no tqdm: no bar (pip install "spiderette[teach]")
        return _NoBar()
    return tqdm(total=total, desc=desc, unit="game")


# ---------------------------------------------------------------------- running
def _run(strategies: list, deals: list[int], config: tuple, processes: int, executor: Executor | None,
         progress: bool, desc: str) -> tuple[list[dict[int, tuple[dict, str]]], bool]:
    """Play every strategy on every deal: ``(per strategy {deal: (row, line)}, interrupted)``."""
    done: list[dict[int, tuple[dict, str]]] = [{} for _ in strategies]
    bar = _progress_bar(len(deals) * len(strategies), desc, progress)
    try:
        if executor is None and processes == 1:
            for deal in deals:  # deal by deal, every strategy: an interrupted comparison stays paired
                for i, s in enumerate(strategies):
                    done[i][deal] = play_deal(s, deal, *config)
                    bar.update(1)
        else:
            _run_parallel(strategies, deals, config, processes, executor, bar, done)
    except KeyboardInterrupt:
        return done, True
    finally:
        bar.close()
    return done, False


def _run_parallel(strategies: list, deals: list[int], config: tuple, processes: int, executor: Executor | None,
                  bar, done: list[dict]) -> None:
    workers = min(processes, len(deals)) if executor is None else 8  # never a process with no deal to play
    size = max(1, min(20, len(deals) // (workers * 20)))
    chunks = [deals[i:i + size] for i in range(0, len(deals), size)]
    own = ProcessPoolExecutor(workers) if executor is None else None
    pool = own or executor
    assert pool is not None   # (own when no executor is given)
    futures: dict = {}
    finished = False
    try:
        for chunk in chunks:
            for i, s in enumerate(strategies):
                futures[pool.submit(_play_chunk, s, chunk, config)] = (i, chunk)
        for fut in as_completed(futures):
            i, chunk = futures[fut]
            for deal, out in zip(chunk, fut.result()):
                done[i][deal] = out
            bar.update(len(chunk))
        finished = True
    finally:
        if not finished:  # interrupted or failed: keep what is finished, stop the rest
            for fut, (i, chunk) in futures.items():
                fut.cancel()
                if fut.done() and not fut.cancelled() and fut.exception() is None:
                    for deal, out in zip(chunk, fut.result()):
                        done[i][deal] = out
        if own is not None:
            own.shutdown(wait=finished, cancel_futures=True)


def _study(strategies: list, deals: object, variant: str, suits: int, max_moves: int, seed: int,
           processes: int, executor: object, progress: bool) -> tuple[list[Simulation], bool]:
    deals = _check_deals(deals)
    whole(max_moves, "max_moves", 1, MAX_MOVES)
    seed_of(seed)
    flag(progress, "progress")
    probe = Game(variant, seed=0, suits=suits)  # checks variant and suits
    pool = _check_executor(executor, processes)
    if pool is None and not platform.PROCESSES:
        processes = 1   # a browser tab starts no process: every game is played here, one after another
    for s in strategies:  # (another executor may pickle better, as Dask's cloudpickle does: it decides)
        _check_strategy(s, pool is None and processes > 1)
    labels = _unique([strategy_label(s) for s in strategies])
    config = (probe.variant, suits, max_moves, seed)
    t0 = time.perf_counter()
    desc = labels[0] if len(labels) == 1 else f"{len(labels)} strategies"
    done, interrupted = _run(strategies, deals, config, processes, pool, progress, desc)
    wall = time.perf_counter() - t0
    results = []
    for s, label, got in zip(strategies, labels, done):
        order = [d for d in deals if d in got]
        partial = None
        if interrupted:
            partial = f"interrupted: {len(order)} of {plural(len(deals), 'deal')} played"
        results.append(Simulation(label, getattr(s, "peeks", False) is True, [got[d][0] for d in order],
                                  {d: got[d][1] for d in order}, variant=probe.variant, suits=suits,
                                  max_moves=max_moves, seed=seed, runs_total=probe.runs_total,
                                  partial=partial, wall_seconds=wall))
    return results, interrupted


def _unique(labels: list[str]) -> list[str]:
    out = []
    for i, label in enumerate(labels):
        n = labels[:i].count(label)
        out.append(label if not n else f"{label} #{n + 1}")
    return out


def simulate(strategy: StrategyLike, deals: Iterable[int] = range(1, 101), variant: str = "spiderette",
             suits: int = 4, *, max_moves: int = 1000, seed: int = 0, processes: int = 1,
             executor: Executor | str | None = None, progress: bool = True) -> Simulation:
    """Play ``strategy`` on each of ``deals`` (deal numbers) and gather one row per deal.

    ``deals`` is any iterable of distinct deal numbers (``0 <= N < 2**64``), at most :data:`MAX_DEALS`
    (1,000,000) of them. ``max_moves`` caps each game (at most :data:`MAX_MOVES`); ``seed`` (0 to 2**64 - 1)
    varies the redeals shown to an honest strategy.
    ``processes=N`` plays on N local processes (1: here, in this process; at most :data:`MAX_PROCESSES`, and
    never more than there are deals; in a browser tab, where no process can start, always here); ``executor`` takes any
    ``concurrent.futures.Executor`` instead, such as a Dask client's ``client.get_executor()`` (or
    ``"dask"``: the running Dask client's). ``progress`` shows a bar (with tqdm).

    >>> from spiderette import GreedyStrategy
    >>> res = simulate(GreedyStrategy(), deals=range(1, 11), progress=False)
    >>> len(res.rows), 0 <= res.win_rate <= 1
    (10, True)
    """
    results, _ = _study([strategy], deals, variant, suits, max_moves, seed, processes, executor, progress)
    return results[0]


def compare(strategies: Sequence[StrategyLike], deals: Iterable[int] = range(1, 101), variant: str = "spiderette",
            suits: int = 4, *, max_moves: int = 1000, seed: int = 0, processes: int = 1,
            executor: Executor | str | None = None, progress: bool = True) -> Comparison:
    """Play each of ``strategies`` on the same ``deals``, side by side, with a paired test of the difference.

    The arguments are those of :func:`simulate`. ``cmp.table()``, ``cmp.paired()``, ``cmp.plot()``.

    >>> from spiderette import GreedyStrategy, RandomStrategy
    >>> cmp = compare([GreedyStrategy(), RandomStrategy()], deals=range(1, 6), progress=False)
    >>> cmp.paired().method
    'exact binomial'
    """
    if isinstance(strategies, (str, bytes)) or not isinstance(strategies, Iterable) or callable(strategies):
        raise TypeError(f"strategies must be a list of strategies, not {quote(strategies)}")
    strategies = list(strategies)
    if not strategies:
        raise ValueError("strategies is empty: give at least one strategy")
    results, interrupted = _study(strategies, deals, variant, suits, max_moves, seed, processes, executor,
                                  progress)
    return Comparison(results, partial=interrupted)

