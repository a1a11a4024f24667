"""The board in a classroom: presentation mode, "Roll once" with its fan of odds, and pictures
of the board for slides (a mixin of :class:`UgentopolyWidget`).

``w.presentation = True`` (or the view's Present button) makes the board fill the cell for a
projector and moves the decision, the auction and the heat legend into the side panel in large
type. ``w.roll_once()`` first draws where the current player's next roll can end, as arrows
from their token with each one's probability (``next_roll_distribution``), then rolls and marks
where the token landed. ``w.board_picture()`` is the board with its heat layer as SVG.
"""

from __future__ import annotations

import asyncio
import os
import pathlib
from typing import TYPE_CHECKING, Any

import traitlets

from ..engine.errors import IllegalActionError
from .requests import RequestError

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.records.events import Event

FAN_SECONDS = 1.6  # how long the fan shows before the dice roll (a class reads the odds)
PICTURE_WIDTH = 1200


class Presentation(traitlets.HasTraits):
    """Presentation mode, Roll once and board pictures."""

    # True: the board fills the cell, the decision and legend sit in the side panel, large
    presentation = traitlets.Bool(False).tag(sync=True)
    # the next-roll fan of Roll once: {player, from, from_jail, arrows: [[pos, p]], jail, seq,
    # landed, landed_jail, strategy}; {} when none is shown
    fan = traitlets.Dict().tag(sync=True)
    fan_seconds = traitlets.Float(FAN_SECONDS, min=0.0, max=30.0)

    _fan_handle: asyncio.TimerHandle | None
    _fan_rolling: bool

    if TYPE_CHECKING:  # provided by the widget
        _game: Game | None
        _seq: int
        _heat_jail: str
        heat: Any
        lang: Any

        @property
        def game(self) -> Game: ...

        def _seat(self, player: int | None) -> str: ...

        def _check_seq(self, content: dict[str, Any]) -> None: ...

        @staticmethod
        def _running_loop() -> asyncio.AbstractEventLoop | None: ...

        def _report(self, message: str) -> None: ...

    def _init_presentation(self) -> None:
        self._fan_handle = None
        self._fan_rolling = False

    # ------------------------------------------------------------------ roll once

    def roll_once(self, seconds: float | None = None) -> list[Event]:
        """Show the current player's next-roll fan, then roll (after ``seconds``, default
        ``w.fan_seconds``, on the kernel's loop; at once without one or with 0). Returns the
        roll's events when it rolled at once, else ``[]``. Raises IllegalActionError when
        the decision is not a roll, or while a Roll once waits for its dice."""
        from .odds import next_roll

        game = self.game
        decision = game.decision
        player = decision.player
        if self._fan_handle is not None:
            raise IllegalActionError("Roll once: the dice of the last one are still on their way",
                                     phase=decision.kind)
        if player is None or not any(a.type == "roll" and a.player == player
                                     for a in game.legal_actions()):
            who = game.players[player].name if player is not None else "nobody"
            raise IllegalActionError(
                f"Roll once needs a roll: the decision is {who}'s {decision.kind!r}",
                phase=decision.kind)
        shares = next_roll(game, self._heat_jail)  # numpy's or the pure chain (the site)
        size = game.board.size
        p = game.players[player]
        self.fan = {
            "player": player, "from": p.position, "from_jail": bool(p.in_jail),
            "arrows": [[pos, shares[pos]] for pos in range(size) if shares[pos] > 0],
            "jail": shares[size], "seq": self._seq, "landed": None, "landed_jail": False,
            "strategy": self._heat_jail,
        }
        wait = self.fan_seconds if seconds is None else float(seconds)
        loop = self._running_loop()
        if wait > 0 and loop is not None:
            self._fan_handle = loop.call_later(wait, self._fan_step, self._seq)
            return []
        return self._fan_roll()

    def _fan_step(self, seq: int) -> None:
        self._fan_handle = None
        try:
            if seq != self._seq or self._game is None:  # the game moved on meanwhile
                self.fan = {}
                return
            self._fan_roll()
        except Exception as exc:  # a timer callback never raises into the event loop
            self._report(f"Roll once: {type(exc).__name__}: {exc}")

    def _fan_roll(self) -> list[Event]:
        game = self.game
        fan = dict(self.fan)
        player = int(fan["player"])
        self._fan_rolling = True
        try:
            events = game.apply({"type": "roll", "player": player})
        finally:
            self._fan_rolling = False
        p = game.players[player]
        fan.update(landed=p.position, landed_jail=bool(p.in_jail), seq=self._seq)
        self.fan = fan
        return events

    def _refresh_fan(self) -> None:
        """A later state clears the fan (its odds were of an earlier position)."""
        if self.fan and not self._fan_rolling and self.fan.get("seq") != self._seq \
                and self._fan_handle is None:
            self.fan = {}

    def _cancel_fan(self) -> None:
        if self._fan_handle is not None:
            self._fan_handle.cancel()
            self._fan_handle = None

    def _request_roll_once(self, content: dict[str, Any]) -> None:
        self._check_seq(content)
        game = self._game
        if game is None:
            raise RequestError("refused: no game has started")
        if self._seat(game.decision.player) != "person":
            raise RequestError("refused: a bot plays this seat")
        self.roll_once()  # IllegalActionError: reported, nothing changes

    # ------------------------------------------------------------------ pictures

    def board_picture(self, width: int = PICTURE_WIDTH) -> str:
        """The board as it is now, with the heat layer shown (its colours and % labels), as an
        SVG document for slides. The view's Save picture adds PNGs and the Odds charts."""
        from ..engine.render.svg import board_svg
        from .heatmap import pct

        game = self.game
        heat = dict(self.heat or {})
        values = heat.get("values")
        if not values:
            return board_svg(game, lang=str(self.lang), width=width)
        style: dict[str, Any] = {"fills": heat.get("fills") or [None] * len(values)}
        if heat.get("mode"):
            diverging = bool(heat.get("diverging"))
            labels = [f"{100 * v:+.2f}" if diverging else pct(v) for v in values]
            style.update(labels=labels, palette=heat.get("palette"),
                         low=_end(heat["min"], diverging), high=_end(heat["max"], diverging),
                         title=heat_title(heat, str(self.lang)))
        return board_svg(game, lang=str(self.lang), heat=values, width=width,
                         heat_style=style)

    def save_picture(self, path: str | os.PathLike[str], width: int = PICTURE_WIDTH) -> None:
        """Write :meth:`board_picture` to an ``.svg`` file."""
        target = pathlib.Path(path)
        if target.suffix.lower() != ".svg":
            raise ValueError(f"save_picture writes SVG (a .svg file), not {target.name!r}: "
                             "PNG pictures come from the view's Save picture button")
        target.write_text(self.board_picture(width), encoding="utf-8")

    def _send_picture(self, content: dict[str, Any]) -> None:
        if self._game is None:
            raise RequestError("refused: no game has started")
        self.send({"type": "picture", "svg": self.board_picture()})  # type: ignore[attr-defined]


PICTURE_TITLES = {
    "en": {"exact": "Long-run landing odds", "observed": "Where this game's rolls ended",
           "difference": "This game minus the long run (percentage points)",
           "next": "Where the next roll ends"},
    "nl": {"exact": "Landingskansen op lange termijn", "observed": "Waar de worpen van dit "
           "spel eindigden", "difference": "Dit spel min de lange termijn (procentpunten)",
           "next": "Waar de volgende worp eindigt"},
}


def heat_title(heat: dict[str, Any], lang: str) -> str:
    titles = PICTURE_TITLES.get(lang, PICTURE_TITLES["en"])
    return titles.get(str(heat.get("mode")), "")


def _end(value: float, diverging: bool) -> str:
    return f"{100 * value:+.2f}" if diverging else f"{100 * value:.1f}%"


__all__ = ["FAN_SECONDS", "Presentation"]
