"""Playing rollouts: from a copy of the position, each variant (the actions compared, applied
first) played to the end by freshly seeded bots, rollout by rollout, in this process or in
chunks on worker processes or a Dask cluster.

A :class:`Plan` is what a worker receives: the game's record (it rebuilds the position once per
process and keeps it), the bots, the seed, the cap, the variants. Rollout *k* depends on
(seed, k) alone, so the figures are the same whatever runs them, in whatever chunks.

Plain Python (lists): the browser site has no numpy, and the figures of a few thousand
rollouts cost microseconds next to the rollouts' milliseconds. Worker processes and Dask
(``simulation.executors``, which needs numpy) are imported when an executor is given.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import json
import numbers
import pickle
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Generator, Mapping, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Literal

from ..engine.actions import Action, action_from_dict
from ..engine.bots import BOTS, Bot, FewerCollections, HeuristicBot, make_bot, play_game
from ..engine.errors import IllegalActionError, InvalidActionError, UgentopolyError
from ..engine.game import Game
from ..engine.integers import as_integer
from ..engine.records.positions import PositionCopy
from ..engine.records.savefile import encode_actions
from ..engine.strong.bot import StrongBot
from ..simulation.settings import check_workers, is_dask_client
from .errors import RolloutError
from .streams import bot_seed, first_roll, rollout_seed, strata, stratum

AtCap = Literal["apart", "richest"]
DEFAULT_MAX_TURNS = 1000  # classic bot games end within ~400 turns; Ugentopoly's may not
BotSpec = str | Callable[..., Bot]
ProgressCallback = Callable[[int, int], None]


def _frozen_clock() -> float:
    return 0.0


# ------------------------------------------------------------------ checking the input

# A rollout keeps a few numbers per player (its outcome, its length) until the figures are
# made, and takes about a millisecond of a core: a million per choice compared is an hour of a
# core and ±0.05 points, far past any use (the live display's budget stops at 100,000). Above
# these counts a call is a mistake, refused before anything is allocated.
MAX_ROLLOUTS = 1_000_000  # per choice (variant) compared
MAX_PLAYOUTS = 10_000_000  # rollouts x choices in one call (action_values over many choices)
MAX_TURNS = 100_000  # the cap per rollout: a game that never ends (Ugentopoly) stops there
MIN_CHUNK = 36  # rollouts per chunk sent to a worker at least: one of each first roll


def check_rollouts(rollouts: object, what: str = "rollouts", most: int = MAX_ROLLOUTS) -> int:
    """A positive whole number (numpy integers too) of at most `most`."""
    whole = as_integer(rollouts)
    if whole is None or whole <= 0:
        raise RolloutError(f"{what} must be a positive integer, not {rollouts!r}")
    if whole > most:
        raise RolloutError(f"{what} is at most {most:,}, not {whole:,} (a million rollouts "
                           "already give a chance to within 0.1 points)")
    return whole


def check_playouts(rollouts: int, variants: int) -> None:
    """Rollouts of every choice compared: at most MAX_PLAYOUTS in one call."""
    if rollouts * variants > MAX_PLAYOUTS:
        raise RolloutError(f"{rollouts:,} rollouts for each of {variants} choices is "
                           f"{rollouts * variants:,} games: at most {MAX_PLAYOUTS:,} in one "
                           "call (fewer rollouts, or fewer actions)")


def check_seed(seed: object) -> int:
    whole = as_integer(seed)
    if whole is None or not 0 <= whole < 2**63:
        raise RolloutError(f"seed must be a non-negative integer below 2**63, not {seed!r}")
    return whole


def check_max_turns(max_turns: object) -> int:
    whole = as_integer(max_turns)
    if whole is None or not 1 <= whole <= MAX_TURNS:
        raise RolloutError(f"max_turns must be a whole number of turns from 1 to "
                           f"{MAX_TURNS:,}, not {max_turns!r}")
    return whole


def check_confidence(confidence: object) -> float:
    """A level strictly between 0 and 1 (0.95: a 95 % interval)."""
    if (isinstance(confidence, bool) or not isinstance(confidence, numbers.Real)
            or not 0 < float(confidence) < 1):
        raise RolloutError(f"confidence is a number between 0 and 1, such as 0.95, not "
                           f"{confidence!r}")
    return float(confidence)


def check_progress(progress: object) -> ProgressCallback | None:
    """None or a callable taking (done, total)."""
    if progress is None:
        return None
    if not callable(progress):
        raise RolloutError(f"progress is None or a callable progress(done, total), not "
                           f"{progress!r}")
    try:
        inspect.signature(progress).bind(0, 0)
    except TypeError:
        raise RolloutError(f"progress is called as progress(done, total): {progress!r} does "
                           "not take two arguments") from None
    except ValueError:  # no signature to read (some builtins): taken on trust
        pass
    return progress


def is_bool(value: object) -> bool:
    """True or False, Python's or numpy's (told by name: numpy is not imported here)."""
    kind = type(value)
    return isinstance(value, bool) or (kind.__module__ == "numpy"
                                       and kind.__name__ in ("bool", "bool_"))


def check_executor(executor: object) -> Any:
    if (executor is None or (isinstance(executor, str) and executor == "processes")
            or isinstance(executor, Executor) or is_dask_client(executor)):
        return executor
    raise RolloutError("executor is None, 'processes', a concurrent.futures.Executor or a "
                       f"dask.distributed.Client, not {executor!r}")


def check_game(game: object) -> Game:
    if not isinstance(game, Game):
        raise RolloutError(f"rollouts start from a Game, not {type(game).__name__}")
    if game.is_over:
        raise RolloutError("the game is over: there is nothing left to estimate "
                           f"(winners: {game.winners})")
    return game


@dataclass(frozen=True)
class Lineup:
    """Bots checked as far as they can be without a game (:func:`check_bot_specs`); fitted to
    a game's seats by :meth:`fit`."""

    specs: tuple[BotSpec, ...]
    single: bool  # one bot given for every seat

    def fit(self, seats: int) -> tuple[BotSpec, ...]:
        if self.single:
            return self.specs * seats
        if len(self.specs) != seats:
            raise RolloutError(f"bots: one per seat ({seats}), not {len(self.specs)}")
        return self.specs


