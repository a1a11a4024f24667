"""The pure-Python chain (probability.pure: what the browser site's Odds tab runs, without
numpy) gives numpy's numbers: long-run shares per roll and per turn, held jail cards solved by
excursions against the quasi-birth-death solve, the variances of the convergence chart, the
next roll, and the widget's heat and stats payloads on either path."""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import pytest
from helpers import long_board, same_payload
from test_probability import PLAIN, small_board

from ugentopoly_widget import Game
from ugentopoly_widget.engine import get_profile
from ugentopoly_widget.engine.bots import HeuristicBot, play_game
from ugentopoly_widget.probability import landing_model
from ugentopoly_widget.probability.errors import ChainTooLargeError, ProbabilityError
from ugentopoly_widget.probability.model import Options, compile_movement
from ugentopoly_widget.probability.pure import (
    build_pure_chain,
    excursion_shares,
    log_points,
    next_roll_shares,
)
from ugentopoly_widget.probability.pure_linalg import SparseLU, dense_solve
from ugentopoly_widget.widget import odds

PROFILES = ("ugentopoly", "classic", "cell22")
BOARDS = [(p, None) for p in PROFILES] + [("classic", "bundled:classic-standard-decks")]


def close(a: list[float], b: object, tol: float = 1e-13) -> float:
    diff = max(abs(x - float(y)) for x, y in zip(a, b, strict=True))  # type: ignore[call-overload]
    assert diff < tol, diff
    return diff


@pytest.mark.parametrize(("profile", "board"), BOARDS)
@pytest.mark.parametrize("jail", ["short", "long"])
def test_long_run_shares_match_numpy(profile: str, board: str | None, jail: str) -> None:
    game = Game(profile, board=board, players=2, seed=1)
    chain = landing_model(game, jail=jail)  # type: ignore[arg-type]
    pure = build_pure_chain(chain.movement)
    assert pure.states == chain.states
    for per in ("roll", "turn"):
        close(pure.distribution(per), chain.distribution(per))
    close(pure.stationary(), chain.stationary())
    var = pure.sampling_variance("roll")
    ref = chain.sampling_variance("roll")
    assert max(abs(a - b) / max(b, 1e-300) for a, b in zip(var, ref, strict=True)) < 1e-9


@pytest.mark.parametrize("profile", PROFILES)
def test_one_source_of_transition_rows(profile: str) -> None:
    """The pure chain solves the rows numpy's chain is built from (probability.transitions),
    entry for entry, and refuses a board too large as it does, before building."""
    chain = landing_model(profile)
    pure = build_pure_chain(chain.movement)
    assert pure.transitions.states == chain.transitions.states
    matrix = chain.matrix
    dense = matrix.toarray() if chain.sparse else matrix
    assert sum(map(len, pure.rows)) == int((dense != 0).sum())
    for i, row in enumerate(pure.rows):
        assert all(dense[i, j] == p for j, p in row.items()), chain.states[i]
    large = compile_movement(long_board(80_000), get_profile("classic"), Options())
    with pytest.raises(ChainTooLargeError, match="about 240,000 states; the limit is 200,000"):
        build_pure_chain(large)


@pytest.mark.parametrize("options", [
    Options(), Options(jail="long"), Options(jail_doubles_roll_again=True),
    Options(jail="long", jail_doubles_roll_again=True)])
def test_held_cards_by_excursions_equal_the_qbd_solve(options: Options) -> None:
    """Ugentopoly: cards used automatically, no fine; the chain's QBD against the pure
    excursion solve, and both against a long truncated chain."""
    chain = landing_model("ugentopoly", jail=options.jail,
                          jail_doubles_roll_again=options.jail_doubles_roll_again)
    assert chain.movement.track_cards
    shares = excursion_shares(chain.movement)
    for per in ("roll", "turn"):
        close(shares[per], chain.distribution(per), 1e-14)
    far = build_pure_chain(chain.movement, cap=40)  # truncation error ~ 0.6^40
    close(_aggregate(far, "roll"), shares["roll"], 1e-9)


def _aggregate(chain: object, per: str) -> list[float]:
    from ugentopoly_widget.probability.pure import _aggregate as agg

    c = chain
    weights = c.is_roll if per == "roll" else c.ends_turn  # type: ignore[attr-defined]
    return agg(c.stationary(), weights, c.where, c.size)  # type: ignore[attr-defined]


