"""Trade advice in the widget: the trade dialog's "Advice" button rates the offer being put
together (:func:`~ugentopoly_widget.rollouts.trades.rate_trade`) without sending it.

A mixin of :class:`UgentopolyWidget`. The rating runs on a worker thread over a copy of the
position (made on the kernel's thread, so the game can go on meanwhile), in two stages: the
chances with and without the deal first (a few seconds), then the fair cash by bisection on the
same seeds. Each stage reaches the ``trade_advice`` trait on the kernel's event loop::

    {"seq": <the state's seq>, "id": <the request's number>, "status": "working" | "quick"
     | "done" | "error", "offer": {...}, "sides": [{"name", "p_without", "p_with", "delta",
     "delta_se", ...}, ...], "fair_cash", "fair_note", "rollouts", "text": {"en", "nl"}}

A new position (any published state with another seq) leaves the advice behind: the view
shows it only for the seq and the offer it was asked for. A new request stops the older ones
of the widget within 36 rollouts (their threads end; nothing of theirs reaches the trait).

In the browser site (no threads) the rating runs in slices of the kernel's event loop
(``rollouts/slices.py``), with ``BROWSER_ADVICE_ROLLOUTS`` per side: the text says how many.
"""

from __future__ import annotations

import asyncio
import threading
from typing import TYPE_CHECKING, Any

from .requests import RequestError

if TYPE_CHECKING:
    from collections.abc import Callable, Generator

    from ..engine.game import Game

ADVICE_ROLLOUTS = 360  # per side: about ±2.5 points of a win chance
BROWSER_ADVICE_ROLLOUTS = 72  # per side in the browser site (Pyodide): about ±6 points


