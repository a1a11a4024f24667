"""Running chunks: in this process, on a process pool, on any concurrent.futures executor, or
on a Dask cluster. Faults stay local: a game that raises is a failure row (in the worker); a
worker process that dies costs its chunk one retry; Ctrl-C returns what finished.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import threading
import traceback
import warnings
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from ..engine.errors import SetupError
from .seeding import game_seed
from .settings import Settings, is_dask_client
from .worker import ChunkResult, Row, run_chunk

Chunk = tuple[int, int]
ProgressCallback = Callable[[int, int], None]


@dataclass
class Outcome:
    """Everything the executors hand back to :func:`simulate`."""

    chunks: list[ChunkResult] = field(default_factory=list)
    lost: list[Row] = field(default_factory=list)  # failure rows of games whose chunk was lost
    interrupted: bool = False
    executor: str = "serial"
    workers: int = 1
    retried: int = 0  # chunks run a second time after a worker died
    # Applied to every chunk as it arrives (results.compact: rows to small DataFrames), so a
    # long run holds compact columns, never millions of tuples.
    compact: Callable[[ChunkResult], ChunkResult] = lambda result: result

    def add(self, result: ChunkResult) -> None:
        self.chunks.append(self.compact(result))


def default_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


# Worker processes beyond a few per core only cost memory and start-up (games and rollouts are
# CPU bound); a pool of them is capped there, and at the number of chunks (idle otherwise).
WORKERS_PER_CORE = 4


class SimulationWarning(UserWarning):
    """A run's setting was adjusted (a worker count capped at what helps); the message says
    what and why."""


def useful_workers(asked: int, games: int, chunk_size: int | None, cores: int,
                   told: bool, stacklevel: int = 3) -> int:
    """`asked` capped at what can help: the chunks there are (`games` in chunks of
    `chunk_size`), and WORKERS_PER_CORE per core; a cap below what the caller gave explicitly
    (`told`) is said in a SimulationWarning (`stacklevel`: at the public call's caller)."""
    chunks = -(-games // chunk_size) if chunk_size else games
    cap = max(1, min(chunks, WORKERS_PER_CORE * cores))
    if asked <= cap:
        return asked
    if told:
        why = (f"{chunks} chunk{'s' if chunks != 1 else ''}" if chunks <= WORKERS_PER_CORE * cores
               else f"{WORKERS_PER_CORE} per core ({cores} cores)")
        warnings.warn(f"workers={asked:,} capped at {cap}: more workers than {why} do not "
                      "make the run faster", SimulationWarning, stacklevel=stacklevel)
    return cap


@dataclass(frozen=True)
class ChunkPlan:
    """The chunks of a run, made one at a time as the executors take them: the plan of a
    run of ten million games is two numbers, not a list of a hundred thousand ranges."""

    games: int
    size: int

    def __len__(self) -> int:
        return -(-self.games // self.size)

    def __iter__(self) -> Iterator[Chunk]:
        size, games = self.size, self.games
        for start in range(0, games, size):
            yield start, min(start + size, games)


def chunks_of(games: int, chunk_size: int) -> ChunkPlan:
    return ChunkPlan(games, chunk_size)


def default_chunk_size(games: int, workers: int) -> int:
    """About eight chunks per worker (the last ones balance the load), at most 100 games each
    (a progress bar that moves, little lost when a worker dies)."""
    return max(1, min(100, -(-games // (workers * 8))))


class _Progress:
    """Counts finished games: a tqdm bar (notebook or terminal), a callback, or nothing."""

    def __init__(self, total: int, progress: bool | ProgressCallback, label: str) -> None:
        self.total = total
        self.done = 0
        self.callback: ProgressCallback | None = None
        self.bar: Any = None
        if callable(progress):
            self.callback = progress
        elif progress:
            from tqdm.auto import tqdm

            self.bar = tqdm(total=total, unit="game", desc=label, smoothing=0.1)

    def update(self, count: int) -> None:
        self.done += count
        if self.bar is not None:
            self.bar.update(count)
        if self.callback is not None:
            self.callback(self.done, self.total)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _lost(settings: Settings, seed: int, chunk: Chunk, why: str, detail: str) -> list[Row]:
    return [(i, game_seed(seed, i), why, detail) for i in range(chunk[0], chunk[1])]


PR_SET_PDEATHSIG = 1  # linux/prctl.h


def _worker_init(parent: int) -> None:
    # Ctrl-C in a terminal reaches the whole process group: the parent decides what stops.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A parent that is killed (kill -9, a kernel restarted) cannot stop its pool: the workers
    # would live on with parent 1, blocked on a queue whose other end they hold themselves.
    # Linux ends them with it (the pool is made and used by one thread of the parent, the
    # one whose end the kernel watches: a simulate() or rollouts call).
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):  # pragma: no cover - no prctl: as before
            return
        if os.getppid() != parent:  # it died before the prctl took hold
            os._exit(1)


def _mp_context() -> Any:
    # fork on Linux: bots defined in a notebook or a script's __main__ reach the workers as
    # they are (spawned workers would have to import them from a module).
    if sys.platform.startswith("linux"):
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


def new_process_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of `workers` forked processes, started now, that ignore Ctrl-C (the caller
    stops them with :func:`stop_pool`) and end with the thread that made them."""
    pool = ProcessPoolExecutor(workers, mp_context=_mp_context(), initializer=_worker_init,
                               initargs=(os.getpid(),))
    # A Ctrl-C between a fork and the pool's note of the new process would leave a worker
    # nobody can stop: the processes start (at the first submit, with fork) with the press
    # put off until they are all known, then stopped with the pool.
    with _interrupt_deferred() as pressed:
        pool.submit(int)
    if pressed:
        stop_pool(pool, owned=True)
        raise KeyboardInterrupt
    return pool


@contextlib.contextmanager
def _interrupt_deferred() -> Iterator[list[int]]:
    """In the main thread: a SIGINT while the block runs is noted (the list), not raised."""
    pressed: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield pressed  # (Python raises KeyboardInterrupt in the main thread only)
        return
    previous = signal.getsignal(signal.SIGINT)
    if not callable(previous):  # ignored, or the default (not Python's): leave it so
        yield pressed
        return
    signal.signal(signal.SIGINT, lambda signum, frame: pressed.append(signum))
    try:
        yield pressed
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def presses_absorbed_once_stopped(out: Outcome) -> Iterator[None]:
    """In the main thread: Ctrl-C raises KeyboardInterrupt as usual until the run has taken
    one (``out.interrupted``); the presses after that, while the pool is stopped and the
    results are put together (seconds on a busy machine), are dropped, so a person who
    presses again still gets the games played so far. A press before then still raises
    (one swallowed in a weakref callback must not leave the run unstoppable)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)
    if not callable(previous):  # ignored, or the default (not Python's): leave it so
        yield
        return
    handler = previous  # (bound here: mypy keeps the narrowing in the closure)

    def on_press(signum: int, frame: Any) -> None:
        if not out.interrupted:
            handler(signum, frame)

    signal.signal(signal.SIGINT, on_press)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def stop_pool(pool: Executor, owned: bool) -> None:
    """Stop `pool` now, without waiting for the chunks in progress: a pool we made (`owned`)
    has its processes terminated; any other executor only loses the work not yet started."""
    # (shutdown() forgets its processes, so take them first; Python < 3.14 has no public way
    # to terminate them)
    processes = list((getattr(pool, "_processes", None) or {}).values()) if owned else []
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(5)


def run_serial(settings: Settings, seed: int, chunks: Iterable[Chunk], progress: _Progress,
               out: Outcome) -> Outcome:
    try:
        for start, stop in chunks:
            result = run_chunk(settings, seed, start, stop)
            out.add(result)
            if result.interrupted:
                out.interrupted = True
                break
            progress.update(result.done)
    except KeyboardInterrupt:
        out.interrupted = True
    return out


def run_futures(
    settings: Settings,
    seed: int,
    chunks: Iterable[Chunk],
    progress: _Progress,
    pool: Executor,
    workers: int,
    owned: bool,
    out: Outcome,
) -> Outcome:
    """Chunks on a concurrent.futures executor, `workers` + 1 in flight. When a process
    dies, the chunks in flight are run again one at a time on a fresh single process (the one
    that kills its process dies alone and is reported lost); then the run goes on."""
    out.executor = "processes" if owned else type(pool).__name__
    out.workers = workers
    plan = iter(chunks)
    again: list[Chunk] = []  # taken from the plan, not yet submitted (the pool broke)
    in_flight: dict[Future[ChunkResult], Chunk] = {}

    def next_chunk() -> Chunk | None:
        return again.pop() if again else next(plan, None)

    def take(future: Future[ChunkResult], chunk: Chunk, suspects: list[Chunk]) -> None:
        try:
            result = future.result()
        except BrokenProcessPool:
            suspects.append(chunk)
            return
        except Exception as exc:  # the chunk could not even be sent or run
            out.lost += _lost(settings, seed, chunk, f"{type(exc).__name__}: {exc}",
                              traceback.format_exc())
            progress.update(chunk[1] - chunk[0])
            return
        out.add(result)
        progress.update(result.done)

    try:
        while True:
            broken = False
            while len(in_flight) < workers + 1:  # one queued: no idle worker
                chunk = next_chunk()
                if chunk is None:
                    break
                try:
                    in_flight[pool.submit(run_chunk, settings, seed, *chunk)] = chunk
                except BrokenProcessPool:  # a process died since the last look
                    again.append(chunk)
                    broken = True
                    break
            if not in_flight and not broken:
                break
            suspects: list[Chunk] = []
            if not broken:
                done, _ = wait(in_flight, return_when=FIRST_COMPLETED)
                for future in done:
                    take(future, in_flight.pop(future), suspects)
            if not suspects and not broken:
                continue
            if not owned:  # not ours to restart: what it held is lost
                for chunk in suspects:
                    out.lost += _lost(settings, seed, chunk, "BrokenProcessPool: a worker of "
                                      "the executor died; it cannot be restarted", "")
                raise BrokenProcessPool("a worker of the executor died; it cannot be restarted")
            wait(in_flight)  # a broken pool fails every future it holds
            for future, chunk in in_flight.items():
                take(future, chunk, suspects)
            in_flight.clear()
            stop_pool(pool, owned)
            out.retried += len(suspects)
            _retry_alone(settings, seed, sorted(suspects), progress, out)
            pool = new_process_pool(workers)
    except KeyboardInterrupt:
        out.interrupted = True
        for future in in_flight:
            if future.done() and not future.cancelled() and future.exception() is None:
                out.add(future.result())
            else:
                future.cancel()  # an executor that is not ours keeps running its other work
        in_flight.clear()
    except BrokenProcessPool as exc:
        for chunk in [*in_flight.values(), *again, *plan]:
            out.lost += _lost(settings, seed, chunk, f"BrokenProcessPool: {exc}", "")
    finally:
        if owned:
            stop_pool(pool, owned)
    return out


def _retry_alone(settings: Settings, seed: int, suspects: Iterable[Chunk], progress: _Progress,
                 out: Outcome) -> None:
    solo: ProcessPoolExecutor | None = None
    try:
        for chunk in suspects:
            if solo is None:
                solo = new_process_pool(1)
            try:
                result = solo.submit(run_chunk, settings, seed, *chunk).result()
            except BrokenProcessPool:
                out.lost += _lost(settings, seed, chunk, "WorkerDied: the worker process died "
                                  "twice on this chunk (retried once)", "")
                progress.update(chunk[1] - chunk[0])
                solo.shutdown(wait=False)
                solo = None
                continue
            out.add(result)
            progress.update(result.done)
    finally:
        if solo is not None:
            stop_pool(solo, True)


def run_dask(settings: Settings, seed: int, chunks: Iterable[Chunk], progress: _Progress,
             client: Any, out: Outcome) -> Outcome:
    """Chunks as Dask tasks: each task is the settings and a chunk's first and last game
    number, each result a ChunkResult. The scheduler reruns the tasks of a worker
    that died (up to ``distributed.scheduler.allowed-failures``); a chunk that still comes back
    KilledWorker (it may have been a bystander on the dying worker) is retried once more alone,
    so only the chunk that kills its worker is lost."""
    try:
        from distributed import as_completed
    except ImportError:  # pragma: no cover - a Client implies distributed
        raise SetupError("pip install ugentopoly_widget[dask]") from None
    workers = sum(client.nthreads().values()) or 1
    out.executor, out.workers = "dask", workers

    def submit(chunk: Chunk) -> Any:
        # The settings travel with each task (a bundled board is a name: a few hundred bytes).
        # Scattered once instead, they would be lost with the workers that held them.
        return client.submit(run_chunk, settings, seed, *chunk, pure=False, retries=1)

    def take(future: Any, chunk: Chunk, suspects: list[Chunk] | None) -> None:
        try:
            result = future.result()
        except Exception as exc:
            if suspects is not None and type(exc).__name__ == "KilledWorker":
                suspects.append(chunk)
                return
            out.lost += _lost(settings, seed, chunk, f"{type(exc).__name__}: {exc}",
                              traceback.format_exc())
            progress.update(chunk[1] - chunk[0])
            return
        out.add(result)
        progress.update(result.done)

    # A few tasks per worker thread in flight, topped up as they finish: the scheduler never
    # holds the whole run (ten million games are a hundred thousand tasks).
    plan = iter(chunks)
    futures: dict[Any, Chunk] = {}
    suspects: list[Chunk] = []
    running = as_completed()  # type: ignore[no-untyped-call]

    def top_up() -> None:
        while len(futures) < 2 * workers + 1:
            chunk = next(plan, None)
            if chunk is None:
                return
            future = submit(chunk)
            futures[future] = chunk
            running.add(future)  # type: ignore[no-untyped-call]

    try:
        top_up()
        for future in running:
            take(future, futures[future], suspects)
            del futures[future]
            top_up()
        out.retried = len(suspects)
        for chunk in sorted(suspects):
            retry = submit(chunk)
            futures[retry] = chunk
            take(retry, chunk, None)
            del futures[retry]
    except KeyboardInterrupt:
        out.interrupted = True
        client.cancel([f for f in futures if not f.done()])
    return out


__all__ = [
    "Outcome", "run_serial", "run_futures", "run_dask", "new_process_pool", "stop_pool",
    "presses_absorbed_once_stopped",
    "is_dask_client", "chunks_of", "default_chunk_size", "default_workers", "ChunkPlan",
    "useful_workers", "SimulationWarning", "WORKERS_PER_CORE",
]
