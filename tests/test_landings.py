"""The landing counter against hand counts: scripted dice through cards, jail and doubles."""

from __future__ import annotations

import pytest
from helpers import act, new_game, roll, seats

from ugentopoly_widget import Game
from ugentopoly_widget.engine.bots import HeuristicBot, play_game
from ugentopoly_widget.engine.records.landings import LandingCounter, Landings, count_landings


def _counts(landings: Landings) -> dict[object, int]:
    """Non-zero counts as {tile: n, "jail": n}."""
    out: dict[object, int] = {k: n for k, n in enumerate(landings.tiles) if n}
    if landings.in_jail:
        out["jail"] = landings.in_jail
    return out


def test_classic_cards_doubles_and_jail_by_hand() -> None:
    game = new_game("classic", seed=3)
    a, b = seats(game)
    # a: GO -> Chance (7), "go back 3 spaces" -> Income Tax (4): the roll ends on 4.
    game.testing.stack_deck("CHANCE", ["card.chance.09"])
    roll(game, 3, 4, player=a)
    act(game, "tax", a, choice="flat")
    act(game, "end_turn", a)
    assert _counts(game.landings()) == {4: 1}
    # b: a double to Just Visiting (10), then another to Chance (22): "go directly to jail".
    game.testing.stack_deck("CHANCE", ["card.chance.10"])
    roll(game, 5, 5, player=b)
    roll(game, 6, 6, player=b)
    act(game, "end_turn", b)
    assert _counts(game.landings()) == {4: 1, 10: 1, "jail": 1}
    # a: 4 -> Chance (7), "advance to GO".
    game.testing.stack_deck("CHANCE", ["card.chance.01"])
    roll(game, 1, 2, player=a)
    act(game, "end_turn", a)
    # b tries for doubles and fails: still in jail.
    roll(game, 1, 2, player=b)
    act(game, "end_turn", b)
    assert _counts(game.landings()) == {0: 1, 4: 1, 10: 1, "jail": 2}
    # a: GO -> Community Chest (2, +75) -> Just Visiting (10) -> third double: jail, no move.
    game.testing.stack_deck("CHEST", ["card.chest.02"])
    roll(game, 1, 1, player=a)
    roll(game, 4, 4, player=a)
    roll(game, 5, 5, player=a)
    act(game, "end_turn", a)
    landings = game.landings()
    assert _counts(landings) == {0: 1, 2: 1, 4: 1, 10: 2, "jail": 3}
    assert landings.rolls == 8
    # Turns end: a on 4, b in jail, a on GO, b in jail, a in jail.
    assert _counts(game.landings("turn")) == {0: 1, 4: 1, "jail": 3}


def test_go_to_jail_tile_counts_in_jail_and_leaving_on_doubles_moves() -> None:
    game = new_game("ugentopoly", seed=5)
    a, b = seats(game)
    game.testing.place(a, 26)
    roll(game, 1, 3, player=a)  # 26 + 4 = 30, Go To Jail
    assert game.players[a].in_jail
    roll(game, 1, 2, player=b)  # 0 -> 3
    while game.decision.kind == "buy":
        act(game, "decline")
    roll(game, 2, 2, player=a)  # doubles: out of jail, 10 -> 14, no extra roll
    landings = game.landings()
    assert landings.tiles[30] == 0
    assert _counts(landings) == {3: 1, 14: 1, "jail": 1}


def test_roll_in_progress_is_shown_live_but_counted_once() -> None:
    game = new_game("classic", seed=3)
    a, _ = seats(game)
    roll(game, 1, 2, player=a)  # Baltic Avenue: the buy decision is open
    assert game.decision.kind == "buy"
    assert _counts(game.landings()) == {3: 1}
    counter = LandingCounter(game.board.size, game.board.jail_position)
    counter.feed(game.events)
    assert _counts(counter.landings(include_current=False)) == {}
    act(game, "buy", a)
    act(game, "end_turn", a)
    assert _counts(game.landings()) == {3: 1}


def test_utility_card_extra_roll_is_not_a_landing() -> None:
    game = new_game("classic", seed=3)
    a, b = seats(game)
    game.testing.give_property(b, 12)
    game.testing.stack_deck("CHANCE", ["card.chance.03"])  # nearest utility, 10x a new roll
    game.testing.script_dice((3, 4), (2, 3))
    act(game, "roll", a)
    assert [e.data.get("purpose") for e in game.events if e.kind == "rolled"] == [None, "utility"]
    assert _counts(game.landings()) == {12: 1}


def test_cell22_chance_roll_again_counts_both_rolls() -> None:
    game = new_game("cell22", seed=1)
    a, _ = seats(game)
    deck = game.board.decks["CHANCE"]
    again = next(c.id for c in deck.cards if c.kind.value == "ROLL_AGAIN")
    game.testing.stack_deck("CHANCE", [again])
    roll(game, 1, 2, player=a)  # Home -> Chance (3): roll again
    roll(game, 1, 2, player=a)  # 3 -> 6, the jail tile: a visit
    assert _counts(game.landings()) == {3: 1, 6: 1}


def test_landings_survive_undo_replay_and_save(tmp_path: object) -> None:
    game = new_game("classic", seed=3)
    a, _ = seats(game)
    roll(game, 1, 2, player=a)
    before = game.landings()
    act(game, "decline", a)
    game.undo()
    assert game.landings() == before
    copy = Game.from_json(game.to_json())
    assert copy.landings() == before


def test_whole_games_count_one_landing_per_movement_roll() -> None:
    for profile in ("ugentopoly", "classic", "cell22"):
        game = Game(profile, players=3, seed=11, options={"turn_limit": 300})
        play_game(game, [HeuristicBot(seed=k) for k in range(3)])
        moves = sum(1 for e in game.events if e.kind == "rolled" and "purpose" not in e.data)
        landings = game.landings()
        assert landings.rolls == moves
        gtj = [t.position for t in game.board.tiles if t.kind.value == "GO_TO_JAIL"]
        assert all(landings.tiles[p] == 0 for p in gtj)
        turns = sum(1 for e in game.events if e.kind == "turn_ended")
        assert game.landings("turn").rolls == turns
        assert count_landings(game.events, game.board.size, game.board.jail_position) == landings
        assert (landings + landings).tiles == tuple(2 * n for n in landings.tiles)


def test_bad_arguments() -> None:
    game = new_game("classic", seed=3)
    with pytest.raises(ValueError, match="per is"):
        game.landings("tile")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Landings((1, 2), 0) + Landings((1, 2, 3), 0)
    with pytest.raises(ValueError):
        LandingCounter(0, None)
