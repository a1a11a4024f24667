"""Classic rules (RULES.md §2): trading, receiving mortgaged property, jail, doubles."""

from __future__ import annotations

from classic_helpers import (
    BROWN,
    JAIL_CARD,
    assert_refused,
    cash,
    do,
    draw_jail_card,
    end_turn,
    give,
    idle_turn,
    new_game,
    of_kind,
    roll,
    seats,
)

from ugentopoly_widget.engine import actions as A
from ugentopoly_widget.engine.actions import TradeSide

# ---------------------------------------------------------------- trading


def test_trade_properties_and_cash_accepted() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, 1, 3)
    give(game, b, 6)
    offer = A.ProposeTrade(a, b, give=TradeSide((1, 3), 50), get=TradeSide((6,), 0))
    do(game, offer)
    assert game.decision.kind == "trade" and game.decision.player == b
    assert game.owner(1) == a  # nothing changes before the answer
    do(game, A.AcceptTrade(b))
    assert (game.owner(1), game.owner(3), game.owner(6)) == (b, b, a)
    assert cash(game)[a] == 1450 and cash(game)[b] == 1550
    assert game.decision.kind == "turn" and game.decision.player == a


def test_trade_declined_changes_nothing_but_the_log() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, 1)
    give(game, b, 6)
    before = game.state()
    do(game, A.ProposeTrade(a, b, give=TradeSide((1,), 0), get=TradeSide((6,), 100)))
    do(game, A.RejectTrade(b))
    after = game.state()
    assert after == before
    assert of_kind(game.events, "trade_rejected")


def test_trade_cash_for_cash_from_partner() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, b, 39)
    do(game, A.ProposeTrade(a, b, give=TradeSide((), 450), get=TradeSide((39,), 0)))
    do(game, A.AcceptTrade(b))
    assert game.owner(39) == a
    assert cash(game) == [1050 if k == a else 1950 if k == b else 1500 for k in range(3)]


def test_trade_only_in_own_turn() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, b, 6)
    give(game, c, 8)
    assert_refused(game, A.ProposeTrade(b, c, give=TradeSide((6,), 0), get=TradeSide((8,), 0)))


def test_trade_after_rolling_before_ending() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, 39)
    game.testing.place(a, 0)
    roll(game, (4, 6))
    do(game, A.ProposeTrade(a, c, give=TradeSide((39,), 0), get=TradeSide((), 300)))
    do(game, A.AcceptTrade(c))
    assert game.owner(39) == c and cash(game)[a] == 1800 and cash(game)[c] == 1200
    assert game.decision.kind == "post_roll"


def test_trade_refused_with_buildings_in_group() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, *BROWN)
    do(game, A.Build(a, 1))
    # 3 has no house, but its group does
    assert_refused(game, A.ProposeTrade(a, b, give=TradeSide((3,), 0), get=TradeSide((), 10)))
    assert_refused(game, A.ProposeTrade(a, b, give=TradeSide((1,), 0), get=TradeSide((), 10)))
    do(game, A.Sell(a, 1))
    do(game, A.ProposeTrade(a, b, give=TradeSide((3,), 0), get=TradeSide((), 10)))
    do(game, A.AcceptTrade(b))
    assert game.owner(3) == b


def test_trade_refused_for_property_not_owned_or_cash_not_held() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, b, 6)
    assert_refused(game, A.ProposeTrade(a, b, give=TradeSide((6,), 0), get=TradeSide((), 10)))
    assert_refused(game, A.ProposeTrade(a, b, give=TradeSide((), 1501), get=TradeSide((6,), 0)))
    assert_refused(game, A.ProposeTrade(a, b, give=TradeSide((), 10), get=TradeSide((), 1501)))


def test_trade_jail_cards_both_ways() -> None:
    game = new_game()
    a, b, c = seats(game)
    draw_jail_card(game)
    assert [k.id for k in game.players[a].jail_cards] == [JAIL_CARD]
    do(game, A.ProposeTrade(a, b, give=TradeSide((), 0, (JAIL_CARD,)), get=TradeSide((), 40)))
    do(game, A.AcceptTrade(b))
    assert game.players[a].jail_cards == [] and [k.id for k in game.players[b].jail_cards] == [
        JAIL_CARD]
    assert cash(game)[a] == 1540 and cash(game)[b] == 1460
    # and back: the card on the other side
    do(game, A.ProposeTrade(a, b, give=TradeSide((), 60), get=TradeSide((), 0, (JAIL_CARD,))))
    do(game, A.AcceptTrade(b))
    assert [k.id for k in game.players[a].jail_cards] == [JAIL_CARD]
    assert game.players[b].jail_cards == []
    assert cash(game)[a] == 1480 and cash(game)[b] == 1520


