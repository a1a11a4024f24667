"""Pictures of results, as functions of the results (matplotlib: an optional extra, imported
only when a plot is asked for)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd

from .extras import require

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from .experiments import Comparison, Sweep
    from .results import Results

KINDS = ("win_rates", "length", "net_worth", "landings")


def _axes(ax: Axes | None, feature: str) -> Axes:
    if ax is not None:
        return ax
    plt = require("matplotlib.pyplot", "plot", feature)
    _, new_ax = plt.subplots(figsize=(7, 3.5))
    axes: Axes = new_ax
    return axes


def _error_bars(table: pd.DataFrame, value: str) -> list[list[float]]:
    return [
        (table[value] - table["ci_low"]).clip(lower=0).tolist(),
        (table["ci_high"] - table[value]).clip(lower=0).tolist(),
    ]


def plot(results: Results, kind: str, *, ax: Axes | None = None, **options: Any) -> Axes:
    if kind not in KINDS:
        raise ValueError(f"plot kind is one of {list(KINDS)}, not {kind!r}")
    ax = _axes(ax, f"results.plot({kind!r})")
    if kind == "win_rates":
        by = options.get("by", "bot")
        table = results.win_rates(by)
        labels = [str(v) for v in table[by]]
        ax.bar(labels, table["win_rate"], yerr=_error_bars(table, "win_rate"), capsize=4,
               color="#4363d8")
        ax.set_ylabel("win rate (95 % CI)")
        ax.set_xlabel({"bot": "bot", "seat": "seat", "order": "turn order (0 = first)"}[by])
        ax.set_ylim(0, max(1e-9, float(table["ci_high"].max()) * 1.15) if len(table) else 1)
    elif kind == "length":
        measure = options.get("measure", "turns")
        ax.hist(results.games[measure], bins=options.get("bins", 30), color="#3cb44b")
        ax.set_xlabel(measure)
        ax.set_ylabel("games")
        mean = float(results.games[measure].mean())
        ax.axvline(mean, color="black", linestyle="--", label=f"mean {mean:.1f}")
        ax.legend()
    elif kind == "net_worth":
        if results.net_worth is None:
            raise ValueError("no net worth was collected: simulate(..., collect=['net_worth'])")
        samples = results.net_worth[~results.net_worth["final"]]
        mean = samples.groupby(["bot", "round"])["net_worth"].mean().unstack("bot")
        for bot in mean.columns:
            ax.plot(mean.index, mean[bot], label=str(bot))
        ax.set_xlabel("completed rounds")
        ax.set_ylabel("mean net worth (games still running)")
        ax.legend()
    else:
        table = results.landings_table()
        ax.bar(range(len(table)), table["share"] * 100, color="#f58231")
        ax.set_xticks(range(len(table)), table["name"], rotation=90, fontsize=6)
        ax.set_ylabel("% of rolls ending here")
    ax.set_title(options.get("title", _title(results, kind)))
    return ax


def _title(results: Results, kind: str) -> str:
    what = {"win_rates": "Win rates", "length": "Game length", "net_worth": "Net worth",
            "landings": "Landings"}[kind]
    return f"{what}: {len(results.games)} games of {results.settings.profile.name}"


def plot_comparison(comparison: Comparison, *, ax: Axes | None = None, by: str = "bot",
                    **options: Any) -> Axes:
    ax = _axes(ax, "comparison.plot()")
    table = comparison.differences(by)
    table = table[table["measure"] == "win_rate"]
    labels = [str(g) for g in table["group"]]
    ax.barh(labels, table["diff"], xerr=_error_bars(table, "diff"), capsize=4, color="#911eb4")
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_ylabel(by)
    a, b = comparison.labels
    ax.set_xlabel(f"win rate {a} minus {b} (paired, 95 % CI)")
    ax.set_title(options.get("title", f"{a} vs {b}: {comparison.paired_games} paired games"))
    return ax


def plot_sweep(sweep: Sweep, *, ax: Axes | None = None, measure: str = "win_rate",
               by: str = "bot", **options: Any) -> Axes:
    ax = _axes(ax, "sweep.plot()")
    table = sweep.table(by)
    table = table[table["measure"] == measure]
    positions = {v: k for k, v in enumerate(dict.fromkeys(table["value"]))}
    for group, rows in table.groupby("group", sort=True):
        x = [positions[v] for v in rows["value"]]
        ax.errorbar(x, rows["estimate"], yerr=_error_bars(rows, "estimate"), capsize=4,
                    marker="o", label=str(group))
    ax.set_xticks(list(positions.values()), [str(v) for v in positions])
    ax.set_xlabel(sweep.param)
    ax.set_ylabel(f"{measure.replace('_', ' ')} (95 % CI)")
    ax.legend()
    ax.set_title(options.get("title", f"{measure.replace('_', ' ')} by {sweep.param}"))
    return ax


__all__ = ["plot", "plot_comparison", "plot_sweep", "KINDS"]
