"""Random arguments of the right and the wrong types thrown at simulate, compare, sweep, the
command line, landing_distribution, simulate_landings and the widget's request handler (issue
25, "Done when"). Each case runs in a forked child with a memory cap and a timeout
(tests/child.py); it must end in a named error (one of the package's own, or argparse's exit
for the command line) or a correct result: never an unnamed exception, a hang or unbounded
memory. The cases are drawn from a fixed seed: a failure names its case, and re-runs it."""

from __future__ import annotations

import math
import os
import random
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from child import is_named, run_in_child

from ugentopoly_widget import Game, compare, simulate, sweep
from ugentopoly_widget.probability import landing_distribution, simulate_landings
from ugentopoly_widget.simulation import cli
from ugentopoly_widget.widget import UgentopolyWidget

TIMEOUT = 90.0  # seconds a case may take (the slowest legal ones play a few short games)
MEMORY_MB = 700  # address space a case may add


def _deep(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


# Values of every type: numbers in and out of range, numpy scalars and arrays, text,
# containers, objects that cannot be compared or pickled. (Not objects whose own __repr__
# raises: an error message that names the value would pass their exception on.)
JUNK: list[Any] = [
    0, 1, 2, 3, -1, 10**13, 2**70, np.int64(2), np.uint8(3), np.int64(-4),
    2.0, 1.5, float("nan"), float("inf"), -0.0, np.float64(2.0),
    True, False, np.bool_(True),
    "", "x", "classic", "cell22", "ugentopoly", "heuristic", "random", "processes", "roll",
    "turn", "long", "\x00", "x" * 5000, "bundled:classic", "bundled:../x", "/no/such.xml", "/",
    None, [], [1], ["heuristic", "random"], ["heuristic"] * 9, {}, {"round_limit": 5},
    {"x": 1}, {"landings": "turn"}, (1, 2), set(), frozenset({1}), _deep(60), b"bytes",
    np.array([1, 2]), np.array([]), np.zeros((2, 2)), object(),
    lambda seed=0: None, Path("/"), math.pi, 1j, range(3), Ellipsis,
]
FAST_OPTIONS = {"round_limit": 8}


def pick(rng: random.Random, good: list[Any]) -> Any:
    """A value that fits (half the time) or anything at all."""
    return rng.choice(good) if rng.random() < 0.5 else rng.choice(JUNK)


def describe(value: Any) -> str:
    try:
        text = repr(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    return text if len(text) < 120 else text[:117] + "..."


def check(outcome: tuple[Any, ...], case: str, valid: Callable[[Any], bool]) -> None:
    if outcome[0] == "ok":
        assert valid(outcome[1]), f"{case}: a wrong result {outcome[1]!r}"
        return
    assert is_named(outcome), f"{case}: {outcome[:4]}\n{outcome[4] if len(outcome) > 4 else ''}"


# ---------------------------------------------------------------- simulate, compare, sweep


def simulate_kwargs(rng: random.Random) -> dict[str, Any]:
    choices: dict[str, list[Any]] = {
        "board": [None, "bundled:classic", "bundled:classic-standard-decks"],
        "players": [2, 3, ["A", "B"], None],
        "bots": ["heuristic", "random", ["heuristic", "random"]],
        "options": [FAST_OPTIONS, {"round_limit": 5, "free_parking_pot": True}],
        "seed": [0, 7, np.int64(3), 2**100],
        "executor": [None, "processes"],
        "workers": [1, 2, np.int64(2), 10_000],
        "chunk_size": [1, 2, 10**9],
        "progress": [False],
        "collect": [("landings",), {"net_worth": 2, "events": 1}, None, "landings"],
        "rotate_seats": [True, False],
        "max_actions": [50, 10**6],
    }
    kwargs = {key: pick(rng, good) for key, good in choices.items() if rng.random() < 0.45}
    kwargs.setdefault("progress", False)
    if "options" not in kwargs or rng.random() < 0.8:  # mostly short games
        kwargs["options"] = FAST_OPTIONS
    return kwargs


def _played(value: Any) -> bool:
    kind, rows, requested, complete = value
    return kind == "Results" and rows == requested and complete


def run_simulate(games: Any, profile: Any, kwargs: dict[str, Any]) -> tuple[str, int, int, bool]:
    results = simulate(games, profile, **kwargs)
    return (type(results).__name__, len(results.games) + len(results.failures),
            results.requested, results.complete)


@pytest.mark.parametrize("case", range(36))
def test_simulate_fuzz(case: int) -> None:
    rng = random.Random(1000 + case)
    games = pick(rng, [1, 2, 3, np.int64(2)])
    profile = pick(rng, ["classic", "cell22", "ugentopoly"])
    kwargs = simulate_kwargs(rng)
    name = f"simulate({describe(games)}, {describe(profile)}, {describe(kwargs)})"
    outcome = run_in_child(lambda: run_simulate(games, profile, kwargs), timeout=TIMEOUT,
                           memory_mb=MEMORY_MB)
    check(outcome, name, _played)


@pytest.mark.parametrize("case", range(12))
def test_compare_fuzz(case: int) -> None:
    rng = random.Random(2000 + case)
    a = pick(rng, [{}, {"bots": ["random", "random"]}, {"options": {"round_limit": 6}}])
    b = pick(rng, [{}, {"bots": ["heuristic", "random"]}, {"rotate_seats": True}])
    games = pick(rng, [1, 2, np.int64(2)])
    common = {k: v for k, v in simulate_kwargs(rng).items() if k != "seed" or rng.random() < .5}

    def call() -> tuple[str, int]:
        result = compare(a, b, games, profile="classic", **common)
        return type(result).__name__, result.paired_games

    name = f"compare({describe(a)}, {describe(b)}, {describe(games)}, {describe(common)})"
    outcome = run_in_child(call, timeout=TIMEOUT, memory_mb=MEMORY_MB)
    check(outcome, name, lambda v: v[0] == "Comparison" and v[1] >= 0)


@pytest.mark.parametrize("case", range(12))
def test_sweep_fuzz(case: int) -> None:
    rng = random.Random(3000 + case)
    param = pick(rng, ["round_limit", "bots", "players", "free_parking_pot", "seed", "games"])
    values = pick(rng, [[5, 8], [["heuristic", "random"], ["random", "random"]], [2, 3],
                        [True, False]])
    games = pick(rng, [1, 2])
    common = simulate_kwargs(rng)
    if isinstance(param, str) and param == "round_limit":
        common.pop("options", None)  # the sweep sets it

    def call() -> tuple[str, int, int]:
        result = sweep(param, values, games, profile="classic", **common)
        return type(result).__name__, len(result.runs), len(result.values)

    name = f"sweep({describe(param)}, {describe(values)}, {describe(games)}, {describe(common)})"
    outcome = run_in_child(call, timeout=TIMEOUT, memory_mb=MEMORY_MB)
    check(outcome, name, lambda v: v[0] == "Sweep" and v[1] == v[2] > 0)


# ---------------------------------------------------------------- the command line


FLAGS: dict[str, list[str]] = {
    "--profile": ["classic", "cell22", "chess", ""],
    "--games": ["1", "2", "0", "-3", "abc", "1e3", str(10**13), ""],
    "--bots": ["heuristic,random", "random", "nobody", ",", "heuristic," * 9],
    "--players": ["A,B", "A", "A,B,C,D,E,F,G,H,I"],
    "--board": ["/no/such.xml", "/", "bundled:classic", "/dev/null"],
    "--option": ["round_limit=6", "round_limit=x", "=1", "nokey", "round_limit=[[[1]]]",
                 "round_limit=" + "[" * 3000, "free_parking_pot=true"],
    "--seed": ["0", "-1", "1.5", str(2**200), "x"],
    "--workers": ["1", "2", "0", "-1", "10000", "x"],
    "--scheduler": ["not an address", "tcp://", "ftp://h:1", "tcp://h:99999"],
    "--connect-timeout": ["0.5", "-1", "x", "1e9"],
    "--chunk-size": ["1", "0", "-2", "x"],
    "--collect": ["landings", "none", "net_worth,events", "everything", ""],
    "--out": ["r.csv", "r.parquet", "r.json", "missing/r.csv", ".", "", "\x01.csv"],
    "--summary-by": ["bot", "seat", "colour"],
}
SWITCHES = ["--rotate-seats", "--no-progress", "--help", "--no-such-flag"]


def _cli(argv: list[str]) -> int:
    os.chdir(tempfile.mkdtemp(prefix="ugw-cli-fuzz-"))
    try:
        return cli.main(argv)
    except SystemExit as exc:  # argparse: usage errors (2) and --help (0)
        code = exc.code
        return code if isinstance(code, int) else 2


@pytest.mark.parametrize("case", range(36))
def test_cli_fuzz(case: int) -> None:
    rng = random.Random(4000 + case)
    argv = ["--games", "2", "--option", "round_limit=6", "--no-progress"]
    for flag in rng.sample(sorted(FLAGS), rng.randint(1, 5)):
        argv += [flag, rng.choice(FLAGS[flag])]
    if rng.random() < 0.3:
        argv.append(rng.choice(SWITCHES))
    if rng.random() < 0.2:
        argv.append(rng.choice(["stray", "--games"]))
    outcome = run_in_child(lambda: _cli(argv), timeout=TIMEOUT, memory_mb=MEMORY_MB)
    check(outcome, f"simulate {argv}", lambda code: code in (0, 1, 2, 130))


# ---------------------------------------------------------------- the probability lab


def _distribution(value: Any) -> bool:
    total, low, rows = value
    return abs(total - 1) < 1e-9 and low >= -1e-15 and rows > 8


def _table(df: Any) -> tuple[float, float, int]:
    return float(df["probability"].sum()), float(df["probability"].min()), len(df)


PROBABILITY_SOURCES: list[Any] = ["classic", "ugentopoly", "cell22", "bundled:classic"]


@pytest.mark.parametrize("case", range(36))
def test_landing_distribution_fuzz(case: int) -> None:
    rng = random.Random(5000 + case)
    source = pick(rng, PROBABILITY_SOURCES)
    choices: dict[str, list[Any]] = {
        "rules": [None, "classic", "cell22"],
        "jail": ["short", "long"], "per": ["roll", "turn"],
        "board": [None, "bundled:classic-standard-decks"], "lang": ["en", "nl"],
        "jail_card": ["keep", "ignore"], "jail_doubles_roll_again": [True, False],
        "decks": ["random", "strict"],
    }
    kwargs = {key: pick(rng, good) for key, good in choices.items() if rng.random() < 0.35}
    if rng.random() < 0.1:
        kwargs[rng.choice(["walkers", "colour", "x"])] = 1  # an unknown keyword
    rules = kwargs.pop("rules", None)
    if rng.random() < 0.15:  # a game of the source's rules instead of a name
        source = Game("classic", players=2, seed=case)
        rules = None
        kwargs.pop("board", None)
    name = f"landing_distribution({describe(source)}, {describe(rules)}, {describe(kwargs)})"
    outcome = run_in_child(lambda: _table(landing_distribution(source, rules, **kwargs)),
                           timeout=TIMEOUT, memory_mb=MEMORY_MB)
    check(outcome, name, _distribution)


@pytest.mark.parametrize("case", range(30))
def test_simulate_landings_fuzz(case: int) -> None:
    rng = random.Random(6000 + case)
    source = pick(rng, PROBABILITY_SOURCES)
    choices: dict[str, list[Any]] = {
        "rolls": [1, 1000, 20_000, np.int64(5000)], "walkers": [1, 64, 1000],
        "burn_in": [0, 5, None], "seed": [None, 1, np.int64(2)],
        "per": ["roll", "turn"], "jail": ["short", "long"], "lang": ["en"],
        "decks": ["random"],
    }
    kwargs = {key: pick(rng, good) for key, good in choices.items() if rng.random() < 0.4}
    kwargs.setdefault("rolls", 5000)

    def call() -> tuple[float, float, int]:
        df = simulate_landings(source, **kwargs)
        assert df.attrs["rolls"] >= min(int(kwargs["rolls"]), 1)
        return _table(df)

    name = f"simulate_landings({describe(source)}, {describe(kwargs)})"
    outcome = run_in_child(call, timeout=TIMEOUT, memory_mb=MEMORY_MB)
    check(outcome, name, _distribution)


# ---------------------------------------------------------------- the widget's requests


def random_request(rng: random.Random, w: UgentopolyWidget) -> Any:
    seq = w.state.get("seq", 0)
    legal = w.state.get("legal") or [{"type": "roll", "player": 0}]
    kind = pick(rng, ["act", "undo", "tick", "setup", "lang", "probability", "log", "bots"])
    fields: dict[str, list[Any]] = {
        "act": [{"action": rng.choice(legal)}, {"action": {"type": "bid", "player": 0,
                                                           "amount": 10**30}}],
        "setup": [{"profile": "cell22", "players": [
            {"name": "A", "token": "hat", "colour": "#111111", "seat": "person"},
            {"name": "B", "token": "dog", "colour": "#222222", "seat": "heuristic"}]}],
        "lang": [{"lang": "nl"}, {"lang": "en"}],
        "probability": [{"mode": "exact"}, {"mode": "next"}, {"stats": True},
                        {"mode": "off", "stats": False}],
        "log": [{}, {"before": 3}],
        "bots": [{"paused": True}, {"delay": 0.0}],
    }
    content: dict[str, Any] = {"type": kind}
    if isinstance(kind, str) and kind in fields:
        content.update(rng.choice(fields[kind]))
    if rng.random() < 0.8:
        content["seq"] = seq if rng.random() < 0.7 else pick(rng, [seq - 1, seq + 1])
    for _ in range(rng.randint(0, 2)):  # a field of the wrong type, or one too many
        key = rng.choice(["action", "lang", "mode", "stats", "before", "paused", "delay",
                          "profile", "players", "options", "seed", "board", "extra"])
        content[key] = rng.choice(JUNK)
    return content if rng.random() < 0.95 else rng.choice(JUNK)


def _requests(w: UgentopolyWidget, seed: int, count: int) -> list[str]:
    """Throw requests at the widget; the messages that are not a plain refusal."""
    rng = random.Random(seed)
    bad: list[str] = []
    for _ in range(count):
        content = random_request(rng, w)
        before = len(w.errors)
        w._handle_custom_msg(content, [])
        new = w.errors[before:]
        bad += [f"{describe(content)} -> {m}" for m in new if "internal error" in m]
        if w.has_game:
            json_state = w.get_state("state")["state"]
            assert isinstance(json_state, str)
    return bad


@pytest.mark.parametrize("case", range(8))
def test_widget_request_fuzz(case: int) -> None:
    profile = ["classic", "ugentopoly", "cell22"][case % 3]
    w = UgentopolyWidget(profile, players=["Ann", "Bob"], seed=case,
                         seats=["person", "heuristic"] if case % 2 else None)
    w.bot_delay = 0.0
    outcome = run_in_child(lambda: _requests(w, 7000 + case, 40), timeout=TIMEOUT,
                           memory_mb=MEMORY_MB)
    assert outcome == ("ok", []), outcome[:4]
