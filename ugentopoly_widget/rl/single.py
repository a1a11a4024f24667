"""The Gymnasium environment: one learner against fixed opponents who play inside ``step()``.

    from ugentopoly_widget.rl import SingleAgentEnv
    env = SingleAgentEnv("classic", seat=0, opponents=["heuristic", "heuristic", "random"])
    obs, info = env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(env.action_masks())[0]))

The observation is the AEC environment's vector (a Box); the mask comes from
``action_masks()`` (what MaskablePPO asks for) and ``info["action_mask"]``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

import gymnasium
import numpy as np
from gymnasium import spaces

from ..engine.actions import Action
from ..engine.boards.board import Board
from ..engine.bots import BOTS, Bot, make_bot
from ..engine.errors import SetupError
from .aec import action_index, masked_out
from .match import Match
from .render import RENDER_MODES, check_mode, render
from .view import MatchView

# A policy in the encoded space: (observation, action_mask) -> action index.
Policy = Callable[[np.ndarray, np.ndarray], int]
Opponent = str | Bot | Policy
IllegalAction = Literal["lose", "raise"]
_RESET_TRIES = 100


class SingleAgentEnv(MatchView, gymnasium.Env[np.ndarray, np.int64]):
    """One seat learns; the others are fixed opponents that play inside :meth:`step`.

    ``max_turns``, ``reward_shaping``, ``max_offers_per_turn``, ``board``, ``options``,
    ``render_mode`` and ``render_size`` are as for the AEC environment (``raw_env``).

    Args:
        profile: ``"ugentopoly"``, ``"classic"`` or ``"cell22"``.
        seat: the learner's seat (``player_<seat>``).
        opponents: one per other seat, in seat order: ``"strong"``, ``"heuristic"`` or
            ``"random"`` (the engine's bots, new and seeded from reset(seed) each episode), an
            engine bot object (``choose(game) -> Action``; its randomness is its own), or a
            policy in the encoded space (``f(observation, action_mask) -> index``, e.g. a
            frozen copy of the learner).
        skip_forced: decisions where the mask holds a single action (rolling with nothing else
            to do) are taken for the learner, so that every step is a choice.
        illegal_action: what a masked-out action does: ``"lose"`` (the default, as PettingZoo's
            TerminateIllegalWrapper: reward -1, the episode ends, ``info["illegal_action"]``
            names it, the game is untouched) or ``"raise"`` (MaskedActionError).
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 2}

    def __init__(
        self,
        profile: str = "classic",
        seat: int = 0,
        opponents: Sequence[Opponent] = ("heuristic",),
        *,
        board: Board | str | os.PathLike[str] | None = None,
        options: Mapping[str, Any] | None = None,
        max_turns: int = 1000,
        render_mode: str | None = None,
        reward_shaping: float = 0.0,
        max_offers_per_turn: int = 1,
        skip_forced: bool = True,
        illegal_action: IllegalAction = "lose",
        render_size: int = 640,
    ) -> None:
        if isinstance(opponents, str) or not isinstance(opponents, Sequence) or not opponents:
            raise SetupError("opponents is a list with one opponent per other seat")
        for opponent in opponents:
            if isinstance(opponent, str):
                if opponent not in BOTS:
                    raise SetupError(f"unknown opponent {opponent!r}: {sorted(BOTS)}, an engine "
                                     "bot or a policy f(observation, action_mask) -> index")
            elif not callable(opponent) and not callable(getattr(opponent, "choose", None)):
                raise SetupError(f"an opponent is a bot name, a bot or a policy, not {opponent!r}")
        players = len(opponents) + 1
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
            raise SetupError(f"seat is a seat number from 0 to {players - 1}")
        if illegal_action not in ("lose", "raise"):
            raise SetupError("illegal_action is 'lose' or 'raise'")
        check_mode(render_mode, render_size)
        self.match = Match(profile, players, board, options, max_turns, reward_shaping,
                           max_offers_per_turn)
        self.seat = seat
        self.opponents = list(opponents)
        self.others = [s for s in range(players) if s != seat]
        self.skip_forced = skip_forced
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.render_size = render_size
        self.observation_space = spaces.Box(0.0, 1.0, (self.match.observer.n,), dtype=np.float32)
        self.action_space = spaces.Discrete(self.match.codec.n)
        self._players: dict[int, Opponent] = {}
        self._mask: np.ndarray | None = None
        self._over = True

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now, as booleans (all False once the episode is over)."""
        return self._learner_mask().astype(bool)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game; every random draw (the game's seed, the named bots' seeds) comes from
        the generator seeded here. An episode starts at the learner's first decision: a game
        that ends before it (possible only with skip_forced and a small max_turns) is replaced
        by the next of the seeded stream. `options` are not read."""
        super().reset(seed=seed)
        rng = self.np_random
        for _ in range(_RESET_TRIES):
            self.match.reset(int(rng.integers(0, 2**63 - 1)))
            self._players = {}
            for s, opponent in zip(self.others, self.opponents, strict=True):
                bot_seed = int(rng.integers(0, 2**63 - 1))
                self._players[s] = (make_bot(opponent, bot_seed) if isinstance(opponent, str)
                                    else opponent)
            self._mask = None
            self._advance()
            if not self.match.done[self.seat]:
                break
        else:
            raise SetupError(f"{_RESET_TRIES} games in a row ended before the learner's first "
                             "decision: raise max_turns")
        self._over = False
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._over:
            raise RuntimeError("the episode is over: call reset()")
        match = self.match
        match.check_unchanged()
        index = action_index(action, match.codec.n)
        mask = self._learner_mask()
        if not mask[index]:
            if self.illegal_action == "raise":
                raise masked_out(match, index, mask)
            self._over = True
            info = self._info()
            info["illegal_action"] = match.codec.names[index]
            return self._observation(), -1.0, True, False, info
        engine_action = match.codec.decode(index, match.game)
        assert engine_action is not None
        self._mask = None
        reward = self._apply(engine_action)
        reward += self._advance()
        seat = self.seat
        terminated, truncated = match.terminated[seat], match.truncated[seat]
        self._over = terminated or truncated
        return self._observation(), reward, terminated, truncated, self._info()

    def _apply(self, action: Action) -> float:
        self.match.apply(action)
        self._mask = None
        return self.match.rewards[self.seat]

    def _advance(self) -> float:
        """Let the opponents (and the learner's forced decisions) play until the learner has a
        choice or its episode is over; returns the learner's reward meanwhile."""
        match = self.match
        game = match.game
        seat = self.seat
        reward = 0.0
        while not match.done[seat]:
            decider = game.decision.player
            if decider is None:  # pragma: no cover - a game over ends every seat's episode
                break
            if decider == seat:
                mask = self._learner_mask()
                if not self.skip_forced or mask.sum() != 1 or match.codec.names[
                        int(np.argmax(mask))] == "bankrupt":
                    break  # a choice (and going bankrupt is always the learner's own step)
                reward += self._apply(match.codec.decode(int(np.argmax(mask)), game)
                                      or _unreachable())
                continue
            reward += self._apply(self._opponent_action(decider))
        return reward

    def _opponent_action(self, decider: int) -> Action:
        player = self._players[decider]
        match = self.match
        choose = getattr(player, "choose", None)
        if choose is not None:
            chosen: Action = choose(match.game)
            return chosen
        assert callable(player)
        offers = match.offers_left(decider)
        observation = match.observer.observe(match.game, decider, offers)
        mask = match.codec.mask(match.game, offers)
        index = action_index(player(observation, mask.copy()), match.codec.n)
        if not mask[index]:
            raise masked_out(match, index, mask)
        decoded = match.codec.decode(index, match.game)
        return decoded if decoded is not None else _unreachable()

    def _learner_mask(self) -> np.ndarray:
        match = self.match
        if match.done[self.seat] or match.game.decision.player != self.seat:
            return match.codec.zero_mask()
        if self._mask is None:
            self._mask = match.codec.mask(match.game, match.offers_left(self.seat))
        return self._mask

    def _observation(self) -> np.ndarray:
        match = self.match
        return match.observer.observe(match.game, self.seat, match.offers_left(self.seat))

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._learner_mask().copy()}

    def render(self) -> str | np.ndarray | None:
        return render(self.match.game, self.render_mode, self.render_size)


def _unreachable() -> Action:  # pragma: no cover - a masked-in index always decodes
    raise AssertionError("a masked-in action index did not decode")


__all__ = ["SingleAgentEnv", "Policy", "Opponent"]
