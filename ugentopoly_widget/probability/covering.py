"""First landings by Monte Carlo, and the time until every property has been landed on.

The exact hitting times (:func:`.timing.hitting_times`) cover one target at a time; "until
*every* property has been landed on" needs the set of tiles seen so far, 2^28 states on
the classic board, so it is bounded exactly (Matthews' bounds from the single hitting
times) and estimated by simulation (:class:`.montecarlo.MovementSimulator`: its own dice
and card draws, held cards without limit), with a standard error.

>>> df = cover_time("classic", board="bundled:classic-standard-decks", walkers=2000, seed=1)
>>> bool(df.set_index("bound").rolls["lower: Matthews"] < df.set_index("bound").rolls[
...     "Monte Carlo"] < df.set_index("bound").rolls["upper: Matthews"])
True
"""

from __future__ import annotations

import math
import os
from typing import Any, Literal

import numpy as np
import pandas as pd

from ..engine.boards.board import Board
from ..engine.rules import RulesProfile
from .api import Source, landing_model
from .errors import ArgumentError
from .montecarlo import MAX_WALKERS, MovementSimulator, _count
from .timing import Hitting, _per_hit, _start_state, _target_slots, dense

MAX_HIT_ROLLS = 1_000_000  # steps per walker before a walker counts as never arriving


def _first_hits(sim: MovementSimulator, masks: np.ndarray, per: str, max_rolls: int
                ) -> tuple[np.ndarray, np.ndarray]:
    """Walkers from GO (a turn about to begin) step until every target (a row of `masks`
    over the slots) has been hit; per walker and target, the rolls (or turns, the one of
    the hit included) until the first hit, and whether it came (else censored)."""
    size = sim.movement.size
    walkers, targets = sim.walkers, len(masks)
    first = np.zeros((walkers, targets))
    seen = np.zeros((walkers, targets), dtype=bool)
    count = np.zeros(walkers)  # rolls so far, or the number of the turn going on
    if per == "turn":
        count += 1
    for _ in range(max_rolls):
        skipping = sim.in_jail & (sim.skip > 0)
        sim.step()
        rolled = ~skipping
        if per == "roll":
            count += rolled
        slot = np.where(sim.in_jail, size, sim.pos)
        new = rolled[:, None] & masks[:, slot].T & ~seen
        first[new] = np.broadcast_to(count[:, None], first.shape)[new]
        seen |= new
        if per == "turn":
            count += ~sim.going_on
        if seen.all():
            break
    return first, seen


def _masks(chain: Any, targets: list[Any]) -> tuple[list[str], np.ndarray]:
    labels, masks = [], np.zeros((len(targets), chain.size + 1), dtype=bool)
    for k, target in enumerate(targets):
        label, slots = _target_slots(chain, target)
        labels.append(label)
        masks[k, slots] = True
    return labels, masks


def simulate_hitting_times(
    game_or_board: Source,
    rules: RulesProfile | str | None = None,
    *,
    targets: Any = "jail",
    walkers: int = 8192,
    seed: int | None = None,
    per: Literal["roll", "turn"] = "roll",
    max_rolls: int = 20_000,
    jail: Literal["short", "long", "off"] = "short",
    board: Board | str | os.PathLike[str] | None = None,
    **assumptions: Any,
) -> pd.DataFrame:
    """Rolls (or turns) until the first landing on each target, by simulation: `walkers`
    players from GO. Columns: target, tiles, mean, standard_error (of the mean), sd,
    censored (walkers that had not arrived after `max_rolls` steps: then the mean is low).

    A target that a player from GO may never reach (Go To Jail, never stood on; a tile only
    some positions lead to) has mean and sd ``inf`` at once, as :func:`.timing.hitting_times`
    gives (no walker is sent after it); ``table.attrs["never"]`` says why, per target."""
    per = _per_hit(per)
    walkers = _count(walkers, "walkers", 1, MAX_WALKERS)
    max_rolls = _count(max_rolls, "max_rolls", 1, MAX_HIT_ROLLS)
    chain = landing_model(game_or_board, rules, jail=jail, board=board, **assumptions)
    targets = list(targets) if isinstance(targets, (list, tuple)) else [targets]
    labels, masks = _masks(chain, targets)
    never = _never_reached(chain, masks, per)
    reachable = [k for k in range(len(labels)) if k not in never]
    first = np.zeros((walkers, len(labels)))
    seen = np.zeros((walkers, len(labels)), dtype=bool)
    if reachable:
        sim = MovementSimulator(chain.movement.board, chain.movement.rules, walkers=walkers,
                                seed=seed, jail=jail, **assumptions)
        first[:, reachable], seen[:, reachable] = _first_hits(sim, masks[reachable], per,
                                                              max_rolls)
    rows = []
    for k, label in enumerate(labels):
        if k in never:
            rows.append((label, tuple(np.flatnonzero(masks[k]).tolist()), math.inf, 0.0,
                         math.inf, 0))
            continue
        values = first[seen[:, k], k]
        sd = float(values.std(ddof=1)) if len(values) > 1 else float("nan")
        rows.append((label, tuple(np.flatnonzero(masks[k]).tolist()),
                     float(values.mean()) if len(values) else float("nan"),
                     sd / np.sqrt(len(values)) if len(values) > 1 else float("nan"), sd,
                     int((~seen[:, k]).sum())))
    result: pd.DataFrame = pd.DataFrame(rows, columns=["target", "tiles", "mean",
                                                       "standard_error", "sd", "censored"])
    result.attrs["never"] = {labels[k]: why for k, why in never.items()}
    return result


