"""The strong bot: one position per rule of sensible play (shared/spec/BOTS.md §5), each set up
with Game.scenario, chosen dice and stacked decks. Every test also asks the heuristic bot the
same question and checks it answers otherwise: the position tells the rule apart (the
heuristic stands in for the bug of forgetting the rule)."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import act, roll

from ugentopoly_widget import BotError, Game
from ugentopoly_widget.engine import actions as A
from ugentopoly_widget.engine.actions import ProposeTrade, TradeSide
from ugentopoly_widget.engine.bots import BOTS, HeuristicBot, make_bot
from ugentopoly_widget.engine.strong import words
from ugentopoly_widget.engine.strong.bot import QUIET_ROUNDS, StrongBot
from ugentopoly_widget.engine.strong.odds import board_facts
from ugentopoly_widget.engine.strong.winmodel import offer_change

ORANGE = (16, 18, 19)  # St. James Place, Tennessee Avenue, New York Avenue
RED = (21, 23, 24)
BROWN = (1, 3)


def blocker(cash: tuple[int, int] = (1500, 1500), **more: Any) -> Game:
    """The README's position: Ann holds two orange lots, Bob New York Avenue (2 players)."""
    owners: dict[Any, Any] = {16: "Ann", 18: "Ann", 19: "Bob"}
    owners.update(more.pop("owners", {}))
    return Game.scenario("classic", players=["Ann", "Bob"], seed=2, current="Ann",
                         owners=owners, cash=list(cash), **more)


def offer(game: Game, give: TradeSide, get: TradeSide) -> None:
    """The current player offers `give` for `get` to the other player (2 players)."""
    me = game.decision.player
    assert me is not None
    game.apply(ProposeTrade(me, 1 - me, give=give, get=get))


def both(game: Game) -> tuple[A.Action, A.Action]:
    """What the strong and the heuristic bot choose in the position (neither changes it)."""
    return StrongBot(seed=1).choose(game), HeuristicBot(seed=1).choose(game)


# ---------------------------------------------------------------------- trades


@pytest.mark.parametrize("times", [1.5, 2.0])
def test_the_blocking_lot_is_not_sold_at_a_multiple_of_its_price(times: float) -> None:
    game = blocker()
    offer(game, TradeSide(cash=int(200 * times)), TradeSide(properties=(19,)))
    strong, heuristic = both(game)
    assert type(strong) is A.RejectTrade
    assert type(heuristic) is A.AcceptTrade  # list-price bots sell it (BOTS.md §3)
    bot = StrongBot()
    bot.choose(game)
    assert bot.why is not None and bot.why.code == "reject_completes"
    assert bot.why.player == 0 and bot.why.pos == 19


def test_the_blocking_lot_goes_for_what_the_group_is_worth_to_the_buyer() -> None:
    """Not never: for cash the buyer then lacks to build with, it sells."""
    game = blocker()
    offer(game, TradeSide(cash=1300), TradeSide(properties=(19,)))
    assert type(StrongBot().choose(game)) is A.AcceptTrade


def test_a_swap_that_completes_a_better_group_for_the_bot_is_accepted() -> None:
    """Group for group (the common human deal): Bob completes orange, Ann brown."""
    game = Game.scenario("classic", players=["Ann", "Bob"], seed=2, current="Ann",
                         owners={1: "Ann", 19: "Ann", 16: "Bob", 18: "Bob", 3: "Bob"},
                         cash=[1500, 1500])
    offer(game, TradeSide(properties=(19,)), TradeSide(properties=(3,)))
    bot = StrongBot()
    assert type(bot.choose(game)) is A.AcceptTrade
    assert bot.why is not None and bot.why.code == "accept_swap"


def test_a_swap_that_completes_a_better_group_for_the_other_side_is_refused() -> None:
    """Bob would give the last orange lot for the last brown one and 150: his brown group is
    worth far less than Ann's orange one (a list-price bot counts 90 + 150 against 200)."""
    game = Game.scenario("classic", players=["Ann", "Bob"], seed=2, current="Ann",
                         owners={16: "Ann", 18: "Ann", 3: "Ann", 19: "Bob", 1: "Bob"},
                         cash=[1500, 1500])
    offer(game, TradeSide(properties=(3,), cash=150), TradeSide(properties=(19,)))
    strong, heuristic = both(game)
    assert type(strong) is A.RejectTrade
    assert type(heuristic) is A.AcceptTrade


