"""The room: one shared game, the devices in the room, who holds which seat, and every request
checked against the device that sent it.

A device is known by an id the server gives it (Solara's session cookie, never read from a
request): a request names what it wants, never who it is. Everything that reads or changes
the room or its game runs under one lock (``room.lock``), so simultaneous clicks from many
devices are applied one after the other, each checked against the state it was made for
(``seq``); a refused request is logged, answered in plain words and changes nothing.

Seats: before the start a student claims a seat with a name (the teacher approves, or the
class code admits when ``admit="code"``); at the start the game is dealt with the seated
names and every empty seat goes to a bot. Later a student may take over a bot's seat (late
joiner), the teacher may kick, reassign or hand a seat to a bot. A seat whose holder has no
open view (a phone asleep, a closed tab) is played by a stand-in bot once it has been away
for ``away_seconds``; the holder gets the seat back by opening the page again.
"""

from __future__ import annotations

import threading
import time
import weakref
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..engine.actions import Action, action_from_dict
from ..engine.boards.board import Board
from ..engine.bots import make_bot
from ..engine.errors import InvalidActionError, UgentopolyError, UndoError
from ..engine.game import Game
from ..engine.records.events import Event
from ..widget.requests import check_keys, check_shape, is_int
from .activities import Activities
from .checks import (
    Bucket,
    RoomError,
    check_name,
    new_code,
    new_key,
    normal_code,
    same_secret,
)
from .experiments import Experiment
from .votes import Vote

BOT_LEVELS = ("random", "heuristic", "rollout")
ADMIT = ("teacher", "code")
LANGS = ("en", "nl")
MAX_DEVICES = 200  # a class of 30 with reloads, spectators and a few spare phones
MAX_REFUSALS = 500  # refusals kept for the teacher's log
WRONG_CODE_LIMIT = 5  # wrong codes in a row before a device waits
WRONG_CODE_WAIT = 30.0  # seconds
RATE, BURST = 8.0, 24.0  # requests a second per device, and the burst a device may send


class RoomView(Protocol):
    """A view of the room on one device (classroom/views.py): told when to redraw."""

    device: str

    def room_update(self, pooled_only: bool = False) -> None: ...

    def connected(self) -> bool: ...


@dataclass
class Device:
    id: str
    number: int  # order of arrival (seeds the device's experiment stream)
    role: str = "visitor"  # visitor (not joined), member, teacher, projector
    name: str = ""
    seat: int | None = None  # the seat it holds
    asked: int | None = None  # the seat it asked for, waiting for the teacher
    lang: str = "en"
    views: int = 0  # open views of the room on this device
    away_since: float | None = None
    kicked: bool = False
    wrong_codes: int = 0
    wait_until: float = 0.0
    refused: int = 0
    bucket: Bucket | None = None


@dataclass
class Seat:
    index: int
    name: str
    holder: str | None = None  # the device holding it
    bot: str | None = None  # a bot level playing it (the teacher's choice, or nobody seated)


@dataclass
class Accepted:
    """One action the room applied: who sent it (a device id, ``bot:k``, ``standin:k``,
    ``clock``) and the action; an undo is recorded as ``("undo", None)``."""

    source: str
    action: Action | None
    at: float


@dataclass
class Refusal:
    at: float
    device: str  # its name, or "device N"
    kind: str
    message: str


@dataclass
class Settings:
    admit: str = "teacher"
    away_seconds: float = 30.0
    bot_delay: float = 0.8
    standin: str = "heuristic"


