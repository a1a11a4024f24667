"""Issue 34 without a server: the room's checks on every request (join codes, names, one
seat per device, approval, forged / replayed / stale / other-seat / unapproved requests,
floods), the teacher's requests, bots and stand-ins for away students, and that the game's
record is exactly the accepted requests. Refusals change nothing and are logged."""

from __future__ import annotations

from typing import Any

import pytest

from ugentopoly_widget.classroom import Room, RoomError
from ugentopoly_widget.classroom.checks import check_name


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class FakeView:
    """A device's page as the room sees it: told of changes, connected or not."""

    def __init__(self, device: str) -> None:
        self.device = device
        self.up = True
        self.updates = 0

    def room_update(self, pooled_only: bool = False) -> None:
        self.updates += 1

    def connected(self) -> bool:
        return self.up


def make_room(players: Any = 3, admit: str = "teacher", **kwargs: Any) -> tuple[Room, Clock]:
    clock = Clock()
    room = Room("classic", players=players, seed=7, code="ABC234", admit=admit, clock=clock,
                bot_delay=0.0, **kwargs)
    return room, clock


def joined(room: Room, device: str, name: str) -> FakeView:
    view = FakeView(device)
    room.attach(view)
    assert room.request(device, {"type": "join", "code": "ABC234", "name": name})["ok"]
    return view


def teacher(room: Room) -> str:
    room.attach(FakeView("teacher"))
    assert room.become_teacher("teacher", room.teacher_key)
    return "teacher"


def T(room: Room, op: str, **fields: Any) -> dict[str, Any]:
    return room.request("teacher", {"type": "teacher", "op": op, **fields})


def seated_game(players: int = 2) -> tuple[Room, Clock, list[str]]:
    """A started room whose seats are all held by approved devices."""
    room, clock = make_room(players, admit="code")
    devices = []
    for k in range(players):
        joined(room, f"d{k}", f"P{k}")
        assert room.request(f"d{k}", {"type": "claim", "seat": k})["ok"]
        devices.append(f"d{k}")
    teacher(room)
    assert T(room, "start")["ok"]
    return room, clock, devices


def act(room: Room, device: str, action: dict[str, Any], seq: int | None = None
        ) -> dict[str, Any]:
    return room.request(device, {"type": "act", "action": action,
                                 "seq": room.game_seq if seq is None else seq})


def snapshot(room: Room) -> tuple[Any, ...]:
    return (len(room.game.actions), room.game.digest(), room.game_seq,
            [(s.holder, s.bot) for s in room.seats])


# ---------------------------------------------------------------------- joining


def test_a_wrong_code_is_refused_and_changes_nothing() -> None:
    room, _ = make_room()
    room.attach(FakeView("p"))
    reply = room.request("p", {"type": "join", "code": "ABC235", "name": "Ann"})
    assert reply == {"ok": False, "error": "wrong class code: type the code shown on the "
                                           "projector"}
    assert room.devices["p"].role == "visitor" and room.devices["p"].name == ""
    assert room.refusals[-1].kind == "join"
    # the code as a student types it: lower case, a space or a dash
    assert room.request("p", {"type": "join", "code": " abc-234", "name": "Ann"})["ok"]
    assert room.devices["p"].role == "member"


def test_guessing_codes_makes_a_device_wait() -> None:
    room, clock = make_room()
    room.attach(FakeView("p"))
    for k in range(5):
        assert not room.request("p", {"type": "join", "code": f"WRONG{k}"})["ok"]
    reply = room.request("p", {"type": "join", "code": "ABC234", "name": "Ann"})
    assert not reply["ok"] and "too many wrong codes" in reply["error"]
    assert room.devices["p"].role == "visitor"
    clock.now += 31
    assert room.request("p", {"type": "join", "code": "ABC234", "name": "Ann"})["ok"]


