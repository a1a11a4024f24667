"""Time on the board (issue 23): jail stays, mixing towards the long run, hitting times
(exact against hand solutions and Monte Carlo), the time until every property is seen."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from test_probability import PLAIN, small_board

from ugentopoly_widget.engine import get_profile
from ugentopoly_widget.probability import (
    ArgumentError,
    MissingJailError,
    ProbabilityError,
    landing_distribution,
    landing_model,
    transition_matrix,
)
from ugentopoly_widget.probability.covering import cover_time, simulate_hitting_times
from ugentopoly_widget.probability.timing import (
    hitting_times,
    jail_time,
    mixing,
    second_eigenvalue,
    turn_matrix,
)

STANDARD = "bundled:classic-standard-decks"


# ---------------------------------------------------------------- time in jail


def test_the_classic_long_stay_is_91_36_turns() -> None:
    """Roll for doubles; after the third failed try pay and move:
    1 * 1/6 + 2 * (5/6)(1/6) + 3 * (5/6)^2 = 91/36."""
    for roll_again in (False, True):  # rolling again after leaving changes nothing here
        stay = jail_time("classic", board=STANDARD, jail="long",
                         jail_doubles_roll_again=roll_again)
        assert abs(stay.expected - 91 / 36) < 1e-12
        assert np.allclose(stay.table.probability, [1 / 6, 5 / 36, 25 / 36], atol=1e-15)
        assert stay.table.cumulative.iloc[-1] == pytest.approx(1.0)
    assert "released after 3 failed tries" in stay.rule


def test_the_short_stay_is_one_turn_even_when_sent_back() -> None:
    """Paying at once and rolling 12 onto Chance 22 ("go to jail") is a new jailing, not a
    longer stay: every stay is one turn."""
    stay = jail_time("classic", board=STANDARD)
    assert stay.expected == pytest.approx(1.0, abs=1e-12)
    assert stay.table.probability.tolist() == [1.0] and "pay 50" in stay.rule


def test_ugentopoly_doubles_only_or_the_card() -> None:
    """No fine, no limit: 6 turns (a geometric wait for a 1/6 double); with a card held
    the card is used at once: 1 turn. The long run mixes them by the share of jailings
    with a card in hand."""
    stay = jail_time("ugentopoly")
    assert stay.expected_without_card == pytest.approx(6.0, abs=1e-9)
    assert stay.expected_with_card == pytest.approx(1.0, abs=1e-12)
    assert 0.55 < stay.p_card < 0.65
    assert stay.expected == pytest.approx(stay.p_card + 6 * (1 - stay.p_card), abs=1e-9)
    first = stay.table.iloc[:3]
    assert np.allclose(first.without_card, [1 / 6, 5 / 36, 25 / 216], atol=1e-15)
    assert first.with_card.tolist() == pytest.approx([1.0, 0.0, 0.0])
    assert stay.table.probability.sum() == pytest.approx(1.0, abs=1e-9)
    ignored = jail_time("ugentopoly", jail_card="ignore")
    assert ignored.expected == pytest.approx(6.0, abs=1e-9) and ignored.p_card == 0.0


def test_the_share_of_jailings_with_a_card_is_not_the_truncated_chains() -> None:
    """The chain's own 8-card cap moves this share by 0.004; jail_time refines the cap."""
    from ugentopoly_widget.probability.chain import build_chain
    from ugentopoly_widget.probability.timing import _untruncated

    chain = landing_model("ugentopoly")
    fine = _untruncated(chain)
    assert fine.cap >= 32
    finer = build_chain(chain.movement, fine.cap * 2)
    assert np.abs(fine.aggregate(fine.stationary(), "roll")
                  - finer.aggregate(finer.stationary(), "roll")).max() < 1e-11


def test_a_cap_on_tries_and_a_skipped_turn() -> None:
    capped = get_profile("ugentopoly").with_options(max_jail_turns=3)
    stay = jail_time("ugentopoly", capped, jail_card="ignore")
    assert abs(stay.expected - 91 / 36) < 1e-12  # released (moving) after the third try
    skip = jail_time("cell22")
    assert skip.expected == 1.0 and skip.rule.startswith("skip 1 turn")


def test_jail_time_bad_input() -> None:
    with pytest.raises(ArgumentError, match="no jail"):
        jail_time("classic", jail="off")  # type: ignore[arg-type]
    with pytest.raises(MissingJailError):
        jail_time(small_board(6), PLAIN)
    with pytest.raises(ProbabilityError, match="nothing sends"):
        jail_time(small_board(6, jail=2), PLAIN)  # a jail tile nobody is sent to


# ---------------------------------------------------------------- mixing


