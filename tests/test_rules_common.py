"""RULES.md section 0 (common to every rule set), played with chosen dice."""

from __future__ import annotations

import random

import pytest
from helpers import act, idle_turn, kinds, money, new_game, roll, seats

from ugentopoly_widget import Game, SetupError
from ugentopoly_widget.engine.boards.board import TileKind
from ugentopoly_widget.engine.boards.loader import parse_board
from ugentopoly_widget.engine.bots import HeuristicBot, RandomBot, play_game

PROFILES = ["ugentopoly", "classic", "cell22"]

EIGHT_TILES = """<?xml version="1.0" encoding="UTF-8"?>
<board>
  <settings balance="500" start="100"/>
  <areas><area id="a1" color="#8b4513"/></areas>
  <tiles>
    <tile type="START" position="0" id="t0"/>
    <tile type="STREET" position="1" area="a1" id="t1" cost="60" rent0="5"/>
    <tile type="TAX" position="2" id="t2" amount="30"/>
    <tile type="RAILWAY" position="3" id="t3" cost="100" rent="20"/>
    <tile type="JAIL" position="4" id="t4"/>
    <tile type="STREET" position="5" area="a1" id="t5" cost="80" rent0="7"/>
    <tile type="GO_TO_JAIL" position="6" id="t6"/>
    <tile type="FREE_PARKING" position="7" id="t7"/>
  </tiles>
</board>
"""


# ---------------------------------------------------------------- the board


@pytest.mark.parametrize("profile,size", [("ugentopoly", 40), ("classic", 40), ("cell22", 22)])
def test_bundled_boards_are_rings_starting_at_start(profile: str, size: int) -> None:
    game = new_game(profile)
    board = game.board
    assert board.size == size
    assert board.tiles[0].kind is TileKind.START
    assert [t.position for t in board.tiles] == list(range(size))
    assert {t.kind for t in board.tiles} <= set(TileKind)
    for kind in (TileKind.JAIL, TileKind.GO_TO_JAIL, TileKind.FREE_PARKING):
        assert len(board.positions_of(kind)) == 1


def test_any_ring_of_eight_tiles_from_a_file_plays() -> None:
    board = parse_board(EIGHT_TILES, file="eight.xml")
    game = Game("ugentopoly", players=["Ann", "Bob"], seed=5, board=board)
    assert game.board.size == 8
    a, b = seats(game)
    assert [p.cash for p in game.players] == [500, 500]
    game.testing.place(a, 6)
    events = roll(game, 2, 3)  # 6 + 5 = 11 -> 3 (past START)
    assert game.players[a].position == 3
    assert money(events, "salary") == [("salary", "bank", a, 100)]
    act(game, "buy", a)
    assert game.owner(3) == a
    game.testing.place(b, 7)
    events = roll(game, 1, 3, player=b)  # 7 + 4 = 11 -> 3: pays A the railway rent
    assert money(events, "rent") == [("rent", b, a, 20)]
    game.testing.place(a, 5)
    roll(game, 1, 2, player=a)  # 5 + 3 = 8 -> exactly START: double salary
    assert game.players[a].position == 0
    assert game.players[a].cash == 500 + 100 - 100 + 20 + 200


# ---------------------------------------------------------------- players


@pytest.mark.parametrize("profile", PROFILES)
def test_players_get_unique_tokens_and_colours(profile: str) -> None:
    game = new_game(profile, players=["Ann", "Bob", "Cat"])
    assert [p.name for p in game.players] == ["Ann", "Bob", "Cat"]
    assert len({p.token for p in game.players}) == 3
    assert len({p.colour for p in game.players}) == 3
    assert all(p.token and p.colour for p in game.players)


@pytest.mark.parametrize("names", [["Ann", ""], ["Ann", "   "], ["Ann", "Ann"]])
def test_names_must_be_non_empty_and_unique(names: list[str]) -> None:
    with pytest.raises(SetupError):
        new_game(players=names)


def test_a_taken_token_is_refused_with_a_clear_message() -> None:
    players = [{"name": "Ann", "token": "dog"}, {"name": "Bob", "token": "dog"}]
    with pytest.raises(SetupError) as info:
        Game("ugentopoly", players=players, seed=1)
    message = str(info.value)
    assert "dog" in message and "taken" in message and "Bob" in message


