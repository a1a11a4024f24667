"""Classic rules (RULES.md §2): setup, buying, auctions, rent, cards that move to the nearest."""

from __future__ import annotations

import pytest
from classic_helpers import (
    BROWN,
    RAILROADS,
    UTILITIES,
    assert_refused,
    cash,
    check_books,
    do,
    end_turn,
    give,
    idle_turn,
    new_game,
    of_kind,
    roll,
    seats,
)

from ugentopoly_widget import Game, SetupError
from ugentopoly_widget.engine import actions as A

# ---------------------------------------------------------------- setup


@pytest.mark.parametrize("n", [2, 8])
def test_two_to_eight_players_start_with_1500(n: int) -> None:
    game = new_game(n)
    assert cash(game) == [1500] * n
    assert game.initial_money == 1500 * n
    assert game.houses_left == 32 and game.hotels_left == 12
    assert game.pot == 0


@pytest.mark.parametrize("n", [1, 9])
def test_fewer_than_two_or_more_than_eight_players_refused(n: int) -> None:
    with pytest.raises(SetupError):
        Game("classic", players=[f"P{k}" for k in range(n)], seed=1)


def test_starting_money_chosen_in_setup() -> None:
    game = new_game(3, starting_money=2000)
    assert cash(game) == [2000, 2000, 2000]
    check_books(game)


def test_salary_200_for_passing_go() -> None:
    game = new_game()
    a, b, c = seats(game)
    game.testing.place(a, 36)
    events = roll(game, (1, 3))  # 36 + 4 = 40: lands on GO
    assert game.players[a].position == 0
    assert game.players[a].cash == 1700
    assert [e.data["amount"] for e in of_kind(events, "salary")] == [200]


def test_salary_200_for_passing_go_without_landing() -> None:
    game = new_game()
    a, b, c = seats(game)
    game.testing.place(a, 38)
    give(game, a, 1)  # own lot: landing has no effect
    events = roll(game, (1, 2))  # 38 -> 1
    assert game.players[a].position == 1
    assert game.players[a].cash == 1700
    assert of_kind(events, "salary")[0].data == {
        "payer": "bank", "payee": a, "amount": 200, "landed": False}


# ---------------------------------------------------------------- buying and auctions


def test_buy_unowned_property_at_its_price() -> None:
    game = new_game()
    a, b, c = seats(game)
    game.testing.place(a, 0)
    roll(game, (1, 2))  # Baltic Avenue
    assert game.decision.kind == "buy" and game.decision.player == a
    assert game.decision.data["price"] == 60
    bank = game.bank_balance
    events = do(game, A.Buy(a))
    assert game.owner(3) == a
    assert cash(game)[a] == 1440
    assert game.bank_balance == bank + 60
    bought = of_kind(events, "bought")[0]
    assert (bought.data["payer"], bought.data["payee"], bought.data["amount"]) == (a, "bank", 60)
    assert game.decision.kind == "post_roll"


def _decline_baltic(game: Game) -> tuple[int, int, int]:
    a, b, c = seats(game)
    game.testing.place(a, 0)
    roll(game, (1, 2))
    do(game, A.Decline(a))
    return a, b, c


def test_decline_starts_auction_in_seat_order_after_decliner_decliner_included() -> None:
    game = new_game()
    a, b, c = _decline_baltic(game)
    started = of_kind(game.events, "auction_started")[-1]
    assert started.data["position"] == 3
    assert started.data["bidders"] == [b, c, a]
    assert game.decision.kind == "auction"
    assert game.decision.player == b
    assert game.decision.data["min_bid"] == 1
    do(game, A.Bid(b, 10))
    assert game.decision.player == c and game.decision.data["min_bid"] == 11
    assert game.decision.data["high_bid"] == 10 and game.decision.data["leader"] == b
    do(game, A.Bid(c, 20))
    assert game.decision.player == a  # the decliner may bid too
    do(game, A.Bid(a, 30))
    assert game.decision.player == b
    do(game, A.Pass(b))
    assert game.decision.player == c
    do(game, A.Pass(c))
    # one bidder left: the auction is over, the decliner won
    assert game.owner(3) == a
    assert cash(game) == [1500 - 30 if k == a else 1500 for k in range(3)]
    won = of_kind(game.events, "auction_won")[-1]
    assert (won.player, won.data["payee"], won.data["amount"]) == (a, "bank", 30)
    assert game.decision.kind == "post_roll" and game.decision.player == a


