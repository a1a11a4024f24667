"""Every card of every bundled deck, drawn once, its effect checked against what the card says
(the expectations are written from the seed documents and card texts, not read from the board
files: a changed number in a deck must fail here)."""

from __future__ import annotations

from typing import Any

import pytest

from ugentopoly_widget import Game
from ugentopoly_widget.engine import actions as A
from ugentopoly_widget.engine.boards.loader import bundled_boards, load_bundled

# card id -> (tile the player starts on, the roll that reaches the deck tile, expectation)
# expectation keys: pos (end position), cash (drawer's change), others (each other player's
# change), pot (pot change), jail (in jail), held (card kept), decision (what comes next)
Expect = dict[str, Any]

CLASSIC_CHANCE: dict[str, tuple[int, tuple[int, int], Expect]] = {
    # Chance at 7, reached from 4 with 1+2
    "card.chance.01": (4, (1, 2), {"pos": 0, "cash": 200}),  # Advance to Go
    "card.chance.02": (4, (1, 2), {"pos": 24, "decision": "buy"}),  # Illinois Ave.
    "card.chance.03": (4, (1, 2), {"pos": 12, "decision": "buy"}),  # nearest utility
    "card.chance.04": (4, (1, 2), {"pos": 15, "decision": "buy"}),  # nearest railroad
    "card.chance.05": (4, (1, 2), {"pos": 15, "decision": "buy"}),  # nearest railroad
    "card.chance.06": (4, (1, 2), {"pos": 11, "decision": "buy"}),  # St. Charles Place
    "card.chance.07": (4, (1, 2), {"cash": 50}),  # dividend
    "card.chance.08": (4, (1, 2), {"held": True}),  # get out of jail free
    "card.chance.09": (4, (1, 2), {"pos": 4, "decision": "tax"}),  # back 3: Income Tax
    "card.chance.10": (4, (1, 2), {"pos": 10, "jail": True}),  # go to jail
    "card.chance.11": (4, (1, 2), {}),  # repairs: nothing built, nothing to pay
    "card.chance.12": (4, (1, 2), {"cash": -15}),  # poor tax
    "card.chance.13": (4, (1, 2), {"pos": 5, "cash": 200, "decision": "buy"}),  # Reading, GO
    "card.chance.14": (4, (1, 2), {"pos": 39, "decision": "buy"}),  # Boardwalk
    "card.chance.15": (4, (1, 2), {"cash": -100, "others": 50}),  # pay each player 50
    "card.chance.16": (4, (1, 2), {"cash": 150}),  # building loan
    "card.chance.17": (4, (1, 2), {"cash": 100}),  # crossword
}
CLASSIC_CHEST: dict[str, tuple[int, tuple[int, int], Expect]] = {
    # Community Chest at 17, reached from 14 with 1+2
    "card.chest.01": (14, (1, 2), {"pos": 0, "cash": 200}),
    "card.chest.02": (14, (1, 2), {"cash": 75}),
    "card.chest.03": (14, (1, 2), {"cash": -50}),
    "card.chest.04": (14, (1, 2), {"held": True}),
    "card.chest.05": (14, (1, 2), {"pos": 10, "jail": True}),
    "card.chest.06": (14, (1, 2), {"cash": 20, "others": -10}),  # birthday, 2 others
    "card.chest.07": (14, (1, 2), {"cash": 100, "others": -50}),  # opera night
    "card.chest.08": (14, (1, 2), {"cash": 20}),
    "card.chest.09": (14, (1, 2), {"cash": 100}),
    "card.chest.10": (14, (1, 2), {"cash": -100}),
    "card.chest.11": (14, (1, 2), {"cash": -50}),
    "card.chest.12": (14, (1, 2), {"cash": 25}),
    "card.chest.13": (14, (1, 2), {}),  # repairs: nothing built
    "card.chest.14": (14, (1, 2), {"cash": 10}),
    "card.chest.15": (14, (1, 2), {"cash": 100}),
    "card.chest.16": (14, (1, 2), {"cash": 50}),
    "card.chest.17": (14, (1, 2), {"cash": 100}),
}
UGENT_CHANCE: dict[str, tuple[int, tuple[int, int], Expect]] = {
    "card.chance.01": (4, (1, 2), {"held": True}),
    "card.chance.02": (4, (1, 2), {"pos": 10}),  # to the Study Cell, visiting
    "card.chance.03": (4, (1, 2), {"pos": 19, "decision": "buy"}),
    "card.chance.04": (4, (1, 2), {"pos": 31, "decision": "buy"}),
    "card.chance.05": (4, (1, 2), {"pos": 4, "cash": -200, "pot": 200}),  # back 3: tax
    "card.chance.06": (4, (1, 2), {"cash": 20}),
    "card.chance.07": (4, (1, 2), {"cash": -50, "pot": 50}),
    "card.chance.08": (4, (1, 2), {"cash": 10, "others": -5}),  # 5 from each of 2 others
}
UGENT_CHEST: dict[str, tuple[int, tuple[int, int], Expect]] = {
    "card.chest.01": (14, (1, 2), {"held": True}),
    "card.chest.02": (14, (1, 2), {"pos": 26, "decision": "buy"}),
    "card.chest.03": (14, (1, 2), {"cash": -50, "pot": 50}),
    "card.chest.04": (14, (1, 2), {"cash": 100}),
    "card.chest.05": (14, (1, 2), {"pos": 39, "decision": "buy"}),
    "card.chest.06": (14, (1, 2), {"cash": -10, "pot": 10}),
    "card.chest.07": (14, (1, 2), {"pos": 14, "decision": "buy"}),  # back 3
}
CELL22: dict[str, tuple[int, tuple[int, int], Expect]] = {
    # Chance at 3 from 1, Chest at 14 from 12, both with 1+1 (no doubles rule)
    "card.chance.01": (1, (1, 1), {"decision": "turn"}),  # roll again
    "card.chance.02": (1, (1, 1), {"cash": 1000}),
    "card.chance.03": (1, (1, 1), {"cash": -1000}),
    "card.chance.04": (1, (1, 1), {"pos": 6, "jail": True}),
    "card.chest.01": (12, (1, 1), {"decision": "turn"}),
    "card.chest.02": (12, (1, 1), {"cash": 1000}),
    "card.chest.03": (12, (1, 1), {"cash": -1000}),
    "card.chest.04": (12, (1, 1), {"pos": 6, "jail": True}),
}

