"""Probability lab speed: exact solve time and Monte Carlo rolls per second (one core).

    .venv/bin/python benchmarks/bench_probability.py

Exact solve = build the chain from the board + rules and solve for the stationary
distribution (best of 20, fresh each time, no cache). Monte Carlo = vectorised movement of
many players at once (CPU time of this process, numpy on one thread). The machine is shared:
compare figures printed by one run; absolute numbers drift with the load of others.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import time  # noqa: E402

from ugentopoly_widget.engine import get_profile, load_bundled  # noqa: E402
from ugentopoly_widget.probability.chain import solve_chain  # noqa: E402
from ugentopoly_widget.probability.model import Options, compile_movement  # noqa: E402
from ugentopoly_widget.probability.montecarlo import MovementSimulator  # noqa: E402

CASES = [
    ("classic, standard decks, short jail", "classic-standard-decks", "classic", "short"),
    ("classic, standard decks, long jail", "classic-standard-decks", "classic", "long"),
    ("ugentopoly (held jail cards, exact)", "ugentopoly", "ugentopoly", "short"),
    ("22-cell", "cell22", "cell22", "short"),
]


def solve_ms(board_name: str, profile: str, jail: str) -> tuple[float, int]:
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
    sim = MovementSimulator(load_bundled(board_name), profile, walkers=walkers, seed=1,
                            jail=jail)  # type: ignore[arg-type]
    sim.run(5)
    steps = 500
    t = time.process_time()
    sim.run(steps)
    return walkers * steps / (time.process_time() - t)


def main() -> None:
    print(f"{'case':40} {'states':>7} {'solve ms':>9} {'MC rolls/s':>12}")
    for label, board, profile, jail in CASES:
        ms, states = solve_ms(board, profile, jail)
        rate = mc_rate(board, profile, jail)
        print(f"{label:40} {states:7d} {ms:9.2f} {rate / 1e6:10.1f} M")


if __name__ == "__main__":
    main()
