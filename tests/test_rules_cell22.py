"""RULES.md section 3 (the 22-cell game, seed 002), with chosen dice and forced draws."""

from __future__ import annotations

import pytest
from helpers import act, custom_board, kinds, money, new_game, roll, seats

from ugentopoly_widget import Game
from ugentopoly_widget.engine.boards.board import TileKind
from ugentopoly_widget.engine.errors import InvalidActionError

START = 10000
HOME_PAY = 2000
HOME, BIKE_SHED, DORM, CHANCE, NORTH, LECTURE, JAIL, LIBRARY = 0, 1, 2, 3, 4, 5, 6, 7
CAR_PARK, CHEST, GO_TO_JAIL, CANTEEN = 11, 14, 17, 18
STATIONS = (4, 10, 15, 20)


def _game(**options: object) -> tuple[Game, int, int]:
    game = new_game("cell22", **options)
    a, b = seats(game)
    return game, a, b


def _idle(game: Game, player: int) -> None:
    """A turn with no effect: from 4, a 2 lands on the Jail tile (a visit)."""
    game.testing.place(player, 4)
    roll(game, 1, 1, player=player)
    assert game.players[player].position == JAIL and not game.players[player].in_jail


def _land(game: Game, player: int, position: int) -> list:
    """Move `player` onto `position` with a roll of 1+1 (never passing Home)."""
    assert position >= 2
    game.testing.place(player, position - 2)
    return roll(game, 1, 1, player=player)


# ---------------------------------------------------------------- the board


def test_board_has_22_tiles_of_the_required_kinds() -> None:
    game, _, _ = _game()
    tiles = game.board.tiles
    assert len(tiles) == 22
    assert tiles[0].kind is TileKind.START
    count = {k: sum(1 for t in tiles if t.kind is k) for k in TileKind}
    assert count[TileKind.RAILWAY] == 4
    assert count[TileKind.UTILITY] == 2
    assert count[TileKind.STREET] == 10
    for kind in (TileKind.JAIL, TileKind.FREE_PARKING, TileKind.GO_TO_JAIL, TileKind.CHANCE,
                 TileKind.CHEST):
        assert count[kind] == 1
    assert count[TileKind.TAX] == 0
    assert {game.board.tile_name(p) for p in (LIBRARY, CANTEEN)} == {"Library", "Canteen"}


# ---------------------------------------------------------------- Home and money


def test_everyone_starts_at_home_with_10000() -> None:
    game = new_game("cell22", players=["Ann", "Bob", "Cat"])
    assert [(p.cash, p.position) for p in game.players] == [(START, HOME)] * 3


def test_nothing_for_leaving_home_at_the_start() -> None:
    game, a, _ = _game()
    events = roll(game, 2, 3)  # Home -> 5
    assert money(events) == []
    assert game.players[a].cash == START
    assert game.decision.kind == "buy" and game.decision.data["position"] == LECTURE


def test_passing_home_pays_2000() -> None:
    game, a, _ = _game()
    game.testing.place(a, 20)
    events = roll(game, 1, 2)  # 20 -> 23 = 1
    assert money(events, "salary") == [("salary", "bank", a, HOME_PAY)]
    assert game.players[a].position == BIKE_SHED
    assert game.players[a].cash == START + HOME_PAY


def test_landing_on_home_pays_2000_not_double() -> None:
    game, a, b = _game()
    game.testing.place(a, 19)
    events = roll(game, 1, 2)  # 19 -> 22 = Home
    assert game.players[a].position == HOME
    assert sum(m[3] for m in money(events)) == HOME_PAY
    assert game.players[a].cash == START + HOME_PAY
    assert game.decision.player == b


# ---------------------------------------------------------------- buying and houses


def test_buy_at_base_cost() -> None:
    game, a, _ = _game()
    _land(game, a, DORM)
    events = act(game, "buy", a)
    assert money(events) == [("bought", a, "bank", 800)]
    assert game.owner(DORM) == a and game.players[a].cash == START - 800


