"""Rollouts where there are no threads: the browser site (Pyodide) runs one thread, the
kernel's, whose event loop also reads every click from the page. There the work is cut into
slices of at most ``SLICE_SECONDS`` (and one step: a few turns of a rollout,
``runner.STEP_TURNS``), each run as a callback of the event loop, so a click waiting between
two slices is read within a slice; the figures are those of a thread or a process (rollout
*k* depends on the seed and *k* alone, whatever the chunks).

- :class:`Sliced` runs a generator of steps (``yield`` between two steps) slice by slice,
  then hands its result to ``on_done`` (the trade dialog's Advice, ``trades.rating_steps``);
  :func:`finish` runs one to its end at once (a script, or the desk).
- :class:`SlicedExecutor` is the widget's analysis worker there: jobs (generators of steps,
  ``Analyser.update_steps``, ``roll_map_steps``) run one after another in slices.
- :class:`SlicedLiveEstimator` is the live estimate of the win bar: a
  :class:`~ugentopoly_widget.rollouts.live.LiveEstimator` whose worker is the event loop.

>>> from ugentopoly_widget import Game
>>> game = Game("classic", players=["Ann", "Bob"], seed=1)
>>> live = SlicedLiveEstimator(budget=36)   # no event loop here: wait() plays the slices
>>> live.update(game)
>>> live.wait().rollouts
36
"""

from __future__ import annotations

import asyncio
import concurrent.futures as cf
import sys
import time
from collections.abc import Callable, Generator
from typing import Any, Generic, TypeVar

from .live import LiveEstimator, _Job
from .runner import STEP_TURNS, Outcomes, rollout_steps

T = TypeVar("T")
Steps = Generator[None, None, T]

# A click's reply waits for the slice in progress: 25 ms plus one step at most (the win bar's
# and Advice's rollouts go by STEP_TURNS turns: a whole rollout of strong bots takes a few ms
# compiled, 30-100 ms in Pyodide's pure Python and up to 1.5 s; the analysis' playouts are a
# few turns).
SLICE_SECONDS = 0.025
# Between two slices the loop waits this long: a timer (setTimeout in Pyodide), not call_soon,
# whose callbacks Pyodide runs ahead of the page's messages (clicks waited 0.5-1.3 s behind
# slices of at most 0.37 s before; docs/lite.md).
GAP_SECONDS = 0.004


def threads_available() -> bool:
    """Whether a worker thread can run (not in Pyodide, whose ``Thread.start`` fails)."""
    return sys.platform != "emscripten"