# The standard decks board (random draws): the same cards as classic's, except these.
STANDARD_CHANCE = {c: v for c, v in CLASSIC_CHANCE.items() if c != "card.chance.17"}
STANDARD_CHEST = {c: v for c, v in CLASSIC_CHEST.items() if c != "card.chest.07"}
STANDARD_CHEST["card.chest.02"] = (14, (1, 2), {"cash": 200})  # bank error: collect $200

CASES = (
    [("classic", "CHANCE", c, *v) for c, v in CLASSIC_CHANCE.items()]
    + [("classic", "CHEST", c, *v) for c, v in CLASSIC_CHEST.items()]
    + [("classic-standard-decks", "CHANCE", c, *v) for c, v in STANDARD_CHANCE.items()]
    + [("classic-standard-decks", "CHEST", c, *v) for c, v in STANDARD_CHEST.items()]
    + [("ugentopoly", "CHANCE", c, *v) for c, v in UGENT_CHANCE.items()]
    + [("ugentopoly", "CHEST", c, *v) for c, v in UGENT_CHEST.items()]
    + [("cell22", c.split(".")[1].upper(), c, *v) for c, v in CELL22.items()]
)


def test_the_tables_cover_every_card_of_every_bundled_deck() -> None:
    covered = {(name, deck, card) for name, deck, card, *_ in CASES}
    assert {name for name, *_ in CASES} == set(bundled_boards())
    for name in bundled_boards():
        board = load_bundled(name)
        for kind, deck in board.decks.items():
            for card in deck.cards:
                assert (name, kind, card.id) in covered, (name, card.id)
        assert len([c for c in covered if c[0] == name]) == sum(
            len(d.cards) for d in board.decks.values())


def draw(board: str, deck: str, card: str, start: int, dice: tuple[int, int]
         ) -> tuple[Game, int, list[int], int]:
    profile = load_bundled(board).profile or board
    game = Game(profile, board=f"bundled:{board}", players=["Ann", "Bob", "Cy"], seed=4)
    a = game.current_player
    game.testing.place(a, start)
    game.testing.stack_deck(deck, [card])
    cash = [p.cash for p in game.players]
    pot = game.pot
    game.testing.script_dice(dice)
    game.apply(A.Roll(a))
    assert any(e.kind == "card_drawn" and e.data["card"] == card for e in game.events)
    return game, a, cash, pot


@pytest.mark.parametrize("board,deck,card,start,dice,expect", CASES,
                         ids=[f"{b}-{c}" for b, _, c, *_ in CASES])
def test_every_card_does_what_it_says(board: str, deck: str, card: str, start: int,
                                      dice: tuple[int, int], expect: Expect) -> None:
    game, a, cash, pot = draw(board, deck, card, start, dice)
    me = game.players[a]
    deck_tile = (start + sum(dice)) % game.board.size
    assert me.position == expect.get("pos", deck_tile)
    assert me.cash - cash[a] == expect.get("cash", 0)
    for p in game.players:
        if p.index != a:
            assert p.cash - cash[p.index] == expect.get("others", 0), p.name
    assert game.pot - pot == expect.get("pot", 0)
    assert me.in_jail == expect.get("jail", False)
    assert ([c.id for c in me.jail_cards] == [card]) == expect.get("held", False)
    assert game.money_total() == game.initial_money
    if "decision" in expect:
        assert game.decision.kind == expect["decision"] and game.decision.player == a


