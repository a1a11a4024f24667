"""The Analysis tab's traits (luck or skill: widget/analysis_view.py builds them from
rollouts/analysis/results.py): the live verdict under the win bar, the after-game chart, the
biggest mistakes, the 36-roll map, and the position of a past decision (read-only replay).

Units as in the analysis: a probability ``p_*`` in [0, 1]; a change (``loss``, ``luck``,
``gain`` and their ``*_se``) in points (percentage points of a chance to win).
"""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict

from .base import Doc, Empty, NotRequired, Texts
from .game import GameState

__all__ = [
    "VerdictName", "LiveVerdict", "LiveLuck", "AnalysisPlayer", "AnalysisPoint", "Mistake",
    "AnalysisThresholds", "AnalysisWaiting", "AnalysisReport", "AnalysisError", "Analysis",
    "RollCell", "RollMapPanel", "RollMapError", "RollMapTrait", "PositionMessage",
]

VerdictName = Literal["fine", "inaccuracy", "mistake", "blunder"]


class LiveVerdict(TypedDict):
    """The last decision judged: "Bob: mistake, −6 ± 2 points: selling New York Avenue; best:
    keep it"."""

    index: Annotated[int, Doc("the action's index in the game's record")]
    turn: int
    player: int
    verdict: VerdictName
    loss: float
    loss_se: float
    text: Texts


class LiveLuck(TypedDict):
    """The last roll (or card) measured: "lucky roll: +7 points"."""

    index: int
    turn: int
    player: int
    kind: Literal["roll", "card"]
    luck: float
    luck_se: float
    text: Texts


class AnalysisPlayer(TypedDict):
    """A player's summary (results.PlayerSummary)."""

    player: int
    name: str
    result: float
    luck: float
    luck_se: float
    skill_loss: float
    skill_loss_se: float
    inaccuracies: int
    mistakes: int
    blunders: int
    adjusted: float
    adjusted_low: float
    adjusted_high: float


class AnalysisPoint(TypedDict):
    """One step of the chart: a player's luck and skill loss summed up to a turn."""

    turn: int
    index: int
    luck: Annotated[list[float], Doc("per player, points, summed so far")]
    skill: Annotated[list[float], Doc("per player, points lost, summed so far")]


class Mistake(TypedDict):
    """One of the biggest mistakes, worst first; its index opens the position before it."""

    index: int
    turn: int
    player: int
    verdict: VerdictName
    loss: float
    loss_se: float
    chosen: str
    best: str
    text: Texts


class AnalysisThresholds(TypedDict):
    inaccuracy: float
    mistake: float
    blunder: float


class AnalysisWaiting(TypedDict):
    on: Literal[True]
    status: Literal["waiting"]
    seq: int
    browser: NotRequired[Annotated[bool, Doc(
        "played in the browser site's slices, with its smaller budget (the view says so)")]]
    rollouts: NotRequired[Annotated[int, Doc("per option of a decision")]]
    chance_rollouts: NotRequired[Annotated[int, Doc("per outcome of a roll or card")]]


class AnalysisReport(TypedDict):
    """The analysis of the game up to action ``upto`` (``seq``: the state it was made for)."""

    on: Literal[True]
    status: Literal["running", "done"]
    seq: int
    upto: Annotated[int, Doc("actions analysed: the record's first upto")]
    actions: Annotated[int, Doc("actions the game has (upto < actions: more to come)")]
    complete: bool
    rollouts: Annotated[int, Doc("per option of a decision")]
    chance_rollouts: Annotated[int, Doc("per outcome of a roll or card")]
    browser: Annotated[bool, Doc("made in the browser site's slices, with its smaller budget")]
    thresholds: AnalysisThresholds
    players: list[AnalysisPlayer]
    series: list[AnalysisPoint]
    mistakes: list[Mistake]
    decisions: Annotated[int, Doc("decisions judged")]
    chances: Annotated[int, Doc("rolls and cards measured")]
    verdict: LiveVerdict | None
    luck: LiveLuck | None
    explain: Texts


class AnalysisError(TypedDict):
    on: Literal[True]
    status: Literal["error"]
    seq: int
    text: Texts


Analysis = AnalysisWaiting | AnalysisReport | AnalysisError | Empty


class RollCell(TypedDict):
    """One outcome of the roll about to be made (results.RollOutcome)."""

    dice: list[int]
    double: bool
    tile: int
    end: int
    name: Texts
    end_name: Texts
    p_win: float
    se: float
    gain: float
    fill: Annotated[str, Doc("its colour, by gain (chosen in Python)")]
    ink: str


class RollMapPanel(TypedDict):
    """The 36-roll map of the player about to roll (``seq``: the state it is for)."""

    seq: int
    status: Literal["done"]
    player: int
    name: str
    p_mean: float
    rollouts: Annotated[int, Doc("per outcome")]
    browser: Annotated[bool, Doc("made in the browser site, with its smaller budget")]
    sides: int
    scale: Annotated[float, Doc("points at the ends of the colour scale (±)")]
    palette: list[str]
    cells: list[RollCell]


class RollMapError(TypedDict):
    seq: int
    status: Literal["working", "error"]
    text: Texts


RollMapTrait = RollMapPanel | RollMapError | Empty


class PositionMessage(TypedDict):
    """The position before a past decision, for a read-only look (its ``legal`` is empty)."""

    type: Literal["position"]
    index: int
    turn: int
    state: GameState
    text: Texts
    seq: NotRequired[int]