def test_refused_purchase_stays_with_the_bank() -> None:
    game, a, b = _game()
    _land(game, a, DORM)
    events = act(game, "decline", a)
    assert not [k for k in kinds(events) if k.startswith("auction")]
    assert game.owner(DORM) is None and game.decision.player == b


def test_house_offer_on_own_ordinary_street_for_a_fifth_of_the_cost() -> None:
    game, a, b = _game()
    game.testing.give_property(a, LECTURE)
    _land(game, a, LECTURE)
    assert game.decision.kind == "house_offer" and game.decision.player == a
    events = act(game, "build", a)
    assert money(events) == [("built", a, "bank", 200)]
    assert game.buildings(LECTURE) == 1
    assert game.players[a].cash == START - 200
    assert game.decision.player == b


def test_houses_are_unlimited_one_per_landing() -> None:
    game, a, b = _game()
    game.testing.give_property(a, BIKE_SHED)
    for houses in range(1, 7):
        game.testing.place(a, 20)
        roll(game, 1, 2, player=a)  # passes Home (+2000) onto Bike Shed
        act(game, "build", a)
        assert game.buildings(BIKE_SHED) == houses
        _idle(game, b)
    assert game.players[a].cash == START + 6 * HOME_PAY - 6 * 120


def test_declining_the_house_offer_builds_nothing() -> None:
    game, a, _ = _game()
    game.testing.give_property(a, DORM)
    _land(game, a, DORM)
    act(game, "decline", a)
    assert game.buildings(DORM) == 0 and game.players[a].cash == START


@pytest.mark.parametrize("position", [NORTH, LIBRARY, CANTEEN, 20])
def test_no_house_offer_on_stations_or_utilities(position: int) -> None:
    game, a, b = _game()
    game.testing.give_property(a, position)
    _land(game, a, position)
    assert game.decision.kind == "turn" and game.decision.player == b
    assert game.buildings(position) == 0 and game.players[a].cash == START


# ---------------------------------------------------------------- rent


def _build_houses(game: Game, owner: int, other: int, position: int, houses: int) -> None:
    """Give `owner` the street and let them land on it `houses` times, building each time."""
    game.testing.give_property(owner, position)
    for _ in range(houses):
        _land(game, owner, position)
        act(game, "build", owner)
        _idle(game, other)
    assert game.buildings(position) == houses


@pytest.mark.parametrize("houses,rent", [(0, 800), (1, 1200), (2, 1600), (3, 2000)])
def test_ordinary_rent_is_base_cost_times_one_plus_half_per_house(houses: int,
                                                                   rent: int) -> None:
    game, a, b = _game()
    _build_houses(game, a, b, DORM, houses)
    _idle(game, a)
    cash_a, cash_b = game.players[a].cash, game.players[b].cash
    events = _land(game, b, DORM)
    assert money(events, "rent") == [("rent", b, a, rent)]
    assert game.players[b].cash == cash_b - rent
    assert game.players[a].cash == cash_a + rent


def test_ordinary_rent_is_rounded_down() -> None:
    board = custom_board("cell22", ('id="tile.dorm" cost="800" rent0="800"',
                                    'id="tile.dorm" cost="801" rent0="801"'))
    game = new_game("cell22", board=board)
    a, b = seats(game)
    _build_houses(game, a, b, DORM, 1)
    _idle(game, a)
    events = _land(game, b, DORM)
    assert money(events, "rent") == [("rent", b, a, 1201)]  # 801 * 1.5 = 1201.5


@pytest.mark.parametrize("count,rent", [(1, 500), (2, 1000), (3, 2000), (4, 4000)])
def test_station_rent_500_1000_2000_4000(count: int, rent: int) -> None:
    game, a, b = _game()
    for pos in STATIONS[:count]:
        game.testing.give_property(b, pos)
    events = _land(game, a, NORTH)
    assert money(events, "rent") == [("rent", a, b, rent)]
    assert game.players[a].cash == START - rent


