"""Undo from turn-boundary checkpoints gives exactly what undo by replaying the whole record gave.

Over many seeded games of every profile, at every undoable decision: the checkpoint undo and the
full-replay undo reach the same digest and log, and the game goes on identically after both."""

from __future__ import annotations

import pytest

from ugentopoly_widget import Game, UndoError
from ugentopoly_widget.engine import actions as A
from ugentopoly_widget.engine.bots import HeuristicBot, RandomBot

CASES = [
    ("classic", {"turn_limit": 80}),
    ("classic", {"turn_limit": 80, "mode": "short", "bank_houses": 6}),
    ("ugentopoly", {"turn_limit": 80}),
    ("cell22", {"turn_limit": 80}),
]


@pytest.mark.parametrize(("profile", "options"), CASES)
def test_checkpoint_undo_equals_full_replay_undo(profile: str, options: dict[str, object]
                                                 ) -> None:
    undone = 0
    for seed in range(4):
        game = Game(profile, players=3, seed=seed, options=options)
        game.checkpoint_every = (1, 4, 32, 7)[seed % 4]  # every turn, and further apart
        twin = Game(profile, players=3, seed=seed, options=options)
        bots = [HeuristicBot(seed=seed), RandomBot(seed=seed + 1), HeuristicBot(seed=seed + 2)]
        while not game.is_over:
            action = bots[game.decision.player or 0].choose(game)
            game.apply(action)
            twin.apply(action)
            if not game._undoable[-1]:
                continue
            game.undo()
            twin._undo_by_replay()
            assert game.digest() == twin.digest()
            assert game.log() == twin.log()
            assert game.legal_actions() == twin.legal_actions()
            game.apply(action)
            twin.apply(action)
            undone += 1
        assert game.digest() == twin.digest()
        assert game.log() == twin.log()
    assert undone >= 20


def test_undo_restores_testing_steps_and_is_cheap_late_in_a_game() -> None:
    """Injections after the checkpoint are redone; an undo late in a long game replays only
    the last few turns (the checkpoint is recent)."""
    game = Game("classic", players=2, seed=4, options={"turn_limit": 10_000})
    assert game._engine.checkpoints, "a checkpoint at the first turn"
    bots = [RandomBot(seed=1), RandomBot(seed=2)]
    while game.turn_number < 60 or game.decision.kind != "post_roll":
        game.apply(bots[game.decision.player or 0].choose(game))
    p = game.current_player
    game.testing.set_cash(p, 5000)
    before = game.digest()
    game.apply(A.EndTurn(p))
    cp = game._engine.checkpoints[-1]
    game.undo()
    assert game.digest() == before and game.players[p].cash == 5000
    assert cp.applied >= len(game.actions) - 32 * 12  # not a replay from the start
    with pytest.raises(UndoError):
        while True:
            game.undo()  # back to the last roll, never across it
    assert game.decision.kind == "post_roll"


def test_undo_without_checkpoints_replays_the_record() -> None:
    game = Game("classic", players=2, seed=4)
    game.checkpoint_every = 0
    game._engine.checkpoints.clear()
    p = game.current_player
    game.testing.place(p, 36)
    game.testing.script_dice((1, 2))
    game.apply(A.Roll(p))
    before = game.digest()
    game.apply(A.Buy(p))
    game.undo()
    assert game.digest() == before
