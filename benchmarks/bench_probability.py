"""Probability lab speed: exact solve time and Monte Carlo rolls per second (one core).

    .venv/bin/python benchmarks/bench_probability.py                       # the bundled boards
    .venv/bin/python benchmarks/bench_probability.py --large               # + 2,000 / 20,000 tiles
    .venv/bin/python benchmarks/bench_probability.py --baseline ../old     # + an old checkout
    .venv/bin/python benchmarks/bench_probability.py --crossover           # dense vs sparse

Exact solve = build the chain from the board + rules and solve for the stationary
distribution (best of 20, fresh each time, no cache). Monte Carlo = vectorised movement of
many players at once (CPU time of this process, numpy on one thread). Large boards (the
classic board stretched by streets, tests/helpers.long_board) are solved once each, in a
subprocess of their own per checkout, which reports its peak memory (ru_maxrss) too; an
old checkout (``--baseline PATH``, imported through PYTHONPATH) runs the same cases side by
side, in the same run. The machine is shared: compare figures printed by one run; absolute
numbers drift with the load of others.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

HERE = Path(__file__).resolve().parent
CASES = [
    ("classic, standard decks, short jail", "classic-standard-decks", "classic", "short"),
    ("classic, standard decks, long jail", "classic-standard-decks", "classic", "long"),
    ("ugentopoly (held jail cards, exact)", "ugentopoly", "ugentopoly", "short"),
    ("22-cell", "cell22", "cell22", "short"),
]
LARGE = (2000, 20_000)


def solve_ms(board_name: str, profile: str, jail: str) -> tuple[float, int]:
    from ugentopoly_widget.engine import get_profile, load_bundled
    from ugentopoly_widget.probability.chain import solve_chain
    from ugentopoly_widget.probability.model import Options, compile_movement

    board, rules = load_bundled(board_name), get_profile(profile)
    best, states = float("inf"), 0
    for _ in range(20):
        t = time.perf_counter()
        chain = solve_chain(compile_movement(board, rules, Options(jail=jail)))  # type: ignore[arg-type]
        chain.distribution("roll")
        best = min(best, time.perf_counter() - t)
        states = len(chain.states)
    return best * 1000, states


def mc_rate(board_name: str, profile: str, jail: str, walkers: int = 8192) -> float:
    from ugentopoly_widget.engine import load_bundled
    from ugentopoly_widget.probability.montecarlo import MovementSimulator

    sim = MovementSimulator(load_bundled(board_name), profile, walkers=walkers, seed=1,
                            jail=jail)  # type: ignore[arg-type]
    sim.run(5)
    steps = 500
    t = time.process_time()
    sim.run(steps)
    return walkers * steps / (time.process_time() - t)


def bundled_case(index: int) -> dict[str, float]:
    """One case of CASES (run in a subprocess, as every variant is)."""
    _label, board, profile, jail = CASES[index]
    ms, states = solve_ms(board, profile, jail)
    return {"states": states, "ms": ms, "rate": mc_rate(board, profile, jail)}


def large_case(tiles: int) -> dict[str, float]:
    """Solve the stretched classic board once: seconds and peak memory of this process."""
    import resource

    sys.path.insert(0, str(HERE.parent / "tests"))
    from helpers import long_board

    from ugentopoly_widget.engine import get_profile
    from ugentopoly_widget.probability.chain import solve_chain
    from ugentopoly_widget.probability.model import Options, compile_movement

    board = long_board(tiles)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    t = time.perf_counter()
    try:
        chain = solve_chain(compile_movement(board, get_profile("classic"), Options()))
        chain.distribution("roll")
        states: float = len(chain.states)
        error = ""
    except Exception as exc:  # an old checkout's MemoryError, say: reported, not a crash
        states, error = 0, f"{type(exc).__name__}: {str(exc)[:60]}"
    seconds = time.perf_counter() - t
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"states": states, "s": seconds, "peak_mb": peak, "added_mb": peak - before,
            "error": error}  # type: ignore[dict-item]


def in_subprocess(checkout: Path | None, call: str, timeout: float = 900) -> dict[str, float]:
    """`call` ("bundled_case(0)", "large_case(2000)") in a fresh Python, importing the package
    from `checkout` (None: this one)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if checkout is not None:
        env["PYTHONPATH"] = str(checkout.resolve())
    code = (f"import sys, json; sys.path.insert(0, {str(HERE)!r}); "
            f"import bench_probability as b; print(json.dumps(b.{call}))")
    try:
        run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                             text=True, timeout=timeout, check=False, cwd="/")
    except subprocess.TimeoutExpired:
        return {"error": f"over {timeout:.0f} s"}  # type: ignore[dict-item]
    if run.returncode != 0:
        return {"error": run.stderr.strip().splitlines()[-1][:80]}  # type: ignore[dict-item]
    result: dict[str, float] = json.loads(run.stdout.strip().splitlines()[-1])
    return result


