"""The PettingZoo AEC environment: every seat an agent, whoever decides now is the agent selected.

    from ugentopoly_widget import rl
    env = rl.env("classic", players=4)
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else policy(obs["observation"], obs["action_mask"])
        env.step(action)

Auction bidders, trade partners and debtors outside their own turn take their decisions as
``agent_selection``, so turns are not strictly round robin. See docs/rl.md.
"""

from __future__ import annotations

import os
import weakref
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..engine.boards.board import Board
from .errors import ActionIndexError, MaskedActionError
from .match import Match
from .render import RENDER_MODES, check_mode, render
from .view import MatchView

NAME = "ugentopoly_v0"
"""The environments' name (``metadata["name"]``)."""


def action_index(action: Any, n: int) -> int:
    """`action` as an index of Discrete(n): an int or a NumPy integer (a 0-d array too)."""
    if type(action) is int and 0 <= action < n:
        return action  # the common case, before the checks that name what is wrong
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        action = action.item()
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise ActionIndexError(
            f"an action is an integer index of Discrete({n}), not {type(action).__name__}"
            + (" (None is the action of an agent whose episode has ended)"
               if action is None else ""))
    index = int(action)
    if not 0 <= index < n:
        raise ActionIndexError(f"action {index} is outside Discrete({n})")
    return index


def masked_out(match: Match, index: int, mask: np.ndarray) -> MaskedActionError:
    """The error for a masked-out index: the action, the decision, what is masked in."""
    game = match.game
    decision = game.decision
    names = match.codec.names
    legal = [f"{i}:{names[i]}" for i in np.flatnonzero(mask)]
    shown = ", ".join(legal[:24]) + (f" ... ({len(legal)} in all)" if len(legal) > 24 else "")
    who = f"player_{decision.player}" if decision.player is not None else "nobody"
    reason = ""
    if names[index].startswith("trade_") and match.offers_left(decision.player or 0) <= 0:
        reason = f" (at most {match.max_offers} trade offer(s) a turn)"
    return MaskedActionError(
        f"action {index} ({names[index]}) is masked out{reason}: {who} decides "
        f"{decision.kind!r}; masked in: {shown or 'none'}",
        action=index, player=who, phase=decision.kind)