def check_bot_specs(bots: object) -> Lineup:
    """The bots as given, checked without a game: names of the engine's bots or factories
    called as factory(seed=...) (each called once here: one that cannot make a bot is refused
    now, not in every rollout); one for all seats, or one per seat."""
    if hasattr(bots, "choose") and not isinstance(bots, type):
        raise RolloutError(f"{bots!r} is a bot object; pass its class or a factory called as "
                           "factory(seed=...), so that every rollout gets a freshly seeded bot")
    single = isinstance(bots, str) or callable(bots)
    if single:
        specs: list[Any] = [bots]
    elif isinstance(bots, Sequence) and not isinstance(bots, (bytes, bytearray)):
        specs = list(bots)
        if not specs:
            raise RolloutError("bots: one per seat, not an empty list")
    else:
        raise RolloutError(f"bots is a bot name, a factory or one per seat, not {bots!r}")
    for seat, spec in enumerate(specs):
        if isinstance(spec, str):
            if spec == "rollout":
                raise RolloutError("the rollout bot cannot play rollouts (each of its "
                                   "decisions runs rollouts itself): use 'strong'")
            if spec not in BOTS:
                raise RolloutError(f"seat {seat}: unknown bot {spec!r}; choose one of "
                                   f"{sorted(BOTS)} or pass a factory")
        elif callable(spec):
            if hasattr(spec, "choose") and not isinstance(spec, type):
                raise RolloutError(f"seat {seat}: {spec!r} is a bot object; pass its class "
                                   "or a factory called as factory(seed=...)")
            _try_factory(spec, seat)
        else:
            raise RolloutError(f"seat {seat}: a bot is a name {sorted(BOTS)} or a factory, "
                               f"not {spec!r}")
    return Lineup(tuple(specs), single)


def _try_factory(spec: Callable[..., Any], seat: int) -> None:
    inner = spec.func if isinstance(spec, functools.partial) else spec
    if getattr(inner, "name", None) == "rollout":
        raise RolloutError("the rollout bot cannot play rollouts: use 'strong'")
    try:
        bot = spec(seed=0)
    except UgentopolyError as exc:  # a bot that refuses its settings says why
        raise RolloutError(f"seat {seat}: {exc}") from None
    except Exception as exc:
        raise RolloutError(f"seat {seat}: the bot factory must make a bot when called as "
                           f"factory(seed=...): {type(exc).__name__}: {exc}") from None
    if not callable(getattr(bot, "choose", None)):
        raise RolloutError(f"seat {seat}: {spec!r}(seed=...) made {type(bot).__name__}, which "
                           "has no choose(game) method")
    if getattr(bot, "name", None) == "rollout":
        raise RolloutError("the rollout bot cannot play rollouts: use 'strong'")


