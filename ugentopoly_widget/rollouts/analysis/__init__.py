"""Luck or skill: a game's decisions ranked and its rolls and cards measured by rollouts, as
backgammon software analyses a match (``docs/analysis.md``). Analysis layer: imports the engine
and the rollouts, never the widget.

The result types (plain data, no numpy) are in :mod:`.results`.
"""

from .core import Analyser, analyse
from .errors import AnalysisError

from .results import (
    VERDICTS,
    ChanceRow,
    DecisionRow,
    GameAnalysis,
    OptionValue,
    PlayerSummary,
    RollMap,
    RollOutcome,
    Thresholds,
    Verdict,
)

__all__ = ["analyse", "Analyser", "AnalysisError", "VERDICTS", "ChanceRow", "DecisionRow", "GameAnalysis", "OptionValue",
           "PlayerSummary", "RollMap", "RollOutcome", "Thresholds", "Verdict"]
