"""Luck or skill in the widget with the real analysis (rollouts/analysis): the widget's live
analysis, made turn by turn in its worker process, is the one ``analyse()`` makes of the whole
game at once (the same seeds), and the roll map from the view is ``roll_map()``'s."""

from __future__ import annotations

from typing import Any

from ugentopoly_widget import Game, UgentopolyWidget
from ugentopoly_widget.engine.bots import make_bot, play_game
from ugentopoly_widget.rollouts.analysis import analyse, explain, roll_map
from ugentopoly_widget.widget.analysis_view import analysis_payload

SMALL = {"rollouts": 12, "chance_rollouts": 2}  # a shared machine: small, the same figures


def test_the_live_analysis_is_analyse_of_the_game() -> None:
    game = Game.scenario("classic", players=["Ann", "Bob"], owners={16: 0, 18: 0},
                         positions={"Ann": 14}, current="Ann", seed=3)
    w = UgentopolyWidget.from_game(game, turn_pause=0)
    w.show_analysis(True, **SMALL)  # a process where there are processes
    w.game.testing.script_dice((2, 3))  # Ann lands on New York Avenue, the last orange lot
    w.roll()
    w.decline()  # ... and declines it: a blunder
    value = w.wait_analysis(timeout=300)
    direct = analyse(w.game, seed=0, **SMALL)
    words = {"en": explain(direct, "en"), "nl": explain(direct, "nl")}
    assert value == analysis_payload(direct, seq=w.state["seq"], actions=len(w.game.actions),
                                     explain=words)
    assert value["verdict"]["verdict"] == "blunder" and value["verdict"]["index"] == 1
    assert "New York Avenue" in value["verdict"]["text"]["en"]
    assert "New York Avenue niet kopen" in value["verdict"]["text"]["nl"]  # (an analysis in en)
    assert value["luck"]["index"] == 0
    w.close()


def test_the_roll_map_is_roll_map_of_the_position() -> None:
    game = Game.scenario("classic", players=["Ann", "Bob"], owners={16: 0, 18: 0},
                         positions={"Ann": 14}, current="Ann", seed=3)
    w = UgentopolyWidget.from_game(game, turn_pause=0)
    shown = w.show_roll_map(rollouts=4)
    direct = roll_map(w.game, rollouts=4, seed=0)
    assert shown == direct
    assert [c["p_win"] for c in w.roll_map["cells"]] == [o.p_win for o in direct.outcomes]
    assert w.roll_map["cells"][0]["tile"] == 16  # 1 + 1 from St. James Place's neighbour
    w.close()


def test_an_analysis_switched_on_late_shows_the_newest_position_first() -> None:
    game = Game("classic", players=["Ann", "Bob"], seed=5)
    play_game(game, [make_bot("strong", 1), make_bot("strong", 2)], until_turn=30)
    w = UgentopolyWidget.from_game(game, turn_pause=0)
    seen: list[dict[str, Any]] = []
    w.observe(lambda change: seen.append(change["new"]), "analysis")
    w.show_analysis(True, worker="thread", **SMALL)
    value = w.wait_analysis(timeout=300)
    direct = analyse(w.game, seed=0, **SMALL)
    reports = [v for v in seen if v.get("status") in ("running", "done")]
    first = reports[0]
    # the first report: the game's last decision and last roll, judged before the backlog
    assert first["status"] == "running" and first["upto"] < len(w.game.actions)
    assert first["verdict"]["index"] == direct.decisions[-1].index
    assert first["luck"]["index"] == direct.chances[-1].index
    assert len(reports) > 2  # the backlog in several jobs, each a report
    assert value["status"] == "done" and value == reports[-1]
    words = {"en": explain(direct, "en"), "nl": explain(direct, "nl")}
    assert value == analysis_payload(direct, seq=w.state["seq"], actions=len(w.game.actions),
                                     explain=words)
    w.close()