def check_bots(bots: object, seats: int) -> tuple[BotSpec, ...]:
    """One bot per seat: a name of the engine's bots or a factory called as factory(seed=...)
    (one given for all fills every seat); `bots` may be a Lineup checked before."""
    lineup = bots if isinstance(bots, Lineup) else check_bot_specs(bots)
    return lineup.fit(seats)


def check_at_cap(at_cap: object) -> AtCap:
    if not isinstance(at_cap, str) or at_cap not in ("apart", "richest"):
        raise RolloutError(f"at_cap is 'apart' (no winner yet) or 'richest', not {at_cap!r}")
    return "apart" if at_cap == "apart" else "richest"


# ------------------------------------------------------------------ the plan


@dataclass(frozen=True)
class Plan:
    """Everything a worker needs, small and picklable."""

    record: dict[str, Any]
    applied: int
    seats: int
    bots: tuple[BotSpec, ...]
    seed: int
    max_turns: int
    at_cap: AtCap
    variants: tuple[tuple[dict[str, Any], ...], ...]  # actions (dict form) per variant
    key: str = field(default="", compare=False)
    stratify: bool = True  # False: plain sampling of the first roll (to measure the gain)
    # Seats whose bots offer no trade in the rollouts' first turn: a deal judged against "no
    # deal" must not be made by the proposer's own bot in the "no deal" rollouts.
    quiet: tuple[int, ...] = ()


def position_record(game: Game) -> dict[str, Any]:
    """The game's record with its actions in the compact text form (a worker's copy)."""
    record = game.record()
    record["actions"] = encode_actions(game._actions)
    return record


def make_plan(game: Game, *, bots: tuple[BotSpec, ...], seed: int, max_turns: int,
              at_cap: AtCap, variants: Sequence[Sequence[Action]], stratify: bool = True,
              quiet: Sequence[int] = ()) -> Plan:
    record = position_record(game)
    key = hashlib.sha256(json.dumps(record, sort_keys=True, default=str).encode()).hexdigest()
    return Plan(record=record, applied=len(game._actions), seats=len(game.players), bots=bots,
                seed=seed, max_turns=max_turns, at_cap=at_cap,
                variants=tuple(tuple(a.to_dict() for a in v) for v in variants), key=key,
                stratify=stratify, quiet=tuple(quiet))


# ------------------------------------------------------------------ outcomes


@dataclass
class Outcomes:
    """Per variant and rollout: each player's share of the win, whether the game ended, the
    turns it took, and the first-roll stratum. Plain lists: ``wins[v][p]`` is player `p`'s
    share in each rollout of variant `v` (:meth:`share`), ``finished[v]`` and ``turns[v]``
    one entry per rollout, ``strata`` one per rollout (None: not stratified)."""

    start: int
    wins: list[list[list[float]]]  # [variant][player][rollout]
    finished: list[list[bool]]  # [variant][rollout]
    turns: list[list[int]]  # [variant][rollout]
    strata: list[int] | None  # [rollout], or None (not stratified)
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # the playing threads' own CPU time (a busy machine's wall lies)

    @property
    def count(self) -> int:
        """Rollouts per variant."""
        return len(self.finished[0]) if self.finished else 0

    @property
    def variants(self) -> int:
        return len(self.finished)

    @property
    def players(self) -> int:
        return len(self.wins[0]) if self.wins else 0

    def share(self, variant: int, player: int) -> list[float]:
        """`player`'s share of the win in each rollout of `variant` (1, 1/m for a win shared
        by m, 0): the column a mean, a standard error or a paired difference is taken of."""
        return self.wins[variant][player]

    def head(self, n: int) -> Outcomes:
        """The first `n` rollouts (a prefix: paired with another run's first `n`)."""
        return Outcomes(self.start, [[col[:n] for col in v] for v in self.wins],
                        [f[:n] for f in self.finished], [t[:n] for t in self.turns],
                        None if self.strata is None else self.strata[:n], self.seconds,
                        self.cpu_seconds)

    @staticmethod
    def join(parts: Sequence[Outcomes]) -> Outcomes:
        """Chunks of the same run (any order) as one, in rollout order."""
        parts = sorted(parts, key=lambda o: o.start)
        first = parts[0]
        strata: list[int] | None = [] if all(p.strata is not None for p in parts) else None
        out = Outcomes(first.start, [[[] for _ in v] for v in first.wins],
                       [[] for _ in first.finished], [[] for _ in first.turns], strata,
                       sum(p.seconds for p in parts), sum(p.cpu_seconds for p in parts))
        for part in parts:
            for v, columns in enumerate(part.wins):
                for k, column in enumerate(columns):
                    out.wins[v][k].extend(column)
                out.finished[v].extend(part.finished[v])
                out.turns[v].extend(part.turns[v])
            if strata is not None and part.strata is not None:
                strata.extend(part.strata)
        return out


