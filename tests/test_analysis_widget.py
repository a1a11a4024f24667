"""Luck or skill in the widget (issue 32): the Analysis tab's payloads built from the analysis'
result types (rollouts/analysis/results.py, made here by hand), and the widget's side: the
background analysis of each new position, stale results dropped, the roll map, the position
of a past decision, and requests from the view that are forged or stale refused with nothing
changed. The analysis itself is a stand-in (tests/analysis_fakes.py) with fixed rules, so the
figures shown can be compared exactly."""

from __future__ import annotations

import json
from typing import Any

import analysis_fakes as fakes
import pytest
from contract_checker import Checker

from ugentopoly_widget import Game, UgentopolyWidget
from ugentopoly_widget.rollouts.analysis.results import (
    ChanceRow,
    DecisionRow,
    GameAnalysis,
    OptionValue,
    PlayerSummary,
    RollMap,
    RollOutcome,
    Thresholds,
)
from ugentopoly_widget.widget import heatmap
from ugentopoly_widget.widget.analysis_view import (
    MAX_MISTAKES,
    analysis_payload,
    decision_text,
    luck_text,
    mistakes,
    roll_map_payload,
    series,
)
from ugentopoly_widget.widget.contract_export import json_schema

SCHEMA = json_schema()
FAKE = "analysis_fakes:step"
FAKE_MAP = "analysis_fakes:roll_map_of"


def option(text: str, p: float, loss: float, se: float = 1.5) -> OptionValue:
    return OptionValue(action={"type": "decline", "player": 1}, description=text, p_win=p,
                       se=0.01, loss=loss, loss_se=se)


DEFAULT = Thresholds()


def decision(index: int, turn: int, player: int, loss: float, se: float = 2.0,
             t: Thresholds = DEFAULT) -> DecisionRow:
    best = option("keep it", 0.6, 0.0, 0.0)
    chosen = best if loss == 0 else option("sell New York Avenue", 0.6 - loss / 100, loss, se)
    return DecisionRow(index=index, turn=turn, player=player, kind="trade_offer", chosen=chosen,
                       best=best, options=(best, chosen), verdict=t.verdict(loss))


def chance(index: int, turn: int, player: int, luck: float, kind: str = "roll") -> ChanceRow:
    return ChanceRow(index=index, turn=turn, player=player, kind=kind,  # type: ignore[arg-type]
                     outcome="5+3", p_before=0.5, p_after=0.5 + luck / 100, luck=luck,
                     luck_se=0.8)


def summary(player: int, name: str, rows: GameAnalysis) -> PlayerSummary:
    luck = sum(c.luck for c in rows.chances if c.player == player)
    loss = sum(d.chosen.loss for d in rows.decisions if d.player == player)
    return PlayerSummary(player=player, name=name, result=0.5, luck=luck, luck_se=1.0,
                         skill_loss=loss, skill_loss_se=1.0, inaccuracies=0, mistakes=1,
                         blunders=0, adjusted=50 - luck, adjusted_low=40 - luck,
                         adjusted_high=60 - luck)


def game_analysis() -> GameAnalysis:
    rows = GameAnalysis(players=(), upto=9, settings={"rollouts": 360})
    rows.chances = [chance(0, 1, 0, 7.0), chance(3, 1, 1, -2.5), chance(5, 2, 0, -4.0),
                    chance(8, 3, 1, 0.2, "card")]
    rows.decisions = [decision(1, 1, 0, 0.0), decision(4, 1, 1, 6.0), decision(6, 2, 0, 12.0),
                      decision(7, 3, 1, 2.5)]
    rows.players = (summary(0, "Ann", rows), summary(1, "Bob", rows))
    return rows


# ------------------------------------------------------------------------- the payloads


