"""Game-level lessons (issue 23): censored game lengths and their Kaplan–Meier survival
curve, the share of games still running at a cap, the first player's advantage."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pandas as pd
import pytest

from ugentopoly_widget.probability import ArgumentError
from ugentopoly_widget.probability.games import (
    SimpleBot,
    first_player_advantage,
    game_lengths,
    still_running,
    survival_curve,
)
from ugentopoly_widget.simulation import simulate

# five games, two stopped by the cap: the textbook Kaplan–Meier case
HAND = pd.DataFrame({"turns": [3, 5, 5, 8, 10], "end_reason": [
    "cannot_pay", "round_limit", "cannot_pay", "last_player_standing", "max_actions"]})


def test_kaplan_meier_by_hand() -> None:
    """At 3: 5 at risk, 1 ends: 4/5. At 5: 4 at risk (the one censored at 5 still counts),
    1 ends: 4/5 * 3/4 = 3/5. At 8: 2 at risk, 1 ends: 3/10. The game stopped at 10 ends
    the evidence."""
    curve = survival_curve(HAND)
    assert curve.length.tolist() == [3, 5, 8]
    assert curve.at_risk.tolist() == [5, 4, 2] and curve.ended.tolist() == [1, 1, 1]
    assert curve.censored.tolist() == [0, 1, 1]
    assert curve.survival.tolist() == pytest.approx([4 / 5, 3 / 5, 3 / 10], abs=1e-15)
    # Greenwood: V(3) = 1/(5*4); the log(-log) interval S^exp(+-z sqrt(V)/|log S|)
    spread = 1.959963984540054 * math.sqrt(1 / 20) / abs(math.log(0.8))
    assert curve.ci_low[0] == pytest.approx(0.8 ** math.exp(spread))
    assert curve.ci_high[0] == pytest.approx(0.8 ** math.exp(-spread))
    assert (curve.ci_low <= curve.survival).all() and (curve.survival <= curve.ci_high).all()
    # dropping the censored games, or counting them as ended, gives other (wrong) answers
    assert survival_curve(HAND[HAND.end_reason.isin(["cannot_pay", "last_player_standing"])]
                          ).survival.iloc[-1] == 0.0


def test_still_running_at_caps() -> None:
    table = still_running(HAND, [0, 4, 5, 9, 10, 11])
    assert table.share.tolist()[:5] == pytest.approx([1.0, 0.8, 0.6, 0.3, 0.3])
    assert np.isnan(table.share[5])  # no game was seen beyond 10
    assert table.observed.tolist() == [5, 5, 5, 4, 4, 3]


def test_share_still_running_at_the_simulation_cap() -> None:
    """Nothing is censored before the cap, so the share at the cap is the plain share of
    games the cap stopped (the simple bots never build: many 22-cell games drag on)."""
    results = simulate(60, "cell22", bots=SimpleBot, options={"round_limit": 50}, seed=2,
                       progress=False)
    stopped = float((results.games.end_reason == "round_limit").mean())
    assert 0.2 < stopped < 0.8
    at_cap = still_running(results, [50], "rounds")
    assert at_cap.share[0] == pytest.approx(stopped, abs=1e-12)
    lengths = game_lengths(results, "rounds")
    assert (lengths.ended == (results.games.end_reason != "round_limit")).all()
    assert lengths.length[~lengths.ended].eq(50).all()


def test_first_player_advantage_table() -> None:
    results = simulate(40, "classic", players=4, rotate_seats=True, seed=3, progress=False)
    table = first_player_advantage(results)
    seats = results.seats()
    assert table.order.tolist() == [0, 1, 2, 3]
    for _, row in table.iterrows():
        assert row.wins == int(seats[seats.order == row.order].won.sum())
    assert (table.fair_share == 0.25).all()
    assert np.allclose(table.ratio, table.win_rate / 0.25)
    assert (table.ci_low < table.win_rate).all() and (table.win_rate < table.ci_high).all()


def test_the_simple_bot_is_a_bot_for_simulate() -> None:
    bot = pickle.loads(pickle.dumps(SimpleBot(seed=4)))  # process pools pickle it
    assert bot.name == "simple" and bot.seed == 4
    results = simulate(4, "classic", bots=SimpleBot, options={"round_limit": 30}, seed=1,
                       progress=False)
    assert results.games.buildings_built.sum() == 0 and len(results.failures) == 0
    assert results.games.properties_bought.sum() > 0


@pytest.mark.parametrize("call", [
    lambda: game_lengths([1, 2, 3]),
    lambda: game_lengths(HAND, "days"),  # type: ignore[arg-type]
    lambda: game_lengths(HAND.drop(columns="end_reason")),
    lambda: game_lengths(HAND.assign(turns=["a", 1, 2, 3, 4])),
    lambda: game_lengths(HAND.assign(turns=[-1, 1, 2, 3, 4])),
    lambda: survival_curve(HAND.iloc[:0]),
    lambda: survival_curve(HAND, confidence=1.5),
    lambda: still_running(HAND, 100),  # type: ignore[arg-type]
    lambda: still_running(HAND, []),
    lambda: still_running(HAND, [-5]),
    lambda: first_player_advantage("results"),  # type: ignore[arg-type]
])
def test_bad_input_is_a_named_error(call: object) -> None:
    with pytest.raises(ArgumentError):
        call()  # type: ignore[operator]


@pytest.mark.parametrize("flags", [["True", "False"], ["yes", "no"], [2, 0], [1.0, float("nan")],
                                   [None, True]])
def test_ended_flags_that_are_not_booleans_are_refused(flags: list[object]) -> None:
    """Before: astype(bool) counted the text "False" as ended: a wrong curve, silently."""
    with pytest.raises(ArgumentError, match="'ended' column holds True/False"):
        survival_curve(pd.DataFrame({"turns": [5, 9], "ended": flags}))


def test_ended_flags_as_booleans_or_ones_and_zeros_give_the_same_curve() -> None:
    curves = [survival_curve(pd.DataFrame({"turns": [5, 9, 7], "ended": flags}))
              for flags in ([True, False, True], [1, 0, 1], [np.bool_(True), False, 1.0])]
    assert curves[0].survival.tolist() == pytest.approx([2 / 3, 1 / 3])  # 9 turns: not ended
    for curve in curves[1:]:
        pd.testing.assert_frame_equal(curve, curves[0])
