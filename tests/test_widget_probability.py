"""The widget's probability panels without a browser: the figures sent to the view (heat overlay
modes, dice histogram, convergence) equal the probability package's, follow the game, and bad
input (from code or a forged view message) changes nothing."""

from __future__ import annotations

import doctest
import json
import math
from typing import Any

import numpy as np
import pytest

import ugentopoly_widget.probability as probability
import ugentopoly_widget.widget.odds as widget_probability
from ugentopoly_widget.probability import (
    MissingJailError,
    compare_landings,
    convergence,
    dice_distribution,
    expected_total_variation,
    landing_distribution,
    landing_model,
    next_roll_distribution,
    total_variation,
)
from ugentopoly_widget.widget import UgentopolyWidget


def _widget(profile: str = "classic", **kwargs: Any) -> UgentopolyWidget:
    kwargs.setdefault("players", ["Ann", "Bob"])
    kwargs.setdefault("seed", 3)
    return UgentopolyWidget(profile, **kwargs)


def _request(w: UgentopolyWidget, content: Any) -> None:
    w._handle_custom_msg(content, [])  # as a view's message arrives


def _end_turn(w: UgentopolyWidget) -> None:
    """Settle what the roll left to decide (a tax), then end the turn."""
    if w.game.decision.kind == "tax":
        w.choose_tax("flat")
    w.end_turn()


def _shares(w: UgentopolyWidget) -> list[float]:
    return [*w.heat["values"], w.heat["jail"]]


@pytest.mark.parametrize("profile", ["classic", "ugentopoly", "cell22"])
def test_exact_mode_is_the_long_run_distribution(profile: str) -> None:
    w = _widget(profile)
    w.show_probability("exact")
    exact = landing_distribution(w.game).probability.to_list()
    assert _shares(w) == pytest.approx(exact, abs=1e-15)
    assert math.isclose(sum(_shares(w)), 1.0, abs_tol=1e-12)
    assert len(w.heat["values"]) == w.game.board.size  # one float per tile, In Jail apart
    # the scale spans the tiles shown, lowest to highest above 0 (issue 20: a zero-based
    # scale made the streets' range one colour); In Jail, often above it, is labelled apart
    tiles = exact[:-1]
    assert w.heat["min"] == min(v for v in tiles if v > 0) and w.heat["max"] == max(tiles)
    assert w.heat["mode"] == "exact" and w.heat["unit"] == "%" and not w.heat["diverging"]
    assert w.heat["jail_position"] == w.game.board.jail_position
    assert len(json.dumps(w.heat)) < 4000  # small: the floats, a colour per tile, two notes


def test_exact_mode_with_the_long_jail_strategy() -> None:
    w = _widget()
    w.show_probability("exact", jail="long")
    long = landing_distribution(w.game, jail="long").probability.to_list()
    assert _shares(w) == pytest.approx(long, abs=1e-15)
    assert w.heat["jail"] > 0.09  # In Jail: 9 % when players stay and roll for doubles


def test_next_mode_from_a_scripted_position() -> None:
    w = _widget()
    w.game.testing.place(0, 36)  # Ann on Chance
    w.refresh()
    w.show_probability("next")
    expected = next_roll_distribution(w.game).probability.to_list()
    by_hand = next_roll_distribution(w.game, position=36).probability.to_list()
    assert _shares(w) == pytest.approx(expected, abs=1e-15)
    assert expected == pytest.approx(by_hand, abs=1e-15)
    assert w.heat["values"][36 + 7 - 40] > 0.16  # a 7 ends on tile 3 (Baltic), at least 1/6
    assert w.heat["values"][36] == 0.0  # a roll cannot end where it starts
    assert w.heat["player"] == 0
    # after Ann's roll (3, 5 -> Income Tax) and her turn, the overlay is Bob's next roll, from GO
    w.game.testing.script_dice((3, 5))
    w.roll()
    _end_turn(w)
    assert w.heat["player"] == 1
    assert _shares(w) == pytest.approx(next_roll_distribution(w.game).probability.to_list())
    assert w.heat["values"][7] > 0.0 and w.heat["values"][1] == 0.0  # from GO: 2..12


def test_observed_mode_follows_scripted_rolls_through_cards_and_jail() -> None:
    w = _widget()
    w.show_probability("observed")
    assert w.heat["rolls"] == 0 and sum(_shares(w)) == 0.0 and w.heat["max"] == 0.0
    game = w.game
    game.testing.script_dice((3, 4))  # GO -> Chance 7, "go back three" -> Income Tax 4
    game.testing.stack_deck("CHANCE", ["card.chance.09"])
    w.roll()
    assert w.heat["rolls"] == 1 and w.heat["values"][4] == 1.0 and w.heat["values"][7] == 0.0
    _end_turn(w)
    game.testing.place(1, 20)
    game.testing.script_dice((4, 6))  # Bob: 20 -> Go To Jail 30 counts as In Jail
    w.roll()
    assert w.heat["rolls"] == 2
    assert w.heat["values"][4] == 0.5 and w.heat["jail"] == 0.5 and w.heat["values"][30] == 0.0
    assert _shares(w) == pytest.approx(compare_landings(game).observed.to_list())


