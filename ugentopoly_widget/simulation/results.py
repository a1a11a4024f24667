"""What a run returns: one row per game, the requested collections, failures, and summaries
with confidence intervals. Plots live in :mod:`.plots` (matplotlib is an optional extra)."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ..engine.errors import UgentopolyError
from ..engine.game import Game
from ..engine.integers import as_integer
from ..engine.records.landings import Landings
from .executors import Outcome
from .settings import Settings
from .stats import mean_ci, wilson
from .worker import (
    EVENT_COLUMNS,
    FAILURE_COLUMNS,
    GAME_COLUMNS,
    NET_WORTH_COLUMNS,
    SEAT_FIELDS,
    ChunkResult,
    columns,
    play_one,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes

_STRINGS = {"end_reason", "winner_bot", "bot", "kind", "error", "traceback"}
_BOOLS = {"won", "bankrupt", "final"}


def _dtype(column: str) -> str:
    base = column.rsplit("_", 1)[0] if column.rsplit("_", 1)[-1].isdigit() else column
    if base in _STRINGS:
        return "object"
    if base in _BOOLS:
        return "bool"
    if base == "data":
        return "object"
    if base == "player":
        return "Int64"  # None for events of nobody in particular
    return "int64"


def frame(rows: Sequence[tuple[Any, ...]], cols: Sequence[str]) -> pd.DataFrame:
    """Rows to a DataFrame with fixed dtypes (the same whatever executor made the rows)."""
    df: pd.DataFrame = pd.DataFrame.from_records(list(rows), columns=list(cols))
    typed: pd.DataFrame = df.astype({c: _dtype(c) for c in cols})
    return typed


def compact(result: ChunkResult) -> ChunkResult:
    """Turn a chunk's row tuples into small DataFrames as soon as it arrives."""
    if result.rows:
        seats = (len(result.rows[0]) - len(GAME_COLUMNS)) // len(SEAT_FIELDS)
        result.rows = frame(result.rows, columns(seats))  # type: ignore[assignment]
    if result.net_worth:
        result.net_worth = frame(result.net_worth, NET_WORTH_COLUMNS)  # type: ignore[assignment]
    return result


def _concat(parts: list[Any], cols: Sequence[str]) -> pd.DataFrame:
    frames = [p for p in parts if isinstance(p, pd.DataFrame) and len(p)]
    rows = [r for p in parts if isinstance(p, list) for r in p]
    if rows:
        frames.append(frame(rows, cols))
    if not frames:
        return frame([], cols)
    df: pd.DataFrame = pd.concat(frames, ignore_index=True)
    keys = list(cols[:2]) if "seq" in cols or "round" in cols else [cols[0]]
    ordered: pd.DataFrame = df.sort_values(keys, kind="stable").reset_index(drop=True)
    return ordered


@dataclass
class Summary:
    """Win rates with Wilson intervals and game length with t intervals; prints as text."""

    win_rates: pd.DataFrame
    length: pd.DataFrame
    title: str

    def __str__(self) -> str:
        lines = [self.title, ""]
        w = self.win_rates
        key = str(w.columns[0])
        width = max([14, *(len(str(v)) + 2 for v in w.iloc[:, 0])])
        lines.append(f"{key:<{width}}{'games':>8}{'wins':>8}{'win rate':>10}   95% CI")
        for r in w.itertuples(index=False):
            lines.append(
                f"{r[0]!s:<{width}}{r.games:>8}{r.wins:>8}{r.win_rate:>10.3f}   "
                f"[{r.ci_low:.3f}, {r.ci_high:.3f}]"
            )
        lines.append("")
        lines.append(f"{'length':<{width}}{'games':>8}{'mean':>10}{'std':>10}   95% CI")
        for r in self.length.itertuples(index=False):
            lines.append(
                f"{r.measure:<{width}}{r.games:>8}{r.mean:>10.1f}{r.std:>10.1f}   "
                f"[{r.ci_low:.1f}, {r.ci_high:.1f}]"
            )
        return "\n".join(lines)

    def __repr__(self) -> str:
        return str(self)


