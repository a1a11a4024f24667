"""The probability lab at sizes and inputs it used to choke on (issue 25, items 7-8): the exact
chain built sparse in plain Python and solved sparse when large, a named error for a board too
large to solve, and Monte Carlo roll counts checked, bounded and interruptible."""

from __future__ import annotations

import ast
import os
import resource
import signal
import sys
from array import array
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from child import run_in_child
from helpers import long_board

from ugentopoly_widget.engine import get_profile, load_bundled
from ugentopoly_widget.probability import (
    ChainTooLargeError,
    MissingSciPyError,
    MonteCarloInterrupted,
    landing_distribution,
    landing_model,
    montecarlo,
    simulate_landings,
    transition_matrix,
)
from ugentopoly_widget.probability import chain as chain_module
from ugentopoly_widget.probability.model import Options, compile_movement
from ugentopoly_widget.probability.transitions import (
    MAX_STATES,
    Transitions,
    build_transitions,
)

CLASSIC = get_profile("classic")


def movement(tiles: int, rules: Any = CLASSIC) -> Any:
    board = load_bundled("classic-standard-decks") if tiles == 40 else long_board(tiles)
    return compile_movement(board, rules, Options())


# ---------------------------------------------------------------- item 7: the sparse chain


def test_the_build_is_plain_python_in_compressed_rows() -> None:
    """The transitions need no numpy: a solver in a browser (or by hand) reads the same rows."""
    source = (Path(chain_module.__file__).parent / "transitions.py").read_text()
    imported = {alias.name.split(".")[0] for node in ast.walk(ast.parse(source))
                if isinstance(node, ast.Import) for alias in node.names}
    imported |= {str(node.module).split(".")[0] for node in ast.walk(ast.parse(source))
                 if isinstance(node, ast.ImportFrom) and node.level == 0}
    assert imported <= {"__future__", "array", "collections", "dataclasses"}, imported
    t = build_transitions(movement(40))
    assert isinstance(t, Transitions) and len(t) == 118
    for part in (t.indptr, t.indices, t.probabilities, t.where, t.is_roll, t.ends_turn, t.cards):
        assert isinstance(part, array)
    assert len(t.indptr) == len(t) + 1 and t.nnz == len(t.indices) == len(t.probabilities)
    for i in range(len(t)):
        row = t.row(i)
        assert abs(sum(p for _, p in row) - 1.0) < 1e-12
        assert len({j for j, _ in row}) == len(row)  # one entry per next state
    # the same matrix the solver uses
    dense = np.zeros((len(t), len(t)))
    for i in range(len(t)):
        for j, p in t.row(i):
            dense[i, j] = p
    assert np.array_equal(dense, transition_matrix("classic", board="bundled:"
                                                   "classic-standard-decks")[0])


def test_a_large_chain_is_solved_sparse_and_agrees_with_the_dense_solve() -> None:
    m = movement(300)
    sparse = chain_module.build_chain(m)
    assert sparse.sparse and len(sparse.states) > chain_module.SPARSE_FROM
    dense = chain_module.Chain(m, sparse.transitions, sparse=False)
    assert np.abs(sparse.stationary() - dense.stationary()).max() < 1e-13
    for per in ("roll", "turn"):
        assert np.abs(sparse.distribution(per) - dense.distribution(per)).max() < 1e-13
        assert np.allclose(sparse.sampling_variance(per), dense.sampling_variance(per),
                           rtol=1e-8, atol=1e-14)
    small = chain_module.build_chain(movement(40))
    assert not small.sparse and isinstance(small.matrix, np.ndarray)


def test_a_2000_tile_board_solves_in_little_memory() -> None:
    """Before: a dense 6,001 x 6,001 matrix, 5-13 s and ~1 GB. In a child process now, its
    peak memory is measured."""
    board = long_board(2000)

    def call() -> tuple[int, float, float, int]:
        df = landing_distribution(board, "classic")
        chain = landing_model(board, "classic")
        peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
        return len(chain.states), float(df.probability.sum()), float(df.probability.iloc[-1]), \
            peak_mb

    base_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    outcome = run_in_child(call, timeout=120, memory_mb=1500)
    assert outcome[0] == "ok", outcome
    states, total, jail, peak_mb = outcome[1]
    assert states > 5900 and abs(total - 1) < 1e-12 and 0.0005 < jail < 0.01
    assert peak_mb - base_mb < 300, f"{peak_mb - base_mb} MB more than the test process"


def test_a_board_too_large_is_refused_with_the_state_count_and_the_limit() -> None:
    """Before: 20,000 tiles ended in numpy's MemoryError ("Unable to allocate 26.8 GiB");
    a board past the limit is refused before its chain is built."""
    board = long_board(80_000)

    def call() -> None:
        landing_distribution(board, "classic")

    outcome = run_in_child(call, timeout=60, memory_mb=800)
    assert outcome[:3] == ("raised", "ugentopoly_widget.probability.errors",
                           "ChainTooLargeError"), outcome
    assert "about 240,000 states" in outcome[3] and f"limit is {MAX_STATES:,}" in outcome[3]
    assert "80,000 tiles" in outcome[3] and "simulate_landings" in outcome[3]
    cell22 = compile_movement(load_bundled("cell22"), get_profile("cell22"), Options())
    assert len(build_transitions(cell22)) == 25  # 22 tiles, jail, skipped turns
    with pytest.raises(ChainTooLargeError, match="more than 24 states; the limit is 24"):
        build_transitions(cell22, limit=24)  # counted while building, past the estimate


