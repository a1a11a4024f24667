"""RULES.md section 1 (Ugentopoly, the default profile), played like the course graders do:
chosen dice, stacked decks, exact amounts, positions, owners and events."""

from __future__ import annotations

import pytest
from conftest import fixtures_dir
from helpers import act, custom_board, deck, idle_turn, kinds, money, new_game, roll, seats

from ugentopoly_widget import Game, SetupError, load_board

START_MONEY = 1500
SALARY = 200
CHEST_MOVE_BACK = "card.chest.07"


# ---------------------------------------------------------------- players and money


@pytest.mark.parametrize("count", [2, 3, 4])
def test_two_to_four_players_start_with_balance(count: int) -> None:
    game = new_game(players=["Ann", "Bob", "Cat", "Dan"][:count])
    assert [p.cash for p in game.players] == [START_MONEY] * count
    assert [p.position for p in game.players] == [0] * count
    assert game.pot == 0


@pytest.mark.parametrize("count", [1, 5])
def test_player_count_outside_two_to_four_is_refused(count: int) -> None:
    with pytest.raises(SetupError):
        new_game(players=[f"P{k}" for k in range(count)])


def test_balance_and_salary_come_from_the_board_file() -> None:
    board = custom_board("ugentopoly", ('balance="1500" start="200"', 'balance="900" start="70"'))
    game = new_game(board=board)
    a, _ = seats(game)
    assert [p.cash for p in game.players] == [900, 900]
    game.testing.place(a, 37)
    events = roll(game, 1, 3)
    assert money(events, "salary") == [("salary", "bank", a, 70)]
    assert game.players[a].cash == 970


# ---------------------------------------------------------------- START


def test_passing_start_pays_the_salary() -> None:
    game = new_game()
    a, _ = seats(game)
    game.testing.place(a, 37)
    events = roll(game, 1, 3)
    assert money(events, "salary") == [("salary", "bank", a, SALARY)]
    assert game.players[a].position == 1
    assert game.players[a].cash == START_MONEY + SALARY
    assert game.decision.kind == "buy" and game.decision.player == a


def test_landing_exactly_on_start_pays_twice_the_salary_in_total() -> None:
    game = new_game()
    a, b = seats(game)
    game.testing.place(a, 36)
    events = roll(game, 1, 3)
    assert game.players[a].position == 0
    assert sum(m[3] for m in money(events, "salary")) == 2 * SALARY  # 400, not 600
    assert game.players[a].cash == START_MONEY + 2 * SALARY
    assert game.decision.kind == "turn" and game.decision.player == b


def test_collecting_move_card_onto_start_pays_twice_the_salary() -> None:
    board = custom_board(
        "ugentopoly",
        ('type="MOVE" collect="true" position="19" id="card.chance.03"',
         'type="MOVE" collect="true" position="0" id="card.chance.03"'),
    )
    game = new_game(board=board)
    a, _ = seats(game)
    game.testing.place(a, 33)
    game.testing.stack_deck("CHANCE", ["card.chance.03"])
    events = roll(game, 1, 2)  # 33 -> 36 (Chance) -> START by the card
    assert game.players[a].position == 0
    assert sum(m[3] for m in money(events, "salary")) == 2 * SALARY
    assert game.players[a].cash == START_MONEY + 2 * SALARY


# ---------------------------------------------------------------- buying


def test_buy_an_unowned_street_at_its_cost() -> None:
    game = new_game()
    a, b = seats(game)
    roll(game, 1, 2)  # 0 -> 3, street cost 60
    assert game.decision.kind == "buy" and game.decision.data["position"] == 3
    events = act(game, "buy", a)
    assert money(events) == [("bought", a, "bank", 60)]
    assert game.owner(3) == a
    assert game.players[a].cash == START_MONEY - 60
    assert game.decision.player == b


@pytest.mark.parametrize("position,start,dice,cost", [(5, 2, (1, 2), 200), (12, 9, (1, 2), 150)])
def test_buy_railway_and_utility(position: int, start: int, dice: tuple[int, int],
                                 cost: int) -> None:
    game = new_game()
    a, _ = seats(game)
    game.testing.place(a, start)
    roll(game, *dice)
    act(game, "buy", a)
    assert game.owner(position) == a
    assert game.players[a].cash == START_MONEY - cost


