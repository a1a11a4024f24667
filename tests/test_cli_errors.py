"""The command line under careless input (issue 25, items 4-6): worker counts refused as the
API refuses them, the output path checked before the first game and written atomically, the
scheduler address checked at once and reached within a short stated time, and one line with a
non-zero exit, never a traceback, for any mistake of the caller's."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from ugentopoly_widget.simulation import Results, cli, results

ARGS = ["--profile", "classic", "--games", "4", "--bots", "heuristic,random",
        "--option", "round_limit=10", "--no-progress"]


def run_cli(args: list[str], cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ugentopoly_widget", "simulate", *args],
                          capture_output=True, text=True, cwd=cwd, timeout=timeout)


def closed_port() -> int:
    """A local TCP port with nothing listening (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# ---------------------------------------------------------------- item 4


@pytest.mark.parametrize("workers", ["0", "-1"])
def test_worker_counts_below_one_are_refused_as_the_api_refuses_them(
        workers: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Before: exit 0, the run played in-process."""
    code = cli.main([*ARGS, "--workers", workers, "--out", str(tmp_path / "r.csv")])
    assert code == 1
    assert "workers must be a positive integer" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


# ---------------------------------------------------------------- item 5


@pytest.mark.parametrize(("out", "message"), [
    ("missing/results.parquet", "no folder"),
    ("results.xlsx", "save to a .parquet or .csv file"),
    (".", "save to a .parquet or .csv file"),
    ("folder.csv", "is a folder"),
])
def test_the_output_path_is_checked_before_the_first_game(
        out: str, message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Before: 20,000 games played for 13 s, then a traceback, and nothing was kept."""
    (tmp_path / "folder.csv").mkdir()
    run = run_cli([*ARGS, "--games", "20000", "--out", out], tmp_path)
    assert run.returncode == 1, run.stdout + run.stderr
    assert message in run.stderr and "Traceback" not in run.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder.csv"]
    # no game played: the same call in this process never reaches simulate()
    played: list[Any] = []
    monkeypatch.setattr(cli, "simulate", lambda *a, **k: played.append(a))
    monkeypatch.chdir(tmp_path)
    assert cli.main([*ARGS, "--games", "20000", "--out", out]) == 1
    assert played == [] and message in capsys.readouterr().err


def test_a_folder_that_takes_no_file_is_refused_before_the_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A real file is made and removed where the results go (permissions, a read-only mount,
    a quota: what os.access would not tell, and root is never refused by it)."""
    played: list[int] = []
    monkeypatch.setattr(cli, "simulate", lambda *a, **k: played.append(1))

    def refused(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(results.tempfile, "NamedTemporaryFile", refused)
    assert cli.main([*ARGS, "--out", str(tmp_path / "r.csv")]) == 1
    assert f"cannot write in {tmp_path}: Permission denied" in capsys.readouterr().err
    assert not played


def test_results_are_written_atomically(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A write that fails half way leaves the old file as it was, and no temporary file;
    before, an existing file was overwritten in place."""
    from ugentopoly_widget import simulate

    run: Results = simulate(3, "classic", options={"round_limit": 10}, progress=False)
    target = tmp_path / "r.csv"
    target.write_text("old results\n")

    def broken(self: pd.DataFrame, path: str, **kwargs: object) -> None:
        Path(path).write_text("game,seed\n1,")  # half a table, then the disk is full
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pd.DataFrame, "to_csv", broken)
    with pytest.raises(OSError, match="No space left"):
        run.save(target)
    assert target.read_text() == "old results\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.csv"]
    monkeypatch.undo()
    written = run.save(target)
    assert written[0] == target and len(pd.read_csv(target)) == 3
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_the_summary_is_printed_even_when_the_write_fails(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    def full_disk(self: Results, path: object) -> list[Path]:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(results.Results, "save", full_disk)
    code = cli.main([*ARGS, "--workers", "1", "--out", str(tmp_path / "r.csv")])
    captured = capsys.readouterr()
    assert code == 1
    assert "4 games of classic" in captured.out  # the summary is not lost
    assert "could not write" in captured.err and "No space left" in captured.err


# ---------------------------------------------------------------- item 6


@pytest.mark.parametrize("address", ["not an address", "tcp://", "tcp://host", "tcp://h:0",
                                     "tcp://h:99999", "ftp://h:1", "tcp://a b:8786"])
def test_a_scheduler_address_of_the_wrong_form_is_refused_at_once(
        address: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Before: "not an address" ended in a ValueError traceback."""
    run = run_cli([*ARGS, "--scheduler", address, "--out", "r.csv"], tmp_path)
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    assert "--scheduler" in run.stderr and "tcp://HOST:PORT" in run.stderr
    assert not list(tmp_path.iterdir())
    # at once: nothing tries to reach it (the same call in this process)
    tried: list[Any] = []
    monkeypatch.setattr(cli, "connect", lambda *a, **k: tried.append(a))
    monkeypatch.chdir(tmp_path)
    assert cli.main([*ARGS, "--scheduler", address, "--out", "r.csv"]) == 1
    assert tried == [] and "tcp://HOST:PORT" in capsys.readouterr().err


def test_forms_of_scheduler_addresses() -> None:
    assert cli.scheduler_address("10.0.0.5:8786") == "tcp://10.0.0.5:8786"
    assert cli.scheduler_address("tls://sched.example.org:8786") == "tls://sched.example.org:8786"
    assert cli.scheduler_address("tcp://[::1]:8786") == "tcp://[::1]:8786"


def test_ctrl_c_while_reaching_the_scheduler_ends_without_a_traceback(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def waiting(address: str, timeout: float) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "connect", waiting)
    assert cli.main([*ARGS, "--scheduler", "tcp://127.0.0.1:8786", "--out", "r.csv"]) == 130
    assert capsys.readouterr().err.strip() == "interrupted"


def test_an_unreachable_scheduler_fails_within_the_stated_timeout(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: 31 s for a closed port (Dask's own 30 s timeout, not the stated one)."""
    port = closed_port()
    run = run_cli([*ARGS, "--scheduler", f"tcp://127.0.0.1:{port}", "--connect-timeout", "2",
                   "--out", "r.csv"], tmp_path)
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    assert f"cannot reach the Dask scheduler at tcp://127.0.0.1:{port} within 2 s" in run.stderr
    assert cli.parser().parse_args([]).connect_timeout == cli.DEFAULT_CONNECT_TIMEOUT == 5
    # the stated timeout is the one Dask waits (not a wall time here: the machine may be busy)
    import distributed

    asked: list[Any] = []

    def client(address: str, timeout: float) -> Any:
        asked.append((address, timeout))
        raise OSError("refused")

    monkeypatch.setattr(distributed, "Client", client)
    with pytest.raises(cli.UsageError, match="within 2 s"):
        cli.connect(f"tcp://127.0.0.1:{port}", 2.0)
    assert asked == [(f"tcp://127.0.0.1:{port}", 2.0)]


BAD_INVOCATIONS = [
    ["--games", "abc"], ["--games", "0"], ["--games", "-5"], ["--games", str(10**13)],
    ["--workers", "x"], ["--workers", "0"], ["--seed", "-1"], ["--seed", "1.5"],
    ["--chunk-size", "0"], ["--profile", "chess"], ["--bots", "nobody,heuristic"],
    ["--bots", ",,,"], ["--players", "A,B,C"], ["--board", "/no/such/board.xml"],
    ["--board", "/"], ["--option", "round_limit"], ["--option", "no_such=1"],
    ["--option", "round_limit=\"ten\""], ["--option", "round_limit=" + "[" * 5000],
    ["--collect", "everything"], ["--summary-by", "colour"], ["--out", "r.json"],
    ["--out", "/no/such/dir/r.csv"], ["--scheduler", "::::"], ["--connect-timeout", "-1"],
    ["--connect-timeout", "soon"], ["--no-such-flag"], ["--option", "=5"],
]


@pytest.mark.parametrize("extra", BAD_INVOCATIONS, ids=lambda a: " ".join(a)[:40])
def test_no_traceback_for_any_user_error(extra: list[str], tmp_path: Path) -> None:
    run = run_cli([*ARGS, "--out", "r.csv", *extra], tmp_path)
    assert run.returncode in (1, 2), (run.returncode, run.stdout, run.stderr)
    assert "Traceback" not in run.stderr and "Traceback" not in run.stdout, run.stderr
    assert run.stderr.strip(), "a refusal says why"
    assert not list(tmp_path.iterdir())  # nothing written
