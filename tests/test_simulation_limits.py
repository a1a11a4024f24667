"""simulate(), compare() and sweep() under absurd sizes and numpy numbers (issue 25, items 1-3):
a bounded number of games planned lazily, a worker count capped at what helps, and game numbers
and seeds read from a results table taken as they are."""

from __future__ import annotations

import tracemalloc
import warnings
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import pytest
from child import run_in_child

from ugentopoly_widget import Game, SetupError, compare, simulate, sweep
from ugentopoly_widget.simulation import MAX_GAMES, SimulationWarning, api, executors

FAST: dict[str, Any] = {"options": {"round_limit": 15}, "progress": False,
                        "bots": ["heuristic", "random"]}


# ---------------------------------------------------------------- item 1: games bounded


@pytest.mark.parametrize("run", ["simulate", "compare", "sweep"])
def test_an_absurd_number_of_games_is_refused_at_once_with_the_limit(run: str) -> None:
    """Before: simulate(10**12) built its whole chunk list and grew to ~1 GB before numpy's
    MemoryError. In a child with 300 MB to spare and 30 s it must end in a named error."""
    def call() -> None:
        if run == "simulate":
            simulate(10**12, "classic", **FAST)
        elif run == "compare":
            compare({"bots": ["heuristic", "heuristic"]}, {}, 10**12, profile="classic", **FAST)
        else:
            sweep("round_limit", [10, 20], 10**12, profile="classic", progress=False)

    outcome = run_in_child(call, timeout=30, memory_mb=300)
    assert outcome[:3] == ("raised", "ugentopoly_widget.engine.errors", "SetupError"), outcome
    assert f"{MAX_GAMES:,}" in outcome[3]


def test_the_chunk_plan_is_made_as_the_chunks_are_taken() -> None:
    """Planning the largest run allowed, one game per chunk, costs the same as a small one
    (before: a list of ten million ranges, over a GB)."""
    def call() -> tuple[list[tuple[int, int]], int, int]:
        tracemalloc.start()
        plan = executors.chunks_of(MAX_GAMES, 1)
        first = [chunk for _, chunk in zip(range(3), plan, strict=False)]
        return first, len(plan), tracemalloc.get_traced_memory()[1]

    outcome = run_in_child(call, timeout=30, memory_mb=200)
    assert outcome[0] == "ok", outcome
    first, count, peak = outcome[1]
    assert first == [(0, 1), (1, 2), (2, 3)] and count == MAX_GAMES and peak < 100_000
    assert list(executors.chunks_of(10, 4)) == [(0, 4), (4, 8), (8, 10)]


def test_a_huge_run_stopped_early_stays_small() -> None:
    """The largest run allowed, interrupted after its first chunk: the run returns what it
    played in bounded memory (no list of every chunk or every missing game)."""
    def call() -> tuple[int, int, bool]:
        def stop(done: int, total: int) -> None:
            raise KeyboardInterrupt

        results = simulate(MAX_GAMES, "classic", chunk_size=3, **{**FAST, "progress": stop})
        return len(results.games), results.missing_count, results.complete

    outcome = run_in_child(call, timeout=60, memory_mb=400)
    assert outcome == ("ok", (3, MAX_GAMES - 3, False)), outcome


# ---------------------------------------------------------------- item 2: workers capped


def test_workers_are_capped_at_what_helps_with_a_warning(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """Before: workers=10000 forked processes as fast as it could (16 for a 4-game run)."""
    made: list[int] = []
    real = executors.new_process_pool

    def recording(workers: int) -> Any:
        made.append(workers)
        return real(workers)

    monkeypatch.setattr(api, "new_process_pool", recording)
    with pytest.warns(SimulationWarning, match=r"workers=10,000 capped at 4.*4 chunks"):
        results = simulate(4, "classic", executor="processes", workers=10_000, **FAST)
    assert made == [4] and results.workers == 4 and results.complete
    cores = executors.default_workers()
    with pytest.warns(SimulationWarning, match=f"capped at {4 * cores}: .*per core"):
        assert api.useful_workers(10_000, 10**6, None, cores, True) == 4 * cores
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # what helps is taken without a word
        assert api.useful_workers(2, 100, None, 2, True) == 2
        assert api.useful_workers(8, 3, None, 2, False) == 3  # the default: quietly capped


def test_an_executor_of_ours_gets_no_more_chunks_in_flight_than_help() -> None:
    with ThreadPoolExecutor(2) as pool, pytest.warns(SimulationWarning):
        results = simulate(3, "classic", executor=pool, workers=500, chunk_size=1, **FAST)
    assert results.workers == 3 and results.complete


@pytest.mark.parametrize("workers", [0, -1, 2.5, "2", True])
def test_bad_worker_counts_are_refused(workers: Any) -> None:
    with pytest.raises(SetupError, match="workers must be a positive integer"):
        simulate(2, "classic", executor="processes", workers=workers, **FAST)


# ---------------------------------------------------------------- item 3: numpy integers


def test_replay_takes_a_game_number_read_from_its_own_table() -> None:
    results = simulate(5, "classic", seed=3, **FAST)
    number = results.games["game"].iloc[3]
    assert isinstance(number, np.integer)
    game = results.replay(number)  # before: ValueError "there is no game np.int64(3)"
    assert game.seed == results.games["seed"].iloc[3]
    assert game.digest() == results.replay(3).digest()
    with pytest.raises(ValueError, match="no game"):
        results.replay(np.int64(5))
    with pytest.raises(ValueError, match="no game"):
        results.replay(np.float64(3.0))


def test_numpy_integers_are_taken_wherever_a_number_of_games_or_a_seed_is() -> None:
    plain = simulate(4, "classic", seed=7, chunk_size=2, players=2, max_actions=10_000,
                     **{**FAST, "bots": "heuristic"})
    numpy = simulate(np.int64(4), "classic", seed=np.uint32(7), chunk_size=np.int16(2),
                     players=np.int8(2), max_actions=np.int64(10_000),
                     **{**FAST, "bots": "heuristic"})
    assert numpy.games.equals(plain.games) and numpy.seed == 7
    again = simulate(np.int64(4), "classic", seed=np.int64(7), executor="processes",
                     workers=np.int64(2), chunk_size=2, players=2, max_actions=10_000,
                     **{**FAST, "bots": "heuristic"})
    assert again.games["seed"].tolist() == plain.games["seed"].tolist()
    seed = plain.games["seed"].iloc[0]
    assert Game("classic", players=2, seed=seed).seed == int(seed)  # the engine too
    c = compare({}, {"bots": ["random", "random"]}, np.int64(3), profile="classic",
                seed=np.int64(1), **{k: v for k, v in FAST.items() if k != "bots"})
    assert c.paired_games == 3
    s = sweep("round_limit", [10], np.int64(2), profile="classic", progress=False,
              seed=np.int64(2))
    assert len(s.runs[0].games) == 2
    for bad in (True, np.bool_(True), 4.0, np.float64(4), -1):
        with pytest.raises(SetupError):
            simulate(bad, "classic", **FAST)  # type: ignore[arg-type]
        with pytest.raises(SetupError):
            Game("classic", players=2, seed=bad)  # type: ignore[arg-type]
