"""Self-play through PettingZoo: one seat of an AEC environment as a Gymnasium environment.

    from ugentopoly_widget import rl
    env = rl.SelfPlayEnv(rl.raw_env("classic", players=2))    # the others: uniform at first
    env.add_opponent(frozen_policy)                             # f(observation, mask) -> index

Each episode the learner takes the next seat in turn (``seat="rotate"``) and every other agent
plays a policy drawn from the opponent pool (a frozen copy of the learner, a bot's policy ...).
The learner's reward is PettingZoo's own ``last()`` reward of its agent, accumulated since its
previous action, so the end of a game reaches every seat: a game that ends on the loser's own
``bankrupt`` gives the loser -1 on that step and the winner +1 when control comes back to it
for its dead step, whichever seat the learner holds. (PettingZoo's SB3 tutorial wrapper
returns the reward of the agent that acted last and ends the episode there: its learner never
sees a win, which is why it learns nothing on this game.)

Works with any AEC environment whose observations are ``{"observation", "action_mask"}``
dicts with the same spaces for every agent (PettingZoo's classic games too).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np

from ..engine.errors import SetupError
from .errors import ResetNeededError
from .policy import Policy, UniformPolicy, as_policy

_MAX_STEPS = 10_000_000  # a stuck opponent loop is a bug: named, not an endless loop


class SelfPlayEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One agent of a PettingZoo AEC environment learns; policies play the others.

    Args:
        env: an AEC environment (``rl.raw_env(...)``, ``rl.env(...)`` or another one with
            dict observations holding ``"observation"`` and ``"action_mask"``).
        opponents: the pool each opponent is drawn from, per episode: policies
            ``f(observation, mask) -> index``, models with ``predict`` (frozen copies of the
            learner), or ``"uniform"`` (the default: the uniform masked policy).
        seat: ``"rotate"`` (the next seat each episode, from seat ``seed mod players`` after a
            seeded reset), ``"random"`` (drawn from the seeded generator) or a seat number.
        pool_size: the most recent opponents kept by :meth:`add_opponent` (older ones drop).
        latest: the probability that an opponent is the newest of the pool (else one of the
            pool drawn uniformly): play mostly the current self, sometimes older selves.
        illegal_action: ``"lose"`` (a masked-out action ends the episode with -1, the game
            untouched, as SingleAgentEnv) or ``"raise"`` (the environment's error).
        deterministic: whether model opponents play their most likely action (default: they
            sample their policy, as the learner does while it trains).
    """

    def __init__(self, env: Any, opponents: Sequence[Any] | None = None, *,
                 seat: str | int = "rotate", pool_size: int = 8, latest: float = 0.5,
                 illegal_action: str = "lose", deterministic: bool = False) -> None:
        self.env = env
        self.agents = list(env.possible_agents)
        n = len(self.agents)
        first = self.agents[0]
        obs_space = env.observation_space(first)
        if not isinstance(obs_space, gymnasium.spaces.Dict) \
                or "action_mask" not in obs_space.spaces:
            raise SetupError("SelfPlayEnv needs observations {'observation', 'action_mask'}")
        self.observation_space = obs_space["observation"]
        self.action_space = env.action_space(first)
        if seat not in ("rotate", "random") and not (
                isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < n):
            raise SetupError(f"seat is 'rotate', 'random' or a seat number from 0 to {n - 1}")
        if isinstance(pool_size, bool) or not isinstance(pool_size, int) or pool_size < 1:
            raise SetupError("pool_size is a positive integer")
        if isinstance(latest, bool) or not isinstance(latest, (int, float)) \
                or not 0 <= latest <= 1:
            raise SetupError("latest is a probability from 0 to 1")
        if illegal_action not in ("lose", "raise"):
            raise SetupError("illegal_action is 'lose' or 'raise'")
        self.illegal_action = illegal_action
        self.deterministic = bool(deterministic)
        self.seat_rule = seat
        self.pool_size = pool_size
        self.latest = float(latest)
        self.pool: list[Any] = []
        for opponent in opponents if opponents is not None else ["uniform"]:
            self.add_opponent(opponent)
        self.metadata = dict(getattr(env, "metadata", {}))
        self.render_mode = getattr(env, "render_mode", None)
        self.learner = first
        self._episodes = 0
        self._policies: dict[str, Policy] = {}
        self._over = True
        self._started = False
        self._mask: np.ndarray | None = None
        self._last_obs = np.zeros(self.observation_space.shape or (0,),
                                  dtype=self.observation_space.dtype)
        self._steps = 0
        self._return = 0.0

    # ------------------------------------------------------------------ opponents

    def add_opponent(self, opponent: Any) -> None:
        """Add a policy, a model with ``predict`` or ``"uniform"`` to the pool (the newest
        last; past ``pool_size`` the oldest drops)."""
        as_policy(opponent)  # checked now, named if wrong
        self.pool.append(opponent)
        del self.pool[:-self.pool_size]

    def _draw(self) -> Policy:
        rng = self.np_random
        pick = (self.pool[-1] if rng.random() < self.latest
                else self.pool[int(rng.integers(len(self.pool)))])
        if isinstance(pick, str):  # a fresh uniform policy, seeded from the episode's stream
            return UniformPolicy(int(rng.integers(0, 2**63 - 1)))
        return as_policy(pick, self.deterministic)

    # ------------------------------------------------------------------ the API

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (booleans); every index once the episode is over (as
        SingleAgentEnv: a vector environment's autoreset ignores that action)."""
        if self._over or self._mask is None:
            return np.ones(self.action_space.n, dtype=bool)  # type: ignore[attr-defined]
        return self._mask.astype(bool)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:  # the same seed, the same seats from here (rotate: seed mod n)
            self._episodes = seed
        rng = self.np_random
        self.env.reset(seed=int(rng.integers(0, 2**31 - 1)))
        n = len(self.agents)
        rule = self.seat_rule
        index = (self._episodes % n if rule == "rotate"
                 else int(rng.integers(n)) if rule == "random" else int(rule))
        self._episodes += 1
        self.learner = self.agents[index]
        self._policies = {a: self._draw() for a in self.agents if a != self.learner}
        self._over, self._started = False, True
        self._steps, self._return = 0, 0.0
        obs, _, terminated, truncated, info = self._advance()
        if terminated or truncated:
            raise SetupError("the learner's episode ended before its first decision")
        return obs, self._info(info)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._over:
            raise ResetNeededError("the episode is over: call reset()" if self._started else
                                   "step() before the first reset(): call reset() first")
        self._steps += 1
        mask = self._mask
        if self.illegal_action == "lose" and mask is not None and not (
                isinstance(action, (int, np.integer)) and 0 <= action < len(mask)
                and mask[action]):
            self._over = True
            self._return -= 1.0
            info = self._info({"illegal_action": repr(action)})
            return self._last_obs.copy(), -1.0, True, False, info
        self.env.step(action)
        obs, reward, terminated, truncated, info = self._advance()
        self._return += reward
        self._over = terminated or truncated
        return obs, reward, terminated, truncated, self._info(info)

    def _advance(self) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Play the other agents (their actions, their dead steps) until the learner is
        selected; its ``last()`` then (its reward since it last acted, its end)."""
        env, learner = self.env, self.learner
        for _ in range(_MAX_STEPS):
            agent = env.agent_selection
            obs, reward, terminated, truncated, info = env.last()
            if agent == learner or learner not in env.agents:
                if learner not in env.agents:  # pragma: no cover - PettingZoo selects the dead
                    terminated = True
                self._mask = None if terminated or truncated else np.asarray(obs["action_mask"])
                self._last_obs = np.asarray(obs["observation"])
                return (self._last_obs, float(reward), bool(terminated),
                        bool(truncated), dict(info))
            if terminated or truncated:
                env.step(None)
            else:
                env.step(int(self._policies[agent](obs["observation"],
                                                   np.asarray(obs["action_mask"]).copy())))
        raise RuntimeError("the opponents played 10 million steps without the learner's turn")

    def _info(self, info: dict[str, Any]) -> dict[str, Any]:
        info["action_mask"] = self.action_masks().astype(np.int8)
        info["learner"] = self.learner
        if self._over:
            info["steps"], info["return"] = self._steps, self._return
        return info

    def render(self) -> Any:
        return self.env.render()

    def close(self) -> None:
        self.env.close()


__all__ = ["SelfPlayEnv"]
