"""Classic rules (RULES.md §2): buildings, bank stock, housing shortage, mortgages."""

from __future__ import annotations

import pytest
from classic_helpers import (
    BROWN,
    DARKBLUE,
    GROUPS,
    LIGHTBLUE,
    ORANGE,
    PINK,
    RED,
    assert_refused,
    build_evenly,
    cash,
    do,
    end_turn,
    give,
    idle_turn,
    new_game,
    of_kind,
    roll,
    seats,
)

from ugentopoly_widget.engine import actions as A

# ---------------------------------------------------------------- building


def test_building_needs_the_whole_group() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, 1)
    assert A.Build(a, 1) not in game.legal_actions()
    assert_refused(game, A.Build(a, 1))
    give(game, b, 3)
    assert_refused(game, A.Build(a, 1))
    give(game, a, 3)
    do(game, A.Build(a, 1))
    assert game.buildings(1) == 1
    assert cash(game)[a] == 1450
    assert game.houses_left == 31


def test_no_building_while_a_lot_of_the_group_is_mortgaged() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, *BROWN)
    do(game, A.Mortgage(a, 1))
    assert_refused(game, A.Build(a, 1))
    assert_refused(game, A.Build(a, 3))
    do(game, A.Unmortgage(a, 1))
    do(game, A.Build(a, 3))
    assert game.buildings(3) == 1


def test_build_evenly() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, *LIGHTBLUE)
    do(game, A.Build(a, 6))
    assert_refused(game, A.Build(a, 6))  # 8 and 9 have no house yet
    do(game, A.Build(a, 8))
    assert_refused(game, A.Build(a, 8))
    do(game, A.Build(a, 9))
    do(game, A.Build(a, 8))  # every lot has 1: a second house anywhere
    assert_refused(game, A.Build(a, 8))
    assert [game.buildings(p) for p in LIGHTBLUE] == [1, 2, 1]
    assert cash(game)[a] == 1500 - 4 * 50
    assert game.houses_left == 28


def test_four_houses_then_hotel_houses_back_to_bank() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, *BROWN)
    build_evenly(game, a, BROWN, 4)
    assert game.houses_left == 24 and game.hotels_left == 12
    events = do(game, A.Build(a, 1))
    assert game.buildings(1) == game.hotel_level == 5
    assert game.houses_left == 28  # the 4 houses of lot 1 went back to the bank
    assert game.hotels_left == 11
    assert cash(game)[a] == 1500 - 9 * 50
    assert of_kind(events, "built")[0].data["amount"] == 50
    do(game, A.Build(a, 3))
    assert game.houses_left == 32 and game.hotels_left == 10
    assert_refused(game, A.Build(a, 3))  # nothing above a hotel
    assert cash(game)[a] == 1500 - 10 * 50


def test_bank_has_32_houses() -> None:
    game = new_game()
    a, b, c = seats(game)
    game.testing.set_cash(a, 100_000)
    give(game, a, *PINK, *ORANGE, *RED)
    build_evenly(game, a, PINK, 4)
    build_evenly(game, a, ORANGE, 4)
    build_evenly(game, a, RED, 2)
    build_evenly(game, a, RED[:2], 3)
    assert game.houses_left == 0
    assert_refused(game, A.Build(a, 24))  # no house left in the bank
    # a hotel still can be built (and gives 4 houses back)
    do(game, A.Build(a, 11))
    assert game.houses_left == 4 and game.hotels_left == 11


def test_bank_has_12_hotels() -> None:
    game = new_game()
    a, b, c = seats(game)
    game.testing.set_cash(a, 1_000_000)
    give(game, a, *[pos for lots in GROUPS.values() for pos in lots])
    hotels = 0
    for lots in GROUPS.values():
        build_evenly(game, a, lots, 4)
        for pos in lots:
            if game.hotels_left == 0:
                break
            do(game, A.Build(a, pos))
            hotels += 1
        if game.hotels_left == 0:
            break
    assert hotels == 12
    # 12 hotels: brown 2 + light blue 3 + pink 3 + orange 3 + one red lot
    assert game.buildings(21) == 5 and game.buildings(23) == 4
    assert_refused(game, A.Build(a, 23))


def test_building_only_in_own_turn() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, b, *BROWN)
    assert_refused(game, A.Build(b, 1))
    idle_turn(game)
    do(game, A.Build(b, 1))
    assert game.buildings(1) == 1


def test_building_before_rolling_and_before_ending() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, *BROWN)
    assert game.decision.kind == "turn"
    do(game, A.Build(a, 1))
    game.testing.place(a, 0)
    roll(game, (4, 6))
    assert game.decision.kind == "post_roll"
    do(game, A.Build(a, 3))
    assert [game.buildings(p) for p in BROWN] == [1, 1]
    end_turn(game)
    assert game.current_player == b


