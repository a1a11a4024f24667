"""Game.scenario: a position set up by hand, checked as a whole, recorded as one testing step
(so it saves, loads, copies and undoes), and refused with a named error when impossible."""

from __future__ import annotations

import json
from typing import Any

import pytest
from helpers import act, roll
from invariants import check_state

from ugentopoly_widget import Game, SaveFileError
from ugentopoly_widget.engine.bots import HeuristicBot, play_game
from ugentopoly_widget.engine.errors import ScenarioError
from ugentopoly_widget.engine.records.positions import PositionCopy

ORANGE = (16, 18, 19)


def classic(**position: Any) -> Game:
    return Game.scenario("classic", players=["Ann", "Bob", "Cy"], seed=3, **position)


def test_every_field_sets_what_it_names() -> None:
    game = classic(
        owners={"orange": "Ann", "Boardwalk": 1, "tile.parkplace": "bob", 5: 2},
        buildings={"orange": 3, "darkblue": "hotel"}, mortgaged=["Reading Railroad"],
        cash={"Ann": 40, 1: 2000}, positions={"Cy": 24}, jail=["Ann"],
        cards={"Bob": ["card.chance.08"], "Cy": ["CHEST"]}, current="Cy")
    assert [game.owner(p) for p in ORANGE] == [0, 0, 0]
    assert (game.owner(37), game.owner(39), game.owner(5)) == (1, 1, 2)
    assert [game.buildings(p) for p in ORANGE] == [3, 3, 3]
    assert game.buildings(39) == game.hotel_level == 5
    assert game.mortgaged_positions == [5]
    assert game.houses_left == 32 - 9 and game.hotels_left == 12 - 2
    assert [p.cash for p in game.players] == [40, 2000, 1500]
    assert game.money_total() == game.initial_money  # the bank paid and received the rest
    ann, bob, cy = game.players
    assert ann.in_jail and ann.position == 10 and cy.position == 24
    assert [c.id for c in bob.jail_cards] == ["card.chance.08"]
    assert [c.id for c in cy.jail_cards] == ["card.chest.04"]
    state = game.state()
    assert "card.chance.08" not in state["decks"]["CHANCE"]  # a held card leaves its deck
    assert "card.chest.04" not in state["decks"]["CHEST"]
    assert game.decision.kind == "turn" and game.decision.player == 2
    assert game.turn_number == 1 and game._engine.first_player == 2
    check_state(game)
    assert game.log()[-2:] == ["[scenario] The position is set up: Cy to play.", "Turn 1: Cy."]
    assert game.log("nl")[-2].startswith("[scenario] De stelling staat klaar: Cy")


def test_the_turn_order_follows_the_current_player() -> None:
    game = Game.scenario("classic", players=["Ann", "Bob", "Cy"], seed=3, current="Bob")
    order, rounds = [], []
    for dice in ((1, 2), (2, 3), (2, 4), (2, 3)):  # no tax, no card
        order.append(game.decision.player)
        rounds.append(game.state()["round"])
        roll(game, *dice)
        while game.decision.kind != "post_roll":
            act(game, "decline" if game.decision.kind == "buy" else "pass")
        act(game, "end_turn")
    assert order == [1, 2, 0, 1]
    assert rounds == [1, 1, 1, 2]  # Bob starts every round


def test_a_held_card_gets_a_player_out_of_jail() -> None:
    game = classic(jail=["Bob"], cards={"Bob": ["card.chest.04"]}, current="Bob")
    kinds = [a.type for a in game.legal_actions()]
    assert "use_card" in kinds and "pay_fine" in kinds
    act(game, "use_card")
    assert not game.players[1].in_jail
    assert "card.chest.04" in game.state()["decks"]["CHEST"]  # back under the deck


def test_the_scenario_replays_saves_loads_copies_and_undoes() -> None:
    game = classic(owners={"orange": 0}, buildings={"orange": 2}, cash=[300, 1500, 900],
                   cards={2: ["CHANCE"]}, current=1)
    start = game.state()
    assert Game.replay(game.record()).state() == start
    assert game.copy().state() == start
    loaded = Game.from_json(game.to_json())
    assert loaded.state() == start
    assert Game.from_json(game.to_json(), verify="replay").state() == start
    play_game(game, [HeuristicBot(seed=k) for k in range(3)], max_actions=3)
    while game.actions:
        if not game.can_undo():
            game = Game.replay(game.record(), upto=0)
            break
        game.undo()
    assert game.state() == start
    assert game.log() == Game.replay(game.record()).log()  # no scenario line twice


def test_a_copy_of_a_scenario_position_plays_on_as_the_original_would() -> None:
    game = classic(owners={"orange": 0, "red": 1}, buildings={"red": 1}, current=2)
    copy = PositionCopy(game)
    assert copy.game.state() == game.state()
    play_game(copy.game, [HeuristicBot(seed=k) for k in range(3)], max_actions=200)
    copy.reset()
    assert copy.game.state() == game.state()
    original = game.copy()
    play_game(original, [HeuristicBot(seed=k) for k in range(3)], max_actions=200)
    play_game(copy.game, [HeuristicBot(seed=k) for k in range(3)], max_actions=200)
    assert copy.game.state() == original.state()


