"""Immutable board data: tiles, areas, card decks and display names.

A :class:`Board` is built once by :mod:`ugentopoly_widget.engine.boards.loader` from an XML
file (the course format, extended backwards compatibly) and never changes afterwards, so one
board can be shared by many games.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType


class TileKind(str, Enum):
    """What a tile does when a token lands on it (its ``kind`` in a board file)."""

    START = "START"
    STREET = "STREET"
    RAILWAY = "RAILWAY"
    UTILITY = "UTILITY"
    TAX = "TAX"
    CHANCE = "CHANCE"
    CHEST = "CHEST"
    JAIL = "JAIL"
    GO_TO_JAIL = "GO_TO_JAIL"
    FREE_PARKING = "FREE_PARKING"


PROPERTY_KINDS = frozenset({TileKind.STREET, TileKind.RAILWAY, TileKind.UTILITY})
DECK_KINDS = ("CHANCE", "CHEST")


class CardKind(str, Enum):
    """What a Chance or Community Chest card does (the course format's kinds and extensions)."""

    JAIL = "JAIL"  # get out of jail free
    MOVE = "MOVE"  # go to a position (forward)
    MOVEREL = "MOVEREL"  # move a number of tiles (negative = back)
    MONEY = "MONEY"  # from the bank (positive) or to the bank/pot (negative)
    PLAYERS_MONEY = "PLAYERS_MONEY"  # from every other player (positive) or to them (negative)
    GO_TO_JAIL = "GO_TO_JAIL"  # extension: go directly to jail
    NEAREST = "NEAREST"  # extension: advance to the nearest railway / utility
    REPAIRS = "REPAIRS"  # extension: pay per house and per hotel
    ROLL_AGAIN = "ROLL_AGAIN"  # extension (22-cell game): roll again


@dataclass(frozen=True, slots=True)
class Area:
    id: str
    color: str
    house_price: int | None
    positions: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Tile:
    """One tile: position, kind, id (the key of its name) and, for a property, its cost, rents
    and mortgage value."""

    position: int
    kind: TileKind
    id: str
    area: str | None = None
    cost: int = 0
    # STREET: rent0..rent5 (unimproved, 1-4 houses, hotel), as many as the file gives.
    # RAILWAY: rent for 1, 2, 3, ... owned (explicit `rents`, or base `rent` doubled per extra one).
    rents: tuple[int, ...] = ()
    mortgage: int = 0
    house_price: int | None = None  # per-tile override of the area's house price
    amount: int = 0  # TAX: fixed amount
    percent: int | None = None  # TAX: optional percentage-of-net-worth alternative

    @property
    def is_property(self) -> bool:
        return self.kind in PROPERTY_KINDS


@dataclass(frozen=True, slots=True)
class Card:
    """One card of a deck: its kind and the parameters that kind uses (a target, an amount ...)."""

    id: str
    kind: CardKind
    deck: str  # "CHANCE" or "CHEST"
    position: int = 0  # MOVE target
    collect: bool = False  # MOVE / NEAREST: pay the salary when START is passed
    relative: int = 0  # MOVEREL
    amount: int = 0  # MONEY / PLAYERS_MONEY
    target: TileKind | None = None  # NEAREST: RAILWAY or UTILITY
    rent_multiplier: int = 1  # NEAREST: multiply the owner's normal rent
    dice_multiplier: int | None = None  # NEAREST utility: roll again, pay dice x this
    house: int = 0  # REPAIRS: per house
    hotel: int = 0  # REPAIRS: per hotel


@dataclass(frozen=True, slots=True)
class Deck:
    """A deck (``"CHANCE"`` or ``"CHEST"``) and how it is drawn: ``"cycle"`` (shuffled once, a
    drawn card goes back under) or ``"random"``."""

    kind: str  # "CHANCE" or "CHEST"
    cards: tuple[Card, ...]
    draw: str = "cycle"  # "cycle": shuffle once, draw top, back under; "random": uniform each time


def _frozen(mapping: Mapping[str, object]) -> Mapping[str, object]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class Board:
    """A validated board. Positions run 0..len(tiles)-1; position 0 is the start tile."""

    name: str
    source: str  # file path or "bundled:<name>"
    balance: int  # starting money
    salary: int  # paid for passing START
    tiles: tuple[Tile, ...]
    areas: Mapping[str, Area]
    decks: Mapping[str, Deck]
    # names[lang][id] -> display text; lang "" holds a file whose language is not known.
    names: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    profile: str | None = None  # the rules profile this board is meant for, if it says so
    xml_text: str = ""  # the source text, kept so a save file can carry a custom board

    def __post_init__(self) -> None:
        object.__setattr__(self, "areas", _frozen(self.areas))
        object.__setattr__(self, "decks", _frozen(self.decks))
        object.__setattr__(
            self, "names", MappingProxyType({k: _frozen(v) for k, v in self.names.items()})
        )

    @property
    def size(self) -> int:
        return len(self.tiles)

    def positions_of(self, kind: TileKind) -> tuple[int, ...]:
        return tuple(t.position for t in self.tiles if t.kind is kind)

    @property
    def jail_position(self) -> int | None:
        jails = self.positions_of(TileKind.JAIL)
        return jails[0] if jails else None

    @property
    def property_positions(self) -> tuple[int, ...]:
        return tuple(t.position for t in self.tiles if t.is_property)

    def languages(self) -> tuple[str, ...]:
        return tuple(lang for lang in self.names if lang)

    def text(self, key: str, lang: str = "en") -> str:
        """Display text for a tile or card id, falling back to any language, then the id."""
        for candidate in (lang, "", "nl", "en"):
            table = self.names.get(candidate)
            if table is not None and key in table:
                return table[key]
        for table in self.names.values():
            if key in table:
                return table[key]
        return key

    def tile_name(self, position: int, lang: str = "en") -> str:
        return self.text(self.tiles[position].id, lang)