def _bots_for(specs: tuple[BotSpec, ...], seed: int, quiet: Sequence[int] = (),
              turn: int = -1) -> list[Bot]:
    out: list[Bot] = []
    for seat, spec in enumerate(specs):
        bseed = bot_seed(seed, seat)
        bot = make_bot(spec, bseed) if isinstance(spec, str) else spec(seed=bseed)
        if seat in quiet and isinstance(bot, HeuristicBot):
            bot._offered_turn = turn  # its own rule: one look at trading per turn, taken
        elif seat in quiet and isinstance(bot, StrongBot):
            bot._looked_turn = turn  # the same rule of the strong bot
        out.append(bot)
    return out


def _share(game: Game, at_cap: AtCap) -> tuple[list[float], bool]:
    """Each player's share of the win; whether the game reached its end."""
    n = len(game.players)
    shares = [0.0] * n
    if game.is_over:
        winners = game.winners
        for w in winners:
            shares[w] = 1.0 / len(winners)
        return shares, True
    if at_cap == "richest":
        values = game.valuations()
        alive = [k for k in range(n) if not game.players[k].bankrupt]
        top = max(values[k] for k in alive)
        leaders = [k for k in alive if values[k] == top]
        for w in leaders:
            shares[w] = 1.0 / len(leaders)
    return shares, False


# The turns of play between two steps of a rollout cut into steps (rollout_steps): a few ms in
# Pyodide, where a strong-bot rollout to the end takes 30-100 ms on average, up to 1.5 s.
STEP_TURNS = 4

# This thread's CPU seconds; Pyodide has no time.thread_time (one thread: the process's).
_thread_time = getattr(time, "thread_time", time.process_time)


def play_rollouts(position: PositionCopy, plan: Plan, variants: Sequence[Sequence[Action]],
                  start: int, stop: int, *,
                  interrupted: Callable[[], bool] | None = None) -> Outcomes:
    """Rollouts `start` .. `stop - 1` of every variant from `position` (reset before each).
    ``interrupted()``, asked before each rollout, ends the batch early when true (a live
    estimate whose position changed): the rollouts played so far are returned."""
    played: list[Outcomes] = []
    steps = rollout_steps(position, plan, variants, start, stop)
    with FewerCollections():
        for _ in range(start, stop):
            if interrupted is not None and interrupted():
                break
            part = next(steps)  # (without turns: one rollout a step, its outcomes)
            assert part is not None
            played.append(part)
    steps.close()
    if played:
        return Outcomes.join(played)
    rules = position.game.rules
    stratified = plan.stratify and strata(rules.dice_count, rules.dice_sides) > 1
    return Outcomes(start, [[[] for _ in range(plan.seats)] for _ in variants],
                    [[] for _ in variants], [[] for _ in variants], [] if stratified else None)


