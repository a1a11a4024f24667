"""Fuzz the widget's request handler: malformed, forged and huge requests never change the game,
never raise into the comm, and always set an error."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ugentopoly_widget.widget import UgentopolyWidget

WIDGET = UgentopolyWidget("classic", players=["Ann", "Bob", "Cleo"], seed=11)
WIDGET.game.testing.script_dice((1, 2))
WIDGET.roll()  # a buy decision: many action types are now wrong

json_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10**20), max_value=10**20),
    st.floats(allow_nan=False), st.text(max_size=30),
)
json_value = st.recursive(
    json_leaf,
    lambda inner: st.one_of(st.lists(inner, max_size=5),
                            st.dictionaries(st.text(max_size=10), inner, max_size=5)),
    max_leaves=20,
)
ACTION_TYPES = ["roll", "buy", "decline", "bid", "pass", "end_turn", "pay_fine", "use_card", "tax",
                "build", "sell", "mortgage", "unmortgage", "lift", "keep", "place", "sell_down",
                "propose_trade", "accept", "reject", "bankrupt", "time_up", "timer_roll", "nope"]
action = st.fixed_dictionaries(
    {"type": st.sampled_from(ACTION_TYPES)},
    optional={
        "player": st.one_of(st.integers(-5, 70), json_leaf),
        "position": st.one_of(st.integers(-5, 50), json_leaf),
        "amount": st.one_of(st.integers(-(10**12), 10**12), json_leaf),
        "choice": st.one_of(st.sampled_from(["flat", "percent"]), json_leaf),
        "partner": st.one_of(st.integers(-2, 5), json_leaf),
        "give": json_value, "get": json_value, "area": json_value, "level": json_value,
        "extra": json_value,
    },
)
request = st.one_of(
    json_value,
    st.fixed_dictionaries(
        {"type": st.sampled_from(["act", "undo", "setup", "lang", "bots", "x"])},
        optional={"action": st.one_of(action, json_value),
                  "seq": st.one_of(st.integers(-3, 10**6), json_leaf),
                  "profile": json_value, "players": json_value, "lang": json_value,
                  "paused": json_value, "delay": json_value},
    ),
)


def _is_legal_now(content: Any) -> bool:
    """A fuzzed request that happens to be a legal action for the current seq is fine."""
    if not isinstance(content, dict) or content.get("type") != "act":
        return False
    if content.get("seq") != WIDGET.state["seq"] or set(content) != {"type", "action", "seq"}:
        return False
    return content.get("action") in WIDGET.state["legal"]


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(content=request)
def test_malformed_requests_change_nothing(content: Any) -> None:
    if _is_legal_now(content) or (isinstance(content, dict)
                                  and content.get("type") in ("lang", "bots")):
        return
    digest = WIDGET.game.digest()
    before = WIDGET.error.get("n", 0)
    state = WIDGET.state
    WIDGET._handle_custom_msg(content, [])  # must not raise
    assert WIDGET.game.digest() == digest
    assert WIDGET.state is state or WIDGET.state["seq"] == state["seq"]
    assert WIDGET.error.get("n", 0) == before + 1, (content, WIDGET.error)


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_forged_actions_with_current_seq(data: st.DataObject) -> None:
    forged = data.draw(action)
    if forged in WIDGET.state["legal"]:
        return
    digest = WIDGET.game.digest()
    before = WIDGET.error.get("n", 0)
    WIDGET._handle_custom_msg({"type": "act", "action": forged, "seq": WIDGET.state["seq"]}, [])
    assert WIDGET.game.digest() == digest
    assert WIDGET.error.get("n", 0) == before + 1


def test_huge_request_refused() -> None:
    digest = WIDGET.game.digest()
    WIDGET._handle_custom_msg({"type": "act", "seq": WIDGET.state["seq"],
                               "action": {"type": "roll", "player": 0, "pad": "x" * 100_000}}, [])
    assert WIDGET.game.digest() == digest
    assert "too large" in WIDGET.error["message"]