def test_refused_purchase_is_not_auctioned() -> None:
    game = new_game()
    a, b = seats(game)
    roll(game, 1, 2)
    events = act(game, "decline", a)
    assert not [k for k in kinds(events) if k.startswith("auction") or k == "bid"]
    assert game.owner(3) is None
    assert [p.cash for p in game.players] == [START_MONEY, START_MONEY]
    assert game.decision.kind == "turn" and game.decision.player == b


def test_cannot_buy_without_enough_money() -> None:
    game = new_game()
    a, _ = seats(game)
    game.testing.set_cash(a, 59)
    roll(game, 1, 2)  # street cost 60
    assert game.owner(3) is None
    assert game.players[a].cash == 59
    assert not (game.decision.player == a and any(x.type == "buy" for x in game.legal_actions()))


def test_no_houses_selling_or_mortgages() -> None:
    game = new_game()
    a, b = seats(game)
    game.testing.give_property(a, 1)
    game.testing.give_property(a, 3)
    assert [x.type for x in game.legal_actions()] == ["roll"]
    roll(game, 1, 2)  # lands on its own street 3: nothing happens, no offer
    assert game.buildings(3) == 0
    assert game.players[a].cash == START_MONEY
    assert game.decision.kind == "turn" and game.decision.player == b


# ---------------------------------------------------------------- rent


def test_street_rent_is_rent0() -> None:
    game = new_game()
    a, b = seats(game)
    game.testing.give_property(b, 3)  # rent0 4, rent1 20: only rent0 counts
    events = roll(game, 1, 2)
    assert money(events, "rent") == [("rent", a, b, 4)]
    assert game.players[a].cash == START_MONEY - 4
    assert game.players[b].cash == START_MONEY + 4


def test_street_rent_doubled_when_owner_has_the_whole_area() -> None:
    game = new_game()
    a, b = seats(game)
    game.testing.give_property(b, 1)
    game.testing.give_property(b, 3)
    events = roll(game, 1, 2)
    assert money(events, "rent") == [("rent", a, b, 8)]
    assert game.players[b].cash == START_MONEY + 8


def test_street_rent_not_doubled_when_the_area_is_split() -> None:
    game = new_game()
    a, b = seats(game)
    game.testing.give_property(b, 37)
    game.testing.give_property(a, 39)
    game.testing.place(a, 35)
    events = roll(game, 1, 1)
    assert money(events, "rent") == [("rent", a, b, 35)]


@pytest.mark.parametrize("count,rent", [(1, 50), (2, 100), (3, 200), (4, 400)])
def test_railway_rent_doubles_per_railway_from_the_file_base_50(count: int, rent: int) -> None:
    game = new_game()
    a, b = seats(game)
    for pos in (5, 15, 25, 35)[:count]:
        game.testing.give_property(b, pos)
    game.testing.place(a, 2)
    events = roll(game, 1, 2)
    assert money(events, "rent") == [("rent", a, b, rent)]
    assert game.players[a].cash == START_MONEY - rent


def test_railway_rent_follows_a_custom_base() -> None:
    board = custom_board("ugentopoly", ('id="tile.railway1" cost="200" rent="50"',
                                        'id="tile.railway1" cost="200" rent="25"'))
    game = new_game(board=board)
    a, b = seats(game)
    game.testing.give_property(b, 5)
    game.testing.give_property(b, 15)
    game.testing.place(a, 2)
    assert money(roll(game, 1, 2), "rent") == [("rent", a, b, 50)]  # 25 * 2


@pytest.mark.parametrize("both,dice,rent", [
    (False, (3, 4), 28), (True, (3, 4), 70), (False, (1, 2), 12), (True, (1, 2), 30),
])
def test_utility_rent_is_4x_or_10x_the_dice(both: bool, dice: tuple[int, int],
                                            rent: int) -> None:
    game = new_game()
    a, b = seats(game)
    game.testing.give_property(b, 12)
    if both:
        game.testing.give_property(b, 28)
    game.testing.place(a, 12 - sum(dice))
    events = roll(game, *dice)
    assert money(events, "rent") == [("rent", a, b, rent)]