@pytest.mark.parametrize("both,dice,rent", [
    (False, (3, 4), 70), (True, (3, 4), 700), (False, (1, 2), 30), (True, (1, 2), 300),
])
def test_utility_rent_is_dice_times_10_or_100(both: bool, dice: tuple[int, int],
                                              rent: int) -> None:
    game, a, b = _game()
    game.testing.give_property(b, CANTEEN)
    if both:
        game.testing.give_property(b, LIBRARY)
    game.testing.place(a, CANTEEN - sum(dice))
    events = roll(game, *dice)
    assert money(events, "rent") == [("rent", a, b, rent)]


def test_no_colour_groups_rent_not_doubled() -> None:
    game, a, b = _game()
    for pos in (1, 2, 5, 8, 9, 12, 13, 16, 19, 21):
        game.testing.give_property(b, pos)
    events = _land(game, a, DORM)
    assert money(events, "rent") == [("rent", a, b, 800)]


# ---------------------------------------------------------------- Car Park


def test_car_park_owner_collects_no_rent_until_moving_away() -> None:
    game, a, b = _game()
    game.testing.give_property(a, DORM)
    _land(game, a, CAR_PARK)
    assert game.players[a].in_park
    events = _land(game, b, DORM)
    assert money(events, "rent") == []
    assert game.players[b].cash == START and game.players[a].cash == START
    roll(game, 2, 2, player=a)  # the parked player moves away: 11 -> 15
    act(game, "decline", a)
    assert not game.players[a].in_park
    events = _land(game, b, DORM)
    assert money(events, "rent") == [("rent", b, a, 800)]
    assert game.players[a].cash == START + 800


def test_car_park_blocks_only_the_parked_players_rent() -> None:
    game = new_game("cell22", players=["Ann", "Bob", "Cat"])
    a, b, c = seats(game)
    game.testing.give_property(a, DORM)
    game.testing.give_property(c, LECTURE)
    _land(game, a, CAR_PARK)
    assert money(_land(game, b, DORM), "rent") == []
    _idle(game, c)
    _idle(game, a)  # A leaves the Car Park
    assert not game.players[a].in_park
    assert money(_land(game, b, LECTURE), "rent") == [("rent", b, c, 1000)]


def test_car_park_then_moving_away_restores_rent() -> None:
    game, a, b = _game()
    game.testing.give_property(a, DORM)
    _land(game, a, CAR_PARK)
    _idle(game, b)
    _idle(game, a)  # moves away
    assert not game.players[a].in_park
    events = _land(game, b, DORM)
    assert money(events, "rent") == [("rent", b, a, 800)]


# ---------------------------------------------------------------- jail


def test_go_to_jail_moves_to_jail_without_salary_and_skips_the_next_turn() -> None:
    game, a, b = _game()
    game.testing.place(a, 15)
    events = roll(game, 1, 1)  # -> 17 Go to Jail (moving "forward" to 6 passes Home)
    assert game.players[a].position == JAIL and game.players[a].in_jail
    assert money(events) == []
    assert game.decision.player == b
    _idle(game, b)
    assert game.decision.player == b  # A's turn is skipped
    assert game.players[a].position == JAIL
    _idle(game, b)
    assert game.decision.player == a  # then A plays normally
    roll(game, 1, 2, player=a)
    assert game.players[a].position == 9 and not game.players[a].in_jail


def test_jailed_player_still_receives_rent() -> None:
    game, a, b = _game()
    game.testing.give_property(a, DORM)
    _land(game, a, GO_TO_JAIL)
    assert game.players[a].in_jail
    events = _land(game, b, DORM)
    assert money(events, "rent") == [("rent", b, a, 800)]
    assert game.players[a].cash == START + 800


def test_landing_on_jail_by_dice_is_a_visit() -> None:
    game, a, b = _game()
    _idle(game, a)  # lands on Jail
    assert not game.players[a].in_jail
    _idle(game, b)
    assert game.decision.player == a
    roll(game, 1, 2, player=a)
    assert game.players[a].position == 9