class raw_env(MatchView, AECEnv):  # type: ignore[misc]  # noqa: N801 - PettingZoo's name for the class
    """The unwrapped AEC environment (``env()`` adds PettingZoo's order checks).

    Args:
        profile: ``"ugentopoly"``, ``"classic"`` or ``"cell22"``.
        players: the number of seats (agents ``player_0`` ...).
        board: a Board, a board file or None (the profile's bundled board).
        options: rules options (``Game(options=...)``); clock options are refused.
        max_turns: player-turns after which every agent is truncated.
        render_mode: None, ``"ansi"`` or ``"rgb_array"``.
        reward_shaping: 0 (off): +1 win, -1 loss, 0 otherwise; c > 0 adds c times the change in
            the agent's share of all valuations (potential-based, see docs/rl.md).
        max_offers_per_turn: trade offers an agent may make in one turn (0: none).
        render_size: the side of the ``rgb_array`` picture in pixels.
    """

    metadata = {"name": NAME, "render_modes": list(RENDER_MODES), "is_parallelizable": False,
                "render_fps": 2}

    def __init__(
        self,
        profile: str = "classic",
        players: int = 4,
        board: Board | str | os.PathLike[str] | None = None,
        options: Mapping[str, Any] | None = None,
        max_turns: int = 1000,
        render_mode: str | None = None,
        reward_shaping: float = 0.0,
        max_offers_per_turn: int = 1,
        render_size: int = 640,
    ) -> None:
        super().__init__()
        check_mode(render_mode, render_size)
        self.render_mode = render_mode
        self.render_size = render_size
        self.match = Match(profile, players, board, options, max_turns, reward_shaping,
                           max_offers_per_turn)
        n = self.match.n
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        obs_n, act_n = self.match.observer.n, self.match.codec.n
        # One object per agent, returned on every call (PettingZoo's seeding relies on it).
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(0.0, 1.0, (obs_n,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (act_n,), dtype=np.int8),
            }) for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(act_n) for agent in self.possible_agents}
        self._np_random: np.random.Generator | None = None
        self._mask: np.ndarray | None = None  # the decider's mask, until the next step
        self._flags = bytearray()  # its bytes (checking an index there costs no NumPy call)
        self._viewers: list[weakref.ref[Any]] = []
        self.agents: list[str] = []

    # ------------------------------------------------------------------ the API

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. Its seed (dice, decks, first player) is drawn from the generator
        seeded here (kept from the last seed when None). `options` are not read."""
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        self.match.reset(int(self._np_random.integers(0, 2**63 - 1)))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._skip_agent_selection = None
        self._mask = None
        self._rewards_set = False  # some entry of self.rewards may be non-zero
        decider = self.match.game.decision.player
        self.agent_selection = self.possible_agents[decider if decider is not None else 0]
        for viewer in self._live_viewers():
            viewer.game = self.match.game

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        match = self.match
        offers = match.offers_left(seat)
        observation = match.observer.observe(match.game, seat, offers)
        if match.game.decision.player == seat and not match.done[seat]:
            mask = self._decider_mask().copy()
        else:
            mask = match.codec.zero_mask()
        return {"observation": observation, "action_mask": mask}

    def _decider_mask(self) -> np.ndarray:
        mask = self._mask
        if mask is None:
            match = self.match
            seat = match.game.decision.player
            flags = self._flags = match.codec.mask_flags(match.game, match.offers_left(seat or 0))
            mask = self._mask = np.frombuffer(flags, dtype=np.int8)
        return mask

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        match = self.match
        match.check_unchanged()
        index = action_index(action, match.codec.n)
        mask = self._decider_mask()
        if not self._flags[index]:
            raise masked_out(match, index, mask)
        engine_action = match.codec.decode(index, match.game)
        assert engine_action is not None, f"masked in but no action: {match.codec.names[index]}"
        match.apply(engine_action)
        self._mask = None
        self._after_apply(agent)

    def _after_apply(self, actor: str) -> None:
        """Rewards, ends and the next agent after the match applied `actor`'s action."""
        match = self.match
        self._cumulative_rewards[actor] = 0.0
        decider = match.game.decision.player
        if match.quiet:  # no rewards and nobody's end: only the agent selected changes
            if self._rewards_set:
                self._clear_rewards()
                self._rewards_set = False
            if decider is not None:
                self.agent_selection = self.possible_agents[decider]
            return
        self._rewards_set = True
        rewards, terminated, truncated = match.rewards, match.terminated, match.truncated
        seat_of = self._seat
        for agent in self.agents:
            seat = seat_of[agent]
            self.rewards[agent] = rewards[seat]
            if terminated[seat]:
                self.terminations[agent] = True
            elif truncated[seat]:
                self.truncations[agent] = True
        if decider is not None and not match.done[decider]:
            self.agent_selection = self.possible_agents[decider]
        self._accumulate_rewards()
        self._deads_step_first()

    def render(self) -> str | np.ndarray | None:
        return render(self.match.game, self.render_mode, self.render_size)

    def close(self) -> None:
        self._viewers.clear()

    # ------------------------------------------------------------------ watching

    def watch(self, viewer: Any) -> Any:
        """Show each episode's game in `viewer` (a ``UgentopolyWidget``, or anything with a
        settable ``game``): it gets the current game now and every new one at reset. Only a
        weak reference is kept. Returns the viewer. A click in the viewer that changes the game
        makes the next step raise GameChangedError."""
        if not hasattr(viewer, "game"):
            raise TypeError("a viewer has a settable `game` attribute (a UgentopolyWidget)")
        self._viewers.append(weakref.ref(viewer))
        if self.agents:
            viewer.game = self.match.game
        return viewer

    def _live_viewers(self) -> list[Any]:
        alive = [(ref, ref()) for ref in self._viewers]
        self._viewers = [ref for ref, viewer in alive if viewer is not None]
        return [viewer for _, viewer in alive if viewer is not None]


def env(profile: str = "classic", **kwargs: Any) -> Any:
    """The AEC environment with PettingZoo's order checks (``raw_env`` documents the
    arguments): ``env("classic", players=4, max_turns=1000, render_mode=None)``."""
    return wrappers.OrderEnforcingWrapper(raw_env(profile, **kwargs))


__all__ = ["raw_env", "env", "NAME", "action_index"]