def test_difference_is_observed_minus_exact_on_a_diverging_zero_centred_scale() -> None:
    w = _widget()
    w.play_bots(40, everyone="heuristic")
    w.show_probability("difference")
    table = compare_landings(w.game)
    observed = np.array(table.observed)
    exact = np.array(landing_distribution(w.game).probability)
    assert np.allclose(_shares(w), observed - exact, atol=1e-15)
    top = float(np.abs(observed - exact)[:-1].max())  # the tiles' (In Jail labelled apart)
    assert w.heat["min"] == -top and w.heat["max"] == top
    assert w.heat["diverging"] and w.heat["unit"] == "pp"
    assert math.isclose(sum(_shares(w)), 0.0, abs_tol=1e-12)


def test_dice_panel_counts_the_scripted_dice_against_the_exact_triangle() -> None:
    w = _widget()
    w.show_dice_stats(True)
    dice = w.stats["dice"]
    assert dice["totals"] == list(range(2, 13)) and dice["rolls"] == 0
    assert [round(36 * p) for p in dice["exact"]] == [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]
    assert dice["ways"] == [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1] and dice["faces"] == 36
    game = w.game
    game.testing.script_dice((3, 3), (2, 3), (6, 6))  # a double rolls again: three rolls
    w.roll()  # Oriental Avenue
    w.buy()
    w.roll()  # St. Charles Place
    w.buy()
    w.end_turn()
    w.roll()  # Bob: Electric Company
    counts = dict(zip(w.stats["dice"]["totals"], w.stats["dice"]["counts"], strict=True))
    assert w.stats["dice"]["rolls"] == 3
    assert counts == {2: 0, 3: 0, 4: 0, 5: 1, 6: 1, 7: 0, 8: 0, 9: 0, 10: 0, 11: 0, 12: 1}
    assert dice_distribution(game).table.probability.to_list() == w.stats["dice"]["exact"]


def test_a_utility_rent_roll_is_not_a_movement_roll() -> None:
    w = _widget()
    game = w.game
    game.testing.give_property(1, 12)
    game.testing.stack_deck("CHANCE", ["card.chance.03"])  # nearest utility: 10x a new roll
    game.testing.script_dice((3, 4), (2, 3))
    w.show_dice_stats(True)
    w.roll()
    assert w.stats["dice"]["rolls"] == 1 and w.stats["dice"]["counts"][5] == 1


def test_convergence_grows_as_bots_play_and_equals_the_package_figures() -> None:
    w = _widget("classic", players=["Ann", "Bob", "Cleo"])
    w.show_dice_stats(True)
    assert w.stats["convergence"]["rolls"] == []
    w.play_bots(30, everyone="heuristic")
    first = w.stats["convergence"]
    w.play_bots(150, everyone="heuristic")
    curve = w.stats["convergence"]
    assert curve["rolls"][-1] > first["rolls"][-1] > 0
    assert len(curve["rolls"]) <= widget_probability.CONVERGENCE_POINTS  # capped
    assert curve["rolls"] == sorted(set(curve["rolls"])) and curve["rolls"][0] == 1
    ratios = np.diff(np.log(curve["rolls"]))
    assert ratios.max() < 1.0  # log-spaced: no gap of more than a factor e
    expected = convergence(w.game, checkpoints=curve["rolls"])
    assert curve["rolls"][-1] == expected.rolls.iloc[-1]  # every closed roll so far
    assert curve["tv"] == pytest.approx(expected.total_variation.to_list(), abs=1e-12)
    n = curve["rolls"][-1]
    history = widget_probability.LiveStats()
    history.update(w.game)
    observed = np.bincount(history.counter.history, minlength=41) / n
    assert curve["tv"][-1] == pytest.approx(
        total_variation(observed, landing_distribution(w.game)), abs=1e-12)
    chain = landing_model(w.game)
    assert curve["expected"] == pytest.approx(
        [expected_total_variation(chain, n) for n in curve["rolls"]], rel=1e-12)
    assert all(e > 0 for e in curve["expected"])
    assert curve["expected"][-1] < curve["expected"][0]  # the distance expected shrinks


def test_undo_and_a_new_game_recount_from_the_start() -> None:
    w = _widget()
    w.show_probability("observed")
    w.show_dice_stats(True)
    w.game.testing.script_dice((2, 3), (4, 5))
    w.roll()
    w.buy()
    w.undo()  # back to the buy decision: the roll stays
    assert w.stats["dice"]["rolls"] == 1 and w.heat["rolls"] == 1
    w.game = type(w.game)("classic", players=["Dora", "Eve"], seed=9)
    assert w.probability_mode == "observed" and w.dice_stats_shown
    assert w.heat["rolls"] == 0 and w.stats["dice"]["rolls"] == 0
    w.game = type(w.game)("cell22", players=["Dora", "Eve"], seed=9)
    assert len(w.heat["values"]) == 22  # recomputed for the new board, not cleared


