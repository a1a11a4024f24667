"""The compact event store (EventLog): what goes in comes out as the same Event, in every way a
game's events are read (index, slice, iteration, equality with lists), through undo's
truncation, save/load and the listeners; a finished game keeps a few bytes per event."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from ugentopoly_widget import Game
from ugentopoly_widget.engine.bots import HeuristicBot, play_game
from ugentopoly_widget.engine.records.events import Event, EventLog, shape

# values of every kind an event field can hold, and the edge of the inline ints (2**29)
VALUES: list[Any] = [
    0, 1, -1, 255, 256, 1500, -70_000, 2**29 - 1, 2**29, -(2**29), -(2**29) - 1, 10**30,
    True, False, None, "bank", "pot", "a card id", "", "bank2",
    [3, 4], [6, 6, 6], [], [0, 1, 2, 3], ["Ann", "Bob"], [True, 1], list(range(20)),
    {"properties": [1, 3], "cash": 50, "cards": ["jail"]}, 2.5,
]


def random_event(rng: random.Random) -> Event:
    fields = rng.sample(["a", "b", "c", "d", "amount", "position", "dice"], rng.randint(0, 4))
    data = {name: rng.choice(VALUES) for name in fields}
    player = rng.choice([None, 0, 1, 7, 14])
    return Event(rng.choice(["rolled", "moved", "x"]), player, data)


def same(a: Event, b: Event) -> bool:
    """Equal, and the same JSON (True is not 1, a list is not a tuple, key order kept)."""
    return a == b and json.dumps(a.to_dict()) == json.dumps(b.to_dict()) and a.keys == b.keys


def test_round_trip_of_every_value_kind() -> None:
    log = EventLog()
    events = [Event("k", None, {"v": v}) for v in VALUES] + [Event("turn_ended", 3)]
    for event in events:
        log.append(event)
    assert len(log) == len(events)
    for k, event in enumerate(events):
        assert same(log[k], event), (k, log[k], event)
        assert type(log[k].data["v"] if log[k].keys else None) is type(event.get("v"))
    assert log[-1].player == 3 and log[-1].data == {} and log[-1].kind == "turn_ended"
    with pytest.raises(IndexError):
        log[len(events)]
    with pytest.raises(IndexError):
        log[-len(events) - 1]


def test_read_values_are_copies_for_the_dice() -> None:
    """A caller changing the list it read changes nothing in the log."""
    log = EventLog()
    dice = shape("rolled", "dice", "total", "double")
    log.add(dice, 0, ((3, 4), 7, False))  # the engine passes the dice tuple: read as a list
    first = log[0].data["dice"]
    assert first == [3, 4] and type(first) is list
    first.append(99)
    assert log[0].data["dice"] == [3, 4]
    assert log[0].to_dict() == {"kind": "rolled", "player": 0, "dice": [3, 4], "total": 7,
                                "double": False}


def test_model_check_against_a_plain_list() -> None:
    """Random appends, truncations (across the 16-event marks), reads: always as a list."""
    rng = random.Random(7)
    log = EventLog()
    model: list[Event] = []
    for step in range(3000):
        op = rng.random()
        if op < 0.7:
            event = random_event(rng)
            if rng.random() < 0.5:
                log.append(event)
            else:
                log.record(event.kind, event.player, event.data)
            model.append(event)
        elif op < 0.8:
            n = rng.randint(0, len(model))
            del log[n:]
            del model[n:]
        elif op < 0.9 and model:
            a = rng.randint(-len(model), len(model))
            b = rng.randint(-len(model), len(model))
            assert log[a:b] == model[a:b]
            assert log[a:b:2] == model[a:b:2]
            assert log.since(max(a, 0)) == model[max(a, 0):]
            k = rng.randrange(len(model))
            assert same(log[k], model[k]) and log.kind_at(k) == model[k].kind
        else:
            assert len(log) == len(model)
            assert log == model and model == log
        if op < 0.8 or step % 10 == 0:  # the kept roll count, against a recount
            assert log.rolls() == log.count_kind("rolled"), step
        if step % 500 == 0:
            assert all(same(x, y) for x, y in zip(log, model, strict=True))
            assert list(reversed(log)) == list(reversed(model))
    assert log == model
    assert all(same(x, y) for x, y in zip(log, model, strict=True))


def test_truncation_drops_the_objects_of_the_dropped_events() -> None:
    log = EventLog()
    log.record("trade_offered", 0, {"give": {"cash": 1}})
    log.record("game_started", None, {"players": ["A", "B"]})
    del log[1:]
    log.record("game_started", None, {"players": ["C"]})
    assert [e.data for e in log] == [{"give": {"cash": 1}}, {"players": ["C"]}]
    del log[0:]
    assert len(log) == 0 and log == [] and list(log) == []
    log.append(Event("x", 1, {"n": 10**12}))
    assert log == [Event("x", 1, {"n": 10**12})]


def test_events_read_before_a_truncation_keep_their_values() -> None:
    """Events decode their fields lazily; what the log does afterwards (undo's truncation, new
    events, new objects in the same slots) never changes an Event already handed out."""
    log = EventLog()
    for k in range(40):
        log.record("x", k % 4, {"n": k * 1000, "o": {"k": k}, "dice": [k % 6 + 1, 2]})
    kept = log[10:]  # not decoded yet
    one = log[25]
    del log[5:]
    for k in range(40):
        log.record("y", 0, {"n": -k, "o": ["other"], "dice": [6, 6]})
    assert [e.data["n"] for e in kept] == [k * 1000 for k in range(10, 40)]
    assert [e.data["o"] for e in kept] == [{"k": k} for k in range(10, 40)]
    assert one == Event("x", 1, {"n": 25_000, "o": {"k": 25}, "dice": [2, 2]})
    assert log[5].kind == "y" and log[5].data == {"n": 0, "o": ["other"], "dice": [6, 6]}


def test_equality_and_refusals() -> None:
    log = EventLog([Event("a", 0, {"n": 1}), Event("b", None)])
    assert log == [Event("a", 0, {"n": 1}), Event("b", None)]
    assert log == (Event("a", 0, {"n": 1}), Event("b", None))
    assert log != [Event("a", 0, {"n": 2}), Event("b", None)]
    assert log != [Event("a", 0, {"n": 1})]
    assert log != "ab" and log != 3
    assert log == EventLog(list(log))
    with pytest.raises(TypeError):
        del log[0]  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        del log[0:1]
    for _ in range(14):  # a refused event at a mark boundary (the 16th) writes nothing
        log.append(Event("b", None))
    with pytest.raises(ValueError, match="player"):
        log.append(Event("a", 15))
    with pytest.raises(ValueError, match="player"):
        log.append(Event("a", -1))
    assert len(log) == 16
    for n in range(30):
        log.append(Event("c", 2, {"n": n}))
    assert log[15] == Event("b", None)
    assert log[16:] == [Event("c", 2, {"n": n}) for n in range(30)]
    assert [log[k] for k in range(16, 46)] == log[16:]
    del log[2:]
    assert shape("rolled", "dice", "total", "double") == shape("rolled", "dice", "total",
                                                               "double")


def test_true_is_not_one() -> None:
    """Event equality says True == 1 (Python does); the log keeps which one it was."""
    log = EventLog([Event("a", 0, {"n": True}), Event("a", 0, {"n": 1})])
    assert log[0].data["n"] is True and type(log[1].data["n"]) is int


def _finished_game(seed: int = 3) -> Game:
    game = Game("classic", players=4, seed=seed, options={"turn_limit": 2000})
    play_game(game, [HeuristicBot(seed=seed * 10 + k) for k in range(4)])
    assert game.is_over
    return game


def test_a_finished_game_keeps_a_few_bytes_per_event() -> None:
    game = _finished_game()
    log = game.events
    assert isinstance(log, EventLog) and len(log) > 500
    # about 4.5 codes of 4 bytes per event, plus one mark per 16 events
    assert log.nbytes() / len(log) < 24
    kinds = {e.kind for e in log}
    assert {"rolled", "moved", "turn_started", "game_over"} <= kinds


def test_count_kind_agrees_with_kinds_from_every_start() -> None:
    """count_kind walks the codes itself: its count and last index are those of kinds()."""
    log = _finished_game(5).events
    assert isinstance(log, EventLog)
    total = len(log)
    for start in [0, 1, 15, 16, 17, total // 2, total - 3, total - 1, total, total + 5, -2]:
        kinds = log.kinds(start)
        for kind in ("rolled", "moved", "game_over", "no_such_kind"):
            count = kinds.count(kind)
            last = max(0, start) + len(kinds) - 1 - kinds[::-1].index(kind) if count else -1
            assert log.count_kind(kind, start) == (count, last), (start, kind)
    assert log.count_kind("rolled")[0] > 100


def test_the_log_reads_back_as_the_save_file_events() -> None:
    """Save/load: the loaded game's events are the same, in dict form too."""
    game = _finished_game(4)
    loaded = Game.from_json(game.to_json())
    assert loaded.events == game.events
    assert [e.to_dict() for e in loaded.events] == [e.to_dict() for e in game.events]
    again = [Event.from_dict(json.loads(json.dumps(e.to_dict()))) for e in game.events]
    assert game.events == again


