"""Intervals (Wilson, t, paired) against hand-computed values and scipy; the summary, compare()
on common random numbers and sweep() over a grid."""

from __future__ import annotations

import math

import pytest
from scipy import stats as scipy_stats

from ugentopoly_widget import SetupError, compare, simulate, sweep
from ugentopoly_widget.simulation.stats import mean_ci, paired_ci, t_quantile, wilson

SHORT = {"round_limit": 25}


def test_wilson_against_a_hand_computed_case() -> None:
    # 8 successes in 10, z = 1.959964: centre = (0.8 + z²/20) / (1 + z²/10),
    # half = z * sqrt(0.8 * 0.2 / 10 + z² / 400) / (1 + z²/10)
    z = 1.959963984540054
    centre = (0.8 + z * z / 20) / (1 + z * z / 10)
    half = z * math.sqrt(0.016 + z * z / 400) / (1 + z * z / 10)
    low, high = wilson(8, 10)
    assert low == pytest.approx(centre - half, abs=1e-12)
    assert high == pytest.approx(centre + half, abs=1e-12)
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)


@pytest.mark.parametrize(("k", "n"), [(0, 1), (0, 20), (1, 20), (37, 100), (500, 1000),
                                      (999, 1000), (1000, 1000)])
@pytest.mark.parametrize("confidence", [0.9, 0.95, 0.99])
def test_wilson_matches_scipy(k: int, n: int, confidence: float) -> None:
    ref = scipy_stats.binomtest(k, n).proportion_ci(confidence, method="wilson")
    low, high = wilson(k, n, confidence)
    assert low == pytest.approx(ref.low, abs=1e-12)
    assert high == pytest.approx(ref.high, abs=1e-12)


def test_wilson_bad_input() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    for k, n in ((3, 2), (-1, 5)):
        with pytest.raises(ValueError):
            wilson(k, n)
    with pytest.raises(ValueError):
        wilson(1, 2, confidence=1.0)


@pytest.mark.parametrize("df", [1, 2, 3, 7, 29, 100, 10_000])
@pytest.mark.parametrize("p", [0.55, 0.9, 0.975, 0.995, 0.025])
def test_t_quantile_matches_scipy(df: int, p: float) -> None:
    assert t_quantile(p, df) == pytest.approx(scipy_stats.t.ppf(p, df), rel=1e-9, abs=1e-9)


def test_mean_and_paired_intervals_match_scipy() -> None:
    values = [12.0, 15.5, 9.0, 20.0, 14.0, 11.5, 17.0]
    ci = mean_ci(values)
    low, high = scipy_stats.t.interval(0.95, len(values) - 1, loc=sum(values) / len(values),
                                       scale=scipy_stats.sem(values))
    assert (ci.low, ci.high) == (pytest.approx(low), pytest.approx(high))
    other = [11.0, 15.0, 10.0, 18.5, 13.0, 11.0, 16.0]
    diff = paired_ci(values, other)
    ref = scipy_stats.ttest_rel(values, other).confidence_interval(0.95)
    assert (diff.low, diff.high) == (pytest.approx(ref.low), pytest.approx(ref.high))
    assert math.isnan(mean_ci([3.0]).low) and mean_ci([]).n == 0


def test_summary_intervals_on_a_known_binomial_case() -> None:
    # The heuristic bot beats the random one in every one of these 30 games: 30 of 30 and
    # 0 of 30, whose Wilson bounds are n / (n + z²) and z² / (n + z²).
    results = simulate(30, "classic", bots=["heuristic", "random"], seed=4, progress=False,
                       options={"round_limit": 200})
    wins = results.win_rates("bot").set_index("bot")
    z2 = 1.959963984540054 ** 2
    assert wins.loc["heuristic", "wins"] == 30 and wins.loc["random", "wins"] == 0
    assert wins.loc["heuristic", "ci_low"] == pytest.approx(30 / (30 + z2))
    assert wins.loc["random", "ci_high"] == pytest.approx(z2 / (30 + z2))
    text = str(results.summary())
    assert "heuristic" in text and "[0.886, 1.000]" in text and "[0.000, 0.114]" in text
    # mixed case: counted from the rows, checked against scipy
    # 40 rounds: some games end early, so turns vary (with a fair round limit, every game of
    # two heuristic bots that reaches 25 rounds lasts exactly 50 turns: no spread to test)
    mixed = simulate(40, "classic", bots=["heuristic", "heuristic"], progress=False,
                     options={"round_limit": 40})
    seat = mixed.win_rates("seat").set_index("seat")
    k = int(mixed.games["won_0"].sum())
    ref = scipy_stats.binomtest(k, 40).proportion_ci(0.95, method="wilson")
    assert seat.loc[0, "wins"] == k and 0 < k < 40
    assert seat.loc[0, "ci_low"] == pytest.approx(ref.low)
    length = mixed.game_length().set_index("measure")
    turns = mixed.games["turns"].astype(float).tolist()
    lo, hi = scipy_stats.t.interval(0.95, 39, loc=sum(turns) / 40, scale=scipy_stats.sem(turns))
    assert (length.loc["turns", "ci_low"], length.loc["turns", "ci_high"]) == (
        pytest.approx(lo), pytest.approx(hi))
    order = mixed.win_rates("order")
    assert order["order"].tolist() == [0, 1] and order["games"].tolist() == [40, 40]