def test_chosen_tokens_and_colours_are_kept() -> None:
    players = [{"name": "Ann", "token": "dog", "colour": "#000001"},
               {"name": "Bob", "token": "cat", "colour": "#000002"}]
    game = Game("ugentopoly", players=players, seed=1)
    assert [(p.token, p.colour) for p in game.players] == [("dog", "#000001"),
                                                           ("cat", "#000002")]


# ---------------------------------------------------------------- who starts


@pytest.mark.parametrize("profile", PROFILES)
def test_who_starts_is_drawn_by_the_seeded_generator(profile: str) -> None:
    names = ["Ann", "Bob", "Cat", "Dan"]
    firsts = [new_game(profile, players=names, seed=s).current_player for s in range(40)]
    assert set(firsts) == {0, 1, 2, 3}
    again = [new_game(profile, players=names, seed=s).current_player for s in range(40)]
    assert firsts == again
    game = new_game(profile, players=names, seed=7)
    assert [e.kind for e in game.events if e.kind == "first_player"] == ["first_player"]
    assert game.decision.player == game.current_player


def test_first_player_does_not_use_the_global_random_module() -> None:
    random.seed(1)
    first = new_game(players=["Ann", "Bob", "Cat", "Dan"], seed=11).current_player
    for s in range(5):
        random.seed(s)
        assert new_game(players=["Ann", "Bob", "Cat", "Dan"], seed=11).current_player == first


# ---------------------------------------------------------------- dice


def _rolls(game: Game) -> list[list[int]]:
    return [e.data["dice"] for e in game.events if e.kind == "rolled"]


@pytest.mark.parametrize("profile", PROFILES)
def test_two_six_sided_dice_by_default(profile: str) -> None:
    game = new_game(profile, seed=3)
    play_game(game, [RandomBot(seed=1), RandomBot(seed=2)], max_actions=3000)
    rolls = _rolls(game)
    assert len(rolls) > 50
    assert all(len(r) == 2 for r in rolls)
    assert {v for r in rolls for v in r} == {1, 2, 3, 4, 5, 6}


def test_dice_sides_is_a_parameter() -> None:
    game = new_game(seed=3, dice_sides=4)
    play_game(game, [RandomBot(seed=1), RandomBot(seed=2)], max_actions=2000)
    assert {v for r in _rolls(game) for v in r} == {1, 2, 3, 4}


def test_scripted_dice_are_used_in_order() -> None:
    game = new_game()
    a, b = seats(game)
    game.testing.script_dice((1, 2), (2, 4))
    act(game, "roll", a)
    act(game, "decline", a)
    act(game, "roll", b)
    assert _rolls(game) == [[1, 2], [2, 4]]
    assert game.players[a].position == 3 and game.players[b].position == 6


def test_doubles_roll_again_after_the_move_is_resolved() -> None:
    game = new_game()
    a, b = seats(game)
    roll(game, 3, 3)  # -> 6, street: the buy is decided before the extra roll
    assert game.decision.kind == "buy" and game.decision.player == a
    act(game, "buy", a)
    assert game.decision.kind == "turn" and game.decision.player == a
    roll(game, 1, 2, player=a)  # -> 9
    act(game, "decline", a)
    assert game.decision.kind == "turn" and game.decision.player == b
    assert game.players[a].position == 9
    assert game.owner(6) == a


def test_third_consecutive_double_jails_without_moving() -> None:
    game = new_game()
    a, b = seats(game)
    game.testing.place(a, 10)
    idle_turn(game, a, (1, 1))  # -> 12
    assert game.decision.player == a
    idle_turn(game, a, (2, 2))  # -> 16
    events = roll(game, 4, 4, player=a)
    assert "moved" not in kinds(events)
    assert game.players[a].position == 10 and game.players[a].in_jail
    assert game.decision.player == b


def test_doubles_are_counted_per_turn() -> None:
    game = new_game()
    a, b = seats(game)
    game.testing.place(a, 10)
    idle_turn(game, a, (1, 1))
    idle_turn(game, a, (2, 2))
    idle_turn(game, a, (1, 2))  # turn ends after two doubles
    game.testing.place(b, 10)
    idle_turn(game, b, (1, 2))
    idle_turn(game, a, (1, 1))  # a new turn: this double is the first one
    assert not game.players[a].in_jail
    assert game.decision.player == a


