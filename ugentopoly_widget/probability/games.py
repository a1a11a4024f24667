"""Game-level lessons from batch runs (:func:`ugentopoly_widget.simulation.simulate`): how
long games last when some never end (a censored distribution and its Kaplan–Meier
survival curve), and whether moving first pays (win rates by turn order against the fair
share).

A game stopped by a cap (a round or turn limit, ``max_actions``) has not ended: its length
is only known to be at least what was played, so it is *censored* there. Counting it as a
game of that length would make games look shorter; leaving it out, too.

>>> import pandas as pd
>>> lengths = pd.DataFrame({"turns": [3, 5, 5, 8, 10], "end_reason": [
...     "cannot_pay", "round_limit", "cannot_pay", "cannot_pay", "round_limit"]})
>>> survival_curve(lengths).survival.round(4).tolist()
[0.8, 0.6, 0.3]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Literal

import numpy as np
import pandas as pd

from .errors import ArgumentError
from .sampling import MoverBot

if TYPE_CHECKING:
    from ..simulation.results import Results

# end reasons of a game stopped from outside (simulation.worker names "max_actions")
CENSORED = frozenset(("round_limit", "turn_limit", "time_up", "max_actions"))


class SimpleBot(MoverBot):
    """The "simple strategy" of the never-ending-game studies: buy every property you can
    pay for, never build, never trade, never bid, leave jail at once. ``bots=SimpleBot``
    in :func:`~ugentopoly_widget.simulation.simulate`."""

    name: ClassVar[str] = "simple"

    def __init__(self, seed: int | None = None, jail: Literal["short", "long"] = "short"
                 ) -> None:
        super().__init__(jail)  # no choice is random: the seed is not needed
        self.seed = seed


def _z(confidence: float) -> float:
    from statistics import NormalDist

    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not (
            0 < confidence < 1):
        raise ArgumentError(f"confidence is a number between 0 and 1, not {confidence!r}")
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def game_lengths(source: Any, measure: Literal["turns", "rounds"] = "turns") -> pd.DataFrame:
    """Each game's length and whether it really ended (a game stopped by a cap did not).

    ``source``: a simulation ``Results`` or a DataFrame with the `measure` column and
    ``end_reason`` (or ``ended``). Columns: length, ended, end_reason."""
    if measure not in ("turns", "rounds"):
        raise ArgumentError(f"measure is 'turns' or 'rounds', not {measure!r}")
    games = getattr(source, "games", source)
    if not isinstance(games, pd.DataFrame) or measure not in games.columns or not (
            "end_reason" in games.columns or "ended" in games.columns):
        raise ArgumentError(f"expected simulation Results or a table with {measure!r} and "
                            "'end_reason' (or 'ended') columns")
    length = pd.to_numeric(games[measure], errors="coerce")
    if length.isna().any() or (length < 0).any():
        raise ArgumentError(f"every game's {measure} is a number of at least 0")
    if "ended" in games.columns:
        ended = pd.Series(_flags(games["ended"]), index=games.index)
        reason = games.get("end_reason", ended.map({True: "ended", False: "censored"}))
    else:
        reason = games["end_reason"].astype(str)
        ended = ~reason.isin(CENSORED)
    table: pd.DataFrame = pd.DataFrame({"length": length.to_numpy(), "ended": ended.to_numpy(),
                                        "end_reason": np.asarray(reason)})
    return table


def _flags(column: Any) -> np.ndarray:
    """The ``ended`` column as booleans: True/False (numpy's too) or 1/0; anything else (the
    text "False" is true to Python) is refused, never read as a wrong curve."""
    if column.dtype == bool:
        return np.asarray(column, dtype=bool)
    values = column.tolist()
    for value in values:
        if isinstance(value, (bool, np.bool_)):
            continue
        if isinstance(value, (int, float, np.integer, np.floating)) and value in (0, 1):
            continue
        raise ArgumentError(f"the 'ended' column holds True/False (or 1/0), not {value!r} "
                            f"({type(value).__name__}): convert it first, e.g. "
                            "games.ended == 'True'")
    return np.array([bool(v) for v in values], dtype=bool)


def survival_curve(source: Any, measure: Literal["turns", "rounds"] = "turns", *,
                   confidence: float = 0.95) -> pd.DataFrame:
    """Kaplan–Meier estimate of P(a game lasts longer than t) from games some of which were
    stopped by a cap (censored). One row per length at which some game ended: length,
    at_risk (games still going at that length), ended, censored (stopped there or before
    the next row), survival, ci_low, ci_high (Greenwood's variance on the log(-log) scale,
    which stays within 0 and 1). The last survival value is the share still running where
    the evidence stops: an estimate of P(never ends) when the curve has flattened."""
    z = _z(confidence)
    lengths = game_lengths(source, measure)
    if lengths.empty:
        raise ArgumentError("no games to estimate a survival curve from")
    times = np.sort(lengths.length[lengths.ended].unique())
    rows = []
    s, greenwood = 1.0, 0.0
    for k, t in enumerate(times):
        at_risk = int((lengths.length >= t).sum())
        ended = int(((lengths.length == t) & lengths.ended).sum())
        upper = times[k + 1] if k + 1 < len(times) else np.inf
        censored = int(((lengths.length >= t) & (lengths.length < upper)
                        & ~lengths.ended).sum())
        s *= 1.0 - ended / at_risk
        if at_risk > ended:
            greenwood += ended / (at_risk * (at_risk - ended))
        low, high = _loglog(s, greenwood, z)
        rows.append((t, at_risk, ended, censored, s, low, high))
    table: pd.DataFrame = pd.DataFrame(rows, columns=["length", "at_risk", "ended", "censored",
                                                      "survival", "ci_low", "ci_high"])
    return table


def _loglog(s: float, greenwood: float, z: float) -> tuple[float, float]:
    if s <= 0.0:
        return 0.0, 0.0
    if s >= 1.0 or greenwood == 0.0:
        return s, s
    spread = z * math.sqrt(greenwood) / abs(math.log(s))
    return s ** math.exp(spread), s ** math.exp(-spread)


def still_running(source: Any, caps: Sequence[int], measure: Literal["turns", "rounds"] = "turns",
                  *, confidence: float = 0.95) -> pd.DataFrame:
    """The share of games still running after each cap (Kaplan–Meier, so games censored
    earlier count as long as they were seen). Columns: cap, observed (games seen to that
    length or ended before), share, ci_low, ci_high. A cap beyond the longest game seen
    gives nothing to say: NaN."""
    if isinstance(caps, (str, bytes)) or not isinstance(caps, Sequence) or not caps:
        raise ArgumentError("caps is a list of lengths, such as [100, 200, 500]")
    curve = survival_curve(source, measure, confidence=confidence)
    lengths = game_lengths(source, measure)
    rows = []
    for cap in caps:
        if isinstance(cap, bool) or not isinstance(cap, (int, float, np.integer)) or cap < 0:
            raise ArgumentError(f"a cap is a length of at least 0, not {cap!r}")
        seen = int(((lengths.length >= cap) | lengths.ended).sum())
        if lengths.length.max() < cap:
            rows.append((cap, seen, np.nan, np.nan, np.nan))
            continue
        before = curve[curve.length <= cap]
        if before.empty:
            rows.append((cap, seen, 1.0, 1.0, 1.0))
        else:
            last = before.iloc[-1]
            rows.append((cap, seen, float(last.survival), float(last.ci_low),
                         float(last.ci_high)))
    table: pd.DataFrame = pd.DataFrame(rows, columns=["cap", "observed", "share", "ci_low",
                                                      "ci_high"])
    return table


def first_player_advantage(results: Results, confidence: float = 0.95) -> pd.DataFrame:
    """Win rate by turn order (0 = moved first) with Wilson intervals, beside the fair share
    1/players: columns order, games, wins, win_rate, ci_low, ci_high, fair_share, ratio
    (win_rate / fair_share). Run with ``rotate_seats=True`` so that every bot moves first
    equally often; a shared win counts for every winner, so rates may sum to more than 1."""
    if not hasattr(results, "win_rates") or not hasattr(results, "settings"):
        raise ArgumentError("first_player_advantage takes the Results of simulate(...)")
    _z(confidence)
    table: pd.DataFrame = results.win_rates(by="order", confidence=confidence)
    fair = 1.0 / results.settings.seats
    table["fair_share"] = fair
    table["ratio"] = table.win_rate / fair
    return table


__all__ = ["CENSORED", "SimpleBot", "game_lengths", "survival_curve", "still_running",
           "first_player_advantage"]