def test_no_building_while_deciding_to_buy() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, *LIGHTBLUE)
    game.testing.place(a, 0)
    roll(game, (1, 2))
    assert game.decision.kind == "buy"
    assert_refused(game, A.Build(a, 6))


def test_building_while_in_jail() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, *BROWN)
    game.testing.send_to_jail(a)
    assert game.decision.kind == "turn" and game.players[a].in_jail
    do(game, A.Build(a, 1))
    do(game, A.Build(a, 3))
    do(game, A.Sell(a, 3))
    assert [game.buildings(p) for p in BROWN] == [1, 0]
    assert cash(game)[a] == 1500 - 100 + 25
    roll(game, (1, 2))
    assert game.players[a].in_jail
    do(game, A.Build(a, 3))  # after the failed roll too
    assert game.buildings(3) == 1


def test_selling_returns_half_price_evenly() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, *PINK)
    build_evenly(game, a, PINK, 2)
    assert cash(game)[a] == 1500 - 600
    assert game.houses_left == 26
    events = do(game, A.Sell(a, 11))
    assert of_kind(events, "sold_building")[0].data["amount"] == 50
    assert cash(game)[a] == 950
    assert game.houses_left == 27
    assert_refused(game, A.Sell(a, 11))  # 13 and 14 still have 2: sell evenly
    do(game, A.Sell(a, 13))
    do(game, A.Sell(a, 14))
    do(game, A.Sell(a, 11))
    assert [game.buildings(p) for p in PINK] == [0, 1, 1]
    assert cash(game)[a] == 1100
    assert game.houses_left == 30


def test_selling_a_hotel_gives_four_houses_back_from_the_bank() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, *BROWN)
    build_evenly(game, a, BROWN, 5)
    assert game.houses_left == 32 and game.hotels_left == 10
    do(game, A.Sell(a, 1))
    assert game.buildings(1) == 4
    assert game.houses_left == 28 and game.hotels_left == 11
    assert cash(game)[a] == 1500 - 500 + 25
    assert_refused(game, A.Sell(a, 1))  # 3 still has its hotel: sell evenly


# ---------------------------------------------------------------- shortages


def _use_up_houses(game, player: int, leave: int) -> None:
    """`player` builds on pink, orange and red until the bank has `leave` houses."""
    game.testing.set_cash(player, 100_000)
    give(game, player, *PINK, *ORANGE, *RED)
    lots = PINK + ORANGE + RED
    level = 1
    while game.houses_left > leave:
        for pos in lots:
            if game.houses_left == leave:
                break
            if game.buildings(pos) < level:
                do(game, A.Build(player, pos))
        level += 1


def test_housing_shortage_auctions_the_house_among_eligible_players() -> None:
    game = new_game()
    a, b, c = seats(game)
    _use_up_houses(game, a, 1)
    assert game.houses_left == 1
    give(game, b, *BROWN)  # b could build too; c could not
    a_cash = cash(game)[a]
    target = next(pos for pos in RED if game.buildings(pos) < 4 and
                  A.Build(a, pos) in game.legal_actions())
    do(game, A.Build(a, target))
    assert game.decision.kind == "auction"
    started = of_kind(game.events, "auction_started")[-1]
    assert sorted(started.data["bidders"]) == sorted([a, b])
    assert c not in started.data["bidders"]
    assert game.decision.data["min_bid"] == 150  # the house price
    first = game.decision.player
    assert_refused(game, A.Bid(first, 149))
    other = b if first == a else a
    do(game, A.Bid(first, 150))
    do(game, A.Bid(other, 200))
    do(game, A.Pass(first))
    if other == b:
        assert game.decision.kind == "place_house" and game.decision.player == b
        assert sorted(game.decision.data["positions"]) == [1, 3]
        do(game, A.PlaceHouse(b, 3))
        assert game.houses_left == 0
        assert game.buildings(1) + game.buildings(3) == 1
        assert cash(game)[b] == 1300
        assert cash(game)[a] == a_cash
    else:
        assert game.houses_left == 0
        assert game.buildings(target) >= 1
        assert cash(game)[a] == a_cash - 200
        assert cash(game)[b] == 1500


def test_no_shortage_auction_when_enough_houses() -> None:
    game = new_game()
    a, b, c = seats(game)
    _use_up_houses(game, a, 2)
    give(game, b, *BROWN)
    target = next(pos for pos in RED if A.Build(a, pos) in game.legal_actions())
    do(game, A.Build(a, target))
    assert game.decision.kind == "turn"
    assert game.houses_left == 1


