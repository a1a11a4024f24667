"""The room's widgets on each device: :class:`RoomPanel` (the phone view, the teacher's
controls, the projector's join card and class charts; front end ``js/src/classroom/``) and
:class:`RoomBoard` (the board, following the shared game; it offers a device only its own
seat's choices and sends every click through the room's checks).

Both are made per device by the Solara app with the device's id (its session cookie); a
request never says who sent it. Neither plays bots (the room's clock does) nor starts games.
"""

from __future__ import annotations

import threading
import time
import weakref
from collections.abc import Callable
from typing import Any

import anywidget
import traitlets

from ..engine.game import Game
from ..widget.game_widget import STATIC, UgentopolyWidget
from ..widget.requests import RequestError, check_keys
from .room import Room
from .viewdata import tiles, view_for

FLOOD_TELL_EVERY = 1.0  # seconds between two "too many requests" answers to one view
# board requests a device may make itself: they change only its own view
BOARD_LOCAL = frozenset({"log", "lang", "picture", "probability"})


def _presence(context: Any) -> Callable[[], bool]:
    """Whether the Solara page of a kernel context is still connected (no context: yes)."""
    if context is None:
        return lambda: True
    ref = weakref.ref(context)

    def connected() -> bool:
        ctx = ref()
        if ctx is None or ctx.closed_event.is_set():
            return False
        return any(getattr(s, "name", str(s)).upper().endswith("CONNECTED")
                   and not getattr(s, "name", str(s)).upper().endswith("DISCONNECTED")
                   for s in ctx.page_status.values())

    return connected


