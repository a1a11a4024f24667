"""Issue 7, item 5: a state carries the log lines added since the previous state, not the tail.

Views keep what they were sent (tests/log_view.py does what js/src/logfeed.ts does); a view that
has a gap asks for the whole kept tail. Checked against ``game.log()`` after single actions,
long batches, undo, a language switch, a new game, and a view opened late."""

from __future__ import annotations

import json
from typing import Any

import pytest
from log_view import LogView

from ugentopoly_widget import Game, UgentopolyWidget
from ugentopoly_widget.engine.bots import HeuristicBot
from ugentopoly_widget.widget.data import LOG_JUMP, LOG_PAGE


def _widget(**kwargs: Any) -> UgentopolyWidget:
    kwargs.setdefault("players", ["Ann", "Bob", "Cleo"])
    kwargs.setdefault("seed", 5)
    return UgentopolyWidget("classic", **kwargs)


def _step(w: UgentopolyWidget, bot: HeuristicBot, n: int = 1) -> None:
    for _ in range(n):
        w.game.apply(bot.choose(w.game))


def _shows_tail(view: LogView, w: UgentopolyWidget) -> None:
    """The view ends with the game's log, numbered as in it, at least the last LOG_JUMP lines
    (when the lines start again only those are rendered; the reader asks for earlier ones)."""
    log = w.game.log(w.state["lang"])
    assert view.next == len(log)
    assert view.lines == log[view.first:]
    assert len(view.lines) >= min(len(log), LOG_JUMP)


def test_a_state_brings_only_the_new_lines() -> None:
    w = _widget()
    view = LogView(w)
    bot = HeuristicBot(seed=1)
    _step(w, bot, 40)
    sizes = [len(p["lines"]) for p in view.pieces[1:]]
    assert max(sizes) < 15 and sum(sizes) == len(w.game.events) - len(view.pieces[0]["lines"])
    assert all(p["base"] is not None for p in view.pieces[1:])
    _shows_tail(view, w)
    assert view.requests == 0


def test_the_state_stays_small_in_a_long_game() -> None:
    w = _widget()
    bot = HeuristicBot(seed=2)
    _step(w, bot, 400)
    text = json.dumps(w.state["log"])
    assert len(text) < 1000, text  # was the 100-line tail: about 3 KB on every action


def test_a_late_view_asks_once_for_the_tail_and_then_follows() -> None:
    w = _widget()
    bot = HeuristicBot(seed=3)
    _step(w, bot, 60)
    early = LogView(w)  # the current state is a piece: it cannot follow on nothing
    assert early.requests == 1
    _shows_tail(early, w)
    _step(w, bot, 25)
    late = LogView(w)
    _step(w, bot, 25)
    for view in (early, late):
        _shows_tail(view, w)
    assert (early.requests, late.requests) == (1, 1)


def test_a_missed_piece_is_noticed_and_repaired() -> None:
    w = _widget()
    view = LogView(w)
    bot = HeuristicBot(seed=4)
    _step(w, bot, 5)
    view.lines.pop()  # as if a piece had been lost on the way: the next one does not follow on
    assert view.requests == 0
    _step(w, bot, 2)
    assert view.requests == 1
    _shows_tail(view, w)


def test_a_long_batch_sends_the_tail_and_the_view_starts_again_there() -> None:
    w = _widget(options={"turn_limit": 200})
    view = LogView(w)
    w.seats = ["heuristic"] * 3
    w.play_bots(turns=50)
    last = view.pieces[-1]
    assert last["base"] is not None and last["start"] > last["base"]
    assert len(last["lines"]) == LOG_JUMP  # not the 100 the tail keeps: only the last few
    _shows_tail(view, w)
    assert view.first == len(w.game.events) - LOG_JUMP and view.requests == 0


def test_undo_language_and_a_new_game_start_a_new_run_of_lines() -> None:
    w = _widget()
    view = LogView(w)
    w.game.testing.script_dice((1, 2))
    w.roll()
    w.buy()
    epoch = view.epoch
    w.undo()
    assert view.epoch != epoch and view.pieces[-1]["base"] is None
    _shows_tail(view, w)
    w.lang = "nl"
    assert view.pieces[-1]["base"] is None and view.lines[-1] == w.game.log("nl")[-1]
    _shows_tail(view, w)
    w.game = Game("classic", players=2, seed=9)
    assert view.pieces[-1]["base"] is None
    _shows_tail(view, w)
    assert view.requests == 0