def test_mixing_by_hand_on_a_ring() -> None:
    """4 tiles, one die with faces 1 and 2: from 0, turn 1 ends on 1 or 2 (TV 1/2 from
    uniform), turn 2 on 2, 3, 0 with 1/4, 1/2, 1/4 (TV 1/4). The circulant's eigenvalues
    are (w^k + w^2k)/2, w = i: the second-largest modulus is sqrt(2)/2."""
    table = mixing(small_board(4), PLAIN, turns=3)
    assert table.total_variation.tolist()[:3] == pytest.approx([3 / 4, 1 / 2, 1 / 4])
    assert table.attrs["slem"] == pytest.approx(np.sqrt(2) / 2, abs=1e-12)
    assert second_eigenvalue(small_board(4), PLAIN) == pytest.approx(np.sqrt(2) / 2)


def test_mixing_per_roll_is_powers_of_the_transition_matrix() -> None:
    matrix, states = transition_matrix("classic", board=STANDARD)
    pi = landing_model("classic", board=STANDARD).stationary()
    slots = states.slot.to_numpy()
    target = np.bincount(slots, weights=pi, minlength=41)
    table = mixing("classic", board=STANDARD, per="roll", turns=25)
    for n in (1, 2, 7, 25):
        row = np.linalg.matrix_power(matrix, n)[0]
        tiles = np.bincount(slots, weights=row, minlength=41)
        assert table.total_variation[n] == pytest.approx(0.5 * np.abs(tiles - target).sum(),
                                                         abs=1e-13)
        assert table.state_total_variation[n] == pytest.approx(
            0.5 * np.abs(row - pi).sum(), abs=1e-13)


def test_mixing_per_turn_decreases_towards_the_long_run_per_turn() -> None:
    chain = landing_model("classic", board=STANDARD)
    k, ends = turn_matrix(chain)
    assert np.allclose(k.sum(axis=1), 1.0, atol=1e-12)
    table = mixing("classic", board=STANDARD, turns=40)
    assert (np.diff(table.state_total_variation) <= 1e-15).all()  # never grows
    assert table.total_variation.iloc[-1] < 1e-5
    # the long run of the turn chain is the per-turn landing distribution
    pi_k = np.linalg.matrix_power(k, 400)[0]
    per_turn = np.bincount(chain.where[ends], weights=pi_k, minlength=41)
    assert np.allclose(per_turn, landing_distribution("classic", board=STANDARD,
                                                      per="turn").probability, atol=1e-12)
    row = np.linalg.matrix_power(k, 10)[0]
    tiles = np.bincount(chain.where[ends], weights=row, minlength=41)
    assert table.total_variation[10] == pytest.approx(0.5 * np.abs(tiles - per_turn).sum())
    # in the end the distance shrinks by the second eigenvalue each turn (on average: a
    # complex pair makes it wobble from turn to turn)
    ratio = (table.state_total_variation[40] / table.state_total_variation[20]) ** (1 / 20)
    assert ratio == pytest.approx(table.attrs["slem"], rel=0.01)


def test_every_tile_within_one_percent_after_about_20_turns() -> None:
    """Ash & Bishop (1972): "to within one percent after 20 turns". Our chain (standard
    decks, leave jail at once, per turn): the worst tile is within 1 % from turn 20 on."""
    table = mixing("classic", board=STANDARD, turns=25)
    within = table.turns[table.max_relative_error < 0.01]
    assert within.min() == 20 and within.tolist() == list(range(20, 26))
    assert 0.7 < table.attrs["slem"] < 0.8


def test_mixing_bad_input() -> None:
    for bad in (-1, 2.5, True, "20", 10**6):
        with pytest.raises(ArgumentError, match="turns"):
            mixing("classic", turns=bad)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="per"):
        mixing("classic", per="visits")  # type: ignore[arg-type]


# ---------------------------------------------------------------- hitting times


def test_hitting_time_by_hand_on_a_ring() -> None:
    """4 tiles, faces 1 and 2, from 0 to 3: m2 = 1 + m0/2, m1 = 1 + m2/2,
    m0 = 1 + (m1 + m2)/2, so m0 = 18/5 rolls."""
    df = hitting_times(small_board(4), PLAIN, targets=[3, 0])
    assert Fraction(df.expected[0]).limit_denominator(100) == Fraction(18, 5)
    assert abs(df.expected[0] - 3.6) < 1e-12
    assert df.expected[1] == pytest.approx(4.0)  # return to the start: 1 / (1/4) (Kac)


def test_hitting_times_against_monte_carlo_within_4_se() -> None:
    targets = ["jail", 24, 39, "orange", 0]
    for per in ("roll", "turn"):
        exact = hitting_times("classic", board=STANDARD, targets=targets, per=per)
        sim = simulate_hitting_times("classic", board=STANDARD, targets=targets,
                                     walkers=8000, seed=11, per=per)
        assert (sim.censored == 0).all()
        z = (sim["mean"] - exact.expected) / sim.standard_error
        assert (np.abs(z) < 4).all(), z.tolist()
        assert np.allclose(sim.sd, exact.sd, rtol=0.06)