def test_off_hides_and_a_custom_heat_map_replaces_the_mode() -> None:
    w = _widget()
    w.show_probability("exact")
    w.show_probability(None)
    assert w.heat == {} and w.probability_mode is None
    w.show_probability("next")
    w.show_probability("off")
    assert w.heat == {}
    w.show_probability("exact")
    w.show_heat([1.0] * 40, "mine")
    assert w.probability_mode is None and "mode" not in w.heat
    w.play_bots(3, everyone="heuristic")
    assert w.heat["label"] == "mine"  # a custom map is not overwritten by the game
    w.show_dice_stats(False)
    assert w.stats == {}


@pytest.mark.parametrize("mode", ["heat", "EXACT", "", 3, ["exact"], True])
def test_a_bad_mode_is_a_value_error_and_changes_nothing(mode: Any) -> None:
    w = _widget()
    w.show_probability("exact")
    before = dict(w.heat)
    with pytest.raises(ValueError, match="probability overlay is one of"):
        w.show_probability(mode)
    assert w.heat == before and w.probability_mode == "exact"
    with pytest.raises(ValueError, match="jail is one of"):
        w.show_probability("observed", jail="medium")
    assert w.heat == before and w.probability_mode == "exact"


@pytest.mark.parametrize("show", ["yes", 1, None])
def test_show_dice_stats_takes_a_bool(show: Any) -> None:
    w = _widget()
    with pytest.raises(ValueError, match="True or False"):
        w.show_dice_stats(show)
    assert w.stats == {} and not w.dice_stats_shown


def test_the_view_switches_modes_and_stats() -> None:
    w = _widget()
    _request(w, {"type": "probability", "mode": "difference", "seq": w.state["seq"]})
    assert w.heat["mode"] == "difference"
    _request(w, {"type": "probability", "stats": True})
    assert w.stats["dice"]["rolls"] == 0
    _request(w, {"type": "probability", "mode": None, "stats": False})
    assert w.heat == {} and w.stats == {}
    assert w.errors == []


@pytest.mark.parametrize("content, message", [
    ({"type": "probability", "mode": "heat"}, "unknown probability mode 'heat'"),
    ({"type": "probability", "mode": {"x": 1}}, "unknown probability mode"),
    ({"type": "probability", "stats": "yes"}, "stats is true or false"),
    ({"type": "probability", "mode": "exact", "stats": 1}, "stats is true or false"),
    ({"type": "probability", "mode": "exact", "values": [1.0] * 40}, "malformed request"),
])
def test_a_forged_probability_request_is_refused_and_changes_nothing(
        content: dict[str, Any], message: str) -> None:
    w = _widget()
    w.show_probability("observed")
    heat, stats, seq = dict(w.heat), dict(w.stats), w.state["seq"]
    _request(w, content)
    assert message in w.errors[-1] and message in w.error["message"]
    assert w.heat == heat and w.stats == stats and w.state["seq"] == seq


def test_the_view_cannot_write_the_panels_directly() -> None:
    w = _widget()
    w.set_state({"heat": {"values": [1.0] * 40, "min": 0, "max": 1}, "stats": {"dice": {}}})
    assert w.heat == {} and w.stats == {}
    assert "refused a change of ['heat', 'stats']" in w.errors[-1]


def test_settings_made_in_the_lobby_apply_to_the_game_started_there() -> None:
    w = UgentopolyWidget.open_lobby("classic")
    w.show_probability("exact")
    w.show_dice_stats(True)
    assert w.heat == {} and w.stats == {}
    _request(w, {"type": "setup", "profile": "classic", "seq": w.state["seq"], "players": [
        {"name": "Ann", "token": "hat", "colour": "#d32f2f"},
        {"name": "Bob", "token": "car", "colour": "#1976d2"}]})
    assert w.errors == []
    assert sum(_shares(w)) == pytest.approx(1.0) and w.stats["dice"]["rolls"] == 0


def _no_chain(*args: Any, **kwargs: Any) -> Any:
    raise MissingJailError("a Go To Jail tile but no JAIL tile on the board")


def test_a_board_the_chain_cannot_model_is_a_clear_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    w = _widget()
    w.show_probability("observed")
    w.show_dice_stats(True)
    heat, stats = dict(w.heat), dict(w.stats)
    monkeypatch.setattr(probability, "overlay", _no_chain)
    with pytest.raises(MissingJailError, match="no JAIL tile"):
        w.show_probability("exact")
    assert w.heat == heat and w.probability_mode == "observed"
    _request(w, {"type": "probability", "mode": "exact"})  # from the view: refused, in words
    assert "cannot show the probabilities" in w.errors[-1] and w.heat == heat
    assert w.error["text"]["nl"].startswith("De kansen kunnen voor dit bord niet")
    # a game the chain fails on while it is shown: the panels turn off and say why
    w.play_bots(2, everyone="heuristic")
    assert "probability panels turned off" in w.errors[-1]
    assert w.heat == {} and w.stats == {} and w.probability_mode is None
    assert stats  # it was on


def test_docstring_examples() -> None:
    result = doctest.testmod(widget_probability,
                             extraglobs={"UgentopolyWidget": UgentopolyWidget})
    assert result.attempted > 0 and result.failed == 0
