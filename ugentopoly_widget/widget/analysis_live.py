"""Luck or skill in the widget: the game analysed as it goes (the last decision's verdict and
the last roll's luck under the win bar; the Analysis tab's chart, summary and biggest
mistakes), the 36-roll map of the player about to roll, and the position before a past
decision for a read-only look.

A mixin of :class:`UgentopolyWidget`. ``w.show_analysis(True)`` (off by default, as the win
bar: bots at speed do not pay for rollouts; the Analysis tab's switch sends the same) analyses
every new position in the background with the incremental analyser of
:mod:`ugentopoly_widget.rollouts.analysis`, in a process of its own where there are processes
(a worker thread would make every click wait for the interpreter lock, as the win bar found:
``rollouts/live_process.py``); in the browser site, which has neither processes nor threads,
in slices of the kernel's event loop (``rollouts/slices.SlicedExecutor``: a playout a step,
a click read between two slices), with the smaller ``BROWSER_*`` budgets, which the view
states. The game's thread only hands over the record (after the new
state has been sent), so a click's reply never waits for the analysis. One job at a time: a
position that arrives while one is analysed is taken next (the analyser goes on from where it
was: earlier turns are not analysed again). Each job judges the newest decision and roll
first, then a few older points (``Analyser(latest_first=True)``): an analysis switched on late
in a game shows the live verdict at once and fills in the backlog job by job.

Stale results are never shown: every job is tagged with the game's *generation* (a new game,
an undo or a testing step starts a new one, and clears the trait at once) and the ``seq`` of
the state it was made for; a result of an older generation is dropped. The ``analysis`` trait
(contract/analysis.py ``Analysis``) is ``{}`` when off.
"""

from __future__ import annotations

import asyncio
import concurrent.futures as cf
import importlib
import inspect
import threading
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, cast

from ..engine.records.savefile import encode_actions
from .analysis_view import analysis_payload, roll_map_payload
from .contract.analysis import PositionMessage
from .requests import RequestError, is_int

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..rollouts.analysis import Analyser
    from ..rollouts.analysis.results import GameAnalysis, RollMap, Thresholds
    from ..rollouts.slices import SlicedExecutor, Steps
    from .contract.base import Texts

MAX_ROLLOUTS = 20_000
ROLL_MAP_ROLLOUTS = 24  # per outcome (roll_map()'s default: 864 short playouts)
# The browser site plays in Pyodide's pure Python, in slices of the one thread that also reads
# the clicks (docs/lite.md, "Rollouts in the browser"): smaller budgets, stated on screen.
BROWSER_ROLLOUTS = 16  # per option of a decision (analyse()'s default: 48)
BROWSER_CHANCE_ROLLOUTS = 2  # per outcome of a roll or card (analyse()'s default: 8)
BROWSER_ROLL_MAP_ROLLOUTS = 6  # per outcome of the 36-roll map (216 short playouts)
WORKERS = ("auto", "thread", "process", "slices")
HOLD_SECONDS = 0.15  # after a click the slices rest while it is answered (as the win bar's)
# the analysis' own functions, by name ("module:function"): a child process imports them
# itself (tests name a stand-in). A function may return its result or be a generator of
# steps (the browser's slices run it a step at a time; a worker runs it to its end).
ENGINE = "ugentopoly_widget.widget.analysis_live:analyse_steps"
ROLL_MAP = "ugentopoly_widget.widget.analysis_live:roll_map_steps"

# ---------------------------------------------------------------------- the worker's side

# in the worker (process, thread or the browser's slices): per widget, the incremental
# analyser of its current line of play with what it was made with, the analysers in use, and
# the generation the widget is at (shared memory: a job of an older one stops early)
_ANALYSERS: dict[tuple[Any, ...], tuple[Any, tuple[Any, ...]]] = {}
_BUSY: set[int] = set()
_ANALYSERS_LOCK = threading.Lock()
_GENERATION: Any = None


def _load(name: str) -> Any:
    module, _, attr = name.partition(":")
    if not module or not attr:
        raise ValueError(f"an analysis function is named 'module:function', not {name!r}")
    return getattr(importlib.import_module(module), attr)


