"""Every money threshold at its exact boundary: cash equal to the price, the rent, the fine, the
debt (and one less). A `>=` turned into `>` anywhere must fail one of these."""

from __future__ import annotations

import pytest
from classic_helpers import BROWN, do, give, seats
from classic_helpers import new_game as classic_game

from ugentopoly_widget import Game
from ugentopoly_widget.engine import actions as A


def ugent(**options: object) -> tuple[Game, int, int]:
    game = Game("ugentopoly", players=["Ann", "Bob"], seed=1, options=options)
    a = game.current_player
    return game, a, 1 - a


def land(game: Game, player: int, start: int, dice: tuple[int, int]) -> None:
    game.testing.place(player, start)
    game.testing.script_dice(dice)
    game.apply(A.Roll(player))


# ---------------------------------------------------------------- Ugentopoly


@pytest.mark.parametrize("cash,offered", [(60, True), (59, False)])
def test_ugentopoly_buy_with_exactly_the_price(cash: int, offered: bool) -> None:
    game, a, _ = ugent()
    game.testing.set_cash(a, cash)
    land(game, a, 0, (1, 2))  # street at 3, price 60
    if offered:
        assert game.decision.kind == "buy" and A.Buy(a) in game.legal_actions()
        game.apply(A.Buy(a))
        assert game.owner(3) == a and game.players[a].cash == 0 and not game.is_over
    else:
        assert game.decision.kind != "buy" and game.owner(3) is None
        declined = [e for e in game.events if e.kind == "declined"]
        assert declined[-1].data == {"position": 3, "reason": "cannot_afford"}


def test_ugentopoly_money_reaching_zero_after_a_purchase_ends_the_game() -> None:
    game, a, b = ugent(end_when_money_reaches_zero=True)
    game.testing.set_cash(a, 60)
    land(game, a, 0, (1, 2))
    game.apply(A.Buy(a))
    assert game.is_over and game._engine.over_reason == "money_reached_zero"
    assert game.winners == [b]


@pytest.mark.parametrize("cash,over", [(50, False), (49, True)])
def test_ugentopoly_rent_with_exactly_the_cash(cash: int, over: bool) -> None:
    game, a, b = ugent()
    game.testing.give_property(b, 5)  # one railway: rent 50
    game.testing.set_cash(a, cash)
    land(game, a, 0, (2, 3))
    assert game.is_over == over
    assert game.players[a].cash == 0 and game.players[b].cash == 1500 + cash
    if over:
        assert game._engine.over_reason == "cannot_pay"


def test_ugentopoly_rent_that_empties_the_purse_ends_the_game_with_the_flag() -> None:
    game, a, b = ugent(end_when_money_reaches_zero=True)
    game.testing.give_property(b, 5)
    game.testing.set_cash(a, 50)
    land(game, a, 0, (2, 3))
    assert game.is_over and game._engine.over_reason == "money_reached_zero"
    assert game.players[b].cash == 1550


@pytest.mark.parametrize("cash,over", [(200, False), (199, True)])
def test_ugentopoly_tax_with_exactly_the_cash(cash: int, over: bool) -> None:
    game, a, _ = ugent()
    game.testing.set_cash(a, cash)
    land(game, a, 0, (1, 3))  # tax 200 at 4
    assert game.is_over == over and game.players[a].cash == 0 and game.pot == cash


@pytest.mark.parametrize("cash,over", [(5, False), (4, True)])
def test_ugentopoly_every_player_pays_five_with_exactly_five(cash: int, over: bool) -> None:
    game, a, b = ugent()
    game.testing.set_cash(b, cash)
    game.testing.stack_deck("CHANCE", ["card.chance.08"])  # 5 from every player
    land(game, a, 4, (1, 2))
    assert game.is_over == over and game.players[b].cash == 0


# ---------------------------------------------------------------- classic


@pytest.mark.parametrize("cash,legal", [(60, True), (59, False)])
def test_classic_buy_with_exactly_the_price(cash: int, legal: bool) -> None:
    game = classic_game(2)
    a, _ = seats(game)
    game.testing.set_cash(a, cash)
    land(game, a, 0, (1, 2))
    assert game.decision.kind == "buy"
    assert (A.Buy(a) in game.legal_actions()) == legal


@pytest.mark.parametrize("cash,legal", [(50, True), (49, False)])
def test_classic_jail_fine_with_exactly_fifty(cash: int, legal: bool) -> None:
    game = classic_game(2)
    a, b = seats(game)
    game.testing.send_to_jail(a)
    game.testing.set_cash(a, cash)
    assert (A.PayFine(a) in game.legal_actions()) == legal
    if legal:
        do(game, A.PayFine(a))
        assert game.players[a].cash == 0 and not game.players[a].in_jail


@pytest.mark.parametrize("cash,legal", [(50, True), (49, False)])
def test_classic_build_with_exactly_the_house_price(cash: int, legal: bool) -> None:
    game = classic_game(2)
    a, _ = seats(game)
    give(game, a, *BROWN)
    game.testing.set_cash(a, cash)
    assert (A.Build(a, 1) in game.legal_actions()) == legal


@pytest.mark.parametrize("cash,legal", [(33, True), (32, False)])
def test_classic_unmortgage_with_exactly_the_cost(cash: int, legal: bool) -> None:
    game = classic_game(2)
    a, _ = seats(game)
    give(game, a, 1)
    do(game, A.Mortgage(a, 1))  # value 30, lifting 33
    game.testing.set_cash(a, cash)
    assert (A.Unmortgage(a, 1) in game.legal_actions()) == legal


