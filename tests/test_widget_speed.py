"""The widget's fast paths (issue 7, item 5): play_bots on the engine's trusted path, turn by turn
without the per-action listener when nobody else follows the game, and the state sent as JSON
text. Each must give exactly what the slow path gives."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ugentopoly_widget import Game, UgentopolyWidget, widget_sync
from ugentopoly_widget.engine.bots import HeuristicBot, WorthSampler, make_bot, play_game
from ugentopoly_widget.engine.records.events import Event
from ugentopoly_widget.widget.data import LogCache
from ugentopoly_widget.widget.pacing import BATCH_SAMPLE_TURNS, sample_step


def _widget(profile: str = "classic", seed: int = 3, **kw: Any) -> UgentopolyWidget:
    return UgentopolyWidget(profile, players=4, seed=seed, seats=["heuristic"] * 4, **kw)


@pytest.mark.parametrize("profile", ["classic", "ugentopoly", "cell22"])
def test_play_bots_fast_path_plays_the_game_the_followed_path_plays(profile: str) -> None:
    """In runs of turns without the listener == with a callback following every action (which
    keeps the per-action path): same game, same net-worth figures, same log, one state sent."""
    fast = _widget(profile, options={"turn_limit": 300})
    followed = _widget(profile, options={"turn_limit": 300})
    seen: list[list[Event]] = []
    followed.on_event(seen.append)
    sent: list[int] = []
    fast.observe(lambda change: sent.append(change["new"]["seq"]), names="state")
    n_fast = fast.play_bots()
    n_followed = followed.play_bots()
    assert n_fast == n_followed == len(seen) > 50
    assert fast.game.digest() == followed.game.digest()
    assert fast.game.is_over
    # the batch samples net worth every BATCH_SAMPLE_TURNS turns (and at the end), the
    # followed path every turn: the same figures at the turns both sampled
    every = {row[0]: row for row in followed.state["history"]}
    rows = fast.state["history"]
    assert len(rows) > 10 and rows[-1] == followed.state["history"][-1]
    assert all(every[row[0]] == row for row in rows)
    turns = [row[0] for row in rows]
    assert turns == sorted(set(turns)) and len(rows) >= fast.game.turn_number // BATCH_SAMPLE_TURNS
    assert fast.state["log"] == followed.state["log"]
    assert len(sent) == 1  # one state for the whole batch


def test_fast_path_reattaches_the_listener_and_stops_where_asked() -> None:
    w = _widget(options={"turn_limit": 300})
    game = w.game
    start = game.turn_number
    w.play_bots(turns=7)
    assert game.turn_number == start + 7 and not game.is_over
    assert game._listeners == [w._listener]  # the widget follows the game again
    events: list[list[Event]] = []
    w.on_event(events.append)
    w.game.apply(w._bot_action())  # an action from code still reaches the widget
    assert events and w.state["seq"] > 0


def test_fast_path_stops_at_a_person_and_gives_the_listener_back_after_a_failure() -> None:
    w = UgentopolyWidget("classic", players=3, seed=5, seats=["heuristic", "person", "heuristic"])
    game = w.game
    w.play_bots()
    assert game.decision.player == 1 and not game.is_over  # Bob (a person) must decide
    assert w.play_bots() == 0
    w.seats = ["heuristic"] * 3

    class Broken(HeuristicBot):
        def choose(self, game: Game) -> Any:
            raise RuntimeError("bot broke")

    w._bots = {k: Broken(seed=k) for k in range(3)}
    with pytest.raises(RuntimeError, match="bot broke"):
        w.play_bots()
    assert game._listeners == [w._listener]


def test_play_game_stops_at_unnamed_seats_and_at_a_turn() -> None:
    game = Game("classic", players=3, seed=2)
    bots = {0: make_bot("heuristic", 1), 2: make_bot("heuristic", 2)}
    while game.decision.player != 1:
        play_game(game, bots, until_turn=game.turn_number + 1)
    assert play_game(game, bots) == 0  # seat 1 is not named: nothing played
    other = Game("cell22", players=2, seed=2)
    count = play_game(other, [make_bot("random", 1), make_bot("random", 2)], until_turn=10)
    assert other.turn_number == 10 and count > 10


def test_state_is_sent_as_json_text_the_view_parses() -> None:
    w = _widget()
    w.play_bots(turns=3)
    sent = w.get_state("state")["state"]  # what goes over the comm
    assert isinstance(sent, str)
    assert json.loads(sent) == json.loads(json.dumps(w.state))
    assert w.state["seq"] == json.loads(sent)["seq"]  # Python code still reads a dict


@pytest.mark.parametrize("fast", [True, False], ids=["orjson", "section-reuse"])
def test_state_text_reuses_sections_and_still_says_exactly_the_state(
    fast: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The JSON text of each state (orjson's, or the fallback made from the previous state's
    unchanged sections) parses to exactly that state: through a whole game of buys, builds,
    trades, jail, an undo, a language switch and the game over (a stale section reused would
    differ)."""
    if fast:
        assert widget_sync._orjson_dumps is not None  # a dependency: installed with the package
    else:
        monkeypatch.setattr(widget_sync, "_orjson_dumps", None)
    w = UgentopolyWidget("classic", players=["Ann", "Bob", "Cleo"], seed=8,
                         options={"turn_limit": 120})
    sent: list[str] = []
    w.observe(lambda change: sent.append(w.get_state("state")["state"]), names="state")
    bots = [HeuristicBot(seed=k) for k in range(3)]
    game = w.game
    undone = False
    while not game.is_over:
        game.apply(bots[game.decision.player or 0].choose(game))
        assert json.loads(sent[-1]) == w.state
        if not undone and game.can_undo() and any(w.state["owner"]):
            w.undo()
            undone = True
            assert json.loads(sent[-1]) == w.state
    count = len(sent)
    w.lang = "nl"  # no state is sent for it (the views get the log's lines alone) ...
    assert len(sent) == count and w.state["lang"] == "nl"
    w.refresh()  # ... and the next state says exactly the state, in the other language
    assert json.loads(sent[-1]) == w.state and "history" in w.state
    assert json.loads(sent[-1])["lang"] == "nl"
    assert undone and len(sent) > 200
    if not fast:  # the sections an action did not change were not encoded again
        encoder = w._state_text
        owner = encoder._parts["owner"]
        w.refresh()
        assert encoder._parts["owner"] is owner