def analyse_steps(key: tuple[Any, ...], record: dict[str, Any], settings: Mapping[str, Any],
                  cancel: Callable[[], bool]) -> Steps[tuple[GameAnalysis, Texts]]:
    """Analyse the game of `record` up to now with the incremental analyser of the line of
    play `key` (made on its first call; later calls judge only the actions added since), and
    say it in words; a step per action walked and per playout. Stops early (what it has,
    ``complete=False``) once `cancel()`."""
    from ..rollouts import analysis as A
    from ..rollouts.analysis.results import GameAnalysis

    if not record["actions"]:  # nothing played yet: nothing to judge
        return GameAnalysis(players=()), {"en": "", "nl": ""}
    analyser = _analyser(key, settings, cancel)
    try:
        result: GameAnalysis = yield from analyser.update_steps(record)
    finally:
        with _ANALYSERS_LOCK:
            _BUSY.discard(id(analyser))
    explain: Texts = {"en": A.explain(result, lang="en"), "nl": A.explain(result, lang="nl")}
    return result, explain


def _analyser(key: tuple[Any, ...], settings: Mapping[str, Any],
              cancel: Callable[[], bool]) -> Analyser:
    """The analyser of the line of play `key` = (widget, generation), marked in use. A new
    line (an undo, the switch turned off and on) takes over the widget's last analyser when it
    was made alike and is idle: it judges again only from where the record changed (its rows
    before stay). Else a new one (analyse()'s defaults where no budget is given)."""
    from ..rollouts import analysis as A
    from ..rollouts.analysis.checks import check_cancel

    chosen = {k: settings[k] for k in ("rollouts", "chance_rollouts")
              if settings.get(k) is not None}
    made = (settings["seed"], settings["thresholds"], settings["lang"],
            tuple(sorted(chosen.items())))
    with _ANALYSERS_LOCK:
        entry = _ANALYSERS.get(key)
        if entry is None:
            older = [v for k, v in _ANALYSERS.items()
                     if k[0] == key[0] and v[1] == made and id(v[0]) not in _BUSY]
            entry = older[-1] if older else (A.Analyser(
                seed=settings["seed"], thresholds=settings["thresholds"],
                lang=settings["lang"], latest_first=True, **chosen), made)
            _forget(_ANALYSERS, key)  # one line of play a widget
            _ANALYSERS[key] = entry
        analyser: Analyser = entry[0]
        _BUSY.add(id(analyser))
        analyser.cancel = check_cancel(cancel)  # this job's generation
        return analyser


def roll_map_steps(record: dict[str, Any], settings: Mapping[str, Any]) -> Steps[RollMap]:
    from ..engine.game import Game
    from ..rollouts import analysis as A

    return A.rollmap.roll_map_steps(Game.replay(record), rollouts=settings["rollouts"],
                                    seed=settings["seed"])


def _forget(cache: dict[tuple[Any, ...], Any], key: tuple[Any, ...]) -> None:
    """Drop the widget's older lines of play (`key` = (widget, generation)); other widgets'
    stay (several boards in one kernel share the worker in the browser site)."""
    for old in [k for k in cache if k[0] == key[0] and k != key]:
        del cache[old]


def _steps_of(engine: str, *args: Any) -> Steps[Any]:
    """The steps of the function named `engine` called with `args` (a function that returns
    its result at once is one step)."""
    out = _load(engine)(*args)
    if inspect.isgenerator(out):
        return (yield from out)
    return out


# A job's part of the record: the record without its actions (only with the first job of a
# line of play: a custom board's XML is large), where the new actions start, the new actions
# (their compact text form) and the testing steps.
Part = tuple["dict[str, Any] | None", int, list[Any], list[Any]]
_RECORDS: dict[tuple[Any, ...], dict[str, Any]] = {}


def _record(key: tuple[Any, ...], part: Part) -> dict[str, Any]:
    """The worker's copy of the line of play's record, brought up to date by `part`."""
    base, start, actions, injections = part
    with _ANALYSERS_LOCK:
        if base is not None:
            _forget(_RECORDS, key)
            _RECORDS[key] = {**base, "actions": []}
        record = _RECORDS.get(key)
        if record is None or len(record["actions"]) < start:
            raise RuntimeError("the analysis worker lost the game's record (restarted?): "
                               "the next position sends it whole")
        del record["actions"][start:]
        record["actions"].extend(actions)
        record["injections"] = injections
        return {**record, "actions": list(record["actions"])}


