"""Batch simulation figures, each measured side by side in one run (the machine is shared: the
ratios hold, the absolute figures drift with the others' load, printed with ``uptime``).

    python benchmarks/bench_simulation.py                 # overhead + speed-ups, a few minutes
    python benchmarks/bench_simulation.py --quick         # fewer games
    python benchmarks/bench_simulation.py --memory        # + 100,000 classic games, peak RSS
    python benchmarks/bench_simulation.py --memory-only   # only that

1. Overhead of simulate() over the bare engine loop, one worker, in this process (CPU time):
   the bare loop is exactly what simulate() drives: Game(...) + bots + play_game per seed.
   Variants alternate (A B A B ...) and the best of each is kept.
2. Speed-up of 2 workers over 1 (wall time): "processes", and a Dask LocalCluster.
3. (--memory) 100,000 classic games with the default collections on every core: peak RSS of
   this process and of the largest worker.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import time
from collections.abc import Callable

from ugentopoly_widget import Game
from ugentopoly_widget.engine.bots import HeuristicBot, play_game
from ugentopoly_widget.simulation import bot_seed, game_seed, simulate
from ugentopoly_widget.simulation.settings import DEFAULT_ROUND_LIMIT

PROFILE = "classic"
SEATS = 4
OPTIONS = {"round_limit": DEFAULT_ROUND_LIMIT}  # what simulate() applies by default


def load() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def bare_loop(games: int, landings: bool = False) -> None:
    """The engine loop by hand, same seeds and bots as simulate(seed=0)."""
    for i in range(games):
        seed = game_seed(0, i)
        game = Game(PROFILE, players=SEATS, seed=seed, options=OPTIONS)
        play_game(game, [HeuristicBot(seed=bot_seed(seed, k)) for k in range(SEATS)])
        if landings:
            game.landings()


WORK: dict[int, list[float]] = {}  # workers -> [CPU s in the workers, CPU s in this process]


def sim(games: int, collect: tuple[str, ...], **kw: object) -> None:
    main_cpu = time.process_time()
    results = simulate(games, PROFILE, bots=["heuristic"] * SEATS, progress=False,
                       collect=collect, **kw)  # type: ignore[arg-type]
    assert results.complete and len(results.games) == games
    WORK[results.workers] = [results.cpu_seconds, time.process_time() - main_cpu]


def cpu(fn: Callable[[], None]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def wall(fn: Callable[[], None]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def overhead(games: int, repeats: int) -> None:
    variants: dict[str, Callable[[], None]] = {
        "bare loop": lambda: bare_loop(games),
        "simulate(collect=())": lambda: sim(games, ()),
        "bare loop + game.landings()": lambda: bare_loop(games, landings=True),
        "simulate() default (landings)": lambda: sim(games, ("landings",)),
    }
    best = {name: float("inf") for name in variants}
    for _ in range(repeats):
        for name, fn in variants.items():
            best[name] = min(best[name], cpu(fn))
    print(f"\n1. overhead, {games} {PROFILE} games x {SEATS} heuristic bots, one worker, "
          f"best of {repeats} (CPU s)")
    for name, seconds in best.items():
        print(f"   {name:<32}{seconds:8.2f} s  {games / seconds:8.1f} games/s")
    print(f"   overhead simulate(collect=()) vs bare loop: "
          f"{best['simulate(collect=())'] / best['bare loop'] - 1:+.1%}")
    print(f"   overhead simulate() default vs bare loop + landings: "
          f"{best['simulate() default (landings)'] / best['bare loop + game.landings()'] - 1:+.1%}")
    print(f"   overhead simulate() default vs bare loop: "
          f"{best['simulate() default (landings)'] / best['bare loop'] - 1:+.1%}")


def bound() -> None:
    """CPU seconds depend less on the others' load than wall time. On an idle 2-core machine
    one worker takes about w1 (the parent works alongside it), two take at least
    (w2 + p2) / 2 (the parent shares the two cores): the speed-up is at most 2 w1 / (w2 + p2)."""
    (w1, p1), (w2, p2) = WORK[1], WORK[2]
    print(f"      CPU in the workers: 1 worker {w1:.2f} s, 2 workers {w2:.2f} s "
          f"(work x{w2 / w1:.3f}); in the parent {p1:.2f} s / {p2:.2f} s; "
          f"idle 2-core bound {2 * w1 / (w2 + p2):.2f}x")


def speedups(games: int, repeats: int, dask: bool) -> None:
    print(f"\n2. speed-up, {games} {PROFILE} games x {SEATS} heuristic bots (wall s, best of "
          f"{repeats})")
    sim(8 * 2, ("landings",), executor="processes", workers=2)  # warm the page cache
    times = {1: float("inf"), 2: float("inf")}
    for _ in range(repeats):
        for n in (1, 2):
            times[n] = min(times[n], wall(lambda n=n: sim(  # type: ignore[misc]
                games, ("landings",), executor="processes", workers=n)))
    print(f"   processes  1 worker {times[1]:7.2f} s   2 workers {times[2]:7.2f} s   "
          f"speed-up {times[1] / times[2]:.2f}x")
    bound()
    if not dask:
        return
    from dask.distributed import Client, LocalCluster

    clusters = {}
    for n in (1, 2):
        cluster = LocalCluster(n_workers=n, threads_per_worker=1, dashboard_address=None,
                               processes=True)
        client = Client(cluster)
        sim(8 * n, ("landings",), executor=client)  # workers import the package first
        clusters[n] = (cluster, client)
    dtimes = {1: float("inf"), 2: float("inf")}
    try:
        for _ in range(repeats):
            for n in (1, 2):
                client = clusters[n][1]
                dtimes[n] = min(dtimes[n], wall(lambda c=client: sim(  # type: ignore[misc]
                    games, ("landings",), executor=c)))
    finally:
        for cluster, client in clusters.values():
            client.close()
            cluster.close()
    print(f"   dask       1 worker {dtimes[1]:7.2f} s   2 workers {dtimes[2]:7.2f} s   "
          f"speed-up {dtimes[1] / dtimes[2]:.2f}x")
    bound()


def memory(games: int) -> None:
    print(f"\n3. memory, {games:,} {PROFILE} games x {SEATS} heuristic bots, default "
          "collections, every core")
    start = time.perf_counter()
    results = simulate(games, PROFILE, bots=["heuristic"] * SEATS, executor="processes",
                       progress=False)
    seconds = time.perf_counter() - start
    me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"   {len(results.games):,} games in {seconds:.0f} s, {results.workers} workers, "
          f"complete={results.complete}, failures={len(results.failures)}")
    print(f"   games DataFrame {results.games.memory_usage(deep=True).sum() / 2**20:.0f} MiB")
    print(f"   peak RSS: this process {me:.0f} MiB, largest worker {child:.0f} MiB, "
          f"sum at most {me + child * results.workers:.0f} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--memory", action="store_true")
    parser.add_argument("--memory-only", action="store_true")
    parser.add_argument("--memory-games", type=int, default=100_000)
    parser.add_argument("--no-dask", action="store_true")
    args = parser.parse_args()
    print(f"load before: {load()}   cores: {len(os.sched_getaffinity(0))}")
    if not args.memory_only:
        overhead(100 if args.quick else 300, 2 if args.quick else 3)
        speedups(300 if args.quick else 1200, 1 if args.quick else 2, not args.no_dask)
    if args.memory or args.memory_only:
        memory(args.memory_games)
    print(f"\nload after: {load()}")


if __name__ == "__main__":
    main()