def test_listeners_get_each_actions_new_events_and_they_add_up_to_the_log() -> None:
    game = Game("classic", players=3, seed=11, options={"turn_limit": 60})
    batches: list[list[Event]] = []
    game.on_events(batches.append)
    start = len(game.events)
    returned: list[Event] = []
    bots = [HeuristicBot(seed=k) for k in range(3)]
    while not game.is_over:
        returned += game.apply(bots[game.decision.player or 0].choose(game))
    assert all(type(b) is list for b in batches)
    flat = [e for batch in batches for e in batch]
    assert flat == returned == game.events[start:]
    assert len(flat) > 100


def test_undo_truncates_the_log_and_play_goes_on() -> None:
    """An undo (checkpoint restore: ``del events[n:]``) gives back exactly the events before the
    undone decision; replaying the same decision gives the same events again."""
    game = Game("classic", players=2, seed=5, options={"turn_limit": 400})
    bots = [HeuristicBot(seed=1), HeuristicBot(seed=2)]
    undone = 0
    while not game.is_over and undone < 40:
        before = list(game.events)
        action = bots[game.decision.player or 0].choose(game)
        new = game.apply(action)
        if game.can_undo():
            game.undo()
            assert game.events == before and len(game.events) == len(before)
            assert game.apply(action) == new
            undone += 1
        assert game.events == before + new
    assert undone >= 20