def test_trade_refused_for_card_not_held() -> None:
    game = new_game()
    a, b, c = seats(game)
    assert_refused(game, A.ProposeTrade(a, b, give=TradeSide((), 0, (JAIL_CARD,)),
                                        get=TradeSide((), 10)))


def test_receiving_mortgaged_property_keep_pays_ten_percent_then_full_lift_later() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, 39)
    do(game, A.Mortgage(a, 39))  # a: 1700
    do(game, A.ProposeTrade(a, b, give=TradeSide((39,), 0), get=TradeSide((), 100)))
    do(game, A.AcceptTrade(b))
    assert game.decision.kind == "mortgaged" and game.decision.player == b
    assert game.decision.data["position"] == 39
    do(game, A.KeepMortgage(b, 39))
    assert game.owner(39) == b and game.is_mortgaged(39)
    assert cash(game)[b] == 1500 - 100 - 20
    assert cash(game)[a] == 1800
    assert game.decision.kind == "turn" and game.decision.player == a
    idle_turn(game)
    # later, in b's own turn: lifting costs value + 10 % again
    do(game, A.Unmortgage(b, 39))
    assert not game.is_mortgaged(39)
    assert cash(game)[b] == 1380 - 220


def test_receiving_mortgaged_property_lift_now_pays_value_plus_ten_percent() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, 37)
    do(game, A.Mortgage(a, 37))
    do(game, A.ProposeTrade(a, b, give=TradeSide((37,), 0), get=TradeSide((), 1)))
    do(game, A.AcceptTrade(b))
    assert game.decision.kind == "mortgaged"
    do(game, A.LiftMortgage(b, 37))
    assert not game.is_mortgaged(37)
    assert cash(game)[b] == 1500 - 1 - 193  # 175 + 17.5 rounded up


def test_receiving_mortgaged_property_both_ways() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, 11)
    give(game, b, 5)
    do(game, A.Mortgage(a, 11))
    idle_turn(game)
    do(game, A.Mortgage(b, 5))
    end = game.current_player
    assert end == b
    do(game, A.ProposeTrade(b, a, give=TradeSide((5,), 0), get=TradeSide((11,), 0)))
    do(game, A.AcceptTrade(a))
    decided = []
    while game.decision.kind == "mortgaged":
        p = game.decision.player
        decided.append((p, game.decision.data["position"]))
        do(game, A.KeepMortgage(p, game.decision.data["position"]))
    assert sorted(decided) == sorted([(a, 5), (b, 11)])
    assert cash(game)[a] == 1500 + 70 - 10
    assert cash(game)[b] == 1500 + 100 - 7


# ---------------------------------------------------------------- jail


def test_jail_pay_fine_before_rolling() -> None:
    game = new_game()
    a, b, c = seats(game)
    game.testing.send_to_jail(a)
    assert game.players[a].position == 10 and game.players[a].in_jail
    assert A.PayFine(a) in game.legal_actions()
    bank = game.bank_balance
    do(game, A.PayFine(a))
    assert not game.players[a].in_jail
    assert cash(game)[a] == 1450 and game.bank_balance == bank + 50 and game.pot == 0
    roll(game, (2, 3))
    assert game.players[a].position == 15


def test_jail_fine_only_before_rolling() -> None:
    game = new_game()
    a, b, c = seats(game)
    game.testing.send_to_jail(a)
    roll(game, (1, 2))
    assert game.decision.kind == "post_roll"
    assert_refused(game, A.PayFine(a))


def test_jail_use_card_returns_it_under_the_deck() -> None:
    game = new_game()
    a, b, c = seats(game)
    draw_jail_card(game)
    assert JAIL_CARD not in game.state()["decks"]["CHANCE"]  # held, out of the deck
    end_turn(game)
    idle_turn(game)
    idle_turn(game)
    game.testing.send_to_jail(a)
    do(game, A.UseJailCard(a))
    assert not game.players[a].in_jail and game.players[a].jail_cards == []
    assert game.state()["decks"]["CHANCE"][-1] == JAIL_CARD
    assert cash(game)[a] == 1500
    roll(game, (1, 2))
    assert game.players[a].position == 13


def test_jail_failed_doubles_stays() -> None:
    game = new_game()
    a, b, c = seats(game)
    game.testing.send_to_jail(a)
    roll(game, (1, 2))
    assert game.players[a].position == 10 and game.players[a].in_jail
    assert game.players[a].jail_tries == 1
    assert game.decision.kind == "post_roll"


def test_jail_leaving_on_doubles_moves_without_extra_roll() -> None:
    game = new_game()
    a, b, c = seats(game)
    game.testing.send_to_jail(a)
    roll(game, (5, 5))
    assert not game.players[a].in_jail
    assert game.players[a].position == 20
    assert game.decision.kind == "post_roll"  # no roll again
    assert_refused(game, A.Roll(a))


