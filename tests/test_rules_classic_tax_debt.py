"""Classic rules (RULES.md §2): taxes, free parking, debt, bankruptcy, turn flow."""

from __future__ import annotations

import pytest
from classic_helpers import (
    BROWN,
    JAIL_CARD,
    RAILROADS,
    assert_refused,
    cash,
    check_books,
    do,
    draw_jail_card,
    end_turn,
    give,
    idle_turn,
    kinds,
    new_game,
    of_kind,
    roll,
    seats,
)

from ugentopoly_widget import IllegalActionError
from ugentopoly_widget.engine import actions as A
from ugentopoly_widget.engine.actions import TradeSide

# ---------------------------------------------------------------- taxes


def _to_income_tax(game) -> int:
    a = game.current_player
    game.testing.place(a, 0)
    roll(game, (1, 3))
    return a


def test_income_tax_choice_is_made_before_the_total_is_known() -> None:
    game = new_game()
    a = _to_income_tax(game)
    d = game.decision
    assert d.kind == "tax" and d.player == a
    assert {A.ChooseTax(a, "flat"), A.ChooseTax(a, "percent")} <= set(game.legal_actions())
    # the decision offers 200 or 10 %, but not what 10 % of the net worth comes to
    assert d.data.get("amount") == 200 and d.data.get("percent") == 10
    assert 150 not in d.data.values()
    assert "net_worth" not in d.data and "total" not in d.data
    assert game.players[a].cash == 1500  # nothing paid before choosing


def test_income_tax_flat_200_to_the_bank() -> None:
    game = new_game()
    a = _to_income_tax(game)
    bank = game.bank_balance
    do(game, A.ChooseTax(a, "flat"))
    assert cash(game)[a] == 1300
    assert game.bank_balance == bank + 200 and game.pot == 0


def test_income_tax_ten_percent_of_net_worth() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, 39, 37, *BROWN)
    do(game, A.Mortgage(a, 37))  # a: 1675 cash; 37 still counts at its printed price
    do(game, A.Build(a, 1))  # a: 1625 cash, one house at cost 50
    # official net worth: 1625 + 400 + 350 + 60 + 60 + 50 = 2545 -> tax 254 (rounded down)
    assert game.net_worth(a) == 2545
    _to_income_tax(game)
    do(game, A.ChooseTax(a, "percent"))
    assert cash(game)[a] == 1625 - 254
    assert of_kind(game.events, "tax")[-1].data["amount"] == 254


def test_income_tax_choice_flag_off_always_200() -> None:
    game = new_game(income_tax_choice=False)
    a = _to_income_tax(game)
    assert game.decision.kind == "post_roll"
    assert cash(game)[a] == 1300


def test_luxury_tax_75_to_the_bank() -> None:
    game = new_game()
    a = game.current_player
    game.testing.place(a, 30 + 5)
    bank = game.bank_balance
    roll(game, (1, 2))
    assert game.players[a].position == 38
    assert cash(game)[a] == 1425 and game.bank_balance == bank + 75 and game.pot == 0


def test_free_parking_gives_nothing() -> None:
    game = new_game()
    a, b, c = seats(game)
    _to_income_tax(game)
    do(game, A.ChooseTax(a, "flat"))
    end_turn(game)
    game.testing.place(b, 10)
    roll(game, (4, 6))
    assert game.players[b].position == 20
    assert cash(game)[b] == 1500 and game.pot == 0


def test_free_parking_pot_flag_collects_taxes_and_fines() -> None:
    game = new_game(free_parking_pot=True)
    a, b, c = seats(game)
    _to_income_tax(game)
    do(game, A.ChooseTax(a, "flat"))
    assert game.pot == 200
    end_turn(game)
    game.testing.send_to_jail(b)
    do(game, A.PayFine(b))
    assert game.pot == 250
    roll(game, (4, 6))
    assert game.players[b].position == 20
    assert cash(game)[b] == 1500 - 50 + 250 and game.pot == 0