def event_loop() -> asyncio.AbstractEventLoop | None:
    """The kernel's event loop: the running one, or Pyodide's (its loop is the browser's,
    always there, though a message handler called from JavaScript sees none running)."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        pass
    if sys.platform == "emscripten":
        return asyncio.get_event_loop_policy().get_event_loop()
    return None


def finish(steps: Steps[T]) -> T:
    """Every step of `steps` at once; its result."""
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            result: T = stop.value
            return result


class Sliced(Generic[T]):
    """`steps` run on `loop`, a slice of at most `seconds` per callback; its result goes to
    ``on_done``, an exception it raised to ``on_error``. :meth:`cancel` stops it before its
    next step. ``clock`` is the time the slices are measured by (a test's own)."""

    def __init__(self, steps: Steps[T], loop: asyncio.AbstractEventLoop, *,
                 on_done: Callable[[T], None], on_error: Callable[[BaseException], None],
                 seconds: float = SLICE_SECONDS,
                 clock: Callable[[], float] = time.monotonic,
                 held: Callable[[], float] | None = None) -> None:
        self.steps = steps
        self.loop = loop
        self.on_done = on_done
        self.on_error = on_error
        self.seconds = seconds
        self.clock = clock
        self.held = held  # seconds the next slice waits (a click being answered), or None
        self.cancelled = False
        self.slices = 0  # callbacks run so far
        self.longest = 0.0  # the longest slice's seconds (what a click may have waited)

    def start(self) -> Sliced[T]:
        rest = self.held() if self.held is not None else 0.0
        if rest > 0:
            self.loop.call_later(rest, self._slice)
        else:
            self.loop.call_soon(self._slice)
        return self

    def cancel(self) -> None:
        self.cancelled = True

    def _slice(self) -> None:
        if self.cancelled:
            self.steps.close()
            return
        rest = self.held() if self.held is not None else 0.0
        if rest > 0:  # a click is being answered: its reply first
            self.loop.call_later(rest, self._slice)
            return
        self.slices += 1
        started = time.monotonic()
        end = self.clock() + self.seconds
        try:
            while True:
                next(self.steps)
                if self.cancelled or self.clock() >= end:
                    break
        except StopIteration as stop:
            self.on_done(stop.value)
            return
        except Exception as exc:  # into on_error, never into the event loop
            self.on_error(exc)
            return
        finally:
            self.longest = max(self.longest, time.monotonic() - started)
        self.loop.call_later(GAP_SECONDS, self._slice)  # what waits (a click) goes first


class SlicedExecutor:
    """A one-worker executor (what the widget's analysis submits its jobs to) where there
    are no threads: ``submit(steps, *args)`` runs the generator ``steps(*args)`` in slices of
    `loop` (:class:`Sliced`) and returns a ``concurrent.futures.Future`` of its result. Jobs
    run one after another, in order (as on one worker). :meth:`hold` puts the next slice off
    (a click being answered). Without a loop (a script), a job runs to its end in
    ``submit``."""

    def __init__(self, loop: asyncio.AbstractEventLoop | None, *,
                 seconds: float = SLICE_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.loop = loop
        self.seconds = seconds
        self.clock = clock  # what the slices are measured by (a test's own)
        self._queue: list[tuple[Steps[Any], cf.Future[Any]]] = []
        self._running: tuple[Sliced[Any], cf.Future[Any]] | None = None
        self._hold_until = 0.0
        self._shut = False
        self._slices = 0  # of the jobs done
        self.longest = 0.0  # the longest slice so far, s

    @property
    def slices(self) -> int:
        """Slices played so far (the loop ran between every two)."""
        return self._slices + (self._running[0].slices if self._running is not None else 0)

    def submit(self, fn: Callable[..., Steps[Any]], /, *args: Any) -> cf.Future[Any]:
        if self._shut:
            raise RuntimeError("cannot schedule new futures after shutdown")
        future: cf.Future[Any] = cf.Future()
        future.set_running_or_notify_cancel()
        try:
            steps = fn(*args)
        except Exception as exc:  # bad input refused at once: as a worker reports it
            future.set_exception(exc)
            return future
        if self.loop is None:
            try:
                future.set_result(finish(steps))
            except Exception as exc:
                future.set_exception(exc)
            return future
        self._queue.append((steps, future))
        if self._running is None:
            self._next()
        return future

    def _next(self) -> None:
        if self._running is not None:
            self.longest = max(self.longest, self._running[0].longest)
            self._slices += self._running[0].slices
        self._running = None
        if not self._queue or self._shut or self.loop is None:
            return
        steps, future = self._queue.pop(0)

        def done(value: Any) -> None:
            future.set_result(value)
            self._next()

        def failed(exc: BaseException) -> None:
            future.set_exception(exc)
            self._next()

        sliced = Sliced(steps, self.loop, on_done=done, on_error=failed, seconds=self.seconds,
                        clock=self.clock, held=self.held)
        self._running = (sliced, future)
        sliced.start()

    def hold(self, seconds: float) -> None:
        self._hold_until = max(self._hold_until, time.monotonic() + seconds)

    def held(self) -> float:
        """Seconds the next slice still waits."""
        return max(0.0, self._hold_until - time.monotonic())

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop: the job in progress stops before its next step, the queued ones never
        start; their futures end cancelled."""
        self._shut = True
        jobs = ([self._running] if self._running is not None else []) + [
            (None, future) for _, future in self._queue]
        self._queue = []
        self._running = None
        for sliced, future in jobs:
            if sliced is not None:
                sliced.cancel()
            if not future.done():
                future.set_exception(cf.CancelledError())


class SlicedLiveEstimator(LiveEstimator):
    """A :class:`LiveEstimator` whose worker is the event loop: each slice plays rollouts of
    the current position for at most ``slice_seconds`` (then publishes what it has), and the
    next is scheduled after what waits on the loop. :meth:`hold` (a click being answered)
    puts the next slice off. Without a loop (a script), :meth:`wait` plays the slices."""

    def __init__(self, *, loop: asyncio.AbstractEventLoop | None = None,
                 slice_seconds: float = SLICE_SECONDS,
                 clock: Callable[[], float] = time.monotonic, **settings: Any) -> None:
        super().__init__(**settings)
        self.loop = loop if loop is not None else event_loop()
        self.slice_seconds = slice_seconds
        self.clock = clock
        self.slices = 0  # slices played so far (each ends with an estimate, if it played)
        self.longest = 0.0  # the longest slice's seconds (what a click may have waited)
        self._scheduled: asyncio.Handle | asyncio.TimerHandle | None = None
        self._deadline = 0.0
        self._first = False  # the slice's first step is still to come
        # the rollouts of the job in progress, cut into steps: kept from slice to slice
        self._rolling: tuple[_Job, Generator[Outcomes | None, None, None]] | None = None

    def _start_worker(self) -> None:
        self._schedule(0.0)

    def _schedule(self, delay: float) -> None:
        if self.loop is None or self._scheduled is not None or self.loop.is_closed():
            return
        self._scheduled = (self.loop.call_later(delay, self._slice) if delay > 0
                           else self.loop.call_soon(self._slice))

    def close(self, *, wait: bool = True) -> None:
        super().close(wait=False)  # no thread to wait for: the next slice sees it closed
        if self._scheduled is not None:
            self._scheduled.cancel()
            self._scheduled = None

    def _slice(self) -> None:
        """One slice of the current position's rollouts, then the next one scheduled."""
        self._scheduled = None
        if self._closed:
            return
        rest = self._hold.value - time.monotonic()
        if rest > 0:  # a click is being answered: its reply first
            self._schedule(rest)
            return
        if self._play_slice():
            self._schedule(GAP_SECONDS)

    def _play_slice(self) -> bool:
        """Rollouts until the slice's time is up; whether work is left."""
        with self._lock:
            job = self._take()
        if job is None:
            return False  # idle until the next update()
        self.slices += 1
        started = time.monotonic()
        self._deadline = self.clock() + self.slice_seconds
        self._first = True
        try:
            self._step(job)
        except Exception as exc:  # reported, the position dropped: as the thread does
            self._failed(job, exc)
        self.longest = max(self.longest, time.monotonic() - started)
        with self._lock:
            return self._take() is not None

    def _step(self, job: _Job) -> None:
        """The slice's share of `job`'s rollouts: steps of a few turns (runner.rollout_steps)
        until its time is up, the rollouts finished meanwhile published; a rollout not yet
        finished goes on in the next slice (a new position drops it)."""
        rolling = self._rolling
        if rolling is None or rolling[0] is not job:
            if rolling is not None:
                rolling[1].close()
            done = job.outcomes.count if job.outcomes is not None else 0
            rolling = self._rolling = (job, rollout_steps(job.position, job.plan, [[]], done,
                                                           self.budget, STEP_TURNS))
        played: list[Outcomes] = []
        while not self._interrupted(job):
            try:
                part = next(rolling[1])
            except StopIteration:
                self._rolling = None
                break
            except BaseException:  # (reported by _play_slice; the position is dropped)
                self._rolling = None
                raise
            if part is not None:
                played.append(part)
        if self._job is not job or self._closed:
            rolling[1].close()
            self._rolling = None
            return
        if played:
            self._publish(job, Outcomes.join(played))

    def _interrupted(self, job: _Job) -> bool:
        """Before each step: the position left behind, a hold (never a sleep: there is no
        other thread to wait for), or the slice's time up (after its first step)."""
        if self._job is not job or self._closed or self._hold.value > time.monotonic():
            return True
        first, self._first = self._first, False
        return not first and self.clock() >= self._deadline

    def wait(self, timeout: float | None = None) -> Any:
        """Play the slices here until the budget is reached (or `timeout` seconds): with one
        thread, nothing else would."""
        end = None if timeout is None else time.monotonic() + timeout
        while (end is None or time.monotonic() < end) and not self._closed:
            rest = self._hold.value - time.monotonic()
            if rest > 0:
                time.sleep(rest)
            if not self._play_slice():
                break
        return self.latest


__all__ = ["Sliced", "SlicedExecutor", "SlicedLiveEstimator", "finish", "event_loop",
           "threads_available", "SLICE_SECONDS", "GAP_SECONDS"]
