"""Cardz design files: read one as a variant the engine plays, and write every variant as one.

A design file (JSON; the seed's Spiderette page holds one) sets out a game as depots (a stock, foundations,
tableaus, each with what it accepts and what it gives up), deal rules, a redeal rule, a win condition and a
score. :func:`from_cardz` reads the designs of the Spider family that the engine can play and refuses any
other part with a :class:`DesignError` (a ``ValueError``) that names the part and says why: never a silently
different game. :func:`to_cardz` writes a variant's rules as a design that reads back to the same rules.

>>> from spiderette.engine.variants import RULES
>>> design = to_cardz(RULES["will_o_the_wisp"])
>>> from_cardz(design) == RULES["will_o_the_wisp"]
True
>>> try:
...     from_cardz('{"name": "Mine", "depots": []}')
... except DesignError as e:
...     print(e)
design 'Mine': 'depots' must hold one Stock, one Foundation and one Tableau depot, not none
"""

from __future__ import annotations

import json
import os
import re

from .errors import clip, quote
from .files import FileRefused, read_regular
from .variants import MAX_COLUMNS, MAX_DECKS, RULES, TITLE_MAX, Rules, register, row_by_row
from .words import plural

__all__ = ["from_cardz", "to_cardz", "DesignError", "MAX_DESIGN_BYTES"]

#: The largest design file read (the seed's is under 5,000 bytes).
MAX_DESIGN_BYTES = 1_000_000
# The most tableau columns and decks a design may have are the engine's (``variants.MAX_COLUMNS``: the notation
# names ten columns, a to j; ``MAX_DECKS``: two).
#: Top-level keys of a design: those that set the rules, and those that only describe or lay it out.
RULE_KEYS = ("depots", "dealRules", "redealRules", "redealWhen", "winCondition", "scoring", "decks", "suits")
PLAIN_KEYS = ("name", "family", "description", "depotOnly", "tools", "title")
#: The score expression the engine keeps: a start, minus the moves, plus a bonus per filled foundation.
SCORE = re.compile(r"^\s*([0-9]{1,9})\s*-\s*moves\s*\+\s*([0-9]{1,9})\s*\*\s*"
                   r"count\(\s*Foundation\s*,\s*!empty\(it\)\s*\)\s*$", re.ASCII)
#: How a tableau builds (``Rules.build``), as the keys a design's build adds to ``"direction": "Down"``; a design
#: may also write ``"colour"`` for ``"color"`` and ``"suit": "Any"`` for any suit.
BUILD_KEYS: dict[str, dict[str, str]] = {"any": {}, "suit": {"suit": "Same"}, "alternate": {"color": "Alternate"}}
_DEPOT_KEYS = {"type", "col", "row", "name", "repeat", "acceptRule", "ejectRule", "autoFlipTop", "autoSend"}


class DesignError(ValueError):
    """A design file the engine cannot play as it says: the message names the part and why."""