class Results:
    """The outcome of :func:`~ugentopoly_widget.simulation.simulate`.

    ``games``: one row per finished game (see ``docs/simulation.md`` for the columns);
    ``failures``: game, seed, error, traceback of every game that raised or was lost;
    ``landings`` / ``net_worth`` / ``events``: the collections asked for (else None);
    ``complete``: every requested game has a row or a failure (False after Ctrl-C).
    """

    def __init__(self, settings: Settings, seed: int, requested: int, outcome: Outcome,
                 elapsed: float) -> None:
        self.settings = settings
        self.seed = seed
        self.requested = requested
        self.executor = outcome.executor
        self.workers = outcome.workers
        self.retried = outcome.retried
        self.elapsed = elapsed
        self.interrupted = outcome.interrupted
        chunks = outcome.chunks
        self.cpu_seconds = float(sum(c.cpu_seconds for c in chunks))
        self.games = _concat([c.rows for c in chunks], columns(settings.seats))
        failures = [f for c in chunks for f in c.failures] + outcome.lost
        self.failures = _concat([failures], FAILURE_COLUMNS)
        collect = settings.collect
        self.landings: Landings | None = None
        if collect.landings:
            parts = [c.landings for c in chunks if c.landings is not None]
            self.landings = sum(parts[1:], parts[0]) if parts else None
        self.net_worth = (
            _concat([c.net_worth for c in chunks], NET_WORTH_COLUMNS)
            if collect.net_worth_every else None
        )
        self.events = (
            _concat([c.events for c in chunks], EVENT_COLUMNS) if collect.event_games else None
        )
        done = np.zeros(requested, dtype=bool)
        done[self.games["game"].to_numpy()] = True
        done[self.failures["game"].to_numpy()] = True
        # kept as an array: a huge run stopped early misses millions of games
        self._missing = np.flatnonzero(~done)

    @property
    def missing(self) -> list[int]:
        """The numbers of the requested games that were not played (after Ctrl-C)."""
        missing: list[int] = self._missing.tolist()
        return missing

    @property
    def missing_count(self) -> int:
        return len(self._missing)

    @property
    def complete(self) -> bool:
        """Every requested game was played (to a row or a failure)."""
        return not len(self._missing)

    def __repr__(self) -> str:
        state = "complete" if self.complete else f"INCOMPLETE ({self.missing_count} not run)"
        bots = ", ".join(self.settings.labels)
        # no timings here: a notebook's output stays the same from run to run
        return (
            f"<Results {len(self.games)} games of {self.requested} {self.settings.profile.name} "
            f"[{bots}] seed {self.seed}, {len(self.failures)} failures, {state}>"
        )

    # ---------------------------------------------------------------- tables

    def seats(self) -> pd.DataFrame:
        """Long format: one row per game and seat (game, seat, bot, order, won, rank, cash,
        net_worth, bankrupt, properties, bought, built) with the game's turns, rounds and end."""
        g = self.games
        parts = []
        for seat in range(self.settings.seats):
            part = pd.DataFrame({"game": g["game"], "seat": seat})
            for name in SEAT_FIELDS:
                part[name] = g[f"{name}_{seat}"]
            for name in ("turns", "rounds", "end_reason"):
                part[name] = g[name]
            parts.append(part)
        if not parts:
            return frame([], ["game", "seat", *SEAT_FIELDS])
        out: pd.DataFrame = pd.concat(parts, ignore_index=True)
        ordered: pd.DataFrame = out.sort_values(["game", "seat"], kind="stable").reset_index(
            drop=True
        )
        return ordered

    def win_rates(self, by: str = "bot", confidence: float = 0.95) -> pd.DataFrame:
        """Wins per seat-game, grouped by ``"bot"``, ``"seat"`` or ``"order"`` (0 = moved
        first), with Wilson intervals. A shared win counts for every winner."""
        if by not in ("bot", "seat", "order"):
            raise ValueError(f"by is 'bot', 'seat' or 'order', not {by!r}")
        seats = self.seats()
        rows = []
        if len(seats):
            for key, group in seats.groupby(by, sort=True):
                n, k = len(group), int(group["won"].sum())
                low, high = wilson(k, n, confidence)
                rows.append((key, n, k, k / n, low, high))
        table: pd.DataFrame = pd.DataFrame(
            rows, columns=[by, "games", "wins", "win_rate", "ci_low", "ci_high"]
        )
        return table

    def game_length(self, confidence: float = 0.95) -> pd.DataFrame:
        """Mean turns and rounds per game with t intervals."""
        rows = []
        for measure in ("turns", "rounds"):
            ci = mean_ci(self.games[measure].astype(float).tolist(), confidence)
            rows.append((measure, ci.n, ci.mean, ci.std, ci.low, ci.high))
        table: pd.DataFrame = pd.DataFrame(
            rows, columns=["measure", "games", "mean", "std", "ci_low", "ci_high"]
        )
        return table

    def summary(self, by: str = "bot", confidence: float = 0.95) -> Summary:
        """Win rate per bot (or seat, or turn order) and mean game length, with intervals."""
        s = self.settings
        reasons = self.games["end_reason"].value_counts().sort_index()
        ends = ", ".join(f"{k} {v}" for k, v in reasons.items())
        title = (
            f"{len(self.games)} games of {s.profile.name} [{', '.join(s.labels)}]"
            f"{' (seats rotated)' if s.rotate_seats else ''}, seed {self.seed}; "
            f"ended by: {ends or '-'}; failures: {len(self.failures)}"
        )
        if not self.complete:
            title += f"; INCOMPLETE: {self.missing_count} of {self.requested} games not run"
        return Summary(self.win_rates(by, confidence), self.game_length(confidence), title)

    def landings_table(self) -> pd.DataFrame:
        """Per-tile landing counts and shares (In Jail as its own last row, tile = -1)."""
        if self.landings is None:
            raise ValueError("no landings were collected: simulate(..., collect=['landings'])")
        land = self.landings
        names = [*self.settings.tile_names, "In Jail"]
        counts = [*land.tiles, land.in_jail]
        total = sum(counts) or 1
        tiles = [*range(len(land.tiles)), -1]
        table: pd.DataFrame = pd.DataFrame(
            {"tile": tiles, "name": names, "count": counts,
             "share": [c / total for c in counts]}
        )
        return table

    # ---------------------------------------------------------------- other views

    def replay(self, game: int) -> Game:
        """Game number `game` of this run, played again in this process to its end (the same
        seed, bots and settings give the same game): look at its log, board, landings."""
        number = as_integer(game)  # a number read from self.games is a numpy integer
        if number is None or not 0 <= number < self.requested:
            raise ValueError(f"there is no game {game!r} in this run of {self.requested}")
        played, _ = play_one(self.settings, self.seed, number)
        return played

    def plot(self, kind: str = "win_rates", *, ax: Axes | None = None, **options: Any) -> Axes:
        """``"win_rates"`` (bars with 95 % CI; ``by=``), ``"length"`` (histogram of turns;
        ``measure="rounds"``), ``"net_worth"`` (mean trajectory per bot), ``"landings"``.
        Needs matplotlib: ``pip install ugentopoly_widget[plot]``."""
        from . import plots

        return plots.plot(self, kind, ax=ax, **options)

    def save(self, path: str | os.PathLike[str]) -> list[Path]:
        """Write ``games`` to `path` (Parquet for ``.parquet`` when pyarrow is installed, else
        CSV beside it) and each collection beside it (``<stem>.landings.csv`` ...). Each file
        is written whole to a temporary file beside it, then renamed over the old one: a
        failed write never leaves half a file. A bad path raises :class:`OutputError`."""
        target = output_path(path)
        suffix = target.suffix.lower()
        tables: dict[str, pd.DataFrame] = {"": self.games}
        if len(self.failures):
            tables["failures"] = self.failures
        if self.landings is not None:
            tables["landings"] = self.landings_table()
        if self.net_worth is not None:
            tables["net_worth"] = self.net_worth
        if self.events is not None:
            events = self.events.copy()
            events["data"] = events["data"].map(_json)
            tables["events"] = events
        written = []
        for name, table in tables.items():
            out = target if not name else target.with_name(f"{target.stem}.{name}{suffix}")
            _write_atomically(table, out, suffix)
            written.append(out)
        return written