def test_the_bot_proposes_an_even_group_for_group_swap_and_does_not_take_one() -> None:
    """Ann (strong) holds the last orange lot Bob needs, Bob the last brown one she needs: she
    offers the swap with cash that makes it about even (people take such deals), and a strong
    Bob refuses it: a swap the proposer picked, about even by the valuation, favours the
    proposer (benchmarks/duel_trades.py), so the bot takes a swap only at its margin."""
    game = Game.scenario("classic", players=["Ann", "Bob"], seed=2, current="Ann",
                         owners={1: "Ann", 19: "Ann", 16: "Bob", 18: "Bob", 3: "Bob"},
                         cash=[1500, 1500])
    ann = StrongBot(seed=1)
    proposal = ann.choose(game)
    assert isinstance(proposal, ProposeTrade)
    assert proposal.give.properties == (19,) and proposal.get.properties == (3,)
    assert proposal.get.cash > 0  # Bob pays for getting the better group
    assert ann.why is not None and ann.why.code == "offer_swap"
    game.apply(proposal)
    bob = StrongBot(seed=2)
    assert type(bob.choose(game)) is A.RejectTrade
    assert bob.why is not None and bob.why.code == "reject_completes" and bob.why.pos == 3
    heuristic = HeuristicBot(seed=1).choose(Game.scenario(
        "classic", players=["Ann", "Bob"], seed=2, current="Ann",
        owners={1: "Ann", 19: "Ann", 16: "Bob", 18: "Bob", 3: "Bob"}, cash=[1500, 1500]))
    assert not (isinstance(heuristic, ProposeTrade) and heuristic.give.properties)


def test_the_bot_never_breaks_up_its_own_group() -> None:
    game = Game.scenario("classic", players=["Ann", "Bob"], seed=2, current="Ann",
                         owners={"orange": "Bob"}, cash=[1500, 1500])
    offer(game, TradeSide(cash=450), TradeSide(properties=(19,)))
    bot = StrongBot()
    assert type(bot.choose(game)) is A.RejectTrade
    assert bot.why is not None and bot.why.code == "reject_breaks"


def test_the_bot_buys_the_missing_lot_for_cash_from_a_partner_who_sells() -> None:
    """Bob (strong) lacks New York Avenue, Ann holds it and nothing of orange else: he offers
    cash near its price first and raises his offer turn by turn, never above what the group
    is worth to him."""
    game = Game.scenario("classic", players=["Ann", "Bob"], seed=2, current="Bob",
                         owners={16: "Bob", 18: "Bob", 19: "Ann"}, cash=[1500, 1500])
    bob = StrongBot(seed=1)
    first = bob.choose(game)
    assert isinstance(first, ProposeTrade) and first.get.properties == (19,)
    assert 200 <= first.give.cash <= 260
    assert bob.why is not None and bob.why.code == "offer_buy"


def red_short_of_illinois() -> Game:
    """Bob (strong, 2,500 in cash, railroads, utilities) lacks Illinois Avenue for red; Ann,
    with 60 in cash, holds it and orange with a house on each lot."""
    bob = {21, 23, 5, 15, 25, 35, 26, 27, 12, 28, 1}
    owners: dict[Any, Any] = {q: "Bob" for q in bob}
    owners.update({16: "Ann", 18: "Ann", 19: "Ann", 24: "Ann"})
    return Game.scenario("classic", players=["Ann", "Bob"], seed=2, current="Bob",
                         owners=owners, cash=[60, 2500], buildings={16: 1, 18: 1, 19: 1})


@pytest.mark.parametrize("rung", [1, 2, 3])
def test_the_bot_makes_no_offer_the_model_of_the_chance_to_win_says_loses(rung: int) -> None:
    """Up its ladder Bob would pay 700, 1,136, 1,572 for Illinois Avenue (the valuation's
    limit); the calibrated model of the chance to win (worth and valuation) says each lowers
    his chance, so he rolls instead. Near the list price (rung 0) he still offers."""
    unchecked = StrongBot(seed=1)
    unchecked.check_offers = False
    checked = StrongBot(seed=1)
    for bot in (unchecked, checked):
        bot.ladder.made[(0, 24, -1)] = (rung, 0)
    game = red_short_of_illinois()
    offer = unchecked.choose(game)
    assert isinstance(offer, ProposeTrade) and offer.get.properties == (24,)
    assert offer.give.cash > 600
    w = checked.worth(game._engine)
    assert offer_change(w, game._engine, offer, 1) < 0.0
    assert type(checked.choose(game)) is A.Roll
    first = StrongBot(seed=1).choose(red_short_of_illinois())
    assert isinstance(first, ProposeTrade) and first.give.cash < 300