def test_auction_in_four_player_game_starts_after_decliner() -> None:
    game = new_game(4, seed=5)
    a, b, c, d = seats(game)
    game.testing.place(a, 0)
    roll(game, (1, 2))
    do(game, A.Decline(a))
    order = []
    while game.decision.kind == "auction":
        order.append(game.decision.player)
        do(game, A.Pass(game.decision.player))
    assert order == [b, c, d, a]


def test_auction_bid_must_be_above_current_bid_and_not_above_cash() -> None:
    game = new_game()
    a, b, c = _decline_baltic(game)
    assert_refused(game, A.Bid(b, 0))  # a bid is at least 1
    do(game, A.Bid(b, 10))
    assert_refused(game, A.Bid(c, 10))  # not above the current bid
    assert_refused(game, A.Bid(c, 5))
    assert_refused(game, A.Bid(c, 1501))  # above c's cash
    do(game, A.Bid(c, 1500))  # all of c's cash is allowed
    # a and b cannot top 1500 with 1500 in cash: they are out, the auction is over
    assert game.decision.kind == "post_roll"
    assert game.owner(3) == c
    assert cash(game)[c] == 0


def test_auction_bid_above_cash_refused_when_cash_is_low() -> None:
    game = new_game()
    a, b, c = seats(game)
    game.testing.set_cash(b, 50)
    game.testing.place(a, 0)
    roll(game, (1, 2))
    do(game, A.Decline(a))
    assert game.decision.player == b
    assert_refused(game, A.Bid(b, 51))
    do(game, A.Bid(b, 50))
    do(game, A.Pass(c))
    do(game, A.Pass(a))
    assert game.owner(3) == b and cash(game)[b] == 0


def test_auction_pass_means_out_and_ends_when_one_bidder_left() -> None:
    game = new_game()
    a, b, c = _decline_baltic(game)
    do(game, A.Bid(b, 5))
    do(game, A.Pass(c))
    assert game.decision.player == a
    do(game, A.Pass(a))
    # c and a are out, b is the only bidder left: sold at b's bid, nobody asked again
    assert game.decision.kind == "post_roll"
    assert game.owner(3) == b
    assert cash(game)[b] == 1495
    assert len(of_kind(game.events, "bid")) == 1


def test_auction_passed_bidder_is_never_asked_again() -> None:
    game = new_game()
    a, b, c = _decline_baltic(game)
    do(game, A.Pass(b))
    do(game, A.Bid(c, 7))
    assert game.decision.player == a
    do(game, A.Bid(a, 8))
    assert game.decision.player == c  # b passed: out
    do(game, A.Bid(c, 9))
    assert game.decision.player == a
    do(game, A.Pass(a))
    assert game.owner(3) == c and cash(game)[c] == 1491


def test_auction_nobody_bids_bank_keeps_it() -> None:
    game = new_game()
    a, b, c = _decline_baltic(game)
    for p in (b, c, a):
        assert game.decision.kind == "auction" and game.decision.player == p
        do(game, A.Pass(p))
    assert game.owner(3) is None
    assert cash(game) == [1500, 1500, 1500]
    assert of_kind(game.events, "auction_unsold")
    assert game.decision.kind == "post_roll"


# ---------------------------------------------------------------- rent


def _land(game: Game, start: int, dice: tuple[int, int]) -> int:
    a = game.current_player
    game.testing.place(a, start)
    roll(game, dice)
    return a


def test_street_rent0() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, b, 3)
    _land(game, 0, (1, 2))
    assert cash(game)[a] == 1496 and cash(game)[b] == 1504
    rent = of_kind(game.events, "rent")[-1]
    assert (rent.data["payer"], rent.data["payee"], rent.data["amount"]) == (a, b, 4)


