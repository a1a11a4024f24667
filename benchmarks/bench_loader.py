"""Loading a large board: seconds to parse a board file and to set a classic game up on it.

    python benchmarks/bench_loader.py                  # 12,000 areas x 12,000 tiles, and smaller
    python benchmarks/bench_loader.py --sizes 3000 6000

Every street sits in an area of its own and there are as many areas as tiles, the worst case
of a loader that scans every tile for each area (quadratic). Linear loading shows as a time
per tile that stays flat as the board grows. CPU time of this process (time.process_time).
"""

from __future__ import annotations

import argparse
import time

from ugentopoly_widget import Game
from ugentopoly_widget.engine.boards.loader import parse_board


def board_text(n: int) -> str:
    areas = "".join(f'<area id="a{k}" color="#808080" house="50"/>' for k in range(n))
    tiles = ['<tile type="START" position="0" id="t0"/>',
             '<tile type="JAIL" position="1" id="t1"/>',
             '<tile type="FREE_PARKING" position="2" id="t2"/>']
    tiles += [f'<tile type="STREET" position="{k}" id="t{k}" area="a{k}" cost="60" rent0="2" '
              f'rent1="10"/>' for k in range(3, n)]
    return (f'<board><settings balance="1500" start="200"/><areas>{areas}</areas>'
            f'<tiles>{"".join(tiles)}</tiles></board>')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[3000, 6000, 12000])
    args = parser.parse_args()
    print(f"{'areas x tiles':>15} {'parse s':>9} {'game s':>8} {'us/tile':>8}")
    for n in args.sizes:
        text = board_text(n)
        cpu = time.process_time()
        board = parse_board(text, file=f"big{n}.xml")
        parsed = time.process_time() - cpu
        cpu = time.process_time()
        Game("classic", board=board, players=2, seed=1)
        setup = time.process_time() - cpu
        per_tile = (parsed + setup) / n * 1e6
        print(f"{n:>7} x {n:<6} {parsed:9.2f} {setup:8.2f} {per_tile:8.1f}")


if __name__ == "__main__":
    main()
