"""The analysis' rollouts: from a point of a game's record, each branch (a choice of the
decision there, one outcome of the dice, one card of the deck) played a few turns on by
freshly seeded bots with the same seeds for every branch (common random numbers), then
valued by the :class:`~.evaluate.Evaluator` (or played to the end, ``horizon=None``).

A :class:`Job` is what a worker receives: the record's setup, its actions up to the job's last
point, and the points. Each worker keeps a :class:`Walker` per game, a copy of the game that
only ever steps forward through the record, so consecutive jobs cost it the actions between
them and no replay from the start; at each point it takes a
:class:`~ugentopoly_widget.engine.records.positions.PositionCopy` (a checkpoint restored,
this turn's actions replayed). Rollout *k* of a point depends on (seed, point, k) alone: the
figures are the same in this process, on processes and on Dask, in whatever jobs.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Any

from ...engine import actions as A
from ...engine.actions import Action, action_from_dict
from ...engine.bots import FewerCollections, play_game
from ...engine.game import Game
from ...engine.records import loading
from ...engine.records.positions import PositionCopy
from ...engine.records.savefile import decode_actions
from ...engine.testing import run_injection
from ..runner import BotSpec, _bots_for
from ..slices import finish
from ..streams import first_roll, rollout_seed
from .evaluate import Evaluator

Injection = tuple[int, str, Any]


@dataclass(frozen=True)
class Branch:
    """One continuation of a point: the dice of the next roll fixed (or None: from the
    rollout's stream) and of the rolls after it (a utility's rent), cards put on top of their
    decks in the order they are drawn, then these actions."""

    actions: tuple[dict[str, Any], ...] = ()
    dice: tuple[int, ...] | None = None
    more_dice: tuple[tuple[int, ...], ...] = ()
    cards: tuple[tuple[str, str], ...] = ()  # (deck, card id), in the order drawn

    def stacks(self) -> list[tuple[str, list[str]]]:
        """The cards per deck, each deck's in the order drawn (the engine's "stack" step)."""
        out: dict[str, list[str]] = {}
        for deck, card in self.cards:
            out.setdefault(deck, []).append(card)
        return list(out.items())


@dataclass(frozen=True)
class Point:
    """A point of the record to judge: the position after ``actions[:index]``."""

    index: int
    subject: int  # whose chance is measured
    branches: tuple[Branch, ...]
    seed: int  # the point's own seed: rollout k plays from rollout_seed(seed, k)
    rollouts: int
    quiet: bool = False  # the subject's bot makes no trade offer of its own this turn
    first: int = 0  # the rollouts are first .. first + rollouts - 1 (a point split in parts)


@dataclass(frozen=True)
class Job:
    key: str  # the game's setup, hashed
    setup: dict[str, Any]  # the record without its actions and testing steps
    actions: tuple[Any, ...]  # the record's actions (compact form) up to the last point's
    injections: tuple[Injection, ...]
    points: tuple[Point, ...]
    bots: tuple[BotSpec, ...]
    horizon: int | None  # turns played before the position is valued (None: to the end)
    max_turns: int


def setup_of(record: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The record's setup (no actions, no testing steps) and its key."""
    setup = {k: v for k, v in record.items() if k not in ("actions", "injections")}
    key = hashlib.sha256(json.dumps(setup, sort_keys=True, default=str).encode()).hexdigest()
    return key, setup


def _frozen_clock() -> float:
    return 0.0


class Walker:
    """A copy of a game that steps forward through its record (never back): the position
    after ``actions[:applied]`` with the testing steps recorded up to there."""

    def __init__(self, setup: dict[str, Any]) -> None:
        record = {**setup, "actions": [], "injections": []}
        self.game = loading.game_from_record(Game, record, _frozen_clock)
        self.game.checkpoint_every = 1  # a checkpoint each turn: a PositionCopy replays little
        self.applied = 0
        self.injected = 0
        self.actions: list[Any] = []  # the record's actions applied (as given)
        self.injections: list[Injection] = []

    def fits(self, actions: Sequence[Any], injections: Sequence[Injection]) -> bool:
        """Whether the record given continues what was walked (no undo in between)."""
        return (len(actions) >= self.applied
                and list(actions[:self.applied]) == self.actions
                and list(injections[:self.injected]) == self.injections)

    def advance(self, actions: Sequence[Action], raw: Sequence[Any],
                injections: Sequence[Injection], upto: int) -> None:
        game = self.game
        while True:
            while (self.injected < len(injections)
                   and injections[self.injected][0] <= self.applied):
                at, op, args = injections[self.injected]
                game._replay_injection(op, args)
                self.injections.append((at, op, args))
                self.injected += 1
            if self.applied >= upto:
                return
            action = actions[self.applied]
            if type(action) is A.TimeUp:  # the clock's, in a timed game's record
                game._apply_system(action)
            else:
                game.apply(action)
            self.actions.append(raw[self.applied])
            self.applied += 1