def test_jailed_owner_still_collects_rent() -> None:
    game = new_game()
    a, b = seats(game)
    game.testing.give_property(a, 1)
    game.testing.place(a, 27)
    roll(game, 1, 2)  # A lands on GO_TO_JAIL
    assert game.players[a].in_jail
    game.testing.place(b, 38)
    events = roll(game, 1, 2, player=b)  # B passes START onto A's street 1
    assert money(events, "rent") == [("rent", b, a, 2)]
    assert game.players[a].cash == START_MONEY + 2
    assert game.players[b].cash == START_MONEY + SALARY - 2


# ---------------------------------------------------------------- tax, pot, free parking


def test_taxes_go_into_the_pot_and_free_parking_pays_it_all() -> None:
    game = new_game()
    a, b = seats(game)
    game.testing.place(a, 1)
    events = roll(game, 1, 2)  # -> 4, tax 200
    assert money(events, "tax") == [("tax", a, "pot", 200)]
    assert game.pot == 200
    game.testing.place(b, 35)
    roll(game, 1, 2, player=b)  # -> 38, tax 75
    assert game.pot == 275
    assert game.players[b].cash == START_MONEY - 75
    game.testing.place(a, 16)
    events = roll(game, 1, 3, player=a)  # -> 20 FREE_PARKING
    assert money(events, "pot_collected") == [("pot_collected", "pot", a, 275)]
    assert game.pot == 0
    assert game.players[a].cash == START_MONEY - 200 + 275
    game.testing.place(b, 17)
    roll(game, 1, 2, player=b)  # B also lands on FREE_PARKING: the pot is empty
    assert game.players[b].cash == START_MONEY - 75
    assert game.pot == 0


def test_negative_money_cards_go_into_the_pot() -> None:
    game = new_game()
    a, b = seats(game)
    game.testing.place(a, 4)
    game.testing.stack_deck("CHANCE", ["card.chance.07"])  # MONEY -50
    events = roll(game, 1, 2)
    assert money(events, "card_money") == [("card_money", a, "pot", 50)]
    game.testing.place(b, 14)
    game.testing.stack_deck("CHEST", ["card.chest.06"])  # MONEY -10
    roll(game, 1, 2, player=b)
    assert game.pot == 60
    assert game.players[a].cash == START_MONEY - 50
    assert game.players[b].cash == START_MONEY - 10
    game.testing.place(a, 17)
    roll(game, 1, 2, player=a)
    assert game.pot == 0
    assert game.players[a].cash == START_MONEY - 50 + 60


@pytest.mark.parametrize("deck_kind,card,start,amount", [
    ("CHANCE", "card.chance.06", 4, 20), ("CHEST", "card.chest.04", 14, 100),
])
def test_positive_money_card_is_paid_by_the_bank(deck_kind: str, card: str, start: int,
                                                 amount: int) -> None:
    game = new_game()
    a, _ = seats(game)
    game.testing.place(a, start)
    game.testing.stack_deck(deck_kind, [card])
    events = roll(game, 1, 2)
    assert money(events, "card_money") == [("card_money", "bank", a, amount)]
    assert game.players[a].cash == START_MONEY + amount
    assert game.pot == 0


# ---------------------------------------------------------------- cards


def test_decks_are_shuffled_once_at_the_start_by_the_seed() -> None:
    file_order = [f"card.chance.0{k}" for k in range(1, 9)]
    orders = [tuple(deck(new_game(seed=s), "CHANCE")) for s in range(12)]
    assert all(sorted(o) == file_order for o in orders)
    assert len(set(orders)) > 1
    assert orders[3] == tuple(deck(new_game(seed=3), "CHANCE"))


