"""The contract's building blocks: field descriptions, the named literals, texts, {}."""

from __future__ import annotations

import sys
from typing import Literal, TypedDict

if sys.version_info >= (3, 11):
    from typing import NotRequired
else:  # pragma: no cover - Python 3.10 (anywidget depends on typing_extensions)
    from typing_extensions import NotRequired, TypedDict  # noqa: F811

__all__ = [
    "NotRequired", "Doc", "Lang", "SeatKind", "TileKindName", "Deck", "HeatMode", "JailStrategy",
    "Per", "LobbyFlag", "Empty", "Texts", "SomeTexts",
]


class Doc(str):
    """A field's description (``Annotated[int, Doc("...")]``)."""


Lang = Literal["en", "nl"]
SeatKind = Literal["person", "random", "heuristic", "strong", "rollout"]
TileKindName = Literal["START", "STREET", "RAILWAY", "UTILITY", "TAX", "CHANCE", "CHEST",
                       "JAIL", "GO_TO_JAIL", "FREE_PARKING"]
Deck = Literal["CHANCE", "CHEST"]
HeatMode = Literal["exact", "observed", "difference", "next"]
JailStrategy = Literal["short", "long"]
Per = Literal["roll", "turn"]
LobbyFlag = Literal["free_parking_pot", "auction_on_decline", "income_tax_choice",
                    "doubles_roll_again", "jail_card_auto", "release_after_three_tries",
                    "card_move_to_jail_tile_jails", "end_when_money_reaches_zero",
                    "rank_by_net_worth"]


class Empty(TypedDict):
    """``{}``: a trait that is off (no error, no heat layer, no fan ...)."""


class Texts(TypedDict):
    """A text in both languages."""

    en: str
    nl: str


class SomeTexts(TypedDict, total=False):
    """A text in the languages it exists in."""

    en: str
    nl: str
