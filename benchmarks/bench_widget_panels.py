"""What the widget's probability panels cost per update, as a game grows; and a board drawn as
SVG with a heat overlay (a speed the tests used to assert, 5 ms; a busy machine's figure is
not a test's).

    .venv/bin/python benchmarks/bench_widget_panels.py

Heat modes: one ``heat_payload`` (the overlay of the probability package turned into the
trait's payload; the solved chain is cached). Stats: ``stats_payload`` after one more turn of
heuristic bots (dice counts read incrementally, convergence at 48 log-spaced points); a state
with no new roll reuses the last payload. The machine is shared: compare figures of one run.
"""

from __future__ import annotations

import time

from ugentopoly_widget import Game, UgentopolyWidget
from ugentopoly_widget.engine.render.svg import board_svg
from ugentopoly_widget.widget.odds import PROBABILITY_MODES, heat_payload, stats_payload


def svg() -> None:
    game = Game("classic", players=6, seed=1)
    heat = [float(k) for k in range(40)]
    board_svg(game, heat=heat)
    times = []
    for _ in range(21):
        start = time.perf_counter()
        board_svg(game, heat=heat)
        times.append(time.perf_counter() - start)
    print(f"board_svg, classic, 6 players, heat overlay: {sorted(times)[10] * 1000:.2f} ms "
          "(median of 21)")


def main() -> None:
    svg()
    w = UgentopolyWidget("classic", players=["a", "b", "c"], seed=4, turn_pause=0,
                         options={"starting_money": 10**7})  # nobody goes bankrupt
    for target in (100, 1000, 10_000):
        w.play_bots(target - w.game.turn_number, everyone="heuristic")
        game = w.game
        stats_payload(game, w._live)
        times = []
        for _ in range(21):
            w.play_bots(1, everyone="heuristic")
            start = time.perf_counter()
            stats_payload(game, w._live)
            times.append(time.perf_counter() - start)
        heat = {}
        for mode in PROBABILITY_MODES:
            start = time.perf_counter()
            for _ in range(20):
                heat_payload(game, mode)
            heat[mode] = (time.perf_counter() - start) / 20 * 1000
        print(f"{game.landings().rolls:6d} rolls: stats after a turn "
              f"{sorted(times)[10] * 1000:.2f} ms (median of 21); heat "
              + ", ".join(f"{m} {v:.2f} ms" for m, v in heat.items()))


if __name__ == "__main__":
    main()
