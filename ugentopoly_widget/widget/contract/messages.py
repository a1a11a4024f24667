"""Every synced trait, the requests a view sends and Python's custom messages."""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict

from ...engine.rules import GameMode
from .analysis import Analysis, PositionMessage, RollMapTrait
from .base import Doc, Empty, HeatMode, JailStrategy, Lang, NotRequired, Per, SeatKind
from .game import Action, BoardData, LobbyData, State
from .panels import ErrorInfo, Fan, Heat, Stats, TradeAdvice, TradeOffer, WinChances

__all__ = [
    "Traits", "VIEW_WRITES", "ActRequest", "UndoRequest", "TickRequest", "SetupPlayer",
    "SetupOptions", "SetupRequest", "LangRequest", "BotsRequest", "ProbabilityRequest",
    "RollOnceRequest", "PictureRequest", "WinChancesRequest", "TradeAdviceRequest", "LogRequest",
    "AnalysisRequest", "RollMapRequest", "PositionRequest", "Request", "PictureMessage",
    "LogMessage", "LogPageMessage", "LogLangMessage", "Message",
]


class Traits(TypedDict):
    """Every synced trait the view reads: the widget's ``sync=True`` traits (game_widget.py
    and its mixins). ``VIEW_WRITES`` names those the view may set (checked in Python)."""

    board_data: BoardData | Empty
    state: Annotated[State, Doc("sent as JSON text; parsed once per change by the view")]
    lobby: LobbyData
    lang: Lang
    error: ErrorInfo | Empty
    heat: Heat
    stats: Stats | Empty
    fan: Annotated[Fan | Empty, Doc("Roll once's fan of where the next roll ends "
                                    "(widget/presentation.py)")]
    win_chances: WinChances
    rollouts_available: Annotated[bool, Doc("the win bar and trade advice can run here (now "
                                            "everywhere: the browser site in slices)")]
    trade_advice: TradeAdvice
    analysis: Annotated[Analysis, Doc("luck or skill: the game analysed (widget/analysis_live.py)")]
    roll_map: Annotated[RollMapTrait, Doc("the 36-roll map of the player about to roll")]
    seats: list[SeatKind]
    bot_delay: Annotated[float, Doc("seconds between bot actions, 0 to 10")]
    paused: bool
    presentation: bool
    turn_pause: Annotated[float, Doc("seconds a turn that ended by itself lingers; 0 off")]


VIEW_WRITES = ("lang", "bot_delay", "paused", "presentation")

# ---------------------------------------------------------------------------------- requests


class ActRequest(TypedDict):
    type: Literal["act"]
    action: Action
    seq: int


class UndoRequest(TypedDict):
    type: Literal["undo"]
    seq: int


class TickRequest(TypedDict):
    """The view's clock reached 0 (Python checks the time itself)."""

    type: Literal["tick"]
    seq: NotRequired[int]


class SetupPlayer(TypedDict):
    name: str
    token: str
    colour: str
    seat: NotRequired[SeatKind]


class SetupOptions(TypedDict, total=False):
    """The lobby's rules options (requests.setup_options); each LobbyFlag is a bool too."""

    mode: GameMode
    time_limit_minutes: float | None
    turn_timer_seconds: float | None
    starting_money: int
    free_parking_pot: bool
    auction_on_decline: bool
    income_tax_choice: bool
    doubles_roll_again: bool
    jail_card_auto: bool
    release_after_three_tries: bool
    card_move_to_jail_tile_jails: bool
    end_when_money_reaches_zero: bool
    rank_by_net_worth: bool


class SetupRequest(TypedDict):
    type: Literal["setup"]
    profile: str
    board: NotRequired[Annotated[str | None, Doc("a LobbyBoard id")]]
    options: NotRequired[SetupOptions | None]
    players: list[SetupPlayer]
    seed: NotRequired[int | None]
    seq: int


class LangRequest(TypedDict):
    type: Literal["lang"]
    lang: Lang
    seq: NotRequired[int]


class BotsRequest(TypedDict):
    type: Literal["bots"]
    paused: NotRequired[bool]
    delay: NotRequired[float]
    seq: NotRequired[int]


class ProbabilityRequest(TypedDict):
    """The Odds tab: what is given changes, the rest stays."""

    type: Literal["probability"]
    mode: NotRequired[HeatMode | Literal["off"] | None]
    stats: NotRequired[bool]
    jail: NotRequired[JailStrategy]
    per: NotRequired[Per]
    seq: NotRequired[int]


class RollOnceRequest(TypedDict):
    type: Literal["roll_once"]
    seq: int


class PictureRequest(TypedDict):
    """Answered with a PictureMessage."""

    type: Literal["picture"]
    seq: NotRequired[int]


class WinChancesRequest(TypedDict):
    type: Literal["win_chances"]
    on: bool
    budget: NotRequired[int]
    seq: NotRequired[int]


class TradeAdviceRequest(TypedDict):
    type: Literal["trade_advice"]
    offer: TradeOffer
    seq: int


class LogRequest(TypedDict):
    """The whole kept tail (a LogMessage), or with ``before`` the page before that line
    (a LogPageMessage)."""

    type: Literal["log"]
    before: NotRequired[int]
    seq: NotRequired[int]


class AnalysisRequest(TypedDict):
    """The Analysis tab's switch (off by default, as the win bar)."""

    type: Literal["analysis"]
    on: bool
    seq: NotRequired[int]


class RollMapRequest(TypedDict):
    """The 36-roll map of the player about to roll now (refused for a state left behind)."""

    type: Literal["roll_map"]
    seq: int


class PositionRequest(TypedDict):
    """The position before action ``index`` of the record: a PositionMessage."""

    type: Literal["position"]
    index: int
    seq: int


Request = (ActRequest | UndoRequest | TickRequest | SetupRequest | LangRequest | BotsRequest
           | ProbabilityRequest | RollOnceRequest | PictureRequest | WinChancesRequest
           | TradeAdviceRequest | LogRequest | AnalysisRequest | RollMapRequest | PositionRequest)

# ---------------------------------------------------------------------------------- messages


class PictureMessage(TypedDict):
    type: Literal["picture"]
    svg: Annotated[str, Doc("the board with its heat layer (w.board_picture())")]


class LogMessage(TypedDict):
    type: Literal["log"]
    epoch: int
    base: None
    total: int
    start: int
    lines: list[str]


class LogPageMessage(TypedDict):
    type: Literal["log_page"]
    epoch: int
    start: int
    lines: list[str]


class LogLangMessage(TypedDict):
    """Another language: the log's lines in it (the state itself is not sent again)."""

    type: Literal["log_lang"]
    lang: Lang
    epoch: int
    base: None
    total: int
    start: int
    lines: list[str]


Message = PictureMessage | LogMessage | LogPageMessage | LogLangMessage | PositionMessage
