"""The panels' traits: error, heat, stats, Roll once's fan, win chances, trade advice."""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict

from .base import Doc, Empty, HeatMode, JailStrategy, NotRequired, Per, Texts
from .game import ProposeTradeAction

__all__ = [
    "ErrorInfo", "HeatNote", "HeatNotes", "CustomHeat", "ProbabilityHeat", "Heat", "DiceStats",
    "Convergence", "JailGroup", "JailComparison", "Stats", "Fan", "WinRow", "Unfinished", "Swing",
    "WinWaiting", "WinEstimate", "WinOver", "WinChances", "OfferSide", "TradeOffer", "AdviceSide",
    "AdviceWorking", "AdviceRated", "AdviceError", "TradeAdvice",
]


# ---------------------------------------------------------------------------------- other traits


class ErrorInfo(TypedDict):
    """A refusal or an error (widget/errors.py plain_error). A request's ``seq`` below the
    game's is stale (quiet), above it unknown or future."""

    message: Annotated[str, Doc("for programmers (also in w.errors)")]
    seq: int
    n: Annotated[int, Doc("numbers the errors: a new n is news")]
    text: Annotated[Texts, Doc("the refusal in plain words")]
    quiet: Annotated[bool, Doc("a stale request: the view drops it")]


class HeatNote(TypedDict):
    pos: int
    value: float
    text: Texts


class HeatNotes(TypedDict, total=False):
    hot: HeatNote
    cold: HeatNote


class CustomHeat(TypedDict):
    """``w.show_heat(values, label)``: one value per tile."""

    values: list[float]
    label: str
    min: float
    max: float
    fills: Annotated[list[str], Doc("the colour of each tile, chosen in Python")]
    inks: Annotated[list[str], Doc("the ink that reads on each fill")]
    palette: list[str]


class ProbabilityHeat(TypedDict):
    """A probability mode's heat layer (widget/odds.py heat_payload): a share of rolls (or
    turns) per tile, In Jail apart; the fills are opaque colours chosen in Python, the view
    only paints them; notes say why the hottest and coldest tiles are."""

    mode: HeatMode
    values: list[float]
    jail: Annotated[float, Doc("In Jail's share")]
    jail_position: int
    min: float
    max: float
    fills: Annotated[list[str | None], Doc("None: no roll ends there")]
    inks: list[str | None]
    jail_fill: str | None
    palette: list[str]
    unit: Literal["pp", "%"]
    diverging: bool
    per: Per
    rolls: int
    player: Annotated[int | None, Doc("mode next: whose roll")]
    strategy: JailStrategy
    notes: HeatNotes


Heat = CustomHeat | ProbabilityHeat | Empty


class DiceStats(TypedDict):
    totals: list[int]
    counts: list[int]
    exact: list[float]
    ways: list[int]
    faces: int
    rolls: int


class Convergence(TypedDict):
    rolls: list[int]
    tv: list[float]
    expected: list[float]


class JailGroup(TypedDict):
    key: str
    colour: str | None
    positions: list[int]
    label: Texts


class JailComparison(TypedDict):
    groups: list[JailGroup]
    per: Per
    short: list[float]
    long: list[float]
    same: bool


class Stats(TypedDict):
    """The Odds tab's charts (widget/odds.py stats_payload)."""

    dice: DiceStats
    convergence: Convergence
    jail_strategies: JailComparison
    strategy: JailStrategy


Fan = TypedDict("Fan", {
    "player": int,
    "from": int,
    "from_jail": bool,
    "arrows": Annotated[list[tuple[int, float]], Doc("[position, probability]")],
    "jail": float,
    "seq": int,
    "landed": int | None,
    "landed_jail": bool,
    "strategy": JailStrategy,
})


class WinRow(TypedDict):
    player: int
    name: str
    p_win: float
    se: float
    ci_low: float
    ci_high: float


class Unfinished(TypedDict):
    p_win: float
    se: float
    ci_low: float
    ci_high: float
    label: Texts


class Swing(TypedDict):
    seq: int
    player: int
    points: float
    se_points: float
    rollouts: int
    text: Texts


class WinWaiting(TypedDict):
    on: Literal[True]
    status: Literal["waiting"]
    budget: int
    browser: Annotated[bool, Doc("in the browser site: slices of the event loop, a smaller "
                                 "budget (the view says so)")]


class WinEstimate(TypedDict):
    """The live win chances of the position of state ``seq`` (widget/win_chances.py)."""

    on: Literal[True]
    seq: int
    status: Literal["running", "done"]
    generation: int
    turn: int
    rollouts: int
    budget: int
    browser: bool
    players: list[WinRow]
    unfinished: Unfinished
    mean_turns: float | None
    swings: list[Swing]


class WinOver(TypedDict):
    on: Literal[True]
    status: Literal["over"]
    seq: int
    swings: list[Swing]


WinChances = WinWaiting | WinEstimate | WinOver | Empty


class OfferSide(TypedDict, total=False):
    properties: list[int]
    cash: int
    cards: list[str]


class TradeOffer(TypedDict):
    """An offer to rate: a propose_trade action without its type."""

    player: int
    partner: int
    give: OfferSide
    get: OfferSide


class AdviceSide(TypedDict):
    role: Literal["proposer", "partner"]
    player: int
    name: str
    p_without: float
    p_with: float
    delta: float
    delta_se: float
    delta_low: float
    delta_high: float
    cash_paid: int
    interest_due: int
    rent_before: float | None
    rent_after: float | None
    rent_change: float | None
    payback_rolls: float | None
    built_rent_change: float | None
    built_payback_rolls: float | None


class AdviceWorking(TypedDict):
    seq: int
    id: int
    offer: ProposeTradeAction
    status: Literal["working"]


class AdviceRated(TypedDict):
    """The trade dialog's advice (widget/trade_advice.py)."""

    seq: int
    id: int
    offer: ProposeTradeAction
    status: Literal["quick", "done"]
    sides: list[AdviceSide]
    fair_cash: int | None
    fair_note: Literal["even", "gains_at_most", "loses_at_least", "not_asked"]
    rollouts: int
    text: Texts


class AdviceError(TypedDict):
    seq: int
    id: int
    offer: NotRequired[ProposeTradeAction]
    status: Literal["error"]
    text: Texts


TradeAdvice = AdviceWorking | AdviceRated | AdviceError | Empty
