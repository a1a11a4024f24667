"""Issue 20 without a browser: the rule figures the widget sends with each decision (jail try
and fine, the income tax's percentage, doubles, rent at buy, auction bidders, house prices and
counts, the even-build rule), the heat map's colours and lessons, Roll once and its fan, the
jail strategies side by side, per-turn odds, a play_bots batch told in one line, board
pictures, presentation mode, Dutch default names and board-file break points. Every scenario
uses chosen dice; bad input changes nothing."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from ugentopoly_widget import Game
from ugentopoly_widget.engine.errors import IllegalActionError
from ugentopoly_widget.probability import landing_distribution, next_roll_distribution
from ugentopoly_widget.widget import UgentopolyWidget, heatmap
from ugentopoly_widget.widget.explain import decision_help


def _widget(profile: str = "classic", **kwargs: Any) -> UgentopolyWidget:
    kwargs.setdefault("players", ["Ann", "Bob"])
    kwargs.setdefault("seed", 3)
    kwargs.setdefault("turn_pause", 0)
    return UgentopolyWidget(profile, **kwargs)


def _help(w: UgentopolyWidget) -> dict[str, Any]:
    return dict(w.state.get("help") or {})


def _request(w: UgentopolyWidget, content: Any) -> None:
    w._handle_custom_msg(content, [])


# ---------------------------------------------------------------------- prompts' figures

def test_jail_try_k_of_n_and_the_fine() -> None:
    w = _widget()
    w.game.testing.send_to_jail(0)
    w.refresh()
    assert _help(w)["jail"] == {"try": 1, "of": 3, "fine": 50, "cards": 0}
    w.game.testing.script_dice((1, 2))  # no doubles: still in jail, try 1 used
    w.roll()
    w.end_turn()
    w.game.testing.script_dice((1, 2))
    w.roll()  # Bob
    if w.game.decision.kind == "buy":
        w.decline()
        while w.game.decision.kind == "auction":
            w.pass_()
    w.end_turn()
    assert w.game.decision.player == 0 and w.game.players[0].in_jail
    assert _help(w)["jail"]["try"] == 2  # "In jail (try 2 of 3)"


def test_income_tax_percentage_worked_out_from_net_worth() -> None:
    w = _widget()
    w.game.testing.give_property(0, 39)  # Boardwalk (400) counts at its price
    w.game.testing.script_dice((1, 3))  # GO -> Income Tax
    w.roll()
    assert w.game.decision.kind == "tax"
    tax = _help(w)["tax"]
    worth = w.game.net_worth(0)
    assert tax == {"flat": 200, "percent": 10, "worth": worth, "percent_amount": worth // 10}
    assert worth == 1500 + 400


def test_doubles_roll_again_counts_the_doubles_and_the_jail_limit() -> None:
    w = _widget()
    w.game.testing.script_dice((3, 3), (1, 1))
    w.roll()  # Oriental Avenue: buy?
    assert "again" not in _help(w)
    w.buy()
    assert _help(w)["again"] == {"reason": "double", "doubles": 1, "max": 3}
    w.roll()
    w.buy()
    assert _help(w)["again"]["doubles"] == 2
    # a fresh turn starts without the word
    w.game.testing.script_dice((1, 2))
    w.roll()
    w.buy()
    assert "again" not in _help(w)


def test_rent_at_buy_with_and_without_the_group() -> None:
    w = _widget()
    w.game.testing.script_dice((3, 3))
    w.roll()
    rent = _help(w)["rent"]
    assert rent["rent"] == 6 and rent["group_rent"] == 12 and not rent["completes_group"]
    w.buy()
    w.game.testing.give_property(0, 9)
    w.game.testing.script_dice((1, 1))  # 6 -> 8 Vermont: buying completes light blue
    w.roll()
    rent = _help(w)["rent"]
    assert rent["completes_group"] and rent["rent"] == 12 == rent["group_rent"]
    # a station: its rent by how many the buyer would own
    w.buy()
    w.game.testing.give_property(0, 5)
    w.game.testing.place(0, 10)
    w.game.testing.script_dice((2, 3))  # 10 -> 15 Pennsylvania Railroad
    w.roll()
    rent = _help(w)["rent"]
    assert rent == {"kind": "railway", "rent": 50, "owned": 2, "by_count": [25, 50, 100, 200]}


def test_auction_list_price_and_bidders_still_in() -> None:
    w = _widget(players=["Ann", "Bob", "Cy"])
    w.game.testing.script_dice((1, 2))
    w.roll()
    w.decline()
    auction = _help(w)["auction"]
    assert auction["position"] == 3 and auction["list_price"] == 60
    assert sorted(auction["bidders"]) == [0, 1, 2]
    w.pass_()
    assert len(_help(w)["auction"]["bidders"]) == 2


def test_build_price_count_and_the_even_build_rule() -> None:
    w = _widget()
    g = w.game
    for pos in (6, 8, 9):
        g.testing.give_property(0, pos)
    w.refresh()
    tiles = w.board_data["tiles"]
    assert tiles[6]["house_price"] == 50 and tiles[6]["sell_refund"] == 25
    assert tiles[6]["mortgage"] == 50 and tiles[6]["lift_cost"] == 55  # 10 % interest
    assert tiles[5]["lift_cost"] == 110 and "sell_refund" not in tiles[5]  # a station
    assert "even" not in _help(w)  # nothing built: nothing held back
    w.build(6)
    assert _help(w)["even"] == [[6]]  # Oriental waits for Vermont and Connecticut
    assert w.state["level"][6] == 1
    w.build(8)
    w.build(9)
    assert "even" not in _help(w)  # level again: every lot may build


def test_help_is_only_the_current_decision_and_small() -> None:
    w = _widget()
    assert _help(w) == {}  # a plain first roll: nothing to add
    game = Game("classic", players=2, seed=1)
    assert decision_help(game, []) == {}
    w.play_bots(30, everyone="heuristic")
    assert len(json.dumps(w.state.get("help", {}))) < 1500


# ---------------------------------------------------------------------- heat map

@pytest.mark.parametrize("profile", ["classic", "ugentopoly", "cell22"])
def test_heat_scale_spans_the_tiles_shown_in_a_uniform_palette(profile: str) -> None:
    w = _widget(profile)
    w.show_probability("exact")
    heat = w.heat
    values = heat["values"]
    shown = [v for v in values if v > 0]
    assert heat["min"] == min(shown) and heat["max"] == max(shown)  # not zero-based
    assert heat["palette"] == list(heatmap.VIRIDIS)
    fills = heat["fills"]
    for v, fill, ink in zip(values, fills, heat["inks"], strict=True):
        if v == 0:
            assert fill is None and ink is None  # Go To Jail: no roll ends there
        else:
            assert fill is not None and ink in (heatmap.DARK_INK, heatmap.LIGHT_INK)
    streets = [fills[t.position] for t in w.game.board.tiles if t.kind.value == "STREET"]
    lum = [heatmap.luminance(f) for f in streets]
    assert max(lum) - min(lum) >= 0.3  # the street range is the lesson: it must show
    # the ink reads on its fill (WCAG contrast at least 4.5:1)
    for fill, ink in zip(fills, heat["inks"], strict=True):
        if fill is not None:
            a, b = sorted([heatmap.luminance(fill), heatmap.luminance(ink)])
            assert (b + 0.05) / (a + 0.05) >= 4.5


def test_heat_notes_say_why_the_hottest_and_coldest_tiles_are() -> None:
    w = _widget()
    w.show_probability("exact")
    notes = w.heat["notes"]
    assert notes["hot"]["pos"] == 24 and notes["cold"]["pos"] == 30
    hot = notes["hot"]["text"]
    assert hot["en"].startswith("Illinois Avenue 3.2%") and "Chance card" in hot["en"]
    assert "14 steps after Jail" in hot["en"] and "Kans-kaart" in hot["nl"]
    assert "straight to Jail" in notes["cold"]["text"]["en"]
    w.show_probability("next")
    assert set(w.heat["notes"]) == {"hot"}
    w.show_probability("difference")
    assert w.heat["notes"] == {}
    w.show_probability("observed")  # no rolls yet: nothing to explain
    assert w.heat["notes"] == {}


def test_per_turn_switch_and_its_refusals() -> None:
    w = _widget()
    w.show_probability("exact", per="turn")
    turn = landing_distribution(w.game, per="turn").probability.to_list()
    assert [*w.heat["values"], w.heat["jail"]] == pytest.approx(turn, abs=1e-15)
    assert w.heat["per"] == "turn" and w.probability_per == "turn"
    with pytest.raises(ValueError):
        w.show_probability("exact", per="week")
    assert w.heat["per"] == "turn"
    _request(w, {"type": "probability", "per": "roll", "seq": w._seq})
    assert w.heat["per"] == "roll" and w.heat["mode"] == "exact"
    before = dict(w.heat)
    _request(w, {"type": "probability", "per": "hour"})
    assert "refused" in w.errors[-1] and w.heat == before
    _request(w, {"type": "probability", "jail": "long"})
    assert w.heat["strategy"] == "long"


def test_jail_strategies_side_by_side_in_the_stats() -> None:
    w = _widget()
    w.show_dice_stats(True)
    cmp = w.stats["jail_strategies"]
    short = landing_distribution(w.game, jail="short").probability.to_numpy()
    long = landing_distribution(w.game, jail="long").probability.to_numpy()
    keys = [g["key"] for g in cmp["groups"]]
    assert keys[-1] == "in_jail" and "brown" in keys and "railway" in keys
    assert cmp["long"][-1] == pytest.approx(long[-1])
    assert cmp["short"][-1] == pytest.approx(short[-1])
    red = keys.index("red")
    assert cmp["short"][red] == pytest.approx(sum(short[[21, 23, 24]]))
    assert not cmp["same"]
    assert _widget("cell22").game and UgentopolyWidget(
        "cell22", players=2, seed=1).game.rules.jail_skip_turns  # no choice in jail there
    c22 = _widget("cell22")
    c22.show_dice_stats(True)
    assert c22.stats["jail_strategies"]["same"]


# ---------------------------------------------------------------------- Roll once

def test_roll_once_fan_is_the_next_roll_distribution_and_lands_on_an_arrow() -> None:
    w = _widget()
    w.game.testing.place(0, 20)
    w.refresh()
    expected = next_roll_distribution(w.game).probability.to_list()
    w.game.testing.script_dice((3, 4))  # 20 -> 27 Ventnor
    events = w.roll_once()  # no event loop here: the dice roll at once
    fan = w.fan
    arrows = {pos: p for pos, p in fan["arrows"]}
    assert arrows == {pos: p for pos, p in enumerate(expected[:40]) if p > 0}
    assert fan["jail"] == expected[40] and fan["from"] == 20 and fan["player"] == 0
    assert fan["landed"] == 27 and arrows[27] > 0 and events
    assert fan["seq"] == w._seq
    # the next state clears it (its odds were of the old position)
    w.buy()
    assert w.fan == {}


def test_roll_once_refuses_when_there_is_no_roll() -> None:
    w = _widget()
    w.game.testing.script_dice((3, 3))
    w.roll()  # a buy decision
    seq = w._seq
    with pytest.raises(IllegalActionError):
        w.roll_once()
    assert w._seq == seq and w.fan == {}
    _request(w, {"type": "roll_once", "seq": seq})
    assert "Roll once needs a roll" in w.errors[-1]
    _request(w, {"type": "roll_once", "seq": seq - 1})
    assert "stale" in w.errors[-1]
    _request(w, {"type": "roll_once", "seq": seq, "extra": 1})
    assert "malformed" in w.errors[-1] and w._seq == seq


def test_roll_once_waits_on_the_event_loop() -> None:
    import asyncio

    async def run() -> tuple[dict[str, Any], dict[str, Any]]:
        w = _widget()
        w.game.testing.script_dice((2, 3))
        assert w.roll_once(0.05) == []
        shown = dict(w.fan)
        with pytest.raises(IllegalActionError):
            w.roll_once()  # a second one while the dice are on their way
        end = asyncio.get_running_loop().time() + 60  # (only a hang takes this long)
        while w.fan.get("landed") is None and asyncio.get_running_loop().time() < end:
            await asyncio.sleep(0.02)  # the dice land on the loop, after 0.05 s
        return shown, dict(w.fan)

    shown, landed = asyncio.run(run())
    assert shown["landed"] is None and landed["landed"] == 5


# ---------------------------------------------------------------------- batch, names, pictures

def test_a_batch_is_told_in_one_line() -> None:
    w = _widget()
    first = w.game.turn_number
    count = w.play_bots(50, everyone="heuristic")
    batch = w.state["last"]["batch"]
    assert batch == {"from": first, "to": w.game.turn_number, "actions": count}
    assert batch["to"] - batch["from"] == 50
    w.game.testing.script_dice((1, 2))
    w.apply("roll") if w.game.decision.kind == "turn" else None
    assert "batch" not in w.state.get("last", {})


def test_dutch_default_names() -> None:
    assert [p.name for p in Game("classic", players=3, seed=1, lang="nl").players] == [
        "Speler 1", "Speler 2", "Speler 3"]
    assert [p.name for p in Game("classic", players=2, seed=1).players] == ["Player 1", "Player 2"]
    w = UgentopolyWidget("classic", players=2, seed=1, lang="nl")
    assert w.state["players"][0]["name"] == "Speler 1"


def test_board_picture_has_the_heat_layer(tmp_path: Path) -> None:
    w = _widget()
    plain = ET.fromstring(w.board_picture())
    assert not [e for e in plain.iter() if e.get("class") == "heat"]
    w.show_probability("exact")
    root = ET.fromstring(w.board_picture())
    heat = [e for e in root.iter() if e.get("class") == "heat"]
    assert len(heat) == 39  # every tile but Go To Jail (no roll ends there)
    assert {e.get("fill") for e in heat} <= set(w.heat["fills"])
    text = "".join(root.itertext())
    assert "3.2%" in text and "Long-run landing odds" in text
    w.save_picture(tmp_path / "board.svg")
    assert (tmp_path / "board.svg").read_text().startswith("<svg")
    with pytest.raises(ValueError, match="PNG"):
        w.save_picture(tmp_path / "board.png")
    sent: list[Any] = []
    w.send = lambda content, buffers=None: sent.append(content)  # type: ignore[method-assign]
    _request(w, {"type": "picture", "seq": w._seq})
    assert sent[0]["type"] == "picture" and sent[0]["svg"].startswith("<svg")


def test_presentation_is_a_view_writable_bool() -> None:
    w = _widget()
    w.set_state({"presentation": True})
    assert w.presentation is True
    w.set_state({"presentation": "yes"})
    assert w.presentation is True and "presentation" in w.errors[-1]


def test_board_file_break_points(tmp_path: Path) -> None:
    from ugentopoly_widget.engine.boards.loader import load_bundled
    from ugentopoly_widget.widget.data import board_data

    board = load_bundled("ugentopoly")
    names = {lang: dict(table) for lang, table in board.names.items()}
    tile = board.tiles[1]
    nl = names["nl"][tile.id]
    names["nl"][f"{tile.id}.breaks"] = "|".join([nl[:3], nl[3:]])
    names["en"][f"{tile.id}.breaks"] = "wrong|name"
    import dataclasses

    game = Game("ugentopoly", players=2, seed=1, board=dataclasses.replace(board, names=names))
    entry = board_data(game)["tiles"][1]
    assert entry["breaks"] == {"nl": f"{nl[:3]}|{nl[3:]}"}  # the one that spells the name
    assert "breaks" not in board_data(game)["tiles"][3]