def test_cell22_has_no_doubles_rule() -> None:
    game = new_game("cell22")
    a, b = seats(game)
    game.testing.place(a, 9)
    events = roll(game, 1, 1)  # -> 11 Car Park
    assert "roll_again" not in kinds(events)
    assert game.decision.player == b
    for _ in range(3):
        game.testing.place(b, 9)
        roll(game, 1, 1, player=b)
        game.testing.place(a, 9)
        roll(game, 1, 1, player=a)
    assert not game.players[a].in_jail and not game.players[b].in_jail


# ---------------------------------------------------------------- money and books


def _check_books(game: Game, start: list[int]) -> None:
    """Every amount is an integer; the events alone explain every player's cash."""
    cash = list(start)
    pot = 0
    for e in game.events:
        if not e.moves_money:
            continue
        amount, payer, payee = e.data["amount"], e.data["payer"], e.data["payee"]
        assert isinstance(amount, int) and not isinstance(amount, bool), e
        for party in (payer, payee):
            assert party in ("bank", "pot") or (isinstance(party, int) and 0 <= party < 8), e
        if isinstance(payer, int):
            cash[payer] -= amount
        if isinstance(payee, int):
            cash[payee] += amount
        pot += (payee == "pot") * amount - (payer == "pot") * amount
    assert cash == [p.cash for p in game.players]
    assert pot == game.pot
    assert all(isinstance(p.cash, int) for p in game.players)


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_books_balance_after_every_action(profile: str, seed: int) -> None:
    names = ["Ann", "Bob", "Cat"]
    game = new_game(profile, players=names, seed=seed)
    start = [p.cash for p in game.players]
    bots = [HeuristicBot(seed=seed), RandomBot(seed=seed + 1), HeuristicBot(seed=seed + 2)]
    for _ in range(1500):
        if game.is_over:
            break
        game.apply(bots[game.decision.player].choose(game))
        assert game.money_total() == game.initial_money
        assert all(p.cash >= 0 for p in game.players)
    _check_books(game, start)


def test_books_balance_in_a_scripted_ugentopoly_game() -> None:
    game = new_game()
    a, b = seats(game)
    start = [p.cash for p in game.players]
    game.testing.place(a, 1)
    roll(game, 1, 2)  # tax into the pot
    game.testing.place(b, 16)
    roll(game, 1, 3, player=b)  # pot paid out
    _check_books(game, start)
    assert game.money_total() == game.initial_money


# ---------------------------------------------------------------- randomness and determinism


def _bot_log(profile: str, seed: int, disturb: bool) -> list[str]:
    game = new_game(profile, players=["Ann", "Bob", "Cat"], seed=seed)
    bots = [RandomBot(seed=10), HeuristicBot(seed=11), RandomBot(seed=12)]
    for step in range(800):
        if game.is_over:
            break
        if disturb:
            random.seed(step * 7919)
            random.random()
            random.shuffle(list(range(10)))
        game.apply(bots[game.decision.player].choose(game))
    return game.log("en")


@pytest.mark.parametrize("profile", PROFILES)
def test_same_seed_same_actions_same_log_even_with_global_random_reseeded(profile: str) -> None:
    random.seed(12345)
    first = _bot_log(profile, 99, disturb=False)
    random.seed(54321)
    second = _bot_log(profile, 99, disturb=True)
    assert len(first) > 20
    assert first == second


def test_different_seeds_give_different_games() -> None:
    logs = {tuple(_bot_log("ugentopoly", s, disturb=False)) for s in range(4)}
    assert len(logs) > 1


def test_text_actions_like_the_graders_type_them() -> None:
    game = new_game()
    a, b = seats(game)
    game.testing.script_dice((1, 2))
    events = game.apply(f"{a}:roll")
    assert game.players[a].position == 3 and "rolled" in kinds(events)
    game.act("buy")
    assert game.owner(3) == a
    assert game.decision.player == b


@pytest.mark.parametrize("profile", PROFILES)
def test_replaying_the_same_seed_and_actions_gives_the_same_log(profile: str) -> None:
    game = new_game(profile, players=["Ann", "Bob", "Cat"], seed=21)
    bots = [RandomBot(seed=1), HeuristicBot(seed=2), RandomBot(seed=3)]
    for _ in range(200):
        if game.is_over:
            break
        game.apply(bots[game.decision.player].choose(game))
    random.seed(777)
    again = Game.replay(game.record())
    assert again.log("en") == game.log("en")
    assert [p.cash for p in again.players] == [p.cash for p in game.players]