def test_the_check_stands_down_after_twenty_rounds_without_a_new_group() -> None:
    """Two bots that each refuse the other's terms would never end a game: after QUIET_ROUNDS
    rounds in which nobody completed a group, the offer the check stopped is made."""
    game = red_short_of_illinois()
    bot = StrongBot(seed=1)
    bot.ladder.made[(0, 24, -1)] = (3, 0)
    bot._groups_key = (1, 0)  # Ann's orange, nothing of Bob's: as at the last look
    bot._groups_round = game._engine.round - QUIET_ROUNDS
    offer = bot.choose(game)
    assert isinstance(offer, ProposeTrade) and offer.give.cash > 1000
    bot = StrongBot(seed=1)
    bot.ladder.made[(0, 24, -1)] = (3, 0)
    bot._groups_key = (1, 0)
    bot._groups_round = game._engine.round - QUIET_ROUNDS + 1
    assert type(bot.choose(game)) is A.Roll


# ---------------------------------------------------------------------- auctions


def auction_of_new_york(first_bid: int) -> Game:
    """Ann (2 orange lots) declines New York Avenue; Bob opens the auction at 10, Ann bids
    `first_bid`: Bob's turn to bid again."""
    game = Game.scenario("classic", players=["Ann", "Bob"], seed=2, current="Ann",
                         owners={16: "Ann", 18: "Ann"}, positions={"Ann": 13},
                         cash=[1500, 1500])
    roll(game, 2, 4)  # Ann to New York Avenue
    act(game, "decline", 0)
    game.apply(A.Bid(1, 10))
    game.apply(A.Bid(0, first_bid))
    assert game.decision.kind == "auction" and game.decision.player == 1
    return game


def test_the_bot_bids_above_the_list_price_to_block_a_group() -> None:
    game = auction_of_new_york(240)  # above the list price of 200
    strong, heuristic = both(game)
    assert isinstance(strong, A.Bid) and strong.amount > 240
    assert type(heuristic) is A.Pass
    bot = StrongBot()
    bot.choose(game)
    assert bot.why is not None and bot.why.code == "auction_blocks"


def test_the_bot_stays_in_an_auction_to_half_the_price_at_least() -> None:
    """A lot that completes nothing: the mortgage value alone covers half its price
    (Orbanes, BOTS.md §1.5)."""
    game = Game.scenario("classic", players=["Ann", "Bob"], seed=2, current="Ann",
                         positions={"Ann": 32}, cash=[1500, 1500])
    roll(game, 2, 3)  # Ann to Short Line
    act(game, "decline", 0)
    game.apply(A.Bid(1, 10))
    game.apply(A.Bid(0, 99))
    bid = StrongBot().choose(game)
    assert isinstance(bid, A.Bid) and bid.amount >= 100


def auction_between_strong_bots(game: Game) -> tuple[int, int]:
    """Two strong bots bid the auction in progress to its end: (winner, price)."""
    bots = [StrongBot(seed=1), StrongBot(seed=2)]
    while game.decision.kind == "auction":
        player = game.decision.player
        assert player is not None
        game.apply(bots[player].choose(game))
    (sale,) = [ev for ev in game.events if ev.kind == "auction_won"][-1:]
    return sale.data["payer"], sale.data["amount"]


def test_two_strong_bots_do_not_bid_a_lone_lot_far_past_its_price() -> None:
    """Illinois Avenue (listed at 240) declined on the first turn, both players with 1,500:
    it sells between its mortgage value and a little above its price (the valuation alone
    took it to 1,240 and left the winner without the cash for the lots still for sale)."""
    game = Game.scenario("classic", players=["Ann", "Bob"], seed=2, current="Ann",
                         positions={"Ann": 14}, cash=[1500, 1500])
    roll(game, 6, 4, player=0)  # Ann to Illinois Avenue
    act(game, "decline", 0)
    _, price = auction_between_strong_bots(game)
    assert 120 <= price <= 240 * 1.2


