"""Monopoly-style board games to play and script in a notebook cell.

The rules engine (:mod:`ugentopoly_widget.engine`) is pure Python; the notebook widget is
imported lazily so headless use (simulations, tests) never loads ipywidgets.
"""

from __future__ import annotations

from typing import Any

from .engine import (
    Action,
    Board,
    BoardError,
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

__version__ = "0.1.0"

__all__ = [
    "Action", "Board", "BoardError", "Event", "Game", "IllegalActionError",
    "InvalidActionError", "SaveFileError", "SetupError", "UndoError", "load_board",
    "load_bundled", "UgentopolyWidget", "__version__", "simulate", "compare", "sweep",
]

# Loaded on first use: the engine alone never imports numpy or pandas.
_SIMULATION = ("simulate", "compare", "sweep")


def __getattr__(name: str) -> Any:
    if name == "UgentopolyWidget":
        from .widget import UgentopolyWidget

        return UgentopolyWidget
    if name in _SIMULATION:
        from . import simulation

        return getattr(simulation, name)
    raise AttributeError(name)
