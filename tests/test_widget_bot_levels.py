"""The bot levels in the widget: the lobby's seat kinds with a sentence each (from Python), a
strong seat that plays and tells its reasons in the log (English and Dutch), and named errors
for a level that cannot play here or a seat that is no level."""

from __future__ import annotations

import pytest
from log_view import LogView

from ugentopoly_widget import BotError, Game, SetupError
from ugentopoly_widget.engine.actions import ProposeTrade, TradeSide
from ugentopoly_widget.engine.bots import LEVELS
from ugentopoly_widget.engine.strong.bot import StrongBot
from ugentopoly_widget.widget import UgentopolyWidget


def test_the_lobby_offers_every_level_with_its_sentence() -> None:
    w = UgentopolyWidget("classic", players=["Ann", "Bob"], seed=1)
    lobby = w.lobby
    assert lobby["seat_kinds"] == ["person", "random", "heuristic", "strong", "rollout"]
    assert set(lobby["seat_help"]) == {"random", "heuristic", "strong", "rollout"}
    for kind, words in lobby["seat_help"].items():
        assert words == LEVELS[kind] and set(words) == {"en", "nl"}
    assert "Strong bot" in lobby["seat_help"]["strong"]["en"]
    w.close()


def blocker_widget() -> UgentopolyWidget:
    game = Game.scenario("classic", players=["Ann", "Bob"], seed=2, current="Ann",
                         owners={16: "Ann", 18: "Ann", 19: "Bob"}, cash=[1500, 1500])
    return UgentopolyWidget.from_game(game, seats=["person", "strong"], turn_pause=0)


def test_a_strong_seat_answers_and_says_why_in_the_log() -> None:
    w = blocker_widget()
    view = LogView(w)
    w.game.apply(ProposeTrade(0, 1, give=TradeSide(cash=300), get=TradeSide(properties=(19,))))
    w.play_bots()
    assert isinstance(w._bots[1], StrongBot)
    assert w.game.owner(19) == 1  # rejected
    line = next(x for x in view.lines if "Why:" in x)
    assert line.startswith("Bob rejected")
    assert "Why: New York Avenue completes Ann's orange group, worth about +" in line
    assert line.endswith(" per opponent roll to Ann.")
    w.lang = "nl"
    dutch = [x for x in w._cache.update(w.game, "nl") if "Waarom:" in x]
    assert dutch and "vervolledigt de groep oranje van Ann" in dutch[-1]
    w.close()


def test_reasons_leave_the_log_with_an_undone_decision() -> None:
    w = blocker_widget()
    w.game.apply(ProposeTrade(0, 1, give=TradeSide(cash=300), get=TradeSide(properties=(19,))))
    w.play_bots()
    assert any("Why:" in x for x in w._cache.update(w.game, "en"))
    w.undo()  # the rejection
    assert not any(k >= w.game.event_count for k in w._cache.notes)
    assert not any("Why:" in x for x in w._cache.update(w.game, "en"))
    w.close()


def test_a_level_that_cannot_play_here_is_refused_by_name(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    from ugentopoly_widget.rollouts import slices

    monkeypatch.setattr(slices, "threads_available", lambda: False)  # as on the browser site
    with pytest.raises(BotError, match="thinking bot .* browser"):
        UgentopolyWidget("classic", players=["Ann", "Bob"], seats=["person", "rollout"])
    w = UgentopolyWidget("classic", players=["Ann", "Bob"], seats=["person", "strong"])
    w._handle_custom_msg({"type": "setup", "profile": "classic", "seq": w.state["seq"],
                          "players": [
                              {"name": "Ann", "token": "hat", "colour": "#ff0000",
                               "seat": "person"},
                              {"name": "Bob", "token": "car", "colour": "#0000ff",
                               "seat": "rollout"}]}, [])
    assert "browser" in w.error["message"]
    assert w.seats == ["person", "strong"]  # nothing changed
    w.close()


def test_a_seat_that_is_no_level_is_refused() -> None:
    with pytest.raises(SetupError, match="seats is a list"):
        UgentopolyWidget("classic", players=["Ann", "Bob"], seats=["person", "genius"])