def test_tiny_board_by_hand() -> None:
    """docs/probability.md: 1/6, 1/12, 1/3, 0 and In Jail 5/12, per roll; with a skipped turn
    per turn 2/17, 6/17, 4/17, 0, 5/17."""
    rules = dataclasses.replace(PLAIN, jail_skip_turns=0, jail_fine=50)
    m = compile_movement(small_board(4, jail=1, gtj=3), rules, Options())
    got = [Fraction(p).limit_denominator(1000) for p in build_pure_chain(m).distribution()]
    assert got == [Fraction(1, 6), Fraction(1, 12), Fraction(1, 3), 0, Fraction(5, 12)]
    skip = dataclasses.replace(PLAIN, jail_skip_turns=1)
    m = compile_movement(small_board(4, jail=1, gtj=3), skip, Options())
    per_turn = build_pure_chain(m).distribution("turn")
    close(per_turn, [2 / 17, 6 / 17, 4 / 17, 0, 5 / 17], 1e-15)


def test_next_roll_from_go_is_the_dice_distribution() -> None:
    m = landing_model("cell22").movement
    out = next_roll_shares(m, ("free", 0, 0, 0))
    assert math.isclose(sum(out), 1.0)
    assert math.isclose(out[7], 6 / 36)  # no card or special tile on 7 in the 22-cell board


def test_sparse_lu_solves_both_ways() -> None:
    a = [{0: 4.0, 1: -1.0}, {0: -2.0, 1: 5.0, 2: -1.0}, {1: -3.0, 2: 6.0, 0: -1.0}]
    lu = SparseLU(a)
    dense = [[a[i].get(j, 0.0) for j in range(3)] for i in range(3)]
    b = [1.0, 2.0, 3.0]
    x = lu.solve(b)
    assert max(abs(sum(dense[i][j] * x[j] for j in range(3)) - b[i]) for i in range(3)) < 1e-14
    y = lu.solve_transposed(b)
    assert max(abs(sum(dense[j][i] * y[j] for j in range(3)) - b[i]) for i in range(3)) < 1e-14
    ref = dense_solve(dense, [[v] for v in b])
    close([r[0] for r in ref], x, 1e-14)
    with pytest.raises(ProbabilityError, match="singular"):
        SparseLU([{0: 1.0, 1: 1.0}, {0: 1.0, 1: 1.0}])


def test_log_points() -> None:
    assert log_points(0, 48) == []
    assert log_points(1, 48) == [1]
    pts = log_points(1000, 4)
    assert pts == [1, 10, 100, 1000]


def _played(profile: str, turns: int, seed: int) -> Game:
    game = Game(profile, players=2, seed=seed)
    play_game(game, [HeuristicBot(seed=1), HeuristicBot(seed=2)], until_turn=turns)
    return game


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("jail", ["short", "long"])
def test_widget_payloads_are_the_same_on_either_path(
        profile: str, jail: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """heat (every mode) and stats, from numpy and from the pure path, after a played game
    (observed counts, a jailed or doubling player now and then)."""
    for seed in (3, 4):
        game = _played(profile, 60, seed)
        live_n, live_p = odds.LiveStats(), odds.LiveStats()
        monkeypatch.setattr(odds, "USE_NUMPY", True)
        keys = [(mode, per) for mode in odds.PROBABILITY_MODES for per in odds.PER]
        with_numpy = {key: odds.heat_payload(game, key[0], jail=jail, per=key[1])
                      for key in keys}
        stats_numpy = odds.stats_payload(game, live_n, jail)
        monkeypatch.setattr(odds, "USE_NUMPY", False)
        pure = {key: odds.heat_payload(game, key[0], jail=jail, per=key[1]) for key in keys}
        stats_pure = odds.stats_payload(game, live_p, jail)
        same_payload(stats_numpy["jail_strategies"], stats_pure["jail_strategies"], "jail")
        for mode in keys:
            a, b = with_numpy[mode], pure[mode]
            close([*a["values"], a["jail"], a["min"], a["max"]],
                  [*b["values"], b["jail"], b["min"], b["max"]])
            same_payload(a, b, str(mode))  # fills, inks, notes (their figures to 1e-12)
        assert stats_numpy["dice"] == stats_pure["dice"]
        cn, cp = stats_numpy["convergence"], stats_pure["convergence"]
        assert cn["rolls"] == cp["rolls"] and len(cn["rolls"]) > 10
        close(cn["tv"], cp["tv"])
        close(cn["expected"], cp["expected"], 1e-10)

