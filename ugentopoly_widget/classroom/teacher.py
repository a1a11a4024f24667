"""The teacher's requests: start, pause, undo, end; approve, deny, kick, reassign a seat, hand
it to a bot; open and close experiments and votes; how students are admitted.

Called by the room under its lock for a device whose role is "teacher" (it showed the
teacher's key); each request is checked like any other and refused in plain words."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..widget.requests import check_keys, is_int
from .checks import RoomError

if TYPE_CHECKING:
    from .room import Device, Room

OPS = ("start", "pause", "resume", "undo", "end", "approve", "deny", "kick", "reassign",
       "bot", "admit", "experiment", "close_experiment", "vote", "close_vote", "bot_delay")


def _device(room: Room, value: object) -> Device:
    """A device named by its number in the teacher's list (ids stay on the server)."""
    for device in room.devices.values():
        if device.number == value:
            return device
    raise RoomError(f"refused: there is no device {str(value)[:10]}")


def _seat(room: Room, value: object) -> int:
    if not is_int(value, 0, len(room.seats) - 1):
        raise RoomError(f"refused: there is no seat {str(value)[:10]}")
    assert isinstance(value, int)
    return value


def teacher_request(room: Room, teacher: Device, content: dict[str, Any]
                    ) -> dict[str, Any] | None:
    op = content.get("op")
    fields = {k for k in content if k not in ("type", "op")}
    if op in ("start", "pause", "resume", "undo", "end", "close_experiment", "vote",
              "close_vote"):
        check_keys(content, {"type", "op"})
    if op == "start":
        room.start()
    elif op in ("pause", "resume"):
        if not room.started:
            raise RoomError("the game has not started")
        room.paused = op == "pause"
        room.last_action_at = room.clock()
        room._changed()
    elif op == "undo":
        room.undo()
    elif op == "end":
        if room.ended:
            raise RoomError("the game has ended already")
        room.ended = True
        room._changed()
    elif op in ("approve", "deny"):
        check_keys(content, {"type", "op", "device"})
        device = _device(room, content["device"])
        if device.asked is None:
            raise RoomError(f"{device.name or 'that device'} asks for no seat")
        if op == "approve":
            seat = device.asked
            if room.seats[seat].holder is not None:
                raise RoomError(f"seat {seat + 1} is taken")
            room._seat(device, seat)
        else:
            device.asked = None
            room._changed()
    elif op == "kick":
        check_keys(content, {"type", "op", "device"})
        device = _device(room, content["device"])
        if device.role == "teacher":
            raise RoomError("refused: a teacher's device is not kicked")
        if device.seat is not None:
            room._free_seat(device.seat)
        device.asked = None
        device.kicked = True
        device.role = "visitor"
        room._changed()
    elif op == "reassign":
        check_keys(content, {"type", "op", "seat", "device"})
        seat = _seat(room, content["seat"])
        device = _device(room, content["device"])
        if device.role not in ("member", "teacher") or device.kicked:
            raise RoomError(f"{device.name or 'that device'} has not joined the class")
        if device.seat == seat:
            raise RoomError("that device holds this seat already")
        if room.seats[seat].holder is not None:
            room._free_seat(seat)
        if device.seat is not None:
            room._free_seat(device.seat)
        room._seat(device, seat)
    elif op == "bot":
        check_keys(content, {"type", "op", "seat", "level"})
        from .room import BOT_LEVELS

        seat = _seat(room, content["seat"])
        level = content["level"]
        if level is not None and level not in BOT_LEVELS:
            raise RoomError(f"a bot is one of {list(BOT_LEVELS)} (or null: the student plays)")
        if level is None and room.seats[seat].holder is None:
            raise RoomError(f"seat {seat + 1} has no student to give it back to")
        room.seats[seat].bot = level
        room.last_action_at = room.clock()
        room._changed()
    elif op == "bot_delay":
        check_keys(content, {"type", "op", "seconds"})
        seconds = content["seconds"]
        if not isinstance(seconds, (int, float)) or isinstance(seconds, bool) \
                or not 0 <= seconds <= 10:
            raise RoomError("the bots' pace is 0 to 10 seconds")
        room.settings.bot_delay = float(seconds)
        room._changed()
    elif op == "admit":
        check_keys(content, {"type", "op", "admit"})
        from .room import ADMIT

        if content["admit"] not in ADMIT:
            raise RoomError(f"admit is one of {list(ADMIT)}")
        room.settings.admit = content["admit"]
        room._changed()
    elif op == "experiment":
        check_keys(content, {"type", "op", "kind", "count"}, optional={"count"})
        experiment = room.open_experiment(content["kind"], content.get("count"))
        return {"experiment": experiment.id}
    elif op == "close_experiment":
        room.close_experiment()
    elif op == "vote":
        vote = room.open_vote()
        return {"vote": vote.id}
    elif op == "close_vote":
        room.close_vote()
    else:
        raise RoomError(f"refused: unknown teacher request {str(op)[:30]!r}"
                        f"{' with ' + str(sorted(fields))[:60] if fields else ''}")
    return None


__all__ = ["OPS", "teacher_request"]
