"""A live estimate of the win chances: rollouts in a worker thread, started again whenever the
position changes, refined batch by batch while nothing happens, up to a budget.

:meth:`LiveEstimator.update` is called in the thread that owns the game (a widget's kernel
thread) after each change: it copies the position (a PositionCopy, about a millisecond) and
returns; the worker drops the old position's work at its next batch and plays the new one.
Each batch (36 rollouts: one per first roll) ends with a published :class:`Estimate`, handed
to ``on_update`` in the worker thread (a widget passes it on to its event loop). The worker
only ever touches its own copy, so the game can be played on meanwhile; the engine's compiled
loop lets go of the interpreter lock often (every call back into Python code), so the thread
that owns the game is never held up for long.

A decision taken between two positions (an action without dice or cards: buying, declining,
bidding, trading) gets a swing: the decider's chance after it minus before it, paired on the
same rollouts (rollout *k* plays the same dice after either position), so a choice the bots
would have made themselves swings exactly 0.

>>> from ugentopoly_widget import Game
>>> game = Game("classic", players=["Ann", "Bob"], seed=1)
>>> live = LiveEstimator(budget=72)
>>> live.update(game)
>>> estimate = live.wait(timeout=60)
>>> estimate.rollouts, estimate.done
(72, True)
>>> live.close()
"""

from __future__ import annotations

import math
import numbers
import threading
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.actions import Action
from ..engine.game import Game
from ..engine.records.positions import PositionCopy
from .chances import summarize
from .errors import RolloutError
from .runner import (
    DEFAULT_MAX_TURNS,
    AtCap,
    BotSpec,
    Outcomes,
    Plan,
    check_at_cap,
    check_bot_specs,
    check_max_turns,
    check_rollouts,
    check_seed,
    play_rollouts,
)
from .stats import differences, mean, standard_error
from .words import NO_WINNER, swing_line

BATCH = 36  # rollouts between two published estimates: one of each first roll
MIN_SWING_ROLLOUTS = 36  # a swing is told once both positions have this many rollouts


@dataclass
class Swing:
    """What one decision did to the decider's chance: ``delta`` ± ``se`` (paired)."""

    player: int
    action: Action
    context: dict[str, Any]
    delta: float
    se: float
    rollouts: int
    text: dict[str, str] = field(default_factory=dict)  # "en", "nl": the log's line


@dataclass
class Estimate:
    """The figures of one position so far (see ``chances.summarize``), its generation (one per
    position), whether the budget is reached, and the swing of the decision that led here."""

    generation: int
    turn: int
    rollouts: int
    budget: int
    done: bool
    figures: dict[str, Any]
    names: list[str]
    swing: Swing | None = None
    tag: Any = None  # what the owner tagged the position with (a widget: its state's seq)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for a view: one entry per player, "no winner yet" apart."""
        figures = self.figures
        low, high = figures["unfinished_ci"]
        out: dict[str, Any] = {
            "generation": self.generation, "turn": self.turn, "rollouts": self.rollouts,
            "budget": self.budget, "status": "done" if self.done else "running",
            "players": [{"player": k, "name": self.names[k], **_finite(p)}
                        for k, p in enumerate(figures["players"])],
            "unfinished": _finite({"p_win": figures["p_unfinished"],
                                   "se": figures["unfinished_se"], "ci_low": low,
                                   "ci_high": high}) | {"label": dict(NO_WINNER)},
            "mean_turns": figures["mean_turns"] if math.isfinite(figures["mean_turns"])
            else None,
        }
        return out


def _finite(values: Mapping[str, float]) -> dict[str, float]:
    return {k: (float(v) if math.isfinite(v) else 0.0) for k, v in values.items()}


class _Held:
    """A float ``value``, as a shared ``multiprocessing.RawValue("d")`` has (a child process
    reads its owner's)."""

    value: float = 0.0


@dataclass
class _Job:
    generation: int
    position: PositionCopy
    plan: Plan
    turn: int
    names: list[str]
    before: _Job | None = None  # the previous position, for the swing
    decision: tuple[int, Action, dict[str, Any]] | None = None
    outcomes: Outcomes | None = None
    tag: Any = None


