"""The widget's live win chances, without a browser: off by default; on, the figures equal the
rollouts' own for the same position and seeds; a new position drops the old work; a decision
gets its swing line (paired, in both languages); the view's request is checked."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from ugentopoly_widget import Game
from ugentopoly_widget.rollouts import RolloutError, action_values, win_chances
from ugentopoly_widget.rollouts.live import LiveEstimator
from ugentopoly_widget.widget import UgentopolyWidget


def widget(**kwargs: Any) -> UgentopolyWidget:
    game = Game.scenario("classic", players=["Ann", "Bob"], seed=1, current="Ann",
                         owners={16: "Ann", 18: "Ann", 21: "Bob", 23: "Bob"},
                         cash={"Ann": 900, "Bob": 1500}, positions={"Ann": 14})
    return UgentopolyWidget.from_game(game, **kwargs)


def test_off_by_default() -> None:
    w = widget()
    assert w.win_chances == {} and not w.win_chances_shown and w._win is None
    # rollouts can run here: the view shows the switch (the browser site says False)
    assert w.rollouts_available is True and w.get_state()["rollouts_available"] is True
    w.game.testing.script_dice((2, 3))
    w.roll()
    assert w.win_chances == {}
    w.close()


def test_the_figures_are_the_rollouts_own() -> None:
    w = widget()
    w.show_win_chances(True, budget=72, seed=3)
    figures = w.wait_win_chances(timeout=120)
    assert figures["status"] == "done" and figures["rollouts"] == 72
    assert figures["seq"] == w.state["seq"]
    table = win_chances(w.game, rollouts=72, seed=3)
    for row, player in zip(table.itertuples(), figures["players"], strict=True):
        assert player["name"] == row.name
        assert player["p_win"] == pytest.approx(row.p_win)
        assert player["se"] == pytest.approx(row.se)
        assert (player["ci_low"], player["ci_high"]) == pytest.approx((row.ci_low, row.ci_high))
    assert figures["unfinished"]["p_win"] == pytest.approx(table.p_unfinished[0])
    assert figures["unfinished"]["label"] == {"en": "no winner yet", "nl": "nog geen winnaar"}
    w.show_win_chances(False)
    assert w.win_chances == {} and not w.win_chances_shown
    w.close()


def test_a_decision_gets_its_swing_line() -> None:
    w = widget()
    w.show_win_chances(True, budget=72, seed=3)
    w.game.testing.script_dice((2, 3))
    w.roll()  # Ann on New York Avenue, the last orange lot (a roll: no swing line)
    w.wait_win_chances(timeout=120)
    before = w.game.copy()
    w.decline()
    figures = w.wait_win_chances(timeout=120)
    swing = figures["swings"][-1]
    assert len(figures["swings"]) == 1 and swing["player"] == 0
    assert swing["seq"] == w.state["seq"]
    assert swing["text"]["en"].startswith("Ann declined New York Avenue: −")
    assert swing["text"]["en"].endswith(" points")
    assert swing["text"]["nl"].startswith("Ann kocht New York Avenue niet: −")
    # the swing is the paired difference action_values finds for the same choice and seeds
    table = action_values(before, rollouts=72, seed=3,
                          actions=[a for a in before.legal_actions() if a.type == "decline"])
    decline = table[table.text == "0:decline"].iloc[0]
    assert swing["points"] == pytest.approx(100 * decline.delta)
    assert swing["se_points"] == pytest.approx(100 * decline.delta_se)
    w.close()


def test_a_new_position_drops_the_old_work() -> None:
    w = widget()
    w.show_win_chances(True, budget=3600, seed=3)  # far more than the test waits for
    estimator = w._win
    assert estimator is not None
    w.game.testing.script_dice((2, 3))
    first = estimator.generation
    w.roll()
    assert estimator.generation == first + 1
    w.decline()
    w.show_win_chances(True, budget=36, seed=3)  # the settings replaced: a new estimator
    figures = w.wait_win_chances(timeout=120)
    assert figures["rollouts"] == 36 and figures["seq"] == w.state["seq"]
    assert estimator.closed and w._win is not estimator  # the old estimator was stopped
    w.close()


def test_updating_never_waits_for_a_batch() -> None:
    """A playout bot that waits at a gate holds the worker inside its first batch: handing the
    estimator a new position still returns (while the batch is held), and the old batch is
    thrown away once it ends. (Before, with a sleeping bot, this was timed: a property of a
    fast machine.)"""
    GateBot.inside.clear()
    GateBot.gate.clear()
    game = Game("classic", players=2, seed=5)
    live = LiveEstimator(budget=4, bots=GateBot, batch=4)
    live.update(game)
    assert GateBot.inside.wait(120), "the worker never started its batch"
    game.apply(game.legal_actions()[0])
    live.update(game)  # had it waited for the batch, it would wait for ever here
    assert not GateBot.gate.is_set() and live.latest is None
    GateBot.gate.set()
    estimate = live.wait(timeout=120)
    assert estimate is not None and estimate.generation == live.generation == 2
    live.close()


class GateBot:
    """A heuristic bot whose first choice in a rollout waits at a gate the test opens."""

    name = "gate"
    inside = threading.Event()  # a bot reached the gate
    gate = threading.Event()

    def __init__(self, seed: int | None = None) -> None:
        from ugentopoly_widget.engine.bots import HeuristicBot

        self.inner = HeuristicBot(seed=seed)

    def choose(self, game: Game) -> Any:
        GateBot.inside.set()
        GateBot.gate.wait(120)
        return self.inner.choose(game)


def test_the_views_request_and_bad_settings() -> None:
    w = widget()
    w._on_msg(w, {"type": "win_chances", "on": True, "budget": 36})
    assert w.win_chances_shown and w.errors == []
    w.wait_win_chances(timeout=120)
    for bad in ({"type": "win_chances", "on": "yes"},
                {"type": "win_chances", "on": True, "budget": 0},
                {"type": "win_chances", "on": True, "budget": 10**9},
                {"type": "win_chances", "on": True, "extra": 1}):
        w._on_msg(w, bad)
    assert len(w.errors) == 4 and all(e.startswith("refused") for e in w.errors)
    w._on_msg(w, {"type": "win_chances", "on": False})
    assert w.win_chances == {}
    with pytest.raises(RolloutError, match="budget"):
        w.show_win_chances(True, budget=0)
    with pytest.raises(RolloutError, match="unknown bot"):
        w.show_win_chances(True, bots="genius")
    with pytest.raises(ValueError, match="True or False"):
        w.show_win_chances("on")  # type: ignore[arg-type]
    w.close()


def test_a_finished_game_stops_the_estimate() -> None:
    w = UgentopolyWidget("classic", players=["Ann", "Bob"], seed=2, seats=["heuristic"] * 2)
    w.show_win_chances(True, budget=36)
    w.play_bots()
    assert w.game.is_over
    assert w.win_chances["status"] == "over"
    w.close()


def test_a_new_game_or_a_testing_step_is_a_new_position() -> None:
    w = widget()
    w.show_win_chances(True, budget=36, seed=3)
    first = w.wait_win_chances(timeout=120)
    estimator = w._win
    assert estimator is not None
    generation = estimator.generation
    w.game.testing.set_cash(0, 5)  # Ann nearly broke: the same actions, another position
    w.refresh()
    assert estimator.generation == generation + 1
    poorer = w.wait_win_chances(timeout=120)
    assert poorer["players"][0]["p_win"] < first["players"][0]["p_win"]
    w.game = Game("classic", players=["Cy", "Dee", "Eve"], seed=4)  # a new game, 0 actions
    assert estimator.generation == generation + 2
    figures = w.wait_win_chances(timeout=120)
    assert [p["name"] for p in figures["players"]] == ["Cy", "Dee", "Eve"]
    w.close()