def test_state_json_falls_back_where_orjson_refuses_and_keys_become_strings() -> None:
    encoder = widget_sync.StateText()
    huge = {"seq": 1, "pot": 2**70, "owner": [None, 0], "odd": {3: "x"}}
    assert json.loads(widget_sync.state_json(huge, encoder)) == json.loads(json.dumps(huge))
    plain = {"seq": 2, "odd": {3: "x"}, "name": "Sint-Pietersplein é"}
    text = widget_sync.state_json(plain, encoder)
    assert json.loads(text) == {"seq": 2, "odd": {"3": "x"}, "name": "Sint-Pietersplein é"}
    with pytest.raises(TypeError, match="not JSON serializable"):
        widget_sync.state_json({"seq": 3, "pot": 2**70, "bad": object()}, encoder)


def test_dice_and_roll_count_after_batches_and_single_actions() -> None:
    """Found by kinds alone (only the last roll is decoded): the last dice and the number of
    rolls, after a batch and after each following action, as the events say."""
    w = _widget(options={"turn_limit": 300})

    def check() -> None:
        rolled = [e for e in w.game.events if e.kind == "rolled"]
        assert w.state["rolls"] == len(rolled) > 0
        assert w.state["dice"] == list(rolled[-1].data["dice"])

    w.play_bots(turns=9)
    check()
    w.seats = ["person"] * 4
    bot = HeuristicBot(seed=2)
    for _ in range(12):
        w.game.apply(bot.choose(w.game))
        check()


