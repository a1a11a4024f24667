"""The live estimate in a process of its own: what a widget uses, so that a click never waits.

A worker *thread* shares the interpreter lock with the kernel: the compiled rollouts hold it
for whole rollouts, and each time the kernel's threads want it back (to read a click, to send
the new state, to flush the message) they wait for the switch interval, about 5 ms, several
times per click. A process has a lock of its own (and a lower CPU priority, so the browser and
the kernel go first on a busy machine), and the game's thread pays only for sending the new
actions down a pipe (tens of microseconds; the whole record only for a new game, an undo or a
testing step).

The child process rebuilds the position from the record and the actions since, and runs a
thread :class:`~ugentopoly_widget.rollouts.live.LiveEstimator` there; its estimates come back
over the pipe, read by a thread of the owner that hands them on (``on_update``) as the thread
estimator does. The figures are the same: rollout *k* depends on (seed, k) alone.

Stopping never waits for the child: ``close(wait=False)`` (a widget's switch) tells it to stop
its rollouts and keeps it warm for the next estimator made within ``SPARE_SECONDS`` (a fresh
interpreter takes most of a second to import numpy and the engine); the reader thread ends it
after that, or when it is told to close. An estimator dropped without ``close()`` closes its
child when it is collected, and a child whose owner process is gone ends by itself (its pipe
closes).

Bots given by name (``"strong"``, ...) only: a bot class defined in a notebook cannot be
imported by a fresh process, so :func:`live_estimator` picks the thread for those.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, Literal

from ..engine.actions import Action
from ..engine.game import Game
from ..engine.records.savefile import encode_actions
from .errors import RolloutError
from .live import BATCH, Estimate, LiveEstimator, Swing, check_hold
from .runner import DEFAULT_MAX_TURNS, AtCap, BotSpec, position_record

Worker = Literal["auto", "thread", "process"]
SPARE_SECONDS = 30.0  # a child stopped by close(wait=False) waits this long for a new owner
KILL_SECONDS = 5.0  # a child told to close that has not ended by then is killed


def live_estimator(*, worker: Worker = "auto", budget: int = 1000,
                   bots: BotSpec | Sequence[BotSpec] = "strong", seed: int = 0,
                   max_turns: int = DEFAULT_MAX_TURNS, at_cap: AtCap = "apart",
                   batch: int = BATCH, on_update: Callable[[Estimate], None] | None = None,
                   on_error: Callable[[str], None] | None = None) -> LiveEstimator:
    """A :class:`LiveEstimator` in a worker thread or (``"auto"``: where it can) a process.
    Bad settings raise :class:`RolloutError` (a ``ValueError``), whichever the worker."""
    if not isinstance(worker, str) or worker not in ("auto", "thread", "process"):
        raise RolloutError(f"worker is 'auto', 'thread' or 'process', not {worker!r}")
    settings: dict[str, Any] = dict(budget=budget, bots=bots, seed=seed, max_turns=max_turns,
                                    at_cap=at_cap, batch=batch, on_update=on_update,
                                    on_error=on_error)
    if worker == "process" and not by_name(bots):
        raise RolloutError("a process plays bots given by name only (a class defined in a "
                           "notebook cannot be imported there): use worker='thread'")
    if worker == "process" or (worker == "auto" and by_name(bots) and processes_available()):
        return ProcessLiveEstimator(**settings)
    return LiveEstimator(**settings)


def by_name(bots: object) -> bool:
    """Bots a fresh process can make: a name, or a list of names."""
    return isinstance(bots, str) or (isinstance(bots, (list, tuple))
                                     and all(isinstance(b, str) for b in bots))


def processes_available() -> bool:
    """A POSIX system (the child's pipes are passed as descriptors), not a browser (Pyodide
    has no processes)."""
    return os.name == "posix" and sys.platform != "emscripten"


# ---------------------------------------------------------------------- the child process


class _Child:
    """One ``live_child`` process: its pipes, the thread that reads what it sends (and ends it
    when its time is up), and the estimator it now works for (a weak reference; none while it
    is parked as the spare)."""

    def __init__(self) -> None:
        # A fresh interpreter, started as a module of its own: not multiprocessing's fork (the
        # kernel's threads and their locks would be copied) nor its spawn (which runs a
        # script's main module again in the child: a plain script would start its game twice).
        down_r, down_w = os.pipe()  # owner -> child
        up_r, up_w = os.pipe()  # child -> owner
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "ugentopoly_widget.rollouts.live_child", str(down_r),
                 str(up_w)], pass_fds=(down_r, up_w), stdin=subprocess.DEVNULL, env=env)
        except BaseException:
            os.close(down_w)
            os.close(up_r)
            raise
        finally:
            os.close(down_r)
            os.close(up_w)
        self.out = Connection(down_w, readable=False)
        self.inp = Connection(up_r, writable=False)
        self.home = os.getpid()  # a forked copy of this object (another pid) never talks to it
        self.owner: weakref.ReferenceType[ProcessLiveEstimator] | None = None
        self.generation = 0  # the last position number an owner gave it (the next go on)
        self.parked_until: float | None = None  # while the spare: when it is ended
        self.closing: float | None = None  # when it was told to close
        self._send_lock = threading.Lock()
        self.reader = threading.Thread(target=_read, args=(self,), name="win-chances-reader",
                                       daemon=True)
        self.reader.start()

    def send(self, message: tuple[Any, ...]) -> str | None:
        """Send a message; what went wrong, or None."""
        if os.getpid() != self.home:
            return "the rollout process belongs to the process this one was forked from"
        with self._send_lock:
            try:
                self.out.send(message)
            except (OSError, ValueError) as exc:  # the child is gone (or its pipe closed)
                return str(exc) or type(exc).__name__
        return None

    def usable(self) -> bool:
        return self.closing is None and self.process.poll() is None

    def close(self, wait: bool = False) -> None:
        """Tell the process to end (killed after KILL_SECONDS); the reader thread reaps it.
        ``wait``: until both have ended. Again: nothing more (or only the wait)."""
        if os.getpid() != self.home:
            return  # a forked copy (a worker, a test's child): the child is its parent's
        if self.closing is None:
            self.closing = time.monotonic()
            self.owner = None
            self.send(("close",))
        if wait and self.reader is not threading.current_thread():
            self.reader.join(timeout=2 * KILL_SECONDS + 5)

    def _reap(self) -> None:
        """In the reader, at the end: the process waited for (killed if it lingers)."""
        try:
            self.process.wait(timeout=KILL_SECONDS)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=KILL_SECONDS)
        with self._send_lock:
            self.out.close()
        self.inp.close()


def _read(child: _Child) -> None:
    """The reader thread: hand each message to the child's owner; end a spare whose time is
    up and a child told to close that does not end; reap the process when its pipe closes."""
    while True:
        try:
            deadline = child.parked_until
            if child.closing is not None:
                deadline = child.closing + KILL_SECONDS
            # (a bounded wait: a deadline set meanwhile, by another thread, is seen within 1 s)
            rest = 1.0 if deadline is None else deadline - time.monotonic()
            if not child.inp.poll(min(max(rest, 0.0), 1.0)):
                if deadline is not None and rest <= 0:
                    if child.closing is not None:  # told to close, still there: end it
                        child.process.kill()
                        child.closing = math.inf
                    else:
                        _expire(child)
                continue
            message = child.inp.recv()
        except (EOFError, OSError):
            break
        except Exception as exc:  # a message that cannot be read: say so, read on
            message = ("error", f"win chances: a message from the rollout process could not "
                                f"be read ({type(exc).__name__}: {exc})")
        owner = child.owner() if child.owner is not None else None
        if owner is not None:
            owner._received(message)
        del owner
    owner = child.owner() if child.owner is not None else None
    if owner is not None:
        owner._gone()
    del owner
    _forget_spare(child)
    child._reap()


# ---------------------------------------------------------------------- the warm spare

_spare_lock = threading.Lock()
_spare: _Child | None = None


def _after_fork_in_child() -> None:
    # A forked process (a simulation's worker, a test's child) shares the parent's pipes but
    # not its threads: the parent's spare is not its to use.
    global _spare, _spare_lock
    _spare = None
    _spare_lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def _park(child: _Child) -> None:
    """Keep `child` (its rollouts stopped) for the next estimator, for SPARE_SECONDS; the
    spare kept before is ended."""
    global _spare
    with _spare_lock:
        old, _spare = _spare, child
        child.parked_until = time.monotonic() + SPARE_SECONDS
    if old is not None and old is not child:
        old.close()


def _take_spare() -> _Child | None:
    global _spare
    with _spare_lock:
        child, _spare = _spare, None
        if child is not None:
            child.parked_until = None
    if child is not None and not child.usable():
        child.close()
        return None
    return child


def _expire(child: _Child) -> None:
    """In the reader: the spare's time is up (unless it was taken meanwhile)."""
    global _spare
    with _spare_lock:
        if _spare is not child:
            return
        _spare = None
        child.parked_until = None
    child.close()


