"""Demonstrations: a bot's play as (observation, mask, action index) rows, to imitate.

A learner that starts by imitating the house bot (behaviour cloning) starts at its level
instead of the uniform policy's, and reinforcement learning improves from there (the hybrid of
imitation and deep reinforcement learning of Haliem, Bonjour et al., arXiv 2103.00683).

The bot plays through the encoding: its engine action is taken as the nearest index that is
masked in (a bid as the highest bid level not above it, a one-property trade as the nearest
cash band); what the encoding cannot say (a swap, several properties) becomes ending the turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..engine import actions as A
from ..engine.bots import make_bot
from ..engine.errors import SetupError
from .actions import TRADE_BANDS, ActionCodec
from .single import Opponent, SingleAgentEnv

if TYPE_CHECKING:
    from ..engine.game import Game

_FALLBACK = ("end_turn", "roll", "reject", "pass", "decline", "keep")


def nearest_index(codec: ActionCodec, game: Game, action: A.Action, mask: np.ndarray) -> int:
    """The masked-in index closest to the engine action `action` of the player deciding."""
    index = codec.index_of(action)
    if index is not None and mask[index]:
        return index
    if type(action) is A.Bid and codec.bid0 >= 0:
        amounts = codec.bid_amounts(game)
        levels = [k for k in range(len(amounts)) if mask[codec.bid0 + k]]
        below = [k for k in levels if amounts[k] <= action.amount]
        if below or levels:
            best = (max(below, key=lambda k: amounts[k]) if below
                    else min(levels, key=lambda k: amounts[k]))
            return codec.bid0 + best
    if type(action) is A.ProposeTrade and codec.trade_buy0 >= 0:
        index = _trade_index(codec, action, mask)
        if index is not None:
            return index
    for name in _FALLBACK:
        k = codec.names.index(name)
        if mask[k]:
            return k
    return int(np.flatnonzero(mask)[0])


def _trade_index(codec: ActionCodec, offer: A.ProposeTrade, mask: np.ndarray) -> int | None:
    """A one-property-for-cash offer as its trade entry (the nearest band), or None."""
    give, get = offer.give, offer.get
    bands = len(TRADE_BANDS)
    if len(get.properties) == 1 and not give.properties and not give.cards and not get.cards:
        q, cash, start = get.properties[0], give.cash, codec.trade_buy0
    elif len(give.properties) == 1 and not get.properties and not give.cards and not get.cards:
        q, cash = give.properties[0], get.cash
        k = (offer.partner - offer.player) % codec.players
        start = codec.trade_sell0 + (k - 1) * len(codec.properties) * bands
    else:
        return None
    if q not in codec.properties:
        return None
    slot = codec.properties.index(q)
    ratio = 100 * cash / max(1, codec.costs[q])
    for band in sorted(range(bands), key=lambda b: abs(TRADE_BANDS[b] - ratio)):
        index = start + slot * bands + band
        if mask[index]:
            return index
    return None


@dataclass
class Demonstrations:
    """Rows of a teacher's decisions: observations, masks (bool), actions (indices) and the
    discounted return from each decision on (for a value function)."""

    observations: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    returns: np.ndarray
    games: int
    wins: int

    def __len__(self) -> int:
        return len(self.actions)


def demonstrations(
    profile: str = "classic",
    teacher: str = "heuristic",
    opponents: str | Sequence[Opponent] = "heuristic",
    *,
    games: int = 100,
    seed: int = 0,
    gamma: float = 0.999,
    **env_kwargs: Any,
) -> Demonstrations:
    """Let the bot `teacher` play the learner's seat of ``SingleAgentEnv(profile,
    opponents=...)`` for `games` games (seats rotating) and record its decisions."""
    if not isinstance(games, int) or isinstance(games, bool) or games < 1:
        raise SetupError("games is a positive integer")
    observations: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    actions: list[int] = []
    returns: list[float] = []
    wins = 0
    players = SingleAgentEnv(profile, 0, opponents, **env_kwargs).match.n
    envs = [SingleAgentEnv(profile, s, opponents, **env_kwargs) for s in range(players)]
    for k in range(games):
        env = envs[k % players]
        bot = make_bot(teacher, seed + k)
        obs, _ = env.reset(seed=seed + k)
        rewards: list[float] = []
        done = False
        while not done:
            mask = env.action_masks()
            index = nearest_index(env.match.codec, env.game, bot.choose(env.game), mask)
            observations.append(obs)
            masks.append(mask)
            actions.append(index)
            obs, reward, terminated, truncated, info = env.step(index)
            rewards.append(reward)
            done = terminated or truncated
        wins += info["result"] == "win"
        running, back = 0.0, []
        for reward in reversed(rewards):
            running = reward + gamma * running
            back.append(running)
        returns.extend(reversed(back))
    return Demonstrations(np.stack(observations), np.stack(masks), np.array(actions),
                          np.array(returns, dtype=np.float32), games, wins)


__all__ = ["Demonstrations", "demonstrations", "nearest_index"]