def test_hitting_times_kac_and_never() -> None:
    """Kac: from the start of a turn on GO, the mean rolls until the next landing on GO is
    not 1 / pi (GO is not where every counted roll starts); on a fair ring it is. Go To
    Jail is never landed on: infinite."""
    df = hitting_times("classic", board=STANDARD)
    assert len(df) == 41 and np.isinf(df.expected[30])
    assert np.isfinite(df.expected.drop(30)).all()
    fair = hitting_times("classic", board=STANDARD, cards=False, jail="off", targets=0)
    turns_per_lap = fair.expected[0]
    assert turns_per_lap == pytest.approx(40.0, abs=1e-9)  # 1 / (1/40) rolls
    group = hitting_times("classic", board=STANDARD, targets=["orange", [16, 18, 19]])
    assert group.expected[0] == group.expected[1] and group.tiles[0] == (16, 18, 19)
    from_jail = hitting_times("classic", board=STANDARD, targets=[19], start="jail")
    assert from_jail.expected[0] < df.expected[19]  # New York is 9 from jail


def test_hitting_times_bad_input() -> None:
    for bad in ("nowhere", 40, -1, [], 2.5, None.__class__):
        with pytest.raises(ArgumentError):
            hitting_times("classic", targets=[bad])
    with pytest.raises(ArgumentError, match="no turn begins at 30"):
        hitting_times("classic", start=30)  # nobody stands on Go To Jail
    with pytest.raises(ArgumentError, match="per"):
        hitting_times("classic", per="visits")  # type: ignore[arg-type]
    with pytest.raises(MissingJailError):
        hitting_times(small_board(6), PLAIN, targets="jail")


def test_cover_time_bounds_and_monte_carlo() -> None:
    df = cover_time("classic", board=STANDARD, walkers=3000, seed=2).set_index("bound")
    r = df.rolls
    assert r["lower: one tile per roll"] == 28
    single = hitting_times("classic", board=STANDARD, targets=[1]).expected[0]
    assert r["lower: slowest tile"] == pytest.approx(single)  # Mediterranean Avenue
    assert r["lower: slowest tile"] < r["lower: Matthews"] < r["upper: Matthews"]
    mc, se = r["Monte Carlo"], df.standard_error["Monte Carlo"]
    assert r["lower: Matthews"] < mc - 4 * se and mc + 4 * se < r["upper: Matthews"]
    assert 0 < se < 2
    small = cover_time(small_board(4), PLAIN, targets=[1, 3], walkers=0)
    assert "Monte Carlo" not in small.bound.tolist()
    with pytest.raises(ArgumentError):
        cover_time("classic", targets=[5])
    with pytest.raises(ArgumentError):
        cover_time("classic", targets="streets")


def test_hitting_and_mixing_on_every_profile() -> None:
    for profile in ("ugentopoly", "cell22"):
        df = hitting_times(profile, targets=["jail", 0])
        assert np.isfinite(df.expected).all() and (df.expected > 1).all()
    assert mixing("cell22", turns=30).total_variation.iloc[-1] < 1e-4


def test_kept_jail_cards_make_ugentopoly_mix_slowly() -> None:
    """A player's stock of Get Out of Jail Free cards (kept, used by itself) changes only
    on a draw or a jailing: a slow part of the state, so the second eigenvalue is near 1
    (0.994 per turn); ignoring the cards the course board mixes as fast as the classic."""
    slow = mixing("ugentopoly", turns=60)
    assert slow.attrs["slem"] > 0.99 and slow.total_variation[60] > 0.02
    assert (np.diff(slow.state_total_variation) <= 1e-15).all()
    fast = mixing("ugentopoly", turns=60, jail_card="ignore")
    assert fast.attrs["slem"] < 0.85 and fast.total_variation[60] < 1e-5


def test_simulated_hitting_times_of_a_target_never_reached_answer_at_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Go To Jail is never stood on: inf with the reason, as hitting_times says, and no walker
    sent after it (before: every walker walked max_rolls steps, 25 s, and the mean was NaN).
    The other targets are simulated as before, on the same streams."""
    from ugentopoly_widget.probability import covering

    walked: list[int] = []
    real = covering._first_hits

    def counting(sim: Any, masks: Any, per: str, max_rolls: int) -> Any:
        walked.append(len(masks))
        return real(sim, masks, per, max_rolls)

    monkeypatch.setattr(covering, "_first_hits", counting)
    never = simulate_hitting_times("classic", board=STANDARD, targets=30, walkers=64, seed=1)
    assert walked == [] and np.isinf(never["mean"][0]) and np.isinf(never.sd[0])
    assert never.censored[0] == 0 and "no roll ends there" in never.attrs["never"]["Go To Jail"]
    both = simulate_hitting_times("classic", board=STANDARD, targets=[30, 39], walkers=256,
                                  seed=1)
    alone = simulate_hitting_times("classic", board=STANDARD, targets=[39], walkers=256,
                                   seed=1)
    assert walked == [1, 1] and np.isinf(both["mean"][0])
    assert both["mean"][1] == alone["mean"][0] and both.censored[1] == 0
    assert list(both.attrs["never"]) == ["Go To Jail"] and alone.attrs["never"] == {}