def test_roll_count_through_batches_undo_and_a_loaded_games_history() -> None:
    """The rolls of a batch come from the log's kept count (EventLog.rolls): still the events'
    count after undo between batches, and in a game loaded from a checkpoint (counted from the
    checkpoint on) before and after its history is replayed for a page of earlier lines."""

    def check(w: UgentopolyWidget, start: int = 0) -> None:
        rolled = [e for e in w.game.events[start:] if e.kind == "rolled"]
        assert w.state["rolls"] == len(rolled) > 0
        assert w.state["dice"] == list(rolled[-1].data["dice"])

    w = _widget(options={"turn_limit": 600})
    bot = HeuristicBot(seed=4)
    undone = 0
    for _ in range(8):
        w.play_bots(turns=20)  # over 100 events: only the log's tail is decoded
        check(w)
        for _ in range(20):  # a decision that can be taken back
            if w.game.is_over:
                break
            w.game.apply(bot.choose(w.game))
            if w.game.can_undo():
                w.game.undo()
                undone += 1
                break
        check(w)
    assert undone >= 3
    long = Game("classic", players=4, seed=8, options={"turn_limit": 300})
    play_game(long, [make_bot("heuristic", seed=k) for k in range(4)], until_turn=60)
    loaded = Game.from_json(long.to_json())
    before = loaded.known_events()[0]
    assert before > 0  # the log starts at the checkpoint
    view = UgentopolyWidget.from_game(loaded, seats=["heuristic"] * 4)
    view.play_bots(turns=20)
    check(view, before)
    view._send_log_page(5)  # the reader scrolls back: the history is replayed
    assert loaded.known_events()[0] == 0
    view.play_bots(turns=20)
    check(view, before)


def _recorded(w: UgentopolyWidget) -> tuple[list[Any], list[Any]]:
    """What the widget sends over its comm, and the state changes its observers are told."""
    messages: list[Any] = []
    changes: list[Any] = []
    w.comm.send = lambda data=None, buffers=None, **kw: messages.append((data, buffers))
    w.observe(lambda change: changes.append((change["name"], change["old"], change["new"])),
              names="state")
    return messages, changes


def test_state_set_directly_sends_and_tells_what_the_trait_assignment_does() -> None:
    """The widget sets its state without traitlets' generic machinery: the same messages and
    the same observer calls as ``w.state = ...``, through a game, an undo, a language switch,
    a batch, sync held, and a change coming from the view."""
    fast = _widget(seed=4, options={"turn_limit": 60})
    plain = _widget(seed=4, options={"turn_limit": 60})
    plain._set_state = lambda state: setattr(plain, "state", state)
    seen = [_recorded(fast), _recorded(plain)]
    for w in (fast, plain):
        w.seats = ["person"] * 4
        bot = HeuristicBot(seed=1)
        for step in range(40):
            w.game.apply(bot.choose(w.game))
            if step == 5 and w.game.can_undo():
                w.undo()
        w.lang = "nl"
        w.set_state({"lang": "en"})  # as a view's change arrives (property lock held)
        with w.hold_sync():
            w.game.apply(bot.choose(w.game))
            w.refresh()
        w.seats = ["heuristic"] * 4
        w.play_bots()
    (fast_msgs, fast_changes), (plain_msgs, plain_changes) = seen
    assert fast.game.digest() == plain.game.digest() and fast.game.is_over
    assert len(fast_changes) > 40 and fast_changes == plain_changes
    assert len(fast_msgs) > 40 and fast_msgs == plain_msgs
    last = [m for m in fast_msgs if "state" in m[0].get("state", {})][-1]
    assert json.loads(last[0]["state"]["state"]) == fast.state