@pytest.mark.parametrize("keep", [0, 5])
def test_a_short_tail(keep: int) -> None:
    w = _widget(log_tail=keep)
    view = LogView(w)
    bot = HeuristicBot(seed=6)
    _step(w, bot, 30)
    assert view.tail(keep) == (w.game.log()[-keep:] if keep else [])
    late = LogView(w)
    assert late.lines == (w.game.log()[-keep:] if keep else [])
    assert late.first == len(w.game.events) - keep


def test_a_log_request_is_checked_like_any_other() -> None:
    w = _widget()
    sent: list[Any] = []
    w.send = lambda content, buffers=None: sent.append(content)  # type: ignore[method-assign]
    w._handle_custom_msg({"type": "log", "extra": 1}, [])
    assert "unexpected" in w.error["message"] or "refused" in w.error["message"]
    assert sent == []
    w._handle_custom_msg({"type": "log", "seq": w.state["seq"]}, [])
    assert sent and sent[-1]["lines"] == w.game.log()[sent[-1]["start"]:]
    total = len(w.game.events)
    seq, digest = w.state["seq"], w.game.digest()
    for bad in (-1, total + 1, "3", 2.0, True, None, [1]):
        count = len(sent)
        w._handle_custom_msg({"type": "log", "before": bad, "seq": w.state["seq"]}, [])
        assert len(sent) == count and "refused" in w.error["message"]
    assert (w.state["seq"], w.game.digest()) == (seq, digest)  # a forged page changes nothing
    lobby = UgentopolyWidget.open_lobby()
    lobby.send = lambda content, buffers=None: sent.append(content)  # type: ignore[method-assign]
    count = len(sent)
    lobby._handle_custom_msg({"type": "log"}, [])
    assert len(sent) == count  # no game, no log: nothing sent, nothing raised


def test_a_reader_pages_back_through_the_whole_log() -> None:
    """After a long batch the view has the last LOG_JUMP lines; "earlier lines" brings
    LOG_PAGE more at a time, back to the first line, and the view still follows the game."""
    w = _widget(options={"turn_limit": 200})
    view = LogView(w)
    w.seats = ["heuristic"] * 3
    w.play_bots(turns=40)
    total = len(w.game.events)
    assert view.first == total - LOG_JUMP and total > LOG_JUMP + 2 * LOG_PAGE
    view.earlier()
    assert view.first == total - LOG_JUMP - LOG_PAGE
    while view.first:
        view.earlier()
    assert view.lines == w.game.log()
    w.seats = ["person"] * 3
    _step(w, HeuristicBot(seed=1), 3)
    assert view.lines == w.game.log() and view.requests == 0
    # a page of an earlier run (another language) is not put in front of this run's lines
    w.lang = "nl"
    old_epoch = view.epoch
    page = w._cache.page(w.game, "en", view.first)
    w.lang = "en"
    assert view.epoch != old_epoch == page["epoch"]
    view.reply(page)
    assert view.lines == w.game.log()[view.first:]


def test_views_follow_when_another_listener_acts_or_undoes_inside_its_callback() -> None:
    """A state reuses the events the game handed its listeners only when they are exactly the
    new ones: another widget's callback that applies an action, or undoes one, in the middle of
    the notification leaves every view showing the game's log as it is."""
    first = _widget(seed=9)
    second = UgentopolyWidget.from_game(first.game)
    views = [LogView(first), LogView(second)]
    bot = HeuristicBot(seed=3)
    game = first.game
    calls = [0]

    def meddle(events: list[Any]) -> None:
        calls[0] += 1
        if not events or game.is_over:
            return
        if calls[0] % 5 == 0 and game.can_undo():
            game.undo()
        elif calls[0] % 7 == 0:
            game.apply(bot.choose(game))

    first.on_event(meddle)
    for _ in range(150):
        if game.is_over:
            break
        _step(second, bot)
        for view, w in zip(views, (first, second), strict=True):
            _shows_tail(view, w)
            assert w.state["rolls"] == sum(e.kind == "rolled" for e in game.events)
    assert calls[0] > 100