def test_ugentopoly_and_cell22_scenarios() -> None:
    ug = Game.scenario("ugentopoly", players=["Ann", "Bob"], owners={"area1": "Bob"},
                       cash={"Ann": 5}, positions={"Ann": 3}, current="Ann")
    assert ug.owners[1] == ug.owners[3] == 1 and ug.players[0].cash == 5
    check_state(ug)
    c22 = Game.scenario("cell22", players=3, owners={1: 0, 2: 0}, buildings={1: 4},
                        jail=[1], current=1)
    # 22-cell: jail is a skipped turn, served at the start of the scenario's first turn
    assert c22.buildings(1) == 4 and not c22.players[1].in_jail
    assert c22.decision.player == 2 and c22.log()[-5:-2] == [
        "Turn 1: Player 2.", "Player 2 sits out a turn in jail.",
        "Player 2 left jail (turn served)."]
    play_game(c22, [HeuristicBot(seed=k) for k in range(3)], max_actions=2000)
    check_state(c22)


@pytest.mark.parametrize("position, message", [
    ({"buildings": {"Boardwalk": 1}, "owners": {"Boardwalk": 0}}, "whole darkblue group"),
    ({"owners": {"orange": 0}, "buildings": {16: 2, 18: 1, 19: 0}}, "unevenly"),
    ({"owners": {"orange": 0}, "buildings": {"orange": 6}}, "at most 4 houses"),
    ({"owners": {"orange": 0}, "buildings": {"orange": 2}, "mortgaged": [16]}, "is mortgaged"),
    ({"owners": {"orange": 0}, "buildings": {18: 1, 19: 1}, "mortgaged": [16]},
     "mortgaged"),
    ({"owners": {g: 0 for g in ("brown", "lightblue", "pink", "orange", "red", "yellow",
                                "green", "darkblue")},
      "buildings": {g: 4 for g in ("lightblue", "pink", "orange", "red", "yellow")}},
     "but the bank has 32"),
    ({"owners": {"Reading Railroad": 0}, "buildings": {"Reading Railroad": 1}},
     "not a street"),
    ({"buildings": {"GO": 1}}, "not a street"),
    ({"owners": {"GO": 0}}, "cannot be owned"),
    ({"owners": {"Community Chest": 0}}, "names several tiles"),
    ({"owners": {"Nowhere Lane": 0}}, "there is no tile 'Nowhere Lane'"),
    ({"owners": {"Boardwalk": "Zed"}}, "there is no player 'Zed'"),
    ({"mortgaged": ["Boardwalk"]}, "Boardwalk has no owner"),
    ({"cash": {"Ann": -1}}, "out of range"),
    ({"cash": [1, 2]}, "one amount per player (3)"),
    ({"jail": ["Ann"], "positions": {"Ann": 5}}, "is in jail, so on the jail tile"),
    ({"jail": ["Ann", 0]}, "named twice"),
    ({"cards": {"Ann": ["card.chance.01"]}}, "not a get-out-of-jail card"),
    ({"cards": {"Ann": ["CHANCE"], "Bob": ["card.chance.08"]}}, "named twice"),
    ({"cards": {"Ann": ["card.nope"]}}, "there is no card"),
    ({"current": 7}, "there is no player 7"),
    ({"owners": ["Boardwalk"]}, "expected a mapping"),
])
def test_impossible_positions_are_refused_by_name(position: dict[str, Any],
                                                  message: str) -> None:
    with pytest.raises(ScenarioError) as info:
        classic(**position)
    assert message in str(info.value)


def test_rules_without_buildings_or_mortgages_refuse_them() -> None:
    with pytest.raises(ScenarioError, match="no buildings"):
        Game.scenario("ugentopoly", players=2, owners={"area1": 0}, buildings={"area1": 1})
    with pytest.raises(ScenarioError, match="no mortgages"):
        Game.scenario("ugentopoly", players=2, owners={1: 0}, mortgaged=[1])


def _forged(game: Game, spec: Any, at: int = 0) -> str:
    payload = json.loads(game.to_json())
    payload["record"]["injections"] = [{"at": at, "op": "scenario", "args": [spec]}]
    payload["checkpoint"] = None
    return json.dumps(payload)


def test_a_save_files_scenario_is_checked_again_on_load() -> None:
    game = classic(owners={"orange": 0}, buildings={"orange": 1})
    spec = game.record()["injections"][0]["args"][0]
    uneven = dict(spec, levels=[[16, 3], [18, 1], [19, 1]])
    for bad in (uneven, dict(spec, owners=[[0, 0]]), {"owners": []}, "scenario"):
        with pytest.raises(SaveFileError, match="does not replay|digest"):
            Game.from_json(_forged(game, bad))
    played = Game("classic", players=3, seed=3)
    play_game(played, [HeuristicBot(seed=k) for k in range(3)], max_actions=4)
    record = played.record()
    record["injections"] = [{"at": 2, "op": "scenario", "args": [spec]}]
    with pytest.raises(SaveFileError, match="before the game's first action"):
        Game.replay(record)
