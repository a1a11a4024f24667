"""``python -m ugentopoly_widget simulate``: a run from the command line, to Parquet or CSV.

    python -m ugentopoly_widget simulate --profile classic --games 10000 \\
        --bots heuristic,heuristic,random --workers 2 --out results.parquet
    python -m ugentopoly_widget simulate ... --scheduler tcp://10.0.0.5:8786   # on Dask
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from ..engine.errors import UgentopolyError
from .api import simulate
from .extras import MissingExtraError, require
from .results import has_parquet
from .settings import COLLECTIONS


def _option(text: str) -> tuple[str, Any]:
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"an option is KEY=VALUE, not {text!r}")
    try:
        value = json.loads(raw)  # numbers, true/false, null, lists
    except ValueError:
        value = raw  # a plain word: "net_worth", "short"
    return key.strip(), value


def _names(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m ugentopoly_widget simulate",
        description="Play many seeded games with bots; write one row per game.",
    )
    p.add_argument("--profile", default="ugentopoly", help="ugentopoly, classic or cell22")
    p.add_argument("--games", type=int, default=1000, help="number of games (default 1000)")
    p.add_argument("--bots", type=_names, default=["heuristic", "heuristic"],
                   help="one bot per seat, comma separated (default heuristic,heuristic)")
    p.add_argument("--players", type=_names, default=None,
                   help="player names, comma separated (default Player 1, Player 2, ...)")
    p.add_argument("--board", default=None, help="a board file (default: the profile's own)")
    p.add_argument("--option", type=_option, action="append", default=[], metavar="KEY=VALUE",
                   help="a rules option, repeatable: --option round_limit=100")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=None,
                   help="worker processes (default every core; 1 = this process)")
    p.add_argument("--scheduler", default=None,
                   help="a Dask scheduler address (tcp://host:8786): run on that cluster")
    p.add_argument("--chunk-size", type=int, default=None)
    p.add_argument("--rotate-seats", action="store_true",
                   help="shift the line-up by one seat each game")
    p.add_argument("--collect", type=_names, default=["landings"],
                   help=f"collections, comma separated, from {', '.join(COLLECTIONS)} "
                        "(default landings; 'none' for none)")
    p.add_argument("--out", default="results.parquet",
                   help="output file, .parquet (CSV when pyarrow is absent) or .csv")
    p.add_argument("--summary-by", choices=("bot", "seat", "order"), default="bot")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    collect = [] if args.collect == ["none"] else args.collect
    executor: Any = None
    workers = args.workers
    client: Any = None
    try:
        if args.scheduler:
            distributed = require("distributed", "dask", "--scheduler")
            client = distributed.Client(args.scheduler)
            executor = client
        elif workers is None or workers > 1:
            executor = "processes"
        if args.out.lower().endswith(".parquet") and not has_parquet():
            print("pyarrow is not installed (pip install ugentopoly_widget[parquet]): "
                  "writing CSV instead", file=sys.stderr)
        results = simulate(
            args.games, args.profile, board=args.board, players=args.players, bots=args.bots,
            options=dict(args.option), seed=args.seed, executor=executor,
            workers=workers if executor == "processes" else None, chunk_size=args.chunk_size,
            progress=not args.no_progress, collect=collect, rotate_seats=args.rotate_seats,
        )
    except (UgentopolyError, MissingExtraError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    finally:
        if client is not None:
            client.close()
    written = results.save(args.out)
    print(results.summary(by=args.summary_by))
    print()
    print(f"{results.executor} x{results.workers}: {len(results.games)} games in "
          f"{results.elapsed:.1f} s ({len(results.games) / max(results.elapsed, 1e-9):,.0f} "
          "games/s)")
    for path in written:
        print(f"wrote {path}")
    if not results.complete:
        print(f"interrupted: {len(results.missing)} of {results.requested} games not run",
              file=sys.stderr)
        return 130
    return 0


__all__ = ["main", "parser"]
