"""``analyse()`` and the :class:`Analyser`: a game's record judged point by point.

The analyser walks its own copy of the game forward through the record (never back) and
notes the points to judge (:mod:`.walk`); their rollouts run in jobs (:mod:`.playout`) in
this process, on worker processes, a concurrent.futures executor or a Dask client; the rows
are made from the values (:mod:`.figures`). Called again on a game that went on, it judges
only the actions since; a record changed before that (an undo) is judged again from there.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Sequence
from concurrent.futures import Executor, Future
from typing import Any

from ...engine.game import Game
from ...engine.records import loading
from ...engine.records.savefile import decode_actions, encode_actions
from ..runner import DEFAULT_MAX_TURNS, BotSpec
from .checks import (
    Cancel,
    check_cancel,
    check_horizon,
    check_lang,
    check_progress,
    check_rollouts,
    check_settings,
    check_thresholds,
    fit_bots,
    source_record,
)
from .errors import AnalysisError
from .evaluate import Evaluator
from .figures import chance_row, decision_row, summaries
from .playout import Job, Point, Walker, finish, run_job, run_job_steps, setup_of
from .results import ChanceRow, DecisionRow, GameAnalysis, Thresholds
from .walk import Finder, Meta

# The defaults: a whole 150-turn game in well under a minute on 2 cores, a decision's loss to
# within about 2 points (docs/analysis.md, Figures).
DEFAULT_ROLLOUTS = 48  # per choice of a decision
DEFAULT_CHANCE_ROLLOUTS = 8  # per outcome of a roll or a card (paired over the 36 outcomes)
DEFAULT_HORIZON = 6  # turns played on before the position is valued
JOB_WORK = 2000  # branch-rollouts a job on a pool holds at most (a few tenths of a second)
# Live (latest_first): the points of older actions an update judges after the newest ones, so
# that a new position waits for at most this many (the widget's analysis switched on late in a
# game: the whole backlog first kept the live verdict waiting for minutes in the browser).
LIVE_BACKLOG = 12


class Analyser:
    """Judges a game as it goes: each :meth:`update` analyses the actions played since the
    last one and returns the whole :class:`GameAnalysis` so far.

    >>> from ugentopoly_widget import Game
    >>> game = Game.scenario("classic", players=["Ann", "Bob"], owners={16: 0, 18: 0},
    ...                      positions={"Ann": 14}, current="Ann")
    >>> game.testing.script_dice((2, 3))      # Ann lands on the last orange lot ...
    >>> _ = game.act("roll"); _ = game.act("decline")     # ... and declines it
    >>> analyser = Analyser(game, rollouts=36, chance_rollouts=4)
    >>> row = analyser.update().decisions[0]
    >>> row.chosen.description, row.best.description, row.verdict
    ('decline New York Avenue', 'buy New York Avenue', 'blunder')
    """

    def __init__(self, game: Any = None, *, rollouts: int = DEFAULT_ROLLOUTS,
                 chance_rollouts: int | None = None,
                 thresholds: Thresholds | Sequence[float] = (2, 5, 10),
                 bots: BotSpec | Sequence[BotSpec] = "strong", seed: int = 0,
                 horizon: int | None = DEFAULT_HORIZON, executor: Any = None,
                 workers: int | None = None, lang: str = "en", progress: Any = None,
                 cancel: Any = None, confidence: float = 0.95,
                 latest_first: bool = False) -> None:
        self.rollouts = check_rollouts(rollouts)
        self.chance_rollouts = check_rollouts(
            chance_rollouts if chance_rollouts is not None
            else max(1, self.rollouts * DEFAULT_CHANCE_ROLLOUTS // DEFAULT_ROLLOUTS),
            "chance_rollouts")
        self.thresholds = check_thresholds(thresholds)
        self.horizon = check_horizon(horizon)
        self.lang = check_lang(lang)
        self.lineup, self.seed, self.executor = check_settings(bots=bots, seed=seed,
                                                               executor=executor)
        if workers is not None and (not isinstance(workers, int) or workers < 1):
            raise AnalysisError(f"workers is None or a positive integer, not {workers!r}")
        if not isinstance(confidence, float) or not 0 < confidence < 1:
            raise AnalysisError(f"confidence is a number between 0 and 1, not {confidence!r}")
        if not isinstance(latest_first, bool):
            raise AnalysisError(f"latest_first is True or False, not {latest_first!r}")
        self.workers = workers
        self.confidence = confidence
        self.latest_first = latest_first
        self.progress = check_progress(progress)
        self.cancel = check_cancel(cancel)
        self.game = game
        self._key = ""
        self._finder: Finder | None = None
        self._bots: tuple[BotSpec, ...] = ()
        self._pending: list[tuple[Point, Meta]] = []
        self._decisions: dict[int, DecisionRow] = {}
        self._chances: dict[tuple[int, int], ChanceRow] = {}
        self._record: dict[str, Any] = {}
        self.points_evaluated = 0  # points judged so far (rows made), for the curious
        self.playouts = 0  # branch-rollouts played so far

    # ------------------------------------------------------------------ the record

    def _start(self, record: dict[str, Any], keep: int = 0) -> None:
        """A new walk from the record's start; the rows of the points before action `keep`
        stay (the record is the same up to there: they are not judged again)."""
        key, setup = setup_of(record)
        seats = len(record.get("players", []))
        self._bots = fit_bots(self.lineup, seats)
        self._key = key
        self._finder = Finder(setup, self._bots, self.seed, self.rollouts,
                              self.chance_rollouts, self.lang)
        self._pending = []
        self._decisions = {i: r for i, r in self._decisions.items() if i < keep}
        self._chances = {k: r for k, r in self._chances.items() if k[0] < keep}

    def _follow(self, record: dict[str, Any]) -> Generator[None, None, None]:
        """Walk the record on from where the finder is (a step per action): the new points
        become pending. A record that no longer continues what was walked (an undo) is
        walked again from its start, and judged again from where it changed; another game
        starts over."""
        key, _ = setup_of(record)
        actions = decode_actions(list(record["actions"]))
        compact = encode_actions(actions)
        injections = loading.injections_of(record)
        finder = self._finder
        if finder is None or key != self._key:
            self._start(record)
        elif not finder.walker.fits(compact, injections):
            self._start(record, _changed_at(finder.walker, compact, injections))
        finder = self._finder
        assert finder is not None
        while finder.walker.applied < len(actions):
            for point, meta in finder.step(actions, compact, injections):
                done = (meta.index in self._decisions if meta.kind == "decision"
                        else (meta.index, meta.seq) in self._chances)
                if not done:
                    self._pending.append((point, meta))
            yield
        self._record = record

    # ------------------------------------------------------------------ running

    def update(self, game: Any = None) -> GameAnalysis:
        """Judge what was played since the last call (the game given when made, or `game`:
        a Game, its record or a save file's path) and return the analysis so far.
        Cancelled (the `cancel` event set), it returns what it has, ``complete=False``; the
        next call goes on from there."""
        if self.executor is None:  # in this process: the steps of update_steps at once
            return finish(self.update_steps(game))
        finish(self._follow(self._source(game)))
        cancelled = self._run()
        return self.analysis(complete=not cancelled)

    def update_steps(self, game: Any = None) -> Generator[None, None, GameAnalysis]:
        """:meth:`update` in this process (whatever the executor), a ``yield`` after each
        action walked and each playout: the browser site runs it in slices of its event loop
        (``rollouts/slices.py``). The figures are :meth:`update`'s (rollout k of a point
        depends on the seed, the point and k alone). `cancel` is asked at every step.

        ``latest_first`` (the widget's live analysis): the newest decision and the newest
        roll's points are judged first, then at most ``LIVE_BACKLOG`` older points; the rest
        stay pending (``upto`` says how far it is complete) for the next call."""
        yield from self._follow(self._source(game))
        total = len(self._pending) + self.points_evaluated
        for item in self._this_call():
            steps = run_job_steps(self._job([item]))
            while True:
                if self.cancel is not None and self.cancel():
                    steps.close()
                    return self.analysis(complete=False)
                try:
                    next(steps)
                except StopIteration as stop:
                    values: Results = stop.value
                    break
                yield
            self._take([item], values, total)
        return self.analysis()

    def _this_call(self) -> list[tuple[Point, Meta]]:
        """The pending points an update_steps call judges, in order (see there)."""
        pending = list(self._pending)
        if not self.latest_first:
            return pending
        decisions = [item for item in pending if item[1].kind == "decision"]
        chances = [item for item in pending if item[1].kind != "decision"]
        newest: list[tuple[Point, Meta]] = []
        if decisions and decisions[-1][1].index > max(self._decisions, default=-1):
            newest.append(decisions[-1])
        if chances and chances[-1][1].index > max((k[0] for k in self._chances), default=-1):
            newest += [item for item in chances if item[1].index == chances[-1][1].index]
        chosen = {id(item) for item in newest}
        return newest + [item for item in pending if id(item) not in chosen][:LIVE_BACKLOG]

    def _source(self, game: Any) -> dict[str, Any]:
        """The record to judge (checked)."""
        source = game if game is not None else self.game
        if source is None:
            raise AnalysisError("there is no game to analyse: Analyser(game) or update(game)")
        record = source_record(source)
        if not record["actions"]:
            raise AnalysisError("the game has no record to analyse: nothing was played yet")
        if self._finder is None and self._bots == ():
            fit_bots(self.lineup, len(record["players"]))  # refused now if they do not fit
        return record

    def _jobs(self) -> list[list[tuple[Point, Meta]]]:
        if self.executor is None:
            return [[p] for p in self._this_call()]
        jobs: list[list[tuple[Point, Meta]]] = []
        work = 0
        for item in self._this_call():
            cost = item[0].rollouts * len(item[0].branches)
            if not jobs or work + cost > JOB_WORK:
                jobs.append([])
                work = 0
            jobs[-1].append(item)
            work += cost
        return jobs

    def _job(self, items: list[tuple[Point, Meta]]) -> Job:
        record = self._record
        last = max(p.index for p, _ in items)
        actions = tuple(encode_actions(decode_actions(list(record["actions"][:last]))))
        injections = tuple(i for i in loading.injections_of(record) if i[0] <= last)
        _, setup = setup_of(record)
        return Job(self._key, setup, actions, injections, tuple(p for p, _ in items),
                   self._bots, self.horizon, DEFAULT_MAX_TURNS)

    def _run(self) -> bool:
        """Judge the pending points, in order; True when cancelled before the end."""
        groups = self._jobs()
        total = len(self._pending) + self.points_evaluated

        def done(g: int, values: list[list[list[float]]]) -> None:
            self._take(groups[g], values, total)

        return run_jobs([self._job(g) for g in groups], self.executor, self.workers,
                        self.cancel, done) is None

    def _take(self, items: list[tuple[Point, Meta]], values: list[list[list[float]]],
              total: int) -> None:
        for (point, meta), figures in zip(items, values, strict=True):
            if meta.kind == "decision":
                self._decisions[meta.index] = decision_row(meta, figures, self.thresholds)
            else:
                self._chances[(meta.index, meta.seq)] = chance_row(meta, figures)
            self.points_evaluated += 1
            self.playouts += point.rollouts * len(point.branches)
        done = {id(item) for item in items}
        self._pending = [item for item in self._pending if id(item) not in done]
        if self.progress is not None:
            self.progress(self.points_evaluated, total)

    # ------------------------------------------------------------------ the result

    def analysis(self, complete: bool = True) -> GameAnalysis:
        """The analysis so far (the rows judged, in the record's order)."""
        finder = self._finder
        if finder is None:
            raise AnalysisError("nothing analysed yet: call update()")
        game = finder.game
        names = [p.name for p in game.players]
        results = _results(game)
        decisions = [self._decisions[i] for i in sorted(self._decisions)]
        chances = [self._chances[k] for k in sorted(self._chances)]
        first = min((p.index for p, _ in self._pending), default=finder.walker.applied)
        return GameAnalysis(
            summaries(names, results, decisions, chances, self.confidence), decisions,
            chances, self.thresholds, first, complete and not self._pending and game.is_over,
            {"rollouts": self.rollouts, "chance_rollouts": self.chance_rollouts,
             "seed": self.seed, "horizon": self.horizon, "lang": self.lang,
             "bots": [b if isinstance(b, str) else getattr(b, "__name__", str(b))
                      for b in self._bots],
             "confidence": self.confidence, "points": self.points_evaluated,
             "playouts": self.playouts, "cancelled": not complete})


Results = list[list[list[float]]]


def run_jobs(jobs: Sequence[Job], executor: Any, workers: int | None,
             cancel: Cancel | None = None,
             done: Callable[[int, Results], None] | None = None) -> list[Results] | None:
    """Every job's values, in order (None when cancelled first), on the executor; `done(j,
    values)` is told of each job as it comes in, in order. Ctrl-C or an error stops the
    workers of a pool made here at once."""
    out: list[Results] = []

    def take(j: int, values: Results) -> None:
        out.append(values)
        if done is not None:
            done(j, values)

    if executor is None:
        for j, job in enumerate(jobs):
            if cancel is not None and cancel():
                return None
            take(j, run_job(job))
        return out
    # (imported here: the browser site, without numpy, runs in this process only)
    from ...simulation.executors import (
        default_workers,
        is_dask_client,
        new_process_pool,
        stop_pool,
    )

    if is_dask_client(executor):
        futures: list[Any] = [executor.submit(run_job, job, pure=False) for job in jobs]
        try:
            for j, future in enumerate(futures):
                if _cancelled(future, cancel):
                    executor.cancel([f for f in futures if not f.done()])
                    return None
                take(j, future.result())
        except BaseException:
            executor.cancel([f for f in futures if not f.done()])
            raise
        return out
    owned = isinstance(executor, str)
    pool: Executor = new_process_pool(workers or default_workers()) if owned else executor
    pending: list[Future[Results]] = []
    stopped = False
    try:
        pending = [pool.submit(run_job, job) for job in jobs]
        for j, future in enumerate(pending):
            if _cancelled(future, cancel):
                stopped = True
                return None
            take(j, future.result())
    except BaseException:
        stopped = True
        raise
    finally:
        if stopped:
            for f in pending:
                f.cancel()
            if owned:
                stop_pool(pool, owned=True)
        elif owned:
            pool.shutdown(wait=True)
    return out


def _changed_at(walker: Walker, actions: Sequence[Any], injections: Sequence[Any]) -> int:
    """The first action index at which the record differs from what `walker` walked."""
    at = next((i for i, (a, b) in enumerate(zip(walker.actions, actions, strict=False))
               if a != b), min(len(walker.actions), len(actions)))
    for mine, theirs in zip(walker.injections, injections, strict=False):
        if mine != tuple(theirs):
            return min(at, int(mine[0]), int(theirs[0]))
    if len(injections) < len(walker.injections):
        at = min(at, int(walker.injections[len(injections)][0]))
    return at


def _cancelled(future: Any, cancel: Cancel | None) -> bool:
    """Wait for `future` (a concurrent.futures or a Dask one) unless `cancel` says stop first
    (asked before the wait too: a result already in is not taken once cancelled)."""
    while cancel is not None:
        if cancel():
            return True
        if future.done():
            return False
        time.sleep(0.02)
    return False


def _results(game: Game) -> list[float]:
    """Each player's share of the win; for a game in progress, the evaluator's estimate."""
    return Evaluator()(game)


def analyse(game: Any, *, rollouts: int = DEFAULT_ROLLOUTS, chance_rollouts: int | None = None,
            thresholds: Thresholds | Sequence[float] = (2, 5, 10),
            bots: BotSpec | Sequence[BotSpec] = "strong", seed: int = 0,
            horizon: int | None = DEFAULT_HORIZON, executor: Any = None,
            workers: int | None = None, lang: str = "en", progress: Any = None,
            cancel: Any = None, confidence: float = 0.95) -> GameAnalysis:
    """Luck or skill: every decision of the game's record with more than one sensible choice
    judged by rollouts (each choice's chance for the decider, the loss against the best, a
    verdict by `thresholds` in points), every roll and card measured (its luck: the chance
    after it minus the exact mean over the outcomes), each player's sums.

    `game`: a Game (finished or in progress), its record or a save file's path. Each choice is
    played out `rollouts` times, each outcome of a roll or card `chance_rollouts` times (default
    a sixth of `rollouts`), on the same seeds (common random numbers), by `bots` for
    `horizon` turns and then valued by a calibrated model (``horizon=None``: to the end).
    `executor`: None, ``"processes"``, a concurrent.futures executor or a Dask client (the
    same figures on each). `cancel`: a threading.Event or a callable; once set, the analysis
    returns what it has (``complete=False``). Bad input raises :class:`AnalysisError`."""
    return Analyser(game, rollouts=rollouts, chance_rollouts=chance_rollouts,
                    thresholds=thresholds, bots=bots, seed=seed, horizon=horizon,
                    executor=executor, workers=workers, lang=lang, progress=progress,
                    cancel=cancel, confidence=confidence).update()


__all__ = ["Analyser", "analyse", "run_jobs", "DEFAULT_ROLLOUTS", "DEFAULT_CHANCE_ROLLOUTS",
           "DEFAULT_HORIZON"]
