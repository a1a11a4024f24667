"""The contract between Python and the browser view, written once: every synced trait the view
reads or writes and every custom message in both directions, as typed Python definitions.

Why typed Python definitions (``TypedDict``) and not a hand-written JSON Schema: the payloads
are built in Python, so mypy (strict) checks the builders against these very types
(``board_data() -> BoardData``, ``state_snapshot() -> GameState``, ...) as they are written,
before any test runs; the JSON Schema (``contract.schema.json``, for tests and any other
client, e.g. a classroom server) and the TypeScript types of the view (``js/src/contract.ts``)
are generated from them by :mod:`ugentopoly_widget.widget.contract_export`, with no dependency
on either side. ``tests/test_contract.py`` validates every published payload against the
schema across seeded playouts, checks that every field the schema names was seen, and that the
generated files are up to date.

Conventions: ``NotRequired`` fields may be absent; ``X | None`` is JSON null; ``Empty`` is
``{}`` (a trait that is off); a dict with ``Literal`` keys has every one of them. Tuples are
JSON arrays of fixed length. Changing anything here changes the contract: run
``python -m ugentopoly_widget.widget.contract_export --write`` and the view's type check.
"""

# ruff: noqa: F403, F405  (the definitions live in the modules below, all re-exported)
from __future__ import annotations

import typing
from functools import cache
from typing import Any

from ...engine.rules import Buildings, GameMode, StreetRent
from .analysis import *
from .base import *
from .base import NotRequired
from .game import *
from .messages import *
from .messages import Message, Request, Traits
from .panels import *

# The roots of the contract: what the schema and the TypeScript export by name.
ROOTS: dict[str, object] = {"Traits": Traits, "Request": Request, "Message": Message}

# What the named unions and literals stand for (TypedDicts say it in their docstrings).
ALIAS_DOCS = {
    "Action": "an action a person can take (engine/actions.py, its dict form)",
    "Decision": "whose decision it is, about what (engine/state.py Decision)",
    "State": "the state trait: a game's, or the lobby's before the first game",
    "Request": "a view's model.send(...), checked in Python (game_widget._handle_request)",
    "Message": "a custom message from Python to the views (widget.send)",
    "Heat": "the heat layer: w.show_heat's, a probability mode's, or none",
    "WinChances": "the live win chances: waiting, an estimate, game over, or off",
    "TradeAdvice": "the trade dialog's advice: working, rated, refused, or none yet",
    "Analysis": "luck or skill: waiting, the analysis so far, refused, or off",
    "RollMapTrait": "the 36-roll map: drawn, being worked out, refused, or none",
    "VerdictName": "a decision's verdict by the analysis' thresholds",
    "RentHelp": "what a property would earn its buyer (explain.buy_rent)",
    "Move": "[player, start, end, steps, via] of one move",
}


def fields(td: Any) -> dict[str, tuple[Any, bool]]:
    """A TypedDict's fields: name -> (type, required). (Its own ``__required_keys__`` is
    wrong under ``from __future__ import annotations`` before Python 3.12: a NotRequired
    written as a string is not seen.)"""
    out: dict[str, tuple[Any, bool]] = {}
    for key, tp in typing.get_type_hints(td, include_extras=True).items():
        needed = bool(td.__total__)
        if typing.get_origin(tp) is NotRequired:
            tp, needed = typing.get_args(tp)[0], False
        out[key] = (tp, needed)
    return out


@cache
def request_keys() -> dict[str, tuple[frozenset[str], frozenset[str]]]:
    """Each request type's keys, from the Request union: type -> (all keys, optional ones).
    The widget checks every request against these (game_widget._handle_request)."""
    out: dict[str, tuple[frozenset[str], frozenset[str]]] = {}
    for td in typing.get_args(Request):
        spec = fields(td)
        (kind,) = typing.get_args(spec["type"][0])
        out[kind] = (frozenset(spec), frozenset(k for k, (_, needed) in spec.items()
                                                if not needed))
    return out


__all__ = [
    "Doc", "Lang", "SeatKind", "TileKindName", "Deck", "HeatMode", "JailStrategy", "Per",
    "LobbyFlag", "Empty", "Texts", "SomeTexts", "Tile", "Area", "Card", "BoardRules", "BoardData",
    "LobbyProfile", "LobbyBoard", "LobbyData", "TradeSide", "SimpleAction", "PositionAction",
    "BidAction", "TaxAction", "SellDownAction", "ProposeTradeAction", "Action", "TurnDecision",
    "BuyData", "BuyDecision", "AuctionData", "AuctionDecision", "TaxData", "TaxDecision",
    "JailFineData", "JailFineDecision", "TradeData", "TradeDecision", "MortgagedData",
    "MortgagedDecision", "DebtData", "DebtDecision", "HouseOfferData", "HouseOfferDecision",
    "PlaceHouseData", "PlaceHouseDecision", "GameOverData", "GameOverDecision", "Decision",
    "Player", "LogPiece", "BidRange", "Timer", "Move", "DrawnCard", "Batch", "Last", "JailHelp",
    "AgainHelp", "TaxHelp", "StreetRentHelp", "LinearRentHelp", "RailwayRentHelp",
    "UtilityRentHelp", "RentHelp", "AuctionHelp", "HouseHelp", "Help", "RankRow", "GameState",
    "LobbyState", "State", "ErrorInfo", "HeatNote", "HeatNotes", "CustomHeat", "ProbabilityHeat",
    "Heat", "DiceStats", "Convergence", "JailGroup", "JailComparison", "Stats", "Fan", "WinRow",
    "Unfinished", "Swing", "WinWaiting", "WinEstimate", "WinOver", "WinChances", "OfferSide",
    "TradeOffer", "AdviceSide", "AdviceWorking", "AdviceRated", "AdviceError", "TradeAdvice",
    "Traits", "VIEW_WRITES", "ActRequest", "UndoRequest", "TickRequest", "SetupPlayer",
    "SetupOptions", "SetupRequest", "LangRequest", "BotsRequest", "ProbabilityRequest",
    "RollOnceRequest", "PictureRequest", "WinChancesRequest", "TradeAdviceRequest", "LogRequest",
    "AnalysisRequest", "RollMapRequest", "PositionRequest",
    "Request", "PictureMessage", "LogMessage", "LogPageMessage", "LogLangMessage", "Message",
    "VerdictName", "LiveVerdict", "LiveLuck", "AnalysisPlayer", "AnalysisPoint", "Mistake",
    "AnalysisThresholds", "AnalysisWaiting", "AnalysisReport", "AnalysisError", "Analysis",
    "RollCell", "RollMapPanel", "RollMapError", "RollMapTrait", "PositionMessage",
    "ROOTS", "ALIAS_DOCS", "fields", "request_keys", "Buildings", "GameMode", "StreetRent",
]