def _forget_spare(child: _Child) -> None:
    global _spare
    with _spare_lock:
        if _spare is child:
            _spare = None


def discard_spare(wait: bool = True) -> None:
    """End the warm process kept by the last ``close(wait=False)``, if any (``wait``: until
    it has ended). For scripts and tests that want nothing left running now; otherwise it
    ends by itself after SPARE_SECONDS, or with this process."""
    global _spare
    with _spare_lock:
        child, _spare = _spare, None
    if child is not None:
        child.parked_until = None
        child.close(wait=wait)


def spare_pid() -> int | None:
    """The warm process's id, if one is kept."""
    with _spare_lock:
        return _spare.process.pid if _spare is not None else None


# ---------------------------------------------------------------------- the estimator


@dataclass
class _Sent:
    """What the child holds: which game, how many of its actions, its testing steps, the last
    action sent (an undo and another action leave the count alone, not the object)."""

    game: int
    actions: int
    injections: int
    last: Action | None
    generation: int
    tag: Any
    names: list[str]
    decision: tuple[int, Action, dict[str, Any]] | None


class ProcessLiveEstimator(LiveEstimator):
    """A :class:`LiveEstimator` whose rollouts run in a child process (see the module)."""

    def __init__(self, **settings: Any) -> None:
        super().__init__(**settings)
        if not by_name(self.bots):
            raise RolloutError("a process plays bots given by name only (a class defined in a "
                               "notebook cannot be imported there): use a LiveEstimator")
        self._sent: _Sent | None = None
        self._failed_process = False
        child = _take_spare()
        if child is None:
            try:
                child = _Child()
            except OSError as exc:
                raise RolloutError(f"the rollout process cannot start: {exc}") from None
        self._child = child
        self._generation = child.generation  # a spare's old figures stay told apart
        child.owner = weakref.ref(self)
        self._send(("settings", dict(budget=self.budget, bots=self.bots, seed=self.seed,
                                     max_turns=self.max_turns, at_cap=self.at_cap,
                                     batch=self.batch)))
        # dropped without close(): the child is closed when this object is collected
        self._child_finalizer = weakref.finalize(self, child.close)

    @property
    def pid(self) -> int:
        """The child process's id."""
        return self._child.process.pid

    def is_alive(self) -> bool:
        """Whether the child process runs (a spare after ``close(wait=False)`` does)."""
        return self._child.process.poll() is None

    @property
    def failed(self) -> bool:
        """The child process ended unasked: this estimator cannot go on."""
        return self._failed_process

    # ------------------------------------------------------------------ the owner's side

    def update(self, game: Game, *, decision: tuple[int, Action, Mapping[str, Any]] | None
               = None, tag: Any = None) -> None:
        if not isinstance(game, Game):
            raise RolloutError(f"update takes a Game, not {type(game).__name__}")
        self._lineup.fit(len(game.players))  # RolloutError, as in a thread: bots that do not fit
        if game.is_over:
            self.cancel()
            return
        actions = game._actions
        with self._lock:
            if self._closed:
                return
            self._generation += 1
            generation = self._generation
            self._latest = None
            previous = self._sent
            if previous is not None:
                previous.decision = None
            self._sent = sent = _Sent(
                id(game), len(actions), len(game._injections), actions[-1] if actions else None,
                generation, tag, [p.name for p in game.players],
                (decision[0], decision[1], dict(decision[2])) if decision is not None else None)
            self._lock.notify_all()
        wire_decision = (None if decision is None else
                         (decision[0], decision[1].to_dict(), dict(decision[2])))
        if (previous is not None and previous.game == sent.game
                and previous.injections == sent.injections
                and previous.actions <= sent.actions
                and (previous.actions == 0 or actions[previous.actions - 1] is previous.last)):
            message: tuple[Any, ...] = (
                "more", generation, encode_actions(actions[previous.actions:]),
                game.event_count, wire_decision)
        else:
            message = ("game", generation, position_record(game), game.event_count,
                       wire_decision)
        self._send(message)

    def cancel(self) -> None:
        super().cancel()
        self._send(("cancel",))

    def _forget(self) -> None:
        self._sent = None

    def close(self, *, wait: bool = True) -> None:
        """Stop estimating. ``wait=True``: the child process is ended and waited for.
        ``wait=False`` returns at once: the child stops its rollouts and is kept warm for the
        next estimator made within SPARE_SECONDS, then ended. Closing again does nothing
        (but wait, if asked)."""
        with self._lock:
            first = not self._closed
            self._closed = True
            self._sent = None
            self._lock.notify_all()
        child = self._child
        if not first:
            if wait:
                child.close(wait=True)
            return
        self._finalizer.detach()
        self._child_finalizer.detach()
        child.owner = None
        child.generation = self.generation
        if not wait and child.usable() and child.send(("cancel",)) is None:
            _park(child)
        else:
            child.close(wait=wait)

    def wait(self, timeout: float | None = None) -> Estimate | None:
        with self._lock:
            self._lock.wait_for(
                lambda: self._sent is None or self._closed or (
                    self._latest is not None and self._latest.done
                    and self._latest.generation == self._sent.generation),
                timeout)
            return self._latest

    def hold(self, seconds: float) -> None:
        super().hold(seconds)  # (kept here too: when the owner asked the child to rest)
        self._send(("hold", check_hold(seconds)))  # read at once by the child's main thread

    def _send(self, message: tuple[Any, ...]) -> None:
        problem = self._child.send(message)
        if problem is not None and not self._closed:
            self.errors.append(f"the rollout process is gone: {problem}")

    # ------------------------------------------------------------------ the reader thread

    def _received(self, message: tuple[Any, ...]) -> None:
        """A message from the child (in its reader thread)."""
        kind = message[0]
        if kind == "estimate":
            self._estimated(*message[1:])
        elif kind == "error":
            self.errors.append(message[1])
        elif kind == "failed":  # a batch raised: the position is dropped there
            self._report_failure(message[1])
        elif kind == "resync":  # the child could not follow: the whole record next time
            with self._lock:
                if self._sent is not None and self._sent.generation == message[1]:
                    self._sent.game = -1

    def _gone(self) -> None:
        """The child's pipe closed without being asked: nothing more will come."""
        with self._lock:
            if self._closed:
                return
            self._failed_process = True
            self._sent = None
            self._lock.notify_all()
        self._report_failure(f"the rollout process ended (exit code "
                             f"{self._child.process.poll()})")

    def _estimated(self, generation: int, turn: int, rollouts: int, done: bool,
                   figures: dict[str, Any], swing: tuple[int, float, float, int] | None
                   ) -> None:
        with self._lock:
            sent = self._sent
            if sent is None or sent.generation != generation:
                return  # of a position left behind
            told = None
            if swing is not None and sent.decision is not None:
                player, action, context = sent.decision
                told = Swing(player, action, context, swing[1], swing[2], swing[3])
            estimate = Estimate(generation, turn, rollouts, self.budget, done, figures,
                                sent.names, told, sent.tag)
            self._latest = estimate
            self._lock.notify_all()
        self._deliver(estimate)


__all__ = ["live_estimator", "ProcessLiveEstimator", "processes_available", "Worker",
           "discard_spare", "spare_pid", "SPARE_SECONDS", "by_name"]