def test_card_drawn_from_the_top_goes_back_at_the_bottom() -> None:
    game = new_game()
    a, _ = seats(game)
    game.testing.stack_deck("CHANCE", ["card.chance.06", "card.chance.08"])
    before = deck(game, "CHANCE")
    game.testing.place(a, 4)
    events = roll(game, 1, 2)
    assert [e.data["card"] for e in events if e.kind == "card_drawn"] == ["card.chance.06"]
    assert deck(game, "CHANCE") == before[1:] + ["card.chance.06"]


def test_move_card_collecting_passes_start_pays_salary_then_tile_action() -> None:
    game = new_game()
    a, _ = seats(game)
    game.testing.place(a, 33)
    game.testing.stack_deck("CHANCE", ["card.chance.04"])  # MOVE 31 collect
    events = roll(game, 1, 2)  # -> 36 Chance
    assert money(events, "salary") == [("salary", "bank", a, SALARY)]
    assert game.players[a].position == 31
    assert game.decision.kind == "buy" and game.decision.data["position"] == 31
    act(game, "buy", a)
    assert game.owner(31) == a
    assert game.players[a].cash == START_MONEY + SALARY - 300


def test_move_card_not_passing_start_pays_nothing() -> None:
    game = new_game()
    a, b = seats(game)
    game.testing.give_property(b, 19)
    game.testing.place(a, 4)
    game.testing.stack_deck("CHANCE", ["card.chance.03"])  # MOVE 19 collect
    events = roll(game, 1, 2)  # -> 7 Chance -> 19, B's street: rent 16
    assert money(events, "salary") == []
    assert money(events, "rent") == [("rent", a, b, 16)]
    assert game.players[a].position == 19


def test_move_card_collect_false_passing_start_pays_nothing() -> None:
    game = new_game()
    a, b = seats(game)
    game.testing.place(a, 33)
    game.testing.stack_deck("CHANCE", ["card.chance.02"])  # MOVE 10 collect=false
    events = roll(game, 1, 2)  # -> 36 Chance -> 10 (past START)
    assert money(events, "salary") == []
    assert game.players[a].cash == START_MONEY
    assert game.players[a].position == 10
    assert not game.players[a].in_jail  # a MOVE onto the JAIL tile is a visit
    assert game.decision.player == b
    idle_turn(game, b)
    roll(game, 1, 2, player=a)  # A is visiting: a non-double moves them on
    assert game.players[a].position == 13


def test_flag_card_move_to_jail_tile_jails() -> None:
    game = new_game(card_move_to_jail_tile_jails=True)
    a, b = seats(game)
    game.testing.place(a, 33)
    game.testing.stack_deck("CHANCE", ["card.chance.02"])
    events = roll(game, 1, 2)
    assert money(events) == []
    assert game.players[a].position == 10
    assert game.players[a].in_jail
    assert game.decision.player == b


def test_moverel_back_over_start_never_pays() -> None:
    game = new_game()
    a, _ = seats(game)
    game.testing.place(a, 37)
    game.testing.stack_deck("CHEST", [CHEST_MOVE_BACK])  # MOVEREL -3
    events = roll(game, 2, 3)  # 37 -> 2 (past START: 200) -> back to 39
    assert money(events, "salary") == [("salary", "bank", a, SALARY)]
    assert game.players[a].position == 39
    assert game.players[a].cash == START_MONEY + SALARY
    assert game.decision.kind == "buy" and game.decision.data["position"] == 39


def test_moverel_back_runs_the_tile_action() -> None:
    game = new_game()
    a, _ = seats(game)
    game.testing.place(a, 3)
    game.testing.stack_deck("CHANCE", ["card.chance.05"])  # MOVEREL -3
    events = roll(game, 1, 3)  # -> 7 Chance -> 4 TAX 200
    assert game.players[a].position == 4
    assert money(events, "tax") == [("tax", a, "pot", 200)]
    assert game.pot == 200


