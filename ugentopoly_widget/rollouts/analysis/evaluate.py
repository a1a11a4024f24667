"""The cheap judge at the end of a truncated rollout: each player's chance to win, read from
the position by a logistic model of the strong bot's worth (holdings, rents to come, groups
within reach), the engine's valuation and the rent the player can expect to pay per roll,
calibrated on strong-bot games.

A rollout played ``horizon`` turns on and then valued so has far less noise than one played to
the end (a number in [0, 1] instead of a win or a loss) and costs a fraction of it; the price
is the model's bias, measured in ``docs/analysis.md`` against rollouts played to the end.

Calibration (``benchmarks/bench_analysis.py --cases calibrate``): 600 classic 2-player games
between strong bots, every turn's position labelled with the game's winner (65,513
positions), the log-likelihood maximised: ``z_k = 0.13 X_k / 1000 + 0.34 V_k / 1000 - 2.1
R_k / 100`` (``X`` the strong bot's worth, ``V`` the valuation, ``R`` the rent per roll the
player can expect to pay, ``strong.worth.rent_exposure``), ``p_k = exp(z_k) / sum_j
exp(z_j)`` over the players still in; mean log-loss 0.514 (0.527 for the best model of X
and V alone, 0.693 for a coin); fitted on the first 480 games, 0.551 on the other 120 (0.556
for X and V).

The rent term is what values houses at the horizon: built, they count at half their price in
V, while their rents have only begun; without it the judge charged building and mortgaging to
build two to three points a decision that rollouts played to the end did not confirm
(docs/analysis.md, Limits). The bot checks its own trade offers with the simpler model of X
and V (engine/strong/winmodel.py: it values imagined deals, whose rents it does not work
out).
"""

from __future__ import annotations

from typing import Final

from ...engine.game import Game
from ...engine.strong.bot import StrongBot
from ...engine.strong.trading import position_of
from ...engine.strong.winmodel import softmax_shares
from ...engine.strong.worth import rent_exposure

WORTH_WEIGHT: Final = 0.13  # per 1000 of the strong bot's worth X
VALUE_WEIGHT: Final = 0.34  # per 1000 of the valuation V
RENT_WEIGHT: Final = -2.1  # per 100 of the rent per roll the player can expect to pay


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
        vs = game.valuations()
        return softmax_shares(n, {p.index: model_z(xs[p.index], vs[p.index],
                                                   rent_exposure(e, worth.f, p.index)[0])
                                  for p in e.players if not p.bankrupt})


def model_z(worth: float, valuation: float, rent: float) -> float:
    """A player's score in the model (see the module's docstring)."""
    return WORTH_WEIGHT * worth / 1000 + VALUE_WEIGHT * valuation / 1000 + RENT_WEIGHT * rent / 100


__all__ = ["Evaluator", "model_z", "WORTH_WEIGHT", "VALUE_WEIGHT", "RENT_WEIGHT"]