@pytest.mark.parametrize("name, message", [
    ("<b>Ann</b>", "not '<'"), ("Ann\u202e", "U+202E"), ("", "type your name"),
    ("A" * 21, "at most 20"), ("Ann 🎲", "not '🎲'"), (7, "a name is text"),
])
def test_a_name_with_markup_or_control_characters_is_refused(name: Any, message: str) -> None:
    room, _ = make_room()
    room.attach(FakeView("p"))
    reply = room.request("p", {"type": "join", "code": "ABC234", "name": name})
    assert not reply["ok"] and message in reply["error"]
    assert room.devices["p"].role == "visitor" and room.devices["p"].name == ""


def test_names_keep_letters_of_any_script_and_collapse_spaces() -> None:
    assert check_name("  Zoë   O'Brien-Łukasz ") == "Zoë O'Brien-Łukasz"
    room, _ = make_room()
    joined(room, "a", "Ann")
    room.attach(FakeView("b"))
    reply = room.request("b", {"type": "join", "code": "ABC234", "name": "ann"})
    assert not reply["ok"] and "taken" in reply["error"]


def test_one_seat_per_device_and_the_teacher_approves() -> None:
    room, _ = make_room()
    teacher(room)
    joined(room, "a", "Ann")
    joined(room, "b", "Bob")
    assert room.request("a", {"type": "claim", "seat": 0}) == {"ok": True, "asked": 0}
    assert room.seats[0].holder is None  # waiting for the teacher
    assert T(room, "approve", device=room.devices["a"].number)["ok"]
    assert room.seats[0].holder == "a" and room.seats[0].name == "Ann"
    before = snapshot(room)
    reply = room.request("a", {"type": "claim", "seat": 1})
    assert not reply["ok"] and "one seat per device" in reply["error"]
    reply = room.request("b", {"type": "claim", "seat": 0})
    assert not reply["ok"] and "taken" in reply["error"]
    assert snapshot(room) == before
    # a claim from a device that has not joined with the code
    room.attach(FakeView("c"))
    reply = room.request("c", {"type": "claim", "seat": 2, "name": "Cy"})
    assert not reply["ok"] and "join the class" in reply["error"]


def test_the_class_code_admits_when_the_teacher_says_so() -> None:
    room, _ = make_room()
    teacher(room)
    assert T(room, "admit", admit="code")["ok"]
    joined(room, "a", "Ann")
    assert room.request("a", {"type": "claim", "seat": 2}) == {"ok": True, "seated": 2}
    assert room.seats[2].holder == "a"


def test_the_start_deals_the_game_with_the_students_names_and_bots_in_empty_seats() -> None:
    room, _ = make_room(3, admit="code")
    teacher(room)
    joined(room, "a", "Ann")
    room.request("a", {"type": "claim", "seat": 1})
    assert T(room, "start")["ok"]
    assert [p.name for p in room.game.players] == ["Seat 1", "Ann", "Seat 3"]
    assert [s.bot for s in room.seats] == ["heuristic", None, "heuristic"]
    assert not T(room, "start")["ok"]


# ---------------------------------------------------------------------- acting


