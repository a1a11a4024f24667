"""Loading a save file from its checkpoint gives exactly the game a full replay gives.

Save format 3 carries the state at the newest turn boundary; a load restores it and replays only
the actions after it, and replays the history before it when something needs it. Over seeded games
of every profile and mode, saved mid-turn (a pending buy, an auction, a debt, a player in jail,
after a trade offer ...): the loaded game equals a full-replay load (digest, state, legal actions,
the bots' next moves and the events they make), its lazily replayed events equal the full
replay's, and undo works after the load.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from ugentopoly_widget import Game, SaveFileError
from ugentopoly_widget.engine import actions as A
from ugentopoly_widget.engine.bots import HeuristicBot, RandomBot
from ugentopoly_widget.engine.records.savefile import save_digest


class Clock:
    """A clock the test moves (timed games, turn timers)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


CASES: list[tuple[str, dict[str, Any]]] = [
    ("ugentopoly", {}),
    ("classic", {}),
    ("classic", {"mode": "short", "bank_houses": 8}),
    ("classic", {"mode": "timed", "time_limit_minutes": 60, "turn_timer_seconds": 30}),
    ("cell22", {}),
]
KINDS = ("buy", "auction", "debt", "jail", "trade", "post_roll", "mortgaged", "house_offer",
         "tax", "jail_fine", "turn", "game_over")


def _kind(game: Game) -> str:
    d = game.decision
    if d.kind == "turn" and d.player is not None and game.players[d.player].in_jail:
        return "jail"
    return d.kind


def _bots(seed: int) -> list[Any]:
    return [HeuristicBot(seed=seed), RandomBot(seed=seed + 1), HeuristicBot(seed=seed + 2)]


def _saves(profile: str, options: dict[str, Any], seed: int, every: int
           ) -> tuple[dict[str, str], Clock]:
    """Save texts of one seeded game at the first decision of each kind after a few turns."""
    clock = Clock()
    game = Game(profile, players=3, seed=seed, options={"turn_limit": 300, **options},
                clock=clock)
    game.checkpoint_every = every
    bots = _bots(seed)
    found: dict[str, str] = {}
    while True:
        kind = _kind(game)
        if game.turn_number >= 6 and kind not in found:
            found[kind] = game.to_json()
        if game.is_over:
            break
        if options.get("mode") == "timed" and game.turn_number in (100, 150) and \
                game.decision.kind == "turn" and not game.time_up:
            clock.now += 40  # the turn timer runs out: a TimerRoll action in the record
            if game.turn_number == 150:
                clock.now += 3600  # and the game clock: a TimeUp action
            assert game.tick()
            continue
        game.apply(bots[game.decision.player or 0].choose(game))
    return found, clock


def _same_game(fast: Game, full: Game) -> None:
    assert fast.digest() == full.digest()
    assert fast.state() == full.state()
    assert fast.event_count == full.event_count
    assert fast.legal_actions() == full.legal_actions()
    assert fast.decision.to_dict() == full.decision.to_dict()
    assert fast.can_undo() == full.can_undo()
    assert fast.record() == full.record()


def _play_on(fast: Game, full: Game, seed: int, count: int = 60) -> None:
    """The bots' next moves and the events they make are the same in both games."""
    bots_fast, bots_full = _bots(seed + 7), _bots(seed + 7)
    for _ in range(count):
        if fast.is_over:
            break
        player = fast.decision.player or 0
        action = bots_fast[player].choose(fast)
        assert action == bots_full[player].choose(full)
        assert [e.to_dict() for e in fast.apply(action)] == \
            [e.to_dict() for e in full.apply(action)]
    assert fast.digest() == full.digest()


@pytest.mark.parametrize(("profile", "options"), CASES,
                         ids=[f"{p}-{o.get('mode', 'full')}" for p, o in CASES])
def test_a_checkpoint_load_equals_a_full_replay_load(profile: str, options: dict[str, Any]
                                                     ) -> None:
    seen: set[str] = set()
    for seed, every in ((1, 32), (2, 1), (3, 5)):
        saves, clock = _saves(profile, options, seed, every)
        for kind, text in saves.items():
            payload = json.loads(text)
            assert payload["version"] == 3 and payload["checkpoint"] is not None
            fast = Game.from_json(text, clock=clock)
            assert fast._history is not None  # loaded from the checkpoint, history deferred
            full = Game.from_json(text, clock=clock, verify="replay")
            reference = Game.replay(payload["record"], clock=clock)
            assert full._history is None
            assert reference.digest() == full.digest()
            _same_game(fast, full)
            # the history, replayed when asked, is the full replay's, event for event
            assert [e.to_dict() for e in fast.events] == [e.to_dict() for e in full.events]
            assert fast._history is None
            _same_game(fast, full)
            # a fresh load plays on like a full replay, before its history is ever read
            fast = Game.from_json(text, clock=clock)
            _play_on(fast, full, seed)
            assert fast.log() == full.log()
            seen.add(kind)
    expected = {"buy", "turn", "game_over"} | (
        {"house_offer"} if profile == "cell22" else {"jail"}) | (
        {"auction", "debt", "post_roll"} if profile == "classic" and not options else set())
    assert expected <= seen, seen


def test_undo_after_a_checkpoint_load() -> None:
    game = Game("classic", players=3, seed=4, options={"turn_limit": 300})
    bots = _bots(4)
    undone = 0
    while not game.is_over and undone < 25:
        game.apply(bots[game.decision.player or 0].choose(game))
        if not game.can_undo() or game.turn_number < 40:
            continue
        text = game.to_json()
        loaded = Game.from_json(text)
        twin = Game.from_json(text, verify="replay")
        loaded.undo()
        twin.undo()
        assert loaded.digest() == twin.digest()
        assert loaded.legal_actions() == twin.legal_actions()
        assert loaded.log() == twin.log()
        undone += 1
    assert undone == 25