def test_players_money_positive_is_received_from_every_other_player() -> None:
    game = new_game(players=["Ann", "Bob", "Cat"])
    a, b, c = seats(game)
    game.testing.place(a, 4)
    game.testing.stack_deck("CHANCE", ["card.chance.08"])  # PLAYERS_MONEY 5
    events = roll(game, 1, 2)
    assert sorted(money(events, "players_money")) == sorted(
        [("players_money", b, a, 5), ("players_money", c, a, 5)])
    assert game.players[a].cash == START_MONEY + 10
    assert game.players[b].cash == game.players[c].cash == START_MONEY - 5


def test_players_money_negative_is_paid_to_every_other_player() -> None:
    board = custom_board("ugentopoly", ('type="PLAYERS_MONEY" amount="5"',
                                        'type="PLAYERS_MONEY" amount="-5"'))
    game = new_game(players=["Ann", "Bob", "Cat"], board=board)
    a, b, c = seats(game)
    game.testing.place(a, 4)
    game.testing.stack_deck("CHANCE", ["card.chance.08"])
    events = roll(game, 1, 2)
    assert sorted(money(events, "players_money")) == sorted(
        [("players_money", a, b, 5), ("players_money", a, c, 5)])
    assert game.players[a].cash == START_MONEY - 10
    assert game.players[b].cash == game.players[c].cash == START_MONEY + 5


def test_jail_card_is_kept_and_leaves_the_deck() -> None:
    game = new_game()
    a, b = seats(game)
    game.testing.place(a, 4)
    game.testing.stack_deck("CHANCE", ["card.chance.01"])
    roll(game, 1, 2)
    assert [c.id for c in game.players[a].jail_cards] == ["card.chance.01"]
    assert "card.chance.01" not in deck(game, "CHANCE")
    assert len(deck(game, "CHANCE")) == 7
    idle_turn(game, b)
    idle_turn(game, a, (1, 2))  # a normal turn, not jailed: the card stays in hand
    assert [c.id for c in game.players[a].jail_cards] == ["card.chance.01"]


@pytest.mark.parametrize("deck_kind,card,start", [
    ("CHANCE", "card.chance.01", 4), ("CHEST", "card.chest.01", 14),
])
def test_jail_card_used_automatically_next_turn_and_goes_back_under_its_deck(
        deck_kind: str, card: str, start: int) -> None:
    game = new_game()
    a, b = seats(game)
    game.testing.place(a, start)
    game.testing.stack_deck(deck_kind, [card])
    roll(game, 1, 2)
    other = "CHEST" if deck_kind == "CHANCE" else "CHANCE"
    other_before = deck(game, other)
    game.testing.place(b, 11)
    roll(game, 1, 1, player=b)  # B -> 13, declines, rolls again -> 16, declines
    act(game, "decline", b)
    roll(game, 1, 2, player=b)
    act(game, "decline", b)
    game.testing.place(a, 27)
    roll(game, 1, 2, player=a)  # A -> GO_TO_JAIL
    assert game.players[a].in_jail and game.players[a].position == 10
    assert game.players[a].jail_cards  # not used while jailing
    roll(game, 1, 2, player=b)
    act(game, "decline", b)
    # A's next turn: the card is used at its start; A is free and rolls normally.
    assert game.decision.player == a
    assert not game.players[a].in_jail
    assert game.players[a].jail_cards == []
    assert deck(game, deck_kind)[-1] == card
    assert len(deck(game, deck_kind)) == len(game.board.decks[deck_kind].cards)
    assert deck(game, other) == other_before
    roll(game, 2, 3, player=a)
    assert game.players[a].position == 15


# ---------------------------------------------------------------- jail


def test_go_to_jail_tile_no_salary_and_no_extra_roll_on_doubles() -> None:
    game = new_game()
    a, b = seats(game)
    game.testing.place(a, 26)
    events = roll(game, 2, 2)  # a double onto GO_TO_JAIL
    assert game.players[a].position == 10
    assert game.players[a].in_jail
    assert money(events) == []
    assert game.players[a].cash == START_MONEY
    assert game.decision.kind == "turn" and game.decision.player == b


def _jail_first_player(game: Game) -> tuple[int, int]:
    a, b = seats(game)
    game.testing.place(a, 27)
    roll(game, 1, 2)
    assert game.players[a].in_jail
    game.testing.place(b, 0)
    return a, b