def test_only_the_seats_holder_acts_and_every_other_request_is_refused() -> None:
    room, clock, devices = seated_game(2)
    player = room.game.decision.player
    assert player is not None
    holder, other = devices[player], devices[1 - player]
    roll = {"type": "roll", "player": player}
    room.attach(FakeView("stranger"))
    joined(room, "watcher", "Wat")
    before = snapshot(room)
    refused = [
        (other, act(room, other, roll), "this device plays seat"),  # another seat's action
        (other, act(room, other, {"type": "roll", "player": 1 - player}), "not"),  # not theirs
        ("stranger", act(room, "stranger", roll), "holds no seat"),  # never joined
        ("watcher", act(room, "watcher", roll), "holds no seat"),  # a spectator
        (holder, act(room, holder, roll, seq=room.game_seq - 1), "stale"),
        (holder, act(room, holder, roll, seq=room.game_seq + 5), "stale"),
        (holder, act(room, holder, roll, seq="7"), "seq"),  # type: ignore[arg-type]
        (holder, act(room, holder, {"type": "roll", "player": player, "x": 1}), "refused"),
        (holder, act(room, holder, {"type": "fly", "player": player}), "refused"),
        (holder, room.request(holder, {"type": "act", "action": roll}), "missing"),
        (holder, room.request(holder, {"type": "teacher", "op": "undo"}), "only the teacher"),
        (holder, room.request(holder, [1, 2]), "JSON object"),
        (holder, room.request(holder, {"type": "act", "action": [[[[[[[[[[[[[[1]]]]]]]]]]]]]],
                                       "seq": 0}), "malformed"),
    ]
    for device, reply, words in refused:
        assert not reply["ok"] and words in reply["error"], (device, reply)
    assert snapshot(room) == before
    assert room.refused_count >= len(refused)
    # the holder's click goes through once; the same request again is stale (a replay)
    request = {"type": "act", "action": roll, "seq": room.game_seq}
    assert room.request(holder, request)["ok"]
    again = room.request(holder, request)
    assert not again["ok"] and "stale" in again["error"]
    assert room.expected_actions() == room.game.actions
    assert room.accepted[-1].source == holder


def test_an_unapproved_device_and_a_paused_or_unstarted_game_are_refused() -> None:
    room, _ = make_room(2)
    teacher(room)
    joined(room, "a", "Ann")
    room.request("a", {"type": "claim", "seat": 0})
    reply = act(room, "a", {"type": "roll", "player": 0})
    assert "not approved" in reply["error"]
    T(room, "approve", device=room.devices["a"].number)
    assert "not started" in act(room, "a", {"type": "roll", "player": 0})["error"]
    T(room, "start")
    T(room, "bot", seat=1, level=None) if room.seats[1].holder else None
    T(room, "pause")
    player = room.game.decision.player
    assert player is not None
    reply = act(room, "a", {"type": "roll", "player": 0})
    assert not reply["ok"]
    assert room.step() is False  # paused: the bots wait too
    T(room, "resume")
    T(room, "end")
    assert "ended" in act(room, "a", {"type": "roll", "player": 0})["error"]


def test_a_flood_of_requests_is_cut_and_changes_nothing() -> None:
    room, clock, devices = seated_game(2)
    before = snapshot(room)
    replies = [room.request(devices[0], {"type": "act", "action": {"type": "buy", "player": 9},
                                         "seq": 0}) for _ in range(200)]
    floods = [r for r in replies if r.get("flood")]
    assert len(floods) >= 150 and floods[0]["error"] == "too many requests: wait a moment"
    assert snapshot(room) == before
    assert len(room.refusals) < 60  # a flood is counted, not logged line by line
    clock.now += 10  # the bucket refills: the device is heard again
    assert not room.request(devices[0], {"type": "lang", "lang": "xx"}).get("flood")


def test_undo_and_the_record_equals_the_accepted_requests() -> None:
    room, clock, devices = seated_game(2)
    undos = 0
    for _ in range(60):
        clock.now += 1  # a class clicks at a person's pace (no flood)
        player = room.game.decision.player
        assert player is not None
        choice = room.bot_for(player, "heuristic").choose(room.game)  # what a student clicks
        assert act(room, devices[player], choice.to_dict())["ok"]
        if room.game.can_undo() and undos < 5:
            assert T(room, "undo")["ok"]
            undos += 1
    assert undos == 5
    assert room.expected_actions() == room.game.actions
    assert sum(a.action is None for a in room.accepted) == 5


# ---------------------------------------------------------------------- the teacher


def test_only_the_teachers_key_makes_a_teacher() -> None:
    room, _ = make_room()
    joined(room, "a", "Ann")
    assert not room.become_teacher("a", room.code)
    assert not room.become_teacher("a", room.teacher_key[:-1])
    reply = room.request("a", {"type": "teacher", "op": "start"})
    assert not reply["ok"] and "only the teacher" in reply["error"]
    assert not room.started
    assert room.teacher_key not in room.code and len(room.teacher_key) >= 20


