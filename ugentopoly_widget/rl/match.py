"""One episode's game and its bookkeeping, shared by the PettingZoo and Gymnasium classes:
applying engine actions, rewards, who is out, truncation, the trade-offer allowance."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..engine.actions import Action, ProposeTrade
from ..engine.core import Engine
from ..engine.errors import SetupError
from ..engine.game import Game
from .actions import ActionCodec
from .errors import GameChangedError
from .observation import Observer

# Rules options that need a wall clock: an environment's game has none (its clock stands still,
# so that a replay is exact); max_turns (or the turn_limit / round_limit options) stand in.
CLOCK_OPTIONS = ("time_limit_minutes", "turn_timer_seconds")


def _still() -> float:
    return 0.0


class Match:
    """The game of the current episode, seen by the environments.

    After every :meth:`apply`, ``rewards[seat]`` is what each seat earned by it; a seat's
    episode ends with ``terminated[seat]`` (out of the game, or the game is over) or
    ``truncated[seat]`` (max_turns reached first); ``done[seat]`` is either."""

    # The arguments are `object` until checked here: compiled, a parameter typed int or float
    # would turn True into 1.0, or refuse "4" with a TypeError instead of the SetupError.
    def __init__(
        self,
        profile: Any = "classic",  # Game checks the profile and the board
        players: object = 4,
        board: Any = None,
        options: Mapping[str, Any] | None = None,
        max_turns: object = 1000,
        reward_shaping: object = 0.0,
        max_offers_per_turn: object = 1,
    ) -> None:
        if not isinstance(players, int) or isinstance(players, bool):
            raise SetupError("players is the number of seats (an integer)")
        if not isinstance(max_turns, int) or isinstance(max_turns, bool) or max_turns < 1:
            raise SetupError("max_turns must be a positive integer")
        if not isinstance(max_offers_per_turn, int) or isinstance(max_offers_per_turn, bool) \
                or max_offers_per_turn < 0:
            raise SetupError("max_offers_per_turn must be a non-negative integer")
        if isinstance(reward_shaping, bool) or not isinstance(reward_shaping, (int, float)) \
                or not 0 <= reward_shaping <= 100:
            raise SetupError("reward_shaping is a number from 0 (off) to 100")
        options = dict(options or {})
        clocked = sorted(k for k in CLOCK_OPTIONS if options.get(k) is not None)
        if clocked or options.get("mode") == "timed":
            raise SetupError(
                f"the environments have no wall clock: {', '.join(clocked) or 'mode=timed'} "
                "cannot be used (max_turns, or the turn_limit / round_limit options, stand in)")
        self.profile, self.board, self.options = profile, board, options
        self.max_turns = max_turns
        self.shaping = float(reward_shaping)
        self.max_offers = max_offers_per_turn
        self.game = self._new_game(0, players)  # checks the set-up; replaced by every reset
        self.n = len(self.game.players)
        self.codec = ActionCodec(self.game)
        self.observer = Observer(self.game, self.codec, self.codec.tables, max_turns,
                                 max_offers_per_turn)
        self.rewards = [0.0] * self.n
        self.done = [False] * self.n
        self.terminated = [False] * self.n
        self.truncated = [False] * self.n
        self._offers = (-1, [0] * self.n)  # (turn, offers made by each seat in it)
        self._potential = [0.0] * self.n
        self.quiet = True
        self.step_ended = False
        self._out = 0
        self._seen: tuple[Engine | None, int, object] = (None, 0, None)

    def _new_game(self, seed: int, players: int) -> Game:
        # The players are named as the agents (the text form, the log and a watching widget
        # then say "player_0" where the agent is player_0, not "Player 1").
        return Game(self.profile, board=self.board, players=agent_names(players), seed=seed,
                    options=self.options, clock=_still)

    # ------------------------------------------------------------------ copies

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """``pickle`` and ``copy.deepcopy``: the set-up, the game (pickled as its save file)
        and the episode's bookkeeping. The encoding's tables are built again for the copy (they
        hold a memoryview and caches keyed by object ids, which no copy could keep)."""
        return (_unpickle_match, (
            (self.profile, self.n, self.board, self.options, self.max_turns, self.shaping,
             self.max_offers), self.game, self.bookkeeping()))

    def bookkeeping(self) -> tuple[Any, ...]:
        """The episode's state besides its game (copied: a later step does not change it)."""
        return (list(self.rewards), list(self.done), list(self.terminated), list(self.truncated),
                (self._offers[0], list(self._offers[1])), list(self._potential), self.quiet,
                self.step_ended, self._out)

    def restore(self, game: Game, bookkeeping: tuple[Any, ...]) -> None:
        """Take over `game` in the state :meth:`bookkeeping` described (see __reduce__)."""
        (rewards, done, terminated, truncated, offers, potential, quiet, step_ended,
         out) = bookkeeping
        self.game = game
        self.rewards, self.done = list(rewards), list(done)
        self.terminated, self.truncated = list(terminated), list(truncated)
        self._offers = (int(offers[0]), list(offers[1]))
        self._potential = list(potential)
        self.quiet, self.step_ended, self._out = bool(quiet), bool(step_ended), int(out)
        self._mark()

    def reset(self, seed: int) -> None:
        self.game = self._new_game(seed, self.n)
        self.rewards = [0.0] * self.n
        self.done = [False] * self.n
        self.terminated = [False] * self.n
        self.truncated = [False] * self.n
        self._offers = (-1, [0] * self.n)
        self._potential = self._potentials() if self.shaping else [0.0] * self.n
        self.quiet = True  # the last step gave no rewards and ended nobody's episode
        self.step_ended = False  # did the last step end some seat's episode?
        self._out = 0
        self._mark()

    def _mark(self) -> None:
        engine = self.game._engine
        self._seen = (engine, engine.applied, engine.decision)

    def check_unchanged(self) -> None:
        """Raise GameChangedError if something outside applied actions to the game (the
        engine counts the actions applied; an undo replaces or rewinds it)."""
        engine, applied, decision = self._seen
        if (self.game._engine is not engine or engine.applied != applied
                or engine.decision is not decision):
            raise GameChangedError(
                "the game was changed outside the environment (a widget's click, an undo or a "
                "direct game.apply): its rewards would no longer add up; call reset()")

    def offers_left(self, seat: int) -> int:
        turn, made = self._offers
        if turn != self.game._engine.turn_number:
            return self.max_offers
        return self.max_offers - made[seat]

    def apply(self, action: Action) -> None:
        """Apply a legal engine action (checked again by the engine: IllegalActionError and
        nothing changed if not), then settle rewards, eliminations and truncation."""
        game = self.game
        position = getattr(action, "position", None)  # what it changes, most likely
        if position is None:  # a purchase, a bid, a lift: the decision's property
            position = game._engine.decision.data.get("position")
        if game._listeners:
            game.apply(action)  # a viewer follows the game: it gets the events
        else:
            # What Game.apply does (check, apply, record), without making the events' objects
            # that nobody reads: 1.3 of 3.6 us (bots._play does the same; the clock is still).
            engine = game._engine
            engine.check_legal(action)
            engine.chance.used = False
            try:
                engine.apply_checked(action)
            except Exception:
                game._rebuild(len(game._actions))  # as Game._apply_valid: the state from before
                raise
            game._actions.append(action)
            game._undoable.append(not engine.chance.used)
        self.codec.tables.hint(position)
        if type(action) is ProposeTrade:
            turn = game.turn_number
            if self._offers[0] != turn:
                self._offers = (turn, [0] * self.n)
            self._offers[1][action.player] += 1
        self._settle()
        self._mark()

    def _settle(self) -> None:
        game = self.game
        engine = game._engine
        rewards = self.rewards
        done = self.done
        if self.quiet and not engine.over and engine.out_count == self._out \
                and engine.turn_number < self.max_turns and not self.shaping:
            return  # nobody earned anything or left, before or now: rewards stay all zero
        self._out = engine.out_count
        for seat in range(self.n):
            rewards[seat] = 0.0
        players = game.players
        finished: list[int] = []
        if game.is_over:
            winners = set(game.winners)
            for seat in range(self.n):
                if not done[seat]:
                    rewards[seat] = 1.0 if seat in winners else -1.0
                    finished.append(seat)
        else:
            for seat in range(self.n):
                if not done[seat] and players[seat].bankrupt:
                    rewards[seat] = -1.0
                    finished.append(seat)
        for seat in finished:
            done[seat] = self.terminated[seat] = True
        if not game.is_over and game.turn_number >= self.max_turns:
            for seat in range(self.n):
                if not done[seat]:
                    done[seat] = self.truncated[seat] = True
                    finished.append(seat)
        if self.shaping:
            self._shape(finished)
        self.quiet = not finished and not any(rewards)
        self.step_ended = bool(finished)

    def _potentials(self) -> list[float]:
        values = self.game.valuations()
        total = sum(max(0, v) for v in values) or 1
        return [max(0, v) / total for v in values]

    def _shape(self, finished: list[int]) -> None:
        """Potential-based shaping: the change in each seat's share of all valuations, and the
        share given back when its episode ends (so an episode's shaping adds up to a constant:
        the best policy stays the best, see docs/rl.md)."""
        now = self._potentials()
        old = self._potential
        c = self.shaping
        for seat in range(self.n):
            if seat in finished:
                self.rewards[seat] -= c * old[seat]
                now[seat] = 0.0
            elif self.done[seat]:
                now[seat] = 0.0
            else:
                self.rewards[seat] += c * (now[seat] - old[seat])
        self._potential = now

    def observe(self, seat: int) -> dict[str, Any]:
        """The observation dict of `seat`: the vector and its mask (zero unless it decides)."""
        game = self.game
        offers = self.offers_left(seat)
        mask = (self.codec.mask(game, offers)
                if game.decision.player == seat and not self.done[seat] else None)
        return {"observation": self.observer.observe(game, seat, offers),
                "action_mask": mask if mask is not None else self.codec.zero_mask()}


def agent_names(players: int) -> list[str]:
    """The PettingZoo names of the seats: ``player_0`` ..."""
    return [f"player_{i}" for i in range(players)]


def _unpickle_match(setup: tuple[Any, ...], game: Game, bookkeeping: tuple[Any, ...]) -> Match:
    match = Match(*setup)
    match.restore(game, bookkeeping)
    return match


__all__ = ["Match", "CLOCK_OPTIONS", "agent_names"]
