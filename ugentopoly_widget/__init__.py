"""Monopoly-style board games to play and script in a notebook cell.

The rules engine (:mod:`ugentopoly_widget.engine`) is pure Python; the notebook widget is
imported lazily so headless use (simulations, tests) never loads ipywidgets.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import _moved
from .engine import (
    Action,
    Board,
    BoardError,
    BotError,
    Event,
    Game,
    IllegalActionError,
    InvalidActionError,
    SaveFileError,
    SetupError,
    UndoError,
    load_board,
    load_bundled,
)

if TYPE_CHECKING:  # type checkers and the API reference see them; run time imports them late
    from .probability import dice_distribution, landing_distribution, transition_matrix
    from .simulation import compare, simulate, sweep
    from .widget import UgentopolyWidget

__version__ = "0.1.0"
"""The package's version: its one source (the wheel's metadata reads it, CHANGELOG.md names it)."""

_moved.install()  # the flat layout's module paths, for one more release

__all__ = [
    "Action", "Board", "BoardError", "Event", "Game", "IllegalActionError",
    "InvalidActionError", "SaveFileError", "SetupError", "BotError", "UndoError", "load_board",
    "load_bundled", "UgentopolyWidget", "__version__",
    "landing_distribution", "transition_matrix", "dice_distribution",
    "simulate", "compare", "sweep",
]

# The analysis layer needs numpy and pandas: imported on first use, never by the engine.
_PROBABILITY = ("landing_distribution", "transition_matrix", "dice_distribution")
_SIMULATION = ("simulate", "compare", "sweep")


def __getattr__(name: str) -> Any:
    if name == "UgentopolyWidget":
        from .widget import UgentopolyWidget

        return UgentopolyWidget
    if name in _PROBABILITY:
        from . import probability

        return getattr(probability, name)
    if name in _SIMULATION:
        try:
            from . import simulation
        except ModuleNotFoundError as exc:  # the browser site has no numpy (docs/lite.md)
            from .probability.errors import NUMPY_MODULES, NumpyMissingError

            if exc.name in NUMPY_MODULES:
                raise NumpyMissingError(f"ugentopoly_widget.{name}") from None
            raise
        return getattr(simulation, name)
    raise AttributeError(name)
