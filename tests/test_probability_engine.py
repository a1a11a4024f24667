"""Truth against the engine: the rules engine's own long-run landing frequencies (bots
playing whole games, >= 2 million counted rolls per profile, cards and jail included)
agree with the exact chain within 4 standard errors on every tile.

Rolls within a game are correlated, so a standard error is not sqrt(p(1-p)/N): it comes
from the Markov chain central limit theorem (the chain's fundamental matrix), and the
spread between the independent games gives a second, chain-free estimate that is printed
beside it. One slow test (about a minute of two cores): it runs in scripts/test.
"""

from __future__ import annotations

import dataclasses
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest

from ugentopoly_widget.engine import load_bundled
from ugentopoly_widget.engine.boards.board import Board
from ugentopoly_widget.probability import landing_model
from ugentopoly_widget.probability.montecarlo import MovementSimulator
from ugentopoly_widget.probability.sampling import EngineLandings, play_landings

ROLLS = 2_000_000
GAMES = 40  # per profile: 40 independent games of two players


def random_draw(board: Board) -> Board:
    """The same board with every deck drawn at random (with replacement)."""
    return dataclasses.replace(
        board, decks={k: dataclasses.replace(d, draw="random") for k, d in board.decks.items()})


CASES: dict[str, tuple[str, str | None, str, int]] = {
    # name: (profile, board, jail strategy, burn-in player-turns per game)
    # Ugentopoly: no fine, doubles or a held card; a player's stock of cards settles slowly
    "ugentopoly": ("ugentopoly", None, "short", 3000),
    "classic": ("classic", "bundled:classic-standard-decks", "short", 200),
    "cell22": ("cell22", None, "short", 200),  # already random decks; skipped turns
}


def _board(name: str) -> Board:
    profile, board, _, _ = CASES[name]
    return random_draw(load_bundled(board.split(":")[1] if board else profile))


def _turns(name: str) -> int:
    """Player-turns per game for ROLLS rolls in all (doubles add rolls, skips remove some)."""
    profile, _, jail, _ = CASES[name]
    chain = landing_model(_board(name), profile, jail=jail)  # type: ignore[arg-type]
    pi = chain.stationary()
    rolls_per_turn = float(pi @ chain.is_roll) / float(pi @ chain.ends_turn)
    return int(ROLLS / GAMES / rolls_per_turn * 1.01) + 1


def _chunk(args: tuple[str, int, int]) -> EngineLandings:
    name, first, count = args
    profile, _, jail, burn_in = CASES[name]
    turns = _turns(name)
    results = [play_landings(profile, board=_board(name), games=1, turns=turns,
                             burn_in=burn_in, seed=1000 + k, jail=jail)  # type: ignore[arg-type]
               for k in range(first, first + count)]
    total = results[0].total
    for r in results[1:]:
        total = total + r.total
    return EngineLandings(total, [g for r in results for g in r.games])


@pytest.mark.slow
def test_engine_agrees_with_the_chain_within_4_standard_errors() -> None:
    started = time.perf_counter()
    jobs = [(name, k, 4) for name in CASES for k in range(0, GAMES, 4)]
    with ProcessPoolExecutor(max_workers=2) as pool:
        chunks = list(pool.map(_chunk, jobs))
    report = []
    for name in CASES:
        parts = [c for (n, _, _), c in zip(jobs, chunks, strict=True) if n == name]
        games = [g for c in parts for g in c.games]
        total = parts[0].total
        for c in parts[1:]:
            total = total + c.total
        observed = EngineLandings(total, games)
        profile, _, jail, _ = CASES[name]
        chain = landing_model(_board(name), profile, jail=jail)  # type: ignore[arg-type]
        exact = chain.distribution("roll")
        se = np.sqrt(chain.sampling_variance("roll") / total.rolls)
        diff = observed.frequencies() - exact
        z = np.where(se > 0, diff / np.where(se > 0, se, 1), 0)
        between = observed.standard_errors()
        report.append(f"{name}: {total.rolls} rolls, max |z| {np.abs(z).max():.2f} "
                      f"(tile {int(np.abs(z).argmax())}); between-games SE / chain SE "
                      f"median {np.median(between[se > 0] / se[se > 0]):.2f}")
        assert total.rolls >= ROLLS, report[-1]
        assert (diff[se == 0] == 0).all()  # Go To Jail: never, in the engine and the chain
        assert np.abs(z).max() < 4, report[-1]
    print("\n".join(report), f"\n{time.perf_counter() - started:.0f} s")


def test_monte_carlo_agrees_with_the_chain_on_rule_variants() -> None:
    """The vectorised simulation follows dice and cards itself: it checks the chain on
    variants the engine test does not play (long jail, the roll-again variant, jail tries,
    three dice, ignored cards)."""
    variants = [
        ("classic", dict(board="bundled:classic-standard-decks", jail="long")),
        ("classic", dict(board="bundled:classic-standard-decks", jail="long",
                         jail_doubles_roll_again=True)),
        ("ugentopoly", dict(jail_card="ignore")),
        ("ugentopoly", dict(rules=None)),
        ("cell22", {}),
    ]
    for profile, kw in variants:
        kw = {k: v for k, v in kw.items() if k != "rules"}
        sim = MovementSimulator(profile, walkers=1 << 13, seed=11, **kw)  # type: ignore[arg-type]
        burn = 3000 if sim.movement.track_cards else 100
        counts = sim.run(300, burn_in=burn)
        chain = landing_model(profile, **kw)  # type: ignore[arg-type]
        for per in ("roll", "turn"):
            c = counts.get(per)  # type: ignore[arg-type]
            n = c.sum()
            # walkers are independent chains of 300 counted steps: CLT variance per walker
            se = np.sqrt(chain.sampling_variance(per) / n)
            diff = c / n - chain.distribution(per)
            assert np.all(np.abs(diff) <= 5 * se + 1e-12), (profile, kw, per)


def test_three_dice_and_jail_tries_against_monte_carlo() -> None:
    from ugentopoly_widget.engine import get_profile

    rules = get_profile("classic").with_options(dice_count=3, dice_sides=4, max_jail_turns=2)
    board = load_bundled("classic-standard-decks")
    sim = MovementSimulator(board, rules, walkers=1 << 13, seed=5, jail="long")
    counts = sim.run(300, burn_in=100).by_roll
    chain = landing_model(board, rules, jail="long")
    se = np.sqrt(chain.sampling_variance("roll") / counts.sum())
    assert np.all(np.abs(counts / counts.sum() - chain.distribution("roll")) <= 5 * se)