def test_hotel_cannot_be_broken_into_houses_the_bank_does_not_have() -> None:
    game = new_game()
    a, b, c = seats(game)
    game.testing.set_cash(a, 100_000)
    give(game, a, *BROWN, *LIGHTBLUE, *PINK, *ORANGE)
    build_evenly(game, a, BROWN, 5)
    build_evenly(game, a, LIGHTBLUE, 4)
    build_evenly(game, a, PINK, 4)
    build_evenly(game, a, ORANGE, 2)
    assert game.houses_left == 2 and game.hotels_left == 10
    before = cash(game)[a]
    assert_refused(game, A.Sell(a, 1))  # would need 4 houses, the bank has 2
    assert_refused(game, A.SellDown(a, "brown", 2))  # 2 + 2 houses: still too many
    assert_refused(game, A.SellDown(a, "brown", 4))
    assert A.SellDown(a, "brown", 1) in game.legal_actions()
    do(game, A.SellDown(a, "brown", 1))
    assert [game.buildings(p) for p in BROWN] == [1, 1]
    assert game.houses_left == 0 and game.hotels_left == 12
    assert cash(game)[a] == before + 2 * 4 * 25


def test_sell_down_to_nothing_with_no_houses_in_bank() -> None:
    game = new_game()
    a, b, c = seats(game)
    game.testing.set_cash(a, 100_000)
    give(game, a, *DARKBLUE, *PINK, *ORANGE, *RED)
    build_evenly(game, a, DARKBLUE, 5)
    _use_up_houses(game, a, 0)
    before = cash(game)[a]
    assert_refused(game, A.Sell(a, 39))
    game.apply(f"{a}:sell_down darkblue 0")  # the text form
    assert [game.buildings(p) for p in DARKBLUE] == [0, 0]
    assert game.houses_left == 0 and game.hotels_left == 12
    assert cash(game)[a] == before + 2 * 5 * 100


# ---------------------------------------------------------------- mortgages


@pytest.mark.parametrize(("pos", "value", "lift"), [
    (39, 200, 220), (1, 30, 33), (37, 175, 193), (11, 70, 77), (5, 100, 110), (12, 75, 83),
])
def test_mortgage_half_price_lift_value_plus_ten_percent_rounded_up(
        pos: int, value: int, lift: int) -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, pos)
    bank = game.bank_balance
    events = do(game, A.Mortgage(a, pos))
    assert game.is_mortgaged(pos)
    assert cash(game)[a] == 1500 + value
    assert game.bank_balance == bank - value
    assert of_kind(events, "mortgaged")[0].data["amount"] == value
    assert_refused(game, A.Mortgage(a, pos))
    events = do(game, A.Unmortgage(a, pos))
    assert not game.is_mortgaged(pos)
    assert cash(game)[a] == 1500 + value - lift
    assert of_kind(events, "unmortgaged")[0].data["amount"] == lift


def test_no_mortgage_with_buildings_in_the_group() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, *LIGHTBLUE)
    do(game, A.Build(a, 6))
    assert_refused(game, A.Mortgage(a, 8))  # no house on 8, but one in its group
    assert_refused(game, A.Mortgage(a, 6))
    do(game, A.Sell(a, 6))
    do(game, A.Mortgage(a, 8))
    assert game.is_mortgaged(8)
    assert cash(game)[a] == 1500 - 50 + 25 + 50


def test_unmortgage_needs_the_cash() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, 39)
    do(game, A.Mortgage(a, 39))
    game.testing.set_cash(a, 219)
    assert_refused(game, A.Unmortgage(a, 39))
    game.testing.set_cash(a, 220)
    do(game, A.Unmortgage(a, 39))
    assert cash(game)[a] == 0


def test_mortgage_in_jail_and_not_in_someone_elses_turn() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, 39)
    give(game, b, 37)
    assert_refused(game, A.Mortgage(b, 37))
    game.testing.send_to_jail(a)
    do(game, A.Mortgage(a, 39))
    assert cash(game)[a] == 1700


def test_hotel_needs_four_houses_on_every_lot() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, *BROWN)
    build_evenly(game, a, BROWN, 3)
    do(game, A.Build(a, 1))
    assert game.buildings(1) == 4
    assert_refused(game, A.Build(a, 1))  # 3 has only 3 houses
    do(game, A.Build(a, 3))
    do(game, A.Build(a, 1))
    assert game.buildings(1) == 5


def test_housing_shortage_requester_wins_pays_only_the_bid() -> None:
    game = new_game()
    a, b, c = seats(game)
    _use_up_houses(game, a, 1)
    give(game, b, *BROWN)
    a_cash = cash(game)[a]
    target = next(pos for pos in RED if A.Build(a, pos) in game.legal_actions())
    level = game.buildings(target)
    do(game, A.Build(a, target))
    assert game.decision.kind == "auction"
    while game.decision.kind == "auction":
        p = game.decision.player
        do(game, A.Bid(p, 160) if p == a else A.Pass(p))
    assert game.buildings(target) == level + 1
    assert game.houses_left == 0
    assert cash(game)[a] == a_cash - 160
    assert cash(game)[b] == 1500
    assert game.decision.kind == "turn" and game.decision.player == a