class TradeAdviceDisplay:
    """``advise_trade`` and the ``trade_advice`` trait (see the module docstring)."""

    _advice_id: int
    _advice_lock: threading.Lock
    _advice_loop: asyncio.AbstractEventLoop | None
    advice_rollouts: int | None = None  # per side, for the dialog's Advice button (None:
    # ADVICE_ROLLOUTS, in the browser site BROWSER_ADVICE_ROLLOUTS)

    if TYPE_CHECKING:  # provided by the widget
        _game: Game | None
        _seq: int
        trade_advice: Any

        def _check_seq(self, content: dict[str, Any]) -> None: ...

    def _init_trade_advice(self) -> None:
        self._advice_id = 0
        self._advice_lock = threading.Lock()
        self._advice_loop = None

    def advise_trade(self, offer: dict[str, Any], *, rollouts: int = ADVICE_ROLLOUTS,
                     fair: bool = True, wait: bool = False) -> dict[str, Any]:
        """Rate `offer` (a ``propose_trade`` action as a dict: ``player``, ``partner``,
        ``give``, ``get``) for the player to move, into ``w.trade_advice``. An offer that is
        not legal now raises OfferError at once. ``wait=True`` returns the finished advice
        (a script's or a test's way); otherwise the stages arrive in the trait.

        >>> from ugentopoly_widget import Game
        >>> w = UgentopolyWidget.from_game(Game.scenario("classic", players=["Ann", "Bob"],
        ...     seed=2, current="Ann", owners={16: "Ann", 18: "Ann", 19: "Bob"}))
        >>> advice = w.advise_trade({"player": 0, "partner": 1, "give": {"cash": 300},
        ...                          "get": {"properties": [19]}}, rollouts=36, fair=False,
        ...                          wait=True)
        >>> advice["status"], [side["name"] for side in advice["sides"]]
        ('done', ['Ann', 'Bob'])
        """
        from ..engine.records.positions import PositionCopy
        from ..rollouts.runner import check_rollouts
        from ..rollouts.slices import Sliced, event_loop, finish, threads_available
        from ..rollouts.trades import check_offer

        game = self._game
        if game is None:
            raise RequestError("no game yet: start one before asking for advice")
        checked = check_offer(game, offer)  # OfferError names why it is not legal now
        budget = check_rollouts(rollouts)
        copy = PositionCopy(game).game  # on this thread: the game goes on meanwhile
        with self._advice_lock:
            self._advice_id += 1
            ident = self._advice_id
        head = {"seq": self._seq, "id": ident, "offer": checked.to_dict()}
        self.trade_advice = {**head, "status": "working"}
        self._advice_loop = event_loop()
        stages = (False, True) if fair else (False,)
        if wait:
            finish(self._advise(copy, checked, budget, stages, head, self._set_advice))
            value: dict[str, Any] = self.trade_advice
            return value
        if threads_available():
            steps = self._advise(copy, checked, budget, stages, head, self._deliver)
            threading.Thread(target=finish, name="ugw-trade-advice", daemon=True,
                             args=(steps,)).start()
        elif self._advice_loop is not None:  # the browser site: slices of the event loop
            steps = self._advise(copy, checked, budget, stages, head, self._set_advice, step=1)
            Sliced(steps, self._advice_loop, on_done=lambda _: None,
                   on_error=lambda exc: None).start()  # (_advise reports its own errors)
        else:  # pragma: no cover - a Python with neither threads nor an event loop
            finish(self._advise(copy, checked, budget, stages, head, self._set_advice))
        return dict(self.trade_advice)

    def _advise(self, copy: Game, offer: Any, rollouts: int, stages: tuple[bool, ...],
                head: dict[str, Any], deliver: Callable[[dict[str, Any]], None],
                step: int | None = None) -> Generator[None, None, None]:
        """The stages of the rating, each delivered; in steps of a few turns (slices), `step`
        rollouts between two looks at whether the request is left behind."""
        from ..rollouts.trades import rating_steps

        def left_behind(done: int = 0, total: int = 0) -> None:
            # asked every 36 rollouts: a newer request (or the widget closed) stops this one
            # there, so requests in a row never pile up threads that play on
            if head["id"] != self._advice_id:
                raise _LeftBehind

        for fair in stages:
            try:
                left_behind()
                rating = yield from rating_steps(copy, offer, rollouts=rollouts, fair=fair,
                                                 progress=left_behind, step=step)
            except _LeftBehind:
                return
            except Exception as exc:  # into the trait, never into a thread's traceback
                deliver({**head, "status": "error", "text": {
                    "en": f"no advice: {exc}", "nl": f"geen advies: {exc}"}})
                return
            last = fair or len(stages) == 1
            deliver({**head, **rating.to_dict(), "status": "done" if last else "quick"})

    def _cancel_advice(self) -> None:
        """Leave every advice request behind (the widget closes): their threads stop."""
        with self._advice_lock:
            self._advice_id += 1

    def _deliver(self, value: dict[str, Any]) -> None:
        """In the worker thread: the value goes to the trait on the kernel's loop."""
        loop = self._advice_loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(self._set_advice, value)
                return
            except RuntimeError:  # the loop closed meanwhile
                pass
        self._set_advice(value)

    def _set_advice(self, value: dict[str, Any]) -> None:
        if value["id"] == self._advice_id:  # not of a request left behind
            self.trade_advice = _plain(value)

    def _request_trade_advice(self, content: dict[str, Any]) -> None:
        """``{"type": "trade_advice", "seq": n, "offer": {...}}`` from the trade dialog."""
        from ..rollouts.errors import RolloutError
        from ..rollouts.slices import threads_available

        self._check_seq(content)  # advice on a position left behind is refused
        if not isinstance(content["offer"], dict):
            raise RequestError("refused: the offer is an object")
        try:
            rollouts = self.advice_rollouts or (ADVICE_ROLLOUTS if threads_available()
                                                else BROWSER_ADVICE_ROLLOUTS)
            self.advise_trade(content["offer"], rollouts=rollouts)
        except RolloutError as exc:  # shown in the dialog, where it was asked
            with self._advice_lock:
                self._advice_id += 1
            self.trade_advice = {"seq": self._seq, "id": self._advice_id, "status": "error",
                                 "text": {"en": str(exc), "nl": str(exc)}}


class _LeftBehind(Exception):
    """An advice request superseded while its rollouts run."""


def _plain(value: Any) -> Any:
    """numpy scalars and NaN out of the rating's rows (a trait is sent as JSON)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if hasattr(value, "item") and callable(value.item):  # a numpy scalar
        value = value.item()
    if isinstance(value, float) and value != value:
        return None
    return value


__all__ = ["TradeAdviceDisplay", "ADVICE_ROLLOUTS", "BROWSER_ADVICE_ROLLOUTS"]