def run_analysis_steps(engine: str, key: tuple[Any, ...], generation: int, part: Part,
                       settings: Mapping[str, Any], shared: Any = None
                       ) -> Steps[tuple[GameAnalysis, Texts]]:
    """A job in the worker: the record (only what is new goes down the pipe) analysed by
    `engine`; it gives up early once the widget has moved on to another generation (an
    undo, another game), read from `shared` (else the worker's own number)."""
    def cancel() -> bool:
        number = shared if shared is not None else _GENERATION
        return number is not None and number.value != generation

    record = _record(key, part)
    return cast("tuple[GameAnalysis, Texts]",
                (yield from _steps_of(engine, key, record, settings, cancel)))


def run_analysis(engine: str, key: tuple[Any, ...], generation: int, part: Part,
                 settings: Mapping[str, Any]) -> tuple[GameAnalysis, Texts]:
    from ..rollouts.slices import finish

    return finish(run_analysis_steps(engine, key, generation, part, settings))


def run_roll_map_steps(engine: str, record: dict[str, Any], settings: Mapping[str, Any],
                       stale: Callable[[], bool] = lambda: False) -> Steps[RollMap | None]:
    """The roll map's steps; None once `stale()` (the position left behind: the browser's
    slices stop there, as nothing of it would be shown)."""
    steps = _steps_of(engine, record, settings)
    while True:
        if stale():
            steps.close()
            return None
        try:
            next(steps)
        except StopIteration as stop:
            return cast("RollMap", stop.value)
        yield


def run_roll_map(engine: str, record: dict[str, Any], settings: Mapping[str, Any]) -> RollMap:
    from ..rollouts.slices import finish

    return cast("RollMap", finish(_steps_of(engine, record, settings)))


def _start_worker(generation: Any, nice: bool) -> None:
    """The worker's first step: where to read the widget's generation; a process gives way
    to the kernel, the server and the browser."""
    global _GENERATION
    _GENERATION = generation
    if nice:
        import os

        try:
            os.nice(10)
        except (AttributeError, OSError):
            pass


def make_executor(worker: str) -> tuple[cf.Executor | SlicedExecutor, Any]:
    """One worker, a process where there are processes (``"auto"``), else a thread, and
    where there are no threads (the browser site) slices of the event loop; and the shared
    generation number it reads."""
    import multiprocessing

    from ..rollouts.live_process import processes_available
    from ..rollouts.slices import SlicedExecutor, event_loop, threads_available

    if worker == "slices" or (worker == "auto" and not threads_available()):
        return SlicedExecutor(event_loop()), _Generation()
    if worker == "process" or (worker == "auto" and processes_available()):
        method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() \
            else "spawn"
        context = multiprocessing.get_context(method)
        generation = context.RawValue("q", 0)
        return cf.ProcessPoolExecutor(max_workers=1, mp_context=context,
                                      initializer=_start_worker,
                                      initargs=(generation, True)), generation
    generation = _Generation()
    return cf.ThreadPoolExecutor(max_workers=1, thread_name_prefix="ugw-analysis",
                                 initializer=_start_worker,
                                 initargs=(generation, False)), generation


class _Generation:
    """What a shared ``RawValue("q")`` has, for a worker thread or the slices."""

    value: int = 0


# ---------------------------------------------------------------------- the widget's side