def rollout_steps(position: PositionCopy, plan: Plan, variants: Sequence[Sequence[Action]],
                  start: int, stop: int, turns: int | None = None
                  ) -> Generator[Outcomes | None, None, None]:
    """Rollouts `start` .. `stop - 1` of every variant from `position`, as a generator: each
    rollout yields its :class:`Outcomes` once played (every variant). With `turns`, the play
    is cut into steps of at most that many turns, with None yielded after each (the bots of a
    rollout kept from step to step: the same figures). For an event loop's slices
    (``slices``): in Pyodide one rollout to the end takes up to a second and a half, and a
    click waits for the step in progress. The position is the generator's until it ends or is
    closed."""
    rules = position.game.rules
    size = strata(rules.dice_count, rules.dice_sides) if plan.stratify else 1
    position.reset()
    turn0 = position.game.turn_number
    until = turn0 + plan.max_turns
    for k in range(start, stop):
        seed = rollout_seed(plan.seed, k)
        first = (first_roll(plan.seed, k, rules.dice_count, rules.dice_sides)
                 if size > 1 else None)
        wins: list[list[list[float]]] = [[[] for _ in range(plan.seats)] for _ in variants]
        finished: list[list[bool]] = [[] for _ in variants]
        played: list[list[int]] = [[] for _ in variants]
        seconds = cpu = 0.0
        for v, prefix in enumerate(variants):
            started, clock = time.perf_counter(), _thread_time()
            game = _rollout_start(position, prefix, seed, first)
            bots = _bots_for(plan.bots, seed, plan.quiet, turn0)
            while not game.is_over and game.turn_number < until:
                step_end = until if turns is None else min(until, game.turn_number + turns)
                with FewerCollections():
                    moved = _rollout_play(game, bots, step_end, k)
                if turns is None or moved == 0:
                    break  # (to the end; or a decision nobody takes: the rollout ends)
                seconds += time.perf_counter() - started
                cpu += _thread_time() - clock
                yield None
                started, clock = time.perf_counter(), _thread_time()
            seconds += time.perf_counter() - started
            cpu += _thread_time() - clock
            _rollout_end(game, plan, turn0, wins[v], finished[v], played[v])
        yield Outcomes(k, wins, finished, played,
                       [stratum(plan.seed, k, size)] if size > 1 else None, seconds, cpu)


def _rollout_start(position: PositionCopy, prefix: Sequence[Action], seed: int,
                   first: Sequence[int] | None) -> Game:
    """The position again, its future seeded `seed`, the variant's actions applied."""
    position.reset()
    position.reseed(seed, first)
    game = position.game
    for action in prefix:  # (checked legal from the position: check_variants)
        game.apply(action)
    return game


def _rollout_play(game: Game, bots: list[Bot], until: int, k: int) -> int:
    """The bots' play up to turn `until`; the actions taken."""
    try:
        return play_game(game, bots, until_turn=until)
    except MemoryError:
        raise
    except Exception as exc:  # a bot of the caller's that fails: said so
        raise RolloutError(f"rollout {k}: the bots failed: "
                           f"{type(exc).__name__}: {exc}") from exc


def _rollout_end(game: Game, plan: Plan, turn0: int, wins: list[list[float]],
                 finished: list[bool], turns: list[int]) -> None:
    share, done = _share(game, plan.at_cap)
    for column, value in zip(wins, share, strict=True):
        column.append(value)
    finished.append(done)
    turns.append(game.turn_number - turn0)


def decode_variants(plan: Plan) -> list[list[Action]]:
    return [[action_from_dict(dict(a)) for a in v] for v in plan.variants]


# Per worker (thread of a worker process, or of a thread pool: a copy is played by one thread
# at a time): the positions of the plans seen lately, each rebuilt once from its record.
_LOCAL = threading.local()


def _worker_position(plan: Plan) -> PositionCopy:
    cache: OrderedDict[str, PositionCopy] | None = getattr(_LOCAL, "positions", None)
    if cache is None:
        cache = _LOCAL.positions = OrderedDict()
    position = cache.get(plan.key)
    if position is None:
        game = Game.replay(plan.record, clock=_frozen_clock)
        position = PositionCopy(game)
        cache[plan.key] = position
        while len(cache) > 4:
            cache.popitem(last=False)
    else:
        cache.move_to_end(plan.key)
    return position


def run_chunk(plan: Plan, start: int, stop: int) -> Outcomes:
    """One chunk of rollouts, in a worker (the position rebuilt from the plan's record)."""
    return play_rollouts(_worker_position(plan), plan, decode_variants(plan), start, stop)


# ------------------------------------------------------------------ running