def test_kick_reassign_and_hand_a_seat_to_a_bot() -> None:
    room, clock, devices = seated_game(2)
    assert T(room, "admit", admit="teacher")["ok"]
    joined(room, "late", "Lia")
    number = {d: room.devices[d].number for d in ("d0", "d1", "late")}
    assert T(room, "kick", device=number["d0"])["ok"]
    assert room.seats[0].holder is None and room.seats[0].bot == "heuristic"
    assert "removed" in room.request("d0", {"type": "claim", "seat": 0})["error"]
    # a late joiner takes the bot's seat (the teacher approves)
    assert room.request("late", {"type": "claim", "seat": 0}) == {"ok": True, "asked": 0}
    assert T(room, "approve", device=number["late"])["ok"]
    assert room.seats[0].holder == "late" and room.seats[0].bot is None
    # reassign seat 1 to the late joiner: they move, seat 0 goes to a bot
    assert T(room, "reassign", seat=1, device=number["late"])["ok"]
    assert room.seats[1].holder == "late" and room.devices["d1"].seat is None
    assert room.seats[0].bot == "heuristic"
    # hand seat 1 to the random bot, and back to its student
    assert T(room, "bot", seat=1, level="random")["ok"]
    assert room.controller(1) == "random"
    reply = act(room, "late", {"type": "roll", "player": 1})
    assert not reply["ok"]
    assert T(room, "bot", seat=1, level=None)["ok"] and room.controller(1) == "person"
    for bad in ({"op": "bot", "seat": 1, "level": "genius"}, {"op": "bot", "seat": 9,
                                                              "level": None},
                {"op": "kick", "device": 999}, {"op": "fly"}):
        assert not T(room, **bad)["ok"]  # type: ignore[arg-type]


def test_the_bots_play_their_seats_and_stop_at_a_person() -> None:
    room, clock = make_room(3, admit="code")
    teacher(room)
    joined(room, "a", "Ann")
    room.request("a", {"type": "claim", "seat": 0})
    T(room, "start")
    for _ in range(500):
        if room.game.decision.player == 0 or room.game.is_over:
            break
        assert room.step()
    assert room.game.decision.player == 0 or room.game.is_over
    assert not room.step()  # Ann's decision: the clock waits for her
    assert all(a.source.startswith("bot:") for a in room.accepted)
    assert room.expected_actions() == room.game.actions


def test_an_away_students_seat_is_played_by_a_stand_in_until_they_are_back() -> None:
    room, clock, devices = seated_game(2)
    player = room.game.decision.player
    assert player is not None
    view = next(v for v in room._views if v.device == devices[player])
    assert isinstance(view, FakeView)
    view.up = False  # the phone sleeps
    assert room.check_presence()
    assert room.controller(player) == "person" and not room.step()  # not away long enough
    clock.now += room.settings.away_seconds + 1
    assert room.controller(player) == "standin"
    assert room.step()
    assert room.accepted[-1].source == f"standin:{player}"
    view.up = True  # the phone wakes: the seat is theirs again, still held by the device
    room.check_presence()
    assert room.controller(player) == "person"
    assert room.seats[player].holder == devices[player]


# ---------------------------------------------------------------------- requests' shape


def test_unknown_devices_and_requests_are_refused() -> None:
    room, _ = make_room()
    assert room.request("ghost", {"type": "join", "code": "ABC234"}) == {
        "ok": False, "error": "refused: this device has not opened the room"}
    room.attach(FakeView("p"))
    assert "unknown request type" in room.request("p", {"type": "rm -rf"})["error"]
    assert "unknown language" in room.request("p", {"type": "lang", "lang": "fr"})["error"]
    with pytest.raises(ValueError):
        Room("classic", players=1)
    with pytest.raises(ValueError):
        Room("classic", players=["Ann", "<b>"])
    with pytest.raises(ValueError, match="4 to 12"):
        Room("classic", players=2, code="!")
    with pytest.raises(RoomError):
        room.close_experiment()
