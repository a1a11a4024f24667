"""What a game analysis finds: plain, typed records (no numpy, no pandas: the browser site has
neither), shared by :func:`analyse`, :func:`roll_map` and the widget's Analysis tab.

Units: a probability (``p_*``) is in [0, 1]; a change of one (``loss``, ``luck``, ``gain``, and
their ``*_se``) is in **points**, i.e. percentage points of a player's chance to win
(0.07 → 7 points), as backgammon software reports equity in hundredths.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Verdict = Literal["fine", "inaccuracy", "mistake", "blunder"]
VERDICTS: tuple[Verdict, ...] = ("fine", "inaccuracy", "mistake", "blunder")

# A decision's kind, by what it decides (the engine's decision kinds, named for people).
DecisionKind = Literal["buy", "auction", "build", "trade_offer", "trade_answer", "jail",
                       "raise_cash", "tax", "other"]
ChanceKind = Literal["roll", "card"]


@dataclass(frozen=True)
class Thresholds:
    """A decision's loss (points) from which it is an inaccuracy, a mistake, a blunder (each
    bound inclusive; strictly increasing, all > 0)."""

    inaccuracy: float = 2.0
    mistake: float = 5.0
    blunder: float = 10.0

    def verdict(self, loss: float) -> Verdict:
        if loss >= self.blunder:
            return "blunder"
        if loss >= self.mistake:
            return "mistake"
        if loss >= self.inaccuracy:
            return "inaccuracy"
        return "fine"


@dataclass(frozen=True)
class OptionValue:
    """One choice of a decision, judged: the decider's chance after it."""

    action: dict[str, Any]  # the engine action's ``to_dict()``
    description: str  # "buy New York Avenue" (the language of the analysis)
    p_win: float
    se: float  # of p_win
    loss: float  # points: the best option's p_win minus this one's (paired), >= 0 for the best's
    loss_se: float  # points, paired standard error of that difference
    # the description in each language ({"en": ..., "nl": ...}): a view switched to the other
    # language names the choice in it
    words: dict[str, str] = field(default_factory=dict, compare=False)

    def description_in(self, lang: str) -> str:
        """The choice named in `lang` (the analysis' own words where it has no other)."""
        return self.words.get(lang) or self.description


@dataclass(frozen=True)
class DecisionRow:
    """A decision point of the record with more than one sensible choice."""

    index: int  # the action's index in the game's record (``game.actions[index]``)
    turn: int  # the game's turn number when it was made
    player: int  # the decider
    kind: DecisionKind
    chosen: OptionValue  # the choice made (also in ``options``)
    best: OptionValue  # the best choice found (``options[0]``)
    options: tuple[OptionValue, ...]  # best first; open-ended choices: a few candidates + chosen
    verdict: Verdict  # of ``chosen.loss`` by the analysis' thresholds

    @property
    def loss(self) -> float:
        return self.chosen.loss

    @property
    def loss_se(self) -> float:
        return self.chosen.loss_se


@dataclass(frozen=True)
class ChanceRow:
    """A roll of the dice or a card drawn, and what it did to the player's chance."""

    index: int  # the index in the record of the action whose resolution drew it
    turn: int
    player: int  # who rolled / drew
    kind: ChanceKind
    outcome: str  # "5+3 (double)" / the card's text
    p_before: float  # the exact mean over the outcomes (36 rolls; the deck's remaining cards)
    p_after: float  # after the outcome that happened
    luck: float  # points: 100 * (p_after - p_before); averages to 0 exactly over the outcomes
    luck_se: float  # points
    outcome_words: dict[str, str] = field(default_factory=dict, compare=False)  # per language

    def outcome_in(self, lang: str) -> str:
        """The outcome in `lang` (the analysis' own words where it has no other)."""
        return self.outcome_words.get(lang) or self.outcome


@dataclass(frozen=True)
class PlayerSummary:
    """One player's game: the luck of their rolls and cards, what their decisions cost."""

    player: int
    name: str
    result: float  # their share of the win at the end (1, 0, 1/k for a shared win); or the
    # current estimate of their chance for a game in progress
    luck: float  # points, sum of their ChanceRow.luck
    luck_se: float
    skill_loss: float  # points, sum of their DecisionRow.loss (>= 0)
    skill_loss_se: float
    inaccuracies: int
    mistakes: int
    blunders: int
    adjusted: float  # points: 100 * result - luck (their result with the luck taken out)
    adjusted_low: float  # its interval at the analysis' confidence
    adjusted_high: float


@dataclass(frozen=True)
class RollOutcome:
    """One of the 36 (dice_sides²) outcomes of the roll about to be made."""

    dice: tuple[int, ...]
    double: bool
    tile: int  # where the roll takes the player first (after a card or go-to-jail: ``end``)
    tile_name: str
    end: int  # where the player stands when the roll's effects are done
    p_win: float
    se: float
    gain: float  # points: 100 * (p_win - the mean over the outcomes)


@dataclass(frozen=True)
class RollMap:
    player: int
    p_mean: float  # the exact average over the outcomes: the chance before the roll
    outcomes: tuple[RollOutcome, ...]  # in dice order (1,1), (1,2), ... (6,6)
    rollouts: int  # per outcome


@dataclass
class GameAnalysis:
    """Everything ``analyse()`` found, up to ``upto`` (an index into the record's actions)."""

    players: tuple[PlayerSummary, ...]
    decisions: list[DecisionRow] = field(default_factory=list)
    chances: list[ChanceRow] = field(default_factory=list)
    thresholds: Thresholds = field(default_factory=Thresholds)
    upto: int = 0  # actions analysed: game.actions[:upto]
    complete: bool = False  # False when cancelled or the game goes on
    settings: dict[str, Any] = field(default_factory=dict)  # rollouts, seed, bots, lang ...


__all__ = ["Verdict", "VERDICTS", "DecisionKind", "ChanceKind", "Thresholds", "OptionValue",
           "DecisionRow", "ChanceRow", "PlayerSummary", "RollOutcome", "RollMap", "GameAnalysis"]
