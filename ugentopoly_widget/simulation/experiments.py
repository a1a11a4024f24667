"""Experiments: two settings on the same seeds (``compare``), or one parameter over a grid
(``sweep``), with confidence intervals.

Common random numbers: both settings play game *i* from the same seed, so the dice and cards
start out the same and only the difference of the settings separates them. The paired
difference of per-game outcomes then has a far narrower interval than two independent runs.

>>> from ugentopoly_widget import compare
>>> c = compare({"bots": ["heuristic", "heuristic"]}, {"bots": ["heuristic", "random"]}, 30,
...             profile="classic", options={"round_limit": 40}, progress=False)
>>> c.paired_games
30
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pandas as pd

from ..engine.errors import SetupError
from ..engine.rules import get_profile
from .api import check_games, simulate
from .results import Results
from .settings import make_settings
from .stats import mean_ci, paired_ci

if TYPE_CHECKING:
    from matplotlib.axes import Axes

_SIMULATE_KEYS = frozenset(inspect.signature(simulate).parameters) - {"games"}
_SETTINGS_KEYS = ("profile", "board", "players", "bots", "options", "rotate_seats", "collect",
                  "max_actions")


def _merge(common: Mapping[str, Any], override: Mapping[str, Any], what: str) -> dict[str, Any]:
    if not isinstance(override, Mapping):
        raise SetupError(f"{what} is a mapping of simulate() arguments, e.g. "
                         "{'options': {'income_tax_choice': False}}")
    unknown = sorted(set(override) - _SIMULATE_KEYS)
    if unknown:
        raise SetupError(f"{what}: unknown simulate() argument(s) {unknown}")
    merged = dict(common)
    for key, value in override.items():
        if key == "options" and isinstance(value, Mapping):
            merged["options"] = {**dict(common.get("options") or {}), **value}
        else:
            merged[key] = value
    return merged


def _validate(kwargs: Mapping[str, Any]) -> None:
    """Check one setting completely before any game of the experiment is played."""
    args = {k: kwargs[k] for k in _SETTINGS_KEYS if k in kwargs}
    args.setdefault("profile", "ugentopoly")
    args.setdefault("board", None)
    args.setdefault("players", None)
    args.setdefault("bots", "heuristic")
    args.setdefault("options", None)
    args.setdefault("rotate_seats", False)
    args.setdefault("collect", None)
    args.setdefault("max_actions", 1_000_000)
    profile = args.pop("profile")
    make_settings(profile, **args)


def _per_game(results: Results, by: str) -> pd.DataFrame:
    """Per game and group: the share of the group's seats that won (its win rate in that game)."""
    seats = results.seats()
    wide: pd.DataFrame = seats.groupby(["game", by])["won"].mean().unstack(by)
    return wide


def _describe(kwargs: Mapping[str, Any]) -> str:
    parts = []
    for key, value in kwargs.items():
        if key == "options" and isinstance(value, Mapping):
            parts += [f"{k}={v!r}" for k, v in value.items()]
        else:
            parts.append(f"{key}={value!r}")
    return ", ".join(parts) or "(defaults)"


@dataclass
class Comparison:
    """Two runs on the same seeds; ``differences()`` gives A - B with paired intervals."""

    a: Results
    b: Results
    labels: tuple[str, str]
    settings: tuple[str, str] = ("", "")

    @property
    def paired_games(self) -> int:
        return len(set(self.a.games["game"]) & set(self.b.games["game"]))

    def differences(self, by: str = "bot", confidence: float = 0.95) -> pd.DataFrame:
        """One row per measure and group: A's and B's estimate, A - B and its interval from
        the per-game paired differences (win rate per ``by`` group; turns; rounds)."""
        rows = []
        a_games = self.a.games.set_index("game")
        b_games = self.b.games.set_index("game")
        common = a_games.index.intersection(b_games.index)
        pa, pb = _per_game(self.a, by), _per_game(self.b, by)
        for group in [g for g in pa.columns if g in pb.columns]:
            both = pd.concat([pa[group], pb[group]], axis=1, keys=["a", "b"]).dropna()
            ci = paired_ci(both["a"].tolist(), both["b"].tolist(), confidence)
            rows.append(("win_rate", group, both["a"].mean(), both["b"].mean(), ci.mean,
                         ci.low, ci.high, ci.n))
        for measure in ("turns", "rounds"):
            a = a_games.loc[common, measure].astype(float).tolist()
            b = b_games.loc[common, measure].astype(float).tolist()
            ci = paired_ci(a, b, confidence)
            mean_a = sum(a) / len(a) if a else float("nan")
            mean_b = sum(b) / len(b) if b else float("nan")
            rows.append((measure, "all", mean_a, mean_b, ci.mean, ci.low, ci.high, ci.n))
        table: pd.DataFrame = pd.DataFrame(
            rows, columns=["measure", "group", "a", "b", "diff", "ci_low", "ci_high", "games"]
        )
        return table

    def __str__(self) -> str:
        a, b = self.labels
        lines = [
            f"A = {a}: {self.settings[0]}",
            f"B = {b}: {self.settings[1]}",
            f"{self.paired_games} paired games (seed {self.a.seed}, common random numbers)",
            "",
            f"{'measure':<10}{'group':<14}{'A':>9}{'B':>9}{'A - B':>9}   95% CI",
        ]
        for r in self.differences().itertuples(index=False):
            digits = 3 if r.measure == "win_rate" else 1
            lines.append(
                f"{r.measure:<10}{r.group!s:<14}{r.a:>9.{digits}f}{r.b:>9.{digits}f}"
                f"{r.diff:>+9.{digits}f}   [{r.ci_low:+.{digits}f}, {r.ci_high:+.{digits}f}]"
            )
        return "\n".join(lines)

    def __repr__(self) -> str:
        return str(self)

    def plot(self, *, ax: Axes | None = None, by: str = "bot", **options: Any) -> Axes:
        """Win-rate differences A - B per group with paired 95 % intervals."""
        from .plots import plot_comparison

        return plot_comparison(self, ax=ax, by=by, **options)


