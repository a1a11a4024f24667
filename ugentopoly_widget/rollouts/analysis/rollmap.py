"""``roll_map()``: the 36 outcomes of the roll about to be made, each with where it takes the
player and what it does to their chance (the exact mean over the outcomes is the chance
before the roll)."""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Any

from ...engine import actions as A
from ...engine.game import Game
from ...engine.records.positions import PositionCopy
from ...engine.records.savefile import encode_actions
from ..runner import DEFAULT_MAX_TURNS, BotSpec
from ..streams import outcome_dice, strata
from .checks import check_horizon, check_rollouts, check_settings, fit_bots
from .core import DEFAULT_HORIZON, run_jobs
from .errors import AnalysisError
from .figures import mean, std_error
from .playout import Branch, Job, Point, finish, run_job_steps, setup_of
from .results import RollMap, RollOutcome
from .walk import point_seed

DEFAULT_MAP_ROLLOUTS = 24  # per outcome: 864 short playouts, about a second of a core


def _landings(game: Game, player: int, outcomes: list[tuple[int, ...]]
              ) -> list[tuple[int, int]]:
    """Per outcome: the tile the dice take the player to first, and where they end up."""
    position = PositionCopy(game)
    out = []
    for dice in outcomes:
        position.reset()
        position.reseed(0, dice)
        copy = position.game
        e = copy._engine
        first = len(e.events)
        copy.apply(A.Roll(player))
        moves = [ev for ev in e.events.since(first) if ev.kind == "moved" and ev.player == player]
        end = copy.players[player].position
        out.append((int(moves[0].get("end")) if moves else end, end))
    return out


def roll_map(game: Game, *, rollouts: int = DEFAULT_MAP_ROLLOUTS,
             bots: BotSpec | Sequence[BotSpec] = "strong", seed: int = 0,
             horizon: int | None = DEFAULT_HORIZON, executor: Any = None,
             workers: int | None = None) -> RollMap:
    """For the player about to roll: each outcome of the dice (doubles marked), its landing
    tile and end tile, the player's chance after it (`rollouts` playouts per outcome on the
    same seeds) and its gain against the mean over the outcomes."""
    plan = _plan(game, rollouts, bots, seed, horizon, executor, workers)
    if plan.executor is None:
        return finish(_steps(plan))
    parts_values = run_jobs(plan.jobs, plan.executor, workers)
    assert parts_values is not None  # (no cancel)
    return _result(plan, parts_values)


def roll_map_steps(game: Game, *, rollouts: int = DEFAULT_MAP_ROLLOUTS,
                   bots: BotSpec | Sequence[BotSpec] = "strong", seed: int = 0,
                   horizon: int | None = DEFAULT_HORIZON) -> Generator[None, None, RollMap]:
    """:func:`roll_map` in this process, a ``yield`` after each playout (the browser site's
    slices, ``rollouts/slices.py``); the same figures. Bad input is refused at the first
    step."""
    return _steps(_plan(game, rollouts, bots, seed, horizon, None, None))


@dataclass(frozen=True)
class _Plan:
    game: Game
    player: int
    outcomes: list[tuple[int, ...]]
    count: int
    jobs: list[Job]
    executor: Any


def _plan(game: Game, rollouts: int, bots: BotSpec | Sequence[BotSpec], seed: int,
          horizon: int | None, executor: Any, workers: int | None) -> _Plan:
    """The settings checked, the outcomes and the jobs (a part of the rollouts each)."""
    if not isinstance(game, Game):
        raise AnalysisError(f"roll_map() takes a Game, not {type(game).__name__}")
    count = check_rollouts(rollouts)
    horizon = check_horizon(horizon)
    lineup, seed, executor = check_settings(bots=bots, seed=seed, executor=executor)
    if game.is_over:
        raise AnalysisError("the game is over: nobody rolls")
    player = game.decision.player
    if player is None or not game.is_legal(A.Roll(player)):
        raise AnalysisError("nobody is about to roll: the decision now is "
                            f"{game.decision.kind!r}")
    rules = game.rules
    size = strata(rules.dice_count, rules.dice_sides)
    if size <= 1:
        raise AnalysisError(f"{rules.dice_count} dice of {rules.dice_sides} sides have too "
                            "many outcomes to map")
    outcomes = [outcome_dice(o, rules.dice_count, rules.dice_sides) for o in range(size)]
    roll = (A.Roll(player).to_dict(),)
    index = len(game.actions)
    branches = tuple(Branch(roll, dice=d) for d in outcomes)
    parts = 1
    if executor is not None:
        from ...simulation.executors import default_workers

        parts = max(1, min(count, 2 * (workers or default_workers())))
    cuts = [count * p // parts for p in range(parts + 1)]
    points = [Point(index, player, branches, point_seed(seed, index, "roll"),
                    cuts[p + 1] - cuts[p], first=cuts[p]) for p in range(parts)
              if cuts[p + 1] > cuts[p]]
    record = game.record()
    key, setup = setup_of(record)
    bots_fit = fit_bots(lineup, len(game.players))
    injections = tuple((i["at"], i["op"], i["args"]) for i in record["injections"])
    actions = tuple(encode_actions(game.actions))
    jobs = [Job(key, setup, actions, injections, (point,), bots_fit, horizon, DEFAULT_MAX_TURNS)
            for point in points]
    return _Plan(game, player, outcomes, count, jobs, executor)


def _steps(plan: _Plan) -> Generator[None, None, RollMap]:
    parts_values = []
    for job in plan.jobs:
        parts_values.append((yield from run_job_steps(job)))
    return _result(plan, parts_values)


def _result(plan: _Plan, parts_values: list[list[list[list[float]]]]) -> RollMap:
    game, outcomes, count = plan.game, plan.outcomes, plan.count
    values = [[x for part in parts_values for x in part[0][b]] for b in range(len(outcomes))]
    p_mean = mean([mean(v) for v in values])
    per_rollout = [mean([v[k] for v in values]) for k in range(count)]
    landings = _landings(game, plan.player, outcomes)
    board = game.board
    rows = []
    for dice, v, (tile, end) in zip(outcomes, values, landings, strict=True):
        gain = [a - m for a, m in zip(v, per_rollout, strict=True)]
        rows.append(RollOutcome(dice, len(set(dice)) == 1, tile, board.tile_name(tile, game.lang),
                                end, mean(v), std_error(v), 100 * mean(gain)))
    return RollMap(plan.player, p_mean, tuple(rows), count)


__all__ = ["roll_map", "roll_map_steps", "DEFAULT_MAP_ROLLOUTS"]
