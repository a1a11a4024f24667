"""Policies in the encoded space, and a policy seated as an engine bot.

A *policy* maps an observation and its mask to an action index: ``f(observation, mask) ->
index``. A library model (stable-baselines3's ``MaskablePPO`` and anything with
``predict(observation, action_masks=mask, deterministic=...)``) becomes one with
:func:`as_policy`; :class:`UniformPolicy` is the uniform masked policy (``"uniform"`` as an
opponent name). :class:`PolicyBot` plays a policy as an engine bot (``choose(game)``): in
``simulate``, as an opponent of the environments, and in a widget's seat.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from ..engine.errors import SetupError
from .actions import ActionCodec
from .errors import MaskedActionError
from .observation import Observer

if TYPE_CHECKING:
    from ..engine.actions import Action
    from ..engine.game import Game

# (observation, action_mask) -> action index
Policy = Callable[[np.ndarray, np.ndarray], int]


class UniformPolicy:
    """Every legal action equally likely: ``UniformPolicy(seed)(observation, mask)``.

    The baseline of a learner (an untrained network plays close to it). Unlike the engine's
    ``random`` bot, which picks among the engine's listed choices and bids at random, it is
    uniform over the encoding: with hundreds of trade and mortgage entries open, it mostly
    trades and mortgages, and the random bot beats it about two games in three."""

    name: ClassVar[str] = "uniform"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def pick(self, mask: np.ndarray | bytes | bytearray) -> int:
        legal = np.flatnonzero(np.frombuffer(mask, dtype=np.int8) if isinstance(
            mask, (bytes, bytearray)) else mask)
        if not len(legal):
            raise ValueError("an all-zero mask: no action to pick")
        return int(legal[int(self.rng.random() * len(legal))])

    def __call__(self, observation: np.ndarray, mask: np.ndarray) -> int:
        return self.pick(mask)


def as_policy(model: Any, deterministic: bool = True) -> Policy:
    """``f(observation, mask) -> index`` from a policy function (returned as it is), a model
    with ``predict(observation, action_masks=mask, deterministic=...)`` (MaskablePPO), or
    ``"uniform"``."""
    if isinstance(model, str):
        if model != "uniform":
            raise SetupError(f"a policy name is 'uniform', not {model!r} (engine bots are "
                             "opponents by name, not policies)")
        return UniformPolicy()
    predict = getattr(model, "predict", None)
    if callable(predict):
        def policy(observation: np.ndarray, mask: np.ndarray) -> int:
            action, _ = predict(observation, action_masks=mask.astype(bool),
                                deterministic=deterministic)
            return int(np.asarray(action).reshape(-1)[0])

        return policy
    if callable(model):
        return model  # type: ignore[no-any-return]
    raise SetupError(f"a policy is f(observation, mask) -> index or a model with predict(), "
                     f"not {type(model).__name__}")


class PolicyBot:
    """A policy playing as an engine bot: ``choose(game) -> Action``.

    Seat it in a widget (``UgentopolyWidget(..., seats=["person", PolicyBot(model)])``),
    play it in ``simulate`` or against the environments' opponents. It sees the game as an
    environment's agent does: give the ``max_turns`` and ``max_offers_per_turn`` it was trained
    with (the observation reads the turn as a share of ``max_turns``; its trade offers are
    limited per turn as in training).

    Args:
        model: a policy ``f(observation, mask) -> index`` or a model with ``predict``.
        name: the seat's name in a widget (its lobby lists it beside the house bots).
        deterministic: the model's most likely action (True) or a sample of its policy.
        max_turns: the environment's ``max_turns`` it was trained with.
        max_offers_per_turn: the environment's ``max_offers_per_turn`` it was trained with.
    """

    def __init__(self, model: Any, *, name: str = "agent", deterministic: bool = True,
                 max_turns: int = 1000, max_offers_per_turn: int = 1) -> None:
        if not isinstance(name, str) or not name.strip() or len(name) > 40:
            raise SetupError("a PolicyBot's name is a short text (at most 40 characters)")
        if not isinstance(max_turns, int) or isinstance(max_turns, bool) or max_turns < 1:
            raise SetupError("max_turns must be a positive integer")
        if not isinstance(max_offers_per_turn, int) or isinstance(max_offers_per_turn, bool) \
                or max_offers_per_turn < 0:
            raise SetupError("max_offers_per_turn must be a non-negative integer")
        self.policy = as_policy(model, deterministic)
        self.model = model
        self.name = name
        self.max_turns = max_turns
        self.max_offers = max_offers_per_turn
        self._game: Game | None = None
        self._tools_now: tuple[ActionCodec, Observer] | None = None
        self._offers: dict[tuple[int, int], int] = {}  # (turn, seat) -> offers made

    def _tools(self, game: Game) -> tuple[ActionCodec, Observer]:
        """The encoding and the observer of `game` (the tables follow one game at a time: a
        new game gets new ones)."""
        tools = self._tools_now
        if game is not self._game or tools is None:
            codec = ActionCodec(game)
            tools = self._tools_now = (
                codec, Observer(game, codec, codec.tables, self.max_turns, self.max_offers))
            self._game = game
            self._offers.clear()
        return tools

    def choose(self, game: Game) -> Action:
        seat = game.decision.player
        if seat is None:
            raise ValueError("the game is over: no decision to take")
        codec, observer = self._tools(game)
        key = (game.turn_number, seat)
        offers = self.max_offers - self._offers.get(key, 0)
        mask = codec.mask(game, offers)
        index = int(self.policy(observer.observe(game, seat, offers), mask.copy()))
        if not 0 <= index < codec.n or not mask[index]:
            raise MaskedActionError(
                f"{self.name}'s policy chose action {index}, which is masked out now "
                f"({game.decision.kind!r} decision)", action=index, player=f"player_{seat}",
                phase=game.decision.kind)
        action = codec.decode(index, game)
        assert action is not None, "a masked-in index decodes"
        if codec.names[index].startswith("trade_"):
            if len(self._offers) > 64:
                self._offers = {k: v for k, v in self._offers.items() if k[0] >= key[0]}
            self._offers[key] = self._offers.get(key, 0) + 1
        return action

    def __repr__(self) -> str:
        return f"PolicyBot({self.name!r})"


__all__ = ["Policy", "UniformPolicy", "PolicyBot", "as_policy"]