# ---------------------------------------------------------------- debt


def test_debt_must_raise_money_before_anything_else() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, 39)
    game.testing.set_cash(a, 10)
    game.testing.place(a, 35)
    roll(game, (1, 2))  # luxury tax 75
    d = game.decision
    assert d.kind == "debt" and d.player == a
    assert d.data["amount"] == 75 and d.data["creditor"] == "bank"
    legal = game.legal_actions()
    assert A.Mortgage(a, 39) in legal
    assert A.DeclareBankruptcy(a) not in legal  # mortgaging covers it
    assert_refused(game, A.EndTurn(a))
    assert_refused(game, A.DeclareBankruptcy(a))
    do(game, A.Mortgage(a, 39))
    assert game.decision.kind == "post_roll"
    assert cash(game)[a] == 10 + 200 - 75


def test_debt_sell_buildings_to_pay() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, *BROWN)
    for pos in BROWN * 2:
        do(game, A.Build(a, pos))
    game.testing.set_cash(a, 20)
    game.testing.place(a, 35)
    roll(game, (1, 2))
    assert game.decision.kind == "debt"
    assert A.Mortgage(a, 1) not in game.legal_actions()  # buildings first
    do(game, A.Sell(a, 1))
    assert game.decision.kind == "debt" and cash(game)[a] == 45
    assert_refused(game, A.Sell(a, 1))  # evenly, also while raising money
    do(game, A.Sell(a, 3))
    assert game.decision.kind == "debt" and cash(game)[a] == 70
    do(game, A.Sell(a, 3))
    assert game.decision.kind == "post_roll"
    assert cash(game)[a] == 20 + 75 - 75
    assert game.houses_left == 31


def test_debt_raise_money_by_trade() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, 39)
    game.testing.set_cash(a, 10)
    game.testing.place(a, 35)
    roll(game, (1, 2))
    assert game.decision.kind == "debt"
    do(game, A.ProposeTrade(a, b, give=TradeSide((39,), 0), get=TradeSide((), 300)))
    do(game, A.AcceptTrade(b))
    assert game.owner(39) == b
    assert game.decision.kind == "post_roll"
    assert cash(game)[a] == 10 + 300 - 75


def test_debt_rent_to_player_paid_after_mortgaging() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, b, *RAILROADS)
    give(game, a, 39)
    game.testing.set_cash(a, 100)
    game.testing.place(a, 0)
    roll(game, (2, 3))
    assert game.decision.kind == "debt"
    assert game.decision.data["creditor"] == b and game.decision.data["amount"] == 200
    do(game, A.Mortgage(a, 39))
    assert cash(game)[a] == 100 and cash(game)[b] == 1700


def test_bankruptcy_only_when_everything_cannot_cover() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, 1)
    game.testing.set_cash(a, 10)
    game.testing.place(a, 35)
    roll(game, (1, 2))  # owes 75; cash 10 + mortgage 30 = 40
    assert game.decision.kind == "debt"
    assert A.DeclareBankruptcy(a) in game.legal_actions()


