"""A round limit that is fair to every player, and the two valuations of a player's holdings
(the official net worth of the income tax; the short/timed ranking count)."""

from __future__ import annotations

from collections import Counter

import pytest
from classic_helpers import BROWN, PRICE, do, give, idle_turn, roll, seats
from classic_helpers import new_game as classic_game

from ugentopoly_widget import Game
from ugentopoly_widget.engine import actions as A
from ugentopoly_widget.engine.bots import HeuristicBot, RandomBot, play_game


def turns_per_player(game: Game) -> Counter[int]:
    return Counter(e.player for e in game.events if e.kind == "turn_started")


def play_out(game: Game, seed: int, limit: int = 20_000) -> None:
    bots = [RandomBot(seed=seed + k) if k % 2 else HeuristicBot(seed=seed + k)
            for k in range(len(game.players))]
    for _ in range(limit):
        if game.is_over:
            return
        game.apply(bots[game.decision.player or 0].choose(game))
    raise AssertionError("the game did not end")


# ---------------------------------------------------------------- round_limit (item 1)


@pytest.mark.parametrize("limit", [1, 2])
def test_round_limit_named_case_cell22_seed_0_cy_starts(limit: int) -> None:
    """Issue 6: with Cy drawn to start, the game ended after Cy's first turn."""
    game = Game("cell22", players=["Ann", "Bob", "Cy"], seed=0, options={"round_limit": limit})
    assert game.current_player == 2  # Cy starts
    play_out(game, seed=1)
    assert game._engine.over_reason == "round_limit"
    assert turns_per_player(game) == {0: limit, 1: limit, 2: limit}
    assert game.state()["round"] == limit


PROFILES = ["ugentopoly", "classic", "cell22"]


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_round_limit_gives_every_active_player_the_same_number_of_turns(
    profile: str, players: int
) -> None:
    by_limit = 0
    firsts = set()
    for seed in range(8):
        limit = 1 + seed % 4
        game = Game(profile, players=players, seed=seed, options={"round_limit": limit})
        firsts.add(game.current_player)
        play_out(game, seed=seed)
        turns = turns_per_player(game)
        if game._engine.over_reason != "round_limit":
            continue
        by_limit += 1
        for p in game.players:
            if p.bankrupt:
                assert turns[p.index] <= limit
            else:
                assert turns[p.index] == limit, (seed, dict(turns))
    assert by_limit >= 4
    assert len(firsts) >= 2  # the drawn first player varies: not always seat 0


def _land_cell22(game: Game, player: int, position: int) -> None:
    game.testing.place(player, position - 2)
    game.testing.script_dice((1, 1))
    game.apply(A.Roll(player))
    while game.decision.kind in ("buy", "house_offer") and game.decision.player == player:
        game.apply(A.Decline(player))


def test_bankruptcy_of_the_current_player_mid_round_costs_nobody_a_turn() -> None:
    """cell22, 3 players: the second in turn order goes bankrupt in round 1; the other two
    still get exactly 2 turns each with round_limit=2."""
    game = Game("cell22", players=["Ann", "Bob", "Cy"], seed=0, options={"round_limit": 2})
    a, b, c = [(game.current_player + k) % 3 for k in range(3)]
    game.testing.give_property(a, 5)  # Lecture hall: rent to a
    _land_cell22(game, a, 8)
    game.testing.set_cash(b, 10)
    _land_cell22(game, b, 5)
    assert game.players[b].bankrupt
    for _ in range(3):
        assert not game.is_over
        _land_cell22(game, game.current_player, 8)
    assert game.is_over and game._engine.over_reason == "round_limit"
    assert turns_per_player(game) == {a: 2, b: 1, c: 2}


def test_bankruptcy_of_the_first_player_mid_round_costs_nobody_a_turn() -> None:
    game = Game("cell22", players=["Ann", "Bob", "Cy"], seed=0, options={"round_limit": 2})
    a, b, c = [(game.current_player + k) % 3 for k in range(3)]
    game.testing.give_property(b, 5)
    game.testing.set_cash(a, 10)
    _land_cell22(game, a, 5)  # the player drawn to start is out in their first turn
    assert game.players[a].bankrupt
    order = []
    while not game.is_over:
        order.append(game.current_player)
        _land_cell22(game, game.current_player, 8)
    assert order == [b, c, b, c]
    assert turns_per_player(game) == {a: 1, b: 2, c: 2}


