"""Luck or skill: a game's decisions ranked and its rolls and cards measured by rollouts, as
backgammon software analyses a match (``docs/analysis.md``). Analysis layer: imports the engine
and the rollouts, never the widget.

The result types (plain data, no numpy) are in :mod:`.results`.
"""

from .core import Analyser, analyse
from .errors import AnalysisError
from .explain import chances_table, decisions_table, explain, summary_table
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
from .rollmap import roll_map

__all__ = ["analyse", "Analyser", "AnalysisError", "explain", "roll_map", "decisions_table",
           "chances_table", "summary_table", "VERDICTS", "ChanceRow", "DecisionRow",
           "GameAnalysis", "OptionValue", "PlayerSummary", "RollMap", "RollOutcome",
           "Thresholds", "Verdict"]
