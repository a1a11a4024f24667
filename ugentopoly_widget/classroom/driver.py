"""The room's clock: one thread that plays the bot seats and the stand-ins for away students
(at the room's bot pace), checks the engine's clocks, and sends the pooled experiment chart
at most ten times a second. It takes the room's lock for each beat, like every request."""

from __future__ import annotations

import threading

from .room import Room

BEAT = 0.05  # seconds between beats
POOL_EVERY = 0.1  # seconds between two pooled-chart updates


class RoomDriver:
    """Start with :meth:`start`, stop with :meth:`stop` (joins the thread)."""

    def __init__(self, room: Room, beat: float = BEAT) -> None:
        self.room = room
        self.beat = beat
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.errors: list[str] = []

    def start(self) -> RoomDriver:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="classroom-clock",
                                            daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def _run(self) -> None:
        last_pool = 0.0
        room = self.room
        while not self._stop.wait(self.beat):
            try:
                with room.lock:
                    if room.check_presence():
                        room._changed()
                room.step()
                now = room.clock()
                if now - last_pool >= POOL_EVERY and room.flush_pool():
                    last_pool = now
            except Exception as exc:  # a beat that fails is reported; the clock goes on
                self.errors.append(f"{type(exc).__name__}: {exc}")
                del self.errors[:-50]


__all__ = ["RoomDriver"]