def _b_turn(game: Game, b: int) -> None:
    game.testing.place(b, 0)
    idle_turn(game, b)  # -> 6, decline


def test_jail_no_fine_possible_only_rolling() -> None:
    game = new_game()
    a, b = _jail_first_player(game)
    _b_turn(game, b)
    assert game.decision.player == a
    assert [x.type for x in game.legal_actions()] == ["roll"]


def test_jail_leave_only_on_doubles_moving_by_that_roll_without_extra_roll() -> None:
    game = new_game()
    a, b = _jail_first_player(game)
    _b_turn(game, b)
    roll(game, 1, 2, player=a)
    assert game.players[a].in_jail and game.players[a].position == 10
    assert game.decision.player == b
    _b_turn(game, b)
    roll(game, 3, 3, player=a)  # doubles: out, moves 6 to 16
    assert not game.players[a].in_jail
    assert game.players[a].position == 16
    assert game.decision.kind == "buy"
    act(game, "decline", a)
    assert game.decision.kind == "turn" and game.decision.player == b  # no extra roll
    assert game.players[a].cash == START_MONEY


def test_jail_tries_are_unlimited_by_default() -> None:
    game = new_game()
    a, b = _jail_first_player(game)
    for _ in range(12):
        _b_turn(game, b)
        roll(game, 1, 2, player=a)
        assert game.players[a].in_jail and game.players[a].position == 10
    assert game.players[a].cash == START_MONEY


def test_flag_max_jail_turns_releases() -> None:
    game = new_game(max_jail_turns=2)
    a, b = _jail_first_player(game)
    _b_turn(game, b)
    roll(game, 1, 2, player=a)
    assert game.players[a].in_jail
    _b_turn(game, b)
    roll(game, 1, 2, player=a)  # the second failed try: released
    if game.decision.player == a:
        act(game, "decline", a)
    assert not game.players[a].in_jail
    _b_turn(game, b)
    before = game.players[a].position
    roll(game, 1, 2, player=a)
    assert game.players[a].position == (before + 3) % 40
    assert not game.players[a].in_jail


def test_three_doubles_go_to_jail_without_moving() -> None:
    game = new_game()
    a, b = seats(game)
    game.testing.place(a, 10)
    roll(game, 1, 1)  # -> 12
    act(game, "decline", a)
    roll(game, 2, 2, player=a)  # -> 16
    act(game, "decline", a)
    events = roll(game, 3, 3, player=a)  # third double: jail, no move to 22
    assert "moved" not in kinds(events)
    assert game.players[a].position == 10
    assert game.players[a].in_jail
    assert money(events) == []
    assert game.decision.player == b


def test_two_doubles_then_a_normal_roll_is_no_jail() -> None:
    game = new_game()
    a, b = seats(game)
    game.testing.place(a, 10)
    roll(game, 1, 1)
    act(game, "decline", a)
    roll(game, 2, 2, player=a)
    act(game, "decline", a)
    roll(game, 1, 2, player=a)  # -> 19
    act(game, "decline", a)
    assert game.players[a].position == 19 and not game.players[a].in_jail
    assert game.decision.player == b


# ---------------------------------------------------------------- the end


def test_cannot_pay_rent_ends_the_game_paying_what_they_have() -> None:
    game = new_game()
    a, b = seats(game)
    game.testing.give_property(b, 39)
    game.testing.set_cash(a, 10)
    game.testing.place(a, 37)
    events = roll(game, 1, 1)  # a double onto B's 39: owes 50, has 10
    assert money(events, "rent") == [("rent", a, b, 10)]
    assert game.players[a].cash == 0
    assert game.players[b].cash == START_MONEY + 10
    assert game.is_over
    assert game.decision.kind == "game_over"
    assert game.winners == [b]
    assert game.ranking == [b, a]
    assert game.money_total() == game.initial_money


