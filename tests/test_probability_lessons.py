"""The classic probability lessons (issue 23): the switches behind the published tables
(cards, jail), the measures (per roll, per turn, visits per turn), leaving jail by group."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np
import pytest
from test_probability import PLAIN, small_board

from ugentopoly_widget.engine import load_bundled
from ugentopoly_widget.engine.boards.board import Card, CardKind, TileKind
from ugentopoly_widget.probability import (
    ArgumentError,
    MissingJailError,
    dice_distribution,
    group_distribution,
    landing_distribution,
    next_roll_distribution,
    observed_distribution,
    rolls_per_turn,
    simulate_landings,
)

STANDARD = "bundled:classic-standard-decks"
PROFILES = ("ugentopoly", "classic", "cell22")


def exact(p: float) -> Fraction:
    return Fraction(p).limit_denominator(10_000)


# ---------------------------------------------------------------- cards and jail switched off


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("per", ["roll", "turn"])
def test_without_cards_and_jail_the_walk_is_uniform(profile: str, per: str) -> None:
    """Stewart (1996): with card tiles doing nothing, Go To Jail a plain tile and no
    third-double rule, every tile gets 1/size of the rolls, and of the turns."""
    df = landing_distribution(profile, cards=False, jail="off", per=per)  # type: ignore[arg-type]
    size = load_bundled(profile).size
    assert np.abs(df.probability[:size] - 1 / size).max() < 1e-12
    assert df.probability[size] == 0.0  # nobody is ever In Jail


def test_visits_per_turn_without_cards_and_jail() -> None:
    """Doubles roll again without limit: 1 / (1 - 1/6) = 6/5 rolls per turn, each tile
    visited 6/5 / 40 = 0.03 times per turn."""
    df = landing_distribution("classic", board=STANDARD, cards=False, jail="off", per="visits")
    assert np.abs(df.probability[:40] - 0.03).max() < 1e-12
    assert df.probability.sum() == pytest.approx(6 / 5, abs=1e-12)
    assert rolls_per_turn("classic", board=STANDARD, cards=False,
                          jail="off") == pytest.approx(6 / 5, abs=1e-12)


def test_each_switch_alone() -> None:
    on = landing_distribution("classic", board=STANDARD).probability
    no_cards = landing_distribution("classic", board=STANDARD, cards=False).probability
    # jail stays: Go To Jail still sends, the third double still jails
    assert no_cards[30] == 0.0 and no_cards[40] > 0.03
    # a Chance tile keeps every arrival (6/16 of them with cards): more than twice as many
    assert no_cards[7] > 2 * on[7]
    no_jail = landing_distribution("classic", board=STANDARD, jail="off").probability
    assert no_jail[40] == 0.0 and no_jail[30] > 0.02  # Go To Jail is a tile like any other
    # the Chance "go to jail" card does nothing: Chance 7 keeps 7 of its 16 cards' arrivals
    from_go = next_roll_distribution("classic", board=STANDARD, position=0, jail="off")
    assert from_go.probability[7] == pytest.approx(6 / 36 * 7 / 16, abs=1e-15)
    assert from_go.probability[40] == 0.0
    assert not np.allclose(no_cards, no_jail)


def test_jail_off_needs_no_jail_tile() -> None:
    board = small_board(6, gtj=3)  # a Go To Jail tile and no jail
    with pytest.raises(MissingJailError):
        landing_distribution(board, PLAIN)
    df = landing_distribution(board, PLAIN, jail="off")
    assert np.allclose(df.probability[:6], 1 / 6, atol=1e-15)


def test_monte_carlo_plays_the_same_switches() -> None:
    sim = simulate_landings("classic", board=STANDARD, cards=False, jail="off", per="visits",
                            rolls=400_000, walkers=4096, seed=5)
    assert sim.probability[40] == 0.0 and sim["count"][30] > 0
    assert np.abs(sim.probability[:40] - 0.03).max() < 0.002  # about 5 SE of each share
    assert sim.probability.sum() == pytest.approx(6 / 5, abs=0.01)


@pytest.mark.parametrize("bad", [{"cards": "no"}, {"cards": 0}, {"jail": "of"},
                                 {"jail": None}, {"per": "visit"}, {"by": "colour"}])
def test_bad_switches_are_named_errors(bad: dict[str, object]) -> None:
    with pytest.raises(ArgumentError):
        landing_distribution("classic", **bad)  # type: ignore[arg-type]


def test_visits_are_not_counted_from_a_game() -> None:
    from ugentopoly_widget import Game

    with pytest.raises(ArgumentError, match="'roll' or 'turn'"):
        observed_distribution(Game("classic", seed=1), per="visits")  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="group_distribution"):
        group_distribution([0.5, 0.5])  # type: ignore[arg-type]


# ---------------------------------------------------------------- the measures by hand


def roll_again_board() -> object:
    """The 4-tile board of docs/probability.md (jail 1, Go To Jail 3, the fine paid at
    once) with tile 2 a Chance tile whose one card says "roll again"."""
    return small_board(4, jail=1, gtj=3, chance=2,
                       cards=(Card("again", CardKind.ROLL_AGAIN, "CHANCE"),))


HAND_RULES = dataclasses.replace(PLAIN, jail_skip_turns=0, jail_fine=50)


def test_per_roll_per_turn_and_visits_by_hand() -> None:
    """Per roll as before (1/6, 1/12, 1/3, 0, 5/12): the card keeps the token on tile 2.
    Every roll ends a turn except those onto tile 2 (1/3), so turns are 2/3 of rolls:
    per turn (1/6, 1/12, 0, 0, 5/12) / (2/3); visits per turn the per-roll shares / (2/3),
    summing to 3/2 rolls per turn."""
    board = roll_again_board()
    got = {per: [exact(p) for p in landing_distribution(board, HAND_RULES, per=per).probability]
           for per in ("roll", "turn", "visits")}
    f = Fraction
    assert got["roll"] == [f(1, 6), f(1, 12), f(1, 3), 0, f(5, 12)]
    assert got["turn"] == [f(1, 4), f(1, 8), 0, 0, f(5, 8)]
    assert got["visits"] == [f(1, 4), f(1, 8), f(1, 2), 0, f(5, 8)]
    assert rolls_per_turn(board, HAND_RULES) == pytest.approx(1.5, abs=1e-14)
    visits = landing_distribution(board, HAND_RULES, per="visits").probability
    assert np.allclose(visits, [1 / 4, 1 / 8, 1 / 2, 0, 5 / 8], atol=1e-15)


def test_visits_sum_to_rolls_per_turn_on_every_profile() -> None:
    for profile in PROFILES:
        visits = landing_distribution(profile, per="visits").probability.sum()
        assert visits == pytest.approx(rolls_per_turn(profile), abs=1e-12)
        roll = landing_distribution(profile).probability
        assert np.allclose(landing_distribution(profile, per="visits").probability,
                           roll * visits, atol=1e-14)
    assert 1.18 < rolls_per_turn("classic", board=STANDARD) < 43 / 36
    assert rolls_per_turn("cell22") < 1  # a skipped jail turn is a turn without a roll


# ---------------------------------------------------------------- which squares after jail


def test_leaving_jail_lands_on_orange_fourteen_times_in_36() -> None:
    """From jail (10) the oranges are 6, 8 and 9 away: 5 + 5 + 4 ways of 36 (not the
    5 + 7 + 8 a course page prints). With cards, a 12 onto Chance 22 and its "go back 3"
    card adds 1/36 * 1/16 (New York Avenue)."""
    no_cards = next_roll_distribution("classic", board=STANDARD, in_jail=True, cards=False,
                                      by="group").set_index("group").probability
    assert abs(no_cards["orange"] - 14 / 36) < 1e-12
    assert no_cards.sum() == pytest.approx(1.0)
    cards = next_roll_distribution("classic", board=STANDARD, in_jail=True,
                                   by="group").set_index("group")
    assert abs(cards.probability["orange"] - (14 / 36 + 1 / 576)) < 1e-12
    assert cards.tiles["orange"] == 3 and cards.tiles["railways"] == 4
    assert exact(cards.probability["orange"]) == Fraction(25, 64)


def test_from_kentucky_every_yellow_is_missed_22_times_in_36() -> None:
    """The yellows are 5, 6 and 8 steps on from Kentucky Avenue (21): 4 + 5 + 5 ways."""
    df = next_roll_distribution("classic", board=STANDARD, position=21, by="group")
    yellow = df.set_index("group").probability["yellow"]
    assert abs((1 - yellow) - 22 / 36) < 1e-12 and round(1 - yellow, 4) == 0.6111


def test_group_distribution_of_the_long_run() -> None:
    tiles = landing_distribution("classic", board=STANDARD)
    groups = landing_distribution("classic", board=STANDARD, by="group").set_index("group")
    assert groups.probability.sum() == pytest.approx(1.0)
    assert groups.probability["orange"] == pytest.approx(tiles.probability[[16, 18, 19]].sum())
    assert groups.probability["in jail"] == tiles.probability[40]
    assert groups.tiles.sum() == 41
    board = load_bundled("classic")
    assert sum(t.kind is TileKind.RAILWAY for t in board.tiles) == groups.tiles["railways"]


# ---------------------------------------------------------------- rent per turn


def test_rent_per_turn_is_rent_per_roll_times_rolls_per_turn() -> None:
    from ugentopoly_widget.probability.money import group_payback, property_income

    roll = property_income("classic", board=STANDARD)
    turn = property_income("classic", board=STANDARD, per="turn")
    factor = rolls_per_turn("classic", board=STANDARD)
    assert turn.attrs["rolls_per_turn"] == factor
    assert np.allclose(turn.expected_rent, roll.expected_rent * factor, rtol=1e-14)
    assert np.allclose(turn.payback_turns, roll.payback_rolls / factor, rtol=1e-14)
    assert "payback_rolls" not in turn.columns
    hotels = group_payback("classic", board=STANDARD, per="turn").query("level == 'hotel'")
    by_group = hotels.set_index("group").expected_rent
    # Ash & Bishop (1972) per opponent turn, their model (1972 cards, leave jail at once):
    # Boardwalk + Park Place with hotels $101.40, Mediterranean + Baltic $17.80
    assert by_group["darkblue"] == pytest.approx(101.40, rel=0.003)
    assert by_group["brown"] == pytest.approx(17.80, rel=0.005)
    # per roll, the published per-roll odds give $85.32 and $15.06
    per_roll = group_payback("classic", board=STANDARD).query("level == 'hotel'")
    assert round(per_roll.set_index("group").expected_rent["darkblue"], 2) == 85.32
    assert round(per_roll.set_index("group").expected_rent["brown"], 2) == 15.06
    with pytest.raises(ArgumentError, match="per"):
        property_income("classic", per="visits")  # type: ignore[arg-type]


# ---------------------------------------------------------------- the published figures


def test_every_published_figure_of_the_same_model_is_reproduced() -> None:
    from ugentopoly_widget.probability.lessons import LESSONS, lessons

    table = lessons()
    assert len(table) == len(LESSONS) >= 15
    same = table[table.same_model]
    assert len(same) >= 8 and same.agrees.all(), same[~same.agrees].lesson.tolist()
    # where the model differs the figure is near, never equal by accident, and says why
    other = table[~table.same_model].set_index("lesson")
    assert other.why.str.len().min() > 20
    assert other.ours["the course page's P(6, 8 or 9) = (5 + 7 + 8)/36"] == pytest.approx(
        14 / 36)
    assert not other.agrees["the course page's P(6, 8 or 9) = (5 + 7 + 8)/36"]
    assert other.agrees["within one percent of the long run after 20 turns"]
    for lesson in ("the JAIL square (Just Visiting + In Jail), %", "Illinois Avenue (E3), %"):
        assert abs(other.ours[lesson] - other.published[lesson]) < 0.03  # cycling decks


def test_the_spot_the_error_ways() -> None:
    ways = dice_distribution("classic").table.set_index("total").ways
    assert ways[[6, 8, 9]].tolist() == [5, 5, 4]  # not 5, 7, 8


def test_measure_table() -> None:
    from ugentopoly_widget.probability.lessons import MEASURES, measure_table

    table = measure_table("classic", board=STANDARD, tiles=[0, 10, 24, 40])
    assert table.name.tolist() == ["GO", "Jail / Just Visiting", "Illinois Avenue", "In Jail"]
    assert set(MEASURES) <= set(table.columns)
    turn = landing_distribution("classic", board=STANDARD, per="turn").probability
    assert table.per_turn.tolist() == turn[[0, 10, 24, 40]].tolist()
    factor = rolls_per_turn("classic", board=STANDARD)
    assert np.allclose(table.visits_per_turn, table.per_roll * factor, rtol=1e-13)
    # a double's roll is a roll but ends no turn: In Jail gains per turn (every jailing
    # ends the turn), the tiles reached mid-turn lose
    assert table.per_turn.iloc[-1] > table.per_roll.iloc[-1]
    for bad in ([41], [True], "0", [0.5]):
        with pytest.raises(ArgumentError, match="tiles"):
            measure_table("classic", board=STANDARD, tiles=bad)  # type: ignore[arg-type]


def test_nobody_is_in_jail_with_jail_off() -> None:
    from helpers import new_game

    with pytest.raises(ArgumentError, match="nobody is in jail"):
        next_roll_distribution("classic", in_jail=True, jail="off")
    game = new_game("classic", seed=1)
    game.testing.send_to_jail(game.current_player)
    assert game.players[game.current_player].in_jail
    with pytest.raises(ArgumentError, match="in jail"):
        next_roll_distribution(game, jail="off")
