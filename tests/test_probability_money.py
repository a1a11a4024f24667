"""Money: expected rent per opponent roll and payback, checked by hand against the chain."""

from __future__ import annotations

import numpy as np
import pytest

from ugentopoly_widget.probability import landing_distribution
from ugentopoly_widget.probability.money import group_payback, property_income
from ugentopoly_widget.probability.montecarlo import MovementSimulator, simulate_landings

STANDARD = "bundled:classic-standard-decks"


def test_street_rent_is_share_times_rent() -> None:
    income = property_income("classic", board=STANDARD)
    share = landing_distribution("classic", board=STANDARD).probability
    boardwalk = income[(income.position == 39)].set_index("level")
    assert boardwalk.rent["hotel"] == 2000 and boardwalk.rent["group"] == 100
    assert boardwalk.expected_rent["hotel"] == pytest.approx(2000 * share[39])
    assert boardwalk.investment["hotel"] == 400 + 5 * 200
    assert boardwalk.payback_rolls["3 houses"] == pytest.approx(
        (400 + 3 * 200) / (1400 * share[39]))


def test_nearest_railroad_card_pays_double() -> None:
    """Reading Railroad (5) is the nearest railroad from Chance 36: 2 of 16 cards send the
    token there and pay twice; Chance 36 keeps 6/16 of its arrivals, so arrivals = P(36)*16/6."""
    income = property_income("classic", board=STANDARD)
    share = landing_distribution("classic", board=STANDARD).probability
    reading = income[(income.position == 5) & (income.level == "1 owned")].iloc[0]
    arrive_36 = share[36] * 16 / 6
    assert reading.expected_rent == pytest.approx(25 * (share[5] + arrive_36 * 2 / 16))


def test_utilities_use_the_real_dice_and_the_card_roll() -> None:
    income = property_income("classic", board=STANDARD)
    electric = income[income.position == 12].set_index("level")
    # one landing pays 4x the roll that came, or (nearest-utility card) 10x a fresh roll:
    # between 4 x 7 and 10 x 7 per landing, nearer 4x
    assert 28 * 0.9 < electric.rent["1 owned"] < 70
    assert electric.rent["2 owned"] > electric.rent["1 owned"] * 2


def test_group_table_and_profiles() -> None:
    table = group_payback("classic", board=STANDARD)
    hotel = table[table.level == "hotel"].sort_values("payback_rolls")
    assert hotel.group.iloc[0] == "orange"
    reds = table[(table.group == "red") & (table.level == "hotel")].iloc[0]
    assert reds.lots == 3 and reds.investment == 220 + 220 + 240 + 3 * 5 * 150
    course = property_income("ugentopoly")
    first = course[course.kind == "STREET"].iloc[:2]
    assert first.rent.iloc[1] == 2 * first.rent.iloc[0]  # course rule: doubled with the area
    cell22 = property_income("cell22")
    street = cell22[cell22.kind == "STREET"]
    cost = float(street.investment.iloc[0])
    assert street.rent.iloc[:3].tolist() == [cost, cost * 3 // 2, cost * 2]


def test_monte_carlo_api() -> None:
    df = simulate_landings("classic", board=STANDARD, rolls=200_000, walkers=4096, seed=2)
    exact = landing_distribution("classic", board=STANDARD)
    assert df["count"].sum() >= 200_000
    assert np.abs(df.probability - exact.probability).max() < 0.003
    sim = MovementSimulator("cell22", walkers=64, seed=1)
    path = sim.trajectory(1000)
    assert len(path) == 1000 and path.min() >= 0 and path.max() <= 22
    with pytest.raises(ValueError):
        MovementSimulator("classic", walkers=0)