def _never_reached(chain: Any, masks: np.ndarray, per: str) -> dict[int, str]:
    """The targets (rows of `masks`) a player from GO may never reach, exactly (the chain's
    hitting times, a linear solve of a few hundred states), with the reason."""
    matrix = dense(chain)
    start = _start_state(chain, 0)
    never: dict[int, str] = {}
    for k, mask in enumerate(masks):
        slots = np.flatnonzero(mask).tolist()
        if not (chain.is_roll & np.isin(chain.where, slots)).any():
            never[k] = "no roll ends there (a Go To Jail tile sends the player on)"
        elif not math.isfinite(Hitting(chain, matrix, slots, per).from_state(start)[0]):
            never[k] = "some players from GO never get there"
    return never


def cover_time(
    game_or_board: Source,
    rules: RulesProfile | str | None = None,
    *,
    targets: Any = "properties",
    walkers: int = 4096,
    seed: int | None = 0,
    max_rolls: int = 20_000,
    jail: Literal["short", "long", "off"] = "short",
    board: Board | str | os.PathLike[str] | None = None,
    **assumptions: Any,
) -> pd.DataFrame:
    """Rolls until every target tile (default: every property) has been landed on, from GO.

    Rows (bound, rolls, standard_error, how): the trivial lower bound (one tile per roll);
    the slowest single tile's exact hitting time; Matthews' lower and upper bounds
    (harmonic number times the least / greatest exact hitting time between targets); the
    Monte Carlo estimate (``walkers`` players, with its standard error; ``walkers=0``
    leaves it out)."""
    chain = landing_model(game_or_board, rules, jail=jail, board=board, **assumptions)
    the_board = chain.movement.board
    if isinstance(targets, str) and targets == "properties":
        tiles = list(the_board.property_positions)
    elif isinstance(targets, (list, tuple)) and targets:
        tiles = sorted({s for t in targets for s in _target_slots(chain, t)[1]})
    else:
        raise ArgumentError(f"targets is 'properties' or a list of positions, not {targets!r}")
    if len(tiles) < 2:
        raise ArgumentError("a cover time needs at least two target tiles")
    walkers = _count(walkers, "walkers", 0, MAX_WALKERS)
    matrix = dense(chain)
    start = 0  # START: on GO, a turn about to begin
    at_tile = {t: np.flatnonzero(chain.is_roll & (chain.where == t)) for t in tiles}
    single, least, most = [], np.inf, 0.0
    for b in tiles:
        hitting = Hitting(chain, matrix, [b], "roll")
        single.append(hitting.from_state(start)[0])
        most = max(most, single[-1])
        for a in tiles:
            if a != b and len(at_tile[a]):
                times = [hitting.from_state(int(u))[0] for u in at_tile[a]]
                least, most = min(least, min(times)), max(most, max(times))
    n = len(tiles)
    harmonic = float(np.sum(1.0 / np.arange(1, n + 1)))
    rows = [
        ("lower: one tile per roll", float(n), 0.0, "each roll ends on one tile"),
        ("lower: slowest tile", float(max(single)), 0.0,
         "the exact expected rolls until the tile landed on least often"),
        ("lower: Matthews", least * (harmonic - 1.0 / n), 0.0,
         "(1 + 1/2 + ... + 1/(n-1)) x the least expected rolls from one target to another"),
        ("upper: Matthews", most * harmonic, 0.0,
         "(1 + 1/2 + ... + 1/n) x the greatest expected rolls from GO or a target to another"),
    ]
    if walkers:
        sim = MovementSimulator(the_board, chain.movement.rules, walkers=walkers, seed=seed,
                                jail=jail, **assumptions)
        _, masks = _masks(chain, [[t] for t in tiles])
        first, seen = _first_hits(sim, masks, "roll", _count(max_rolls, "max_rolls", 1,
                                                             MAX_HIT_ROLLS))
        done = seen.all(axis=1)
        cover = first[done].max(axis=1)
        se = float(cover.std(ddof=1) / np.sqrt(len(cover))) if len(cover) > 1 else np.nan
        rows.append(("Monte Carlo", float(cover.mean()), se,
                     f"{int(done.sum()):,} simulated players"
                     + (f" ({int((~done).sum())} not done after {max_rolls:,} rolls: "
                        "left out)" if (~done).any() else "")))
    result: pd.DataFrame = pd.DataFrame(rows, columns=["bound", "rolls", "standard_error",
                                                       "how"])
    return result


__all__ = ["simulate_hitting_times", "cover_time"]