class Room(Activities):
    """One shared game and the devices around it. Thread-safe: every public method takes
    ``room.lock``.

    >>> room = Room("ugentopoly", players=2, seed=1, code="ABC234", admit="code")
    >>> room.connect("phone-1")
    >>> room.request("phone-1", {"type": "join", "code": "abc 234", "name": "Ann"})["ok"]
    True
    >>> room.request("phone-1", {"type": "claim", "seat": 0})["ok"]
    True
    >>> room.seats[0].holder
    'phone-1'
    """

    def __init__(
        self,
        profile: str = "ugentopoly",
        *,
        players: int | Sequence[str] = 4,
        seed: int | None = None,
        options: Mapping[str, Any] | None = None,
        board: Board | str | None = None,
        game: Game | None = None,
        admit: str = "teacher",
        code: str | None = None,
        teacher_key: str | None = None,
        away_seconds: float = 30.0,
        bot_delay: float = 0.8,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if admit not in ADMIT:
            raise ValueError(f"admit is one of {list(ADMIT)}")
        self.lock = threading.RLock()
        self.clock = clock
        self.code = normal_code(code) if code is not None else new_code()
        if not 4 <= len(self.code) <= 12:
            raise ValueError("a class code has 4 to 12 letters or digits")
        self.teacher_key = teacher_key or new_key()
        if same_secret(self.teacher_key.upper(), self.code):
            raise ValueError("the teacher key must differ from the class code")
        self.settings = Settings(admit=admit, away_seconds=float(away_seconds),
                                 bot_delay=float(bot_delay))
        self.join_url = ""  # set by the server (the address students open)
        self._profile = profile
        self._options = dict(options or {})
        self._board = board
        if game is None:
            names = _seat_names(players)
            game = Game(profile, players=names, seed=seed, options=options, board=board)
            self._fresh = True  # dealt again with the students' names at the start
        else:
            self._profile = game.rules.name
            self._fresh = False
        self.game = game
        self.seats = [Seat(i, p.name) for i, p in enumerate(game.players)]
        self.devices: dict[str, Device] = {}
        self.started = False
        self.paused = False
        self.ended = False
        self.game_seq = 0  # grows with every state of the game (act requests carry it)
        self.version = 0  # grows with every change of the room (views redraw)
        self.view_cache: dict[Any, Any] = {}  # viewdata: the views' shared part per version
        self.accepted: list[Accepted] = []
        self.refusals: deque[Refusal] = deque(maxlen=MAX_REFUSALS)
        self.refused_count = 0
        self.experiment: Experiment | None = None
        self.experiments: list[Experiment] = []  # closed ones, for the table after class
        self.vote: Vote | None = None
        self.votes: list[Vote] = []
        self.last_action_at = clock()
        self._views: list[RoomView] = []
        self._bots: dict[tuple[int, str], Any] = {}
        self._game_listeners: list[Callable[[], Callable[[Game], None] | None]] = []
        self._pool_dirty = False
        self._listen(game)

    # ------------------------------------------------------------------ game and views

    def _listen(self, game: Game) -> None:
        game.on_events(self._on_game_events)

    def _on_game_events(self, events: list[Event]) -> None:
        self.game_seq += 1
        self.last_action_at = self.clock()

    def on_new_game(self, callback: Callable[[Game], None]) -> None:
        """Call ``callback(game)`` when the start deals a new game (board views follow it).
        A bound method is held weakly (a view of a page gone does not stay alive)."""
        with self.lock:
            ref: Callable[[], Callable[[Game], None] | None]
            if hasattr(callback, "__self__"):
                ref = weakref.WeakMethod(callback)
            else:
                ref = lambda: callback  # noqa: E731
            self._game_listeners = [r for r in self._game_listeners if r() is not None]
            self._game_listeners.append(ref)

    def attach(self, view: RoomView) -> None:
        with self.lock:
            self._views.append(view)
            self.connect(view.device)
            self.check_presence()
            self._changed()

    def detach(self, view: RoomView) -> None:
        with self.lock:
            self._views = [v for v in self._views if v is not view]
            self.check_presence()
            self._changed()

    def check_presence(self) -> bool:
        """Count each device's connected views (the clock asks every beat): a device with
        none is away from then on. Returns whether anything changed (views are told)."""
        with self.lock:
            counts: dict[str, int] = {}
            for view in self._views:
                try:
                    up = view.connected()
                except Exception:
                    up = False
                counts[view.device] = counts.get(view.device, 0) + (1 if up else 0)
            changed = False
            now = self.clock()
            for device in self.devices.values():
                views = counts.get(device.id, 0)
                if views != device.views:
                    changed = True
                    if views == 0:
                        device.away_since = now
                    elif device.views == 0:
                        device.away_since = None
                    device.views = views
            return changed

    def _changed(self, *, pooled_only: bool = False) -> None:
        """Tell every view the room changed (they redraw from ``view_for``)."""
        self.version += 1
        for view in list(self._views):
            try:
                view.room_update(pooled_only)
            except Exception:  # a view whose page went away must not stop the others
                continue

    # ------------------------------------------------------------------ devices

    def connect(self, device_id: str, role: str | None = None) -> None:
        """Make a device known (its first page load); a known one keeps its seat."""
        with self.lock:
            device = self.devices.get(device_id)
            if device is None:
                if len(self.devices) >= MAX_DEVICES:
                    self._forget_idle_visitor()
                device = Device(device_id, number=len(self.devices) + 1)
                device.bucket = Bucket(RATE, BURST, self.clock())
                self.devices[device_id] = device
            if role == "projector" and device.role == "visitor":
                device.role = "projector"

    def _forget_idle_visitor(self) -> None:
        for key, device in list(self.devices.items()):
            if device.role == "visitor" and device.views == 0:
                del self.devices[key]
                return
        raise RoomError("the room is full")

    def become_teacher(self, device_id: str, key: object) -> bool:
        """The teacher's key makes this device a teacher (wrong keys are counted)."""
        with self.lock:
            self.connect(device_id)
            device = self.devices[device_id]
            if not isinstance(key, str) or not same_secret(key, self.teacher_key):
                self._refuse(device, "teacher", "wrong teacher key")
                return False
            device.role = "teacher"
            device.name = device.name or "Teacher"
            self._changed()
            return True

    def holder(self, seat: int) -> Device | None:
        holder = self.seats[seat].holder
        return None if holder is None else self.devices.get(holder)

    def is_away(self, seat: int) -> bool:
        """Whether the seat's holder has had no open view for away_seconds."""
        device = self.holder(seat)
        if device is None:
            return True
        since = device.away_since
        return since is not None and self.clock() - since >= self.settings.away_seconds

    def controller(self, seat: int) -> str:
        """Who plays a seat now: "person", a bot level, or "standin" (its holder is away)."""
        s = self.seats[seat]
        if s.bot is not None:
            return s.bot
        if s.holder is None:
            return "open"
        return "standin" if self.is_away(seat) else "person"

    # ------------------------------------------------------------------ requests

    def request(self, device_id: str, content: Any) -> dict[str, Any]:
        """Handle one request from a device's view. Never raises: the answer is
        ``{"ok": True, ...}`` or ``{"ok": False, "error": message}`` (logged, nothing
        changed)."""
        with self.lock:
            device = self.devices.get(device_id)
            if device is None:
                return {"ok": False, "error": "refused: this device has not opened the room"}
            now = self.clock()
            assert device.bucket is not None
            if not device.bucket.take(now):
                # counted, not logged one by one (a flood must not fill the teacher's log)
                device.refused += 1
                self.refused_count += 1
                return {"ok": False, "error": "too many requests: wait a moment",
                        "flood": True}
            kind = content.get("type") if isinstance(content, dict) else None
            try:
                if not isinstance(content, dict):
                    raise RoomError("refused: a request is a JSON object")
                check_shape(content)
                reply = self._dispatch(device, str(kind), content)
            except (RoomError, UgentopolyError) as exc:
                message = str(exc)
                self._refuse(device, str(kind)[:20], message)
                return {"ok": False, "error": message}
            except Exception as exc:  # a bug must not reach the websocket: refused, logged
                message = f"internal error: {type(exc).__name__}: {exc}"
                self._refuse(device, str(kind)[:20], message)
                return {"ok": False, "error": message}
            return {"ok": True, **(reply or {})}

    def allow(self, device_id: str) -> bool:
        """Whether a device may make one more request now (flood control)."""
        with self.lock:
            device = self.devices.get(device_id)
            if device is None or device.bucket is None:
                return False
            if device.bucket.take(self.clock()):
                return True
            device.refused += 1
            self.refused_count += 1
            return False

    def note_refusal(self, device_id: str, kind: str, message: str) -> None:
        """Log a refusal decided outside the room (a board view's request)."""
        with self.lock:
            device = self.devices.get(device_id)
            if device is not None:
                self._refuse(device, kind, message)

    def _refuse(self, device: Device, kind: str, message: str) -> None:
        device.refused += 1
        self.refused_count += 1
        who = device.name or f"device {device.number}"
        self.refusals.append(Refusal(self.clock(), who, kind, message))
        self._pool_dirty = True  # the teacher's list follows on the clock (not per refusal)

    def _dispatch(self, device: Device, kind: str, content: dict[str, Any]
                  ) -> dict[str, Any] | None:
        if kind == "join":
            check_keys(content, {"type", "code", "name"}, optional={"name"})
            self._join(device, content["code"], content.get("name"))
        elif kind == "claim":
            check_keys(content, {"type", "seat", "name"}, optional={"name"})
            return self._claim(device, content["seat"], content.get("name"))
        elif kind == "leave":
            check_keys(content, {"type"})
            self._leave(device)
        elif kind == "act":
            check_keys(content, {"type", "action", "seq"})
            self._act(device, content["action"], content["seq"])
        elif kind == "lang":
            check_keys(content, {"type", "lang"})
            if content["lang"] not in LANGS:
                raise RoomError(f"refused: unknown language {str(content['lang'])[:10]!r}")
            device.lang = content["lang"]
            self._changed()
        elif kind == "roll":
            check_keys(content, {"type", "experiment", "count"}, optional={"count"})
            self._experiment_roll(device, content["experiment"], content.get("count", 1))
        elif kind == "vote":
            check_keys(content, {"type", "vote", "choice"})
            self._cast_vote(device, content["vote"], content["choice"])
        elif kind == "teacher_key":
            check_keys(content, {"type", "key"})
            if not self.become_teacher(device.id, content["key"]):
                raise RoomError("wrong teacher key")
        elif kind == "teacher":
            if device.role != "teacher":
                raise RoomError("refused: only the teacher can do that")
            from .teacher import teacher_request

            return teacher_request(self, device, content)
        else:
            raise RoomError(f"refused: unknown request type {kind[:40]!r}")
        return None

    # ------------------------------------------------------------------ joining

    def _member(self, device: Device) -> None:
        if device.role not in ("member", "teacher"):
            raise RoomError("refused: join the class with its code first")

    def _join(self, device: Device, code: object, name: object) -> None:
        now = self.clock()
        if device.wait_until > now:
            raise RoomError(f"too many wrong codes: try again in "
                            f"{int(device.wait_until - now) + 1} s")
        if device.kicked:
            raise RoomError("the teacher removed this device from the class")
        given = normal_code(code)
        if not same_secret(given, self.code):
            device.wrong_codes += 1
            if device.wrong_codes >= WRONG_CODE_LIMIT:
                device.wrong_codes = 0
                device.wait_until = now + WRONG_CODE_WAIT
            raise RoomError("wrong class code: type the code shown on the projector")
        device.wrong_codes = 0
        if name is not None:
            device.name = self._free_name(check_name(name), device)
        if device.role in ("visitor", "projector"):
            device.role = "member"
        self._changed()

    def _free_name(self, name: str, device: Device) -> str:
        for other in self.devices.values():
            if other is not device and other.role in ("member", "teacher") \
                    and other.name.casefold() == name.casefold():
                raise RoomError(f"{name!r} is taken in this class: add an initial")
        return name

    def _claim(self, device: Device, seat: object, name: object) -> dict[str, Any]:
        if device.kicked:
            raise RoomError("the teacher removed this device from the class")
        self._member(device)
        if not is_int(seat, 0, len(self.seats) - 1):
            raise RoomError(f"refused: there is no seat {str(seat)[:10]}")
        assert isinstance(seat, int)
        if name is not None:
            device.name = self._free_name(check_name(name), device)
        if not device.name:
            raise RoomError("type your name first")
        if device.seat is not None:
            raise RoomError(f"this device holds seat {device.seat + 1} already: one seat per "
                            "device")
        target = self.seats[seat]
        if target.holder is not None:
            raise RoomError(f"seat {seat + 1} is taken")
        if self.started and target.bot is None:
            raise RoomError(f"seat {seat + 1} is not free")
        if self.settings.admit == "code" or device.role == "teacher":
            self._seat(device, seat)
            return {"seated": seat}
        device.asked = seat
        self._changed()
        return {"asked": seat}

    def _seat(self, device: Device, seat: int) -> None:
        """Give `seat` to `device` (approved): a bot playing it stops."""
        target = self.seats[seat]
        if device.seat is not None and device.seat != seat:
            self._free_seat(device.seat)
        for other in self.devices.values():  # no other device waits for it any more
            if other.asked == seat and other is not device:
                other.asked = None
        target.holder = device.id
        target.bot = None
        if not self.started:
            target.name = device.name
        device.seat = seat
        device.asked = None
        self._changed()

    def _free_seat(self, seat: int) -> None:
        target = self.seats[seat]
        holder = self.holder(seat)
        if holder is not None:
            holder.seat = None
        target.holder = None
        if self.started:
            target.bot = target.bot or self.settings.standin
        else:
            target.name = self.game.players[seat].name

    def _leave(self, device: Device) -> None:
        if device.seat is None and device.asked is None:
            raise RoomError("this device holds no seat")
        device.asked = None
        if device.seat is not None:
            self._free_seat(device.seat)
        self._changed()

    # ------------------------------------------------------------------ playing

    def _act(self, device: Device, data: object, seq: object) -> None:
        if device.seat is None:
            if device.asked is not None:
                raise RoomError("refused: the teacher has not approved this device yet")
            raise RoomError("refused: this device holds no seat")
        if not self.started:
            raise RoomError("refused: the teacher has not started the game")
        if self.ended:
            raise RoomError("refused: the game has ended")
        if self.paused:
            raise RoomError("refused: the teacher paused the game")
        if not isinstance(seq, int) or not is_int(seq, 0, 2**53):
            raise RoomError("refused: the request has no valid state number (seq)")
        if seq != self.game_seq:
            raise RoomError(f"refused: stale request (made for state {seq}, the game is at "
                            f"{self.game_seq})")
        try:
            action = action_from_dict(data)
        except InvalidActionError as exc:
            raise RoomError(f"refused: {exc}") from None
        if action.player != device.seat:
            raise RoomError(f"refused: this device plays seat {device.seat + 1}, not "
                            f"{_seat_label(action.player)}")
        if self.seats[device.seat].bot is not None:
            raise RoomError("refused: a bot plays this seat now (the teacher's choice)")
        self.apply(action, device.id)  # an illegal action raises: refused, nothing changed

    def apply(self, action: Action | Mapping[str, Any] | str, source: str) -> list[Event]:
        """Apply one action to the shared game (checked by the engine), recorded with who
        sent it. Every game action of the room goes through here, under the lock."""
        with self.lock:
            events = self.game.apply(action)
            last = self.game._actions[-1]
            self.accepted.append(Accepted(source, last, self.clock()))
            if self.vote is not None and self.vote.open:
                self.vote.stale = True
            self._changed()
            return events

    def undo(self) -> None:
        with self.lock:
            try:
                self.game.undo()
            except UndoError as exc:
                raise RoomError(f"cannot undo: {exc}") from None
            self.accepted.append(Accepted("undo", None, self.clock()))
            self._changed()

    def expected_actions(self) -> list[Action]:
        """The game's record as the accepted requests make it (undos taken back): equal to
        ``game.actions`` when no action was lost or applied twice."""
        with self.lock:
            out: list[Action] = []
            for entry in self.accepted:
                if entry.action is None:
                    out.pop()
                else:
                    out.append(entry.action)
            return out

    def audit(self) -> dict[str, Any]:
        """What a load test checks after the fact: whether the game's record is the sequence
        of accepted requests, who sent how many, refusals, and the server's memory."""
        with self.lock:
            sources: dict[str, int] = {}
            for entry in self.accepted:
                key = entry.source if entry.source in ("undo", "clock") or ":" in entry.source \
                    else f"device:{self.devices[entry.source].number}" \
                    if entry.source in self.devices else entry.source
                sources[key] = sources.get(key, 0) + 1
            return {
                "record_matches": self.expected_actions() == self.game.actions,
                "actions": len(self.game.actions), "accepted": len(self.accepted),
                "sources": sources, "refused": self.refused_count,
                "refused_by_device": {str(d.number): d.refused for d in self.devices.values()},
                "devices": len(self.devices), "views": len(self._views),
                "turn": self.game.turn_number, "over": self.game.is_over,
                "game_seq": self.game_seq, "rss_kb": _rss_kb(),
                "digest": self.game.digest(), "record": self.game.record(),
            }

    def bot_for(self, seat: int, level: str) -> Any:
        key = (seat, level)
        bot = self._bots.get(key)
        if bot is None:
            seed = (self.game.seed * 31 + seat) % 2**32
            if level == "rollout":  # numpy and pandas: loaded when a teacher seats one
                from ..rollouts.bot import RolloutBot

                bot = RolloutBot(seed=seed)
            else:
                bot = make_bot(level, seed=seed)
            self._bots[key] = bot
        return bot

    def step(self) -> bool:
        """One beat of the room's clock (classroom/driver.py calls it): a bot seat's or an
        away holder's decision is played once bot_delay has passed, the engine's clocks are
        checked. Returns whether an action was applied."""
        with self.lock:
            if not self.started or self.paused or self.ended or self.game.is_over:
                return False
            game = self.game
            if game.rules.turn_timer_seconds is not None or game.rules.time_limit_minutes:
                before = len(game._actions)
                events = game.tick()
                if events:
                    for action in game._actions[before:]:
                        self.accepted.append(Accepted("clock", action, self.clock()))
                    self._changed()
                    return True
            player = game.decision.player
            if player is None:
                return False
            who = self.controller(player)
            if who == "person":
                return False
            if self.clock() - self.last_action_at < self.settings.bot_delay:
                return False
            level = self.settings.standin if who in ("standin", "open") else who
            action = self.bot_for(player, level).choose(game)
            source = f"bot:{player}" if who in BOT_LEVELS else f"standin:{player}"
            self.apply(action, source)
            return True

    # ------------------------------------------------------------------ the start

    def start(self) -> None:
        """Deal the game with the seated students' names (a room made from names or a
        number of players) and let it play: empty seats go to the stand-in bot."""
        with self.lock:
            if self.started:
                raise RoomError("the game has started already")
            if self._fresh and not self.game.actions:
                names = [s.name for s in self.seats]
                old = self.game
                game = Game(self._profile, players=names, seed=old.seed,
                            options=self._options, board=self._board or old.board)
                old.off_events(self._on_game_events)
                self.game = game
                self._listen(game)
                self._bots.clear()
                for ref in list(self._game_listeners):
                    callback = ref()
                    if callback is not None:
                        callback(game)
            for seat in self.seats:
                if seat.holder is None and seat.bot is None:
                    seat.bot = self.settings.standin
            self.started = True
            self.last_action_at = self.clock()
            self.game_seq += 1
            self._changed()


def _seat_names(players: int | Sequence[str]) -> list[str]:
    if isinstance(players, int):
        if isinstance(players, bool) or not 2 <= players <= 8:
            raise ValueError("players is 2 to 8 seats, or their names")
        return [f"Seat {k + 1}" for k in range(players)]
    try:
        names = [check_name(p) for p in players]
    except RoomError as exc:
        raise ValueError(f"players: {exc}") from None
    if not 2 <= len(names) <= 8:
        raise ValueError("players is 2 to 8 seats, or their names")
    return names


def _rss_kb() -> int:
    """This process's resident memory in kB (Linux; 0 elsewhere)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _seat_label(player: object) -> str:
    return f"seat {player + 1}" if isinstance(player, int) else "no seat"


__all__ = ["Accepted", "BOT_LEVELS", "Device", "Refusal", "Room", "RoomError", "RoomView",
           "Seat"]
