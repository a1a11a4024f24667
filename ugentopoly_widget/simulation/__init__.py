"""Batch simulation: many seeded games to a DataFrame, on every core or a Dask cluster, and
experiments with confidence intervals. Imports the engine, never the widget.

    from ugentopoly_widget import simulate, compare, sweep

See ``docs/simulation.md``.
"""

from .api import MAX_GAMES, SimulationWarning, simulate
from .experiments import Comparison, Sweep, compare, sweep
from .extras import MissingExtraError
from .results import OutputError, Results, Summary
from .seeding import bot_seed, game_seed

__all__ = [
    "simulate", "compare", "sweep", "Results", "Summary", "Comparison", "Sweep",
    "MissingExtraError", "OutputError", "SimulationWarning", "MAX_GAMES", "game_seed",
    "bot_seed",
]
