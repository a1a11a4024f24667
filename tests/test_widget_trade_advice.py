"""The trade dialog's advice (widget/trade_advice.py): the figures are rate_trade's, on a copy
of the position, so the game goes on meanwhile; bad, stale or illegal requests are refused
with a named reason and change nothing."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from ugentopoly_widget import Game, UgentopolyWidget
from ugentopoly_widget.rollouts import OfferError, rate_trade

OFFER = {"player": 0, "partner": 1, "give": {"cash": 300}, "get": {"properties": [19]}}


def _scenario() -> Game:
    return Game.scenario("classic", players=["Ann", "Bob"], seed=2, current="Ann",
                         owners={16: "Ann", 18: "Ann", 19: "Bob", 1: "Bob"})


def _widget() -> UgentopolyWidget:
    w = UgentopolyWidget.from_game(_scenario(), seats=["person", "person"])
    w.advice_rollouts = 36
    return w


def _send(w: UgentopolyWidget, content: dict[str, Any]) -> None:
    w._on_msg(w, {"seq": w.state["seq"], **content})


def _wait(w: UgentopolyWidget, status: str, timeout: float = 120.0) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if w.trade_advice.get("status") == status:
            return dict(w.trade_advice)
        time.sleep(0.05)
    raise AssertionError(f"no {status!r} advice in {timeout} s: {w.trade_advice}")


def test_advice_is_rate_trade_of_the_position() -> None:
    w = _widget()
    advice = w.advise_trade(OFFER, rollouts=36, fair=False, wait=True)
    rating = rate_trade(_scenario(), OFFER, rollouts=36, fair=False)
    assert advice["status"] == "done" and advice["seq"] == w.state["seq"]
    assert [s["p_with"] for s in advice["sides"]] == rating.table.p_with.tolist()
    assert [s["p_without"] for s in advice["sides"]] == rating.table.p_without.tolist()
    assert advice["text"]["en"] == rating.explain("en")
    assert advice["offer"]["get"]["properties"] == [19]


def test_the_view_asks_the_quick_figures_then_the_fair_price() -> None:
    w = _widget()
    _send(w, {"type": "trade_advice", "offer": OFFER})
    assert w.trade_advice["status"] in ("working", "quick", "done")
    quick = _wait(w, "quick")
    assert quick["fair_cash"] is None and quick["fair_note"] == "not_asked"
    done = _wait(w, "done")
    assert done["id"] == quick["id"] and done["fair_note"] != "not_asked"
    assert done["rollouts"] == 36


def test_the_game_goes_on_while_the_advice_is_worked_out() -> None:
    w = _widget()
    seq = w.state["seq"]
    _send(w, {"type": "trade_advice", "offer": OFFER})
    w.game.testing.script_dice((3, 4))
    w.apply({"type": "roll", "player": 0})  # the position moves on meanwhile; the copy is rated
    quick = _wait(w, "quick")
    assert quick["seq"] == seq != w.state["seq"]  # the view shows it only for its seq


def test_a_newer_request_leaves_the_older_behind() -> None:
    w = _widget()
    _send(w, {"type": "trade_advice", "offer": OFFER})
    first = w.trade_advice["id"]
    cheaper = {**OFFER, "give": {"cash": 200}}
    _send(w, {"type": "trade_advice", "offer": cheaper})
    done = _wait(w, "done")
    assert done["id"] == first + 1 and done["offer"]["give"]["cash"] == 200


@pytest.mark.parametrize("offer, words", [
    ({**OFFER, "get": {"properties": [39]}}, "not legal"),  # Boardwalk: nobody's to give
    ({**OFFER, "give": {"cash": 10**6}}, "has only"),
    ({**OFFER, "player": 1}, "not legal"),  # not the player to move
])
def test_an_offer_not_legal_now_is_shown_in_the_dialog(offer: dict[str, Any], words: str
                                                        ) -> None:
    w = _widget()
    with pytest.raises(OfferError):
        w.advise_trade(offer, wait=True)
    state = dict(w.state)
    _send(w, {"type": "trade_advice", "offer": offer})
    assert w.trade_advice["status"] == "error"
    assert words in w.trade_advice["text"]["en"].lower()
    assert w.state == state  # nothing changed


def test_stale_and_malformed_requests_are_refused() -> None:
    w = _widget()
    before = dict(w.trade_advice)
    w._on_msg(w, {"type": "trade_advice", "seq": w.state["seq"] - 1, "offer": OFFER})
    assert w.trade_advice == before and "refused" in w.errors[-1]
    for bad in ({"type": "trade_advice", "offer": [1, 2]},
                {"type": "trade_advice", "offer": OFFER, "extra": 1},
                {"type": "trade_advice"}):
        n = len(w.errors)
        _send(w, bad)
        assert len(w.errors) == n + 1 and "refused" in w.errors[-1]
        assert w.trade_advice == before


def test_a_new_request_stops_the_older_ones() -> None:
    """Twenty Advice clicks in a row: the older requests stop at their next 36 rollouts (their
    threads end, nothing of theirs reaches the trait) and the last one gets the machine.
    Before: twenty threads played every stage to its end, side by side. Held at a gate until
    all twenty are asked, so nothing depends on the machine's speed."""
    from ugentopoly_widget.rollouts import trades

    w = _widget()
    gate = threading.Event()
    runs: list[dict[str, Any]] = []
    real = trades.rating_steps  # (rate_trade's steps: what the widget runs)

    def held(*args: Any, progress: Any, **kwargs: Any) -> Any:
        run = {"batches": 0, "end": "running"}
        runs.append(run)

        def counted(done: int, total: int) -> None:
            run["batches"] += 1
            progress(done, total)

        gate.wait(120)
        try:
            rating = yield from real(*args, progress=counted, **kwargs)
        except BaseException as exc:
            run["end"] = type(exc).__name__
            raise
        run["end"] = "rated"
        return rating

    trades.rating_steps = held  # type: ignore[assignment]
    try:
        for k in range(20):
            _send(w, {"type": "trade_advice", "offer": {**OFFER, "give": {"cash": 200 + k}}})
        last = w.trade_advice["id"]
        gate.set()
        done = _wait(w, "done")
    finally:
        trades.rating_steps = real
    assert done["id"] == last and done["offer"]["give"]["cash"] == 219
    for thread in [t for t in threading.enumerate() if t.name == "ugw-trade-advice"]:
        thread.join(120)
    assert not [t for t in threading.enumerate() if t.name == "ugw-trade-advice"]
    rated = [run for run in runs if run["end"] == "rated"]
    stopped = [run for run in runs if run["end"] != "rated"]
    assert len(rated) == 2  # the last request's two stages: the quick figures, the fair price
    assert all(run["end"] == "_LeftBehind" and run["batches"] <= 1 for run in stopped), runs
    w.close()


def test_a_cash_only_offer_gets_its_fair_price_in_the_dialog() -> None:
    """Before: the fair price's bisection tried the empty trade and the advice ended in
    "error"."""
    w = UgentopolyWidget.from_game(Game.scenario(
        "classic", players=["Ann", "Bob"], seed=2, current="Ann", owners={16: "Ann", 19: "Bob"}),
        seats=["person", "person"])
    w.advice_rollouts = 36
    _send(w, {"type": "trade_advice", "offer": {"player": 0, "partner": 1,
                                                 "give": {"cash": 100}, "get": {}}})
    done = _wait(w, "done")
    assert done["fair_note"] == "even" and isinstance(done["fair_cash"], int)
    w.close()
