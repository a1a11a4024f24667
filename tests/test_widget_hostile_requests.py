"""Requests nested too deeply for any recursive look, and a language change that sends only
what it changes (issue 25, items 9 and 11)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_widget_sync import FakeFrontEnd

from ugentopoly_widget.widget import UgentopolyWidget


def nested(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


def requests_of_every_type(seq: int, deep: Any) -> list[dict[str, Any]]:
    players = [{"name": "A", "token": "hat", "colour": "#111111"},
               {"name": "B", "token": "dog", "colour": "#222222", "seat": deep}]
    return [
        {"type": "act", "action": {"type": "roll", "player": 0, "extra": deep}, "seq": seq},
        {"type": "act", "action": deep, "seq": seq},
        {"type": "undo", "seq": deep},
        {"type": "tick", "seq": deep},
        {"type": "setup", "profile": "classic", "players": players, "seq": seq},
        {"type": "setup", "profile": "classic", "players": [], "options": {"x": deep},
         "seq": seq},
        {"type": "lang", "lang": deep},
        {"type": "probability", "mode": deep, "seq": seq},
        {"type": "log", "before": deep},
        {"type": "bots", "delay": deep},
        {"type": deep},
        {"type": "no such type", "x": deep},
        {"deep": {"deeper": deep}},
    ]


@pytest.mark.parametrize("depth", [990, 50, 13])
def test_a_deeply_nested_request_of_any_type_is_refused_without_a_republish(depth: int
                                                                            ) -> None:
    """Before: a list ~990 deep passed the kernel's JSON decoder, then the size check raised
    RecursionError ("internal error: RecursionError ..."), and the state was published again
    (seq bumped: every other view's next click stale)."""
    w = UgentopolyWidget("classic", players=["Ann", "Bob"], seed=3)
    fe = FakeFrontEnd(w)
    seq, digest = w.state["seq"], w.game.digest()
    for request in requests_of_every_type(seq, nested(depth)):
        before = len(w.errors)
        fe.request(request)
        assert len(w.errors) == before + 1, request["type"]
        message = w.errors[-1]
        assert "malformed" in message and "internal error" not in message, message
    assert w.state["seq"] == seq and w.game.digest() == digest
    assert [name for name, _ in fe.sent if name != "error"] == []  # no state, nothing else
    fe.act({"type": "roll", "player": w.game.decision.player}, seq=seq)  # clicks still valid
    assert w.state["rolls"] == 1


def test_requests_as_deep_as_a_real_one_still_work() -> None:
    """A trade (request > action > give > properties > number) is the deepest a view sends."""
    w = UgentopolyWidget("classic", players=["Ann", "Bob"], seed=3)
    w.game.testing.script_dice((1, 2))
    w.roll()
    w.buy()
    seq = w.state["seq"]
    trade = {"type": "propose_trade", "player": 0, "partner": 1,
             "give": {"properties": [3], "cash": 0, "cards": []},
             "get": {"properties": [], "cash": 50, "cards": []}}
    FakeFrontEnd(w).request({"type": "act", "action": trade, "seq": seq})
    assert not w.errors, w.errors
    assert w.game.decision.kind == "trade"  # Bob answers the offer


def recorded(w: UgentopolyWidget) -> list[dict[str, Any]]:
    """What goes over the widget's comm (update and custom messages)."""
    messages: list[dict[str, Any]] = []
    w.comm.send = lambda data=None, buffers=None, **kw: messages.append(data)  # type: ignore
    return messages


def test_a_language_change_sends_only_the_log_lines_in_the_new_language() -> None:
    """Before: the whole state was sent again (players, owners, legal actions ...) though only
    the log's words change: the views draw every other word themselves."""
    w = UgentopolyWidget("classic", players=["Ann", "Bob", "Cleo"], seed=5)
    for _ in range(6):
        w.game.testing.script_dice((2, 3))
        w.roll()
        if w.game.decision.kind == "buy":
            w.buy()
        w.end_turn()
    w.game.testing.script_dice((2, 3))  # (a testing step starts a new run of log lines)
    messages = recorded(w)
    seq = w.state["seq"]
    whole_state = len(json.dumps(w.state))
    w.set_state({"lang": "nl"})  # as a view's change arrives
    updates = [m for m in messages if m["method"] == "update"]
    custom = [m["content"] for m in messages if m["method"] == "custom"]
    assert all("state" not in m["state"] for m in updates), updates
    assert len(custom) == 1 and custom[0]["type"] == "log_lang" and custom[0]["lang"] == "nl"
    assert custom[0]["base"] is None
    assert custom[0]["lines"] == w.game.log("nl")[-len(custom[0]["lines"]):]
    sent = sum(len(json.dumps(m)) for m in messages)
    assert sent < whole_state, (sent, whole_state)
    # the kept state is the new language's (a view opened now gets it whole), seq unchanged
    assert w.state["seq"] == seq and w.state["lang"] == "nl"
    assert w.state["log"]["lines"] == custom[0]["lines"]
    # the next action's state follows on the lines that message brought
    w.roll()
    log = json.loads(w.get_state("state")["state"])["log"]
    assert log["epoch"] == custom[0]["epoch"] and log["base"] == custom[0]["total"]
    assert log["lines"] == w.game.log("nl")[log["base"]:]
