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

Bots given by name (``"strong"``, ...) only: a bot class defined in a notebook cannot be
imported by a fresh process, so :func:`live_estimator` picks the thread for those.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, Literal

from ..engine.actions import Action
from ..engine.game import Game
from ..engine.records.savefile import encode_actions
from .live import BATCH, Estimate, LiveEstimator, Swing
from .runner import DEFAULT_MAX_TURNS, AtCap, BotSpec, position_record

Worker = Literal["auto", "thread", "process"]


def live_estimator(*, worker: Worker = "auto", budget: int = 1000,
                   bots: BotSpec | Sequence[BotSpec] = "strong", seed: int = 0,
                   max_turns: int = DEFAULT_MAX_TURNS, at_cap: AtCap = "apart",
                   batch: int = BATCH, on_update: Callable[[Estimate], None] | None = None
                   ) -> LiveEstimator:
    """A :class:`LiveEstimator` in a worker thread or (``"auto"``: where it can) a process."""
    if worker not in ("auto", "thread", "process"):
        raise ValueError(f"worker is 'auto', 'thread' or 'process', not {worker!r}")
    settings: dict[str, Any] = dict(budget=budget, bots=bots, seed=seed, max_turns=max_turns,
                                    at_cap=at_cap, batch=batch, on_update=on_update)
    by_name = isinstance(bots, str) or (isinstance(bots, Sequence)
                                        and all(isinstance(b, str) for b in bots))
    if worker == "process" and not by_name:
        raise ValueError("a process plays bots given by name only (a class defined in a "
                         "notebook cannot be imported there): use worker='thread'")
    if worker == "process" or (worker == "auto" and by_name and processes_available()):
        return ProcessLiveEstimator(**settings)
    return LiveEstimator(**settings)


def processes_available() -> bool:
    """A POSIX system (the child's pipes are passed as descriptors), not a browser (Pyodide
    has no processes)."""
    return os.name == "posix" and sys.platform != "emscripten"


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
        self._send_lock = threading.Lock()
        self._sent: _Sent | None = None
        # A fresh interpreter, started as a module of its own: not multiprocessing's fork (the
        # kernel's threads and their locks would be copied) nor its spawn (which runs a
        # script's main module again in the child: a plain script would start its game twice).
        down_r, down_w = os.pipe()  # owner -> child
        up_r, up_w = os.pipe()  # child -> owner
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-m", "ugentopoly_widget.rollouts.live_child", str(down_r),
                 str(up_w)], pass_fds=(down_r, up_w), stdin=subprocess.DEVNULL, env=env)
        finally:
            os.close(down_r)
            os.close(up_w)
        self._out = Connection(down_w, readable=False)
        self._in = Connection(up_r, writable=False)
        self._send(("settings", dict(budget=self.budget, bots=self.bots, seed=self.seed,
                                     max_turns=self.max_turns, at_cap=self.at_cap,
                                     batch=self.batch)))
        self._thread = threading.Thread(target=self._read, name="win-chances-reader",
                                        daemon=True)
        self._thread.start()

    @property
    def pid(self) -> int:
        """The child process's id."""
        return self._process.pid

    def is_alive(self) -> bool:
        return self._process.poll() is None

    # ------------------------------------------------------------------ the owner's side

    def update(self, game: Game, *, decision: tuple[int, Action, Mapping[str, Any]] | None
               = None, tag: Any = None) -> None:
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

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._sent = None
            self._lock.notify_all()
        self._send(("close",))
        try:
            self._process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait(timeout=5)
        self._out.close()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=10)
        self._thread = None

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
        self._send(("hold", max(0.0, float(seconds))))  # read at once by the child's main

    def _send(self, message: tuple[Any, ...]) -> None:
        with self._send_lock:
            try:
                self._out.send(message)
            except (OSError, ValueError) as exc:  # the child is gone (or closed)
                if not self._closed:
                    self.errors.append(f"the rollout process is gone: {exc}")

    # ------------------------------------------------------------------ the reader thread

    def _read(self) -> None:
        while True:
            try:
                message = self._in.recv()
            except (EOFError, OSError):
                if not self._closed:
                    self.errors.append("the rollout process ended")
                    with self._lock:
                        self._sent = None
                        self._lock.notify_all()
                self._in.close()
                return
            kind = message[0]
            if kind == "estimate":
                self._received(*message[1:])
            elif kind == "error":
                self.errors.append(message[1])
            elif kind == "resync":  # the child could not follow: the whole record next time
                with self._lock:
                    if self._sent is not None and self._sent.generation == message[1]:
                        self._sent.game = -1

    def _received(self, generation: int, turn: int, rollouts: int, done: bool,
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
        if self.on_update is not None:
            try:
                self.on_update(estimate)
            except Exception as exc:  # the receiver's fault: keep estimating
                self.errors.append(f"on_update: {type(exc).__name__}: {exc}")


__all__ = ["live_estimator", "ProcessLiveEstimator", "processes_available", "Worker"]
