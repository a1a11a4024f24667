"""The analysis' settings, checked before any rollout (AnalysisError names the first wrong)."""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ...engine.errors import UgentopolyError
from ...engine.game import Game
from ...engine.integers import as_integer
from ..errors import RolloutError
from ..runner import check_bot_specs, check_executor, check_seed
from ..words import LANGS
from .errors import AnalysisError
from .results import Thresholds

# A point's rollouts: 10,000 per branch already give a change to within a fraction of a
# point; a whole game at that budget is hours of a core. More is a mistake, refused.
MAX_ANALYSIS_ROLLOUTS = 10_000
MAX_HORIZON = 1000

Cancel = Callable[[], bool]


def check_rollouts(rollouts: object, what: str = "rollouts") -> int:
    whole = as_integer(rollouts)
    if whole is None or whole <= 0:
        raise AnalysisError(f"{what} must be a positive integer, not {rollouts!r}")
    if whole > MAX_ANALYSIS_ROLLOUTS:
        raise AnalysisError(f"{what} is at most {MAX_ANALYSIS_ROLLOUTS:,} per choice, not "
                            f"{whole:,}: the budget is beyond the limit (a whole game at "
                            "that budget is hours of a core)")
    return whole


def check_thresholds(thresholds: object) -> Thresholds:
    """Thresholds, or three numbers (inaccuracy, mistake, blunder) in points, increasing."""
    if isinstance(thresholds, Thresholds):
        values: Sequence[Any] = (thresholds.inaccuracy, thresholds.mistake, thresholds.blunder)
    elif (isinstance(thresholds, Sequence) and not isinstance(thresholds, (str, bytes))
          and len(thresholds) == 3):
        values = thresholds
    else:
        raise AnalysisError("thresholds are three numbers of points (inaccuracy, mistake, "
                            f"blunder), such as (2, 5, 10), not {thresholds!r}")
    floats = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, numbers.Real) or not math.isfinite(v):
            raise AnalysisError(f"thresholds are finite numbers of points, not {v!r}")
        floats.append(float(v))
    if floats[0] <= 0:
        raise AnalysisError(f"thresholds are above 0 points, not {floats[0]:g}")
    if not floats[0] < floats[1] < floats[2]:
        raise AnalysisError("thresholds go up: inaccuracy < mistake < blunder, not "
                            f"{floats[0]:g}, {floats[1]:g}, {floats[2]:g}")
    return Thresholds(*floats)


def check_horizon(horizon: object) -> int | None:
    if horizon is None:
        return None
    whole = as_integer(horizon)
    if whole is None or not 1 <= whole <= MAX_HORIZON:
        raise AnalysisError(f"horizon is None (play to the end) or a number of turns from 1 "
                            f"to {MAX_HORIZON}, not {horizon!r}")
    return whole


def check_lang(lang: object) -> str:
    if not isinstance(lang, str) or lang not in LANGS:
        raise AnalysisError(f"lang is one of {list(LANGS)}, not {lang!r}")
    return lang


def check_cancel(cancel: object) -> Cancel | None:
    """None, a threading.Event (or anything with is_set()) or a callable returning True to
    stop."""
    if cancel is None:
        return None
    is_set = getattr(cancel, "is_set", None)
    if callable(is_set):
        return lambda: bool(is_set())
    if callable(cancel):
        return lambda: bool(cancel())
    raise AnalysisError(f"cancel is None, a threading.Event or a callable, not {cancel!r}")


def check_progress(progress: object) -> Callable[[int, int], None] | None:
    """None/False, True (a tqdm bar) or a callable progress(done, total) in points."""
    if progress is None or progress is False:
        return None
    if progress is True:
        from tqdm.auto import tqdm

        bar = tqdm(unit="point", desc="analysis", smoothing=0.1)

        def update(done: int, total: int) -> None:
            bar.total = total
            bar.n = done
            bar.refresh()
        return update
    if callable(progress):
        return progress
    raise AnalysisError(f"progress is True, False, None or a callable progress(done, total), "
                        f"not {progress!r}")


def check_settings(*, bots: object, seed: object, executor: object) -> tuple[Any, int, Any]:
    try:
        return check_bot_specs(bots), check_seed(seed), check_executor(executor)
    except AnalysisError:
        raise
    except RolloutError as exc:
        raise AnalysisError(str(exc)) from None


def fit_bots(lineup: Any, seats: int) -> tuple[Any, ...]:
    """The bots checked, one per seat of the game."""
    try:
        return tuple(lineup.fit(seats))
    except RolloutError as exc:
        raise AnalysisError(str(exc)) from None


def source_record(source: object) -> dict[str, Any]:
    """A game's record from a Game, a record (a mapping) or a save file's path."""
    if isinstance(source, Game):
        return source.record()
    if isinstance(source, (str, os.PathLike)):
        try:
            return Game.load(source).record()
        except UgentopolyError as exc:
            raise AnalysisError(f"{os.fspath(source)}: {exc}") from None
    if isinstance(source, Mapping):
        if not isinstance(source.get("actions"), list):
            raise AnalysisError("a game's record has a list of actions: this one has none")
        try:
            Game.replay(source, upto=0)
        except UgentopolyError as exc:
            raise AnalysisError(f"the record does not replay: {exc}") from None
        return dict(source)
    raise AnalysisError("analyse() takes a Game, its record (game.record()) or a save file's "
                        f"path, not {type(source).__name__}")


__all__ = ["check_rollouts", "check_thresholds", "check_horizon", "check_lang",
           "check_cancel", "check_progress", "check_settings", "fit_bots", "source_record",
           "MAX_ANALYSIS_ROLLOUTS", "MAX_HORIZON", "Cancel"]
