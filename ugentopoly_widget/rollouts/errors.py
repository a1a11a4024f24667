"""The named errors of the rollouts: bad input raises one of these before any game is played."""

from __future__ import annotations

from ..engine.errors import SetupError


class RolloutError(SetupError):
    """A rollout cannot run as asked: rollouts <= 0, an unknown bot, a finished game, an
    action or offer that is not legal in the position."""


class OfferError(RolloutError):
    """A trade offer that cannot be judged: not legal now (whose decision, what they hold)."""


__all__ = ["RolloutError", "OfferError"]
