"""A view over a game loaded from a save file's checkpoint (save format 3) draws it without
replaying the history before the checkpoint: the state, the last dice and the log tail come from
the checkpoint and the events after it. Were the history replayed for the view, a 100,000-turn
game would take seconds to show; the tests check that it stays unloaded."""

from __future__ import annotations

import json

from log_view import LogView

from ugentopoly_widget import Game, UgentopolyWidget
from ugentopoly_widget.engine.bots import HeuristicBot
from ugentopoly_widget.widget.data import LOG_JUMP, LOG_PAGE


def _saved_and_loaded(turns: int = 70) -> tuple[Game, Game]:
    game = Game("classic", players=3, seed=11, options={"turn_limit": 500})
    bots = [HeuristicBot(seed=k) for k in range(3)]
    while game.turn_number < turns or game.decision.kind == "turn":
        game.apply(bots[game.decision.player or 0].choose(game))  # saved mid-turn, after a roll
    loaded = Game.from_json(game.to_json())
    assert loaded._history is not None and loaded.event_count == len(game.events)
    return game, loaded


def test_kinds_reads_the_kinds_without_events() -> None:
    game, _ = _saved_and_loaded(20)
    log = game.events
    for start in (0, 1, 15, 16, 17, len(log) - 3, len(log), len(log) + 5, -4):
        assert log.kinds(start) == [e.kind for e in log[max(0, start):]]


def test_a_view_of_a_loaded_game_does_not_replay_its_history() -> None:
    game, loaded = _saved_and_loaded()
    before, recent = loaded.known_events()
    assert 0 < len(recent) < 100 < before  # the log tail reaches back past the checkpoint
    w = UgentopolyWidget.from_game(loaded)
    view = LogView(w)
    picture = w._repr_mimebundle_()
    assert loaded._repr_svg_()
    assert loaded._history is not None  # nothing above replayed the history
    state = json.loads(w.get_state("state")["state"])
    assert [p["cash"] for p in state["players"]] == [p.cash for p in game.players]
    assert [p["position"] for p in state["players"]] == [p.position for p in game.players]
    assert state["owner"] == [None if o < 0 else o for o in game.owners]
    assert state["turn"] == game.turn_number and state["decision"]["kind"] == "post_roll"
    last_roll = next(e for e in reversed(game.events) if e.kind == "rolled")
    assert state["dice"] == list(last_roll.data["dice"])
    assert picture is not None and "image/svg+xml" in picture[0]
    # the tail: the last lines, never before the checkpoint, numbered as in the whole log
    log = game.log()
    first = max(before, len(log) - LOG_JUMP)
    assert state["log"]["total"] == len(log) and state["log"]["start"] == first
    assert view.lines == log[first:] and view.first == first
    # play on: the view follows; once something loads the history, it still follows
    bots = [HeuristicBot(seed=7 + k) for k in range(3)]
    for _ in range(5):
        loaded.apply(bots[loaded.decision.player or 0].choose(loaded))
    assert loaded._history is not None
    assert view.lines == loaded.log()[first:]  # (log() loads the history)
    assert loaded._history is None
    for _ in range(5):
        loaded.apply(bots[loaded.decision.player or 0].choose(loaded))
    full = loaded.log()
    assert view.next == len(full) and view.lines == full[view.first:]
    assert view.requests == 0


def test_earlier_lines_of_a_loaded_game_come_when_asked() -> None:
    """Paging back within the events after the checkpoint keeps the history unloaded; a page
    reaching before the checkpoint replays it then (the reader asked for those lines)."""
    game, loaded = _saved_and_loaded(90)
    before, recent = loaded.known_events()
    assert len(recent) > LOG_JUMP + LOG_PAGE
    w = UgentopolyWidget.from_game(loaded)
    view = LogView(w)
    view.earlier()  # within the events held
    assert loaded._history is not None
    assert view.lines == game.log()[view.first:] and view.first > before
    view.earlier()  # before the checkpoint: the history now
    assert loaded._history is None
    assert view.lines == game.log()[view.first:] and view.first < before


def test_a_long_loaded_game_shows_only_the_tail_it_keeps() -> None:
    """More events after the checkpoint than a first state shows: the usual last lines."""
    game = Game("classic", players=3, seed=4, options={"turn_limit": 500})
    game.checkpoint_every = 10**6  # no checkpoint after the first: the whole game is "recent"
    bots = [HeuristicBot(seed=k) for k in range(3)]
    while game.turn_number < 40:
        game.apply(bots[game.decision.player or 0].choose(game))
    loaded = Game.from_json(game.to_json())
    w = UgentopolyWidget.from_game(loaded)
    assert w.state["log"]["lines"] == game.log()[-LOG_JUMP:]
    assert w.state["log"]["start"] == len(game.events) - LOG_JUMP