def check_variants(game: Game, variants: Sequence[Sequence[Action]]) -> None:
    """Every variant's actions must be legal in turn from the position (checked on a copy)."""
    if not variants:
        return
    position = PositionCopy(game)
    for variant in variants:
        position.reset()
        for action in variant:
            if not isinstance(action, Action):
                raise RolloutError(f"an action is an engine Action, not {action!r}")
            try:
                position.game.apply(action)
            except (IllegalActionError, InvalidActionError) as exc:
                raise RolloutError(f"{action} is not legal in this position: {exc}") from None


def _chunks(total: int, workers: int) -> list[tuple[int, int]]:
    size = max(MIN_CHUNK, -(-total // (workers * 4)))
    return [(s, min(s + size, total)) for s in range(0, total, size)]


def execute(game: Game, plan: Plan, rollouts: int, *, executor: Any = None,
            workers: int | None = None, position: PositionCopy | None = None,
            progress: ProgressCallback | None = None, start: int = 0) -> Outcomes:
    """Rollouts ``start .. start + rollouts - 1`` of the plan: in this process (on `position`,
    or a copy of `game`), on ``"processes"``, a concurrent.futures executor or a Dask client
    (`workers`: checked and capped by :func:`checked_request`). Ctrl-C (KeyboardInterrupt)
    or any error stops the workers at once, a pool made here included, and is raised."""
    stop = start + rollouts
    if executor is None:
        position = position or PositionCopy(game)
        variants = decode_variants(plan)
        parts = []
        step = MIN_CHUNK if progress is not None else rollouts
        for s in range(start, stop, step):
            parts.append(play_rollouts(position, plan, variants, s, min(s + step, stop)))
            if progress is not None:
                progress(min(s + step, stop) - start, rollouts)
        return Outcomes.join(parts)
    from ..simulation.executors import default_workers, new_process_pool, stop_pool

    chunks = [(a + start, b + start) for a, b in _chunks(rollouts, workers or default_workers())]
    if is_dask_client(executor):
        return _on_dask(executor, plan, chunks, rollouts, progress)
    owned = isinstance(executor, str)  # "processes": a pool of our own, for this call
    if owned or isinstance(executor, ProcessPoolExecutor):
        _check_picklable(plan)
    pool: Executor = new_process_pool(workers or default_workers()) if owned else executor
    futures: list[Future[Outcomes]] = []
    try:
        futures = [pool.submit(run_chunk, plan, a, b) for a, b in chunks]
        outcomes = _collect(futures, rollouts, progress)
    except BaseException:  # Ctrl-C, a chunk that failed, a progress callback that raised
        for future in futures:
            future.cancel()  # (an executor not ours keeps running its other work)
        if owned:
            stop_pool(pool, owned=True)  # the chunks in progress too: nothing waits for them
        raise
    if owned:
        pool.shutdown(wait=True)  # every chunk is in: its processes are idle, end them
    return outcomes


def _collect(futures: Sequence[Any], rollouts: int, progress: ProgressCallback | None
             ) -> Outcomes:
    """The chunks' outcomes, in order, the progress told after each."""
    parts = []
    for future in futures:
        parts.append(future.result())
        if progress is not None:
            progress(sum(part.count for part in parts), rollouts)
    return Outcomes.join(parts)


def _on_dask(client: Any, plan: Plan, chunks: list[tuple[int, int]], rollouts: int,
             progress: ProgressCallback | None) -> Outcomes:
    futures = [client.submit(run_chunk, plan, a, b, pure=False) for a, b in chunks]
    try:
        return _collect(futures, rollouts, progress)
    except BaseException:
        client.cancel([f for f in futures if not f.done()])
        raise


@dataclass(frozen=True)
class Request:
    """A run's settings, checked: what win_chances, action_values and rate_trade share."""

    game: Game
    rollouts: int
    bots: tuple[BotSpec, ...]
    seed: int
    max_turns: int
    at_cap: AtCap
    confidence: float = 0.95
    executor: Any = None
    workers: int | None = None
    progress: ProgressCallback | None = None

    def run(self, variants: Sequence[Sequence[Action]], quiet: Sequence[int] = ()
            ) -> Outcomes:
        """The rollouts of every variant (the actions applied first), on the executor."""
        check_playouts(self.rollouts, len(variants))
        plan = make_plan(self.game, bots=self.bots, seed=self.seed, max_turns=self.max_turns,
                         at_cap=self.at_cap, variants=variants, quiet=quiet)
        return execute(self.game, plan, self.rollouts, executor=self.executor,
                       workers=self.workers, progress=self.progress)

    def run_steps(self, variants: Sequence[Sequence[Action]], quiet: Sequence[int] = (),
                  step: int | None = None) -> Generator[None, None, Outcomes]:
        """:meth:`run` as a generator that yields after every few turns of play here
        (:data:`STEP_TURNS`: a browser's slices, ``slices.Sliced``), with ``progress`` told
        every `step` rollouts; ``step=None`` or an executor: one step, the whole :meth:`run`.
        The same figures either way."""
        if step is None or self.executor is not None:
            outcomes = self.run(variants, quiet)
            yield
            return outcomes
        check_playouts(self.rollouts, len(variants))
        plan = make_plan(self.game, bots=self.bots, seed=self.seed, max_turns=self.max_turns,
                         at_cap=self.at_cap, variants=variants, quiet=quiet)
        position, decoded = PositionCopy(self.game), decode_variants(plan)
        parts: list[Outcomes] = []
        for played in rollout_steps(position, plan, decoded, 0, self.rollouts, STEP_TURNS):
            if played is not None:
                parts.append(played)
                done = len(parts)
                if self.progress is not None and (done % step == 0 or done == self.rollouts):
                    self.progress(done, self.rollouts)
            yield
        return Outcomes.join(parts)


def checked_request(game: object, *, rollouts: object, bots: Any, seed: object,
                    max_turns: object, at_cap: object, confidence: object = 0.95,
                    executor: Any = None, workers: object = None, progress: object = None
                    ) -> Request:
    """Every setting checked (RolloutError names the first one wrong), before any rollout;
    `workers` capped at what can help (the chunks there are, 4 per core) with a
    SimulationWarning, as simulate() does."""
    checked = check_game(game)
    count = check_rollouts(rollouts)
    executor = check_executor(executor)
    asked = check_workers(workers, RolloutError)
    pool_workers = None
    if executor is not None and not is_dask_client(executor):
        from ..simulation.executors import default_workers, useful_workers

        cores = default_workers()
        own = getattr(executor, "_max_workers", None) if isinstance(executor, Executor) else None
        pool_workers = useful_workers(asked or own or cores, count, MIN_CHUNK, cores,
                                      asked is not None, stacklevel=4)
    return Request(checked, count, check_bots(bots, len(checked.players)), check_seed(seed),
                   check_max_turns(max_turns), check_at_cap(at_cap),
                   check_confidence(confidence), executor, pool_workers,
                   check_progress(progress))


def _check_picklable(plan: Plan) -> None:
    try:
        pickle.dumps(plan)
    except Exception as exc:
        raise RolloutError(f"the bots cannot be sent to worker processes: {exc}") from None


def bot_choice(game: Game, spec: BotSpec, seed: int) -> Action:
    """What the bot of `spec` would choose in the position (asked on a copy)."""
    position = PositionCopy(game)
    bot = _bots_for((spec,), seed)[0]
    try:
        action = bot.choose(position.game)
        if isinstance(action, Mapping):
            action = action_from_dict(dict(action))
    except MemoryError:
        raise
    except Exception as exc:  # a bot of the caller's that fails: said so
        raise RolloutError(f"the bot in this seat failed to choose: {type(exc).__name__}: "
                           f"{exc}") from exc
    if not isinstance(action, Action) or not position.game.is_legal(action):
        raise RolloutError(f"the bot in this seat chose {action!r}, not a legal action")
    return action


__all__ = [
    "Plan", "Outcomes", "Request", "checked_request", "make_plan", "execute", "run_chunk",
    "play_rollouts", "rollout_steps", "check_bots", "check_bot_specs", "Lineup", "check_game",
    "check_rollouts",
    "check_playouts", "check_seed", "check_max_turns", "check_at_cap", "check_confidence",
    "check_progress", "check_executor", "check_variants", "bot_choice", "is_bool",
    "DEFAULT_MAX_TURNS", "STEP_TURNS", "MAX_ROLLOUTS", "MAX_PLAYOUTS", "MAX_TURNS",
]
