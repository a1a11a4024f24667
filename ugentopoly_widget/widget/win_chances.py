"""The live win chances in the widget: a background estimate of every player's chance to win,
refreshed after each decision, with the swing of each decision for the log.

A mixin of :class:`UgentopolyWidget`. ``w.show_win_chances(True)`` (off by default: bots at
speed do not pay for rollouts) starts a :class:`~ugentopoly_widget.rollouts.live.LiveEstimator`;
every published state hands it the new position (the actions since the last one, sent to the
estimator's own process, so no click waits on it), the rollouts refine the estimate batch by
batch (in a thread where there are no processes, or for bots given as classes; in the browser
site, which has neither, in slices of the kernel's event loop: ``rollouts/slices.py``, with the
smaller ``BROWSER_BUDGET``, which the view states) and the figures
reach the ``win_chances`` trait on the kernel's event loop (without a loop, a script or a test,
when the widget is next used, or by :meth:`WinChancesDisplay.wait_win_chances`).

The trait (``{}`` when off)::

    {"on": True, "seq": <the state's seq>, "turn", "rollouts", "budget", "status", "browser",
     "players": [{"player", "name", "p_win", "se", "ci_low", "ci_high"}, ...],
     "unfinished": {"p_win", "se", "ci_low", "ci_high", "label": {"en", "nl"}},
     "mean_turns", "swings": [{"seq", "player", "points", "se_points", "rollouts",
                               "text": {"en", "nl"}}, ...]}

``swings`` (newest last, at most ``MAX_SWINGS``) holds one line per decision taken without
dice or cards ("Ann declined Boardwalk: −6 ± 2 points"), refined with the estimate after it.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .requests import RequestError, is_int

if TYPE_CHECKING:  # the analysis layer is imported when the display is on
    from ..engine.game import Game
    from ..rollouts.live import Estimate, LiveEstimator

MAX_SWINGS = 20
DEFAULT_BUDGET = 1000
# The browser site plays rollouts in Pyodide's pure Python, one thread shared with every click:
# 15-30 a second measured there, against ~530 in one compiled process (docs/lite.md, "Rollouts
# in the browser"). A smaller budget, stated on screen: the bar settles in 10-30 s.
BROWSER_BUDGET = 300
MAX_BUDGET = 100_000
# A click's reply (kernel, server, browser) takes about 0.1 s: the rollouts wait that long, and
# a little more, after a click; the first estimate still comes within half a second.
HOLD_SECONDS = 0.15
UPDATE_SECONDS = 0.25  # between two refinements of a position's figures sent to the views


class WinChancesDisplay:
    """``show_win_chances`` and the ``win_chances`` trait (see the module docstring)."""

    _win: LiveEstimator | None
    _win_loop: asyncio.AbstractEventLoop | None
    _win_pending: Estimate | None
    _win_failure: str | None
    _win_lock: threading.Lock
    _win_scheduled: bool
    _win_sent: tuple[int, float]
    # the last position handed on: (what identifies it, its decider, the decision's data,
    # whether the decision had a choice)
    _win_position: tuple[tuple[int, ...], int | None, dict[str, Any], bool] | None
    _win_swings: list[dict[str, Any]]
    _win_browser: bool  # in slices of the event loop (the browser site), BROWSER_BUDGET

    if TYPE_CHECKING:  # provided by the widget (traits, seq and its error reporting)
        _game: Game | None
        _seq: int
        win_chances: Any

        def _report(self, message: str) -> None: ...

    def _init_win_chances(self) -> None:
        self._win = None
        self._win_loop = None
        self._win_pending = None
        self._win_failure = None  # what the estimator reported it could not do, to be told
        self._win_lock = threading.Lock()
        self._win_scheduled = False  # a call of _apply_pending is on its way
        self._win_sent = (-1, 0.0)  # the generation and time of the last figures sent
        self._win_position = None
        self._win_swings = []
        self._win_browser = False

    @property
    def win_chances_shown(self) -> bool:
        return self._win is not None

    def show_win_chances(self, show: bool = True, *, budget: int | None = None,
                         bots: str | Sequence[str] = "strong", seed: int = 0) -> None:
        """Estimate every player's chance to win in the background, after each decision
        (``budget`` rollouts per position, refined 36 at a time; None: ``DEFAULT_BUDGET``, in
        the browser site ``BROWSER_BUDGET``), into ``w.win_chances``.
        ``False`` stops it and clears the trait. Bad settings raise RolloutError.

        >>> w = UgentopolyWidget("classic", players=["Ann", "Bob"], seed=1)
        >>> w.show_win_chances(True, budget=36)
        >>> figures = w.wait_win_chances(timeout=60)
        >>> figures["rollouts"], len(figures["players"])
        (36, 2)
        >>> w.show_win_chances(False)
        """
        if not isinstance(show, bool):
            raise ValueError(f"show_win_chances takes True or False, not {show!r}")
        from ..rollouts.errors import RolloutError
        from ..rollouts.runner import check_bots
        from ..rollouts.slices import SlicedLiveEstimator, event_loop, threads_available

        self._stop_win_chances()
        if not show:
            self.win_chances = {}
            return
        browser = not threads_available()
        if budget is None:
            budget = BROWSER_BUDGET if browser else DEFAULT_BUDGET
        if isinstance(budget, bool) or not isinstance(budget, int) or not 0 < budget <= MAX_BUDGET:
            raise RolloutError(f"budget is a number of rollouts from 1 to {MAX_BUDGET}, not "
                               f"{budget!r}")
        if self._game is not None:
            check_bots(bots, len(self._game.players))  # (later games: checked per position)
        self._win_loop = event_loop()
        if browser:  # no processes, no threads: slices of the kernel's event loop
            self._win = SlicedLiveEstimator(loop=self._win_loop, budget=budget, bots=bots,
                                            seed=seed, on_update=self._on_estimate,
                                            on_error=self._on_win_error)
        else:
            # in a process of its own where it can: a worker thread would make each click
            # wait for the interpreter lock (rollouts/live_process.py)
            from ..rollouts.live_process import live_estimator

            self._win = live_estimator(budget=budget, bots=bots, seed=seed,
                                       on_update=self._on_estimate, on_error=self._on_win_error)
        self._win_browser = browser
        self._win_position = None
        self._win_swings = []
        self.win_chances = {"on": True, "status": "waiting", "budget": budget,
                            "browser": browser}
        self._refresh_win_chances()

    def wait_win_chances(self, timeout: float | None = None) -> dict[str, Any]:
        """Wait until the current position's estimate is complete and return the trait's
        value (a script's or a test's way to read the figures; a view needs no waiting)."""
        if self._win is not None:
            self._win.wait(timeout)
        self._apply_pending()
        value: dict[str, Any] = self.win_chances
        return value

    def _hold_win_chances(self) -> None:
        """A click from the view: the rollouts rest while it is answered and drawn (on a
        machine with two cores they would otherwise slow the kernel, the server and the
        browser by a fifth), then play the new position."""
        if self._win is not None:
            self._win.hold(HOLD_SECONDS)

    def _stop_win_chances(self) -> None:
        """Stop estimating without waiting (a warm process is kept for the next start)."""
        if self._win is not None:
            self._win.close(wait=False)
        self._win = None
        with self._win_lock:
            self._win_pending = None
            self._win_failure = None

    # ------------------------------------------------------------------ following the game

    def _refresh_win_chances(self) -> None:
        """After each published state: a new position for the estimator (cheap: a copy)."""
        estimator, game = self._win, self._game
        if estimator is None or game is None:
            return
        self._apply_pending()
        actions = len(game._actions)
        decision = game.decision
        # the game, its actions, its testing steps and its log: the same four, the same
        # position (a state re-sent for another language or seats)
        key = (id(game), actions, len(game._injections), game.event_count)
        previous = self._win_position
        if previous is not None and previous[0] == key:
            return
        swing_of = None
        if (previous is not None and previous[0][:3] == (id(game), actions - 1, key[2])
                and previous[3] and game.can_undo()):
            # one decision since, with a choice, without dice or cards
            action = game._actions[-1]
            if action.player == previous[1]:
                swing_of = (action.player, action, previous[2])
        self._win_position = (key, decision.player, dict(decision.data),
                              len(game.legal_actions()) > 1)
        if game.is_over:
            estimator.cancel()
            self.win_chances = {"on": True, "status": "over", "seq": self._seq,
                                "swings": list(self._win_swings)}
            return
        from ..rollouts.errors import RolloutError

        try:
            estimator.update(game, decision=swing_of, tag=self._seq)
        except RolloutError as exc:
            self._stop_win_chances()
            self.win_chances = {}
            self._report(f"win chances turned off: {exc}")

    def _on_win_error(self, text: str) -> None:
        """In the estimator's thread: a position it could not estimate, or its process gone;
        told on the kernel's loop (or when the widget is next used)."""
        with self._win_lock:
            self._win_failure = text
            self._win_scheduled = True
        loop = self._win_loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(self._apply_pending)
            except RuntimeError:  # the loop closed meanwhile
                pass

    def _on_estimate(self, estimate: Estimate) -> None:
        """In the estimator's thread: hand the estimate to the kernel's loop (or keep it).
        A position's first figures and its last go at once; those between at most every
        UPDATE_SECONDS (each costs the views a redraw, a click's reply may wait behind it)."""
        with self._win_lock:
            self._win_pending = estimate
            urgent = estimate.done or estimate.generation != self._win_sent[0]
            if self._win_scheduled and not urgent:
                return  # the call scheduled takes this one
            self._win_scheduled = True
            delay = 0.0 if urgent else max(0.0, self._win_sent[1] + UPDATE_SECONDS
                                           - time.monotonic())
        loop = self._win_loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(loop.call_later, delay, self._apply_pending)
            except RuntimeError:  # the loop closed meanwhile
                pass

    def _apply_pending(self) -> None:
        with self._win_lock:
            estimate, self._win_pending = self._win_pending, None
            failure, self._win_failure = self._win_failure, None
            self._win_scheduled = False
            if estimate is not None:
                self._win_sent = (estimate.generation, time.monotonic())
        estimator, game = self._win, self._game
        if failure is not None and estimator is not None:
            if estimator.failed:  # its process is gone: nothing more comes
                self._stop_win_chances()
                self.win_chances = {}
                self._report(f"win chances turned off: {failure}")
                return
            self._report(f"win chances: {failure}")
        if estimate is None or estimator is None or game is None:
            return
        if estimate.generation != estimator.generation:
            return  # of a position left behind
        try:
            self.win_chances = self._payload(game, estimator, estimate, int(estimate.tag))
        except Exception as exc:  # never into the event loop
            self._report(f"win chances: {type(exc).__name__}: {exc}")

    def _payload(self, game: Game, estimator: LiveEstimator, estimate: Estimate, seq: int
                 ) -> dict[str, Any]:
        swing = estimate.swing
        if swing is not None:
            entry = {"seq": seq, "player": swing.player, "points": 100 * swing.delta,
                     "se_points": 100 * swing.se, "rollouts": swing.rollouts,
                     "text": estimator.swing_text(game, swing)}
            if self._win_swings and self._win_swings[-1]["seq"] == seq:
                self._win_swings[-1] = entry  # the same decision, refined
            else:
                self._win_swings.append(entry)
                del self._win_swings[:-MAX_SWINGS]
        return {"on": True, "seq": seq, **estimate.to_dict(), "browser": self._win_browser,
                "swings": list(self._win_swings)}

    # ------------------------------------------------------------------ the view's request

    def _request_win_chances(self, content: dict[str, Any]) -> None:
        """``{"type": "win_chances", "on": bool, "budget": n}`` from the view (its keys
        checked already: requests.check_request)."""
        if not isinstance(content["on"], bool):
            raise RequestError("refused: on is true or false")
        budget = content.get("budget")  # not given: the default of where it runs
        if "budget" in content and not is_int(budget, 1, MAX_BUDGET):
            raise RequestError(f"refused: the budget is 1 to {MAX_BUDGET} rollouts")
        self.show_win_chances(content["on"], budget=budget)


__all__ = ["WinChancesDisplay", "MAX_SWINGS", "DEFAULT_BUDGET", "BROWSER_BUDGET"]
