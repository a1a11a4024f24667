"""The widget under hostile or unlucky requests, and over long sessions (issue 6, items 13-17 and
the long-session test of "Done when")."""

from __future__ import annotations

import asyncio
import copy
import gc
import json
import threading
import time
import tracemalloc
import weakref
from collections.abc import Callable, Coroutine
from typing import Any

import pytest
from log_view import LogView
from test_widget_sync import FakeFrontEnd

from ugentopoly_widget.engine import Game, UndoError
from ugentopoly_widget.widget import UgentopolyWidget


def _widget(profile: str = "classic", **kwargs: Any) -> UgentopolyWidget:
    kwargs.setdefault("players", ["Ann", "Bob", "Cleo"])
    kwargs.setdefault("seed", 5)
    return UgentopolyWidget(profile, **kwargs)


def states_sent(fe: FakeFrontEnd, mark: int = 0) -> int:
    return sum(1 for name, _ in fe.sent[mark:] if name == "state")


def run_in_loop(scenario: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
    """Run a coroutine on an event loop of its own thread (as the kernel's loop would)."""
    result: list[Any] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            result.append(asyncio.run(scenario()))
        except BaseException as exc:  # noqa: BLE001 - re-raised in the test thread
            failure.append(exc)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join(timeout=60)
    if failure:
        raise failure[0]
    return result[0]


SETUP_PLAYERS = [{"name": "A", "token": "hat", "colour": "#111111", "seat": "person"},
                 {"name": "B", "token": "dog", "colour": "#222222", "seat": "person"}]


# ---------------------------------------------------------------- item 13: setup checks seq


def test_a_setup_made_before_another_game_started_does_not_replace_it() -> None:
    w = _widget()
    fe = FakeFrontEnd(w)
    first = w.state["seq"]
    assert w.state["game_start"] <= first
    # a second view (or code) starts another game; a setup made from the first game's lobby
    # is stale: it must not throw the newer game away
    fe.request({"type": "setup", "profile": "classic", "players": SETUP_PLAYERS,
                "seq": first})
    newer = w.game
    assert w.state["seq"] >= w.state["game_start"] > first
    start = w.state["game_start"]
    w.roll()
    assert w.state["game_start"] == start < w.state["seq"]  # one number for all its states
    digest = w.game.digest()
    fe.request({"type": "setup", "profile": "cell22", "players": SETUP_PLAYERS, "seq": first})
    assert w.game is newer and w.game.digest() == digest
    assert "stale" in w.error["message"] and "earlier game" in w.error["message"]
    fe.request({"type": "setup", "profile": "cell22", "players": SETUP_PLAYERS})  # no seq
    assert w.game is newer
    assert "seq" in w.error["message"]
    fe.request({"type": "setup", "profile": "cell22", "players": SETUP_PLAYERS,
                "seq": w.state["seq"] + 1})  # a state this game never had
    assert w.game is newer and "future" in w.error["message"]


def test_a_setup_made_while_the_old_games_bots_moved_starts_the_new_game() -> None:
    """The lobby is open over a running game whose bots go on playing; its Start was made for
    a state the game has left, but of the same game: the person chose a new game."""
    w = _widget()
    fe = FakeFrontEnd(w)
    opened_at = w.state["seq"]
    old = w.game
    w.roll()  # what the old game's bot does while the form is filled in
    assert w.state["seq"] > opened_at
    fe.request({"type": "setup", "profile": "cell22", "players": SETUP_PLAYERS,
                "seq": opened_at})
    assert w.game is not old and w.game.rules.name == "cell22"
    assert w.state["seq"] >= w.state["game_start"] > opened_at
    assert w.error == {}
    # an act is still checked against the very state it was made for
    seq = w.state["seq"]
    w.roll()
    fe.request({"type": "act", "action": {"type": "roll", "player": w.game.decision.player},
                "seq": seq})
    assert "stale" in w.error["message"]


# ---------------------------------------------------------------- item 14: undo and bots


async def until(condition: Any, hang: float = 60.0) -> None:
    """Wait on the loop until `condition()` (the bound only stops a hang)."""
    end = time.monotonic() + hang
    while not condition():
        assert time.monotonic() < end, "not in time: a hang"
        await asyncio.sleep(0.02)


def test_undo_of_a_bots_decision_from_a_view_lets_the_bot_play_again() -> None:
    async def scenario() -> tuple[list[str], str]:
        game = Game("classic", players=["Ann", "Bot"], seed=3)
        w = UgentopolyWidget.from_game(game, seats=["person", "heuristic"])
        w.bot_delay = 0.0
        fe = FakeFrontEnd(w)
        me = game.decision.player
        assert me is not None and w.seats[me] == "person"
        game.testing.give_property(me, 1)
        w.refresh()
        fe.act({"type": "propose_trade", "player": me, "partner": 1 - me,
                "give": {"properties": [1], "cash": 0, "cards": []},
                "get": {"properties": [], "cash": 1, "cards": []}})
        await until(lambda: game.decision.kind != "trade")  # the bot answers the offer
        answered = game.decision.kind
        undone = len(game.actions) - 1
        fe.request({"type": "undo", "seq": w.state["seq"]})  # takes back the bot's answer
        # the bot answers again: an action more than the undo left (a property, not a pause)
        await until(lambda: len(game.actions) > undone and game.decision.kind != "trade")
        kinds = [answered, game.decision.kind]
        errors = list(w.errors)
        w.close()
        return kinds, "; ".join(errors)

    kinds, errors = run_in_loop(scenario)
    assert kinds == ["turn", "turn"], (kinds, errors)  # the bot answered again after the undo
    assert not errors


# ---------------------------------------------------------------- item 15: listeners removed


def test_game_listeners_can_be_removed() -> None:
    game = Game("classic", players=2, seed=1)
    seen: list[int] = []

    def listener(events: list[Any]) -> None:
        seen.append(len(events))

    game.on_events(listener)
    game.act("roll")
    game.off_events(listener)
    game.off_events(listener)  # removing twice is harmless
    if not game.is_over and game.decision.player is not None:
        game.apply(game.legal_actions()[-1])
    assert len(seen) == 1


def test_setting_the_same_game_again_publishes_once_per_action() -> None:
    game = Game("classic", players=3, seed=5)
    w = UgentopolyWidget.from_game(game)
    for _ in range(100):
        w.game = game
    fe = FakeFrontEnd(w)
    w.roll()
    assert states_sent(fe) == 1
    assert len(game._listeners) == 1


def test_a_replaced_game_no_longer_drives_the_widget() -> None:
    first = Game("classic", players=3, seed=5)
    w = UgentopolyWidget.from_game(first)
    w.game = Game("cell22", players=2, seed=2)
    assert first._listeners == []
    fe = FakeFrontEnd(w)
    first.act("roll")
    assert states_sent(fe) == 0


def test_closed_widgets_are_released_and_stop_rendering() -> None:
    game = Game("classic", players=3, seed=5)
    refs = []
    for _ in range(20):
        w = UgentopolyWidget.from_game(game)
        refs.append(weakref.ref(w))
        w.close()
    del w
    gc.collect()
    assert game._listeners == []
    assert all(ref() is None for ref in refs)
    game.act("roll")  # nothing left to re-render


# ---------------------------------------------------------------- item 16: seq, lang, tick, undo


def test_a_future_seq_is_reported_as_unknown_not_stale() -> None:
    w = _widget()
    fe = FakeFrontEnd(w)
    digest = w.game.digest()
    fe.act({"type": "roll", "player": w.game.decision.player}, seq=w.state["seq"] + 5)
    assert w.game.digest() == digest
    message = w.error["message"]
    assert "future" in message and "stale" not in message


def test_language_requests_resend_only_on_a_change_and_never_make_clicks_stale() -> None:
    w = _widget()
    fe = FakeFrontEnd(w)
    messages: list[Any] = []
    w.send = lambda content, buffers=None: messages.append(content)  # type: ignore[method-assign]
    seq = w.state["seq"]
    fe.request({"type": "lang", "lang": "en"})  # no change: nothing is sent
    assert states_sent(fe) == 0 and not messages
    for k in range(20):
        fe.request({"type": "lang", "lang": "nl" if k % 2 == 0 else "en"})
    # the log's lines in the other language, each time, and never the state (issue 25) ...
    assert states_sent(fe) == 0
    assert [m["type"] for m in messages] == ["log_lang"] * 20
    assert messages[-1]["lines"] == w.game.log("en")[-len(messages[-1]["lines"]):]
    assert w.state["seq"] == seq  # ... and the game did not change
    assert w.state["lang"] == "en"
    fe.act({"type": "roll", "player": w.game.decision.player}, seq=seq)  # made before: valid
    assert not w.errors, w.errors
    assert w.state["rolls"] == 1


def test_a_tick_with_nothing_due_sends_nothing() -> None:
    now = [0.0]
    game = Game("classic", players=2, seed=1, options={"turn_timer_seconds": 30},
                clock=lambda: now[0])
    w = UgentopolyWidget.from_game(game)
    fe = FakeFrontEnd(w)
    seq = w.state["seq"]
    for _ in range(50):
        fe.request({"type": "tick", "seq": seq})
    assert states_sent(fe) == 0 and w.state["seq"] == seq
    now[0] = 31.0
    fe.request({"type": "tick", "seq": seq})
    assert w.state["rolls"] == 1 and w.state["seq"] == seq + 1
    assert not w.errors


def test_undo_publishes_the_state_once() -> None:
    w = _widget()
    fe = FakeFrontEnd(w)
    w.game.testing.script_dice((1, 2))
    w.roll()
    fe.click("buy")
    mark = len(fe.sent)
    fe.request({"type": "undo", "seq": w.state["seq"]})
    assert states_sent(fe, mark) == 1
    mark = len(fe.sent)
    with pytest.raises(UndoError):
        w.undo()  # nothing to undo across the roll: refused, nothing sent
    assert states_sent(fe, mark) == 0


def test_the_log_tail_follows_undo_language_and_a_short_tail() -> None:
    w = _widget(log_tail=5)
    view = LogView(w)  # states bring new lines only: what a view keeps from them
    w.game.testing.script_dice((1, 2))
    w.roll()
    w.buy()
    assert view.tail(5) == w.game.log()[-5:]
    w.undo()
    assert w.state["log"]["lines"] == w.game.log()[-5:]  # undo sends the whole (short) tail
    assert w.state["log"]["start"] == len(w.game.events) - 5
    w.lang = "nl"
    assert w.state["log"]["lines"] == w.game.log("nl")[-5:]
    assert view.tail(5) == w.game.log("nl")[-5:] and view.requests == 0
    none = _widget(log_tail=0)
    none.roll()
    assert none.state["log"]["lines"] == [] and none.state["log"]["total"] > 0


# ---------------------------------------------------------------- item 17: errors inside requests


def test_an_engine_failure_inside_a_request_leaves_the_game_and_the_view_in_step() -> None:
    w = _widget()
    fe = FakeFrontEnd(w)
    game = w.game
    digest = game.digest()
    game.testing.script_dice((2, 5), (2, 5))
    engine = game._engine
    assert engine.tiles[7].kind.value == "CHANCE"  # a tile whose landing draws a card
    deck = engine.decks["CHANCE"]
    top = deck[0]

    class BrokenCard(type(top)):  # type: ignore[misc]
        """Fails as the engine reads the drawn card, after the roll, the move and the draw
        (compiled or not: cards stay interpreted objects, read attribute by attribute)."""

        __slots__ = ()

        @property
        def kind(self) -> Any:
            raise RuntimeError("the move broke")

    broken = copy.copy(top)
    object.__setattr__(broken, "__class__", BrokenCard)
    deck[0] = broken
    fe.click("roll")
    assert "the move broke" in w.error["message"]
    assert game.digest() == digest  # the half-applied roll was undone
    assert w.state["seq"] > 0 and w.state["decision"]["kind"] == "turn"
    assert all(type(card) is type(top) for card in game._engine.decks["CHANCE"])
    fe.click("roll")  # the view's next click, with the seq it now has, is accepted
    assert w.state["rolls"] == 1
    assert len(w.errors) == 1


def test_a_failure_while_drawing_the_state_does_not_strand_the_view(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import ugentopoly_widget.widget.game_widget as widget_module

    w = _widget()
    fe = FakeFrontEnd(w)
    real = widget_module.state_snapshot
    calls = [0]

    def flaky(*args: Any, **kwargs: Any) -> dict[str, Any]:
        calls[0] += 1
        if calls[0] == 1:
            raise KeyError("a log line could not be rendered")
        return real(*args, **kwargs)

    monkeypatch.setattr(widget_module, "state_snapshot", flaky)
    fe.click("roll")
    assert "could not be rendered" in w.error["message"]
    assert w.state["rolls"] == 1  # the view has the current state
    fe.request({"type": "undo", "seq": w.state["seq"]})  # and its seq is not stale
    assert "stale" not in w.error["message"]


def test_a_state_that_cannot_be_drawn_keeps_the_views_seq_valid(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import ugentopoly_widget.widget.game_widget as widget_module

    w = _widget()
    fe = FakeFrontEnd(w)

    def broken(*args: Any, **kwargs: Any) -> dict[str, Any]:
        raise KeyError("never")

    monkeypatch.setattr(widget_module, "state_snapshot", broken)
    fe.click("roll")  # applied, but no state can be drawn
    assert "never" in w.error["message"]
    monkeypatch.undo()
    n = len(w.errors)
    fe.act(w.game.legal_actions()[0].to_dict())  # with the seq the view still has
    assert len(w.errors) == n, w.errors[-1]


# ---------------------------------------------------------------- a long session (Done when)


def test_a_long_session_of_5000_bot_turns_keeps_traits_and_memory_bounded() -> None:
    game = Game("classic", players=3, seed=3, options={"starting_money": 1_000_000})
    w = UgentopolyWidget.from_game(game, seats=["heuristic", "random", "heuristic"])
    fe = FakeFrontEnd(w)
    view = LogView(w)

    def trait_sizes() -> dict[str, int]:
        return {name: len(json.dumps(getattr(w, name))) for name in FakeFrontEnd.SYNCED}

    w.play_bots(turns=200)
    w.lang = "nl"  # both languages rendered along the way
    w.lang = "en"
    early: dict[str, int] = {}
    gc.collect()
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        while game.turn_number < 5_200:
            assert not game.is_over
            w.play_bots(turns=1)  # one published state per turn, as a paced game sends
            if game.turn_number % 1000 == 0:
                w.lang = "nl" if w.lang == "en" else "en"
            if game.turn_number == 1_000 and not early:
                early = trait_sizes()  # every deed is bought by now: the state is full size
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - start
    finally:
        tracemalloc.stop()
    late = trait_sizes()
    for name, size in late.items():  # nothing grows with the length of the game
        assert size <= early[name] * 1.2 + 500, (name, early[name], size)
    assert w.state["log"]["total"] == len(game.events) > 30_000
    assert view.tail() == game.log(w.lang)[-100:]  # the kept tail is the log's
    assert states_sent(fe) >= 5_000
    print(f"\n[long session] memory grew by {grown / 1e6:.1f} MB over 5,000 turns")
    assert grown < 20_000_000, f"memory grew by {grown / 1e6:.1f} MB over 5,000 turns"
    w.close()
