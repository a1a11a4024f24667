"""win_chances (1,000 rollouts in this process) and the live estimator (a thread, budget 1,000)
from one 4-player classic position: wall seconds, the playing thread's CPU and the figures.
Written for issue 32 to compare two checkouts side by side (numpy's runner and the plain-list
one), run alternately, each with its checkout's own Python (from this checkout):

    for i in 1 2 3; do
      (cd ../main && nice .venv/bin/python "$OLDPWD/benchmarks/rollouts_side_by_side.py" main)
      nice .venv/bin/python benchmarks/rollouts_side_by_side.py branch
    done
"""

from __future__ import annotations

import sys
import time

from ugentopoly_widget import Game
from ugentopoly_widget.engine import compiled
from ugentopoly_widget.engine.bots import HeuristicBot, play_game
from ugentopoly_widget.rollouts import LiveEstimator, win_chances


def main() -> None:
    game = Game("classic", players=4, seed=5)
    play_game(game, [HeuristicBot(seed=5 + k) for k in range(4)], until_turn=60)
    started = time.perf_counter()
    table = win_chances(game, rollouts=1000, seed=1)
    chances = time.perf_counter() - started
    live = LiveEstimator(budget=1000, seed=1)
    started = time.perf_counter()
    live.update(game)
    live.wait(timeout=600)
    live_s = time.perf_counter() - started
    live.close()
    print(f"{sys.argv[1]:6s} compiled={compiled} win_chances {chances:.2f} s (cpu in play "
          f"{table.attrs['cpu_seconds']:.2f}); live {live_s:.2f} s; "
          f"p_win {table.p_win.round(4).tolist()}")


if __name__ == "__main__":
    main()
