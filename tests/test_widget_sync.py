"""Widget <-> front-end sync without a browser: a fake front end captures what the widget sends
(trait changes) and feeds it requests through the custom-message handler, as a view would."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ugentopoly_widget.engine import Game, IllegalActionError
from ugentopoly_widget.widget import UgentopolyWidget


class FakeFrontEnd:
    """Records every synced trait change of a widget, with its JSON size."""

    SYNCED = ("state", "board_data", "error", "heat", "lang", "seats", "lobby")

    def __init__(self, widget: UgentopolyWidget) -> None:
        self.widget = widget
        self.sent: list[tuple[str, int]] = []
        widget.observe(self._record, names=list(self.SYNCED))

    def _record(self, change: dict[str, Any]) -> None:
        self.sent.append((change["name"], len(json.dumps(change["new"]))))

    def request(self, content: Any) -> None:
        self.widget._handle_custom_msg(content, [])

    def act(self, action: dict[str, Any], seq: int | None = None) -> None:
        state = self.widget.state
        self.request({"type": "act", "action": action,
                      "seq": state["seq"] if seq is None else seq})

    def click(self, kind: str, **fields: Any) -> None:
        """Press the button for a legal action of this kind (like the view does)."""
        for action in self.widget.state["legal"]:
            if action["type"] == kind and all(action.get(k) == v for k, v in fields.items()):
                self.act(action)
                return
        raise AssertionError(f"no legal {kind} {fields} in {self.widget.state['legal']}")

    def bytes_since(self, mark: int) -> int:
        return sum(size for _, size in self.sent[mark:])


def _widget(profile: str = "classic", **kwargs: Any) -> UgentopolyWidget:
    kwargs.setdefault("players", ["Ann", "Bob", "Cleo"])
    kwargs.setdefault("seed", 5)
    return UgentopolyWidget(profile, **kwargs)


def test_state_is_plain_json_and_complete() -> None:
    w = _widget()
    state = w.state
    json.dumps(state)
    json.dumps(w.board_data)
    assert state["seq"] >= 1
    assert state["phase"] == "play"
    assert state["decision"]["kind"] == "turn"
    assert {"type": "roll", "player": state["decision"]["player"]} in state["legal"]
    assert len(state["owner"]) == len(w.board_data["tiles"]) == 40
    assert state["log"]["total"] == len(w.game.events)
    assert [p["name"] for p in state["players"]] == ["Ann", "Bob", "Cleo"]
    tile = w.board_data["tiles"][1]
    assert tile["name"]["en"] and tile["name"]["nl"] and tile["colour"] and tile["rents"]
    assert repr(w) == "UgentopolyWidget(classic, 3 players, turn 1, turn)"


def test_click_roll_buy_end_turn_through_requests() -> None:
    w = _widget()
    fe = FakeFrontEnd(w)
    w.game.testing.script_dice((1, 2))  # to 3: Baltic Avenue (a street for sale)
    fe.click("roll")
    assert w.state["dice"] == [1, 2]
    assert w.state["decision"]["kind"] == "buy"
    player = w.state["decision"]["player"]
    fe.click("buy")
    assert w.game.owner(3) == player
    assert w.state["owner"][3] == player
    fe.click("end_turn")
    assert w.state["decision"]["player"] != player
    assert not w.errors


def test_state_replaced_never_mutated_and_seq_grows() -> None:
    w = _widget()
    before = w.state
    frozen = json.dumps(before, sort_keys=True)
    w.roll()
    assert w.state is not before
    assert json.dumps(before, sort_keys=True) == frozen
    assert w.state["seq"] > before["seq"]


def test_stale_request_refused() -> None:
    w = _widget()
    fe = FakeFrontEnd(w)
    old = w.state["seq"]
    w.roll()  # a code cell moves the game on; the view's request is now stale
    digest = w.game.digest()
    fe.act({"type": "end_turn", "player": w.game.decision.player}, seq=old)
    assert w.game.digest() == digest
    assert "stale" in w.error["message"]


def test_someone_elses_decision_refused() -> None:
    w = _widget()
    fe = FakeFrontEnd(w)
    other = (w.game.decision.player + 1) % 3
    digest = w.game.digest()
    fe.act({"type": "roll", "player": other})
    assert w.game.digest() == digest
    assert "not this player's" in w.error["message"]


def test_bot_seat_refuses_clicks_and_bots_autoplay_synchronously() -> None:
    w = _widget(seats=["person", "heuristic", "random"])
    bots = w.play_bots(turns=30, everyone="heuristic")
    assert bots > 0
    assert w.game.turn_number >= 30 or w.game.is_over


def test_illegal_action_reports_and_keeps_game() -> None:
    w = _widget()
    fe = FakeFrontEnd(w)
    digest = w.game.digest()
    fe.act({"type": "buy", "player": w.game.decision.player})
    assert w.game.digest() == digest
    assert "refused" in w.error["message"]
    assert len(w.errors) == 1


def test_bid_amount_bounds() -> None:
    w = _widget()
    fe = FakeFrontEnd(w)
    w.game.testing.script_dice((1, 2))
    w.roll()
    w.decline()  # classic: an auction starts
    state = w.state
    assert state["decision"]["kind"] == "auction"
    low, high = state["bid"]["min"], state["bid"]["max"]
    digest = w.game.digest()
    bidder = state["decision"]["player"]
    fe.act({"type": "bid", "player": bidder, "amount": high + 1})
    assert w.game.digest() == digest and "bid" in w.error["message"]
    fe.act({"type": "bid", "player": bidder, "amount": 10**12})
    assert w.game.digest() == digest
    fe.act({"type": "bid", "player": bidder, "amount": low})
    assert w.game.digest() != digest


def test_trade_round_trip() -> None:
    w = _widget()
    game = w.game
    me = game.decision.player
    partner = (me + 1) % 3
    game.testing.give_property(me, 1)
    game.testing.give_property(partner, 3)
    w.refresh()
    fe = FakeFrontEnd(w)
    assert w.state["can_trade"]
    fe.act({"type": "propose_trade", "player": me, "partner": partner,
            "give": {"properties": [1], "cash": 10, "cards": []},
            "get": {"properties": [3], "cash": 0, "cards": []}})
    assert w.state["decision"]["kind"] == "trade", w.error
    assert w.state["decision"]["player"] == partner
    assert w.state["decision"]["data"]["offer"]["give"]["properties"] == [1]
    fe.click("accept")
    assert game.owner(1) == partner and game.owner(3) == me


def test_trade_problem_is_reported() -> None:
    w = _widget()
    fe = FakeFrontEnd(w)
    me = w.game.decision.player
    digest = w.game.digest()
    fe.act({"type": "propose_trade", "player": me, "partner": (me + 1) % 3,
            "give": {"properties": [1], "cash": 0, "cards": []},
            "get": {"properties": [], "cash": 0, "cards": []}})
    assert w.game.digest() == digest
    assert "does not own" in w.error["message"]


def test_undo_request() -> None:
    w = _widget()
    fe = FakeFrontEnd(w)
    w.game.testing.script_dice((1, 2))
    w.roll()
    digest = w.game.digest()
    fe.click("buy")
    assert w.game.digest() != digest
    fe.request({"type": "undo", "seq": w.state["seq"]})
    assert w.game.digest() == digest
    assert w.state["decision"]["kind"] == "buy"
    fe.request({"type": "undo", "seq": w.state["seq"]})  # would cross the dice roll
    assert "cannot undo" in w.error["message"]
    assert w.game.digest() == digest


def test_lang_switch_rerenders_log() -> None:
    w = _widget()
    en = w.state["log"]["lines"][-1]
    w.lang = "nl"
    assert w.state["lang"] == "nl"
    assert w.state["log"]["lines"] == w.game.log("nl")  # the whole tail, in Dutch
    assert w.state["log"]["lines"][-1] != en
    fe = FakeFrontEnd(w)
    fe.request({"type": "lang", "lang": "xx"})
    assert w.lang == "nl" and "language" in w.error["message"]


def test_view_may_only_set_ui_traits() -> None:
    w = _widget()
    digest = w.game.digest()
    state = w.state
    w.set_state({"state": {"seq": 0}, "board_data": {}, "lang": "nl", "paused": True})
    assert w.game.digest() == digest
    # re-sent in Dutch, with the same seq: the game did not change
    assert w.state["seq"] == state["seq"] and w.state["lang"] == "nl"
    assert len(w.board_data["tiles"]) == 40
    assert w.lang == "nl" and w.paused is True
    assert "refused" in w.error["message"]
    w.set_state({"bot_delay": "fast"})
    assert w.bot_delay == 0.8


def test_several_views_see_the_same_state() -> None:
    w = _widget()
    a, b = FakeFrontEnd(w), FakeFrontEnd(w)
    a.click("roll")
    assert a.sent == b.sent


def test_replacing_the_game_resends_everything() -> None:
    w = _widget()
    fe = FakeFrontEnd(w)
    w.show_heat([0.0] * 40, "zero")
    w.game = Game("cell22", players=2, seed=2)
    names = [name for name, _ in fe.sent]
    assert "board_data" in names and "state" in names
    assert len(w.board_data["tiles"]) == 22 == len(w.state["owner"])
    assert w.heat == {}  # a 40-tile heat map does not fit a 22-tile board
    assert w.seats == ["person", "person"]
    assert repr(w).startswith("UgentopolyWidget(cell22, 2 players")


def test_heat_overlay() -> None:
    w = _widget()
    w.show_heat({0: 1.0, 10: 3.0}, "landing")
    assert w.heat["values"][10] == 3.0 and w.heat["max"] == 3.0 and w.heat["label"] == "landing"
    with pytest.raises(ValueError):
        w.show_heat([1.0, 2.0])
    with pytest.raises(ValueError):
        w.show_heat([float("nan")] * 40)
    w.clear_heat()
    assert w.heat == {}


def test_callbacks_and_errors_in_callbacks() -> None:
    w = _widget()
    seen: list[str] = []
    w.on_event(lambda events: seen.extend(e.kind for e in events))

    def broken(events: list[Any]) -> None:
        raise RuntimeError("boom")

    w.on_event(broken)
    w.roll()  # the broken callback must not break the game
    assert "rolled" in seen
    assert any("boom" in e for e in w.errors)


def test_scripting_methods_raise_on_illegal() -> None:
    w = _widget()
    digest = w.game.digest()
    with pytest.raises(IllegalActionError):
        w.buy()
    assert w.game.digest() == digest
    w.apply("roll")
    assert w.state["rolls"] == 1


def test_timer_state_and_tick() -> None:
    now = [0.0]
    game = Game("classic", players=2, seed=1, options={"turn_timer_seconds": 30},
                clock=lambda: now[0])
    w = UgentopolyWidget.from_game(game)
    assert w.state["timer"]["remaining"] == 30
    fe = FakeFrontEnd(w)
    fe.request({"type": "tick", "seq": w.state["seq"]})
    assert w.state["rolls"] == 0
    now[0] = 31.0
    fe.request({"type": "tick", "seq": w.state["seq"]})
    assert w.state["rolls"] == 1  # the dice were rolled for the player
    assert not w.errors


def test_lobby_setup_and_taken_token() -> None:
    w = UgentopolyWidget()
    assert repr(w) == "UgentopolyWidget(lobby)"
    assert w.state["phase"] == "lobby"
    assert {p["name"] for p in w.lobby["profiles"]} == {"ugentopoly", "classic", "cell22"}
    with pytest.raises(RuntimeError):
        _ = w.game
    fe = FakeFrontEnd(w)
    players = [{"name": "Ann", "token": "hat", "colour": "#ff0000", "seat": "person"},
               {"name": "Bob", "token": "hat", "colour": "#00ff00", "seat": "random"}]
    request = {"type": "setup", "profile": "cell22", "board": "bundled:cell22",
               "options": {"mode": "short", "turn_timer_seconds": None}, "players": players,
               "seed": 3, "seq": w.state["seq"]}
    fe.request(request)
    assert not w.has_game
    assert "already taken" in w.error["message"]
    players[1]["token"] = "car"
    fe.request(request)
    assert w.has_game, w.error
    assert w.game.rules.mode == "short"
    assert w.seats == ["person", "random"]
    assert w.error == {}
    assert len(w.board_data["tiles"]) == 22


def test_lobby_custom_board_and_timed_mode() -> None:
    from ugentopoly_widget.engine import load_bundled

    w = UgentopolyWidget("classic", board=load_bundled("classic"))
    assert w.lobby["boards"][0]["id"] == "custom"
    FakeFrontEnd(w).request({
        "type": "setup", "profile": "classic", "board": "custom", "seq": w.state["seq"],
        "options": {"mode": "timed", "time_limit_minutes": 30, "starting_money": 2000,
                    "auction_on_decline": False, "turn_timer_seconds": 45},
        "players": [{"name": "A", "token": "hat", "colour": "#111111"},
                    {"name": "B", "token": "dog", "colour": "#222222"}],
    })
    assert w.has_game, w.error
    assert w.game.rules.time_limit_minutes == 30
    assert w.game.initial_money > 2 * 1800  # 2000 each, less two deeds dealt in a timed game
    assert not w.game.rules.auction_on_decline
    assert "time_left" in w.state and w.state["timer"]["limit"] == 45


def test_bytes_per_action(capsys: pytest.CaptureFixture[str]) -> None:
    """Measure what one action sends (JSON size of the changed traits)."""
    w = _widget(seats=["person", "person", "person"])
    fe = FakeFrontEnd(w)
    w.play_bots(turns=60, everyone="heuristic")  # a game well under way: a long log, owners
    sizes: list[int] = []
    for _ in range(40):
        if w.game.is_over:
            break
        mark = len(fe.sent)
        action = w._bot_action("heuristic")
        assert action is not None
        fe.act(action.to_dict())
        sizes.append(fe.bytes_since(mark))
    assert not w.errors, w.errors
    typical = sorted(sizes)[len(sizes) // 2]
    with capsys.disabled():
        print(f"\n[bytes per action] classic, turn {w.game.turn_number}: median {typical} B, "
              f"max {max(sizes)} B, board_data (once) {len(json.dumps(w.board_data))} B")
    assert typical < 8_000


def test_turn_timer_runs_out_in_python_without_any_view() -> None:
    """The turn timer is checked by Python on the kernel's loop; no view has to tick."""
    import asyncio
    import threading

    from ugentopoly_widget.engine import actions as A

    async def scenario() -> UgentopolyWidget:
        game = Game("classic", players=["Ann", "Bob"], seed=3,
                    options={"turn_timer_seconds": 0.2})
        w = UgentopolyWidget.from_game(game)
        end = asyncio.get_running_loop().time() + 60  # (only a hang takes this long)
        while not any(isinstance(a, A.TimerRoll) for a in game.actions):
            if asyncio.get_running_loop().time() > end:
                break
            await asyncio.sleep(0.05)
        return w

    # a thread of its own: other tests (Playwright's sync API) may leave a loop running here
    result: list[UgentopolyWidget] = []
    worker = threading.Thread(target=lambda: result.append(asyncio.run(scenario())))
    worker.start()
    worker.join(timeout=120)
    (w,) = result
    assert any(isinstance(a, A.TimerRoll) for a in w.game.actions)
    assert any(e.kind == "timer_ran_out" for e in w.game.events)
    w.close()


def test_lobby_checkboxes_set_every_ugentopoly_flag() -> None:
    w = UgentopolyWidget()
    fe = FakeFrontEnd(w)
    ugent = next(p for p in w.lobby["profiles"] if p["name"] == "ugentopoly")
    assert ugent["flags"]["rank_by_net_worth"] is False
    assert ugent["flags"]["release_after_three_tries"] is False
    fe.request({
        "type": "setup", "profile": "ugentopoly", "board": "bundled:ugentopoly",
        "seq": w.state["seq"],
        "options": {"rank_by_net_worth": True, "release_after_three_tries": True,
                    "card_move_to_jail_tile_jails": True, "end_when_money_reaches_zero": True},
        "players": [{"name": "A", "token": "hat", "colour": "#111111", "seat": "person"},
                    {"name": "B", "token": "dog", "colour": "#222222", "seat": "person"}],
    })
    assert w.has_game, w.error
    rules = w.game.rules
    assert rules.rank_by == "net_worth" and rules.max_jail_turns == 3
    assert rules.card_move_to_jail_tile_jails and rules.end_when_money_reaches_zero