def test_the_last_lot_of_ones_group_is_bid_to_the_valuations_limit() -> None:
    """New York Avenue at auction, Ann holding the two other orange lots: no cap on either
    side. Each limit is the price where Ann owning it and Bob owning it score the same, so in
    two-player play denying the group is worth about what completing it is: Bob bids to
    block up to there (1,273 of his 1,500), Ann to complete it (1,275) and wins. A cap on
    the blocker (1.6 times the price) made the analysis' rival give up at 320, and declining
    the lot looked like an inaccuracy instead of a blunder."""
    game = Game.scenario("classic", players=["Ann", "Bob"], seed=2, current="Ann",
                         owners={16: "Ann", 18: "Ann"}, positions={"Ann": 13},
                         cash=[1500, 1500])
    roll(game, 2, 4)  # Ann to New York Avenue
    act(game, "decline", 0)
    e = game._engine
    bot = StrongBot()
    limits = [bot._lot_limit(e, bot.worth(e), i, 19, [0, 1]) for i in (0, 1)]
    winner, price = auction_between_strong_bots(game)
    assert winner == 0 and price >= min(limits)


def test_a_bid_is_never_more_than_wins_outright() -> None:
    """Bob has 60: Ann wins Pacific Avenue (listed at 300) for at most 61 (the jump to half
    the price would pay 150 for it)."""
    game = Game.scenario("classic", players=["Ann", "Bob"], seed=2, current="Ann",
                         positions={"Ann": 25}, cash=[1500, 60])
    roll(game, 2, 4)  # Ann to Pacific Avenue
    act(game, "decline", 0)
    winner, price = auction_between_strong_bots(game)
    assert winner == 0 and price <= 61


# ---------------------------------------------------------------------- building


def test_the_third_house_comes_before_a_new_groups_first() -> None:
    """Bob: orange at two houses each, red unbuilt, cash for one more house: the third house
    on orange repays fastest (BOTS.md §1.1); the heuristic builds level by level."""
    game = Game.scenario("classic", players=["Ann", "Bob"], seed=2, current="Bob",
                         owners={"orange": "Bob", "red": "Bob"}, buildings={"orange": 2},
                         cash=[1500, 450])
    strong, heuristic = both(game)
    assert isinstance(strong, A.Build) and strong.position in ORANGE
    assert isinstance(heuristic, A.Build) and heuristic.position in RED
    bot = StrongBot()
    bot.choose(game)
    assert bot.why is not None and bot.why.code == "build" and bot.why.amount == 3


def test_four_houses_are_held_in_a_housing_shortage() -> None:
    """Bob has four houses on orange and green and cash for hotels; the bank has 8 houses
    left and Ann a whole red group waiting: a hotel would hand her four more (BOTS.md
    §1.3)."""
    game = Game.scenario("classic", players=["Ann", "Bob"], seed=2, current="Bob",
                         owners={"orange": "Bob", "green": "Bob", "red": "Ann"},
                         buildings={"orange": 4, "green": 4}, cash=[1500, 2000])
    assert game.houses_left == 8
    strong, heuristic = both(game)
    assert type(strong) is A.Roll
    assert isinstance(heuristic, A.Build)  # the hotel
    bot = StrongBot()
    bot.choose(game)
    assert bot.why is not None and bot.why.code == "hold_houses"


def test_a_single_lot_is_mortgaged_to_pay_for_the_third_house() -> None:
    """Bob has orange at two houses, 60 in cash and a lone railway: mortgaging the railway
    pays for the third house (BOTS.md §5.8)."""
    game = Game.scenario("classic", players=["Ann", "Bob"], seed=2, current="Bob",
                         owners={"orange": "Bob", 5: "Bob"}, buildings={"orange": 2},
                         cash=[1500, 60])
    strong, heuristic = both(game)
    assert isinstance(strong, A.Mortgage) and strong.position == 5
    assert type(heuristic) is A.Roll


# ---------------------------------------------------------------------- jail


def in_jail(owners: dict[Any, Any], buildings: dict[Any, Any] | None = None) -> Game:
    return Game.scenario("classic", players=["Ann", "Bob"], seed=2, current="Bob",
                         owners=owners, buildings=buildings or {}, jail=["Bob"],
                         cash=[1500, 1500])


def test_jail_is_left_early_while_lots_are_for_sale() -> None:
    game = in_jail({16: "Ann"})
    bot = StrongBot()
    assert type(bot.choose(game)) is A.PayFine
    assert bot.why is not None and bot.why.code == "jail_leave_pay"


def test_jail_is_kept_late_when_the_board_is_built_up() -> None:
    """Everything owned, Ann with hotels on orange and red: rolling for doubles keeps Bob off
    her lots for up to three turns (Collins, BOTS.md §1.4)."""
    bobs = (5, 15, 25, 35, 12, 28)  # the stations and utilities; Ann every street
    everything: dict[Any, Any] = {
        pos: "Bob" if pos in bobs else "Ann"
        for pos in Game("classic", players=2).board.property_positions}
    game = in_jail(everything, {"orange": "hotel", "red": "hotel"})
    strong, heuristic = both(game)
    assert type(strong) is A.Roll
    assert type(heuristic) is A.PayFine


