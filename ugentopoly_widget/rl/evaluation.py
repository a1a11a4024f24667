"""Win rates of a policy against bots, with 95 % intervals: ``evaluate(model, "classic")``.

Games run side by side so that a library model answers a whole batch of observations in one
``predict`` call (a network's forward pass costs about as much for 32 observations as for
one). Game ``k`` is reset with ``seed + k`` and the learner sits in seat ``k % players``: two
policies evaluated with the same seed meet the same dice and the same opponents' seeds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..engine.errors import SetupError
from ..simulation.stats import wilson
from .policy import as_policy
from .single import Opponent, SingleAgentEnv


@dataclass(frozen=True)
class Evaluation:
    """The outcome of :func:`evaluate`: counts, the win rate and its 95 % Wilson interval."""

    opponents: str
    games: int
    wins: int
    losses: int
    truncated: int
    low: float
    high: float
    mean_turns: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def __str__(self) -> str:
        return (f"against {self.opponents}: won {self.wins} of {self.games} "
                f"({self.win_rate:.1%}, 95 % interval {self.low:.1%}-{self.high:.1%}), "
                f"{self.truncated} truncated, {self.mean_turns:.0f} turns on average")


def evaluate(
    model: Any,
    profile: str = "classic",
    opponents: str | Sequence[Opponent] = "heuristic",
    *,
    players: int | None = None,
    games: int = 400,
    seed: int = 0,
    deterministic: bool = True,
    batch: int = 32,
    **env_kwargs: Any,
) -> Evaluation:
    """Play `games` games of `model` against `opponents` and count its wins.

    Args:
        model: a model with ``predict(observation, action_masks=..., deterministic=...)``
            (MaskablePPO), a policy ``f(observation, mask) -> index`` or ``"uniform"``.
        profile: the environment's profile, as in training.
        opponents: the opponents (``SingleAgentEnv``'s), as in training.
        players: the number of seats (None: as SingleAgentEnv, 2 with named opponents).
        games: how many games (the interval's width is about 1/sqrt(games)).
        seed: game ``k`` is reset with ``seed + k``.
        deterministic: the model's most likely action (True) or a sample.
        batch: games played side by side (one ``predict`` call per step for all of them).
        **env_kwargs: more of ``SingleAgentEnv``'s arguments (``max_turns``, ``options`` ...),
            as in training.
    """
    if not isinstance(games, int) or isinstance(games, bool) or games < 1:
        raise SetupError("games is a positive integer")
    if not isinstance(batch, int) or isinstance(batch, bool) or batch < 1:
        raise SetupError("batch is a positive integer")
    predict = getattr(model, "predict", None)
    policy = None if callable(predict) else as_policy(model, deterministic)
    env_kwargs.pop("seat", None)
    n = SingleAgentEnv(profile, 0, opponents, players=players, **env_kwargs).match.n
    # env k plays games k, k + width, ...: with width a multiple of n, game g's seat is g % n
    width = max(n, min(batch, games) // n * n)
    envs = [SingleAgentEnv(profile, k % n, opponents, players=players, **env_kwargs)
            for k in range(width)]
    wins = losses = truncated = turns = 0
    played = [0] * width
    live: list[tuple[int, np.ndarray]] = []

    def start(k: int) -> None:
        game = k + played[k] * width
        if game < games:
            played[k] += 1
            obs, _ = envs[k].reset(seed=seed + game)
            live.append((k, obs))

    for k in range(width):
        start(k)
    while live:
        current, live = live, []
        masks = np.stack([envs[k].action_masks() for k, _ in current])
        if policy is None:
            assert predict is not None
            actions, _ = predict(np.stack([obs for _, obs in current]), action_masks=masks,
                                 deterministic=deterministic)
            chosen = [int(a) for a in np.asarray(actions).reshape(-1)]
        else:
            chosen = [int(policy(obs, mask.astype(np.int8)))
                      for (_, obs), mask in zip(current, masks, strict=True)]
        for (k, _), action in zip(current, chosen, strict=True):
            env = envs[k]
            obs, reward, terminated, truncation, info = env.step(action)
            if terminated or truncation:
                turns += env.game.turn_number
                if truncation:
                    truncated += 1
                elif info.get("result") == "win":
                    wins += 1
                else:
                    losses += 1
                start(k)
            else:
                live.append((k, obs))
    low, high = wilson(wins, games)
    label = opponents if isinstance(opponents, str) else ", ".join(
        o if isinstance(o, str) else type(o).__name__ for o in opponents)
    return Evaluation(label, games, wins, losses, truncated, low, high, turns / games)


__all__ = ["evaluate", "Evaluation"]