def test_bankruptcy_to_a_player_everything_to_the_creditor() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, *BROWN, 39)
    draw_jail_card(game)
    do(game, A.Build(a, 1))
    do(game, A.Build(a, 3))
    do(game, A.Mortgage(a, 39))
    end_turn(game)
    idle_turn(game)
    idle_turn(game)
    give(game, b, *RAILROADS)
    game.testing.set_cash(a, 10)
    game.testing.place(a, 0)
    roll(game, (2, 3))  # owes b 200; can raise 10 + 2 * 25 + 30 + 30 = 120
    assert game.decision.kind == "debt" and A.DeclareBankruptcy(a) in game.legal_actions()
    b_cash = cash(game)[b]
    events = do(game, A.DeclareBankruptcy(a))
    assert game.players[a].bankrupt
    # buildings sold to the bank at half price first
    assert [game.buildings(p) for p in BROWN] == [0, 0]
    assert game.houses_left == 32
    assert [e.data["amount"] for e in of_kind(events, "sold_building")] == [25, 25]
    assert kinds(events).index("sold_building") < kinds(events).index("bankrupt")
    # then cash, properties (mortgaged too) and the card to the creditor
    assert cash(game)[a] == 0
    assert cash(game)[b] == b_cash + 60
    assert [game.owner(p) for p in (1, 3, 39)] == [b, b, b]
    assert [k.id for k in game.players[b].jail_cards] == [JAIL_CARD]
    # the creditor pays the 10 % on the mortgaged property, or lifts it
    assert game.decision.kind == "mortgaged" and game.decision.player == b
    assert game.decision.data["position"] == 39
    do(game, A.KeepMortgage(b, 39))
    assert game.is_mortgaged(39) and cash(game)[b] == b_cash + 60 - 20
    assert not game.is_over
    assert game.decision.kind == "turn" and game.decision.player == b


def test_bankruptcy_to_a_player_creditor_lifts() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, 39)
    do(game, A.Mortgage(a, 39))
    give(game, b, *RAILROADS)
    game.testing.set_cash(a, 10)
    game.testing.place(a, 0)
    roll(game, (2, 3))
    do(game, A.DeclareBankruptcy(a))
    assert game.decision.kind == "mortgaged"
    do(game, A.LiftMortgage(b, 39))
    assert not game.is_mortgaged(39) and game.owner(39) == b
    assert cash(game)[b] == 1500 + 10 - 220


def test_bankruptcy_to_the_bank_cards_under_deck_properties_auctioned_unmortgaged() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, 1, 39)
    draw_jail_card(game)
    do(game, A.Mortgage(a, 39))
    end_turn(game)
    idle_turn(game)
    idle_turn(game)
    game.testing.set_cash(a, 10)
    game.testing.place(a, 35)
    bank = game.bank_balance
    roll(game, (1, 2))  # luxury tax 75; can raise 10 + 30 = 40
    do(game, A.DeclareBankruptcy(a))
    assert game.players[a].bankrupt and cash(game)[a] == 0
    assert game.bank_balance == bank + 10
    assert game.state()["decks"]["CHANCE"][-1] == JAIL_CARD
    # each property auctioned among the remaining players, starting after a
    assert game.decision.kind == "auction" and game.decision.data["position"] == 1
    assert game.decision.player == b
    do(game, A.Bid(b, 10))
    do(game, A.Pass(c))
    assert game.owner(1) == b and not game.is_mortgaged(1) and cash(game)[b] == 1490
    assert game.decision.kind == "auction" and game.decision.data["position"] == 39
    assert not game.is_mortgaged(39)
    do(game, A.Pass(b))
    do(game, A.Bid(c, 250))
    assert game.owner(39) == c and not game.is_mortgaged(39) and cash(game)[c] == 1250
    assert game.decision.kind == "turn" and game.decision.player == b


def test_long_mode_last_player_standing_wins() -> None:
    game = new_game(2)
    a, b = seats(game)
    game.testing.set_cash(a, 10)
    game.testing.place(a, 35)
    roll(game, (1, 2))
    do(game, A.DeclareBankruptcy(a))
    assert game.is_over
    assert game.winners == [b]
    assert game.ranking == [b, a]
    assert game.decision.kind == "game_over"
    assert cash(game)[b] == 1500
    with pytest.raises(IllegalActionError):
        game.apply(A.Roll(b))


def test_long_mode_continues_after_first_bankruptcy() -> None:
    game = new_game(3)
    a, b, c = seats(game)
    game.testing.set_cash(a, 10)
    game.testing.place(a, 35)
    roll(game, (1, 2))
    do(game, A.DeclareBankruptcy(a))
    assert not game.is_over
    idle_turn(game)
    assert game.current_player == c
    idle_turn(game)
    assert game.current_player == b  # a is skipped