def test_cannot_pay_tax_pays_what_they_have_into_the_pot() -> None:
    game = new_game()
    a, b = seats(game)
    game.testing.set_cash(a, 120)
    game.testing.place(a, 1)
    events = roll(game, 1, 2)
    assert money(events, "tax") == [("tax", a, "pot", 120)]
    assert game.pot == 120
    assert game.is_over and game.winners == [b]


def test_cannot_pay_a_card_ends_the_game() -> None:
    game = new_game()
    a, b = seats(game)
    game.testing.set_cash(a, 30)
    game.testing.place(a, 4)
    game.testing.stack_deck("CHANCE", ["card.chance.07"])  # MONEY -50
    roll(game, 1, 2)
    assert game.pot == 30 and game.players[a].cash == 0
    assert game.is_over and game.winners == [b]


def test_other_player_cannot_pay_players_money_ends_the_game() -> None:
    game = new_game(players=["Ann", "Bob", "Cat"])
    a, b, c = seats(game)
    game.testing.set_cash(b, 3)
    game.testing.set_cash(c, 900)
    game.testing.place(a, 4)
    game.testing.stack_deck("CHANCE", ["card.chance.08"])  # everyone pays A 5
    roll(game, 1, 2)
    assert game.is_over
    assert game.players[b].cash == 0
    assert game.winners == [a]  # 1500 + 3 (+5 from Cat if Cat paid first) beats Cat's 900
    assert game.money_total() == game.initial_money


def test_tie_for_most_money_lists_every_tied_player() -> None:
    game = new_game(players=["Ann", "Bob", "Cat"])
    a, b, c = seats(game)
    game.testing.set_cash(a, 50)
    game.testing.place(a, 1)
    roll(game, 1, 2)  # tax 200, has 50
    assert game.is_over
    assert sorted(game.winners) == sorted([b, c])


def test_paying_down_to_exactly_zero_does_not_end_the_game() -> None:
    game = new_game()
    a, b = seats(game)
    game.testing.set_cash(a, 200)
    game.testing.place(a, 1)
    roll(game, 1, 2)
    assert game.players[a].cash == 0
    assert not game.is_over
    assert game.decision.player == b


def test_flag_end_when_money_reaches_zero() -> None:
    game = new_game(end_when_money_reaches_zero=True)
    a, b = seats(game)
    game.testing.set_cash(a, 200)
    game.testing.place(a, 1)
    roll(game, 1, 2)
    assert game.players[a].cash == 0
    assert game.is_over and game.winners == [b]


@pytest.mark.parametrize("rank_by", ["money", "net_worth"])
def test_rank_by_money_or_net_worth(rank_by: str) -> None:
    game = new_game(players=["Ann", "Bob", "Cat"], rank_by=rank_by)
    debtor, owner, rich = seats(game)
    game.testing.give_property(owner, 37)
    game.testing.give_property(owner, 39)  # whole area: rent 100
    game.testing.set_cash(owner, 300)
    game.testing.set_cash(debtor, 50)
    game.testing.set_cash(rich, 600)
    game.testing.place(debtor, 36)
    roll(game, 1, 2)
    assert game.is_over
    assert game.players[owner].cash == 350
    # money: Cat 600 > owner 350; net worth: owner 350 + 350 + 400 = 1100 > 600.
    assert game.winners == ([rich] if rank_by == "money" else [owner])


# ---------------------------------------------------------------- the course board


def test_course_fixture_boards_load_and_play() -> None:
    folder = fixtures_dir()
    board = load_board(folder / "ugentopoly.xml")
    game = Game("ugentopoly", players=["Ann", "Bob"], seed=2, board=board)
    assert [t.rents[0] for t in board.tiles if t.kind.value == "RAILWAY"] == [50, 50, 50, 50]
    a, b = seats(game)
    game.testing.give_property(b, 5)
    game.testing.place(a, 2)
    assert money(roll(game, 1, 2), "rent") == [("rent", a, b, 50)]
    part1 = load_board(folder / "ugentopoly.deel1.xml")
    assert all(not d.cards for d in part1.decks.values())
    Game("ugentopoly", players=["Ann", "Bob"], seed=2, board=part1)
