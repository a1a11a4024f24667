"""The named errors of a game analysis: bad input is refused before any rollout."""

from __future__ import annotations

from ..errors import RolloutError


class AnalysisError(RolloutError):
    """A game analysis cannot run as asked: a game with no record (or nothing played),
    thresholds out of order or not positive, rollouts <= 0, a budget beyond the limit."""


__all__ = ["AnalysisError"]