class OutputError(UgentopolyError, ValueError):
    """Results cannot be written there: no such folder, no permission, an unknown extension."""


def output_path(path: str | os.PathLike[str]) -> Path:
    """The file :meth:`Results.save` writes for `path` (``.csv`` instead of ``.parquet``
    without pyarrow), checked before anything is played: a known extension, in a folder that
    exists and takes a new file. Raises :class:`OutputError` naming the problem."""
    try:
        target = Path(path)
    except TypeError:
        raise OutputError(f"an output path is a file name, not {type(path).__name__}") from None
    suffix = target.suffix.lower()
    if suffix not in (".parquet", ".csv"):
        raise OutputError(f"save to a .parquet or .csv file, not {target.name!r}")
    if suffix == ".parquet" and not has_parquet():
        target = target.with_suffix(".csv")
    folder = target.parent
    if target.is_dir():
        raise OutputError(f"{target} is a folder: name a file in it")
    if not folder.is_dir():
        raise OutputError(f"no folder {folder} to write {target.name} in")
    try:  # a real file, as the write will make one (read-only mounts, permissions, quotas)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=f".{target.name}.", suffix=".tmp"):
            pass
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the name
        raise OutputError(f"cannot write in {folder}: "
                          f"{getattr(exc, 'strerror', None) or exc}") from None
    return target


def _write_atomically(table: pd.DataFrame, out: Path, suffix: str) -> None:
    handle, temp = tempfile.mkstemp(dir=out.parent, prefix=f".{out.name}.", suffix=".tmp")
    os.close(handle)
    try:
        if suffix == ".parquet":
            table.to_parquet(temp, index=False)
        else:
            table.to_csv(temp, index=False)
        os.replace(temp, out)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def _json(value: Any) -> str:
    import json

    return json.dumps(value, sort_keys=True)


def has_parquet() -> bool:
    return importlib.util.find_spec("pyarrow") is not None


__all__ = ["Results", "Summary", "OutputError", "output_path", "frame", "compact",
           "has_parquet"]