class AnalysisDisplay:
    """``show_analysis``, ``show_roll_map``, ``position_at`` and their traits (see the module
    docstring)."""

    # what the view's switch and roll map button use (a test names a stand-in)
    analysis_engine: str = ENGINE
    roll_map_engine: str = ROLL_MAP
    analysis_worker: str = "auto"  # or "process", "thread", "slices" (the browser's)
    # None: analyse()'s defaults, in slices (the browser site) the BROWSER_* ones
    analysis_rollouts: int | None = None  # per choice
    analysis_chance_rollouts: int | None = None  # per outcome of a roll or card
    roll_map_rollouts: int | None = None  # per outcome of the 36 (ROLL_MAP_ROLLOUTS)
    _an_executor: cf.Executor | SlicedExecutor | None
    _an_budget: dict[str, Any]  # {"browser", "rollouts", "chance_rollouts"}: what is played
    _an_shared: Any  # the generation as the worker reads it
    _an_settings: dict[str, Any]
    _an_loop: asyncio.AbstractEventLoop | None
    _an_lock: threading.Lock
    _an_generation: int
    _an_base: tuple[Any, ...] | None  # what identifies the line of play analysed
    _an_running: cf.Future[Any] | None
    _an_dirty: bool
    _an_done: threading.Event
    _an_result: GameAnalysis | None
    _rm_id: int
    _an_pending: list[tuple[cf.Future[Any], int, int, int]]
    _an_sent: tuple[tuple[Any, ...], int] | None  # the line of play and actions sent so far

    if TYPE_CHECKING:  # provided by the widget
        _game: Game | None
        _seq: int
        _game_start: int
        analysis: Any
        roll_map: Any
        lang: str
        seats: Any

        def _report(self, message: str) -> None: ...
        def _check_seq(self, content: dict[str, Any]) -> None: ...
        def send(self, content: Any, buffers: Any = None) -> None: ...

    def _init_analysis(self) -> None:
        self._an_executor = None
        self._an_budget = {}
        self._an_shared = None
        self._an_settings = {}
        self._an_loop = None
        self._an_lock = threading.Lock()
        self._an_generation = 0
        self._an_base = None
        self._an_running = None
        self._an_dirty = False
        self._an_done = threading.Event()
        self._an_result = None
        self._rm_id = 0
        self._an_pending = []
        self._an_sent = None

    @property
    def analysis_shown(self) -> bool:
        return self._an_executor is not None

    @property
    def analysis_result(self) -> GameAnalysis | None:
        """The latest analysis of the game shown (None: off, or none yet)."""
        return self._an_result

    def show_analysis(self, show: bool = True, *, rollouts: int | None = None,
                      chance_rollouts: int | None = None,
                      thresholds: Thresholds | tuple[float, float, float] | None = None,
                      seed: int = 0,
                      worker: str | None = None, engine: str | None = None) -> None:
        """Analyse the game as it goes, in the background (``rollouts`` per option of each
        decision, ``chance_rollouts`` per outcome of a roll or card; None: the defaults of
        :func:`~ugentopoly_widget.rollouts.analysis.analyse`, in the browser site's slices
        ``BROWSER_ROLLOUTS`` and ``BROWSER_CHANCE_ROLLOUTS``), into
        ``w.analysis``: the last decision's verdict and the last roll's luck under the win
        bar, the Analysis tab's chart, summary and biggest mistakes. ``False`` stops it and
        clears the trait. Bad settings raise ValueError."""
        worker = self.analysis_worker if worker is None else worker
        engine = self.analysis_engine if engine is None else engine
        rollouts = self.analysis_rollouts if rollouts is None else rollouts
        if chance_rollouts is None:
            chance_rollouts = self.analysis_chance_rollouts
        if not isinstance(show, bool):
            raise ValueError(f"show_analysis takes True or False, not {show!r}")
        if not show:
            self._stop_analysis()
            self.analysis = {}
            return
        for name, value in (("rollouts", rollouts), ("chance_rollouts", chance_rollouts)):
            if value is not None and not is_int(value, 1, MAX_ROLLOUTS):
                raise ValueError(f"{name} is a number from 1 to {MAX_ROLLOUTS}, not {value!r}")
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise ValueError(f"seed is a non-negative integer, not {seed!r}")
        if worker not in WORKERS:
            raise ValueError(f"worker is 'auto', 'thread', 'process' or 'slices', not "
                             f"{worker!r}")
        from ..rollouts.analysis.core import DEFAULT_CHANCE_ROLLOUTS, DEFAULT_ROLLOUTS
        from ..rollouts.analysis.results import Thresholds
        from ..rollouts.slices import threads_available

        sliced = worker == "slices" or (worker == "auto" and not threads_available())
        if sliced and rollouts is None:
            rollouts = BROWSER_ROLLOUTS
        if sliced and chance_rollouts is None:
            chance_rollouts = BROWSER_CHANCE_ROLLOUTS

        if thresholds is None:
            thresholds = Thresholds()
        elif isinstance(thresholds, (tuple, list)) and len(thresholds) == 3:
            thresholds = Thresholds(*thresholds)
        if not isinstance(thresholds, Thresholds) or not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) for v in
                (thresholds.inaccuracy, thresholds.mistake, thresholds.blunder)) or not (
                0 < thresholds.inaccuracy < thresholds.mistake < thresholds.blunder):
            raise ValueError("thresholds are three numbers of points, 0 < inaccuracy < "
                             f"mistake < blunder, such as (2, 5, 10), not {thresholds!r}")
        _load(engine)  # a name that does not import fails here, not in the worker
        self._stop_analysis()  # (bad settings above leave a running analysis as it was)
        self._an_settings = {"rollouts": rollouts, "chance_rollouts": chance_rollouts,
                             "seed": seed, "thresholds": thresholds,
                             "lang": self.lang, "engine": engine}
        self._an_executor, self._an_shared = make_executor("slices" if sliced else worker)
        played = rollouts if rollouts is not None else DEFAULT_ROLLOUTS
        self._an_budget = {"browser": sliced, "rollouts": played, "chance_rollouts": (
            chance_rollouts if chance_rollouts is not None
            else max(1, played * DEFAULT_CHANCE_ROLLOUTS // DEFAULT_ROLLOUTS))}
        try:
            self._an_loop = asyncio.get_running_loop()
        except RuntimeError:
            self._an_loop = getattr(self._an_executor, "loop", None)  # (the slices' own)
        self._an_base = None
        self.analysis = self._an_waiting()
        self._refresh_analysis()

    def _an_waiting(self) -> dict[str, Any]:
        return {"on": True, "status": "waiting", "seq": self._seq, **self._an_budget}

    def _hold_analysis(self) -> None:
        """A click from the view: in the browser's slices, the analysis rests while it is
        answered (the win bar's does too)."""
        from ..rollouts.slices import SlicedExecutor

        if isinstance(self._an_executor, SlicedExecutor):
            self._an_executor.hold(HOLD_SECONDS)

    def wait_analysis(self, timeout: float | None = None) -> dict[str, Any]:
        """Wait until the game as it is now is analysed and return the trait's value (a
        script's or a test's way; a view needs no waiting). TimeoutError when it is not."""
        import time

        end = None if timeout is None else time.monotonic() + timeout
        while self._an_executor is not None:
            self._an_deliver_pending()
            value: dict[str, Any] = self.analysis
            game = self._game
            if (value.get("status") in ("done", "error") and game is not None
                    and value.get("seq") == self._seq and self._an_running is None):
                return value
            left = None if end is None else end - time.monotonic()
            if left is not None and left <= 0:
                raise TimeoutError("the analysis did not finish in time")
            self._an_done.wait(0.05 if left is None else min(0.05, left))
        result: dict[str, Any] = self.analysis
        return result

    def _stop_analysis(self) -> None:
        executor, self._an_executor = self._an_executor, None
        self._an_next_generation()  # whatever is on its way is left behind
        with self._an_lock:
            self._an_running = None
            self._an_pending = []
        self._an_result = None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)

    # ------------------------------------------------------------------ following the game

    def _refresh_analysis(self) -> None:
        """After each published state: a new position for the analysis (a job, or the next)."""
        game = self._game
        if self._an_executor is None or game is None:
            return
        actions = len(game._actions)
        last = game._actions[-1] if actions else None
        # the same line of play: the same game, and the action last analysed still in its
        # place (an undo, or an undo and another choice, starts a new one; a testing step
        # changes what comes next, not what was analysed)
        previous = self._an_base
        same = (previous is not None and previous[0] == id(game) and previous[1] <= actions
                and (previous[1] == 0 or game._actions[previous[1] - 1] == previous[2]))
        if not same:
            self._an_next_generation()
            self._an_result = None
            self.analysis = self._an_waiting()
        elif previous is not None and actions == previous[1] \
                and self.analysis.get("status") != "waiting":
            return  # the same position (a state re-sent): nothing new to analyse
        self._an_base = (id(game), actions, last)
        with self._an_lock:
            if self._an_running is not None:
                self._an_dirty = True  # taken when the running job ends
                return
        self._an_submit()

    def _an_next_generation(self) -> None:
        """Another line of play: results on their way are dropped, and the worker's job
        gives up at its next check (the shared number)."""
        with self._an_lock:
            self._an_generation += 1
            if self._an_shared is not None:
                self._an_shared.value = self._an_generation

    def _an_submit(self) -> None:
        from ..rollouts.slices import SlicedExecutor

        game, executor = self._game, self._an_executor
        if game is None or executor is None:
            return
        settings = self._an_settings
        with self._an_lock:
            generation = self._an_generation
            self._an_dirty = False
            self._an_done.clear()
            key = (id(self), generation)
            sent = self._an_sent if self._an_sent is not None and self._an_sent[0] == key \
                else None
            start = sent[1] if sent is not None else 0
            base = None
            if sent is None:  # the first job of this line of play: the record's setup
                base = game.record()
                del base["actions"]
            part: Part = (base, start, encode_actions(game._actions[start:]),
                          [{"at": at, "op": op, "args": args}
                           for at, op, args in game._injections])
            try:
                if isinstance(executor, SlicedExecutor):  # the steps, and its own number
                    future = executor.submit(run_analysis_steps, settings["engine"], key,
                                             generation, part, settings, self._an_shared)
                else:
                    future = executor.submit(run_analysis, settings["engine"], key,
                                             generation, part, settings)
            except RuntimeError:  # shut down meanwhile
                return
            self._an_running = future
            self._an_sent = (key, len(game._actions))
        seq, actions = self._seq, len(game._actions)
        future.add_done_callback(lambda f: self._an_finished(f, generation, seq, actions))

    def _an_finished(self, future: cf.Future[Any], generation: int, seq: int,
                     actions: int) -> None:
        """In a worker's thread: the job's result goes to the kernel's loop (or waits for
        the widget's next use)."""
        with self._an_lock:
            if future is self._an_running:
                self._an_running = None
            self._an_pending.append((future, generation, seq, actions))
        loop = self._an_loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(self._an_deliver_pending)
            except RuntimeError:
                pass
        self._an_done.set()

    def _an_deliver_pending(self) -> None:
        with self._an_lock:
            pending, self._an_pending = self._an_pending, []
        for future, generation, seq, actions in pending:
            self._an_deliver(future, generation, seq, actions)
        with self._an_lock:
            again = self._an_dirty and self._an_running is None
        if again:
            self._an_submit()

    def _an_deliver(self, future: cf.Future[Any], generation: int, seq: int,
                    actions: int) -> None:
        if generation != self._an_generation or self._an_executor is None:
            return  # of a line of play left behind (new game, undo) or switched off
        if future.cancelled():
            return
        exc = future.exception()
        if exc is not None:
            self._an_sent = None  # the next job sends the whole record
            text = f"{type(exc).__name__}: {exc}"
            self.analysis = {"on": True, "status": "error", "seq": seq,
                             "text": {"en": f"no analysis: {text}",
                                      "nl": f"geen analyse: {text}"}}
            self._report(f"analysis: {text}")
            return
        result, explain = future.result()
        self._an_result = result
        now = len(self._game._actions) if self._game is not None else actions
        if result.upto < now:  # the newest judged, older points left: the next job goes on
            with self._an_lock:
                self._an_dirty = True
        try:
            self.analysis = dict(analysis_payload(
                result, seq=seq, actions=now, explain=explain,
                status="done" if result.upto >= now else "running",
                browser=bool(self._an_budget.get("browser"))))
        except Exception as exc:  # never into the event loop
            self._report(f"analysis: {type(exc).__name__}: {exc}")

    # ------------------------------------------------------------------ the roll map

    def show_roll_map(self, *, rollouts: int | None = None, seed: int = 0,
                      engine: str | None = None) -> RollMap:
        """The 36-roll map of the player about to roll (each outcome's landing tile and
        chance to win after it), shown in the Analysis tab and returned. Raises RequestError
        when nobody is about to roll."""
        rollouts = self._rm_rollouts() if rollouts is None else rollouts
        engine = self.roll_map_engine if engine is None else engine
        game = self._game
        if game is None or not any(a.type == "roll" for a in game.legal_actions()):
            raise RequestError("the roll map is for a player about to roll: nobody is")
        if not is_int(rollouts, 1, MAX_ROLLOUTS):
            raise ValueError(f"rollouts is a number from 1 to {MAX_ROLLOUTS}, not {rollouts!r}")
        result = run_roll_map(engine, game.record(), {"rollouts": rollouts, "seed": seed})
        self._rm_id += 1
        self._set_roll_map(self._seq, result)
        return result

    def _rm_rollouts(self) -> int:
        """Per outcome: the widget's setting, else the default where it runs."""
        from ..rollouts.slices import threads_available

        if self.roll_map_rollouts is not None:
            return self.roll_map_rollouts
        return ROLL_MAP_ROLLOUTS if threads_available() else BROWSER_ROLL_MAP_ROLLOUTS

    def _set_roll_map(self, seq: int, result: RollMap) -> None:
        game = self._game
        if game is None:
            return
        board = game.board
        names: dict[int, Texts] = {
            pos: {"en": board.tile_name(pos, "en"), "nl": board.tile_name(pos, "nl")}
            for pos in range(board.size)}
        from ..rollouts.slices import threads_available

        self.roll_map = dict(roll_map_payload(
            result, seq=seq, name=game.players[result.player].name,
            sides=game.rules.dice_sides, tile_names=names,
            browser=not threads_available()))

    def _request_roll_map(self, content: dict[str, Any]) -> None:
        """``{"type": "roll_map", "seq": n}``: worked out in the worker, shown if the game is
        still at that state."""
        from ..rollouts.slices import SlicedExecutor

        self._check_seq(content)
        game = self._game
        if game is None or not any(a.type == "roll" for a in game.legal_actions()):
            raise RequestError("refused: the roll map is for a player about to roll")
        executor = self._an_executor or make_executor(self.analysis_worker)[0]
        own = executor is not self._an_executor
        self._rm_id += 1
        ident, seq = self._rm_id, self._seq
        self.roll_map = {"seq": seq, "status": "working",
                         "text": {"en": "working out the 36 rolls …",
                                  "nl": "de 36 worpen worden berekend …"}}
        settings = {"rollouts": self._rm_rollouts(), "seed": 0}
        if isinstance(executor, SlicedExecutor):  # steps that stop once left behind
            future = executor.submit(run_roll_map_steps, self.roll_map_engine, game.record(),
                                     settings, lambda: ident != self._rm_id or seq != self._seq)
        else:
            future = executor.submit(run_roll_map, self.roll_map_engine, game.record(),
                                     settings)
            if own:
                executor.shutdown(wait=False)
        loop = self._an_loop_now()

        def done(f: cf.Future[Any]) -> None:
            def apply() -> None:
                if ident != self._rm_id or seq != self._seq or f.cancelled():
                    return  # a position left behind: never shown
                exc = f.exception()
                if exc is not None:
                    self.roll_map = {"seq": seq, "status": "error", "text": {
                        "en": f"no roll map: {exc}", "nl": f"geen worpenkaart: {exc}"}}
                    return
                self._set_roll_map(seq, f.result())
            if loop is not None and not loop.is_closed():
                loop.call_soon_threadsafe(apply)
            else:
                apply()
        future.add_done_callback(done)

    def _an_loop_now(self) -> asyncio.AbstractEventLoop | None:
        try:
            return asyncio.get_running_loop()
        except RuntimeError:
            return self._an_loop

    # ------------------------------------------------------------------ a past position

    def position_at(self, index: int) -> PositionMessage:
        """The position before action `index` of the game's record, as the view draws a
        state (read-only: nothing is legal in it). ValueError for an index not in the game."""
        from .data import LogCache, state_snapshot

        game = self._game
        if game is None:
            raise ValueError("no game yet: start one first")
        if not is_int(index, 0, len(game._actions)):
            raise ValueError(f"there is no position before action {str(index)[:20]} in this "
                             f"game (it has {len(game._actions)} actions)")
        past = type(game).replay(game.record(), upto=index)
        state = state_snapshot(past, self._seq, self.lang, list(self.seats), LogCache(), 0,
                               game_start=self._game_start)
        state["legal"] = []
        state["can_undo"] = False
        state["can_trade"] = False
        turn = past.turn_number
        who = past.decision.player
        name = past.players[who].name if who is not None else "?"
        return {"type": "position", "index": index, "turn": turn, "state": state,
                "seq": self._seq,
                "text": {"en": f"Turn {turn}, {name} to decide (move {index + 1} of the game): "
                               "nothing can be played here",
                         "nl": f"Beurt {turn}, {name} beslist (zet {index + 1} van het spel): "
                               "hier kan niets gespeeld worden"}}

    def _request_position(self, content: dict[str, Any]) -> None:
        """``{"type": "position", "index": i, "seq": n}``: a PositionMessage to this view."""
        self._check_seq(content)
        try:
            message = self.position_at(content["index"])
        except ValueError as exc:
            raise RequestError(f"refused: {exc}") from None
        self.send(message)

    def _request_analysis(self, content: dict[str, Any]) -> None:
        """``{"type": "analysis", "on": bool}`` from the Analysis tab."""
        if not isinstance(content["on"], bool):
            raise RequestError("refused: on is true or false")
        self.show_analysis(content["on"])


__all__ = ["AnalysisDisplay", "analyse_steps", "roll_map_steps",
           "BROWSER_ROLLOUTS", "BROWSER_CHANCE_ROLLOUTS", "BROWSER_ROLL_MAP_ROLLOUTS"]
