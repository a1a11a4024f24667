"""Player-turns per second for each profile with bots, events recorded.

    python benchmarks/bench_engine.py            # all profiles, about 30 s
    python benchmarks/bench_engine.py --quick    # fewer games

CPU time of this process (time.process_time) is used, so other load on the machine
disturbs the figures less; the wall-clock rate is printed too.
"""

from __future__ import annotations

import argparse
import time

from ugentopoly_widget import Game
from ugentopoly_widget.engine.bots import HeuristicBot, RandomBot, play_game

CASES = [
    # profile, options, bot class, players
    ("ugentopoly", {}, RandomBot, 4),
    ("ugentopoly", {}, HeuristicBot, 4),
    ("classic", {}, RandomBot, 4),
    ("classic", {}, HeuristicBot, 4),
    ("classic", {"mode": "short"}, HeuristicBot, 4),
    ("classic", {"mode": "timed", "turn_limit": 400}, HeuristicBot, 4),
    ("cell22", {}, RandomBot, 4),
    ("cell22", {}, HeuristicBot, 4),
]


def bench(profile: str, options: dict[str, object], bot: type, players: int,
          min_turns: int) -> tuple[float, float, int, int, int]:
    turns = games = actions = 0
    cpu0, wall0 = time.process_time(), time.perf_counter()
    seed = 0
    while turns < min_turns:
        opts = dict(options)
        opts.setdefault("turn_limit", 2000)
        game = Game(profile, players=players, seed=seed, options=opts)
        actions += play_game(game, [bot(seed=seed * 10 + k) for k in range(players)])
        assert game.is_over
        turns += game.turn_number
        games += 1
        seed += 1
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    return turns / cpu, turns / wall, turns, games, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    min_turns = 20_000 if args.quick else 100_000
    print(f"{'profile':<12}{'options':<40}{'bot':<10}{'turns/s cpu':>12}{'wall':>10}"
          f"{'turns':>9}{'games':>7}{'actions/turn':>14}")
    for profile, options, bot, players in CASES:
        rate, wall_rate, turns, games, actions = bench(profile, options, bot, players, min_turns)
        print(f"{profile:<12}{str(options):<40}{bot.name:<10}{rate:>12,.0f}{wall_rate:>10,.0f}"
              f"{turns:>9}{games:>7}{actions / turns:>14.2f}")


if __name__ == "__main__":
    main()
