"""The rules engine: pure Python, no widget imports."""

from .actions import Action, action_from_dict, action_from_text
from .board import Board, Card, CardKind, Deck, Tile, TileKind
from .errors import (
    BoardError,
    IllegalActionError,
    InvalidActionError,
    SaveFileError,
    SetupError,
    UgentopolyError,
    UndoError,
)
from .events import Event
from .game import Game
from .landings import LandingCounter, Landings, count_landings
from .loader import bundled_boards, load_board, load_bundled, parse_board
from .rules import CELL22, CLASSIC, PROFILES, UGENTOPOLY, RulesProfile, get_profile

__all__ = [
    "Action", "action_from_dict", "action_from_text", "Board", "Card", "CardKind", "Deck",
    "Tile", "TileKind", "BoardError", "IllegalActionError", "InvalidActionError",
    "SaveFileError", "SetupError", "UgentopolyError", "UndoError", "Event", "Game",
    "LandingCounter", "Landings", "count_landings",
    "bundled_boards", "load_board", "load_bundled", "parse_board", "CELL22", "CLASSIC",
    "PROFILES", "UGENTOPOLY", "RulesProfile", "get_profile",
]