# ---------------------------------------------------------------------- raising money


def test_a_single_lot_is_mortgaged_before_houses_are_sold_and_set_lots() -> None:
    """Bob owes tax he cannot pay: a lone railway's mortgage costs him least; a lot of his
    whole red group (it would stop the group's building) and a house on orange (half its
    price lost, and the third house's rent) cost more (BOTS.md §1.6)."""
    game = Game.scenario("classic", players=["Ann", "Bob"], seed=2, current="Bob",
                         owners={"orange": "Bob", "red": "Bob", 15: "Bob"},
                         buildings={"orange": 3}, positions={"Bob": 35}, cash=[1500, 10])
    roll(game, 1, 2)  # Luxury Tax, 100
    assert game.decision.kind == "debt"
    strong, heuristic = both(game)
    assert isinstance(strong, A.Mortgage) and strong.position == 15
    assert isinstance(heuristic, A.Sell)
    bot = StrongBot()
    bot.choose(game)
    assert bot.why is not None and bot.why.code == "raise_mortgage"


# ---------------------------------------------------------------------- buying


def test_a_lot_that_blocks_a_group_is_bought_with_little_cash() -> None:
    game = Game.scenario("classic", players=["Ann", "Bob"], seed=2, current="Bob",
                         owners={16: "Ann", 18: "Ann"}, positions={"Bob": 13},
                         cash=[1500, 320])
    roll(game, 2, 4)
    assert game.decision.kind == "buy"
    strong, heuristic = both(game)
    assert type(strong) is A.Buy
    assert type(heuristic) is A.Decline
    bot = StrongBot()
    bot.choose(game)
    assert bot.why is not None and bot.why.code == "buy_blocks"


# ---------------------------------------------------------------------- reasons in words


def test_the_reason_of_the_readme_position_in_english_and_dutch() -> None:
    game = blocker()
    offer(game, TradeSide(cash=300), TradeSide(properties=(19,)))
    en = StrongBot().explain(game)
    nl = StrongBot().explain(game, "nl")
    assert en.startswith("Bob rejects: New York Avenue completes Ann's orange group, worth "
                         "about +")
    assert en.endswith(" per opponent roll to Ann.")
    assert nl.startswith("Bob weigert: New York Avenue vervolledigt de groep oranje van Ann")


def test_every_reason_has_words_in_both_languages() -> None:
    for code, by_lang in words.PHRASES.items():
        assert set(by_lang) == {"en", "nl"}, code


def test_explaining_changes_neither_the_game_nor_the_bot() -> None:
    game = Game.scenario("classic", players=["Ann", "Bob"], seed=2, current="Bob",
                         owners={16: "Bob", 18: "Bob", 19: "Ann"}, cash=[1500, 1500])
    bot = StrongBot(seed=1)
    record = game.record()
    text = bot.explain(game)
    assert "offers Ann" in text
    assert game.record() == record
    assert bot.ladder.made == {}
    assert bot.choose(game) == StrongBot(seed=1).choose(game)


# ---------------------------------------------------------------------- names and odds


def test_the_strong_bot_goes_by_its_name() -> None:
    assert BOTS["strong"] is StrongBot
    assert isinstance(make_bot("strong", seed=3), StrongBot)
    with pytest.raises(BotError, match="unknown bot 'stronk'"):
        make_bot("stronk")
    from ugentopoly_widget.simulation import simulate

    with pytest.raises(BotError, match="unknown bot 'stronk'"):
        simulate(2, "classic", bots=["strong", "stronk"], progress=False)


@pytest.mark.parametrize("profile", ["classic", "ugentopoly", "cell22"])
def test_the_bots_landing_odds_agree_with_the_probability_lab(profile: str) -> None:
    """The bot's own small chain (the engine cannot import the lab) within a fraction of a
    point of the lab's exact long-jail figures, on every property."""
    pytest.importorskip("pandas")
    from ugentopoly_widget.probability.money import property_income

    game = Game(profile, players=2)
    facts = board_facts(game._engine)
    table = property_income(game, jail="long")
    for pos, p in table.groupby("position")["landing_probability"].first().items():
        assert facts.land[int(pos)] == pytest.approx(float(p), abs=0.0025), pos