# ---------------------------------------------------------------- turn flow


def test_turn_ends_only_after_rolling() -> None:
    game = new_game()
    a, b, c = seats(game)
    assert A.EndTurn(a) not in game.legal_actions()
    assert_refused(game, A.EndTurn(a))
    give(game, a, 23)
    game.testing.place(a, 10)
    roll(game, (5, 5))  # doubles onto Free Parking: must roll again
    assert game.decision.kind == "turn" and game.players[a].position == 20
    assert_refused(game, A.EndTurn(a))
    roll(game, (1, 2))
    assert game.players[a].position == 23
    end = [x for x in game.legal_actions() if isinstance(x, A.EndTurn)]
    assert end == [A.EndTurn(a)]


def test_turn_does_not_end_by_itself() -> None:
    game = new_game()
    a, b, c = seats(game)
    idle = game.current_player
    game.testing.place(a, 0)
    roll(game, (4, 6))
    assert game.decision.kind == "post_roll" and game.current_player == idle
    end_turn(game)
    assert game.current_player == b and game.decision.kind == "turn"


def test_manage_before_rolling_and_before_ending() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, 39, 37)
    do(game, A.Mortgage(a, 39))
    game.testing.place(a, 0)
    roll(game, (4, 6))
    do(game, A.Mortgage(a, 37))
    do(game, A.Unmortgage(a, 39))
    assert game.is_mortgaged(37) and not game.is_mortgaged(39)
    assert cash(game)[a] == 1500 + 200 + 175 - 220
    check_books(game)


# ---------------------------------------------------------------- illegal actions


@pytest.mark.parametrize("make", [
    lambda a, b: A.Buy(a),
    lambda a, b: A.EndTurn(a),
    lambda a, b: A.Roll(b),
    lambda a, b: A.Build(a, 39),
    lambda a, b: A.Mortgage(a, 39),
    lambda a, b: A.Bid(a, 10),
    lambda a, b: A.PayFine(a),
    lambda a, b: A.UseJailCard(a),
    lambda a, b: A.AcceptTrade(b),
    lambda a, b: A.DeclareBankruptcy(a),
    lambda a, b: A.SellDown(a, "brown", 0),
    lambda a, b: A.ChooseTax(a, "percent"),
])
def test_illegal_action_names_action_decider_phase_and_changes_nothing(make) -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, b, 39)
    err = assert_refused(game, make(a, b))
    assert err.phase == "turn"
    assert err.player == game.players[a].name


def test_illegal_bid_in_auction_names_phase() -> None:
    game = new_game()
    a, b, c = seats(game)
    game.testing.place(a, 0)
    roll(game, (1, 2))
    do(game, A.Decline(a))
    err = assert_refused(game, A.Bid(c, 10))  # b decides now
    assert err.phase == "auction" and err.player == game.players[b].name
    err = assert_refused(game, A.Roll(b))
    assert err.phase == "auction"



def test_text_forms_of_actions_with_arguments() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, 1, 3, 5, 15, 39)
    give(game, b, 6)
    for _ in range(5):
        game.apply(f"{a}:build 1")
        game.apply(f"{a}:build 3")
    assert game.buildings(1) == game.buildings(3) == 5
    game.apply(f"{a}:sell 1")
    assert game.buildings(1) == 4 and game.houses_left == 28
    assert cash(game)[a] == 1500 - 500 + 25
    game.apply(f"{a}:mortgage 39")
    assert game.is_mortgaged(39)
    game.apply(f"{a}:propose_trade {b} give 5,15 50 - get 6 0 -")
    assert game.decision.kind == "trade" and game.decision.player == b
    game.apply(A.AcceptTrade(b))
    assert (game.owner(5), game.owner(15), game.owner(6)) == (b, b, a)
    assert cash(game)[b] == 1550
    check_books(game)


