"""Fast Monte Carlo of movement: many players at once, one numpy step per roll.

It plays the rules of a compiled board + profile (dice, doubles, the third double, Go To
Jail, every card that moves a token, jail release by fine, card or doubles, skipped turns)
under the same assumptions as the chain (:class:`.model.Options`), but on its own: it draws
dice and cards and follows them, so it checks the chain rather than copying it. Held Get
Out of Jail Free cards are counted without any limit.

>>> sim = MovementSimulator("classic", walkers=1000, seed=1)
>>> counts = sim.run(200)
>>> int(counts.by_roll.sum())
200000
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from ..engine.boards.board import Board, TileKind
from ..engine.integers import as_integer
from ..engine.rules import RulesProfile
from .api import _inputs, _measure, _options, tile_table
from .errors import ArgumentError
from .model import Measure, Movement, _effect, compile_movement

STOP, MOVE, JAIL, KEEP, AGAIN = 0, 1, 2, 3, 4


# A run of more rolls than this is refused (about a quarter of an hour of one core at the
# measured ~10 M rolls/s); a long run can be stopped with Ctrl-C and keeps what it counted.
MAX_ROLLS = 10_000_000_000
MAX_WALKERS = 1_000_000  # ~10 arrays of this many numbers, and their temporaries per step
MAX_BURN_IN = 100_000  # steps per walker before counting
MAX_TRAJECTORY = 50_000_000  # rolls kept one by one (8 bytes each)


class MonteCarloInterrupted(UserWarning):
    """A Monte Carlo run was stopped (Ctrl-C): its counts cover the steps finished."""


def _count(value: Any, what: str, low: int, high: int) -> int:
    whole = as_integer(value)
    if whole is None or not low <= whole <= high:
        raise ArgumentError(f"{what} is a whole number from {low:,} to {high:,}, not {value!r}")
    return whole


def _seed(seed: Any) -> int | None:
    if seed is None:
        return None
    return _count(seed, "seed", 0, 2**128 - 1)


@contextlib.contextmanager
def _stop_on_interrupt() -> Iterator[list[bool]]:
    """Ctrl-C sets a flag the step loop reads between steps (a step is never cut in half, so
    the counts stay whole); a second Ctrl-C interrupts as usual. Outside the main thread no
    signal arrives, and nothing is changed."""
    flag = [False]
    if threading.current_thread() is not threading.main_thread():
        yield flag
        return
    previous = signal.getsignal(signal.SIGINT)

    def handler(signum: int, frame: Any) -> None:
        flag[0] = True
        signal.signal(signal.SIGINT, previous)

    signal.signal(signal.SIGINT, handler)
    try:
        yield flag
    finally:
        signal.signal(signal.SIGINT, previous)


@dataclass
class Counts:
    """Counts per tile, In Jail last: where rolls ended and where turns ended; ``steps``
    taken by every walker, and whether the run was stopped before all were taken."""

    by_roll: np.ndarray
    by_turn: np.ndarray
    steps: int = 0
    interrupted: bool = False

    def get(self, per: Measure) -> np.ndarray:
        return self.by_turn if per == "turn" else self.by_roll  # visits: rolls, per turn


class MovementSimulator:
    """``walkers`` independent players moving at once (each one a long game of its own)."""

    def __init__(
        self,
        game_or_board: Any,
        rules: RulesProfile | str | None = None,
        *,
        walkers: int = 8192,
        seed: int | None = None,
        jail: Literal["short", "long", "off"] = "short",
        board: Board | str | os.PathLike[str] | None = None,
        **assumptions: Any,
    ) -> None:
        walkers = _count(walkers, "walkers", 1, MAX_WALKERS)
        seed = _seed(seed)
        the_board, profile = _inputs(game_or_board, rules, board)
        m = compile_movement(the_board, profile, _options(jail, assumptions))
        self.movement = m
        self.rng = np.random.default_rng(seed)
        self.walkers = walkers
        self._tables(m)
        n = walkers
        self.pos = np.zeros(n, dtype=np.int64)
        self.doubles = np.zeros(n, dtype=np.int64)  # doubles so far in the turn going on
        self.going_on = np.zeros(n, dtype=bool)  # the next roll continues the turn
        self.in_jail = np.zeros(n, dtype=bool)
        self.tries = np.zeros(n, dtype=np.int64)
        self.skip = np.zeros(n, dtype=np.int64)
        self.cards = np.zeros(n, dtype=np.int64)
        self.counts = Counts(np.zeros(m.size + 1, np.int64), np.zeros(m.size + 1, np.int64))

    def _tables(self, m: Movement) -> None:
        board, size = m.board, m.size
        count, sides = m.rules.dice_count, m.rules.dice_sides
        faces = np.indices((sides,) * count).reshape(count, -1) + 1
        self.roll_total = faces.sum(axis=0)
        self.roll_double = (faces.min(axis=0) == faces.max(axis=0)) if count >= 2 else \
            np.zeros(faces.shape[1], dtype=bool)
        kinds = [t.kind for t in board.tiles]
        decks = {k: d for k, d in board.decks.items() if d.cards and m.options.cards}
        width = max((len(d.cards) for d in decks.values()), default=1)
        self.deck_len = np.zeros(size, dtype=np.int64)
        self.effect = np.zeros((size, width), dtype=np.int64)
        self.dest = np.zeros((size, width), dtype=np.int64)
        for pos in range(size):
            deck = decks.get(kinds[pos].value)
            if deck is None:
                continue
            self.deck_len[pos] = len(deck.cards)
            for j, card in enumerate(deck.cards):
                what, target, landing = _effect(board, m.rules, pos, card, m.options)
                assert landing is not None
                if what == "move":
                    self.effect[pos, j], self.dest[pos, j] = MOVE, target or 0
                elif landing.jailed:
                    self.effect[pos, j] = JAIL
                elif landing.card:
                    self.effect[pos, j] = KEEP
                elif landing.again:
                    self.effect[pos, j] = AGAIN
        self.draws = self.deck_len > 0
        self.to_jail = np.array([k is TileKind.GO_TO_JAIL and m.options.jail != "off"
                                 for k in kinds])

    def _land(self, target: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Resolve arrivals: final tile, jailed, roll again, card kept (per mover)."""
        n = len(target)
        jailed = np.zeros(n, dtype=bool)
        again = np.zeros(n, dtype=bool)
        kept = np.zeros(n, dtype=np.int64)
        pending = np.arange(n)
        for _ in range(10_000):
            at = target[pending]
            jailed[pending[self.to_jail[at]]] = True
            pending = pending[self.draws[at]]
            if len(pending) == 0:
                break
            at = target[pending]
            j = (self.rng.random(len(pending)) * self.deck_len[at]).astype(np.int64)
            eff = self.effect[at, j]
            jailed[pending[eff == JAIL]] = True
            again[pending[eff == AGAIN]] = True
            kept[pending[eff == KEEP]] += 1
            moving = eff == MOVE
            pending = pending[moving]
            target[pending] = self.dest[at[moving], j[moving]]
        else:
            raise RuntimeError("cards kept moving tokens for 10,000 draws")
        return target, jailed, again, kept

    def step(self) -> None:
        """Every walker takes its next step (a roll, or a turn skipped in jail)."""
        m = self.movement
        size = m.size
        jail = m.jail if m.jail is not None else 0
        n = self.walkers
        o = self.rng.integers(0, len(self.roll_total), size=n)
        total, double = self.roll_total[o], self.roll_double[o]
        skipping = self.in_jail & (self.skip > 0)
        jailed_now = self.in_jail & ~skipping
        use_card = jailed_now & (self.cards > 0) & m.track_cards & (
            m.card_auto or m.options.jail == "short")
        self.cards -= use_card
        free_start = jailed_now & (use_card | m.leave_at_once)
        jail_roll = jailed_now & ~free_start
        free = ~self.in_jail | free_start
        # free rolls: doubles, third double
        d0 = np.where(self.going_on & ~free_start, self.doubles, 0)
        counts_double = free & double & m.doubles_roll_again
        d1 = d0 + counts_double
        third = counts_double & (m.max_doubles is not None) & (d1 >= (m.max_doubles or 0))
        # jail rolls
        bonus = m.options.jail_doubles_roll_again and m.doubles_roll_again
        out_on_doubles = jail_roll & double
        failed = jail_roll & ~double
        tries = self.tries + failed
        limit = m.max_jail_turns
        released = failed & (limit is not None) & (tries >= (limit or 0))
        stays = failed & ~released
        movers = (free & ~third) | out_on_doubles | released
        start = np.where(self.in_jail, jail, self.pos)
        target = (start[movers] + total[movers]) % size
        final, jailed, again, kept = self._land(target)
        idx = np.flatnonzero(movers)
        rolled_double = counts_double[idx] | (out_on_doubles[idx] & bonus)
        d_new = np.where(out_on_doubles[idx], 1 if bonus else 0, d1[idx])
        going = (rolled_double | again) & ~jailed
        # write back: movers
        self.pos[idx] = np.where(jailed, jail, final)
        self.in_jail[idx] = jailed
        self.tries[idx] = 0
        self.skip[idx] = np.where(jailed, m.skip_turns, 0)
        self.going_on[idx] = going
        self.doubles[idx] = np.where(going, d_new, 0)
        self.cards[idx] += kept
        # third doubles
        self.pos[third] = jail
        self.in_jail[third] = True
        self.tries[third] = 0
        self.skip[third] = m.skip_turns
        self.going_on[third] = False
        # failed tries that stay
        self.tries[stays] = tries[stays]
        self.going_on[stays] = False
        # skipped turns
        self.skip[skipping] -= 1
        freed = skipping & (self.skip == 0)
        self.in_jail[freed] = False
        # count
        slot = np.where(self.in_jail, size, self.pos)
        rolled = ~skipping
        self.counts.by_roll += np.bincount(slot[rolled], minlength=size + 1)
        self.counts.by_turn += np.bincount(slot[~self.going_on], minlength=size + 1)

    def run(self, steps: int, *, burn_in: int = 0) -> Counts:
        """Take `burn_in` uncounted steps, then `steps` counted ones; returns the counts of
        this run (the simulator keeps adding to ``self.counts``). Ctrl-C stops the run
        after the step in progress: the counts then say how many steps they cover
        (``steps``) and ``interrupted`` is True."""
        steps = _count(steps, "steps", 0, MAX_ROLLS)
        burn_in = _count(burn_in, "burn_in", 0, MAX_BURN_IN)
        with _stop_on_interrupt() as stop:
            for _ in range(burn_in):
                if stop[0]:
                    break
                self.step()
            self.counts = Counts(np.zeros_like(self.counts.by_roll),
                                 np.zeros_like(self.counts.by_turn))
            for _ in range(steps):
                if stop[0]:
                    break
                self.step()
                self.counts.steps += 1
            self.counts.interrupted = stop[0]
        return self.counts

    def trajectory(self, rolls: int) -> np.ndarray:
        """Slots (tile, or the board size for In Jail) of `rolls` rolls: each walker's own
        sequence from GO, one walker after the other (as games played back to back)."""
        rolls = _count(rolls, "rolls", 1, MAX_TRAJECTORY)
        size = self.movement.size
        blocks: list[np.ndarray] = []
        have = 0
        while have < rolls:  # skipped turns (22-cell jail) are no rolls: go on until enough
            per_walker = max(1, -(-(rolls - have) // self.walkers))
            out = np.empty((per_walker, self.walkers), dtype=np.int64)
            for k in range(per_walker):
                skipping = self.in_jail & (self.skip > 0)
                self.step()
                out[k] = np.where(skipping, -1, np.where(self.in_jail, size, self.pos))
            blocks.append(out)
            have += int((out >= 0).sum())
        seq = np.concatenate(blocks).T.reshape(-1)
        kept: np.ndarray = seq[seq >= 0][:rolls]
        return kept


def simulate_landings(
    game_or_board: Any,
    rules: RulesProfile | str | None = None,
    *,
    rolls: int = 1_000_000,
    walkers: int = 8192,
    burn_in: int | None = None,
    seed: int | None = None,
    per: Measure = "roll",
    jail: Literal["short", "long", "off"] = "short",
    board: Board | str | os.PathLike[str] | None = None,
    lang: str = "en",
    **assumptions: Any,
) -> pd.DataFrame:
    """Simulated long-run shares: :func:`landing_distribution`'s columns plus ``count``.

    ``walkers`` players each take ``burn_in`` uncounted steps (to forget GO), then together
    about ``rolls`` counted steps (1 to ``MAX_ROLLS``, ten billion). The default burn-in is
    100 steps, 3000 when held jail cards matter (a player's stock of cards settles slowly).

    Ctrl-C stops a long run: the table then holds what was counted, ``table.attrs`` says
    ``interrupted`` and the ``rolls`` counted, and a :class:`MonteCarloInterrupted` warning
    says so too."""
    rolls = _count(rolls, "rolls", 1, MAX_ROLLS)
    per = _measure(per)
    walkers = _count(walkers, "walkers", 1, MAX_WALKERS)
    if burn_in is not None:
        burn_in = _count(burn_in, "burn_in", 0, MAX_BURN_IN)
        if burn_in * walkers > MAX_ROLLS:
            raise ArgumentError(f"burn_in x walkers is at most {MAX_ROLLS:,} steps")
    sim = MovementSimulator(game_or_board, rules, walkers=walkers, seed=seed, jail=jail,
                            board=board, **assumptions)
    if burn_in is None:
        burn_in = 3000 if sim.movement.track_cards else 100
    steps = max(1, -(-rolls // walkers))
    run = sim.run(steps, burn_in=burn_in)
    counts = run.get(per)
    table = tile_table(sim.movement.board, lang)
    table["count"] = counts
    total = run.by_turn.sum() if per == "visits" else counts.sum()  # visits: per turn
    table["probability"] = counts / total if total else 0.0
    table.attrs["rolls"] = int(run.by_roll.sum())
    table.attrs["interrupted"] = run.interrupted
    if run.interrupted:
        warnings.warn(f"interrupted: {table.attrs['rolls']:,} rolls counted of about "
                      f"{steps * walkers:,} asked for", MonteCarloInterrupted, stacklevel=2)
    return table


__all__ = ["Counts", "MovementSimulator", "MonteCarloInterrupted", "simulate_landings",
           "MAX_ROLLS"]