def test_street_rent_doubled_for_whole_unbuilt_group() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, b, *BROWN)
    _land(game, 0, (1, 2))
    assert cash(game)[a] == 1492 and cash(game)[b] == 1508


def test_group_split_between_owners_is_not_doubled() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, b, 3)
    give(game, c, 1)
    _land(game, 0, (1, 2))
    assert cash(game)[a] == 1496 and cash(game)[b] == 1504


def test_mortgaged_lot_in_group_does_not_cancel_doubling() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, *BROWN)
    do(game, A.Mortgage(a, 1))
    assert cash(game)[a] == 1530
    idle_turn(game)
    assert game.current_player == b
    _land(game, 0, (1, 2))  # b lands on Baltic (3)
    assert cash(game)[b] == 1492
    assert cash(game)[a] == 1538


def test_no_rent_on_mortgaged_property() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, *BROWN)
    do(game, A.Mortgage(a, 3))
    idle_turn(game)
    _land(game, 0, (1, 2))  # b on mortgaged Baltic
    assert cash(game)[b] == 1500
    assert cash(game)[a] == 1530
    assert not of_kind(game.events, "rent")
    assert game.decision.kind == "post_roll"


@pytest.mark.parametrize(("level", "rent"), [(1, 20), (2, 60), (3, 180), (4, 320), (5, 450)])
def test_street_rent_with_houses_and_hotel(level: int, rent: int) -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, *BROWN)
    for lv in range(1, level + 1):
        if lv <= 4:
            do(game, A.Build(a, 1))
        do(game, A.Build(a, 3))
    assert game.buildings(3) == level
    paid = cash(game)[a]
    idle_turn(game)
    _land(game, 0, (1, 2))  # b lands on Baltic
    assert cash(game)[b] == 1500 - rent
    assert cash(game)[a] == paid + rent


def test_hotel_rent_on_boardwalk_is_2000() -> None:
    game = new_game()
    a, b, c = seats(game)
    game.testing.set_cash(a, 5000)
    give(game, a, 37, 39)
    for _ in range(4):
        do(game, A.Build(a, 37))
        do(game, A.Build(a, 39))
    do(game, A.Build(a, 39))
    assert game.buildings(39) == game.hotel_level == 5
    idle_turn(game)
    game.testing.set_cash(b, 3000)
    _land(game, 30 + 1, (4, 4))  # 31 -> 39, doubles: roll again afterwards
    assert cash(game)[b] == 1000
    assert game.decision.kind == "turn" and game.decision.player == b


@pytest.mark.parametrize(("owned", "rent"), [(1, 25), (2, 50), (3, 100), (4, 200)])
def test_railroad_rent_by_number_owned(owned: int, rent: int) -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, b, *((5,) + tuple(r for r in RAILROADS if r != 5))[:owned])
    _land(game, 0, (2, 3))
    assert game.players[a].position == 5
    assert cash(game)[a] == 1500 - rent and cash(game)[b] == 1500 + rent


@pytest.mark.parametrize(("owned", "mult"), [(1, 4), (2, 10)])
def test_utility_rent_is_4x_or_10x_the_dice(owned: int, mult: int) -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, b, *UTILITIES[:owned])
    _land(game, 3, (4, 5))  # 3 + 9 = 12, Electric Company
    assert cash(game)[a] == 1500 - 9 * mult and cash(game)[b] == 1500 + 9 * mult


def test_utility_rent_split_owners_is_4x() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, b, 12)
    give(game, c, 28)
    _land(game, 22, (2, 4))  # 22 + 6 = 28, Water Works
    assert cash(game)[a] == 1476 and cash(game)[c] == 1524 and cash(game)[b] == 1500


# ---------------------------------------------------------------- Chance: nearest


@pytest.mark.parametrize("card", ["card.chance.04", "card.chance.05"])
def test_chance_nearest_railroad_pays_twice_the_rent(card: str) -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, b, 15, 25)  # two railroads: rent 50, twice = 100
    game.testing.stack_deck("CHANCE", [card])
    _land(game, 0, (3, 4))  # Chance at 7 -> nearest railroad is 15
    assert game.players[a].position == 15
    assert cash(game)[a] == 1400 and cash(game)[b] == 1600


