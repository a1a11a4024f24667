"""PositionCopy: a copy of a game at its position (mid-turn, mid-auction, mid-trade, in debt),
put back there by reset(), with the original untouched; reseed() gives it a future of its own."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from ugentopoly_widget import Game
from ugentopoly_widget.engine.bots import HeuristicBot, RandomBot, play_game
from ugentopoly_widget.engine.records.positions import PositionCopy

PROFILES = ("classic", "ugentopoly", "cell22")


def bots(seed: int, n: int) -> list[HeuristicBot | RandomBot]:
    # a random bot among them reaches the odd decisions (trades, debts, mortgaged lots)
    return [RandomBot(seed=seed) if k == 1 else HeuristicBot(seed=seed + k) for k in range(n)]


def fingerprint(game: Game) -> tuple[object, ...]:
    e = game._engine
    return (game.state(), e.chance.rng.getstate(), e.chance._next, game.legal_actions(),
            list(e.chance.scripted_dice), len(game.actions))


def positions(profile: str, count: int) -> list[Game]:
    out = []
    for seed in range(count):
        n = 3 if profile != "cell22" else 2
        game = Game(profile, players=n, seed=seed)
        play_game(game, bots(seed, n), max_actions=random.Random(seed).randrange(1, 600))
        out.append(game)
    return out


@pytest.mark.parametrize("profile", PROFILES)
def test_a_copy_is_at_the_position_and_plays_on_as_the_original_would(profile: str) -> None:
    kinds: Counter[str] = Counter()
    for game in positions(profile, 40):
        before = fingerprint(game)
        events = game.event_count
        copy = PositionCopy(game)
        assert fingerprint(copy.game) == before
        kinds[game.decision.kind] += 1
        n = len(game.players)
        replayed = game.copy()  # the reference: the record replayed, every action checked
        play_game(replayed, [HeuristicBot(seed=9 + k) for k in range(n)], max_actions=400)
        play_game(copy.game, [HeuristicBot(seed=9 + k) for k in range(n)], max_actions=400)
        assert copy.game.state() == replayed.state()
        copy.reset()
        assert fingerprint(copy.game) == before
        play_game(copy.game, [HeuristicBot(seed=9 + k) for k in range(n)], max_actions=400)
        assert copy.game.state() == replayed.state()  # again, after a reset
        assert fingerprint(game) == before and game.event_count == events  # untouched
    assert len(kinds) >= 2, kinds  # mid-turn positions too, not only turn starts
    if profile == "classic":
        assert {"turn", "post_roll", "auction"} <= set(kinds), kinds


def test_special_positions() -> None:
    found = {}
    for seed in range(60):
        game = Game("classic", players=3, seed=seed)
        rng = random.Random(seed)
        while not game.is_over and len(found) < 5:
            kind = game.decision.kind
            if kind in ("trade", "debt", "mortgaged", "jail_fine", "tax") and kind not in found:
                found[kind] = game.copy()
            player = game.decision.player
            assert player is not None
            game.apply(bots(rng.randrange(100), 3)[player].choose(game))
    assert {"trade", "debt", "tax"} <= set(found), sorted(found)
    for game in found.values():
        before = fingerprint(game)
        copy = PositionCopy(game)
        assert fingerprint(copy.game) == before
        play_game(copy.game, [HeuristicBot(seed=k) for k in range(3)])
        copy.reset()
        assert fingerprint(copy.game) == before


def test_loaded_games_and_games_without_checkpoints() -> None:
    game = Game("classic", players=4, seed=11)
    play_game(game, [HeuristicBot(seed=k) for k in range(4)], until_turn=70)
    loaded = Game.from_json(game.to_json())  # the saved checkpoint, history deferred
    assert fingerprint(PositionCopy(loaded).game) == fingerprint(game)
    bare = Game("classic", players=4, seed=11)
    bare.checkpoint_every = 0
    play_game(bare, [HeuristicBot(seed=k) for k in range(4)], until_turn=70)
    assert fingerprint(PositionCopy(bare).game) == fingerprint(game)
    timed = Game("classic", players=2, seed=2,
                 options={"mode": "timed", "time_limit_minutes": 30})
    play_game(timed, [HeuristicBot(seed=k) for k in range(2)], until_turn=20)
    copy = PositionCopy(timed)
    assert copy.game.state() == timed.state()
    play_game(copy.game, [HeuristicBot(seed=k) for k in range(2)], max_actions=50)
    copy.reset()
    assert copy.game.state() == timed.state()


def test_testing_steps_after_the_last_action_are_part_of_the_position() -> None:
    game = Game("classic", players=2, seed=5)
    play_game(game, [HeuristicBot(seed=1), HeuristicBot(seed=2)], until_turn=10)
    game.testing.script_dice((6, 6))
    game.testing.set_cash(0, 77)
    copy = PositionCopy(game)
    assert fingerprint(copy.game) == fingerprint(game)
    assert list(copy.game._engine.chance.scripted_dice) == [(6, 6)]
    copy.reset()
    assert copy.game.players[0].cash == 77


def test_reseed_gives_a_future_of_its_own() -> None:
    game = Game("classic", players=2, seed=5)
    play_game(game, [HeuristicBot(seed=1), HeuristicBot(seed=2)], until_turn=30)
    game.testing.script_dice((1, 1))  # the original's own future is dropped by a reseed
    copy = PositionCopy(game)

    def future(seed: int, first: tuple[int, int] | None = None) -> dict[str, object]:
        copy.reset()
        copy.reseed(seed, first)
        play_game(copy.game, [HeuristicBot(seed=3), HeuristicBot(seed=4)], max_actions=300)
        return copy.game.state()

    assert future(1) == future(1)
    assert future(1) != future(2)
    copy.reset()
    copy.reseed(7, (3, 4))
    assert list(copy.game._engine.chance.scripted_dice) == [(3, 4)]
    decks = copy.game.state()["decks"]
    held = {c.id for p in copy.game.players for c in p.jail_cards}
    for kind, cards in decks.items():
        spec = {c.id for c in game.board.decks[kind].cards}
        assert sorted(cards) == sorted(spec - held)  # the same cards, in a new order
    shuffled = [PositionCopy(game) for _ in range(2)]
    orders = []
    for k, c in enumerate(shuffled):
        c.reseed(k)
        orders.append(c.game.state()["decks"]["CHANCE"])
    assert orders[0] != orders[1]
    assert fingerprint(game)[0] == game.state()  # (the original untouched throughout)