def test_text_and_dict_forms_of_simple_actions() -> None:
    game = new_game()
    a, b, c = seats(game)
    game.testing.place(a, 0)
    game.testing.script_dice((1, 2))
    game.act("roll")
    assert game.players[a].position == 3
    game.apply(f"{a}:decline")
    game.act("bid", 120)
    game.apply({"type": "pass", "player": c})
    game.act("pass")
    assert game.owner(3) == b and cash(game)[b] == 1380
    game.apply({"type": "end_turn", "player": a})
    assert game.current_player == b


def test_doubles_onto_go_to_jail_no_extra_roll() -> None:
    game = new_game()
    a, b, c = seats(game)
    game.testing.place(a, 26)
    roll(game, (2, 2))
    assert game.players[a].in_jail and game.players[a].position == 10
    assert game.decision.kind == "post_roll"
    end_turn(game)
    assert game.current_player == b


def test_doubles_onto_go_to_jail_card_no_extra_roll() -> None:
    game = new_game()
    a, b, c = seats(game)
    game.testing.stack_deck("CHANCE", ["card.chance.10"])
    game.testing.place(a, 18)
    roll(game, (2, 2))  # Chance at 22: go to jail
    assert game.players[a].in_jail and game.players[a].position == 10
    assert game.decision.kind == "post_roll"
    assert cash(game)[a] == 1500


def test_cannot_afford_unowned_property_decline_goes_to_auction() -> None:
    game = new_game()
    a, b, c = seats(game)
    game.testing.set_cash(a, 50)
    game.testing.place(a, 0)
    roll(game, (1, 2))
    assert game.decision.kind == "buy"
    assert A.Buy(a) not in game.legal_actions()
    assert_refused(game, A.Buy(a))
    do(game, A.Decline(a))
    assert game.decision.kind == "auction" and game.decision.player == b
    do(game, A.Bid(b, 61))
    do(game, A.Pass(c))
    assert game.owner(3) == b and cash(game)[b] == 1439


def test_free_parking_pot_flag_card_fines_go_to_pot() -> None:
    game = new_game(free_parking_pot=True)
    a = game.current_player
    game.testing.stack_deck("CHANCE", ["card.chance.12"])
    game.testing.place(a, 0)
    roll(game, (3, 4))
    assert cash(game)[a] == 1485 and game.pot == 15


def test_card_fine_to_bank_without_pot_flag() -> None:
    game = new_game()
    a = game.current_player
    bank = game.bank_balance
    game.testing.stack_deck("CHANCE", ["card.chance.12"])
    game.testing.place(a, 0)
    roll(game, (3, 4))
    assert cash(game)[a] == 1485 and game.pot == 0 and game.bank_balance == bank + 15


def test_bankruptcy_to_the_bank_buildings_go_back() -> None:
    game = new_game()
    a, b, c = seats(game)
    give(game, a, *BROWN)
    do(game, A.Build(a, 1))
    do(game, A.Build(a, 3))
    assert game.houses_left == 30
    game.testing.set_cash(a, 0)
    bank = game.bank_balance
    game.testing.place(a, 0)
    roll(game, (1, 3))
    do(game, A.ChooseTax(a, "flat"))  # owes 200, could raise 2 * 25 + 2 * 30 = 110
    assert game.decision.kind == "debt"
    events = do(game, A.DeclareBankruptcy(a))
    assert [e.data["amount"] for e in of_kind(events, "sold_building")] == [25, 25]
    assert game.houses_left == 32
    assert game.bank_balance == bank  # the 50 from the houses went straight to the bank
    assert cash(game)[a] == 0
    for pos in BROWN:
        assert game.decision.kind == "auction" and game.decision.data["position"] == pos
        assert game.buildings(pos) == 0 and not game.is_mortgaged(pos)
        do(game, A.Pass(b))
        do(game, A.Pass(c))
        assert game.owner(pos) is None
    assert game.decision.kind == "turn" and game.decision.player == b