# Per worker thread: the walkers of the games seen lately, two a game (the live analysis
# judges the newest position, then goes back to its backlog: one walker stays at each).
_LOCAL = threading.local()
WALKERS_A_GAME = 2


def _walker(job: Job, upto: int) -> Walker:
    cache: OrderedDict[str, list[Walker]] | None = getattr(_LOCAL, "walkers", None)
    if cache is None:
        cache = _LOCAL.walkers = OrderedDict()
    walkers = cache.setdefault(job.key, [])
    cache.move_to_end(job.key)
    usable = [w for w in walkers if w.applied <= upto and w.fits(job.actions, job.injections)]
    if usable:
        walker = max(usable, key=lambda w: w.applied)
        walkers.remove(walker)
    else:
        walker = Walker(job.setup)
        while len(cache) > 4:
            cache.popitem(last=False)
    walkers.append(walker)  # the last used last
    del walkers[:-WALKERS_A_GAME]
    return walker


def _evaluator() -> Evaluator:
    evaluator: Evaluator | None = getattr(_LOCAL, "evaluator", None)
    if evaluator is None:
        evaluator = _LOCAL.evaluator = Evaluator()
    return evaluator


def play_point(position: PositionCopy, point: Point, bots: tuple[BotSpec, ...],
               horizon: int | None, max_turns: int) -> list[list[float]]:
    """Per branch, per rollout: the subject's share of the win (modelled at the horizon)."""
    return finish(play_point_steps(position, point, bots, horizon, max_turns))


def play_point_steps(position: PositionCopy, point: Point, bots: tuple[BotSpec, ...],
                     horizon: int | None, max_turns: int
                     ) -> Generator[None, None, list[list[float]]]:
    """:func:`play_point` one playout (a branch's rollout) a step: a ``yield`` after each,
    so the browser site's event loop can run between them (``rollouts/slices.py``). The
    figures do not depend on where it is cut: rollout k is seeded by (point, k) alone."""
    evaluator = _evaluator()
    game = position.game
    rules = game.rules
    turn0 = game.turn_number
    until = turn0 + (horizon if horizon is not None else max_turns)
    branches = [(b, [action_from_dict(dict(a)) for a in b.actions], b.stacks())
                for b in point.branches]
    out: list[list[float]] = [[] for _ in branches]
    quiet = (point.subject,) if point.quiet else ()
    for k in range(point.first, point.first + point.rollouts):
        seed = rollout_seed(point.seed, k)
        stream_roll = first_roll(point.seed, k, rules.dice_count, rules.dice_sides)
        for v, (branch, actions, stacks) in enumerate(branches):
            # (the collector's setting for this playout alone: between two steps other code
            # runs, the browser's event loop)
            with FewerCollections():
                position.reset()
                position.reseed(seed, branch.dice if branch.dice is not None else stream_roll)
                game = position.game
                if branch.more_dice:
                    run_injection(game._engine, "dice", branch.more_dice)
                for deck, cards in stacks:
                    run_injection(game._engine, "stack", [deck, cards])
                for action in actions:
                    game.apply(action)
                if not game.is_over:
                    play_game(game, _bots_for(bots, seed, quiet, turn0), until_turn=until)
                out[v].append(evaluator(game)[point.subject])
            yield
    return out


def run_job(job: Job) -> list[list[list[float]]]:
    """Every point of the job (in a worker): per point, per branch, per rollout."""
    return finish(run_job_steps(job))


def run_job_steps(job: Job) -> Generator[None, None, list[list[list[float]]]]:
    """:func:`run_job` one playout a step (see :func:`play_point_steps`)."""
    actions = decode_actions(list(job.actions))
    results = []
    for point in job.points:
        walker = _walker(job, point.index)
        walker.advance(actions, job.actions, job.injections, point.index)
        position = PositionCopy(walker.game)
        results.append((yield from play_point_steps(position, point, job.bots, job.horizon,
                                                    job.max_turns)))
    return results


__all__ = ["Branch", "Point", "Job", "Walker", "setup_of", "play_point", "play_point_steps",
           "run_job", "run_job_steps", "finish"]