def test_chance_nearest_railroad_single_owned_pays_50() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, b, 25)
    game.testing.stack_deck("CHANCE", ["card.chance.04"])
    _land(game, 20, (1, 1))  # Chance at 22 -> 25; doubles, so a rolls again afterwards
    assert game.players[a].position == 25
    assert cash(game)[a] == 1450 and cash(game)[b] == 1550


def test_chance_nearest_railroad_past_go_collects_salary() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, b, 5)
    game.testing.stack_deck("CHANCE", ["card.chance.04"])
    _land(game, 30 + 1, (2, 3))  # Chance at 36 -> Reading Railroad (5), passing GO
    assert game.players[a].position == 5
    assert cash(game)[a] == 1500 + 200 - 50 and cash(game)[b] == 1550


def test_chance_nearest_railroad_unowned_may_buy() -> None:
    game = new_game()
    a, b, c = seats(game)
    game.testing.stack_deck("CHANCE", ["card.chance.05"])
    _land(game, 0, (3, 4))
    assert game.players[a].position == 15
    assert game.decision.kind == "buy" and game.decision.player == a
    assert game.decision.data["price"] == 200
    do(game, A.Buy(a))
    assert game.owner(15) == a and cash(game)[a] == 1300


def test_chance_nearest_utility_rolls_again_and_pays_ten_times() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, b, 12)  # only one utility: ordinary rent would be 4x
    game.testing.stack_deck("CHANCE", ["card.chance.03"])
    game.testing.place(a, 0)
    roll(game, (3, 4), (2, 3))  # the move roll, then the re-roll for the card
    assert game.players[a].position == 12
    assert cash(game)[a] == 1450 and cash(game)[b] == 1550
    rolls = of_kind(game.events, "rolled")
    assert [r.data["total"] for r in rolls[-2:]] == [7, 5]
    assert game.decision.kind == "post_roll"  # the re-roll is no turn roll (not doubles)


def test_chance_nearest_utility_unowned_may_buy() -> None:
    game = new_game()
    a, b, c = seats(game)
    game.testing.stack_deck("CHANCE", ["card.chance.03"])
    _land(game, 20, (1, 1))  # Chance 22 -> Water Works 28
    assert game.players[a].position == 28
    assert game.decision.kind == "buy" and game.decision.data["price"] == 150
    do(game, A.Decline(a))
    assert game.decision.kind == "auction"


def test_rent_goes_to_owner_in_jail() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, 3)
    game.testing.send_to_jail(a)
    roll(game, (1, 2))  # fails to leave
    assert game.players[a].in_jail
    end_turn(game)
    _land(game, 0, (1, 2))  # b lands on Baltic, owner a is in jail
    assert cash(game)[b] == 1496 and cash(game)[a] == 1504


def test_next_player_after_end_turn_in_seat_order() -> None:
    game = new_game()
    a, b, c = seats(game)
    idle_turn(game)
    assert game.current_player == b
    idle_turn(game)
    assert game.current_player == c
    idle_turn(game)
    assert game.current_player == a


def test_mortgage_to_afford_an_unowned_property() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, 39)
    game.testing.set_cash(a, 50)
    game.testing.place(a, 0)
    roll(game, (1, 2))
    assert game.decision.kind == "buy" and A.Buy(a) not in game.legal_actions()
    do(game, A.Mortgage(a, 39))
    assert game.decision.kind == "buy"
    do(game, A.Buy(a))
    assert game.owner(3) == a and cash(game)[a] == 50 + 200 - 60


def test_chance_nearest_railroad_mortgaged_no_rent() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, c, 15)
    idle_turn(game)
    idle_turn(game)
    do(game, A.Mortgage(c, 15))
    idle_turn(game)
    assert game.current_player == a
    game.testing.stack_deck("CHANCE", ["card.chance.04"])
    _land(game, 0, (3, 4))
    assert game.players[a].position == 15
    assert cash(game)[a] == 1500 and cash(game)[c] == 1600
    assert game.decision.kind == "post_roll"