@pytest.mark.parametrize("cash,legal", [(33, True), (32, False)])
def test_classic_lift_a_received_mortgage_with_exactly_the_cost(cash: int, legal: bool) -> None:
    game = classic_game(2)
    a, b = seats(game)
    give(game, a, 1)
    do(game, A.Mortgage(a, 1))
    game.testing.set_cash(b, cash)
    do(game, A.ProposeTrade(a, b, A.TradeSide(properties=(1,)), A.TradeSide()))
    do(game, A.AcceptTrade(b))
    assert game.decision.kind == "mortgaged" and game.decision.player == b
    assert (A.LiftMortgage(b, 1) in game.legal_actions()) == legal
    assert A.KeepMortgage(b, 1) in game.legal_actions()


def test_classic_bid_up_to_exactly_the_cash() -> None:
    game = classic_game(2)
    a, b = seats(game)
    game.testing.set_cash(b, 300)
    land(game, a, 0, (1, 2))
    do(game, A.Decline(a))
    assert game.decision.kind == "auction" and game.decision.player == b
    assert game.is_legal(A.Bid(b, 300)) and not game.is_legal(A.Bid(b, 301))
    assert game.is_legal(A.Bid(b, game.decision.data["min_bid"]))
    assert not game.is_legal(A.Bid(b, game.decision.data["min_bid"] - 1))


@pytest.mark.parametrize("cash,debt", [(200, False), (199, True)])
def test_classic_tax_with_exactly_the_cash(cash: int, debt: bool) -> None:
    game = classic_game(2)
    a, _ = seats(game)
    game.testing.set_cash(a, cash)
    land(game, a, 0, (1, 3))
    do(game, A.ChooseTax(a, "flat"))
    assert (game.decision.kind == "debt") == debt
    if debt:
        assert A.DeclareBankruptcy(a) in game.legal_actions()  # nothing to raise it with
    else:
        assert game.players[a].cash == 0 and not game.players[a].bankrupt


def _owe_200_with_brown_houses(cash: int) -> tuple[Game, int]:
    """a: both browns with a house each (sell: 2 x 25, mortgage: 2 x 30), `cash`; owes the
    200 income tax."""
    game = classic_game(2)
    a, _ = seats(game)
    give(game, a, *BROWN)
    do(game, A.Build(a, 1))
    do(game, A.Build(a, 3))
    game.testing.set_cash(a, cash)
    land(game, a, 0, (1, 3))
    do(game, A.ChooseTax(a, "flat"))
    assert game.decision.kind == "debt" and game.decision.data["amount"] == 200
    return game, a


def test_classic_bankruptcy_offered_when_selling_at_half_and_mortgaging_cannot_cover() -> None:
    """Issue 6: cash 60 + houses sold at half (2 x 25) + mortgages (2 x 30) = 170 < 200."""
    game, a = _owe_200_with_brown_houses(60)
    assert A.DeclareBankruptcy(a) in game.legal_actions()


def test_classic_no_bankruptcy_when_everything_raises_exactly_the_debt() -> None:
    game, a = _owe_200_with_brown_houses(90)  # 90 + 50 + 60 = 200
    assert A.DeclareBankruptcy(a) not in game.legal_actions()
    for action in (A.Sell(a, 1), A.Sell(a, 3), A.Mortgage(a, 1), A.Mortgage(a, 3)):
        do(game, action)
    assert game.players[a].cash == 0 and not game.players[a].bankrupt
    assert game.decision.kind == "post_roll"


def test_classic_bankruptcy_offered_one_short_of_the_debt() -> None:
    game, a = _owe_200_with_brown_houses(89)  # 199
    assert A.DeclareBankruptcy(a) in game.legal_actions()


def test_classic_income_tax_percent_rounds_down() -> None:
    game = classic_game(2)
    a, _ = seats(game)
    game.testing.set_cash(a, 2549)
    land(game, a, 0, (1, 3))
    do(game, A.ChooseTax(a, "percent"))
    assert game.players[a].cash == 2549 - 254


# ---------------------------------------------------------------- 22-cell game


@pytest.mark.parametrize("cash,offered", [(160, True), (159, False)])
def test_cell22_house_with_exactly_the_price(cash: int, offered: bool) -> None:
    game = Game("cell22", players=["Ann", "Bob"], seed=1)
    a = game.current_player
    game.testing.give_property(a, 2)  # Student Dorm: 800, a house 160
    game.testing.set_cash(a, cash)
    land(game, a, 0, (1, 1))
    assert game.decision.kind == "house_offer"
    assert (A.Build(a, 2) in game.legal_actions()) == offered


@pytest.mark.parametrize("cash,bankrupt", [(800, False), (799, True)])
def test_cell22_rent_with_exactly_the_cash(cash: int, bankrupt: bool) -> None:
    game = Game("cell22", players=["Ann", "Bob", "Cy"], seed=1)
    a = game.current_player
    b = (a + 1) % 3
    game.testing.give_property(b, 2)  # rent 800
    game.testing.set_cash(a, cash)
    land(game, a, 0, (1, 1))
    assert game.players[a].bankrupt == bankrupt
    assert game.players[a].cash == 0


@pytest.mark.parametrize("cash,offered", [(800, True), (799, False)])
def test_cell22_buy_with_exactly_the_price(cash: int, offered: bool) -> None:
    game = Game("cell22", players=["Ann", "Bob"], seed=1)
    a = game.current_player
    game.testing.set_cash(a, cash)
    land(game, a, 0, (1, 1))
    assert (game.decision.kind == "buy" and A.Buy(a) in game.legal_actions()) == offered