def test_compare_uses_common_random_numbers() -> None:
    same = compare({}, {}, 12, profile="classic", bots=["heuristic", "random"],
                   options=SHORT, progress=False)
    diffs = same.differences()
    assert (diffs["diff"] == 0).all() and (diffs["ci_low"] == 0).all()
    assert same.a.games["seed"].tolist() == same.b.games["seed"].tolist()
    tax = compare({"options": {"income_tax_choice": True}},
                  {"options": {"income_tax_choice": False}}, 20, profile="classic",
                  bots=["heuristic", "random"], options=SHORT, progress=False,
                  labels=("choice", "flat"))
    table = tax.differences("seat").set_index(["measure", "group"])
    assert table.loc[("turns", "all"), "games"] == 20
    a, b = tax.a.games["turns"].mean(), tax.b.games["turns"].mean()
    assert table.loc[("turns", "all"), "diff"] == pytest.approx(a - b)
    assert table.loc[("win_rate", 0), "a"] == pytest.approx(tax.a.games["won_0"].mean())
    text = str(tax)
    assert "A = choice: income_tax_choice=True" in text and "20 paired games" in text
    assert tax.a.settings.profile.income_tax_choice is True
    assert tax.b.settings.profile.income_tax_choice is False
    assert tax.b.settings.profile.round_limit == 25  # common options merged under each side


def test_compare_and_sweep_refuse_bad_input_before_any_game() -> None:
    calls: list[int] = []
    progress = lambda done, total: calls.append(done)  # noqa: E731
    with pytest.raises(SetupError, match="unknown bot"):
        compare({}, {"bots": ["heuristic", "nobody"]}, 5, profile="classic",
                bots=["heuristic", "random"], progress=progress)
    with pytest.raises(SetupError, match="same seed"):
        compare({"seed": 1}, {}, 5, progress=progress)
    with pytest.raises(SetupError, match="unknown simulate"):
        compare({"gamez": 1}, {}, 5, progress=progress)
    with pytest.raises(SetupError, match="neither a simulate"):
        sweep("no_such_rule", [1, 2], 5, profile="classic", progress=progress)
    with pytest.raises(SetupError, match="invalid rules option"):
        sweep("round_limit", [10, -1], 5, profile="classic", progress=progress)
    with pytest.raises(SetupError, match="non-empty"):
        sweep("round_limit", [], 5, progress=progress)
    assert calls == []


def test_sweep_over_a_rules_option_and_over_players() -> None:
    result = sweep("round_limit", [5, 15], 8, profile="classic", bots=["heuristic"] * 3,
                   progress=False)
    table = result.table()
    rounds = table[table["measure"] == "rounds"].set_index("value")["estimate"]
    assert rounds["5"] <= 5 < rounds["15"] <= 15
    assert [r.settings.profile.round_limit for r in result.runs] == [5, 15]
    assert result.runs[0].games["seed"].tolist() == result.runs[1].games["seed"].tolist()
    assert "sweep of round_limit" in str(result)
    players = sweep("bots", [["heuristic"] * 2, ["heuristic"] * 3], 6, profile="classic",
                    options=SHORT, progress=False)
    win = players.table().query("measure == 'win_rate'").set_index("value")["estimate"]
    assert win["heuristic,heuristic"] == pytest.approx(0.5, abs=0.01)
    assert win["heuristic,heuristic,heuristic"] == pytest.approx(1 / 3, abs=0.01)
