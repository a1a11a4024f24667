"""The classroom: one game on every device in the room (a Solara server above the widget).

The board in Present mode on the projector, each student's seat on their own phone or laptop,
spectators, and the teacher's controls; class experiments pooled live beside the exact
distribution, and class votes on the live decision. The room (:class:`Room`) holds the one
shared game and checks every request against the device that sent it; the Solara app
(``classroom.app``) only serves it. Start it with ``python -m ugentopoly_widget classroom``
or :func:`start` from a notebook (docs: README, "Play with the whole class").

Nothing else in the package imports this room: the engine and the analysis layer stay free
of it (tests/test_layering.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .room import Room, RoomError

if TYPE_CHECKING:
    from .server import ClassroomServer, start

__all__ = ["ClassroomServer", "Room", "RoomError", "start"]


def __getattr__(name: str) -> Any:
    if name in ("start", "ClassroomServer"):
        from . import server

        return getattr(server, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