class LiveEstimator:
    """Win chances of the latest position given to :meth:`update`, refined in a worker thread.

    ``budget``: rollouts per position (then it idles); ``on_update(estimate)`` is called in
    the worker thread after every batch, ``on_error(text)`` when a position could not be
    estimated (it is dropped; in a process: also when the process ended); :meth:`wait`
    blocks until the budget is reached (for scripts and tests). Bad settings raise
    :class:`RolloutError` when it is made (bots that do not fit a game's seats: in
    :meth:`update`). :meth:`close` stops it (again: nothing); an estimator dropped without it
    stops when it is collected."""

    def __init__(self, *, budget: int = 1000, bots: BotSpec | Sequence[BotSpec] = "strong",
                 seed: int = 0, max_turns: int = DEFAULT_MAX_TURNS, at_cap: AtCap = "apart",
                 batch: int = BATCH,
                 on_update: Callable[[Estimate], None] | None = None,
                 on_error: Callable[[str], None] | None = None) -> None:
        self.budget = check_rollouts(budget, "budget")
        self.batch = check_rollouts(batch, "batch")
        self.seed = check_seed(seed)
        self.max_turns = check_max_turns(max_turns)
        self.at_cap = check_at_cap(at_cap)
        self._lineup = check_bot_specs(bots)  # fitted to each position's seats in update()
        self.bots = bots
        for name, hook in (("on_update", on_update), ("on_error", on_error)):
            if hook is not None and not callable(hook):
                raise RolloutError(f"{name} is None or a callable, not {hook!r}")
        self.on_update = on_update
        self.on_error = on_error
        self._lock = threading.Condition()
        self._job: _Job | None = None
        self._latest: Estimate | None = None
        self._generation = 0
        self._closed = False
        self._thread: threading.Thread | None = None
        self._hold: _Held = _Held()  # until when to rest (time.monotonic(), any process's)
        self.errors: list[str] = []
        # Dropped without close(): the worker ends when this object is collected (it holds
        # only a weak reference to it between batches).
        self._finalizer = weakref.finalize(self, _wake, self._lock)

    # ------------------------------------------------------------------ the owner's side

    def update(self, game: Game, *, decision: tuple[int, Action, Mapping[str, Any]] | None
               = None, tag: Any = None) -> None:
        """A new position: the worker drops the old one at its next batch. ``decision``
        (player, action, the decision's data before it) asks for the swing of that action,
        taken since the previous position without dice or cards; ``tag`` comes back with
        the position's estimates."""
        if not isinstance(game, Game):
            raise RolloutError(f"update takes a Game, not {type(game).__name__}")
        specs = self._lineup.fit(len(game.players))  # RolloutError: bots that do not fit
        if game.is_over:
            self.cancel()
            return
        position = PositionCopy(game)
        plan = Plan(record={}, applied=len(game.actions), seats=len(game.players), bots=specs,
                    seed=self.seed, max_turns=self.max_turns, at_cap=self.at_cap,
                    variants=((),))
        names = [p.name for p in game.players]
        with self._lock:
            if self._closed:
                return
            self._generation += 1
            before = self._job
            if before is not None:
                before.before = None  # keep one position back, no chain
            self._job = _Job(self._generation, position, plan, game.turn_number, names,
                             before if decision is not None else None,
                             (decision[0], decision[1], dict(decision[2]))
                             if decision is not None else None, tag=tag)
            self._latest = None
            self._lock.notify_all()
            self._start_worker()

    def _start_worker(self) -> None:
        """The worker thread, started with the first position (under the lock)."""
        if self._thread is None:
            self._thread = threading.Thread(target=_work, name="win-chances", daemon=True,
                                            args=(weakref.ref(self), self._lock))
            self._thread.start()

    def hold(self, seconds: float) -> None:
        """Rest for `seconds` from now, from the next rollout on (a click is being answered:
        the machine's cores are its). A new position given meanwhile waits too."""
        self._hold.value = time.monotonic() + check_hold(seconds)

    def cancel(self) -> None:
        """Stop estimating (a finished game, or the display switched off)."""
        with self._lock:
            self._generation += 1
            self._forget()
            self._latest = None
            self._lock.notify_all()

    def _forget(self) -> None:
        """The current position is dropped (under the lock)."""
        self._job = None

    def close(self, *, wait: bool = True) -> None:
        """Stop estimating: the worker ends before its next rollout. ``wait=True`` waits
        until it has ended; ``wait=False`` returns at once (a widget's switch). Closing again
        does nothing."""
        with self._lock:
            self._closed = True
            self._job = None
            self._lock.notify_all()
        thread = self._thread
        if wait and thread is not None and thread is not threading.current_thread():
            thread.join(timeout=10)
        self._finalizer.detach()

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def failed(self) -> bool:
        """Whether it cannot go on (a thread never fails so: it drops a position that
        raised and estimates the next)."""
        return False

    @property
    def generation(self) -> int:
        """The current position's number (one more for every update or cancel)."""
        with self._lock:
            return self._generation

    @property
    def latest(self) -> Estimate | None:
        """The newest estimate of the current position (None before its first batch)."""
        with self._lock:
            return self._latest

    def wait(self, timeout: float | None = None) -> Estimate | None:
        """Block until the current position's budget is reached (or `timeout` seconds)."""
        with self._lock:
            self._lock.wait_for(
                lambda: self._job is None or (self._latest is not None and self._latest.done
                                              and self._latest.generation == self._job.generation),
                timeout)
            return self._latest

    # ------------------------------------------------------------------ the worker

    def _take(self) -> _Job | None:
        """The job to refine now, or None when there is none (under the lock)."""
        return self._job if self._has_work() else None

    def _failed(self, job: _Job, exc: Exception) -> None:
        """A batch raised: report it and drop the position (the worker never dies)."""
        with self._lock:
            if self._job is job:
                self._job = None
            self._lock.notify_all()
        self._report_failure(f"{type(exc).__name__}: {exc}")

    def _report_failure(self, text: str) -> None:
        """A position that could not be estimated (or, in a process, the process gone):
        into ``errors`` and to ``on_error``."""
        self._error(text)
        if self.on_error is not None:
            try:
                self.on_error(text)
            except Exception as exc:  # the receiver's fault
                self._error(f"on_error: {type(exc).__name__}: {exc}")

    def _deliver(self, estimate: Estimate) -> None:
        """The estimate to ``on_update`` (in the worker's thread)."""
        if self.on_update is not None:
            try:
                self.on_update(estimate)
            except Exception as exc:  # the receiver's fault: keep estimating
                self._error(f"on_update: {type(exc).__name__}: {exc}")

    def _has_work(self) -> bool:
        job = self._job
        return job is not None and (job.outcomes is None or job.outcomes.count < self.budget)

    def _step(self, job: _Job) -> None:
        done = job.outcomes.count if job.outcomes is not None else 0
        stop = min(done + self.batch, self.budget)
        # a new position (or the end) stops this batch at the next rollout: its work is dropped
        part = play_rollouts(job.position, job.plan, [[]], done, stop,
                             interrupted=lambda: self._interrupted(job))
        self._publish(job, part)

    def _publish(self, job: _Job, part: Outcomes) -> None:
        """`job`'s rollouts `part` added to its estimate, published (unless `job` is left
        behind)."""
        if part.count == 0:
            return
        outcomes = part if job.outcomes is None else Outcomes.join([job.outcomes, part])
        estimate = Estimate(job.generation, job.turn, outcomes.count, self.budget,
                            outcomes.count >= self.budget, summarize(outcomes), job.names,
                            self._swing(job, outcomes), job.tag)
        with self._lock:
            if self._job is not job:  # the position changed meanwhile: this work is dropped
                return
            job.outcomes = outcomes
            self._latest = estimate
            self._lock.notify_all()
        self._deliver(estimate)

    def _interrupted(self, job: _Job) -> bool:
        """Between two rollouts: is `job` left behind? While held, wait (see :meth:`hold`)."""
        while True:
            if self._job is not job or self._closed:
                return True
            rest = self._hold.value - time.monotonic()
            if rest <= 0:
                return False
            time.sleep(min(rest, 0.05))

    def _error(self, text: str) -> None:
        self.errors.append(text)

    @staticmethod
    def _swing(job: _Job, outcomes: Outcomes) -> Swing | None:
        before, decision = job.before, job.decision
        if before is None or decision is None or before.outcomes is None:
            return None
        n = min(before.outcomes.count, outcomes.count)
        if n < MIN_SWING_ROLLOUTS:
            return None
        player, action, context = decision
        diff = differences(outcomes.share(0, player)[:n], before.outcomes.share(0, player)[:n])
        strata = outcomes.strata[:n] if outcomes.strata is not None else None
        se = standard_error(diff, strata)
        delta = mean(diff)
        return Swing(player, action, context, delta, se, n)

    def swing_text(self, game: Game, swing: Swing) -> dict[str, str]:
        """The log's swing line in both languages."""
        return {lang: swing_line(game, swing.action, swing.context, swing.delta, swing.se,
                                 lang) for lang in ("en", "nl")}