def test_kept_sections_follow_the_game() -> None:
    """Owners, buildings, mortgages and players kept from state to state while unchanged: at
    every action they are what the game says (a game with buildings, mortgages and trades)."""
    w = UgentopolyWidget("classic", players=["Ann", "Bob", "Cleo"], seed=5,
                         options={"turn_limit": 150})
    bots = [HeuristicBot(seed=k) for k in range(3)]
    game = w.game
    mortgaged = 0
    while not game.is_over:
        game.apply(bots[game.decision.player or 0].choose(game))
        state = w.state
        assert state["mortgaged"] == game.mortgaged_positions
        assert state["owner"] == [game.owner(p) for p in range(40)]
        assert state["level"] == [game.buildings(p) for p in range(40)]
        assert state["legal"] == [a.to_dict() for a in game.legal_actions()]
        assert [(p["cash"], p["position"], p["in_jail"], p["jail_cards"], p["bankrupt"])
                for p in state["players"]] == [
            (p.cash, p.position, p.in_jail, [c.id for c in p.jail_cards], p.bankrupt)
            for p in game.players]
        mortgaged += bool(state["mortgaged"])
    assert mortgaged > 5


def test_a_long_batch_samples_less_often_as_the_game_goes_on() -> None:
    """Every BATCH_SAMPLE_TURNS turns up to turn 512, then the step doubles with the turn
    number: a 1,500-turn game's chart gets ~110 points, each at a step boundary."""
    assert [sample_step(t) for t in (0, 1, 511, 512, 1023, 1024, 2047, 2048)] == [
        8, 8, 8, 16, 16, 32, 32, 64]
    w = _widget("ugentopoly", options={"turn_limit": 1500})
    w.play_bots()
    assert w.game.is_over and w.game.turn_number == 1500
    expected = [1]  # the state before the batch, then every stop, then the end
    while expected[-1] < 1500:
        step = sample_step(expected[-1])
        expected.append(min(1500, (expected[-1] // step + 1) * step))
    turns = [row[0] for row in w.state["history"]]
    assert turns == expected
    assert 100 < len(turns) < 1500 // BATCH_SAMPLE_TURNS


def _stop_and_sample(game: Game, bots: dict[int, Any], target: int | None) -> LogCache:
    """The net worth a batch samples, as play_bots took it when it stopped the play every
    sample_step() turns (before the engine called it back): the reference."""
    cache = LogCache()
    cache.sample(game)  # the state shown before the batch
    while not game.is_over:
        turn = game.turn_number
        if target is not None and turn >= target:
            break
        step = sample_step(turn)
        until = (turn // step + 1) * step
        if target is not None:
            until = min(until, target)
        play_game(game, bots, until_turn=until)
        cache.sample(game)
        if game.turn_number < until:
            break
    cache.sample(game)  # the state sent after it
    return cache


@pytest.mark.parametrize("profile, seats, turns", [
    ("classic", ["heuristic"] * 4, None),
    ("ugentopoly", ["heuristic", "random", "heuristic", "random"], None),
    ("cell22", ["random"] * 4, 45),
    ("classic", ["heuristic", "heuristic", "person", "heuristic"], None),
])
def test_samples_taken_by_the_engines_call_back_are_those_of_stops(
        profile: str, seats: list[str], turns: int | None) -> None:
    """play_bots samples from play_game's on_turn call back: the same turns and figures as
    when it stopped the play there (a person's decision, a turn target, the end)."""
    options = {"turn_limit": 700}
    w = UgentopolyWidget(profile, players=4, seed=9, seats=seats, options=options)
    w.play_bots(turns)
    game = Game(profile, players=4, seed=9, options=options)
    bots = {k: make_bot(kind, seed=(9 * 31 + k) % 2**32) for k, kind in enumerate(seats)
            if kind != "person"}
    reference = _stop_and_sample(game, bots, None if turns is None else game.turn_number + turns)
    assert game.digest() == w.game.digest()
    assert w._cache.samples == reference.samples and len(reference.samples) > 1


def test_on_turn_is_called_where_until_turn_stops() -> None:
    game = Game("classic", players=3, seed=2, options={"turn_limit": 300})
    bots = [make_bot("heuristic", seed=k) for k in range(3)]
    calls: list[tuple[int, int]] = []

    def on_turn(turn: int) -> int:
        calls.append((turn, game.event_count))
        return turn + 7

    play_game(game, bots, on_turn=on_turn, on_turn_at=5)
    assert game.is_over
    stops: list[tuple[int, int]] = []
    other = Game("classic", players=3, seed=2, options={"turn_limit": 300})
    until = 5
    same_bots = [make_bot("heuristic", seed=k) for k in range(3)]
    while not other.is_over:
        play_game(other, same_bots, until_turn=until)
        if other.is_over:
            break
        stops.append((other.turn_number, other.event_count))
        until = other.turn_number + 7
    assert calls == stops and len(calls) > 10
    assert other.digest() == game.digest()


@pytest.mark.parametrize("limit", [5, 400])
def test_worth_sampler_takes_the_rows_of_the_python_sampling(limit: int) -> None:
    """WorthSampler (compiled with the play loop) appends the rows, doubles the step and thins
    past its limit as the Python call back does it."""
    games = [Game("ugentopoly", players=3, seed=4, options={"turn_limit": 400}) for _ in "ab"]
    rows = [[1, *games[0].valuations()]]
    play_game(games[0], [make_bot("heuristic", seed=k) for k in range(3)],
              sampler=WorthSampler(rows, 8, 8, 4, limit))
    reference = [[1, *games[1].valuations()]]

    def on_turn(turn: int) -> int:
        reference.append([turn, *games[1].valuations()])
        if len(reference) > limit:
            reference[:] = reference[:1] + reference[2::2]
        step = 8
        while turn >= step * 4:
            step *= 2
        return (turn // step + 1) * step

    play_game(games[1], [make_bot("heuristic", seed=k) for k in range(3)], on_turn=on_turn,
              on_turn_at=8)
    assert games[0].digest() == games[1].digest() and games[0].turn_number == 400
    assert rows == reference and len(rows) > 2
    assert sorted(rows) == rows


def test_a_batch_over_another_games_samples_starts_them_again() -> None:
    """Samples that are not this game's (the sampler's precondition fails): the batch samples
    through sample(), which starts them again, as the stops did."""
    w = _widget(seed=6, options={"turn_limit": 300})
    w._cache._sampled_game = -1  # as if another game's
    w.play_bots(turns=60)
    game = Game("classic", players=4, seed=6, options={"turn_limit": 300})
    bots = {k: make_bot("heuristic", seed=(6 * 31 + k) % 2**32) for k in range(4)}
    reference = _stop_and_sample(game, bots, game.turn_number + 60)
    assert w.game.digest() == game.digest()
    assert w._cache.samples == reference.samples[1:]  # the row before the batch was dropped


def test_a_batch_imports_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """play_bots and its final state run no import statement: each one inside a function
    resolved its relative name and ran importlib's from-list handling on every call (six a
    batch, ~80k instructions, a tenth of what a short batch added to the bare engine)."""
    import builtins

    w = _widget(seed=5)
    real = builtins.__import__
    seen: list[str] = []

    def counting(name: str, *args: Any, **kwargs: Any) -> Any:
        seen.append(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", counting)
    w.play_bots()
    monkeypatch.undo()
    assert w.game.is_over and w.state["phase"] == "over"
    assert seen == []
    w.close()


@pytest.mark.parametrize("profile", ["classic", "ugentopoly", "cell22"])
def test_the_ranking_of_a_finished_game_gives_each_players_own_figures(profile: str) -> None:
    """The game-over ranking reads every valuation in one call: still each ranked player's
    game.valuation(i), name, cash and whether they won, in the engine's ranking order."""
    for seed in (1, 2, 7):
        w = _widget(profile, seed=seed, options={"turn_limit": 300})
        w.play_bots()
        game = w.game
        assert game.is_over
        winners = game.winners
        assert w.state["ranking"] == [
            {"player": i, "name": game.players[i].name, "cash": game.players[i].cash,
             "net_worth": game.valuation(i), "winner": i in winners}
            for i in game.ranking]
        assert [r["player"] for r in w.state["ranking"]] == game.ranking
        w.close()
