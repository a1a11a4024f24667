"""The child process of a :class:`~ugentopoly_widget.rollouts.live_process.ProcessLiveEstimator`:
``python -m ugentopoly_widget.rollouts.live_child IN_FD OUT_FD``.

It reads its settings, then positions (a whole record, or the actions since the last one),
holds and cancels from IN_FD; it estimates each position with a thread
:class:`~ugentopoly_widget.rollouts.live.LiveEstimator` and writes the figures, errors and
requests for a whole record to OUT_FD (pickled, as ``multiprocessing.connection`` frames
them). It ends when told to, or when its owner is gone.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from ..engine.actions import action_from_dict
from ..engine.game import Game
from ..engine.records.savefile import decode_actions
from .live import Estimate, LiveEstimator
from .runner import _frozen_clock

NICENESS = 10  # below the kernel's and the browser's: on a busy machine a click goes first


class _ChildEstimator(LiveEstimator):
    """The child's thread estimator: its errors and failures go to the owner."""

    def __init__(self, send: Callable[[tuple[Any, ...]], None], **settings: Any) -> None:
        super().__init__(**settings)
        self._send_up = send

    def _error(self, text: str) -> None:
        super()._error(text)
        self._send_up(("error", text))

    def _report_failure(self, text: str) -> None:
        self._send_up(("failed", text))  # the owner reports it (errors, on_error)


def serve(down: Connection, up: Connection) -> None:
    """Rebuild each position sent, estimate it, send the figures (see the module)."""
    send_lock = threading.Lock()

    def send(message: tuple[Any, ...]) -> None:
        with send_lock:
            try:
                up.send(message)
            except (OSError, ValueError):
                pass  # the owner is gone: the next recv ends this process

    def on_update(estimate: Estimate) -> None:
        swing = estimate.swing
        send(("estimate", estimate.tag, estimate.turn, estimate.rollouts, estimate.done,
              estimate.figures, None if swing is None
              else (swing.player, swing.delta, swing.se, swing.rollouts)))

    try:
        kind, settings = down.recv()
        assert kind == "settings", kind
    except (EOFError, OSError):
        return
    inner = _ChildEstimator(send, **settings, on_update=on_update)
    game: Game | None = None
    try:
        while True:
            try:
                message = down.recv()
            except (EOFError, OSError):
                return
            kind = message[0]
            if kind == "close":
                return
            if kind == "settings":  # a new owner (this process was kept warm for it)
                inner.close()
                inner = _ChildEstimator(send, **message[1], on_update=on_update)
                game = None
                continue
            if kind == "cancel":
                inner.cancel()
                continue
            if kind == "hold":
                inner.hold(message[1])
                continue
            _, generation, body, events, wire = message
            try:
                if kind == "game":
                    game = Game.replay(body, clock=_frozen_clock)
                else:
                    if game is None:
                        raise RuntimeError("actions came before their game")
                    for action in decode_actions(body):
                        game.apply(action)
                if game.event_count != events:
                    raise RuntimeError(f"the copy has {game.event_count} events, the game "
                                       f"{events}")
            except Exception as exc:
                game = None
                inner.cancel()
                send(("error", f"win chances: the position could not be copied "
                               f"({type(exc).__name__}: {exc}); copied whole next time"))
                send(("resync", generation))
                continue
            try:
                decision = (None if wire is None
                            else (wire[0], action_from_dict(wire[1]), wire[2]))
                inner.update(game, decision=decision, tag=generation)
            except Exception as exc:  # (the owner checks first: never the end of this process)
                inner.cancel()
                send(("failed", f"{type(exc).__name__}: {exc}"))
    finally:
        inner.close()


def main(argv: list[str]) -> None:
    try:
        os.nice(NICENESS)
    except (AttributeError, OSError):
        pass
    down = Connection(int(argv[1]), writable=False)
    up = Connection(int(argv[2]), readable=False)
    try:
        serve(down, up)
    finally:
        down.close()
        up.close()


if __name__ == "__main__":
    main(sys.argv)
