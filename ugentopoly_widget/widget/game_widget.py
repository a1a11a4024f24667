"""The notebook widget: an anywidget front end that draws a game and stays in sync with Python.

Python owns the game. The view renders from two synced traits, ``board_data`` (static, sent
once per game) and ``state`` (a small snapshot replaced whole on every change, with a sequence
number ``seq``; its log part brings only the lines added since the previous state, and a view
that missed some asks for the kept tail with ``{"type": "log"}``), and sends *requests*
(``{"type": "act", "action": {...}, "seq": n}``) that are checked here against the sequence
number and the engine's rules. A refused request sets ``error`` and changes nothing; no
exception ever escapes into the comm.

Everything works with no view at all: the scripting methods (``w.roll()``, ``w.buy()``, ...,
scripting.py) apply actions for whoever decides now, and the board follows in every open view.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import pathlib
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

import anywidget
import traitlets

from ..engine.actions import action_from_dict
from ..engine.boards.board import Board
from ..engine.errors import (
    BotError,
    InvalidActionError,
    SetupError,
    UgentopolyError,
    UndoError,
)
from ..engine.game import Game
from ..engine.records.events import Event
from ..engine.rules import PROFILES
from . import heatmap
from .analysis_live import AnalysisDisplay
from .data import (
    LANGS,
    LOG_TAIL,
    SEAT_KINDS,
    LogCache,
    board_data,
    lobby_data,
    state_snapshot,
)
from .errors import plain_error
from .odds import ProbabilityPanels
from .pacing import BotPacing
from .presentation import Presentation
from .requests import RequestError, check_request, check_shape, from_view, is_int, setup_options
from .scripting import Scripting
from .sync import StateText, state_json
from .trade_advice import TradeAdviceDisplay
from .win_chances import WinChancesDisplay

STATIC = pathlib.Path(__file__).parent.parent / "static"
MAX_REQUEST_BYTES = 20_000  # a request larger than this (as JSON) is refused unread
MAX_ERRORS = 50
# Traits the front end may set directly; anything else it sends is refused and re-synced.
FRONT_WRITABLE = frozenset({"lang", "bot_delay", "paused", "presentation"})

EventCallback = Callable[[list[Event]], Any]


def _json_text(value: dict[str, Any], widget: Any) -> str:
    """The state as compact JSON text (the view parses it once per change; see widget_sync)."""
    encoder: StateText | None = getattr(widget, "_state_text", None)
    if encoder is None:
        return json.dumps(value, separators=(",", ":"))
    return state_json(value, encoder)



def seat_problem(seats: Sequence[str]) -> str | None:
    """Why these seats cannot play here (None: they can): the rollout level thinks for
    seconds at a decision, which the browser site (no threads) would spend with the board
    frozen."""
    from ..rollouts.slices import threads_available

    if "rollout" in seats and not threads_available():
        return ("the thinking bot ('rollout') plays dozens of rollouts at each decision it "
                "thinks about: seconds each in the browser's pure Python, with no thread to "
                "play them beside the board: choose 'strong'")
    return None


class UgentopolyWidget(Scripting, BotPacing, ProbabilityPanels, Presentation,
                       WinChancesDisplay, TradeAdviceDisplay, AnalysisDisplay,
                       anywidget.AnyWidget):
    """Play and script a game in a notebook cell.

    >>> w = UgentopolyWidget("classic", players=["Ann", "Bob"], seed=1)
    >>> w.game.testing.script_dice((1, 2))
    >>> _ = w.roll()
    >>> w.state["dice"]
    [1, 2]
    """

    _esm = STATIC / "widget.js"
    _css = STATIC / "widget.css"

    board_data = traitlets.Dict().tag(sync=True)
    # Sent as one JSON text: ipywidgets walks every dict and list of a trait's value looking
    # for binary buffers before sending it, which cost more than building the snapshot.
    state = traitlets.Dict().tag(sync=True, to_json=_json_text)
    lobby = traitlets.Dict().tag(sync=True)
    lang = traitlets.Unicode("en").tag(sync=True)
    error = traitlets.Dict().tag(sync=True)  # {"message", "seq", "n"}; {} when none yet
    # {"values", "label", "min", "max"} or {}; a probability mode adds "mode", "jail", "unit" ...
    heat = traitlets.Dict().tag(sync=True)
    stats = traitlets.Dict().tag(sync=True)  # the dice and convergence panels; {} when hidden
    win_chances = traitlets.Dict().tag(sync=True)  # live win chances (win_chances.py); {} off
    # whether rollouts can run here: the view shows "Show win chances" and the trade
    # dialog's Advice only where they work. Everywhere now: their core needs no numpy, and
    # the browser site plays them in slices of the event loop (rollouts/slices.py)
    rollouts_available = traitlets.Bool(True, read_only=True).tag(sync=True)
    trade_advice = traitlets.Dict().tag(sync=True)  # the trade dialog's advice (trade_advice.py)
    analysis = traitlets.Dict().tag(sync=True)  # luck or skill (analysis_live.py); {} off
    roll_map = traitlets.Dict().tag(sync=True)  # the 36-roll map (analysis_live.py); {} none
    seats = traitlets.List(traitlets.Unicode()).tag(sync=True)
    bot_delay = traitlets.Float(0.8).tag(sync=True)
    paused = traitlets.Bool(False).tag(sync=True)
    # Seconds the view lingers on a turn that ended by itself (dice, move, card) before it shows
    # the next player's decision; 0 turns the pause off (tests, fast bots).
    turn_pause = traitlets.Float(1.2, min=0.0, max=10.0).tag(sync=True)

    def __init__(
        self,
        profile: str = "ugentopoly",
        *,
        players: Sequence[Any] | int | None = None,
        seed: int | None = None,
        options: Mapping[str, Any] | None = None,
        board: Board | str | os.PathLike[str] | None = None,
        seats: Sequence[Any] | None = None,
        lang: str = "en",
        game: Game | None = None,
        log_tail: int = LOG_TAIL,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self._game: Game | None = None
        self._seq = 0
        self._game_start = 0  # the seq of the current game's first state (0: the lobby's)
        self._game_is_new = False
        self._error_count = 0
        self._cache = LogCache()
        self._state_text = StateText()
        self._log_tail = log_tail
        self._callbacks: list[EventCallback] = []
        self._custom_bots: dict[str, Any] = {}  # seat kinds added by add_bot
        self._init_bots()
        self._init_probability()
        self._init_presentation()
        self._init_win_chances()
        self._init_trade_advice()
        self._init_analysis()
        self._timer_handle: asyncio.TimerHandle | None = None
        self._listener: EventCallback | None = None
        self.errors: list[str] = []
        self._custom_board: Board | None = board if isinstance(board, Board) else None
        if board is not None and not isinstance(board, Board):
            from ..engine.game import _resolve_board

            self._custom_board = _resolve_board(board, PROFILES.get(profile, PROFILES["classic"]))
        self._profile_default = profile
        self.lang = lang if lang in LANGS else "en"
        self.lobby = dict(lobby_data(self._custom_board, profile))
        self.on_msg(self._on_msg)
        self.observe(self._on_lang, names="lang")
        self.observe(self._on_paused, names="paused")
        self.observe(self._on_seats, names="seats")
        if game is None and players is not None:
            game = Game(profile, players=players, seed=seed, options=options,
                        board=self._custom_board, lang=self.lang)
        if game is not None:
            self._install(game, seats)
        else:
            self._publish()

    # ------------------------------------------------------------------ constructors

    @classmethod
    def from_game(cls, game: Game, seats: Sequence[Any] | None = None,
                  **kwargs: Any) -> UgentopolyWidget:
        """A widget showing an existing engine game."""
        return cls(game.rules.name, game=game, seats=seats, lang=game.lang, **kwargs)

    @classmethod
    def open_lobby(cls, profile: str = "ugentopoly", board: Board | str | None = None,
                   **kwargs: Any) -> UgentopolyWidget:
        """A widget showing the setup screen (no game yet)."""
        return cls(profile, board=board, **kwargs)

    # ------------------------------------------------------------------ the game

    @property
    def has_game(self) -> bool:
        return self._game is not None

    @property
    def game(self) -> Game:
        """The engine game (raises while the lobby is open and no game has started)."""
        if self._game is None:
            raise RuntimeError("no game yet: the lobby is open (start one there, or set w.game)")
        return self._game

    @game.setter
    def game(self, game: Game) -> None:
        if not isinstance(game, Game):
            raise TypeError(f"w.game must be an engine Game, not {type(game).__name__}")
        self._install(game, None)

    # ------------------------------------------------------------------ seats

    def add_bot(self, bot: Any, name: str | None = None) -> str:
        """Make `bot` (anything with ``choose(game) -> Action``, e.g. a trained agent as
        ``rl.PolicyBot(model)``) a seat kind: ``w.seats = ["person", name]``, and the lobby
        offers it beside the house bots. Its name is `name` or ``bot.name``; returns it.
        Passing the bot itself in ``seats`` adds it too."""
        if not callable(getattr(bot, "choose", None)):
            raise SetupError(f"a bot has a choose(game) method, not {type(bot).__name__}")
        name = name if name is not None else getattr(bot, "name", None)
        if not isinstance(name, str) or not name.strip() or len(name) > 40:
            raise SetupError("a bot's seat name is a short text (give name=...)")
        if name in SEAT_KINDS:
            raise SetupError(f"{name!r} is a built-in seat kind: give the bot another name")
        if self._custom_bots.get(name, bot) is not bot:
            raise SetupError(f"another bot is seated as {name!r}: give this one another name")
        self._custom_bots[name] = bot
        for player, seated in list(self._bots.items()):
            if self._seat(player) == name and seated is not bot:
                del self._bots[player]
        self.lobby = {**self.lobby, "seat_kinds": list(self.seat_kinds)}
        return name

    @property
    def seat_kinds(self) -> tuple[str, ...]:
        """What a seat may hold: "person", the house bots and the bots added by add_bot."""
        return SEAT_KINDS + tuple(self._custom_bots)

    def _seat_names(self, seats: Sequence[Any]) -> list[str]:
        """Seats as names: a bot object is added (add_bot) under its name."""
        return [s if isinstance(s, str) else self.add_bot(s) for s in seats]

    def _install(self, game: Game, seats: Sequence[Any] | None) -> None:
        self._cancel_bots()
        n = len(game.players)
        if seats is None:
            old = list(self.seats)
            seats = old if len(old) == n and self._game is not None else ["person"] * n
        seats = self._seat_names(list(seats))
        kinds = self.seat_kinds
        if len(seats) != n or any(s not in kinds for s in seats):
            raise SetupError(f"seats is a list of {n} of {list(kinds)} (or bots)")
        problem = seat_problem(seats)
        if problem is not None:
            raise BotError(problem)
        previous = self._game
        self._detach()
        self._game = game
        self._cache.reset()
        self._cache.notes.clear()  # (the new game's events are numbered from 0 again)
        self._bots = {}
        # The game holds only a weak reference: a widget nobody uses can be collected even
        # while its game lives on (in a variable, or shown by another widget).
        ref = weakref.ref(self)

        def listener(events: list[Event], g: Game = game) -> None:
            widget = ref()
            if widget is None:
                g.off_events(listener)
            else:
                widget._on_game_events(g, events)

        self._listener = listener
        game.on_events(listener)
        self._game_is_new = True  # its first state numbers it (game_start)
        with self.hold_sync():
            self.seats = seats
            self.board_data = dict(board_data(game))
            if self.heat and self._heat_mode is None and (
                    previous is None or previous.board.size != game.board.size):
                self.heat = {}
            self._publish()

    # ------------------------------------------------------------------ publishing

    def _detach(self) -> None:
        """Stop listening to the current game (replaced, or the widget closed)."""
        if self._game is not None and self._listener is not None:
            self._game.off_events(self._listener)
        self._listener = None

    def _publish(self, *, bump: bool = True) -> None:
        """Send a fresh state snapshot (replaced whole, never mutated in place).

        `seq` numbers the states of the game: it grows when the game (or the seats) changed,
        not when the same state is only re-sent in another language. Never raises: a state
        that cannot be drawn is reported, and `seq` stays at the state the views have."""
        if self._batch:
            self._dirty = True
            return
        seq = self._seq + 1 if bump else self._seq
        if self._game_is_new:
            self._game_start = seq
            self._game_is_new = False
        if self._game is None:
            self._seq = seq
            self.state = {"seq": seq, "phase": "lobby"}
            return
        try:
            state = self._snapshot(seq)
        except Exception as exc:
            self._report(f"internal error while drawing the game: {type(exc).__name__}: {exc}")
            self._cache.reset()  # a half-rendered log may be the cause: try once from scratch
            try:
                state = self._snapshot(seq)
            except Exception:
                return
        self._seq = seq
        self._set_state(state)
        self._schedule_timer()
        self._refresh_probability()
        self._refresh_fan()
        self._refresh_win_chances()
        self._refresh_analysis()

    def _set_state(self, state: dict[str, Any]) -> None:
        """``self.state = state``: what traitlets and ipywidgets do for it, sent the same way
        (one update message with the state's JSON text, then the observers), without their
        generic machinery (trait metadata and buffer walks: a fifth of a published action).
        Anything unusual (sync held, a front-end update being applied, notifications held,
        no comm) takes the ordinary assignment."""
        comm = self.comm
        if (self._holding_sync or self._property_lock or self._cross_validation_lock
                or comm is None or getattr(comm, "kernel", True) is None):
            self.state = state
            return
        old = self._trait_values.get("state")
        self._trait_values["state"] = state
        if old == state:
            return  # what traitlets does with an equal value: kept, nothing sent or told
        # what Widget._send does once the comm and its kernel are known to be there
        comm.send(data={"method": "update", "state": {"state": _json_text(state, self)},
                        "buffer_paths": []}, buffers=[])
        traitlets.HasTraits.notify_change(
            self, traitlets.Bunch(name="state", old=old, new=state, owner=self, type="change"))

    def _snapshot(self, seq: int) -> dict[str, Any]:
        """The state (data.state_snapshot: contract.GameState; a plain dict to traitlets)."""
        assert self._game is not None
        self._cache.take_notes(self._game, self._bots)  # the bots' reasons, for the log
        return cast("dict[str, Any]", state_snapshot(
            self._game, seq, self.lang, self.seats, self._cache, self._log_tail,
            game_start=self._game_start))

    def _send_full_log(self) -> None:
        if self._game is None:
            return
        full = self._cache.full(str(self.state.get("lang", "")))
        if full is not None:
            self.send({"type": "log", **full})

    def _send_log_page(self, before: Any) -> None:
        if self._game is None:
            raise RequestError("refused: no game has started")
        total = self._game.event_count
        if not is_int(before, 0, total):
            raise RequestError(f"refused: there is no log line {str(before)[:20]} "
                               f"(the log has {total})")
        lang = str(self.state.get("lang", "en"))
        self.send(self._cache.page(self._game, lang, before))

    def _schedule_timer(self) -> None:
        """Check the turn timer from Python when it runs out, on the kernel's loop: the view
        only shows the countdown, and a view that is not rendered (VS Code) must not matter."""
        if self._timer_handle is not None:
            self._timer_handle.cancel()
            self._timer_handle = None
        game = self._game
        if game is None or game.is_over:
            return
        remaining = game.timer_remaining()
        if remaining is None or game.decision.kind != "turn":
            return
        loop = self._running_loop()
        if loop is not None:
            self._timer_handle = loop.call_later(remaining + 0.05, self._timer_step)

    def _timer_step(self) -> None:
        self._timer_handle = None
        try:
            if not self.tick():
                self._schedule_timer()
        except Exception as exc:  # never let a timer callback raise into the event loop
            self._report(f"turn timer: {type(exc).__name__}: {exc}")

    def refresh(self) -> None:
        """Re-send the state (after changing the game through ``game.testing``, say)."""
        self._publish()

    def _on_game_events(self, game: Game, events: list[Event]) -> None:
        if game is not self._game:
            return
        if not events:  # undo: the engine was rebuilt
            self._cache.reset()
        if self._batch:  # net worth once per turn (a published state samples it itself)
            self._cache.sample(game)
        self._cache.fresh = events  # the log's last events, decoded already
        try:
            self._publish()
        finally:
            self._cache.fresh = None
        for callback in list(self._callbacks):
            try:
                callback(events)
            except Exception as exc:  # a user's callback must never break the game or the comm
                self._report(f"event callback {getattr(callback, '__name__', callback)!r} "
                             f"raised {type(exc).__name__}: {exc}")

    def _on_lang(self, change: dict[str, Any]) -> None:
        if change["new"] not in LANGS:
            self.lang = "en"
            return
        if self._game is not None:
            self._send_language()

    def _send_language(self) -> None:
        """Another language: the views draw their own words in it (``board_data`` has every
        name and card text in both), so only the log's lines are new. They go in one
        ``{"type": "log_lang", ...}`` message (the log part of a state: epoch, base None,
        total, start, lines); the state itself is not sent, its seq stays, and observers of
        ``state`` are not told (no new state of the game). ``w.state`` is updated in place,
        so a view opened later gets it whole."""
        if self._batch:
            self._dirty = True  # the batch's last state brings everything
            return
        try:
            state = self._snapshot(self._seq)
        except Exception:
            self._publish(bump=False)  # reports what failed and sends what it can
            return
        self._trait_values["state"] = state
        self.send({"type": "log_lang", "lang": state["lang"], **state["log"]})

    @traitlets.validate("seats")
    def _valid_seats(self, proposal: dict[str, Any]) -> list[str]:
        seats = list(proposal["value"])
        kinds = self.seat_kinds
        bad = [s for s in seats if s not in kinds]
        if bad:
            raise traitlets.TraitError(f"a seat is one of {list(kinds)}, not {bad[0]!r} "
                                       "(add a bot of your own with add_bot)")
        if self._game is not None and len(seats) != len(self._game.players):
            raise traitlets.TraitError(f"seats needs one entry per player "
                                       f"({len(self._game.players)})")
        problem = seat_problem(seats)
        if problem is not None:
            raise traitlets.TraitError(problem)
        return seats

    def _on_seats(self, change: dict[str, Any]) -> None:
        if self._game is not None and self._batch == 0:
            self._publish()
            self._schedule_bots()

    def _on_paused(self, change: dict[str, Any]) -> None:
        if change["new"]:
            self._cancel_bots()
        else:
            self._schedule_bots()

    def on_event(self, callback: EventCallback) -> None:
        """Call ``callback(events)`` after every applied action (errors go to ``w.errors``)."""
        if not callable(callback):
            raise TypeError("callback must be callable")
        self._callbacks.append(callback)

    def _report(self, message: str) -> None:
        self._error_count += 1
        self.errors.append(message)
        del self.errors[:-MAX_ERRORS]
        self.error = {"message": message, "seq": self._seq, "n": self._error_count,
                      **plain_error(message)}

    def clear_error(self) -> None:
        self.error = {}

    # ------------------------------------------------------------------ heat map overlay

    def show_heat(self, values: Sequence[float] | Mapping[int, float], label: str = "") -> None:
        """Lay one value per tile over the board (e.g. landing probabilities)."""
        size = self.game.board.size
        if isinstance(values, Mapping):
            row = [0.0] * size
            for pos, value in values.items():
                if not is_int(pos, 0, size - 1):
                    raise ValueError(f"there is no tile {pos!r}")
                row[pos] = float(value)
        else:
            row = [float(v) for v in values]
        if len(row) != size:
            raise ValueError(f"heat needs {size} values (one per tile), not {len(row)}")
        if not all(math.isfinite(v) for v in row):
            raise ValueError("heat values must be finite numbers")
        self._heat_mode = None
        low, high = min(row), max(row)
        fills, inks = heatmap.fills(row, low, high, False, zero_blank=False)
        self.heat = {"values": row, "label": str(label)[:200], "min": low, "max": high,
                     "fills": fills, "inks": inks, "palette": list(heatmap.VIRIDIS)}

    def clear_heat(self) -> None:
        self._heat_mode = None
        self.heat = {}

    # ------------------------------------------------------------------ front-end requests

    def set_state(self, sync_data: dict[str, Any]) -> None:
        """Trait updates from a view: only ``lang``, ``bot_delay``, ``paused`` and
        ``presentation``, checked."""
        allowed: dict[str, Any] = {}
        refused: list[str] = []
        for key, value in dict(sync_data).items():
            if (key == "lang" and value in LANGS) or (
                    key in ("paused", "presentation") and isinstance(value, bool)):
                allowed[key] = value
            elif key == "bot_delay" and isinstance(value, (int, float)) \
                    and not isinstance(value, bool) and 0 <= value <= 10:
                allowed[key] = float(value)
            else:
                refused.append(key)
        if allowed:
            super().set_state(allowed)
        if refused:
            self._report(f"refused a change of {sorted(refused)} from the view")
            try:
                self.send_state(refused)
            except Exception:
                pass

    def _on_msg(self, _widget: Any, content: Any, buffers: Any = None) -> None:
        """Handle one request from a view. Never raises."""
        try:
            self._handle_request(content)
        except RequestError as exc:
            self._report(str(exc))
        except UgentopolyError as exc:
            self._report(str(exc))
        except Exception as exc:  # the comm must never see an exception
            self._report(f"internal error: {type(exc).__name__}: {exc}")
            # Whatever failed, the views get the game as it now is, with a new seq.
            self._publish()

    def _handle_request(self, content: Any) -> None:
        content = from_view(content)
        if not isinstance(content, dict):
            raise RequestError("refused: a request is a JSON object")
        check_shape(content)  # before anything looks into it recursively
        try:
            size = len(json.dumps(content))
        except (TypeError, ValueError, RecursionError):
            raise RequestError("refused: the request is not plain JSON") from None
        if size > MAX_REQUEST_BYTES:
            raise RequestError(f"refused: the request is too large ({size} bytes)")
        # the keys the contract gives its type (widget/contract/); the values are checked
        # below, each where it is used
        kind = check_request(content)
        if kind in ("act", "undo", "setup"):  # a click that changes the game
            self._hold_win_chances()
            self._hold_analysis()
        if kind == "act":
            self._check_seq(content)
            self._request_act(content["action"])
        elif kind == "undo":
            self._check_seq(content)
            try:
                self.undo()
            except UndoError as exc:
                raise RequestError(f"cannot undo: {exc}") from None
        elif kind == "tick":
            if self._game is not None:
                self.tick()
        elif kind == "setup":
            self._request_setup(content)
        elif kind == "lang":
            if content["lang"] not in LANGS:
                raise RequestError(f"refused: unknown language {content['lang']!r}")
            self.lang = content["lang"]
        elif kind == "probability":
            self._request_probability(content)
        elif kind == "roll_once":
            self._request_roll_once(content)
        elif kind == "picture":
            self._send_picture(content)
        elif kind == "win_chances":
            self._request_win_chances(content)
        elif kind == "trade_advice":
            self._request_trade_advice(content)
        elif kind == "analysis":
            self._request_analysis(content)
        elif kind == "roll_map":
            self._request_roll_map(content)
        elif kind == "position":
            self._request_position(content)
        elif kind == "log":  # a view that missed lines (opened later): the whole kept tail;
            # with "before": the lines before its first (its reader scrolls back)
            if "before" in content:
                self._send_log_page(content["before"])
            else:
                self._send_full_log()
        elif kind == "bots":
            if "paused" in content:
                if not isinstance(content["paused"], bool):
                    raise RequestError("refused: paused is true or false")
                self.paused = content["paused"]
            if "delay" in content:
                delay = content["delay"]
                if not isinstance(delay, (int, float)) or isinstance(delay, bool) \
                        or not 0 <= delay <= 10:
                    raise RequestError("refused: the bot delay is 0 to 10 seconds")
                self.bot_delay = float(delay)
        else:
            raise RequestError(f"refused: unknown request type {str(kind)[:40]!r}")

    def _check_seq(self, content: dict[str, Any], *, any_of_this_game: bool = False) -> None:
        """The request was made for the state the game is at (an act, an undo), or with
        `any_of_this_game`, for any state of the game now running (a new game from the lobby:
        the old game's bots may move while its form is filled in; only a setup made before
        someone else started another game is stale)."""
        seq = content.get("seq")
        if not isinstance(seq, int) or not is_int(seq, 0, 2**53):
            raise RequestError("refused: the request has no valid state number (seq)")
        if seq > self._seq:
            raise RequestError(
                f"refused: unknown or future state {seq} (the game is at state {self._seq}): "
                f"the request was not made from this game's view"
            )
        if any_of_this_game:
            if seq < self._game_start:
                raise RequestError(
                    f"refused: stale request (made for state {seq} of an earlier game; another "
                    f"game started since, at state {self._game_start})")
            return
        if seq != self._seq:
            raise RequestError(
                f"refused: stale request (made for state {seq}, the game is at {self._seq})"
            )

    def _request_act(self, data: Any) -> None:
        game = self._game
        if game is None:
            raise RequestError("refused: no game has started")
        try:
            action = action_from_dict(data)
        except InvalidActionError as exc:
            raise RequestError(f"refused: {exc}") from None
        decision = game.decision
        if action.player != decision.player:
            raise RequestError("refused: it is not this player's decision")
        if self._seat(action.player) != "person":
            raise RequestError("refused: a bot plays this seat")
        game.apply(action)  # IllegalActionError: reported by _on_msg, game unchanged
        self._schedule_bots()

    def _request_setup(self, content: dict[str, Any]) -> None:
        # a setup made before another game started must not throw that game away
        self._check_seq(content, any_of_this_game=True)
        profile = content["profile"]
        if profile not in PROFILES:
            raise RequestError(f"refused: unknown profile {str(profile)[:40]!r}")
        board_id = content.get("board")
        board: Board | str | None
        if board_id is None:
            board = None
        elif board_id == "custom" and self._custom_board is not None:
            board = self._custom_board
        elif isinstance(board_id, str) and board_id.startswith("bundled:") \
                and board_id.split(":", 1)[1] in PROFILES:
            board = board_id
        else:
            raise RequestError("refused: unknown board")
        players = content["players"]
        if not isinstance(players, list) or not 1 <= len(players) <= 8:
            raise RequestError("refused: players is a list of 2 to 8 players")
        specs: list[dict[str, str]] = []
        seats: list[str] = []
        for k, spec in enumerate(players):
            if not isinstance(spec, dict) or not set(spec) <= {"name", "token", "colour", "seat"}:
                raise RequestError(f"refused: player {k + 1} is malformed")
            for key in ("name", "token", "colour"):
                if not isinstance(spec.get(key), str):
                    raise RequestError(f"refused: player {k + 1} needs a {key}")
            seat = spec.get("seat", "person")
            if seat not in self.seat_kinds:
                raise RequestError(
                    f"refused: player {k + 1}: seat is one of {list(self.seat_kinds)}")
            problem = seat_problem([seat])
            if problem is not None:
                raise RequestError(f"refused: player {k + 1}: {problem}")
            specs.append({"name": spec["name"], "token": spec["token"], "colour": spec["colour"]})
            seats.append(seat)
        options = setup_options(content.get("options") or {})
        seed = content.get("seed")
        if seed is not None and not is_int(seed, 0, 2**53):
            raise RequestError("refused: the seed is a non-negative integer")
        game = Game(profile, players=specs, seed=seed, options=options, board=board,
                    lang=self.lang)  # SetupError (a taken token, ...) is reported
        self._install(game, seats)
        self.error = {}
        self._schedule_bots()

    # ------------------------------------------------------------------ display

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]] | None:
        """The live view, plus a static SVG picture of the board for front ends without a
        widget manager (GitHub, nbviewer, nbconvert), plus the deterministic text."""
        bundle = super()._repr_mimebundle_(**kwargs)
        if bundle is None or self._game is None:
            return bundle
        data, metadata = bundle
        from ..engine.render.svg import board_svg

        heat = self.heat.get("values") if self.heat else None
        data = {**data, "image/svg+xml": board_svg(self._game, lang=self.lang, heat=heat)}
        return data, metadata

    def __repr__(self) -> str:
        if self._game is None:
            return "UgentopolyWidget(lobby)"
        game = self._game
        return (
            f"UgentopolyWidget({game.rules.name}, {len(game.players)} players, "
            f"turn {game.turn_number}, {game.decision.kind})"
        )

    def _drop_file_hooks(self) -> None:
        """anywidget (manzt/anywidget#929, open) connects, for every widget, a lambda holding
        the widget to the class-wide ``_esm``/``_css`` file objects (for hot reloading), so no
        widget could ever be collected. Disconnect this widget's own on close."""
        for key in ("_esm", "_css"):
            # the file object sits on the class that named it (traitlets' add_traits() puts a
            # trait of the same name on a subclass made for this instance)
            files: list[Any] = [klass.__dict__.get(key) for klass in type(self).__mro__]
            signal: Any = next((f.changed for f in files if hasattr(f, "changed")), None)
            for slot in list(getattr(signal, "_slots", None) or ()):
                try:
                    callback = slot.dereference()
                    cells = getattr(callback, "__closure__", None) or ()
                    if any(cell.cell_contents is self for cell in cells):
                        signal.disconnect(callback)
                except Exception:  # a later anywidget may store these otherwise: keep going
                    continue

    def close(self) -> None:
        self._detach()
        self._drop_file_hooks()
        self._cancel_bots()
        self._cancel_fan()
        self._stop_win_chances()
        self._cancel_advice()
        self._stop_analysis()
        if self._timer_handle is not None:
            self._timer_handle.cancel()
            self._timer_handle = None
        super().close()


__all__ = ["UgentopolyWidget", "RequestError", "STATIC"]