def test_the_verdict_and_luck_in_words_en_and_nl() -> None:
    names = ["Ann", "Bob"]
    text = decision_text(decision(4, 1, 1, 6.0), names)
    assert text["en"] == ("Bob: mistake, −6 ± 2 points: sell New York Avenue; best: keep it")
    assert text["nl"] == ("Bob: fout, −6 ± 2 punten: sell New York Avenue; beter: keep it")
    assert decision_text(decision(1, 1, 0, 0.0), names)["en"] == "Ann: fine: keep it"
    assert decision_text(decision(1, 1, 0, 12.0), names)["en"].startswith("Ann: blunder, −12")
    assert luck_text(chance(0, 1, 0, 7.2), names)["en"] == "Ann: lucky roll 5+3: +7 ± 1 points"
    assert luck_text(chance(0, 1, 1, -4.6), names)["nl"] == "Bob: pechworp 5+3: −5 ± 1 punten"
    assert luck_text(chance(0, 1, 1, 0.3), names)["en"].startswith("Bob: an average roll")
    assert luck_text(chance(0, 1, 0, 3.0, "card"), names)["nl"].startswith("Ann: gelukskaart")


def test_choices_and_outcomes_are_named_in_the_language_shown() -> None:
    """An analysis made in English, shown after a switch to Dutch: its choices and outcomes in
    Dutch too (they used to stay in the language the analysis started in)."""
    names = ["Ann", "Bob"]
    best = OptionValue(action={"type": "buy", "player": 0}, description="buy Boardwalk",
                       p_win=0.6, se=0.01, loss=0.0, loss_se=0.0,
                       words={"en": "buy Boardwalk", "nl": "Boardwalk kopen"})
    chosen = OptionValue(action={"type": "decline", "player": 0},
                         description="decline Boardwalk", p_win=0.5, se=0.01, loss=10.0,
                         loss_se=1.0, words={"en": "decline Boardwalk",
                                             "nl": "Boardwalk niet kopen"})
    row = DecisionRow(index=1, turn=1, player=0, kind="buy", chosen=chosen, best=best,
                      options=(best, chosen), verdict="blunder")
    text = decision_text(row, names)
    assert text["en"].endswith("decline Boardwalk; best: buy Boardwalk")
    assert text["nl"].endswith("Boardwalk niet kopen; beter: Boardwalk kopen")
    rolled = ChanceRow(index=0, turn=1, player=1, kind="roll", outcome="3+3 (double)",
                       p_before=0.5, p_after=0.55, luck=5.0, luck_se=1.0,
                       outcome_words={"en": "3+3 (double)", "nl": "3+3 (dubbel)"})
    assert luck_text(rolled, names)["nl"] == "Bob: geluksworp 3+3 (dubbel): +5 ± 1 punten"
    assert luck_text(rolled, names)["en"] == "Bob: lucky roll 3+3 (double): +5 ± 1 points"
    # rows made without the other language (older pickles, hand-made rows): their own words
    assert decision_text(decision(4, 1, 1, 6.0), names)["nl"].endswith("sell New York Avenue; "
                                                                       "beter: keep it")


def test_the_chart_sums_turn_by_turn_to_the_summaries() -> None:
    rows = game_analysis()
    points = series(rows, 2)
    assert [p["turn"] for p in points] == [0, 1, 2, 3]  # zeros, then one point per turn
    assert points[0]["luck"] == [0.0, 0.0] and points[0]["skill"] == [0.0, 0.0]
    assert points[1]["luck"] == [7.0, -2.5] and points[1]["skill"] == [0.0, 6.0]
    last = points[-1]
    for p in rows.players:
        assert last["luck"][p.player] == pytest.approx(p.luck)
        assert last["skill"][p.player] == pytest.approx(p.skill_loss)


def test_the_biggest_mistakes_worst_first_fine_left_out() -> None:
    rows = game_analysis()
    listed = mistakes(rows, ["Ann", "Bob"])
    assert [m["index"] for m in listed] == [6, 4, 7]
    assert [m["verdict"] for m in listed] == ["blunder", "mistake", "inaccuracy"]
    rows.decisions = [decision(k, k, 0, 3.0 + k) for k in range(15)]
    listed = mistakes(rows, ["Ann", "Bob"])
    assert len(listed) == MAX_MISTAKES and listed[0]["index"] == 14