def test_undo_across_the_checkpoint_replays_the_history() -> None:
    """At a turn start the last action (ending the turn) lies before the saved checkpoint:
    undoing it needs the history, which is replayed and checked first."""
    game = Game("classic", players=3, seed=6, options={"turn_limit": 300})
    game.checkpoint_every = 1
    bots = _bots(6)
    while not (game.turn_number > 30 and game.decision.kind == "turn" and game.can_undo()):
        game.apply(bots[game.decision.player or 0].choose(game))
    assert type(game.actions[-1]) is A.EndTurn
    text = game.to_json()
    assert json.loads(text)["checkpoint"]["applied"] == len(game.actions)
    loaded = Game.from_json(text)
    assert loaded.can_undo()  # known without the history: the checkpoint says so
    assert loaded._history is not None
    loaded.undo()
    assert loaded._history is None
    game.undo()
    assert loaded.digest() == game.digest()
    assert loaded.log() == game.log()


def test_a_game_saved_from_a_checkpoint_load_saves_the_same_way() -> None:
    game = Game("cell22", players=3, seed=8, options={"turn_limit": 2000})
    game.checkpoint_every = 3
    bots = [RandomBot(seed=k) for k in range(3)]
    for _ in range(300):
        game.apply(bots[game.decision.player or 0].choose(game))
    assert not game.is_over
    text = game.to_json()
    loaded = Game.from_json(text)
    loaded.checkpoint_every = 3  # a setting of the session, not saved
    for _ in range(30):
        action = bots[game.decision.player or 0].choose(game)
        game.apply(action)
        loaded.apply(action)
    again = Game.from_json(loaded.to_json(), verify="replay")
    assert again.digest() == game.digest()
    assert json.loads(loaded.to_json())["checkpoint"] == json.loads(game.to_json())["checkpoint"]


def test_testing_steps_before_and_after_the_checkpoint_survive_a_load() -> None:
    game = Game("classic", players=2, seed=3)
    game.checkpoint_every = 1
    bots = _bots(3)
    for round_ in range(3):
        game.testing.script_dice((1, 2), (3, 3))
        game.testing.set_cash(round_ % 2, 900 + round_)
        game.testing.stack_deck("CHANCE", [c.id for c in game._engine.decks["CHANCE"]][-2:])
        for _ in range(30):
            game.apply(bots[game.decision.player or 0].choose(game))
    game.testing.script_dice((6, 6))
    text = game.to_json()
    loaded = Game.from_json(text)
    full = Game.from_json(text, verify="replay")
    _same_game(loaded, full)
    _play_on(loaded, full, 3, count=20)


def test_version_2_files_still_load_by_full_replay() -> None:
    game = Game("classic", players=3, seed=2, options={"turn_limit": 100})
    bots = _bots(2)
    for _ in range(300):
        game.apply(bots[game.decision.player or 0].choose(game))
    record = game.record()  # actions as objects, as version 2 wrote them
    elapsed = 12.5
    v2 = {"format": "ugentopoly-save", "version": 2, "record": record,
          "elapsed_seconds": elapsed, "digest": save_digest(record, elapsed, game.digest())}
    loaded = Game.from_json(json.dumps(v2, indent=1))
    assert loaded._history is None
    assert loaded.digest() == game.digest()
    assert loaded.log() == game.log()
    v2["checkpoint"] = None  # version 2 had no such field
    with pytest.raises(SaveFileError, match="unexpected field 'checkpoint'"):
        Game.from_json(json.dumps(v2))


def test_a_game_without_checkpoints_saves_none_and_replays_whole() -> None:
    game = Game("ugentopoly", players=2, seed=9)
    game.checkpoint_every = 0
    game._engine.checkpoints.clear()
    for _ in range(50):
        game.apply(game.legal_actions()[0])
    payload = json.loads(game.to_json())
    assert payload["checkpoint"] is None
    loaded = Game.from_json(json.dumps(payload))
    assert loaded._history is None and loaded.digest() == game.digest()


def test_actions_in_text_form_are_exact_and_strict() -> None:
    game = Game("classic", players=3, seed=5, options={"turn_limit": 200})
    bots = _bots(5)
    while not game.is_over:
        game.apply(bots[game.decision.player or 0].choose(game))
    payload = json.loads(game.to_json())
    items = payload["record"]["actions"]
    assert all(isinstance(i, str) or i["type"] in ("propose_trade", "sell_down") for i in items)
    assert {i.split(":")[1].split()[0] for i in items if isinstance(i, str)} >= {
        "roll", "buy", "bid", "pass", "end_turn", "build"}
    assert Game.replay(payload["record"]).digest() == game.digest()
    for bad in ("0:roll ", "00:roll", "0:bid 007", "0:bid -5", "0:roll 3", "0: roll", "x:roll",
                "0:fly", "0:build", "0:tax gold", "1:bid 12 13", "0:roll\n"):
        record = dict(payload["record"], actions=[*items[:5], bad])
        with pytest.raises(SaveFileError, match=r"record\.actions\[5\]"):
            Game.replay(record)


def test_verify_must_be_a_known_mode() -> None:
    text = Game("ugentopoly", players=2, seed=1).to_json()
    with pytest.raises(SaveFileError, match="verify"):
        Game.from_json(text, verify="trust")  # type: ignore[arg-type]
