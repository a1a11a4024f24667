"""The Gymnasium environment: one learner against opponents who play inside ``step()``.

    from ugentopoly_widget.rl import SingleAgentEnv
    env = SingleAgentEnv("classic", opponents="heuristic")          # 2 players
    obs, info = env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(env.action_masks())[0]))

The observation is the AEC environment's vector (a Box); the mask comes from
``action_masks()`` (what MaskablePPO asks for) and ``info["action_mask"]``. The last info of
an episode also says who won (``result``, ``winner``, ``ranking``, ``net_worths`` ...).
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
from ..engine.bots import Bot, make_bot
from ..engine.errors import SetupError
from .aec import action_index, masked_out
from .curriculum import OPPONENT_NAMES, Curriculum
from .errors import ResetNeededError
from .match import Match
from .policy import UniformPolicy
from .registration import ENTRY_POINT, env_id
from .render import RENDER_MODES, Renderer, check_mode
from .summary import game_summary, result_of, training_options
from .view import MatchView

# A policy in the encoded space: (observation, action_mask) -> action index.
Policy = Callable[[np.ndarray, np.ndarray], int]
Opponent = str | Bot | Policy
IllegalAction = Literal["lose", "raise"]
_RESET_TRIES = 100


def opponent_list(opponents: Any, players: Any) -> tuple[list[Opponent] | None,
                                                         Curriculum | None, int]:
    """(the opponents of every other seat, or a curriculum that draws them; the players)."""
    if players is not None and (not isinstance(players, int) or isinstance(players, bool)
                                or not 2 <= players <= 8):
        raise SetupError("players is the number of seats, from 2 to 8")
    if isinstance(opponents, Curriculum) or opponents == "curriculum":
        curriculum = opponents if isinstance(opponents, Curriculum) else Curriculum()
        return None, curriculum, players or 2
    if isinstance(opponents, str):
        if players is None:
            players = 2
        opponents = [opponents] * (players - 1)
    if not isinstance(opponents, Sequence) or not opponents:
        raise SetupError("opponents is a name (every other seat), 'curriculum', or a list with "
                         "one opponent per other seat")
    opponents = list(opponents)
    for opponent in opponents:
        if isinstance(opponent, str):
            if opponent not in OPPONENT_NAMES:
                raise SetupError(f"unknown opponent {opponent!r}: {list(OPPONENT_NAMES)}, an "
                                 "engine bot or a policy f(observation, action_mask) -> index")
        elif not callable(opponent) and not callable(getattr(opponent, "choose", None)):
            raise SetupError(f"an opponent is a bot name, a bot or a policy, not {opponent!r}")
    if players is not None and players != len(opponents) + 1:
        raise SetupError(f"{len(opponents)} opponents for {players} players: one per other seat")
    return opponents, None, len(opponents) + 1


class SingleAgentEnv(MatchView, gymnasium.Env[np.ndarray, np.int64]):
    """One seat learns; the others are opponents that play inside :meth:`step`.

    ``max_turns``, ``reward_shaping``, ``max_offers_per_turn``, ``board``, ``render_mode``
    and ``render_size`` are as for the AEC environment (``raw_env``).

    Args:
        profile: ``"ugentopoly"``, ``"classic"`` or ``"cell22"``.
        seat: the learner's seat (``player_<seat>``).
        opponents: a name for every other seat (``"strong"``, ``"heuristic"``, ``"random"``,
            ``"uniform"``: new each episode, seeded from reset(seed)), ``"curriculum"`` (random
            bots, then mixtures, then heuristic bots as the learner wins: see
            :class:`Curriculum`, which can also be passed), or one opponent per other seat: a
            name, an engine bot object (``choose(game) -> Action``; its randomness is its own)
            or a policy in the encoded space (``f(observation, action_mask) -> index``, e.g. a
            frozen copy of the learner).
        players: the number of seats with a name or a curriculum (default 2).
        options: rules options (``Game(options=...)``); without a ``round_limit`` or
            ``turn_limit``, Ugentopoly games end after 100 rounds and 22-cell games after 200,
            the richest winning (``{"round_limit": None}`` lifts that): most Ugentopoly games
            never end otherwise.
        shaping_gamma: the learner's discount, for the shaping: a step's shaping is then
            ``c * (shaping_gamma * share_after - share_before)``, the exact form of Ng, Harada
            and Russell under which a discounted learner's best policy stays the best (1: the
            undiscounted form; give the learner's gamma).
        skip_forced: decisions where the mask holds a single action (rolling with nothing else
            to do) are taken for the learner, so that every step is a choice.
        illegal_action: what a masked-out action does: ``"lose"`` (the default, as PettingZoo's
            TerminateIllegalWrapper: reward -1, the episode ends, ``info["illegal_action"]``
            names it, the game is untouched) or ``"raise"`` (MaskedActionError).
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 4}

    def __init__(
        self,
        profile: str = "classic",
        seat: int = 0,
        opponents: str | Curriculum | Sequence[Opponent] = "heuristic",
        *,
        players: int | None = None,
        board: Board | str | os.PathLike[str] | None = None,
        options: Mapping[str, Any] | None = None,
        max_turns: int = 1000,
        render_mode: str | None = None,
        reward_shaping: float = 0.0,
        shaping_gamma: float = 1.0,
        max_offers_per_turn: int = 1,
        skip_forced: bool = True,
        illegal_action: IllegalAction = "lose",
        render_size: int = 640,
    ) -> None:
        fixed, curriculum, players = opponent_list(opponents, players)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
            raise SetupError(f"seat is a seat number from 0 to {players - 1}")
        if illegal_action not in ("lose", "raise"):
            raise SetupError("illegal_action is 'lose' or 'raise'")
        if isinstance(shaping_gamma, bool) or not isinstance(shaping_gamma, (int, float)) \
                or not 0 < shaping_gamma <= 1:
            raise SetupError("shaping_gamma is a discount in (0, 1]")
        self.shaping_gamma = float(shaping_gamma)
        check_mode(render_mode, render_size)
        self.match = Match(profile, players, board, training_options(profile, dict(options or {})),
                           max_turns, reward_shaping, max_offers_per_turn)
        self.seat = seat
        self.opponents: list[Opponent] | None = fixed
        self.curriculum = curriculum
        self.others = [s for s in range(players) if s != seat]
        self.skip_forced = skip_forced
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.renderer = Renderer(render_mode, render_size)
        self.observation_space = spaces.Box(0.0, 1.0, (self.match.observer.n,), dtype=np.float32)
        self.action_space = spaces.Discrete(self.match.codec.n)
        key = env_id(profile)
        if key is not None:  # as gymnasium.make would set it (make sets its own)
            self.spec = gymnasium.envs.registration.EnvSpec(key, ENTRY_POINT, kwargs={
                "profile": profile, "seat": seat, "opponents": opponents, "players": players,
                "board": board, "options": options, "max_turns": max_turns,
                "render_mode": render_mode, "reward_shaping": reward_shaping,
                "shaping_gamma": shaping_gamma,
                "max_offers_per_turn": max_offers_per_turn, "skip_forced": skip_forced,
                "illegal_action": illegal_action, "render_size": render_size})
        self._players: dict[int, Opponent] = {}
        self._names: list[str] = []
        self._mask: np.ndarray | None = None
        self._over = True
        self._started = False
        self._steps = 0
        self._return = 0.0

    @property
    def render_size(self) -> int:
        return self.renderer.size

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now, as booleans. Once the episode is over every index
        is masked in: a Gymnasium vector environment's next step resets it whatever the action
        (autoreset), and a masked sampler needs a mask with something in it."""
        if self._over:
            return np.ones(self.match.codec.n, dtype=bool)
        return self._learner_mask().astype(bool)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game; every random draw (the game's seed, the named bots' seeds, a curriculum's
        opponents) comes from the generator seeded here. An episode starts at the learner's
        first decision: a game that ends before it (possible only with skip_forced and a small
        max_turns) is replaced by the next of the seeded stream. `options` are not read."""
        super().reset(seed=seed)
        rng = self.np_random
        for _ in range(_RESET_TRIES):
            self.match.reset(int(rng.integers(0, 2**63 - 1)))
            opponents = (self.opponents if self.curriculum is None
                         else self.curriculum.draw(rng, len(self.others)))
            assert opponents is not None
            self._players, self._names = {}, []
            for s, opponent in zip(self.others, opponents, strict=True):
                bot_seed = int(rng.integers(0, 2**63 - 1))
                self._players[s] = (opponent if not isinstance(opponent, str)
                                    else UniformPolicy(bot_seed) if opponent == "uniform"
                                    else make_bot(opponent, bot_seed))
                self._names.append(opponent if isinstance(opponent, str)
                                   else str(getattr(opponent, "name", type(opponent).__name__)))
            self._mask = None
            self._advance()
            if not self.match.done[self.seat]:
                break
        else:
            raise SetupError(f"{_RESET_TRIES} games in a row ended before the learner's first "
                             "decision: raise max_turns")
        self._over, self._started = False, True
        self._steps, self._return = 0, 0.0
        self.renderer.show(self.match.game, new=True)
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._over:
            raise ResetNeededError("the episode is over: call reset()" if self._started else
                                   "step() before the first reset(): call reset() first")
        match = self.match
        match.check_unchanged()
        index = action_index(action, match.codec.n)
        mask = self._learner_mask()
        self._steps += 1
        if not mask[index]:
            if self.illegal_action == "raise":
                self._steps -= 1
                raise masked_out(match, index, mask)
            self._over = True
            self._return -= 1.0
            info = self._info(illegal=True)
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
        if match.shaping and self.shaping_gamma != 1.0 and not self._over:
            # the steps' shaping telescopes to c * (share after - share before); the discounted
            # form takes (1 - gamma) of the share after back (a finished episode's is 0)
            reward += match.shaping * (self.shaping_gamma - 1.0) * match._potential[seat]
        self._return += reward
        if self._over and self.curriculum is not None:
            self.curriculum.record(result_of(seat, match.game, truncated) == "win")
        self.renderer.show(match.game)
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
        offers = match.offers_left(decider)
        mask = match.codec.mask(match.game, offers)
        if isinstance(player, UniformPolicy):  # needs no observation
            index = player.pick(mask)
        else:
            assert callable(player)
            observation = match.observer.observe(match.game, decider, offers)
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

    def _info(self, illegal: bool = False) -> dict[str, Any]:
        if not self._over:
            return {"action_mask": self._learner_mask().copy()}
        match = self.match
        truncated = match.truncated[self.seat]
        info: dict[str, Any] = {"action_mask": np.ones(match.codec.n, dtype=np.int8)}  # see
        # action_masks()
        info.update(game_summary(match.game, truncated))
        info["result"] = "loss" if illegal else result_of(self.seat, match.game, truncated)
        info["opponents"] = list(self._names)
        info["steps"], info["return"] = self._steps, self._return
        if self.curriculum is not None:
            info["curriculum_level"] = self.curriculum.level
        return info

    def render(self) -> str | np.ndarray | None:
        return self.renderer.render(self.match.game)

    def close(self) -> None:
        self.renderer.close()

    # ------------------------------------------------------------------ copies

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_mask"] = None  # a cache
        return state


def _unreachable() -> Action:  # pragma: no cover - a masked-in index always decodes
    raise AssertionError("a masked-in action index did not decode")


__all__ = ["SingleAgentEnv", "Policy", "Opponent"]
