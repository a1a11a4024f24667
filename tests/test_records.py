"""Records: save / load, replay to the identical state and log, undo, damaged save files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import fixtures_dir
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ugentopoly_widget import Game, SaveFileError, UndoError
from ugentopoly_widget.engine import actions as A
from ugentopoly_widget.engine.bots import HeuristicBot, RandomBot


def played(profile: str = "classic", actions: int = 150, seed: int = 5, **kw: Any) -> Game:
    game = Game(profile, players=3, seed=seed, **kw)
    bots = [HeuristicBot(seed=1), RandomBot(seed=2), HeuristicBot(seed=3)]
    for _ in range(actions):
        if game.is_over:
            break
        game.apply(bots[game.decision.player or 0].choose(game))
    return game


@pytest.mark.parametrize("profile", ["ugentopoly", "classic", "cell22"])
def test_save_and_load_give_the_same_game(profile: str, tmp_path: Path) -> None:
    game = played(profile)
    path = tmp_path / "game.json"
    game.save(path)
    loaded = Game.load(path)
    assert loaded.digest() == game.digest()
    assert loaded.log() == game.log()
    assert loaded.log("nl") == game.log("nl")
    assert str(loaded) == str(game)
    # both continue identically
    for _ in range(40):
        if game.is_over:
            break
        action = RandomBot(seed=len(game.events)).choose(game)
        game.apply(action)
        loaded.apply(action)
    assert loaded.digest() == game.digest()


def test_replay_with_scripted_dice_and_stacked_decks() -> None:
    game = Game("ugentopoly", players=2, seed=3)
    first = game.current_player
    game.testing.script_dice((3, 4))  # 7: Chance
    game.testing.stack_deck("CHANCE", ["card.chance.05"])  # back 3 -> 4: tax
    game.apply(A.Roll(first))
    game.testing.set_cash(1 - first, 777)
    replayed = Game.replay(game.record())
    assert replayed.digest() == game.digest()
    assert replayed.log() == game.log()
    assert replayed.players[first].position == 4
    assert replayed.players[1 - first].cash == 777


def test_record_is_plain_json_with_setup_seed_and_actions() -> None:
    game = played("classic", actions=30)
    record = json.loads(json.dumps(game.record()))
    assert record["profile"] == "classic"
    assert record["seed"] == 5
    assert len(record["actions"]) == len(game.actions)
    assert all("type" in a and "player" in a for a in record["actions"])
    assert Game.replay(record).digest() == game.digest()


def test_custom_board_travels_inside_the_save_file(tmp_path: Path) -> None:
    board = fixtures_dir() / "ugentopoly.xml"
    game = Game("ugentopoly", board=board, players=2, seed=1)
    for _ in range(20):
        game.apply(RandomBot(seed=1).choose(game))
    text = game.to_json()
    assert "tile.street01" in text
    loaded = Game.from_json(text)
    assert loaded.digest() == game.digest()
    assert loaded.board.tile_name(1, "nl") == "S22"


def test_timed_game_keeps_its_elapsed_time() -> None:
    now = [1000.0]
    game = Game("classic", players=2, seed=1, options={"mode": "timed", "time_limit_minutes": 10},
                clock=lambda: now[0])
    now[0] += 120
    loaded = Game.from_json(game.to_json(), clock=lambda: 5000.0)
    remaining = loaded.time_remaining()
    assert remaining is not None and abs(remaining - 480) < 1e-6


# ---------------------------------------------------------------- damaged save files

def test_damaged_save_files_are_refused(tmp_path: Path) -> None:
    game = played("classic", actions=80)
    good = json.loads(game.to_json())

    def refused(payload: Any, match: str | None = None) -> None:
        text = payload if isinstance(payload, str) else json.dumps(payload)
        with pytest.raises(SaveFileError, match=match):
            Game.from_json(text)

    refused("{not json", "invalid JSON")
    refused("", "invalid JSON")
    refused([], "not an ugentopoly save file")
    refused({**good, "format": "chess"}, "not an ugentopoly save file")
    refused({**good, "version": 99}, "version")
    refused({k: v for k, v in good.items() if k != "record"}, "no record")
    refused({**good, "digest": "0" * 64}, "does not match")
    tampered = json.loads(json.dumps(good))
    tampered["record"]["seed"] = 6
    refused(tampered)
    tampered = json.loads(json.dumps(good))
    tampered["record"]["actions"][3] = {"type": "bid", "player": 0, "amount": "lots"}
    refused(tampered)
    tampered = json.loads(json.dumps(good))
    tampered["record"]["actions"].insert(2, {"type": "end_turn", "player": 2})
    refused(tampered, "does not replay")
    tampered = json.loads(json.dumps(good))
    tampered["record"]["players"] = "Ann"
    refused(tampered)
    tampered = json.loads(json.dumps(good))
    tampered["record"]["board"] = {"xml": "<board><oops"}
    refused(tampered)
    truncated = game.to_json()[: len(game.to_json()) // 2]
    refused(truncated, "invalid JSON")
    missing = tmp_path / "nope.json"
    with pytest.raises(SaveFileError, match="cannot read"):
        Game.load(missing)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_fuzzed_save_files_load_whole_or_not_at_all(data: st.DataObject) -> None:
    game = played("classic", actions=40, seed=1)
    payload = json.loads(game.to_json())
    # replace one leaf anywhere in the record with junk
    paths: list[list[Any]] = []

    def walk(node: Any, path: list[Any]) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                walk(value, [*path, key])
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(value, [*path, index])
        else:
            paths.append(path)

    walk(payload["record"], ["record"])
    path = data.draw(st.sampled_from(paths))
    junk = data.draw(st.one_of(st.none(), st.booleans(), st.integers(-10**12, 10**12),
                               st.text(max_size=5), st.lists(st.integers(), max_size=3)))
    node = payload
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = junk
    try:
        loaded = Game.from_json(json.dumps(payload))
    except SaveFileError:
        return
    assert loaded.digest() == game.digest()  # only a harmless change can load


# ---------------------------------------------------------------- undo

def test_undo_takes_back_a_decision_exactly() -> None:
    game = Game("classic", players=2, seed=4)
    p = game.current_player
    game.testing.place(p, 36)
    game.testing.script_dice((1, 2))  # 39: Boardwalk, unowned
    game.apply(A.Roll(p))
    assert game.decision.kind == "buy"
    before = game.digest()
    log_before = game.log()
    game.apply(A.Buy(p))
    assert game.owner(39) == p
    game.undo()
    assert game.digest() == before
    assert game.log() == log_before
    assert game.owner(39) is None
    game.apply(A.Decline(p))  # a different choice after the undo
    assert game.decision.kind == "auction"


def test_undo_never_crosses_a_roll_or_card() -> None:
    game = Game("ugentopoly", players=2, seed=4)
    with pytest.raises(UndoError, match="nothing to undo"):
        game.undo()
    p = game.current_player
    game.testing.script_dice((1, 2))
    game.apply(A.Roll(p))
    digest = game.digest()
    with pytest.raises(UndoError, match="rolled dice"):
        game.undo()
    assert game.digest() == digest


def test_undo_of_a_trade_offer_and_copy_is_independent() -> None:
    game = Game("classic", players=2, seed=4)
    p = game.current_player
    game.testing.give_property(p, 1)
    offer = A.ProposeTrade(p, 1 - p, A.TradeSide(properties=(1,)), A.TradeSide(cash=100))
    before = game.digest()
    game.apply(offer)
    assert game.decision.kind == "trade"
    copy = game.copy()
    game.undo()
    assert game.digest() == before
    assert copy.decision.kind == "trade"  # the copy did not change
    copy.apply(A.AcceptTrade(1 - p))
    assert copy.owner(1) == 1 - p and game.owner(1) == p


@pytest.mark.parametrize("profile", ["classic", "cell22"])
def test_every_undoable_decision_undoes_exactly(profile: str) -> None:
    """Throughout a game: undo restores the digest from before the decision, and applying the
    same action again gives the same state as the first time."""
    game = Game(profile, players=3, seed=21, options={"turn_limit": 60})
    bots = [HeuristicBot(seed=1), RandomBot(seed=2), HeuristicBot(seed=3)]
    undone = 0
    for _ in range(160):
        if game.is_over:
            break
        before = game.digest()
        action = bots[game.decision.player or 0].choose(game)
        game.apply(action)
        after = game.digest()
        try:
            game.undo()
        except UndoError:
            continue
        assert game.digest() == before
        game.apply(action)
        assert game.digest() == after
        undone += 1
    assert undone >= 10
