"""The cheap judge at the end of a truncated rollout: each player's chance to win, read from
the position by a logistic model of the strong bot's worth (holdings, rents to come, groups
within reach) and the engine's valuation, calibrated on strong-bot games.

A rollout played ``horizon`` turns on and then valued so has far less noise than one played to
the end (a number in [0, 1] instead of a win or a loss) and costs a fraction of it; the price
is the model's bias, measured in ``docs/analysis.md`` against rollouts played to the end.

Calibration (``benchmarks/bench_analysis.py --cases calibrate``): 400 classic 2-player games
between strong bots, every turn's position labelled with the game's winner (39,286 positions),
the log-likelihood maximised over a grid: ``z_k = 0.15 X_k / 1000 + 0.8 V_k / 1000`` (``X``
the strong bot's worth, ``V`` the valuation), ``p_k = exp(z_k) / sum_j exp(z_j)`` over the
players still in; mean log-loss 0.519 against 0.693 for a coin. The model is the strong
bot's own (engine/strong/winmodel.py): it checks its trade offers with it.
"""

from __future__ import annotations

from ...engine.game import Game
from ...engine.strong.bot import StrongBot
from ...engine.strong.trading import position_of
from ...engine.strong.winmodel import VALUE_WEIGHT, WORTH_WEIGHT, win_shares


class Evaluator:
    """``evaluator(game)``: every player's share of the win, exact for a finished game,
    modelled otherwise (one per worker: it keeps the board's facts)."""

    def __init__(self) -> None:
        self._bot = StrongBot()

    def __call__(self, game: Game) -> list[float]:
        n = len(game.players)
        if game.is_over:
            shares = [0.0] * n
            winners = game.winners
            for w in winners:
                shares[w] = 1.0 / len(winners)
            return shares
        e = game._engine
        worth = self._bot.worth(e)
        now = position_of(e)
        xs = worth.values(e, now.owner, now.cash, now.cards)
        return win_shares(e, xs, game.valuations())


__all__ = ["Evaluator", "WORTH_WEIGHT", "VALUE_WEIGHT"]
