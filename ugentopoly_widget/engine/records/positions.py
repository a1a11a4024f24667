"""Position copies: a private copy of a game at its current position, put back there on demand.

Rollouts play thousands of games on from one position. Replaying the whole record for each
(``Game.copy()``) costs as much as the game so far; a :class:`PositionCopy` is made once, from
the original's newest undo checkpoint at or before the position and the actions since (at most
``checkpoint_every`` turns, applied unchecked: they were validated when first applied), and
keeps a checkpoint of its own at the start of the current turn. :meth:`PositionCopy.reset`
restores that checkpoint and replays the few actions of the current turn: tens of
microseconds, however long the game has run. Mid-turn positions (a purchase to decide, an
auction, a trade offer, a debt) are reached the same way: the flow of play is a generator
whose frame cannot be copied, but the turn's actions lead it there again.

The original is only read: nothing in it changes, its random state included. The copy runs on
a frozen clock (a timed game never runs out of time in it; limits by turn or round still end
it), takes no undo checkpoints of its own, and its log holds only the events since its
position's turn began (the rules never read the log; a rollout's result is the state).

>>> from ugentopoly_widget.engine.game import Game
>>> from ugentopoly_widget.engine.bots import HeuristicBot, play_game
>>> game = Game("classic", players=2, seed=4)
>>> _ = play_game(game, [HeuristicBot(seed=1), HeuristicBot(seed=2)], until_turn=40)
>>> copy = PositionCopy(game)
>>> copy.game.state() == game.state()
True
>>> _ = play_game(copy.game, [HeuristicBot(seed=3), HeuristicBot(seed=4)])
>>> copy.game.is_over, game.is_over
(True, False)
>>> copy.reset()
>>> copy.game.state() == game.state()
True
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .. import actions as A
from ..errors import SetupError
from ..state import BLOCK
from ..testing import run_injection
from . import checkpoints
from .events import EventLog

if TYPE_CHECKING:
    from ..actions import Action
    from ..core import Engine
    from ..game import Game

Injection = tuple[int, str, Any]


def _frozen_clock() -> float:
    return 0.0


def _replay(e: Engine, actions: Sequence[Action], injections: Sequence[Injection],
            start: int) -> None:
    """Apply ``actions`` (the record's from index `start` on) with the testing steps recorded
    among them, unchecked, as undo does (``Game.undo``)."""
    pending = sorted((i for i in injections if i[0] >= start), key=lambda item: item[0])
    k = 0
    e.replaying = True
    try:
        for index, action in enumerate(actions, start):
            while k < len(pending) and pending[k][0] <= index:
                run_injection(e, pending[k][1], pending[k][2])
                k += 1
            if type(action) is A.TimeUp:
                e.apply_time_up()
            else:
                e.apply_checked(action)
        for _, op, args in pending[k:]:  # the steps after the last action (a scripted roll)
            run_injection(e, op, args)
    finally:
        e.replaying = False
    e.forget_caches()


class PositionCopy:
    """A copy of `game` at its current position; :meth:`reset` puts it back there.

    ``copy.game`` is an ordinary :class:`Game`: play it with bots or ``apply``, then
    ``reset()``. :meth:`reseed` gives the copy a future of its own (fresh dice and deck order
    from a seed) in place of the original's."""

    def __init__(self, game: Game) -> None:
        from ..game import Game

        if not isinstance(game, Game):
            raise SetupError(f"a position is copied from a Game, not {type(game).__name__}")
        live = game._engine
        applied = len(game._actions)
        injections = list(game._injections)
        copy = Game(
            game.rules, board=game.board, seed=game.seed, lang=game.lang, clock=_frozen_clock,
            players=[{"name": n, "token": t, "colour": c} for n, t, c in game._specs],
        )
        e = copy._engine
        # A checkpoint at every turn start while catching up: the last one is this turn's.
        e.checkpoint_every = 1
        source = checkpoints.find(live, applied)
        start = 0
        if source is not None and source.applied > 0:
            checkpoints.restore(e, source)  # plain data, copied: the original's stays as it is
            start = source.applied
        _replay(e, game._actions[start:applied], injections, start)
        mine = checkpoints.find(e, applied)
        assert mine is not None, "a turn start is reached before every decision"
        e.checkpoint_every = 0
        e.checkpoints = [mine]
        copy._actions = list(game._actions[:applied])
        copy._undoable = list(game._undoable[:applied])
        copy._injections = injections
        self.game = copy
        self.applied = applied
        self._checkpoint = mine
        self._tail = copy._actions[mine.applied:]
        self._tail_injections = [i for i in injections if i[0] >= mine.applied]
        self._cycle_decks = [kind for kind, spec in game.board.decks.items()
                             if spec.draw == "cycle"]

    def reset(self) -> None:
        """Put the copy back at the position it was made at (its random state included)."""
        game = self.game
        e = game._engine
        # A new log rather than the old one cut back: cutting walks every event dropped (a
        # whole rollout's, a fifth of its cost). The copy's log holds this turn's events on.
        e.events = EventLog()
        checkpoints.restore(e, self._checkpoint)
        _replay(e, self._tail, self._tail_injections, self._checkpoint.applied)
        del game._actions[self.applied:]
        del game._undoable[self.applied:]
        game._landing_counter = None

    def reseed(self, seed: int, first_roll: Sequence[int] | None = None, *,
               shuffle_decks: bool = True) -> None:
        """Give the copy a fresh future: its dice (and random-draw decks) from a generator
        seeded `seed`, the cycling decks' order shuffled by it (who holds which card is known;
        the order of the rest is not), the scripted dice and stacked draws dropped. With
        `first_roll`, the next roll is that one (stratified rollouts)."""
        e = self.game._engine
        chance = e.chance
        chance.rng.seed(seed)  # in place: the chance source's bound draw stays valid
        chance._start = None
        chance._next = BLOCK
        rolls: deque[tuple[int, ...]] = deque()
        if first_roll is not None:
            rolls.append(tuple(first_roll))
        chance.scripted_dice = rolls
        chance.forced_draws = {}
        if shuffle_decks:
            for kind in self._cycle_decks:
                cards = list(e.decks[kind])
                chance.shuffle(cards)
                e.decks[kind] = deque(cards)
        e.forget_caches()


__all__ = ["PositionCopy"]
