"""``python -m ugentopoly_widget simulate``: a run from the command line, to Parquet or CSV.

    python -m ugentopoly_widget simulate --profile classic --games 10000 \\
        --bots heuristic,heuristic,random --workers 2 --out results.parquet
    python -m ugentopoly_widget simulate ... --scheduler tcp://10.0.0.5:8786   # on Dask
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence
from typing import Any

from ..engine.errors import UgentopolyError
from .api import check_workers, simulate
from .extras import MissingExtraError, require
from .results import OutputError, has_parquet, output_path
from .settings import COLLECTIONS

DEFAULT_CONNECT_TIMEOUT = 5.0  # seconds to reach a Dask scheduler (Dask's own default: 30)
_SCHEMES = ("tcp", "tls", "ws", "wss", "ucx", "inproc")
_HOST = re.compile(r"[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\]")


class UsageError(Exception):
    """A command-line argument that cannot work: printed as one line, exit status 1."""


def _option(text: str) -> tuple[str, Any]:
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"an option is KEY=VALUE, not {text!r}")
    try:
        value = json.loads(raw)  # numbers, true/false, null, lists
    except RecursionError:
        raise argparse.ArgumentTypeError(
            f"the value of {key.strip()} is nested too deeply") from None
    except ValueError:
        value = raw  # a plain word: "net_worth", "short"
    return key.strip(), value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value <= 600:
        raise argparse.ArgumentTypeError(f"a timeout is 0 to 600 seconds, not {text!r}")
    return value


def scheduler_address(text: str) -> str:
    """A Dask scheduler address checked for its form: ``[tcp://]host:port`` (also tls, ws,
    wss, ucx), or ``inproc://...``; raises UsageError naming what is wrong."""
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    if scheme not in _SCHEMES:
        raise UsageError(f"--scheduler: unknown protocol {scheme!r} in {text!r} (an address is "
                         f"tcp://HOST:PORT; protocols: {', '.join(_SCHEMES)})")
    if scheme == "inproc":
        return text
    host, colon, port = rest.rpartition(":")
    if not colon or not _HOST.fullmatch(host) or not port.isdecimal() \
            or not 1 <= int(port) <= 65535:
        raise UsageError(f"--scheduler: {text!r} is not an address of the form tcp://HOST:PORT "
                         "(e.g. tcp://10.0.0.5:8786)")
    return f"{scheme}://{rest}"


def connect(address: str, timeout: float) -> Any:
    """A ``distributed.Client`` for `address`, or UsageError after `timeout` seconds."""
    distributed = require("distributed", "dask", "--scheduler")
    try:
        return distributed.Client(address, timeout=timeout)
    except (OSError, TimeoutError, ValueError) as exc:
        raise UsageError(f"cannot reach the Dask scheduler at {address} within {timeout:g} s "
                         f"({type(exc).__name__}: {exc})") from None


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
    p.add_argument("--connect-timeout", type=_seconds, default=DEFAULT_CONNECT_TIMEOUT,
                   metavar="SECONDS",
                   help=f"give up reaching the scheduler after this long (default "
                        f"{DEFAULT_CONNECT_TIMEOUT:g})")
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
    """Run the command; every mistake of the caller's is one line on stderr and exit 1 (2 for
    what argparse refuses), never a traceback."""
    args = parser().parse_args(argv)
    collect = [] if args.collect == ["none"] else args.collect
    client: Any = None
    try:
        # everything checked before the first game: a run is never lost to a bad argument
        workers = check_workers(args.workers)
        if args.out.lower().endswith(".parquet") and not has_parquet():
            print("pyarrow is not installed (pip install ugentopoly_widget[parquet]): "
                  "writing CSV instead", file=sys.stderr)
        out = output_path(args.out)
        executor: Any = None
        if args.scheduler:
            client = connect(scheduler_address(args.scheduler), args.connect_timeout)
            executor = client
        elif workers is None or workers > 1:
            executor = "processes"
        results = simulate(
            args.games, args.profile, board=args.board, players=args.players, bots=args.bots,
            options=dict(args.option), seed=args.seed, executor=executor,
            workers=workers if executor == "processes" else None, chunk_size=args.chunk_size,
            progress=not args.no_progress, collect=collect, rotate_seats=args.rotate_seats,
        )
    except (UgentopolyError, MissingExtraError, UsageError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # before the run (reaching a scheduler): nothing was played
        print("interrupted", file=sys.stderr)
        return 130
    finally:
        if client is not None:
            client.close()
    # the summary first: a failed write (a full disk) must not lose it
    print(results.summary(by=args.summary_by))
    print()
    print(f"{results.executor} x{results.workers}: {len(results.games)} games in "
          f"{results.elapsed:.1f} s ({len(results.games) / max(results.elapsed, 1e-9):,.0f} "
          "games/s)")
    try:
        written = results.save(out)
    except (OSError, OutputError) as exc:
        print(f"error: could not write {out}: {exc}", file=sys.stderr)
        return 1
    for path in written:
        print(f"wrote {path}")
    if not results.complete:
        print(f"interrupted: {results.missing_count} of {results.requested} games not run",
              file=sys.stderr)
        return 130
    return 0


__all__ = ["main", "parser", "scheduler_address", "connect", "UsageError"]