def test_bankruptcy_outside_ones_turn_costs_nobody_a_turn() -> None:
    """classic: a birthday card makes the last player of the round bankrupt during the first
    player's turn; the round then ends after the second player, as it must."""
    game = classic_game(3, round_limit=1)
    a, b, c = seats(game)
    game.testing.set_cash(c, 5)
    game.testing.place(a, 0)
    game.testing.stack_deck("CHEST", ["card.chest.07"])  # collect 50 from every player
    roll(game, (1, 1))  # 0 -> 2: Community Chest; a double, so a rolls again later
    assert game.decision.kind == "debt" and game.decision.player == c
    do(game, A.DeclareBankruptcy(c))
    assert game.players[c].bankrupt and game.current_player == a
    roll(game, (4, 6))  # the double's extra roll: 2 -> 12
    while game.decision.kind != "post_roll":
        decider = game.decision.player
        do(game, A.Decline(decider) if game.decision.kind == "buy" else A.Pass(decider))
    do(game, A.EndTurn(a))
    assert not game.is_over and game.current_player == b
    idle_turn(game)
    assert game.is_over and game._engine.over_reason == "round_limit"
    assert turns_per_player(game) == {a: 1, b: 1}


# ---------------------------------------------------------------- two valuations (item 2)


def _holdings(game: Game, player: int) -> None:
    """Brown with a house on each lot (2 x 60 + 2 x 50) and a mortgaged Boardwalk (400)."""
    give(game, player, *BROWN, 39)
    do(game, A.Build(player, 1))
    do(game, A.Build(player, 3))
    do(game, A.Mortgage(player, 39))


def test_official_net_worth_counts_mortgaged_property_at_its_printed_price() -> None:
    game = classic_game(2)
    a, _ = seats(game)
    _holdings(game, a)
    game.testing.set_cash(a, 1000)
    assert game.net_worth(a) == 1000 + 60 + 60 + 400 + 2 * 50
    assert game.valuation(a) == 1000 + 60 + 60 + 400 // 2 + 2 * 50


def test_income_tax_percent_uses_the_official_net_worth() -> None:
    game = classic_game(2)
    a, _ = seats(game)
    _holdings(game, a)
    game.testing.set_cash(a, 1005)
    worth = 1005 + 60 + 60 + PRICE[39] + 2 * 50  # 1625, mortgaged Boardwalk at 400
    game.testing.place(a, 0)
    roll(game, (1, 3))  # Income Tax
    do(game, A.ChooseTax(a, "percent"))
    tax = [e for e in game.events if e.kind == "tax"][-1]
    assert tax.data["net_worth"] == worth
    assert tax.data["amount"] == worth // 10 == 162
    assert game.players[a].cash == 1005 - 162


@pytest.mark.parametrize("mode", ["short", "timed", "long"])
def test_ranking_counts_mortgaged_property_at_half(mode: str) -> None:
    """a: cash + a mortgaged Boardwalk; b: cash between the two counts of a. By the ranking
    valuation (Boardwalk at 200) b wins; by the official net worth (400) a would."""
    options = {"mode": mode, "turn_limit": 2}
    if mode == "timed":
        options["time_limit_minutes"] = 60
    game = classic_game(2, **options)
    a, b = seats(game)
    for pos in list(game.properties_of(b)):  # deeds dealt in short and timed games
        game.testing.give_property(a, pos)
    assert game.properties_of(b) == []
    for pos in list(game.properties_of(a)):
        do(game, A.Mortgage(a, pos))
    give(game, a, 39)
    do(game, A.Mortgage(a, 39))
    game.testing.set_cash(a, 1000)
    worth_a, value_a = game.net_worth(a), game.valuation(a)
    assert worth_a - value_a >= 200
    game.testing.set_cash(b, value_a + 1)
    for _ in range(2):
        idle_turn(game)
    assert game.is_over
    assert game.winners == [b]
    assert game._engine.scores == [game.valuation(i) for i in range(2)]
    assert game.valuation(b) > game.valuation(a) and game.net_worth(a) > game.net_worth(b)


def test_valuations_is_valuation_of_every_player() -> None:
    """Game.valuations() (one call, the widget's net-worth samples) agrees with valuation(i)
    at every turn of a seeded classic game with buildings and mortgages."""
    game = Game("classic", players=4, seed=11, options={"turn_limit": 600})
    bots = [HeuristicBot(seed=k) for k in range(4)]
    checked = 0
    while not game.is_over:
        play_game(game, bots, until_turn=game.turn_number + 1)
        assert game.valuations() == [game.valuation(i) for i in range(4)]
        checked += 1
    assert checked > 20