MAX_HOLD = 3600.0  # seconds: a hold is a pause for a click, not a switch


def check_hold(seconds: object) -> float:
    if (isinstance(seconds, bool) or not isinstance(seconds, numbers.Real)
            or not 0 <= float(seconds) <= MAX_HOLD):
        raise RolloutError(f"hold takes seconds from 0 to {MAX_HOLD:g}, not {seconds!r}")
    return float(seconds)


def _wake(lock: threading.Condition) -> None:
    """An estimator was collected: its worker, waiting for work, looks again and ends."""
    with lock:
        lock.notify_all()


def _work(ref: weakref.ReferenceType[LiveEstimator], lock: threading.Condition) -> None:
    """The worker thread: refine the estimator's job batch by batch. It holds the estimator
    only while it plays a batch, so an estimator dropped without close() is collected and
    its worker ends (see ``_wake``)."""
    while True:
        with lock:
            while True:
                owner = ref()
                if owner is None or owner._closed:
                    return
                job = owner._take()
                if job is not None:
                    break
                del owner  # not held while waiting
                lock.wait()
        try:
            owner._step(job)
        except Exception as exc:  # never let the worker die: report, drop the position
            owner._failed(job, exc)
        del owner, job


__all__ = ["LiveEstimator", "Estimate", "Swing", "BATCH"]