def test_rules_without_a_limit_on_doubles_do_not_count_doubles_for_ever() -> None:
    """Before: max_doubles=None with doubles rolling again made the count of doubles a part
    of the state with no end: the chain grew until memory ran out."""
    rules = CLASSIC.with_options(max_doubles=None)

    def call() -> tuple[int, float]:
        chain = landing_model("classic", rules)
        return len(chain.states), float(chain.distribution().sum())

    outcome = run_in_child(call, timeout=60, memory_mb=500)
    assert outcome[0] == "ok", outcome
    states, total = outcome[1]
    assert states < 200 and abs(total - 1) < 1e-12


def test_without_scipy_a_mid_size_chain_is_solved_dense_and_a_large_one_says_what_to_install(
        monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [n for n in sys.modules if n == "scipy" or n.startswith("scipy.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "scipy", None)  # import scipy now fails
    chain = chain_module.build_chain(movement(300))
    assert not chain.sparse and abs(chain.distribution().sum() - 1) < 1e-12
    with pytest.raises(MissingSciPyError, match=r"pip install scipy"):
        chain_module.build_chain(movement(1200))


def test_held_cards_on_a_large_board_are_solved_sparse_to_a_negligible_truncation() -> None:
    """Ugentopoly's rules (a card used automatically) on a long board: too many phases for
    the dense quasi-birth-death solve, so the chain truncated at a card count held with
    probability below 1e-12, solved sparse, gives the same shares as the exact solve."""
    ugentopoly = get_profile("ugentopoly").with_options(max_doubles=3)
    m = compile_movement(long_board(120), ugentopoly, Options())
    assert m.track_cards
    exact = chain_module.build_chain(m)
    assert exact.sparse
    qbd = chain_module._qbd_shares(m)
    assert qbd is not None  # small enough for the exact solve: compare both ways
    truncated = chain_module._truncated_shares(exact)
    for rows in (qbd, truncated):
        assert abs(rows[0].sum() - 1) < 1e-12
    exact_roll = exact.distribution("roll")
    exact._exact = truncated
    assert np.abs(exact.distribution("roll") - exact_roll).max() < 1e-10
    larger = compile_movement(long_board(200), ugentopoly, Options())
    assert chain_module._qbd_shares(larger) is None  # 600 phases: the truncated solve
    assert abs(chain_module.build_chain(larger).distribution().sum() - 1) < 1e-12


# ---------------------------------------------------------------- item 8: Monte Carlo rolls


def refused_in_child(**kwargs: Any) -> str:
    """simulate_landings(**kwargs) in a child with 30 s and 300 MB: its ArgumentError."""
    def call() -> None:
        simulate_landings("classic", **kwargs)

    outcome = run_in_child(call, timeout=30, memory_mb=300)
    assert outcome[:3] == ("raised", "ugentopoly_widget.probability.errors", "ArgumentError"), \
        outcome
    return str(outcome[3])


@pytest.mark.parametrize("rolls", [0, -1, 10**13, 2.5, "many", None, True])
def test_roll_counts_are_checked_and_bounded(rolls: Any) -> None:
    """Before: rolls=0 and rolls=-1 returned a table of 8,192 counted rolls; 10**13 ran for
    days."""
    message = refused_in_child(rolls=rolls)
    assert "rolls is a whole number from 1 to 10,000,000,000" in message


@pytest.mark.parametrize(("arg", "value"), [("walkers", 0), ("walkers", 10**9),
                                            ("burn_in", -1), ("burn_in", 10**9),
                                            ("seed", -1), ("seed", "x")])
def test_the_other_counts_are_checked_too(arg: str, value: Any) -> None:
    """Before: 10**9 walkers allocated gigabytes; a burn-in of 10**9 steps ran for days."""
    assert arg in refused_in_child(rolls=1000, **{arg: value})


def test_numpy_counts_are_taken() -> None:
    table = simulate_landings("classic", rolls=np.int64(2000), walkers=np.int32(100),
                              seed=np.int64(3), burn_in=np.int64(5))
    assert table["count"].sum() == 2000 and table.attrs["rolls"] == 2000
    assert not table.attrs["interrupted"]


def test_a_long_run_is_interrupted_and_reports_what_it_counted(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C after the 7th counted step: the table holds exactly the 7 steps of 64 walkers
    (before: KeyboardInterrupt, and nothing)."""
    real = montecarlo.MovementSimulator.step
    taken = [0]

    def step(self: montecarlo.MovementSimulator) -> None:
        real(self)
        taken[0] += 1
        if taken[0] == 10 + 7:  # 10 burn-in steps, then 7 counted
            os.kill(os.getpid(), signal.SIGINT)

    monkeypatch.setattr(montecarlo.MovementSimulator, "step", step)
    # Python's own handler, as in a terminal or a kernel (whatever an earlier test left)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.warns(MonteCarloInterrupted, match=r"interrupted: 448 rolls counted"):
            table = simulate_landings("classic", rolls=10**9, walkers=64, burn_in=10, seed=1)
        assert table["count"].sum() == 448
        assert table.attrs == {"rolls": 448, "interrupted": True}
        assert abs(table["probability"].sum() - 1) < 1e-12
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back
    finally:
        signal.signal(signal.SIGINT, previous)