# ---------------------------------------------------------------- effects that depend on others


@pytest.mark.parametrize("chance,back_to,then", [
    (7, 4, "tax"), (22, 19, "buy"), (36, 33, "card_drawn")])
def test_classic_go_back_3_from_each_chance_tile(chance: int, back_to: int, then: str) -> None:
    game = Game("classic", players=["Ann", "Bob", "Cy"], seed=4)
    a = game.current_player
    game.testing.place(a, chance - 3)
    game.testing.stack_deck("CHANCE", ["card.chance.09"])
    game.testing.stack_deck("CHEST", ["card.chest.04"])  # at 33: keeps a jail card
    game.testing.script_dice((1, 2))
    game.apply(A.Roll(a))
    assert game.players[a].position == back_to
    assert game.players[a].cash == 1500  # moving back never pays the salary
    if then == "card_drawn":
        assert game.events[-1].kind == "jail_card_kept"
    else:
        assert game.decision.kind == then


def test_classic_nearest_railroad_owned_pays_twice_the_rent() -> None:
    game = Game("classic", players=["Ann", "Bob", "Cy"], seed=4)
    a = game.current_player
    b = (a + 1) % 3
    game.testing.give_property(b, 15)
    game.testing.give_property(b, 25)  # two railroads: rent 50, twice = 100
    game.testing.place(a, 4)
    game.testing.stack_deck("CHANCE", ["card.chance.04"])
    before = [p.cash for p in game.players]
    game.testing.script_dice((1, 2))
    game.apply(A.Roll(a))
    assert game.players[a].position == 15
    assert game.players[a].cash == before[a] - 100
    assert game.players[b].cash == before[b] + 100


def test_classic_nearest_utility_owned_rolls_again_and_pays_ten_times() -> None:
    game = Game("classic", players=["Ann", "Bob", "Cy"], seed=4)
    a = game.current_player
    b = (a + 1) % 3
    game.testing.give_property(b, 12)
    game.testing.place(a, 4)
    game.testing.stack_deck("CHANCE", ["card.chance.03"])
    before = [p.cash for p in game.players]
    game.testing.script_dice((1, 2), (5, 4))  # the second roll is the utility's
    game.apply(A.Roll(a))
    assert game.players[a].position == 12
    assert game.players[a].cash == before[a] - 90
    assert game.players[b].cash == before[b] + 90


@pytest.mark.parametrize("deck,card,house,hotel", [
    ("CHANCE", "card.chance.11", 25, 100), ("CHEST", "card.chest.13", 40, 115)])
def test_classic_repairs_per_house_and_per_hotel(deck: str, card: str, house: int,
                                                 hotel: int) -> None:
    game = Game("classic", players=["Ann", "Bob", "Cy"], seed=4, options={"starting_money": 5000})
    a = game.current_player
    for pos in (1, 3, 6, 8, 9):
        game.testing.give_property(a, pos)
    for _ in range(5):  # brown to hotels (5 levels), light blue to 1 house each
        for pos in (1, 3):
            game.apply(A.Build(a, pos))
    for pos in (6, 8, 9):
        game.apply(A.Build(a, pos))
    start = 4 if deck == "CHANCE" else 14
    game.testing.place(a, start)
    game.testing.stack_deck(deck, [card])
    before = game.players[a].cash
    game.testing.script_dice((1, 2))
    game.apply(A.Roll(a))
    assert game.players[a].cash == before - (3 * house + 2 * hotel)


def test_ugentopoly_card_moves_pay_the_salary_only_when_they_collect() -> None:
    # chance 02 (collect false) from Chance at 36 wraps to 10: no salary
    game, a, cash, _ = draw("ugentopoly", "CHANCE", "card.chance.02", 33, (1, 2))
    assert game.players[a].position == 10 and game.players[a].cash == cash[a]
    # chance 03 (collect true) from Chance at 22 wraps to 19: salary
    game, a, cash, _ = draw("ugentopoly", "CHANCE", "card.chance.03", 19, (1, 2))
    assert game.players[a].position == 19 and game.players[a].cash == cash[a] + 200
    # chest 07 (back 3) from Chest at 2 goes back past START to 39: no salary
    game, a, cash, _ = draw("ugentopoly", "CHEST", "card.chest.07", 0, (1, 1))
    assert game.players[a].position == 39 and game.players[a].cash == cash[a]
