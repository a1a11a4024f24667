"""Classic rules (RULES.md §2): short and timed games, the turn timer."""

from __future__ import annotations

import pytest
from classic_helpers import (
    BROWN,
    PRICE,
    FakeClock,
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
    valuation,
)

from ugentopoly_widget.engine import actions as A
from ugentopoly_widget.engine.actions import TradeSide


def _go_bankrupt_to_bank(game) -> None:
    """The current player gives all deeds to the next player, has 10 and lands on Luxury Tax."""
    p = game.current_player
    heir = seats(game)[1]
    for pos in game.properties_of(p):
        game.testing.give_property(heir, pos)
    game.testing.set_cash(p, 10)
    game.testing.place(p, 35)
    roll(game, (1, 2))
    assert game.decision.kind == "debt"
    do(game, A.DeclareBankruptcy(p))
    assert game.players[p].bankrupt


# ---------------------------------------------------------------- short game


def test_short_mode_deals_three_deeds_each_and_charges_their_price() -> None:
    game = new_game(4, mode="short")
    dealt = of_kind(game.events, "deed_dealt")
    assert len(dealt) == 12
    owned = set()
    for p in range(4):
        props = game.properties_of(p)
        assert len(props) == 3
        owned |= set(props)
        assert cash(game)[p] == 1500 - sum(PRICE[pos] for pos in props)
        assert sorted(e.data["position"] for e in dealt if e.player == p) == sorted(props)
    assert len(owned) == 12
    check_books(game)


def test_short_mode_three_houses_before_hotel() -> None:
    game = new_game(3, mode="short")
    a, b, c = seats(game)
    give(game, a, *BROWN)
    game.testing.set_cash(a, 1000)
    for _ in range(3):
        do(game, A.Build(a, 1))
        do(game, A.Build(a, 3))
    assert game.houses_left == 26
    do(game, A.Build(a, 3))
    assert game.buildings(3) == game.hotel_level == 4
    assert game.houses_left == 29 and game.hotels_left == 11
    assert cash(game)[a] == 1000 - 7 * 50
    assert not game.is_legal(A.Build(a, 3))
    # the hotel takes the hotel rent
    idle_turn(game)
    game.testing.set_cash(b, 1000)
    game.testing.place(b, 0)
    roll(game, (1, 2))
    assert cash(game)[b] == 1000 - 450


def test_short_mode_two_players_first_bankruptcy_ends_the_game() -> None:
    game = new_game(2, mode="short")
    a, b = seats(game)
    _go_bankrupt_to_bank(game)
    assert game.is_over
    assert game.winners == [b]
    assert game.ranking == [b, a]


def test_short_mode_three_players_first_bankruptcy_does_not_end() -> None:
    game = new_game(3, mode="short")
    a, b, c = seats(game)
    _go_bankrupt_to_bank(game)
    assert not game.is_over
    assert game.current_player == b


def _go_bankrupt_mortgaging_all(game) -> None:
    """The current player mortgages every deed, keeps 10 and goes bankrupt on Luxury Tax."""
    p = game.current_player
    for pos in game.properties_of(p):
        do(game, A.Mortgage(p, pos))
    game.testing.set_cash(p, 10)
    game.testing.place(p, 35)
    roll(game, (1, 2))
    assert game.decision.kind == "debt"
    do(game, A.DeclareBankruptcy(p))
    while game.decision.kind == "auction":
        do(game, A.Pass(game.decision.player))


@pytest.mark.parametrize("margin", [-1, 1])
def test_short_mode_ends_at_second_bankruptcy_richest_by_valuation_wins(margin: int) -> None:
    game = new_game(4, mode="short")
    a, b, c, d = seats(game)
    _go_bankrupt_to_bank(game)  # a's deeds go to b
    assert not game.is_over and game.current_player == b
    # b: the brown group with a house on each, and a mortgaged Boardwalk
    give(game, b, *BROWN, 39)
    do(game, A.Build(b, 1))
    do(game, A.Build(b, 3))
    do(game, A.Mortgage(b, 39))
    idle_turn(game)
    assert game.current_player == c
    game.testing.set_cash(b, 3000)
    val_b = valuation(game, b)
    props_d = valuation(game, d) - cash(game)[d]
    # d is worth 1 less (margin -1) or 1 more (margin +1) than b, by the rules' valuation:
    # counting the mortgaged Boardwalk at 0 or at full price, or leaving out the houses,
    # changes the winner
    game.testing.set_cash(d, val_b + margin - props_d)
    assert valuation(game, d) == val_b + margin
    _go_bankrupt_mortgaging_all(game)
    assert game.is_over
    assert game.valuation(b) == val_b
    assert game.valuation(d) == val_b + margin
    first, second = (b, d) if margin < 0 else (d, b)
    assert game.winners == [first]
    assert game.ranking == [first, second, c, a]


# ---------------------------------------------------------------- timed game


def test_timed_mode_deals_two_deeds_each() -> None:
    game = new_game(3, mode="timed", time_limit_minutes=30, clock=FakeClock())
    for p in range(3):
        props = game.properties_of(p)
        assert len(props) == 2
        assert cash(game)[p] == 1500 - sum(PRICE[pos] for pos in props)
    check_books(game)