class RoomPanel(anywidget.AnyWidget):
    """One device's view of the room: ``page`` is "player", "projector" or "teacher"."""

    _esm = STATIC / "classroom.js"
    _css = STATIC / "classroom.css"

    view = traitlets.Dict().tag(sync=True)  # viewdata.view_for(...)
    board = traitlets.Dict().tag(sync=True)  # viewdata.tiles(game), once per game
    page = traitlets.Unicode("player").tag(sync=True)
    qr = traitlets.Unicode("").tag(sync=True)  # the join QR code (SVG), projector only
    error = traitlets.Dict().tag(sync=True)  # {"message", "n"} of the last refusal

    def __init__(self, room: Room, device: str, page: str = "player", *, qr: str = "",
                 code: str | None = None, connected: Callable[[], bool] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if page not in ("player", "projector", "teacher"):
            raise ValueError("page is player, projector or teacher")
        self.room = room
        self.device = device
        self.connected = connected or (lambda: True)
        self._errors = 0
        self._flood_told = 0.0
        self.page = page
        self.qr = qr if page == "projector" else ""
        self.board = tiles(room.game)
        room.on_new_game(self._new_game)
        room.connect(device, "projector" if page == "projector" else None)
        self.on_msg(self._on_msg)
        room.attach(self)
        if code and room.devices[device].role == "visitor":
            self.view = {**self.view, "code_hint": code[:12]}

    def _new_game(self, game: Game) -> None:
        self.board = tiles(game)

    def room_update(self, pooled_only: bool = False) -> None:
        if pooled_only and self.page == "player":
            return  # a phone's own rolls reach it at once; the pooled chart is for the screen
        device = self.room.devices.get(self.device)
        if device is None:
            return
        hint = self.view.get("code_hint") if device.role == "visitor" else None
        view = view_for(self.room, device, self.page)
        if hint:
            view["code_hint"] = hint
        self.view = view

    def _on_msg(self, _widget: Any, content: Any, buffers: Any = None) -> None:
        """A request from this device's view: the room checks it. Never raises."""
        try:
            reply = self.room.request(self.device, content)
        except Exception as exc:  # pragma: no cover - request() does not raise
            reply = {"ok": False, "error": f"internal error: {type(exc).__name__}"}
        with self.room.lock:
            if not reply.get("ok"):
                now = time.monotonic()
                if reply.get("flood"):
                    if now - self._flood_told < FLOOD_TELL_EVERY:
                        return  # said once a second: a flood is not answered message by message
                    self._flood_told = now
                self._errors += 1
                self.error = {"message": str(reply.get("error", "refused")), "n": self._errors,
                              "flood": bool(reply.get("flood"))}
            elif self.error:
                self.error = {}

    def close(self) -> None:
        _detach_later(self.room, self)
        super().close()


class RoomBoard(UgentopolyWidget):
    """The shared game's board on one device: its own seat's choices only (none on the
    projector), every click checked by the room; bots are the room's, not this view's."""

    def __init__(self, room: Room, device: str, *, presentation: bool = False,
                 lang: str = "en", connected: Callable[[], bool] | None = None,
                 **kwargs: Any) -> None:
        self.room = room
        self.device = device
        room.connect(device)
        game = room.game
        kwargs.setdefault("turn_pause", 0.6)
        kwargs.setdefault("bot_delay", room.settings.bot_delay)
        self.connected: Callable[[], bool] = connected or (lambda: True)
        self._mine: bool | None = None
        self._flood_told = 0.0
        super().__init__(game.rules.name, game=game, seats=self._seat_kinds(game), lang=lang,
                         presentation=presentation, **kwargs)
        room.on_new_game(self._new_game)
        room.attach(self)

    def _seat_kinds(self, game: Game) -> list[str]:
        kinds = []
        for k in range(len(game.players)):
            who = self.room.controller(k) if k < len(self.room.seats) else "person"
            # a seat nobody holds is a bot's once the game runs; before, it waits for a student
            stand_in = who == "standin" or (who == "open" and self.room.started)
            kinds.append(who if who in ("random", "heuristic", "rollout") else
                         "heuristic" if stand_in else "person")
        return kinds

    def _new_game(self, game: Game) -> None:
        self._install(game, self._seat_kinds(game))

    def room_update(self, pooled_only: bool = False) -> None:
        """The room changed: the seats as it has them now (bots drawn as bots), and a new
        state when this device's right to choose changed (a pause, a bot takeover)."""
        if pooled_only or self._game is None:
            return
        device = self.room.devices.get(self.device)
        if device is not None and device.lang != self.lang:
            self.lang = device.lang  # the language this device chose in its room view
        kinds = self._seat_kinds(self._game)
        if kinds != list(self.seats):
            self.seats = kinds  # publishes
        elif self._mine != self._may_choose(self._game.decision.player):
            self._publish()

    def _may_choose(self, player: int | None) -> bool:
        device = self.room.devices.get(self.device)
        seat = device.seat if device is not None else None
        room = self.room
        return (seat is not None and room.started and not room.paused and not room.ended
                and room.seats[seat].bot is None and player == seat)

    def _schedule_bots(self, delay: float | None = None, *, force: bool = False) -> None:
        return  # the room's clock plays the bot seats (one player for all views)

    def _snapshot(self, seq: int) -> dict[str, Any]:
        state = super()._snapshot(seq)
        mine = self._mine = self._may_choose(state["decision"]["player"])
        if not mine:
            state["legal"] = []
            state["can_trade"] = False
            state["can_undo"] = False
        state["can_undo"] = False  # the teacher undoes, from the teacher's page
        return state

    def _handle_request(self, content: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind in BOARD_LOCAL:
            if not self.room.allow(self.device):
                raise RequestError("too many requests: wait a moment")
            super()._handle_request(content)
        elif kind == "act":
            with self.room.lock:
                try:
                    check_keys(content, {"type", "action", "seq"})
                    self._check_seq(content)  # made for the state this view shows
                except RequestError as exc:
                    if self.room.allow(self.device):  # (a flood is counted, not logged)
                        self.room.note_refusal(self.device, "act", str(exc))
                    raise
                reply = self.room.request(self.device, {"type": "act",
                                                        "action": content["action"],
                                                        "seq": self.room.game_seq})
            if not reply.get("ok"):
                raise RequestError(str(reply.get("error")))
        elif kind == "tick":
            return  # the room's clock checks the timers
        else:
            self.room.note_refusal(self.device, str(kind)[:20],
                                   "refused: in the classroom the teacher does that")
            raise RequestError("refused: in the classroom the teacher does that")

    def _report(self, message: str) -> None:
        if message.startswith("too many requests"):
            now = time.monotonic()
            if now - self._flood_told < FLOOD_TELL_EVERY:
                return
            self._flood_told = now
        super()._report(message)

    def set_state(self, sync_data: dict[str, Any]) -> None:
        # the pace and the pause are the room's (the teacher's page); lang and Present are
        # this view's own
        own = {k: v for k, v in dict(sync_data).items() if k in ("lang", "presentation")}
        if len(own) != len(sync_data):
            self._report("refused: the teacher sets the bots' pace and the pause")
            try:
                self.send_state([k for k in sync_data if k not in own])
            except Exception:
                pass
        if own:
            super().set_state(own)

    def close(self) -> None:
        _detach_later(self.room, self)
        super().close()



def _detach_later(room: Room, view: Any) -> None:
    """Leave the room from a thread of its own: Solara closes a page's widgets on its event
    loop, where waiting for the room's lock could wait for a holder that waits for the loop
    (to send a message) -- a deadlock."""
    threading.Thread(target=room.detach, args=(view,), name="classroom-detach",
                     daemon=True).start()


__all__ = ["RoomBoard", "RoomPanel"]