def test_the_analysis_payload_is_the_analysis_and_fits_the_contract() -> None:
    rows = game_analysis()
    payload = analysis_payload(rows, seq=12, actions=10, explain={"en": "Ann won", "nl": "Ann won"},
                               status="running")
    assert payload["verdict"] is not None and payload["verdict"]["index"] == 7
    assert payload["verdict"]["loss"] == 2.5 and payload["verdict"]["verdict"] == "inaccuracy"
    assert payload["luck"] is not None and payload["luck"]["index"] == 8
    assert payload["luck"]["kind"] == "card"
    assert payload["rollouts"] == 360 and payload["upto"] == 9 and payload["actions"] == 10
    assert [p["luck"] for p in payload["players"]] == [p.luck for p in rows.players]
    plain = json.loads(json.dumps(payload))
    assert plain == payload  # JSON as it is (no tuples, no NaN)
    checker = Checker(SCHEMA)
    errors = checker.check(plain, checker.trait("analysis"))
    assert not errors, errors
    empty = analysis_payload(GameAnalysis(players=()), seq=1, actions=0,
                             explain={"en": "", "nl": ""})
    assert empty["verdict"] is None and empty["series"] == []


def roll_map(gains: list[float]) -> RollMap:
    outcomes = tuple(RollOutcome(dice=(1 + k // 6, 1 + k % 6), double=k // 6 == k % 6,
                                 tile=k % 40, tile_name="x", end=(k + 1) % 40 if k == 5 else k,
                                 p_win=0.5 + g / 100, se=0.01, gain=g)
                     for k, g in enumerate(gains))
    return RollMap(player=1, p_mean=0.5, outcomes=outcomes, rollouts=72)


def test_the_roll_map_payload_colours_gain_blue_and_loss_red() -> None:
    gains = [(k - 17.5) / 2 for k in range(36)]
    names = {k: {"en": f"tile {k}", "nl": f"vak {k}"} for k in range(40)}
    payload = roll_map_payload(roll_map(gains), seq=3, name="Bob", sides=6, tile_names=names)
    cells = payload["cells"]
    assert len(cells) == 36 and payload["scale"] == 8.75
    assert [c["double"] for c in cells].count(True) == 6
    assert cells[0]["fill"] == heatmap.DIVERGING[-1]  # the worst: the deepest red
    assert cells[-1]["fill"] == heatmap.DIVERGING[0]  # the best: the deepest blue
    assert cells[5]["end_name"]["nl"] == "vak 6" and cells[5]["name"]["en"] == "tile 5"
    assert all(c["ink"] in ("#000000", "#ffffff") for c in cells)
    checker = Checker(SCHEMA)
    errors = checker.check(json.loads(json.dumps(payload)), checker.trait("roll_map"))
    assert not errors, errors
    flat = roll_map_payload(roll_map([0.1] * 36), seq=3, name="Bob", sides=6, tile_names=names)
    assert flat["scale"] == 1.0  # within a point: pale, not the deepest colours


# ------------------------------------------------------------------------- the widget


def widget(**kwargs: Any) -> UgentopolyWidget:
    game = Game.scenario("classic", players=["Ann", "Bob"], seed=2, current="Ann",
                         owners={16: "Ann"}, positions={"Ann": 0, "Bob": 10})
    return UgentopolyWidget.from_game(game, turn_pause=0, **kwargs)


def request(w: UgentopolyWidget, content: dict[str, Any]) -> None:
    w._on_msg(w, {**content, "seq": w.state["seq"]} if "seq" not in content else content)


def test_off_by_default_then_every_position_analysed_in_the_background() -> None:
    w = widget()
    assert w.analysis == {} and not w.analysis_shown
    w.show_analysis(True, worker="thread", engine=FAKE)
    w.game.testing.script_dice((1, 2))
    w.roll()  # Baltic Avenue is for sale
    w.decline()
    value = w.wait_analysis(timeout=30)
    assert value["status"] == "done" and value["seq"] == w.state["seq"]
    expected = analysis_payload(fakes.analysis_of(w.game), seq=w.state["seq"],
                                actions=len(w.game.actions), explain=value["explain"])
    assert value == expected
    assert value["verdict"]["verdict"] == "mistake"
    assert value["verdict"]["text"]["en"].startswith("Ann: mistake, −6 ± 2 points")
    assert value["luck"]["index"] == 0
    w.show_analysis(False)
    assert w.analysis == {}
    w.close()


def test_the_analyser_goes_on_and_starts_again_only_for_a_new_line_of_play() -> None:
    fakes.CALLS.clear()
    w = widget()
    w.show_analysis(True, worker="thread", engine=FAKE)
    w.wait_analysis(timeout=30)
    w.game.testing.script_dice((1, 2))
    w.roll()
    w.wait_analysis(timeout=30)
    w.buy()
    w.wait_analysis(timeout=30)
    keys = [key for key, _, _ in fakes.CALLS]
    assert len(set(keys)) == 1  # one analyser for the line of play
    assert [(before, now) for _, before, now in fakes.CALLS] == [(0, 0), (0, 1), (1, 2)]
    w.undo()  # the purchase taken back: the line of play changes
    value = w.analysis
    assert value.get("status") == "waiting"  # the old verdict is gone at once
    w.wait_analysis(timeout=30)
    assert fakes.CALLS[-1][0] != keys[0] and fakes.CALLS[-1][2] == 1
    # only what is new goes to the worker, which keeps the record: it is the game's
    w.game.testing.set_cash(1, 900)  # a testing step
    w.decline()
    w.wait_analysis(timeout=30)
    assert Game.replay(fakes.RECORDS[-1]).record() == w.game.record()
    w.close()


def test_a_result_for_a_position_left_behind_is_never_shown() -> None:
    w = widget()
    w.show_analysis(True, worker="thread", engine=FAKE)
    w.wait_analysis(timeout=30)
    w.game.testing.script_dice((1, 2))
    w.roll()
    running = w._an_running
    w.buy()  # a newer position arrives while the roll's is analysed
    w.undo()  # ... and the line of play changes: the results on their way are left behind
    if running is not None:
        running.result(timeout=30)
    w._an_deliver_pending()
    assert w.analysis.get("status") in ("waiting", "done")
    value = w.wait_analysis(timeout=30)
    assert value["upto"] == len(w.game.actions) == 1
    assert value["verdict"] is None  # the purchase's verdict never appeared
    w.close()


def test_a_failing_analysis_is_said_and_breaks_nothing() -> None:
    w = widget()
    w.show_analysis(True, worker="thread", engine="analysis_fakes:failing_step")
    value = w.wait_analysis(timeout=30)
    assert value["status"] == "error" and "fell over" in value["text"]["en"]
    w.roll()  # the game goes on
    w.close()


@pytest.mark.parametrize("settings", [{"rollouts": 0}, {"rollouts": "9"}, {"seed": -1},
                                      {"thresholds": Thresholds(5, 2, 10)},
                                      {"worker": "cloud"}, {"engine": "nowhere"}])
def test_bad_settings_are_named_and_change_nothing(settings: dict[str, Any]) -> None:
    w = widget()
    with pytest.raises((ValueError, ImportError)):
        w.show_analysis(True, **{"worker": "thread", "engine": FAKE, **settings})
    assert w.analysis == {} and not w.analysis_shown
    w.show_analysis(True, worker="thread", engine=FAKE)
    before = w.wait_analysis(timeout=30)
    with pytest.raises((ValueError, ImportError)):  # a running analysis goes on as it was
        w.show_analysis(True, **{"worker": "thread", "engine": FAKE, **settings})
    assert w.analysis_shown and w.analysis == before
    w.close()


def test_the_position_before_a_past_decision_is_read_only() -> None:
    w = widget()
    w.game.testing.script_dice((1, 2))
    w.roll()
    w.buy()
    w.end_turn()
    sent: list[Any] = []
    w.send = lambda content, buffers=None: sent.append(content)  # type: ignore[method-assign]
    request(w, {"type": "position", "index": 1})
    (msg,) = sent
    past = Game.replay(w.game.record(), upto=1)
    assert msg["type"] == "position" and msg["index"] == 1 and msg["seq"] == w.state["seq"]
    assert msg["state"]["legal"] == [] and not msg["state"]["can_undo"]
    assert msg["state"]["decision"]["kind"] == "buy"
    assert [p["position"] for p in msg["state"]["players"]] == [p.position for p in past.players]
    assert msg["state"]["owner"][3] is None  # Baltic Avenue not bought yet
    assert w.state["owner"][3] == 0  # the live game is where it was
    errors = Checker(SCHEMA).check(json.loads(json.dumps(msg)), {"$ref": "#/$defs/Message"})
    assert not errors, errors


FORGED = [
    {"type": "analysis", "on": "yes"},
    {"type": "analysis", "on": True, "rollouts": 10**9},
    {"type": "position", "index": -1},
    {"type": "position", "index": 99},
    {"type": "position", "index": "1"},
    {"type": "position", "index": 1.0},
    {"type": "position", "index": 0, "seq": 0},  # stale
    {"type": "position", "index": 0, "seq": 10**6},  # a state that never was
    {"type": "position", "index": 0},  # (seq dropped below) no state number
    {"type": "roll_map", "seq": 0},  # stale
    {"type": "roll_map"},  # (seq dropped below)
]


@pytest.mark.parametrize("threads", [True, False], ids=["threads", "browser-slices"])
@pytest.mark.parametrize("content", FORGED, ids=lambda c: json.dumps(c)[:50])
def test_forged_or_stale_requests_are_refused_and_change_nothing(
        content: dict[str, Any], threads: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """... on a desk and in the browser site, where the analysis runs in slices."""
    from ugentopoly_widget.rollouts import slices

    monkeypatch.setattr(slices, "threads_available", lambda: threads)
    w = widget()
    w.game.testing.script_dice((1, 2))
    w.roll()
    sent: list[Any] = []
    w.send = lambda c, buffers=None: sent.append(c)  # type: ignore[method-assign]
    full = dict(content)
    if "seq" not in full and content not in (FORGED[8], FORGED[10]):
        full["seq"] = w.state["seq"]
    before = (json.dumps(w.state), json.dumps(w.analysis), json.dumps(w.roll_map))
    w._on_msg(w, full)
    assert w.error and "refused" in w.error["message"], (full, w.error)
    assert (json.dumps(w.state), json.dumps(w.analysis), json.dumps(w.roll_map)) == before
    assert sent == [] and not w.analysis_shown


def test_the_roll_map_from_python_and_only_for_a_player_about_to_roll() -> None:
    w = widget()
    rm = w.show_roll_map(engine=FAKE_MAP, rollouts=36)
    assert w.roll_map["seq"] == w.state["seq"] and w.roll_map["player"] == rm.player == 0
    assert [c["p_win"] for c in w.roll_map["cells"]] == [o.p_win for o in rm.outcomes]
    assert w.roll_map["cells"][0]["name"]["en"] == w.game.board.tile_name(2, "en")
    w.game.testing.script_dice((1, 2))
    w.roll()  # Ann decides about Baltic Avenue: nobody is about to roll
    with pytest.raises(Exception, match="about to roll"):
        w.show_roll_map(engine=FAKE_MAP)
    before = w.error.get("n")
    request(w, {"type": "roll_map"})
    assert w.error["n"] != before and "about to roll" in w.error["message"]


def test_in_a_process_of_its_own_the_same_figures() -> None:
    """The worker where there are processes (a thread would make clicks wait for the
    interpreter lock): the record goes there, the same analysis comes back."""
    w = widget()
    w.show_analysis(True, worker="process", engine=FAKE)
    w.game.testing.script_dice((1, 2))
    w.roll()
    w.decline()
    value = w.wait_analysis(timeout=120)
    assert value["status"] == "done"
    expected = analysis_payload(fakes.analysis_of(w.game), seq=w.state["seq"],
                                actions=len(w.game.actions), explain=value["explain"])
    assert value == expected
    w.close()