def test_jail_pay_fine_then_doubles_rolls_again() -> None:
    game = new_game()
    a, b, c = seats(game)
    game.testing.send_to_jail(a)
    do(game, A.PayFine(a))
    roll(game, (5, 5))
    assert game.players[a].position == 20
    assert game.decision.kind == "turn" and game.decision.player == a  # the double counts
    roll(game, (1, 2))
    assert game.players[a].position == 23


def _fail_jail_turn(game, a: int) -> None:
    roll(game, (1, 2))
    assert game.players[a].in_jail
    end_turn(game)
    while game.current_player != a:
        idle_turn(game)


def test_jail_third_failed_turn_pays_50_and_moves() -> None:
    game = new_game(2)
    a, b = seats(game)
    game.testing.send_to_jail(a)
    _fail_jail_turn(game, a)
    _fail_jail_turn(game, a)
    assert game.players[a].jail_tries == 2
    roll(game, (1, 2))  # third failure
    assert not game.players[a].in_jail
    assert game.players[a].position == 13
    assert cash(game)[a] == 1450
    assert of_kind(game.events, "fine")[-1].data["amount"] == 50


def test_jail_card_usable_after_third_attempt() -> None:
    game = new_game(2)
    a, b = seats(game)
    draw_jail_card(game)
    end_turn(game)
    idle_turn(game)
    game.testing.send_to_jail(a)
    _fail_jail_turn(game, a)
    _fail_jail_turn(game, a)
    roll(game, (1, 2))
    assert game.decision.kind == "jail_fine" and game.decision.player == a
    do(game, A.UseJailCard(a))
    assert not game.players[a].in_jail and game.players[a].jail_cards == []
    assert game.players[a].position == 13
    assert cash(game)[a] == 1500


def test_jail_may_trade_and_mortgage() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, 39, 5)
    game.testing.send_to_jail(a)
    do(game, A.Mortgage(a, 39))
    do(game, A.ProposeTrade(a, b, give=TradeSide((5,), 0), get=TradeSide((), 250)))
    do(game, A.AcceptTrade(b))
    assert game.owner(5) == b and game.is_mortgaged(39)
    assert cash(game)[a] == 1500 + 200 + 250
    assert game.players[a].in_jail


def test_three_doubles_go_to_jail_without_moving() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, 6, 8)
    game.testing.place(a, 0)
    roll(game, (3, 3))
    assert game.players[a].position == 6 and game.decision.kind == "turn"
    roll(game, (1, 1))
    assert game.players[a].position == 8 and game.decision.kind == "turn"
    roll(game, (2, 2))
    assert game.players[a].position == 10 and game.players[a].in_jail
    assert game.decision.kind == "post_roll"
    assert cash(game)[a] == 1500
    end_turn(game)
    assert game.current_player == b


def test_go_to_jail_tile() -> None:
    game = new_game()
    a, b, c = seats(game)
    game.testing.place(a, 25)
    roll(game, (2, 3))
    assert game.players[a].position == 10 and game.players[a].in_jail
    assert cash(game)[a] == 1500  # no salary


def test_jail_pay_fine_double_counts_towards_three_doubles() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, 24)
    game.testing.send_to_jail(a)
    do(game, A.PayFine(a))
    roll(game, (5, 5))  # 10 -> 20, first double
    roll(game, (2, 2))  # 20 -> 24 (own), second double
    assert game.players[a].position == 24 and game.decision.kind == "turn"
    roll(game, (3, 3))  # third double: jail without moving
    assert game.players[a].in_jail and game.players[a].position == 10
    assert game.decision.kind == "post_roll"


def test_jail_third_failure_without_the_fine_in_cash_raises_money() -> None:
    game = new_game(2)
    a, b = seats(game)
    give(game, a, 39)
    game.testing.send_to_jail(a)
    _fail_jail_turn(game, a)
    _fail_jail_turn(game, a)
    game.testing.set_cash(a, 20)
    roll(game, (1, 2))
    assert game.decision.kind == "debt" and game.decision.data["amount"] == 50
    do(game, A.Mortgage(a, 39))
    assert not game.players[a].in_jail and game.players[a].position == 13
    assert cash(game)[a] == 20 + 200 - 50
    assert game.decision.kind == "buy"  # then moves by that roll: States Avenue


def test_jail_card_cannot_be_used_outside_jail() -> None:
    game = new_game()
    a, b, c = seats(game)
    draw_jail_card(game)
    end_turn(game)
    idle_turn(game)
    idle_turn(game)
    assert game.current_player == a and not game.players[a].in_jail
    assert_refused(game, A.UseJailCard(a))
    assert_refused(game, A.PayFine(a))
