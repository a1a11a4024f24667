"""The classic Monopoly probability lessons side by side with their published figures.

Published tables disagree because each makes a different model or counts a different
measure. :func:`measure_table` shows one board under the three measures; :func:`lessons`
lists each published figure, our figure under the same switches where we can make them,
and in words what differs where we cannot. Sources: docs/probability.md ("Lessons").

>>> table = lessons()
>>> bool(table[table.same_model].agrees.all())
True
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import pandas as pd

from ..engine.boards.board import Board
from ..engine.rules import RulesProfile
from .api import Source, landing_distribution, next_roll_distribution, rolls_per_turn
from .dice import dice_distribution
from .errors import ArgumentError

MEASURES = {
    "per_roll": "share of rolls that end on the tile (Collins): every roll counts once, the "
                "rolls of a double included; sums to 1",
    "per_turn": "share of turns that end on the tile (Ash & Bishop, Durango Bill's "
                "end-of-turn table): where the token stands when the next player takes "
                "over; a roll that is followed by another roll of the same turn is not "
                "counted; sums to 1",
    "visits_per_turn": "mean number of rolls per turn that end on the tile (Durango Bill's "
                       "visits per turn): the per-roll share times the rolls per turn; "
                       "sums to the rolls per turn, more than 1",
}


def measure_table(
    game_or_board: Source,
    rules: RulesProfile | str | None = None,
    *,
    tiles: list[int] | None = None,
    jail: Literal["short", "long", "off"] = "short",
    board: Board | str | os.PathLike[str] | None = None,
    lang: str = "en",
    **assumptions: Any,
) -> pd.DataFrame:
    """The same tiles under the three measures (:data:`MEASURES` says each in words):
    position, name, per_roll, per_turn, visits_per_turn. ``tiles``: positions to keep, the
    board size for In Jail (default: every row)."""
    tables = {per: landing_distribution(game_or_board, rules, jail=jail, per=per, board=board,
                                        lang=lang, **assumptions)
              for per in ("roll", "turn", "visits")}
    out = tables["roll"][["position", "name"]].copy()
    out["per_roll"] = tables["roll"].probability
    out["per_turn"] = tables["turn"].probability
    out["visits_per_turn"] = tables["visits"].probability
    if tiles is not None:
        if not isinstance(tiles, (list, tuple)) or not all(
                isinstance(t, int) and not isinstance(t, bool) and 0 <= t < len(out)
                for t in tiles):
            raise ArgumentError(f"tiles is a list of rows 0..{len(out) - 1} (the last: In "
                                f"Jail), not {tiles!r}")
        out = out.iloc[list(tiles)]
    result: pd.DataFrame = out
    return result


STANDARD = "bundled:classic-standard-decks"


def _tile(row: int, per: str = "roll", **options: Any) -> Callable[[], float]:
    def figure() -> float:
        table = landing_distribution("classic", board=STANDARD, per=per,  # type: ignore[arg-type]
                                     **options)
        return float(table.probability[row])
    return figure


def _jail_square(**options: Any) -> float:
    df = landing_distribution("classic", board=STANDARD, **options)
    return float(df.probability[10] + df.probability[40])  # Just Visiting + In Jail


def _orange_from_jail() -> float:
    df = next_roll_distribution("classic", board=STANDARD, in_jail=True, cards=False,
                                by="group")
    return float(df.set_index("group").probability["orange"])


def _miss_yellow() -> float:
    df = next_roll_distribution("classic", board=STANDARD, position=21, by="group")
    return 1.0 - float(df.set_index("group").probability["yellow"])


def _ways_669() -> float:
    table = dice_distribution("classic").table.set_index("total")
    return float(table.ways[[6, 8, 9]].sum() / 36)


def _stay() -> float:
    from .timing import jail_time

    return jail_time("classic", board=STANDARD, jail="long").expected


def _within_one_percent() -> float:
    from .timing import mixing

    table = mixing("classic", board=STANDARD, turns=40)
    return float(table.turns[table.max_relative_error < 0.01].min())


def _hotels(group: str, per: str) -> Callable[[], float]:
    def figure() -> float:
        from .money import group_payback

        table = group_payback("classic", board=STANDARD, per=per)  # type: ignore[arg-type]
        return float(table[(table.group == group) & (table.level == "hotel")]
                     .expected_rent.iloc[0])
    return figure


@dataclass(frozen=True)
class Lesson:
    lesson: str
    source: str
    published: float
    decimals: int  # as the source prints it: ours agrees when it rounds to the same
    ours: Callable[[], float]
    same_model: bool
    why: str


LESSONS = (
    Lesson("without cards and jail every square is 1/40", "Stewart, Sci. Am. April 1996",
           0.025, 4, _tile(24, cards=False, jail="off"), True,
           "cards=False, jail='off': the walk is fair"),
    Lesson("Illinois Avenue, per roll, short jail", "Collins (per-roll table)", 3.1858, 4,
           lambda: 100 * _tile(24)(), True, "standard 16 + 16 decks at random, per roll"),
    Lesson("GO, per roll, short jail", "Collins (per-roll table)", 3.0961, 4,
           lambda: 100 * _tile(0)(), True, "as above"),
    Lesson("Illinois Avenue, per roll, long jail", "Collins (per-roll table)", 2.9929, 4,
           lambda: 100 * _tile(24, jail="long", jail_doubles_roll_again=True)(), True,
           "jail='long', jail_doubles_roll_again=True: the table's long column lets a "
           "player who leaves jail on doubles roll again (the official rules do not)"),
    Lesson("the JAIL square (Just Visiting + In Jail), %", "Project Euler 84", 6.24, 2,
           lambda: 100 * _jail_square(jail_card="ignore"), False,
           "PE84 cycles its decks (a card goes under the pile); the chain draws at random: "
           "6.22. The three likeliest squares agree: JAIL, E3 (Illinois), GO"),
    Lesson("Illinois Avenue (E3), %", "Project Euler 84", 3.18, 2,
           lambda: 100 * _tile(24, jail_card="ignore")(), False, "cycling decks, as above"),
    Lesson("within one percent of the long run after 20 turns", "Ash & Bishop, Math. Mag. "
           "1972", 20, 0, _within_one_percent, False,
           "their 1972 cards; ours: the worst tile's relative error, per turn, standard "
           "decks: below 1 % from turn 20 on (mixing)"),
    Lesson("GO, per turn", "Ash & Bishop 1972 (quoted by Edgar, sci.math 1995)", 0.0368, 4,
           _tile(0, per="turn"), False,
           "their 1972 card set and jail reading, which we do not have: ours 0.0314"),
    Lesson("leaving jail: an orange in one roll (6, 8 or 9)", "derived (REFERENCES L7)",
           14 / 36, 4, _orange_from_jail, True,
           "cards=False; with cards a 12 onto Chance and 'go back 3' adds 1/576"),
    Lesson("the course page's P(6, 8 or 9) = (5 + 7 + 8)/36", "Rolke, ESMA 5015 (a slip)",
           0.55, 2, _ways_669, False,
           "spot the error: the ways to throw 6, 8 and 9 are 5, 5 and 4, so 14/36"),
    Lesson("from Kentucky Avenue, miss every yellow", "dailymathproblem", 0.6111, 4,
           _miss_yellow, True, "yellows 5, 6 and 8 away: 4 + 5 + 5 ways; no card reaches them"),
    Lesson("the official long stay in jail, turns", "derived (REFERENCES L11)", 91 / 36, 4,
           _stay, True, "jail_time(jail='long'): 1/6 + 2 (5/6)(1/6) + 3 (5/6)^2"),
    Lesson("hotels on Park Place + Boardwalk, $ per opponent roll", "from Collins' odds "
           "(REFERENCES L8)", 85.32, 2, _hotels("darkblue", "roll"), True,
           "group_payback, per roll"),
    Lesson("hotels on Park Place + Boardwalk, $ per opponent turn", "Ash & Bishop 1972",
           101.40, 2, _hotels("darkblue", "turn"), False,
           "per turn = per roll x rolls per turn (1.187 here, jail and cards cut turns "
           "short); their cards differ: ours $101.24"),
    Lesson("hotels on Mediterranean + Baltic, $ per opponent turn", "Ash & Bishop 1972",
           17.80, 2, _hotels("brown", "turn"), False, "as above: ours $17.87"),
    Lesson("rolls per turn, 1 + 1/6 + 1/36", "REFERENCES L8", 43 / 36, 4,
           lambda: rolls_per_turn("classic", board=STANDARD), False,
           "the count ignores that Go To Jail and the jail cards end a turn early: 1.1866"),
)


def lessons() -> pd.DataFrame:
    """Each published figure beside ours: lesson, source, published, ours, same_model,
    agrees (ours rounds to the published figure at its printed precision), why."""
    rows = []
    for item in LESSONS:
        ours = item.ours()
        agrees = round(ours, item.decimals) == round(item.published, item.decimals)
        rows.append((item.lesson, item.source, item.published, ours, item.same_model, agrees,
                     item.why))
    table: pd.DataFrame = pd.DataFrame(rows, columns=["lesson", "source", "published", "ours",
                                                      "same_model", "agrees", "why"])
    return table


__all__ = ["MEASURES", "measure_table", "Lesson", "LESSONS", "lessons"]
