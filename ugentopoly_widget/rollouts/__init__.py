"""Rollouts: win chances from any position, what each choice of a decision is worth, trade
advice and a bot that plays by them. Analysis layer: imports the engine and the simulation's
executors, never the widget. See ``docs/rollouts.md``.

    from ugentopoly_widget.rollouts import win_chances, action_values, rate_trade
"""

from .bot import RolloutBot
from .chances import win_chances
from .errors import OfferError, RolloutError
from .live import Estimate, LiveEstimator
from .trades import TradeRating, rate_trade
from .values import action_values

__all__ = [
    "win_chances", "action_values", "rate_trade", "TradeRating", "RolloutBot", "LiveEstimator",
    "Estimate", "RolloutError", "OfferError",
]
