"""The probability lab: exact landing odds, fast Monte Carlo, money, counting over games.

Numbers and DataFrames from a ``Game`` (or a ``Board`` and a rules profile); it imports the
engine, never the widget. The maths and every assumption: docs/probability.md.

>>> from ugentopoly_widget import Game
>>> from ugentopoly_widget.probability import landing_distribution
>>> game = Game("classic", board="bundled:classic-standard-decks")
>>> df = landing_distribution(game)
>>> df.nlargest(3, "probability").name.tolist()
['In Jail', 'Illinois Avenue', 'GO']
"""

from __future__ import annotations

from .api import (
    compare_landings,
    convergence,
    expected_total_variation,
    group_distribution,
    landing_distribution,
    landing_model,
    next_roll_distribution,
    observed_distribution,
    overlay,
    roll_history,
    rolls_per_turn,
    tile_table,
    total_variation,
    transition_matrix,
)
from .chain import Chain
from .covering import cover_time, simulate_hitting_times
from .dice import DiceDistribution, dice_distribution
from .errors import (
    ArgumentError,
    ChainTooLargeError,
    CyclingDeckError,
    DiceError,
    MissingJailError,
    MissingSciPyError,
    ProbabilityError,
    UnsupportedCardError,
)
from .lessons import lessons, measure_table
from .model import Options
from .money import group_payback, property_income
from .montecarlo import MonteCarloInterrupted, simulate_landings
from .timing import JailTime, hitting_times, jail_time, mixing, second_eigenvalue

__all__ = [
    "ArgumentError", "ChainTooLargeError", "MissingSciPyError", "MonteCarloInterrupted",
    "simulate_landings", "Chain", "CyclingDeckError", "DiceDistribution", "DiceError",
    "MissingJailError",
    "Options", "ProbabilityError", "UnsupportedCardError", "compare_landings", "convergence",
    "dice_distribution", "expected_total_variation", "group_distribution",
    "landing_distribution", "landing_model", "rolls_per_turn",
    "next_roll_distribution", "observed_distribution", "overlay", "roll_history", "tile_table",
    "total_variation", "transition_matrix",
    # the lessons of issue 23: time in jail, mixing, hitting and cover times
    "JailTime", "jail_time", "mixing", "second_eigenvalue", "hitting_times",
    "simulate_hitting_times", "cover_time", "lessons", "measure_table", "property_income",
    "group_payback",
]