def from_cardz(design: str | os.PathLike | dict) -> Rules:
    """The variant a Cardz design file describes: its JSON text, a path to it, or the parsed ``dict``.

    The variant is registered under the design's name in lower case (``"Spiderette"``: ``spiderette``), so
    ``Game(variant=...)``, ``Widget(variant=...)``, ``simulate``, the solver and the planner play it, and the
    table's variant menu offers it. A design that reads to the rules of a built-in variant of its name is
    that variant; other rules under a name already known are refused.

    >>> import pathlib
    >>> seed = pathlib.Path(__file__).with_name("spiderette.cardz")
    >>> from_cardz(seed) is RULES["spiderette"]
    True
    """
    data = _parse(design)
    where = f"design {quote(data.get('name', '(no name)'))}"

    def bad(part: str, why: str) -> DesignError:
        return DesignError(f"{where}: {part} {why}")

    name = data.get("name")
    if not isinstance(name, str) or not DESIGN_NAME.fullmatch(name):
        raise bad("'name'", f"must be a name of letters, digits, spaces, ' _ or - (at most 60), not {quote(name)}")
    title = data.get("title", name)
    if not isinstance(title, str) or not 0 < len(title) <= TITLE_MAX or not title.isprintable() \
            or title != title.strip():
        raise bad("'title'", f"must be 1 to {TITLE_MAX} printable characters (or left out: the name), not"
                  f" {quote(title)}")
    unknown = [k for k in data if k not in RULE_KEYS + PLAIN_KEYS]
    if unknown:
        named = ", ".join(quote(k, 60) for k in unknown[:5]) + (f" and {len(unknown) - 5:,} more" if len(unknown) > 5
                                                                  else "")
        raise bad(named, f"{'is' if len(unknown) == 1 else 'are'} not part of a"
                  f" design this engine reads (it reads {', '.join(RULE_KEYS + PLAIN_KEYS)})")
    stock, found, tab = _depots(data.get("depots"), bad)
    runs = found.get("repeat", 1)
    if runs % 4:
        raise bad("the Foundation depot", f"must repeat 4 times a deck (a foundation for each King-to-Ace run of"
                  f" a deck), not {runs}")
    decks = _number(data.get("decks", runs // 4), "'decks'", 1, MAX_DECKS, bad)
    if runs != 4 * decks:
        raise bad("the Foundation depot", f"repeats {runs} times, but {plural(decks, 'deck')} make"
                  f" {4 * decks} runs")
    columns = tab.get("repeat", 1)
    _foundation(found, bad)
    group, build = _tableau(tab, bad)
    layout, face_up, order = _deal(data.get("dealRules"), tab["name"], columns, 52 * decks, bad)
    _redeal(data.get("redealRules"), tab["name"], bad)
    deal_with_empty = _redeal_when(data.get("redealWhen"), bad)
    win = data.get("winCondition")
    if win != {"kind": "allCardsIn", "depots": "Foundation"}:
        raise bad("'winCondition'", f"must be all cards in the foundations ({{\"kind\": \"allCardsIn\","
                  f" \"depots\": \"Foundation\"}}), not {quote(win)}")
    start, bonus = _score(data.get("scoring"), bad)
    suits = _suits(data.get("suits"), group, build, bad)
    slug = _slug(name)
    auto_send = tab.get("autoSend") == "Foundation"
    if "autoSend" in tab and not auto_send:
        raise bad("the Tableau's 'autoSend'", f"can only be \"Foundation\" (or left out: runs sent by hand), not"
                  f" {quote(tab['autoSend'])}")
    rules = Rules(slug, title, decks, layout, face_up, deal_with_empty, group, suits, order, start, bonus, auto_send,
                  build)
    try:
        return register(rules)
    except ValueError as e:
        raise DesignError(f"{where}: {e}") from None


def to_cardz(rules: Rules | str) -> str:
    """A Cardz design file (JSON text) of a variant's rules (a :class:`Rules` or a variant's name), which
    :func:`from_cardz` reads back to the same rules.

    >>> print(to_cardz("spiderette").splitlines()[1])
      "name": "Spiderette",
    """
    if isinstance(rules, str):
        if rules not in RULES:
            raise ValueError(f"unknown variant {quote(rules)}: choose one of {', '.join(RULES)}")
        rules = RULES[rules]
    if not isinstance(rules, Rules):
        raise TypeError(f"to_cardz() writes Rules or a variant's name, not {quote(rules)}")
    if rules.group == "card":
        unit: dict = {"kind": "Card"}
    else:
        unit = {"kind": "Run", "build": {"direction": "Down"}, ("color" if rules.group == "colour" else "suit"): "Same"}
    build = {"direction": "Down", **BUILD_KEYS[rules.build]}
    tableau = {"type": "Tableau", "col": 0, "row": 1, "name": "tab", "repeat": rules.columns,
               "acceptRule": {"build": build}, "ejectRule": {"gate": "FaceUp", "unit": unit},
               "autoFlipTop": True}
    if rules.auto_send:
        tableau["autoSend"] = "Foundation"
    named = {"name": rules.title} if _slug(rules.title) == rules.name and DESIGN_NAME.fullmatch(rules.title) \
        else {"name": rules.name, "title": rules.title}   # (a title that is not the name's: both)
    design: dict = {
        **named, "family": "Spider",
        "depots": [
            {"type": "Stock", "col": 0, "row": 0, "name": "stock", "acceptRule": "none", "ejectRule": "locked"},
            {"type": "Foundation", "col": 3, "row": 0, "name": "found", "repeat": 4 * rules.decks,
             "acceptRule": {"emptyOnly": True, "minCount": 13, "seed": "King", "build": {"direction": "Down"}},
             "ejectRule": "locked"},
            tableau],
        "dealRules": _deal_rules(rules),
        "redealRules": [{"kind": "dealGroup", "to": "tab", "faceUp": 1, "roundRobin": True}],
    }
    if not rules.deal_with_empty:
        design["redealWhen"] = {"kind": "depotsNonEmpty", "depots": "Tableau"}
    design["winCondition"] = {"kind": "allCardsIn", "depots": "Foundation"}
    design["scoring"] = {"value": f"{rules.start_score} - moves + {rules.run_bonus} * count(Foundation, !empty(it))"}
    if rules.suit_options != _default_suits(rules.group, rules.build):
        design["suits"] = list(rules.suit_options)
    return json.dumps(design, indent=2, ensure_ascii=False) + "\n"


# ---------------------------------------------------------------------- reading the parts
#: A design's name: the variant's name is it in lower case, spaces and - as _, without ' (``_slug``).
DESIGN_NAME = re.compile(r"[A-Za-z][A-Za-z0-9 '_-]{0,59}", re.ASCII)


def _slug(name: str) -> str:
    return name.lower().replace(" ", "_").replace("-", "_").replace("'", "")


def _parse(design: object) -> dict:
    """The design's JSON object, from its text, a path to its file, or the ``dict`` itself."""
    if isinstance(design, dict):
        data = design
    elif isinstance(design, (str, os.PathLike)):
        text = os.fspath(design)
        if not isinstance(text, str):   # (a path given as bytes)
            raise TypeError(f"from_cardz() reads a design's JSON text, a path or a dict, not {quote(design)}")
        if isinstance(design, str):
            text = text.removeprefix(BOM)
        if isinstance(design, os.PathLike) or not text.lstrip().startswith(("{", "[")):
            text = _read_design(text)
        if len(text) > MAX_DESIGN_BYTES:
            raise DesignError(f"a design file holds at most {MAX_DESIGN_BYTES:,} characters, not {len(text):,}")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise DesignError(f"not a design file: not JSON ({e})") from None
        except RecursionError:
            raise DesignError("not a design file: its JSON is nested too deeply") from None
        except ValueError:   # (Python refuses a whole number of more than 4,300 digits)
            raise DesignError("not a design file: it holds a number with too many digits") from None
    else:
        raise TypeError(f"from_cardz() reads a design's JSON text, a path or a dict, not {quote(design)}")
    if not isinstance(data, dict):
        raise DesignError(f"a design file is a JSON object, not {quote(data)}")
    return data


#: A byte-order mark, which some editors put at the start of a UTF-8 file: read as nothing.
BOM = "\ufeff"


def _read_design(path: str) -> str:
    """The text of the design file ``path``: a regular file of at most :data:`MAX_DESIGN_BYTES`, UTF-8 (a
    byte-order mark allowed), read at once or refused at once (a folder, a pipe, ``/dev/zero``)."""
    name = quote(path, 200)
    if not path.strip():
        raise DesignError("no design: give a design's JSON text, a path to its file or a dict, not"
                          f" {name}")
    if "\0" in path:
        raise DesignError(f"cannot read the design file {name}: a path cannot hold a NUL character")
    try:
        raw = read_regular(path, MAX_DESIGN_BYTES)
    except FileRefused as e:
        if e.kind == "large":
            raise DesignError(f"{name} is {e.size:,} bytes: a design file holds at most {MAX_DESIGN_BYTES:,}")\
                from None
        raise DesignError(f"{name} is {e}, not a design file") from None
    except OSError as e:
        raise DesignError(f"cannot read the design file {name}: {clip(e.strerror or str(e))}") from None
    except ValueError as e:
        raise DesignError(f"cannot read the design file {name}: {clip(str(e))}") from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise DesignError(f"{name} is not a design file (not UTF-8 text)") from None


def _number(v: object, part: str, lo: int, hi: int, bad, why: str = "") -> int:
    if type(v) is not int or not lo <= v <= hi:
        raise bad(part, f"must be a whole number from {lo} to {hi}{why}, not {quote(v)}")
    return v


def _depots(depots: object, bad) -> tuple[dict, dict, dict]:
    if not isinstance(depots, list) or not all(isinstance(d, dict) for d in depots):
        raise bad("'depots'", f"must be a list of depots (objects), not {quote(depots)}")
    by_type: dict[str, dict] = {}
    for d in depots:
        kind = d.get("type")
        if kind not in ("Stock", "Foundation", "Tableau"):
            cell = " (a free cell: the Spider family has none)" if kind in ("Cell", "FreeCell", "Reserve") else ""
            raise bad(f"the depot {quote(d.get('name', kind))}", f"is of type {quote(kind)}{cell}; this engine"
                      " plays a Stock, Foundations and Tableaus only")
        if kind in by_type:
            raise bad(f"the depot {quote(d.get('name'))}", f"is a second {kind} depot: give one, with 'repeat'")
        extra = sorted(set(d) - _DEPOT_KEYS)
        if extra:
            raise bad(f"the {kind} depot", f"has {', '.join(map(repr, extra))}, which this engine does not read")
        if not isinstance(d.get("name"), str) or not d["name"]:
            raise bad(f"the {kind} depot", f"needs a 'name', not {quote(d.get('name'))}")
        _number(d.get("repeat", 1), f"the {kind} depot's 'repeat'", 1, 1 if kind == "Stock" else
                (4 * MAX_DECKS if kind == "Foundation" else MAX_COLUMNS), bad,
                f" (the most columns this engine plays: the notation names them a to {chr(96 + MAX_COLUMNS)})"
                if kind == "Tableau" else "")
        by_type[kind] = d
    missing = [k for k in ("Stock", "Foundation", "Tableau") if k not in by_type]
    if missing:
        raise bad("'depots'", f"must hold one Stock, one Foundation and one Tableau depot, not "
                  f"{', '.join(sorted(by_type)) or 'none'}" if len(missing) == 3 else f"lacks a {missing[0]} depot")
    stock = by_type["Stock"]
    if stock.get("acceptRule", "none") != "none" or stock.get("ejectRule", "locked") != "locked":
        raise bad("the Stock depot", "must take nothing and give nothing but deals (acceptRule \"none\","
                  " ejectRule \"locked\")")
    return stock, by_type["Foundation"], by_type["Tableau"]


def _foundation(found: dict, bad) -> None:
    accept = {"emptyOnly": True, "minCount": 13, "seed": "King", "build": {"direction": "Down"}}
    if found.get("acceptRule") != accept or found.get("ejectRule", "locked") != "locked":
        raise bad("the Foundation depot", f"must take a whole King-to-Ace run at once and give nothing back"
                  f" (acceptRule {json.dumps(accept)}, ejectRule \"locked\"), not {quote(found.get('acceptRule'))}")


def _tableau(tab: dict, bad) -> tuple[str, str]:
    accept = tab.get("acceptRule")
    build = accept.get("build") if isinstance(accept, dict) else None
    if not isinstance(build, dict) or set(accept) != {"build"}:  # type: ignore[arg-type]  # (a dict: build is)
        raise bad("the Tableau's 'acceptRule'", f"must say how cards build ({{\"build\": {{\"direction\":"
                  f" \"Down\"}}}}); this engine has no other rule for a tableau (an empty column takes any"
                  f" card), not {quote(accept)}")
    if build.get("direction") != "Down":
        raise bad("the Tableau's build", f"must go down (a card onto one a rank higher), not"
                  f" {quote(build.get('direction'))}")
    kind = {"color" if k == "colour" else k: v for k, v in build.items() if k != "direction"}
    if kind == {"suit": "Any"}:
        kind = {}
    builds = [b for b, keys in BUILD_KEYS.items() if keys == kind]
    if not builds:
        raise bad("the Tableau's build", "must be down in any suit, in the same suit ({\"suit\": \"Same\"}) or"
                  f" in alternate colours ({{\"color\": \"Alternate\"}}), not {quote(build)}")
    eject = tab.get("ejectRule")
    unit = eject.get("unit") if isinstance(eject, dict) else None
    if (not isinstance(unit, dict) or eject.get("gate") != "FaceUp"  # type: ignore[union-attr]  # (a dict: unit is)
            or set(eject) != {"gate", "unit"}):  # type: ignore[arg-type]  # (a dict: unit is)
        raise bad("the Tableau's 'ejectRule'", f"must give up face-up cards as a unit ({{\"gate\": \"FaceUp\","
                  f" \"unit\": ...}}), not {quote(eject)}")
    group = "card" if unit == {"kind": "Card"} else ""
    if not group and (unit.get("kind") != "Run" or unit.get("build") != {"direction": "Down"}):
        raise bad("the Tableau's unit", f"must be one card ({{\"kind\": \"Card\"}}) or a run down ({{\"kind\":"
                  f" \"Run\", \"build\": {{\"direction\": \"Down\"}}, ...}}), not {quote(unit)}")
    rest = {k: v for k, v in unit.items() if k not in ("kind", "build")}
    if group == "card":
        pass
    elif rest == {"suit": "Same"}:
        group = "suit"
    elif rest in ({"color": "Same"}, {"colour": "Same"}):
        group = "colour"
    else:
        raise bad("the Tableau's unit", f"must move a run of one suit ({{\"suit\": \"Same\"}}) or of one colour"
                  f" ({{\"color\": \"Same\"}}), not {quote(rest)}")
    if tab.get("autoFlipTop", True) is not True:
        raise bad("the Tableau's 'autoFlipTop'", "must be true: a face-down card left on top turns over")
    return group, builds[0]


def _targets(to: object, name: str, columns: int, part: str, cards: int, bad) -> list[int]:
    """The columns a deal rule deals to, in turn; refused as soon as they name more than the deck's ``cards``."""
    names = to if isinstance(to, list) else [to]
    out: list[int] = []
    for t in names:
        if t == name:
            out.extend(range(columns))
        else:
            m = re.fullmatch(rf"{re.escape(name)}-([1-9][0-9]?)", t, re.ASCII) if isinstance(t, str) else None
            if m is None or not 1 <= int(m.group(1)) <= columns:
                raise bad(part, f"deals to {quote(t)}: name a tableau, {name}-1 to {name}-{columns}, or {name} for"
                          " all")
            out.append(int(m.group(1)) - 1)
        if len(out) > cards:   # (checked as they come: a list of a million names is refused at once)
            raise bad(part, f"deals more cards than the deck's {cards}")
    if not out:
        raise bad(part, "deals to no tableau")
    return out


def _deal(rules: object, name: str, columns: int, cards: int, bad) -> tuple[tuple[int, ...], int, tuple | None]:
    if not isinstance(rules, list) or not rules:
        raise bad("'dealRules'", f"must be a list of deal rules, not {quote(rules)}")
    dealt: list[tuple[int, bool]] = []
    for i, r in enumerate(rules, start=1):
        part = f"deal rule {i}"
        if not isinstance(r, dict) or r.get("kind") != "dealGroup":
            raise bad(part, f"must be a dealGroup ({{\"kind\": \"dealGroup\", ...}}), not {quote(r)}")
        extra = sorted(set(r) - {"kind", "to", "faceUp", "faceDown", "roundRobin"})
        if extra:
            raise bad(part, f"has {', '.join(map(repr, extra))}, which this engine does not read")
        if ("faceUp" in r) == ("faceDown" in r):
            raise bad(part, "must give either faceUp or faceDown: how many cards, and which way up")
        up = "faceUp" in r
        n = _number(r["faceUp" if up else "faceDown"], f"{part}'s card count", 1, cards, bad)
        robin = r.get("roundRobin", False)
        if not isinstance(robin, bool):
            raise bad(part, f"'roundRobin' must be true or false, not {quote(robin)}")
        targets = _targets(r.get("to"), name, columns, part, cards - len(dealt), bad)
        if len(dealt) + n * len(targets) > cards:   # (counted before the cards are laid out)
            raise bad(part, f"deals more cards than the deck's {cards}")
        order = [t for _ in range(n) for t in targets] if robin else [t for t in targets for _ in range(n)]
        dealt.extend((t, up) for t in order)
    layout = tuple(sum(1 for c, _ in dealt if c == col) for col in range(columns))
    if 0 in layout:
        raise bad("'dealRules'", f"deal nothing to {name}-{layout.index(0) + 1}: every tableau starts with a card")
    ups = []
    for col in range(columns):
        faces = [u for c, u in dealt if c == col]
        if any(a and not b for a, b in zip(faces, faces[1:])):
            raise bad("'dealRules'", f"deal a face-down card onto a face-up one in {name}-{col + 1}: face-down"
                      " cards lie beneath")
        ups.append(sum(faces))
    if len(set(ups)) != 1 or ups[0] == 0:
        raise bad("'dealRules'", f"give the tableaus {ups} face-up cards: this engine starts every column with"
                  " the same number face up, at least one")
    columns_dealt = tuple(c for c, _ in dealt)
    return layout, ups[0], None if columns_dealt == row_by_row(layout) else columns_dealt


def _redeal(rules: object, name: str, bad) -> None:
    one_each = [{"kind": "dealGroup", "to": name, "faceUp": 1, "roundRobin": True}]
    if rules != one_each:
        raise bad("'redealRules'", f"must deal one card face up to every tableau in turn ({json.dumps(one_each)}):"
                  f" the deal this engine makes (its last cards to the first columns), not {quote(rules)}")


def _redeal_when(when: object, bad) -> bool:
    """Whether the stock may be dealt with an empty column."""
    if when is None:
        return True
    if when != {"kind": "depotsNonEmpty", "depots": "Tableau"}:
        raise bad("'redealWhen'", f"can only ask that no tableau is empty ({{\"kind\": \"depotsNonEmpty\","
                  f" \"depots\": \"Tableau\"}}), or be left out (deal at any time), not {quote(when)}")
    return False


def _score(scoring: object, bad) -> tuple[int, int]:
    value = scoring.get("value") if isinstance(scoring, dict) and set(scoring) == {"value"} else None
    m = SCORE.match(value) if isinstance(value, str) else None
    if m is None:
        raise bad("'scoring'", f"must be {{\"value\": \"S - moves + B * count(Foundation, !empty(it))\"}} with"
                  f" whole numbers S and B, not {quote(scoring)}")
    return int(m.group(1)), int(m.group(2))


def _default_suits(group: str, build: str = "any") -> tuple[int, ...]:
    return (4,) if group == "colour" else (4, 2) if build == "alternate" else (4, 2, 1)


def _suits(suits: object, group: str, build: str, bad) -> tuple[int, ...]:
    if suits is None:
        return _default_suits(group, build)
    if (not isinstance(suits, list) or not suits or len(set(map(repr, suits))) != len(suits)
            or any(s not in (4, 2, 1) or type(s) is not int for s in suits)):
        raise bad("'suits'", f"must list the suit options, some of 4, 2 and 1, each once, not {quote(suits)}")
    if group == "colour" and suits != [4]:
        raise bad("'suits'", "of a design whose runs go by colour can only be [4]")
    if build == "alternate" and 1 in suits:
        raise bad("'suits'", "of a design that builds in alternate colours cannot hold 1 (one suit has one colour:"
                  " no card could go on another)")
    return tuple(suits)


def _deal_rules(rules: Rules) -> list[dict]:
    """The dealGroup rules of a variant's deal: row by row, each row as runs of columns of the same face."""
    layout = rules.layout
    order = rules.deal_order or row_by_row(layout)
    counts = [0] * len(layout)
    cards = []
    for c in order:
        counts[c] += 1
        cards.append((c, counts[c] > layout[c] - rules.face_up))
    out: list[dict] = []
    for c, up in cards:
        last = out[-1] if out else None
        if last is not None and last["_up"] == up and c not in last["_cols"] and c > last["_cols"][-1]:
            last["_cols"].append(c)
        else:
            out.append({"_cols": [c], "_up": up})
    rules_out = []
    for g in out:
        names = [f"tab-{c + 1}" for c in g["_cols"]]
        face = "faceUp" if g["_up"] else "faceDown"
        r = {"kind": "dealGroup", "to": names[0] if len(names) == 1 else names, face: 1}
        if len(names) > 1:
            r["roundRobin"] = True
        rules_out.append(r)
    return rules_out