def compare(
    a: Mapping[str, Any],
    b: Mapping[str, Any],
    games: int,
    *,
    labels: tuple[str, str] = ("A", "B"),
    **common: Any,
) -> Comparison:
    """Run settings `a` and `b` (each a mapping of :func:`simulate` arguments over `common`;
    ``options`` are merged) on the same seeds and compare them.

    ``compare({"options": {"income_tax_choice": True}}, {"options": {"income_tax_choice":
    False}}, 2000, profile="classic", bots=["heuristic"] * 4, executor="processes")``"""
    unknown = sorted(set(common) - _SIMULATE_KEYS)
    if unknown:
        raise SetupError(f"unknown simulate() argument(s) {unknown}")
    kwargs_a, kwargs_b = _merge(common, a, "a"), _merge(common, b, "b")  # both mappings
    if "seed" in a or "seed" in b:
        raise SetupError("compare() plays both settings on the same seed: give seed once")
    check_games(games)  # before either run plays a game
    _validate(kwargs_a)
    _validate(kwargs_b)
    run_a = simulate(games, **kwargs_a)
    run_b = simulate(games, **kwargs_b)
    return Comparison(run_a, run_b, labels, (_describe(a), _describe(b)))


@dataclass
class Sweep:
    """Runs of one parameter over a grid of values, on the same seeds."""

    param: str
    values: list[Any]
    runs: list[Results] = field(default_factory=list)

    def table(self, by: str = "bot", confidence: float = 0.95) -> pd.DataFrame:
        """Long format: value, measure (win_rate / turns / rounds), group, estimate, interval
        (Wilson for win rates, t for means), games."""
        rows = []
        for value, run in zip(self.values, self.runs, strict=True):
            label = _value_label(value)
            for r in run.win_rates(by, confidence).itertuples(index=False):
                rows.append((label, "win_rate", r[0], r.win_rate, r.ci_low, r.ci_high, r.games))
            for measure in ("turns", "rounds"):
                ci = mean_ci(run.games[measure].astype(float).tolist(), confidence)
                rows.append((label, measure, "all", ci.mean, ci.low, ci.high, ci.n))
        table: pd.DataFrame = pd.DataFrame(
            rows, columns=["value", "measure", "group", "estimate", "ci_low", "ci_high", "games"]
        )
        return table

    def __str__(self) -> str:
        lines = [f"sweep of {self.param} over {[_value_label(v) for v in self.values]}", ""]
        lines.append(f"{'value':<16}{'measure':<10}{'group':<14}{'estimate':>10}   95% CI")
        for r in self.table().itertuples(index=False):
            digits = 3 if r.measure == "win_rate" else 1
            lines.append(
                f"{r.value:<16}{r.measure:<10}{r.group!s:<14}{r.estimate:>10.{digits}f}   "
                f"[{r.ci_low:.{digits}f}, {r.ci_high:.{digits}f}]"
            )
        return "\n".join(lines)

    def __repr__(self) -> str:
        return str(self)

    def plot(self, *, ax: Axes | None = None, measure: str = "win_rate", by: str = "bot",
             **options: Any) -> Axes:
        from .plots import plot_sweep

        return plot_sweep(self, ax=ax, measure=measure, by=by, **options)


def _value_label(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


def sweep(param: str, values: Sequence[Any], games: int, **common: Any) -> Sweep:
    """Run :func:`simulate` once per value of `param` (a simulate() argument such as ``bots``
    or ``players``, or else a rules option of the profile) on the same seeds."""
    if not isinstance(param, str):
        raise SetupError("param is the name of a simulate() argument or a rules option")
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) or not values:
        raise SetupError("values is a non-empty list")
    unknown = sorted(set(common) - _SIMULATE_KEYS)
    if unknown:
        raise SetupError(f"unknown simulate() argument(s) {unknown}")
    if param in ("seed", "games"):
        raise SetupError(f"a sweep keeps {param} fixed")
    check_games(games)  # before the first run plays a game
    is_option = param not in _SIMULATE_KEYS
    if is_option:
        profile = get_profile(common.get("profile", "ugentopoly"))
        if param not in profile.to_dict():
            raise SetupError(
                f"{param!r} is neither a simulate() argument nor a rules option of "
                f"{profile.name!r}"
            )
    settings = []
    for value in values:
        override = {"options": {param: value}} if is_option else {param: value}
        kwargs = _merge(common, override, f"{param}={value!r}")
        _validate(kwargs)
        settings.append(kwargs)
    result = Sweep(param, list(values))
    for kwargs in settings:
        result.runs.append(simulate(games, **kwargs))
    return result


__all__ = ["compare", "sweep", "Comparison", "Sweep"]
