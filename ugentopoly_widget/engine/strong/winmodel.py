"""Each player's chance to win, read from a position by a logistic model of the strong bot's
worth X (strong.worth) and the engine's valuation V (cash, lots, buildings), calibrated on
strong-bot games: ``z_k = 0.15 X_k / 1000 + 0.8 V_k / 1000``, ``p_k = exp(z_k) / sum_j
exp(z_j)`` over the players still in (400 classic 2-player games, 39,286 positions labelled
with the winner: mean log-loss 0.519, a coin 0.693; ``benchmarks/bench_analysis.py --cases
calibrate``).

The bot checks its own trade offers with it (strong.trading.propose): X alone, one valuation
for both sides, lets the proposer climb to offers that lose it the game. The analysis values
the end of a truncated rollout with a model that adds the rent each player can expect to pay
(rollouts/analysis/evaluate.py, fitted again on today's bot); this one, the bot's, values
imagined deals, whose rents it does not work out, and stays as its duels measured it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from .. import actions as A

if TYPE_CHECKING:
    from ..core import Engine
    from .worth import Worth

WORTH_WEIGHT: Final = 0.15  # per 1000 of the strong bot's worth X
VALUE_WEIGHT: Final = 0.8  # per 1000 of the valuation V


def win_shares(e: Engine, worths: Sequence[float], valuations: Sequence[float]) -> list[float]:
    """Every player's modelled chance to win (0 for a player out)."""
    z: dict[int, float] = {}
    for p in e.players:
        if not p.bankrupt:
            k = p.index
            z[k] = (WORTH_WEIGHT * worths[k] + VALUE_WEIGHT * valuations[k]) / 1000.0
    return softmax_shares(len(e.players), z)


def softmax_shares(players: int, z: dict[int, float]) -> list[float]:
    """Each player's share exp(z_k) / sum_j exp(z_j) over the players in `z` (0 for the rest)."""
    top = max(z.values())
    weights = {k: math.exp(v - top) for k, v in z.items()}
    total = sum(weights.values())
    return [weights[k] / total if k in weights else 0.0 for k in range(players)]


def offer_change(w: Worth, e: Engine, offer: A.ProposeTrade, judge: int) -> float:
    """How much the trade offer, accepted, changes `judge`'s modelled chance to win."""
    from .trading import position_of  # (trading imports this module)

    proposer, partner = offer.player, offer.partner
    now = position_of(e)
    after = now.deal(proposer, partner, offer.give, offer.get)
    before_v = [float(e.valuation(p)) if not p.bankrupt else 0.0 for p in e.players]
    after_v = list(before_v)
    moved = float(offer.give.cash - offer.get.cash)
    for pos in offer.give.properties:
        moved += _lot_valuation(e, pos)
    for pos in offer.get.properties:
        moved -= _lot_valuation(e, pos)
    after_v[proposer] -= moved
    after_v[partner] += moved
    before = win_shares(e, w.values(e, now.owner, now.cash, now.cards), before_v)
    after_shares = win_shares(e, w.values(e, after.owner, after.cash, after.cards), after_v)
    return after_shares[judge] - before[judge]


def _lot_valuation(e: Engine, pos: int) -> float:
    """What a lot (and its buildings) counts for in the valuation (Engine.valuation)."""
    price = e.costs[pos]
    return float((price // 2 if e.mortgaged[pos] else price) + e.building_value(pos))
