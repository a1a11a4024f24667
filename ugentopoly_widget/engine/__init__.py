"""The rules engine: one typed Python codebase, no widget imports.

Where the install could compile it (mypyc, see ``hatch_build.py``), the modules of the hot path
run as C extensions; elsewhere, or with ``UGENTOPOLY_PURE=1`` in the environment, the same .py
files run as plain Python and play the same games. ``compiled`` says which is running. This file
itself is never compiled: it picks the build before any engine module is imported.
"""

from . import _build
from .actions import Action, action_from_dict, action_from_text
from .boards.board import Board, Card, CardKind, Deck, Tile, TileKind
from .boards.loader import bundled_boards, load_board, load_bundled, parse_board
from .errors import (
    BoardError,
    BotError,
    IllegalActionError,
    InvalidActionError,
    SaveFileError,
    ScenarioError,
    SetupError,
    UgentopolyError,
    UndoError,
)
from .game import Game
from .records.events import Event
from .records.landings import LandingCounter, Landings, count_landings
from .rules import CELL22, CLASSIC, PROFILES, UGENTOPOLY, RulesProfile, get_profile

compiled: bool = _build.compiled()
"""True when the mypyc-compiled engine modules are the ones running."""

__all__ = [
    "Action", "action_from_dict", "action_from_text", "Board", "Card", "CardKind", "Deck",
    "Tile", "TileKind", "BoardError", "BotError", "IllegalActionError", "InvalidActionError",
    "SaveFileError", "ScenarioError", "SetupError", "UgentopolyError", "UndoError", "Event",
    "Game",
    "LandingCounter", "Landings", "count_landings",
    "bundled_boards", "load_board", "load_bundled", "parse_board", "CELL22", "CLASSIC",
    "PROFILES", "UGENTOPOLY", "RulesProfile", "get_profile", "compiled",
]