# The fixed-shape adders (what the engine records its frequent events with) must write exactly
# the codes and objects that add() writes for the same values: (adder, its value kinds).
INTS = [0, 1, -1, 255, 256, 1500, -70_000, 2**29 - 1, 2**29, -(2**29), -(2**29) - 1, 10**30]
STRS = ["bank", "pot", "served", "dice", "card", "a card id never seen", ""]
PARTIES: list[Any] = [*INTS[:8], "bank", "pot", "somebody new"]
BOOLS = [True, False]
DICE: list[Any] = [(1, 1), (3, 4), (6, 5), (0, 31), (32, 1), (-1, 2), (2000, 1), (1, 2, 3), (4,)]
ADDERS: list[tuple[str, list[list[Any]]]] = [
    ("add0", []),
    ("add_i", [INTS]),
    ("add_s", [STRS]),
    ("add_b", [BOOLS]),
    ("add_ii", [INTS, INTS]),
    ("add_ss", [STRS, STRS]),
    ("add_roll", [DICE, INTS, BOOLS]),
    ("add_move", [INTS, INTS, INTS, STRS]),
    ("add_pay", [PARTIES, PARTIES, INTS]),
    ("add_pay_i", [PARTIES, PARTIES, INTS, INTS]),
    ("add_pay_s", [PARTIES, PARTIES, INTS, STRS]),
    ("add_pay_b", [PARTIES, PARTIES, INTS, BOOLS]),
    ("add_at_pay", [INTS, PARTIES, PARTIES, INTS]),
    ("add_level_pay", [INTS, INTS, PARTIES, PARTIES, INTS]),
    ("add_built", [INTS, INTS, BOOLS, PARTIES, PARTIES, INTS]),
]


def _state(log: EventLog) -> tuple[Any, ...]:
    log.flush()
    return (log._codes.tolist(), list(log._objs), log._marks.tolist(), len(log))