def test_timed_mode_ends_after_the_current_turn_richest_by_valuation() -> None:
    clock = FakeClock(1000.0)
    game = new_game(3, mode="timed", time_limit_minutes=1, clock=clock)
    a, b, c = seats(game)
    for p in (b, c):
        for pos in game.properties_of(p):
            game.testing.give_property(a, pos)
    give(game, a, *BROWN, 37)
    do(game, A.Build(a, 1))
    do(game, A.Build(a, 3))
    do(game, A.Mortgage(a, 37))
    game.testing.set_cash(a, 100)
    val_a = valuation(game, a)
    # b's cash is just below a's valuation: ignoring buildings, or counting the
    # mortgaged lot at nothing, would make b the winner
    game.testing.set_cash(b, val_a - 1)
    game.testing.set_cash(c, 0)
    clock.now = 1059.0
    assert not game.is_over
    clock.now = 1060.0  # time is up during a's turn
    game.testing.place(a, 0)
    roll(game, (4, 6))
    assert not game.is_over  # the current turn is finished first
    assert game.decision.kind == "post_roll" and game.decision.player == a
    end_turn(game)
    assert game.is_over
    assert game.decision.kind == "game_over"
    assert game.valuation(a) == val_a
    assert game.winners == [a]
    assert game.ranking == [a, b, c]


def test_timed_mode_plays_on_before_time_is_up() -> None:
    clock = FakeClock(1000.0)
    game = new_game(2, mode="timed", time_limit_minutes=1, clock=clock)
    a, b = seats(game)
    clock.now = 1059.0
    idle_turn(game)
    assert not game.is_over and game.current_player == b


def test_timed_mode_tick_notes_time_up_and_game_ends_after_turn() -> None:
    clock = FakeClock(1000.0)
    game = new_game(2, mode="timed", time_limit_minutes=2, clock=clock)
    a, b = seats(game)
    game.testing.place(a, 0)
    roll(game, (4, 6))
    clock.now = 1120.0
    game.tick()
    assert not game.is_over
    end_turn(game)
    assert game.is_over


def test_timed_mode_turn_limit_stands_in_for_the_clock() -> None:
    game = new_game(2, mode="timed", turn_limit=3)
    a, b = seats(game)
    idle_turn(game)
    idle_turn(game)
    assert not game.is_over
    game.testing.set_cash(b, 5000)
    idle_turn(game)
    assert game.is_over
    assert game.winners == [b]
    assert game.ranking == [b, a]


# ---------------------------------------------------------------- turn timer


def test_turn_timer_rolls_for_the_player_when_it_runs_out() -> None:
    clock = FakeClock(1000.0)
    game = new_game(3, turn_timer_seconds=30, clock=clock)
    a, b, c = seats(game)
    game.testing.place(a, 0)
    game.testing.script_dice((4, 6))
    clock.now = 1029.5
    assert game.tick() == []
    assert game.decision.kind == "turn"
    clock.now = 1030.0
    events = game.tick()
    assert [e.data["total"] for e in of_kind(events, "rolled")] == [10]
    assert game.players[a].position == 10
    assert game.decision.kind == "post_roll" and game.decision.player == a


def test_turn_timer_reset_by_offered_trade() -> None:
    clock = FakeClock(1000.0)
    game = new_game(3, turn_timer_seconds=30, clock=clock)
    a, b, c = seats(game)
    game.testing.place(a, 0)
    game.testing.script_dice((4, 6))
    clock.now = 1020.0
    do(game, A.ProposeTrade(a, b, give=TradeSide((), 10), get=TradeSide()))
    do(game, A.RejectTrade(b))
    clock.now = 1049.0
    assert game.tick() == [] and game.decision.kind == "turn"
    clock.now = 1050.0
    game.tick()
    assert game.players[a].position == 10


def test_turn_timer_reset_by_building_purchase() -> None:
    clock = FakeClock(1000.0)
    game = new_game(3, turn_timer_seconds=30, clock=clock)
    a, b, c = seats(game)
    give(game, a, *BROWN)
    game.testing.place(a, 0)
    game.testing.script_dice((4, 6))
    clock.now = 1025.0
    do(game, A.Build(a, 1))
    clock.now = 1054.0
    assert game.tick() == [] and game.decision.kind == "turn"
    clock.now = 1055.0
    game.tick()
    assert game.players[a].position == 10


def test_turn_timer_not_reset_by_mortgage() -> None:
    clock = FakeClock(1000.0)
    game = new_game(3, turn_timer_seconds=30, clock=clock)
    a, b, c = seats(game)
    give(game, a, 39)
    game.testing.place(a, 0)
    game.testing.script_dice((4, 6))
    clock.now = 1025.0
    do(game, A.Mortgage(a, 39))
    clock.now = 1030.0
    game.tick()
    assert game.players[a].position == 10


def test_turn_timer_starts_with_each_turn() -> None:
    clock = FakeClock(1000.0)
    game = new_game(3, turn_timer_seconds=30, clock=clock)
    a, b, c = seats(game)
    clock.now = 1010.0
    idle_turn(game)
    assert game.current_player == b
    # b's turn started when a ended it (t = 1010): the timer counts from there
    assert game.timer_remaining() == 30.0
    game.testing.place(b, 0)
    game.testing.script_dice((4, 6))
    clock.now = 1039.0
    assert game.tick() == [] and game.decision.kind == "turn"
    clock.now = 1040.0
    game.tick()
    assert game.players[b].position == 10 and game.decision.kind == "post_roll"


def test_no_turn_timer_without_the_option() -> None:
    clock = FakeClock(1000.0)
    game = new_game(3, clock=clock)
    clock.now = 5000.0
    assert game.tick() == []
    assert game.decision.kind == "turn"
    assert game.timer_remaining() is None


def test_turn_timer_remaining_uses_the_injected_clock() -> None:
    clock = FakeClock(1000.0)
    game = new_game(3, turn_timer_seconds=30, clock=clock)
    clock.now = 1012.0
    assert game.timer_remaining() == 18.0
