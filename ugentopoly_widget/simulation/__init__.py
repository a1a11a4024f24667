"""Batch simulation: many seeded games to a DataFrame, on every core or a Dask cluster, and
experiments with confidence intervals. Imports the engine, never the widget.

    from ugentopoly_widget import simulate, compare, sweep

See ``docs/simulation.md``.

The names below are imported on first use: the rollouts' numpy-free core (the browser site)
imports ``simulation.settings`` and ``simulation.stats``, which need no numpy, while the rest
of this package (its tables) does.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .api import MAX_GAMES, SimulationWarning, simulate
    from .experiments import Comparison, Sweep, compare, sweep
    from .extras import MissingExtraError
    from .results import OutputError, Results, Summary
    from .seeding import bot_seed, game_seed

_WHERE = {
    "simulate": "api", "MAX_GAMES": "api", "SimulationWarning": "api",
    "compare": "experiments", "sweep": "experiments", "Comparison": "experiments",
    "Sweep": "experiments", "MissingExtraError": "extras", "Results": "results",
    "Summary": "results", "OutputError": "results", "bot_seed": "seeding",
    "game_seed": "seeding",
}

__all__ = [
    "simulate", "compare", "sweep", "Results", "Summary", "Comparison", "Sweep",
    "MissingExtraError", "OutputError", "SimulationWarning", "MAX_GAMES", "game_seed",
    "bot_seed",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value
