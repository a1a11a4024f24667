"""``simulate()``: many seeded games, on one core, every core or a Dask cluster, to a DataFrame.

>>> from ugentopoly_widget import simulate
>>> results = simulate(20, "classic", bots=["heuristic", "random"], seed=1, progress=False,
...                    options={"round_limit": 30})
>>> len(results.games), results.complete
(20, True)
"""

from __future__ import annotations

import os
import pickle
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from ..engine.boards.board import Board
from ..engine.errors import SetupError
from ..engine.integers import as_integer
from ..engine.rules import RulesProfile
from .executors import (
    Outcome,
    ProgressCallback,
    SimulationWarning,
    _Progress,
    chunks_of,
    default_chunk_size,
    default_workers,
    is_dask_client,
    new_process_pool,
    presses_absorbed_once_stopped,
    run_dask,
    run_futures,
    run_serial,
    useful_workers,
)
from .results import Results, compact
from .seeding import check_seed
from .settings import BotSpec, CollectSpec, Settings, check_workers, make_settings

DEFAULT_COLLECT: tuple[str, ...] = ("landings",)


# One row per game stays in memory (a few hundred bytes each): ten million games are a few
# GB of results and hours of play on a laptop. More is a mistake (or a run to split up).
MAX_GAMES = 10_000_000
"""The most games one run may ask for (see the comment above)."""


def check_games(games: object) -> int:
    whole = as_integer(games)
    if whole is None or whole <= 0:
        raise SetupError(f"games must be a positive integer, not {games!r}")
    if whole > MAX_GAMES:
        raise SetupError(f"games is at most {MAX_GAMES:,} per run, not {whole:,} (every game "
                         "keeps a row in memory: split the run, e.g. by seed)")
    return whole


def _check_picklable(settings: Settings) -> None:
    try:
        pickle.dumps(settings)
    except Exception as exc:
        raise SetupError(
            "the settings cannot be sent to worker processes (a bot factory made by a lambda "
            f"or inside a function?): define it at the top level of a module or notebook: {exc}"
        ) from None


def simulate(
    games: int,
    profile: str | RulesProfile = "ugentopoly",
    *,
    board: Board | str | os.PathLike[str] | None = None,
    players: int | Sequence[str] | None = None,
    bots: BotSpec | Sequence[BotSpec] = "heuristic",
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
    executor: None | str | Executor | Any = None,
    workers: int | None = None,
    chunk_size: int | None = None,
    progress: bool | ProgressCallback = True,
    collect: CollectSpec = DEFAULT_COLLECT,
    rotate_seats: bool = False,
    max_actions: int = 1_000_000,
) -> Results:
    """Play `games` seeded games with bots and return one row per game (``results.games``).

    - ``bots``: one per seat, a name (``"heuristic"``, ``"random"``) or a factory called as
      ``factory(seed=...)`` (a bot class, a ``functools.partial``); a single one fills every
      seat (``players`` seats, default 2). ``rotate_seats=True`` shifts the line-up by one seat
      each game, so every bot sits in every seat equally often.
    - ``options``: rules options of the profile; without ``turn_limit`` / ``round_limit``
      games end after 500 rounds (richest wins); ``{"round_limit": None}`` lifts that.
    - ``seed``: game *i* is seeded from (seed, i) alone: the same rows whatever the executor,
      worker count or chunk size.
    - ``executor``: ``None`` (this process), ``"processes"`` (a pool of ``workers`` processes,
      default every core), any ``concurrent.futures.Executor``, or a
      ``dask.distributed.Client``.
    - ``collect``: ``"landings"`` (per-tile counts over the run, per ``"roll"`` or ``"turn"``),
      ``"net_worth"`` (every N rounds, long format), ``"events"`` (of the first K games); as
      names, or a mapping to the parameter: ``{"net_worth": 10, "events": 3}``.
    - ``progress``: a tqdm bar (notebook or terminal), ``False``, or ``callback(done, total)``.

    Bad input raises :class:`~ugentopoly_widget.SetupError` before any game is played (games
    above ``MAX_GAMES``, ten million, included). ``workers`` beyond what helps (the chunks
    there are, 4 per core) is capped with a :class:`SimulationWarning`. Game counts, seeds and
    worker counts may be numpy integers. A game that raises lands in ``results.failures``;
    Ctrl-C returns the games finished so far (``results.complete`` is False).
    """
    games = check_games(games)
    seed = check_seed(seed)
    settings = make_settings(
        profile, board=board, players=players, bots=bots, options=options,
        rotate_seats=rotate_seats, collect=collect, max_actions=max_actions,
    )
    workers = check_workers(workers)
    if chunk_size is not None:
        whole = as_integer(chunk_size)
        if whole is None or whole < 1:
            raise SetupError(f"chunk_size must be a positive integer, not {chunk_size!r}")
        chunk_size = min(whole, games)
    if not (isinstance(progress, bool) or callable(progress)):
        raise SetupError("progress is True, False or a callback(done, total)")

    dask = is_dask_client(executor)
    pool: Any = executor
    if executor is None:
        pool_workers = 1
    elif isinstance(executor, str) and executor == "processes":
        pool_workers = useful_workers(workers or default_workers(), games, chunk_size,
                                      default_workers(), workers is not None)
        _check_picklable(settings)
    elif dask:
        pool_workers = sum(pool.nthreads().values()) or 1
    elif isinstance(executor, Executor):
        # not ours: its own processes or threads run the chunks; the count sets how many
        # chunks are in flight at once
        asked = workers or getattr(executor, "_max_workers", None) or default_workers()
        pool_workers = useful_workers(asked, games, chunk_size, default_workers(),
                                      workers is not None)
        if isinstance(executor, ProcessPoolExecutor):
            _check_picklable(settings)
    else:
        raise SetupError(
            "executor is None, 'processes', a concurrent.futures.Executor or a "
            f"dask.distributed.Client, not {executor!r}"
        )
    size = chunk_size or (min(games, 100) if executor is None
                          else default_chunk_size(games, pool_workers))
    chunks = chunks_of(games, size)

    label = f"{settings.profile.name} x{pool_workers}"
    bar = _Progress(games, progress, label)
    out = Outcome(compact=compact)
    started = time.perf_counter()
    with presses_absorbed_once_stopped(out):
        try:
            if executor is None:
                run_serial(settings, seed, chunks, bar, out)
            elif dask:
                run_dask(settings, seed, chunks, bar, executor, out)
            elif isinstance(executor, str):  # "processes"
                run_futures(settings, seed, chunks, bar, new_process_pool(pool_workers),
                            pool_workers, True, out)
            else:
                run_futures(settings, seed, chunks, bar, pool, pool_workers, False, out)
        finally:
            bar.close()
        results = Results(settings, seed, games, out, time.perf_counter() - started)
    return results


__all__ = ["simulate", "DEFAULT_COLLECT", "MAX_GAMES", "SimulationWarning", "check_games",
           "check_workers"]