# ---------------------------------------------------------------- Chance and Community Chest


@pytest.mark.parametrize("deck_kind,tile", [("CHANCE", CHANCE), ("CHEST", CHEST)])
def test_outcome_roll_again(deck_kind: str, tile: int) -> None:
    game, a, b = _game()
    game.testing.stack_deck(deck_kind, [f"card.{deck_kind.lower()}.01"])
    _land(game, a, tile)
    assert game.decision.kind == "turn" and game.decision.player == a
    roll(game, 1, 1, player=a)
    assert game.players[a].position == tile + 2
    assert game.decision.player == a and game.decision.kind == "buy"
    act(game, "decline", a)
    assert game.decision.player == b


@pytest.mark.parametrize("deck_kind,tile", [("CHANCE", CHANCE), ("CHEST", CHEST)])
def test_outcome_plus_1000(deck_kind: str, tile: int) -> None:
    game, a, b = _game()
    game.testing.stack_deck(deck_kind, [f"card.{deck_kind.lower()}.02"])
    events = _land(game, a, tile)
    assert money(events) == [("card_money", "bank", a, 1000)]
    assert game.players[a].cash == START + 1000 and game.decision.player == b


@pytest.mark.parametrize("deck_kind,tile", [("CHANCE", CHANCE), ("CHEST", CHEST)])
def test_outcome_minus_1000(deck_kind: str, tile: int) -> None:
    game, a, b = _game()
    game.testing.stack_deck(deck_kind, [f"card.{deck_kind.lower()}.03"])
    events = _land(game, a, tile)
    assert money(events) == [("card_money", a, "bank", 1000)]
    assert game.players[a].cash == START - 1000 and game.pot == 0


@pytest.mark.parametrize("deck_kind,tile", [("CHANCE", CHANCE), ("CHEST", CHEST)])
def test_outcome_go_to_jail(deck_kind: str, tile: int) -> None:
    game, a, b = _game()
    game.testing.stack_deck(deck_kind, [f"card.{deck_kind.lower()}.04"])
    events = _land(game, a, tile)
    assert game.players[a].position == JAIL and game.players[a].in_jail
    assert money(events) == []
    _idle(game, b)
    assert game.decision.player == b  # the jailed player skips the next turn


def test_outcomes_are_drawn_uniformly_from_the_seeded_generator() -> None:
    counts: dict[str, int] = {}
    for seed in range(400):
        game = new_game("cell22", seed=seed, dice_count=1)
        a, _ = seats(game)
        game.testing.place(a, 2)
        events = roll(game, 1)
        drawn = [e.data["card"] for e in events if e.kind == "card_drawn"]
        assert len(drawn) == 1
        counts[drawn[0]] = counts.get(drawn[0], 0) + 1
    assert sorted(counts) == [f"card.chance.0{k}" for k in range(1, 5)]
    assert all(60 <= n <= 140 for n in counts.values()), counts


# ---------------------------------------------------------------- dice flag


def test_dice_count_flag_one_die() -> None:
    game = new_game("cell22", dice_count=1)
    a, _ = seats(game)
    with pytest.raises(InvalidActionError):
        game.testing.script_dice((2, 3))
    events = roll(game, 5)
    assert game.players[a].position == 5
    assert [e.data["dice"] for e in events if e.kind == "rolled"] == [[5]]


def test_one_die_unscripted_rolls() -> None:
    game = new_game("cell22", dice_count=1, seed=4)
    for _ in range(30):
        player = game.decision.player
        if game.decision.kind == "turn":
            act(game, "roll", player)
        else:
            act(game, game.legal_actions()[-1].type, player)
        if game.is_over:
            break
    rolls = [e.data["dice"] for e in game.events if e.kind == "rolled"]
    assert rolls and all(len(r) == 1 and 1 <= r[0] <= 6 for r in rolls)


# ---------------------------------------------------------------- bankruptcy and the end