def crossover() -> None:
    """Dense against sparse solves of the same transitions, by chain size."""
    sys.path.insert(0, str(HERE.parent / "tests"))
    from helpers import long_board

    from ugentopoly_widget.engine import get_profile, load_bundled
    from ugentopoly_widget.probability.chain import (
        _SparseSolver,
        dense_matrix,
        sparse_matrix,
        stationary_of,
    )
    from ugentopoly_widget.probability.model import Options, compile_movement
    from ugentopoly_widget.probability.transitions import build_transitions

    print(f"{'tiles':>6} {'states':>7} {'dense ms':>9} {'sparse ms':>10}")
    for tiles in (40, 60, 80, 100, 150, 200, 300, 500):
        board = load_bundled("classic-standard-decks") if tiles == 40 else long_board(tiles)
        t = build_transitions(compile_movement(board, get_profile("classic"), Options()))
        dense = sparse = float("inf")
        for _ in range(7):
            a = time.perf_counter()
            stationary_of(dense_matrix(t))
            b = time.perf_counter()
            _SparseSolver(sparse_matrix(t)).stationary()
            c = time.perf_counter()
            dense, sparse = min(dense, b - a), min(sparse, c - b)
        print(f"{tiles:6d} {len(t):7d} {dense * 1000:9.2f} {sparse * 1000:10.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, help="an older checkout, side by side")
    parser.add_argument("--large", action="store_true", help="the 2,000 and 20,000-tile boards")
    parser.add_argument("--crossover", action="store_true", help="dense vs sparse by size")
    args = parser.parse_args()
    if args.crossover:
        crossover()
        return
    checkouts: list[tuple[str, Path | None]] = [("this", None)]
    if args.baseline:
        checkouts.append(("base", args.baseline))
    print(f"{'case':40} {'checkout':>8} {'states':>7} {'solve ms':>9} {'MC rolls/s':>12}")
    for index, (label, *_rest) in enumerate(CASES):
        for name, checkout in checkouts:  # side by side, case by case
            r = in_subprocess(checkout, f"bundled_case({index})")
            if "error" in r:
                print(f"{label:40} {name:>8} {r['error']}")
                continue
            print(f"{label:40} {name:>8} {int(r['states']):7d} {r['ms']:9.2f} "
                  f"{r['rate'] / 1e6:10.1f} M")
    if not args.large:
        return
    print()
    print(f"{'stretched classic board':40} {'checkout':>8} {'states':>7} {'solve s':>9} "
          f"{'peak MB':>9} {'added MB':>9}")
    for tiles in LARGE:
        for name, checkout in checkouts:
            r = in_subprocess(checkout, f"large_case({tiles})")
            label = f"{tiles:,} tiles"
            if r.get("error"):
                extra = f" after {r['s']:.1f} s" if "s" in r else ""
                print(f"{label:40} {name:>8} {r['error']}{extra}")
                continue
            print(f"{label:40} {name:>8} {int(r['states']):7d} {r['s']:9.2f} "
                  f"{r['peak_mb']:9.0f} {r['added_mb']:9.0f}")


if __name__ == "__main__":
    main()
