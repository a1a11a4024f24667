"""The command line end to end, plots, and the messages for missing extras."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import matplotlib
import pandas as pd
import pytest

from ugentopoly_widget.simulation import MissingExtraError, cli, extras, results, simulate

matplotlib.use("Agg")

ARGS = ["--profile", "classic", "--games", "6", "--bots", "heuristic,random",
        "--option", "round_limit=20", "--no-progress"]


def expected() -> pd.DataFrame:
    return simulate(6, "classic", bots=["heuristic", "random"], options={"round_limit": 20},
                    progress=False).games


def test_cli_end_to_end_parquet(tmp_path: Path) -> None:
    out = tmp_path / "results.parquet"
    run = subprocess.run(
        [sys.executable, "-m", "ugentopoly_widget", "simulate", *ARGS, "--workers", "2",
         "--out", str(out)],
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert run.returncode == 0, run.stderr
    assert "6 games of classic [heuristic, random]" in run.stdout
    assert "processes x2" in run.stdout and f"wrote {out}" in run.stdout
    back = pd.read_parquet(out)
    want = expected()
    assert back["seed"].tolist() == want["seed"].tolist()
    assert back["end_reason"].tolist() == want["end_reason"].tolist()
    pd.testing.assert_frame_equal(back.astype(want.dtypes.to_dict()), want)
    landings = pd.read_parquet(tmp_path / "results.landings.parquet")
    assert landings["count"].sum() > 0 and landings["name"].iloc[0] == "GO"


def test_cli_writes_csv_without_pyarrow(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(results, "has_parquet", lambda: False)
    monkeypatch.setattr(cli, "has_parquet", lambda: False)
    code = cli.main([*ARGS, "--workers", "1", "--out", str(tmp_path / "r.parquet"),
                     "--collect", "landings,net_worth", "--rotate-seats"])
    assert code == 0
    captured = capsys.readouterr()
    assert "pip install ugentopoly_widget[parquet]" in captured.err
    assert not (tmp_path / "r.parquet").exists()
    back = pd.read_csv(tmp_path / "r.csv")
    assert len(back) == 6 and back["rotation"].tolist() == [0, 1, 0, 1, 0, 1]
    assert len(pd.read_csv(tmp_path / "r.net_worth.csv")) > 0
    assert "serial x1" in captured.out


@pytest.mark.parametrize(("extra", "message"), [
    (["--bots", "heuristic,nobody"], "unknown bot 'nobody'"),
    (["--option", "no_such_rule=1"], "unknown rules option"),
    (["--games", "0"], "games must be a positive integer"),
])
def test_cli_bad_input(extra: list[str], message: str, tmp_path: Path,
                       capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([*ARGS, *extra, "--out", str(tmp_path / "x.csv")]) == 1
    assert message in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


def test_main_module_lists_its_commands() -> None:
    run = subprocess.run([sys.executable, "-m", "ugentopoly_widget"], capture_output=True,
                         text=True)
    assert run.returncode == 0 and "simulate" in run.stdout
    run = subprocess.run([sys.executable, "-m", "ugentopoly_widget", "fly"],
                         capture_output=True, text=True)
    assert run.returncode == 2 and "unknown command 'fly'" in run.stderr


def test_plots_draw_what_the_results_hold() -> None:
    res = simulate(12, "classic", bots=["heuristic", "random", "heuristic"], progress=False,
                   options={"round_limit": 30}, collect={"landings": "roll", "net_worth": 5})
    ax = res.plot("win_rates")
    assert [b.get_height() for b in ax.patches] == pytest.approx(
        res.win_rates()["win_rate"].tolist())
    ax = res.plot("length", bins=5)
    assert sum(b.get_height() for b in ax.patches) == 12
    ax = res.plot("net_worth")
    assert sorted(line.get_label() for line in ax.get_lines()) == ["heuristic", "random"]
    ax = res.plot("landings")
    assert len(ax.patches) == 41
    with pytest.raises(ValueError, match="plot kind"):
        res.plot("pie")
    from ugentopoly_widget import compare, sweep

    c = compare({}, {"bots": ["heuristic", "heuristic", "heuristic"]}, 6, profile="classic",
                bots=["heuristic", "random", "heuristic"], options={"round_limit": 20},
                progress=False)
    assert len(c.plot().patches) == 1  # heuristic is in both line-ups
    s = sweep("round_limit", [5, 10], 4, profile="classic", progress=False)
    assert len(s.plot(measure="rounds").get_lines()) >= 1
    import matplotlib.pyplot as plt

    plt.close("all")


def test_missing_extras_say_what_to_install(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    real = importlib.import_module

    def missing(name: str, package: str | None = None) -> object:
        if name.split(".")[0] in ("matplotlib", "distributed"):
            raise ImportError(f"No module named {name!r}")
        return real(name, package)

    monkeypatch.setattr(extras.importlib, "import_module", missing)
    res = simulate(2, "classic", progress=False, options={"round_limit": 5})
    with pytest.raises(MissingExtraError, match=r"pip install ugentopoly_widget\[plot\]"):
        res.plot("length")
    assert cli.main([*ARGS, "--scheduler", "tcp://127.0.0.1:1"]) == 1
    assert "pip install ugentopoly_widget[dask]" in capsys.readouterr().err