def test_money_below_zero_bankrupts_and_returns_properties_unowned() -> None:
    game, a, b = _game()
    game.testing.give_property(a, LECTURE)
    game.testing.give_property(a, NORTH)
    _build_houses(game, a, b, LECTURE, 1)
    game.testing.give_property(b, DORM)
    game.testing.set_cash(a, 500)
    events = _land(game, a, DORM)  # rent 800, has 500
    assert money(events, "rent") == [("rent", a, b, 500)]
    assert game.players[a].bankrupt
    assert game.owner(LECTURE) is None and game.owner(NORTH) is None
    assert game.buildings(LECTURE) == 0
    assert game.owner(DORM) == b
    assert game.is_over and game.winners == [b]
    assert game.money_total() == game.initial_money


def test_money_exactly_zero_is_not_bankrupt() -> None:
    game, a, b = _game()
    game.testing.give_property(b, DORM)
    game.testing.set_cash(a, 800)
    _land(game, a, DORM)
    assert game.players[a].cash == 0
    assert not game.players[a].bankrupt and not game.is_over
    assert game.decision.player == b


def test_minus_1000_outcome_can_bankrupt() -> None:
    game, a, b = _game()
    game.testing.set_cash(a, 300)
    game.testing.stack_deck("CHANCE", ["card.chance.03"])
    _land(game, a, CHANCE)
    assert game.players[a].bankrupt and game.players[a].cash == 0
    assert game.is_over and game.winners == [b]


def test_bankrupt_player_is_out_and_the_last_player_left_wins() -> None:
    game = new_game("cell22", players=["Ann", "Bob", "Cat"])
    a, b, c = seats(game)
    game.testing.give_property(a, DORM)
    game.testing.give_property(b, BIKE_SHED)
    game.testing.give_property(c, LECTURE)
    game.testing.set_cash(a, 100)
    _land(game, a, LECTURE)  # owes C 1000
    assert game.players[a].bankrupt and not game.is_over
    assert game.owner(DORM) is None and game.owner(BIKE_SHED) == b
    assert game.players[c].cash == START + 100
    assert game.decision.player == b
    _idle(game, b)
    assert game.decision.player == c  # A's seat is skipped
    _idle(game, c)
    assert game.decision.player == b
    game.testing.set_cash(b, 50)
    _land(game, b, LECTURE)
    assert game.is_over and game.winners == [c]


def test_round_limit_richest_wins() -> None:
    game = new_game("cell22", round_limit=2)
    a, b = seats(game)
    game.testing.set_cash(b, 15000)
    for _ in range(2):
        assert not game.is_over
        _idle(game, a)
        assert not game.is_over
        _idle(game, b)
    assert game.is_over
    assert game.winners == [b]
    assert game.ranking == [b, a]


# ---------------------------------------------------------------- text form


def test_print_lists_every_cell_in_the_seed_002_tostring_form() -> None:
    game = new_game("cell22", players=["Ann", "Bob"])
    a, b = seats(game)
    _build_houses(game, a, b, DORM, 2)
    game.testing.give_property(b, NORTH)
    text = str(game)
    lines = [line.strip() for line in text.splitlines()]
    names = {a: "Ann", b: "Bob"}
    for tile in game.board.tiles:
        name = game.board.tile_name(tile.position)
        if tile.is_property:
            owner = game.owner(tile.position)
            expected = f"{name} owned by {names[owner] if owner is not None else '-'} : {tile.cost}"
            houses = game.buildings(tile.position)
            if houses:
                expected += f" House : {houses}"
            assert any(line.endswith(expected) for line in lines), expected
        else:
            assert any(line.endswith(name) for line in lines), name
    assert any(line.endswith("Student Dorm owned by Ann : 800 House : 2".replace(
        "Ann", names[a])) for line in lines)
    assert any(line.endswith("Bike Shed owned by - : 600") for line in lines)
    assert any(line.endswith(f"North Station owned by {names[b]} : 2000") for line in lines)
    assert not any("Bike Shed owned by - : 600 House" in line for line in lines)