@pytest.mark.parametrize("name, kinds", ADDERS, ids=[a[0] for a in ADDERS])
def test_fixed_shape_adders_write_what_add_writes(name: str, kinds: list[list[Any]]) -> None:
    rng = random.Random(name)
    fast, generic = EventLog(), EventLog()
    number = shape(f"fixed_{name}", *(f"f{k}" for k in range(len(kinds))))
    for _ in range(600):  # past the tail flush (256 codes) and many marks (every 16th event)
        values = [rng.choice(kind) for kind in kinds]
        player = rng.randint(0, 7)
        getattr(fast, name)(number, player, *values)
        generic.add(number, player, tuple(values))
    assert _state(fast) == _state(generic)
    assert fast.rolls() == generic.rolls() == (0, -1)
    assert list(fast) == list(generic)
    assert [e.values for e in fast[-40:]] == [e.values for e in generic[-40:]]


def test_add_roll_counts_what_add_counts() -> None:
    """add_roll with a "rolled" shape is counted as add() counts it (the other adders never
    get one): the count and the last index, also after truncations."""
    rng = random.Random(3)
    number = shape("rolled", "dice", "total", "double")
    other = shape("not_rolled", "dice", "total", "double")
    fast, generic = EventLog(), EventLog()
    for step in range(800):
        which = number if rng.random() < 0.3 else other
        values = (rng.choice(DICE), rng.choice(INTS), rng.choice(BOOLS))
        fast.add_roll(which, 1, *values)
        generic.add(which, 1, values)
        if step % 97 == 0:
            cut = rng.randint(0, len(fast))
            del fast[cut:]
            del generic[cut:]
        assert fast.rolls() == generic.rolls() == generic.count_kind("rolled")
    assert fast.rolls()[0] > 50


@pytest.mark.parametrize("profile", ["classic", "ugentopoly", "cell22"])
def test_the_kept_roll_count_follows_play_undo_and_loads(profile: str) -> None:
    """EventLog.rolls() (what the widget counts a batch's rolls with) is a recount of the
    "rolled" events (utility rolls too) after play, each undo, a checkpoint load (the log
    starts at the checkpoint) and the replay of its history."""
    game = Game(profile, players=3, seed=11, options={"turn_limit": 150})
    bots = [HeuristicBot(seed=k) for k in range(3)]
    undone = 0
    while not game.is_over:
        game.apply(bots[game.decision.player or 0].choose(game))
        if game.can_undo() and undone < 30 and game.turn_number % 3 == 0:
            game.undo()
            undone += 1
        log = game._engine.events
        if len(log) % 7 == 0:
            assert log.rolls() == log.count_kind("rolled")
    log = game._engine.events
    assert log.rolls() == log.count_kind("rolled") and log.rolls()[0] > 50
    assert undone >= 10
    loaded = Game.from_json(game.to_json())
    before, held = loaded.known_events()
    assert held.rolls() == held.count_kind("rolled")
    assert loaded.events.rolls() == log.rolls()  # the history replayed: the whole log again


def test_an_unknown_shape_is_refused_before_anything_is_written() -> None:
    log = EventLog()
    log.record("rolled", 0, {"dice": [1, 2]})
    for write in (lambda: log.add(1 << 20, 0, (1,)), lambda: log.add_roll(1 << 20, 0, (1, 2), 3,
                                                                         False)):
        with pytest.raises(IndexError):
            write()
        assert len(log) == 1 and log.rolls() == (1, 0) and log[0].data == {"dice": [1, 2]}


def test_add_roll2_writes_what_add_writes() -> None:
    """add_roll2(a, b), the engine's roll of two dice, writes the codes, objects and roll count
    add() writes for ((a, b), a + b, a == b): ordinary dice (from the table, also once made),
    and dice outside it (negative, 32 and over, huge) through add()."""
    rng = random.Random(5)
    number = shape("rolled", "dice", "total", "double")
    fast, generic = EventLog(), EventLog()
    pairs = [(1, 1), (3, 4), (6, 5), (0, 31), (31, 31), (32, 1), (1, 32), (-1, 2), (2, -3),
             (2000, 1), (2**40, 2)]
    for _ in range(700):  # past the tail flush (256 codes) and many marks (every 16th event)
        a, b = rng.choice(pairs)
        player = rng.randint(0, 7)
        fast.add_roll2(number, player, a, b)
        generic.add(number, player, ((a, b), a + b, a == b))
    assert _state(fast) == _state(generic)
    assert fast.rolls() == generic.rolls() == (700, 699)
    assert list(fast) == list(generic)
    assert fast[3].data["dice"] == list(fast[3].values[0])  # read as a list, a new one
