"""The exact Markov chain of one player's movement, built from a compiled :class:`Movement`.

A *step* is what one player does next: a roll (with everything it sets off), or a turn
skipped in jail (the 22-cell game). The state after a step is what the rules make matter:

- ``("free", tile, k, c)``: the step ended on ``tile``; ``k = -1`` when the turn is over,
  else the turn goes on (doubles or a "roll again" card) after ``k`` doubles;
- ``("jail", t, c)``: the step ended In Jail after ``t`` failed tries at doubles;
- ``("skipped", s, c)``: a turn skipped in jail, ``s`` more to skip;
- ``("released", c)``: a skipped turn that ended the jail term, the token on the jail tile;

where ``c`` counts the Get Out of Jail Free cards held (only when they change how a player
leaves jail; else 0). The chain is the states reachable from the start (GO, a new turn).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from threadpoolctl import ThreadpoolController  # type: ignore[import-untyped]

from .model import Landing, Movement

State = tuple[object, ...]
START: State = ("free", 0, -1, 0)
_THREADS: ThreadpoolController | None = None


def one_blas_thread() -> Any:
    """Small dense algebra: one BLAS thread (threads only cost at this size, and a busy
    2-core machine makes them cost a lot)."""
    global _THREADS
    if _THREADS is None:
        _THREADS = ThreadpoolController()
    return _THREADS.limit(limits=1, user_api="blas")


def _roll_from(m: Movement, pos: int, d0: int, c: int, cap: int
               ) -> Iterator[tuple[State, float, int, Landing]]:
    """A roll by a free player on `pos` with `d0` doubles so far this turn and `c` cards.
    Yields (next state, probability, dice total, landing)."""
    size = m.size
    for roll in m.rolls:
        rolled_double = False
        d1 = d0
        if roll.double and m.doubles_roll_again:
            d1 = d0 + 1
            if m.max_doubles is not None and d1 >= m.max_doubles:
                yield ("jail", 0, c), roll.probability, roll.total, Landing(m.jail or 0, True)
                continue
            rolled_double = True
        for landing, q in m.landings[(pos + roll.total) % size]:
            yield (_after(landing, rolled_double, d1, c, cap), roll.probability * q,
                   roll.total, landing)


def _after(landing: Landing, continues: bool, d: int, c: int, cap: int) -> State:
    if landing.jailed:
        return ("jail", 0, c)
    c1 = min(c + 1, cap) if landing.card else c
    going_on = continues or landing.again
    return ("free", landing.position, d if going_on else -1, c1)


def _jail_roll(m: Movement, t: int, c: int, cap: int
               ) -> Iterator[tuple[State, float, int, Landing]]:
    """A jailed player rolls for doubles (long strategy, or no way to pay)."""
    assert m.jail is not None
    size = m.size
    bonus = m.options.jail_doubles_roll_again and m.doubles_roll_again
    for roll in m.rolls:
        target = (m.jail + roll.total) % size
        if roll.double:
            for landing, q in m.landings[target]:
                yield (_after(landing, bonus, 1 if bonus else 0, c, cap), roll.probability * q,
                       roll.total, landing)
            continue
        tries = t + 1
        if m.max_jail_turns is None or tries < m.max_jail_turns:
            yield ("jail", tries if m.max_jail_turns else 0, c), roll.probability, roll.total, \
                Landing(m.jail, True)
            continue
        for landing, q in m.landings[target]:  # released (fine paid, or freed): move
            yield _after(landing, False, 0, c, cap), roll.probability * q, roll.total, landing


def steps(m: Movement, state: State, cap: int
          ) -> Iterator[tuple[State, float, int, Landing | None]]:
    """Every next state of `state` with its probability, the dice total (0: no roll) and the
    landing it came from (None for a skipped turn)."""
    kind = state[0]
    if kind == "free":
        _, pos, k, c = state
        assert isinstance(pos, int) and isinstance(k, int) and isinstance(c, int)
        yield from _roll_from(m, pos, max(k, 0), c, cap)
        return
    assert m.jail is not None
    if kind == "released":
        c = state[1]
        assert isinstance(c, int)
        yield from _roll_from(m, m.jail, 0, c, cap)
        return
    if kind == "skipped":
        _, s, c = state
        assert isinstance(s, int) and isinstance(c, int)
        yield (("skipped", s - 1, c) if s > 1 else ("released", c)), 1.0, 0, None
        return
    _, t, c = state  # jail
    assert isinstance(t, int) and isinstance(c, int)
    if m.skip_turns > 0:
        s = m.skip_turns - 1
        yield (("skipped", s, c) if s > 0 else ("released", c)), 1.0, 0, None
        return
    if m.track_cards and c > 0 and (m.card_auto or m.options.jail == "short"):
        yield from _roll_from(m, m.jail, 0, c - 1, cap)  # the card is used: a normal turn
        return
    if m.leave_at_once:
        yield from _roll_from(m, m.jail, 0, c, cap)  # pay (or use a card), then a normal turn
        return
    yield from _jail_roll(m, t, c, cap)


def _labels(m: Movement, states: list[State]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per state: where it counts (tile, or `size` for In Jail), roll step?, turn over?"""
    n = len(states)
    size = m.size
    where = np.empty(n, dtype=np.int64)
    is_roll = np.ones(n, dtype=bool)
    ends = np.ones(n, dtype=bool)
    for i, s in enumerate(states):
        kind = s[0]
        if kind == "free":
            where[i] = int(s[1])  # type: ignore[call-overload]
            ends[i] = s[2] == -1
        elif kind == "jail":
            where[i] = size
        elif kind == "skipped":
            where[i] = size
            is_roll[i] = False
        else:  # released
            where[i] = m.jail if m.jail is not None else 0
            is_roll[i] = False
    return where, is_roll, ends


def stationary_of(matrix: np.ndarray) -> np.ndarray:
    """pi with pi P = pi and sum(pi) = 1 (one recurrent class; transient states get 0)."""
    n = matrix.shape[0]
    a = matrix.T - np.eye(n)
    a[-1, :] = 1.0
    b = np.zeros(n)
    b[-1] = 1.0
    with one_blas_thread():
        pi = np.linalg.solve(a, b)
    pi[np.abs(pi) < 1e-17] = 0.0
    return np.asarray(pi)


@dataclass
class Chain:
    """The states, the transition matrix and the labels of each state.

    When held Get Out of Jail Free cards matter (``movement.track_cards``) the number held
    has no upper bound: ``matrix`` then stops at ``cap`` cards (a card drawn at the cap is
    not kept) and :meth:`distribution` is solved exactly over every number of cards as a
    quasi-birth-death process (levels = cards held)."""

    movement: Movement
    states: list[State]
    matrix: np.ndarray  # row-stochastic: matrix[i, j] = P(next state j | state i)
    where: np.ndarray  # per state: its tile, or `size` for In Jail
    is_roll: np.ndarray  # the step into this state was a roll
    ends_turn: np.ndarray  # the step into this state ended a turn
    cards: np.ndarray  # jail cards held
    cap: int
    _stationary: np.ndarray | None = field(default=None, repr=False)
    _fundamental: np.ndarray | None = field(default=None, repr=False)
    _exact: np.ndarray | None = field(default=None, repr=False)  # per (slot, roll, ends)

    @property
    def size(self) -> int:
        return self.movement.size

    def stationary(self) -> np.ndarray:
        """The long-run share of steps in each state of ``matrix``: pi P = pi, sum(pi) = 1."""
        if self._stationary is None:
            self._stationary = stationary_of(self.matrix)
        return self._stationary

    def weights(self, per: str) -> np.ndarray:
        if per == "roll":
            return self.is_roll.astype(float)
        if per == "turn":
            return self.ends_turn.astype(float)
        raise ValueError(f"per is 'roll' or 'turn', not {per!r}")

    def aggregate(self, vector: np.ndarray, per: str) -> np.ndarray:
        """A distribution over states -> over tiles + In Jail (last), counting `per`."""
        w = vector * self.weights(per)
        out = np.bincount(self.where, weights=w, minlength=self.size + 1)
        total = out.sum()
        return out / total if total > 0 else out

    def distribution(self, per: str = "roll") -> np.ndarray:
        """Long-run share of rolls (or turns) ending on each tile, In Jail last."""
        if self.movement.track_cards:
            if self._exact is None:
                self._exact = _qbd_shares(self.movement)
            phases, where, is_roll, ends = self._exact
            w = is_roll if per == "roll" else ends if per == "turn" else None
            if w is None:
                raise ValueError(f"per is 'roll' or 'turn', not {per!r}")
            out = np.bincount(where.astype(np.int64), weights=phases * w,
                              minlength=self.size + 1)
            return np.asarray(out / out.sum())
        return self.aggregate(self.stationary(), per)

    def fundamental(self) -> np.ndarray:
        """Z = (I - P + 1 pi)^-1, for the variance of long-run averages."""
        if self._fundamental is None:
            n = len(self.states)
            pi = self.stationary()
            with one_blas_thread():
                z = np.linalg.inv(np.eye(n) - self.matrix + np.outer(np.ones(n), pi))
            self._fundamental = np.asarray(z)
        return self._fundamental

    def sampling_variance(self, per: str = "roll") -> np.ndarray:
        """Per tile (In Jail last): N x Var(observed share) for N counted rolls (or turns) of
        one long game, as N grows (the Markov chain central limit theorem: the counted
        steps are not independent, so this is not p(1-p))."""
        pi = self.stationary()
        w = self.weights(per)
        m_w = float(pi @ w)
        mu = self.aggregate(pi, per)
        z = self.fundamental()
        out = np.zeros(self.size + 1)
        for slot in range(self.size + 1):
            if mu[slot] == 0.0:
                continue
            h = w * ((self.where == slot).astype(float) - mu[slot])
            sigma2 = float(2.0 * (pi * h) @ (z @ h) - (pi * h) @ h)
            out[slot] = max(sigma2, 0.0) / m_w
        return out


def build_chain(m: Movement, cap: int = 0) -> Chain:
    """All states reachable from the start, and the transition matrix between them."""
    if m.track_cards and cap == 0:
        cap = 8
    index: dict[State, int] = {START: 0}
    states: list[State] = [START]
    rows: list[dict[int, float]] = []
    k = 0
    while k < len(states):
        row: dict[int, float] = {}
        for nxt, p, _total, _landing in steps(m, states[k], cap):
            j = index.get(nxt)
            if j is None:
                j = index[nxt] = len(states)
                states.append(nxt)
            row[j] = row.get(j, 0.0) + p
        rows.append(row)
        k += 1
    n = len(states)
    matrix = np.zeros((n, n))
    for i, row in enumerate(rows):
        for j, p in row.items():
            matrix[i, j] = p
    where, is_roll, ends = _labels(m, states)
    cards = np.array([int(s[-1]) for s in states], dtype=np.int64)  # type: ignore[call-overload]
    return Chain(m, states, matrix, where, is_roll, ends, cards, cap)


def _qbd_shares(m: Movement) -> np.ndarray:
    """Exact long-run shares per phase (a state without its card count), summed over every
    number of held cards, with their labels: rows (share, where, is_roll, ends_turn).

    Levels c >= 1 behave alike (a card in hand is all that matters), so the chain is a
    quasi-birth-death process: pi_{c+1} = pi_c R with R = A0 + R A1 + R^2 A2."""
    phases: list[State] = [START[:-1]]
    index = {START[:-1]: 0}
    trans: list[list[list[tuple[int, int, float]]]] = []  # [phase][level] -> (dlevel, j, p)
    k = 0
    while k < len(phases):
        per_level = []
        for level in (0, 1):
            out = []
            for nxt, p, _t, _l in steps(m, phases[k] + (level,), 3):
                ph = nxt[:-1]
                j = index.get(ph)
                if j is None:
                    j = index[ph] = len(phases)
                    phases.append(ph)
                out.append((int(nxt[-1]) - level, j, p))  # type: ignore[call-overload]
            per_level.append(out)
        trans.append(per_level)
        k += 1
    n = len(phases)
    b1, b0 = np.zeros((n, n)), np.zeros((n, n))
    a2, a1, a0 = np.zeros((n, n)), np.zeros((n, n)), np.zeros((n, n))
    for i, (lv0, lv1) in enumerate(trans):
        for d, j, p in lv0:
            (b1 if d == 0 else b0)[i, j] += p
        for d, j, p in lv1:
            (a2 if d < 0 else a1 if d == 0 else a0)[i, j] += p
    eye = np.eye(n)
    r = np.zeros((n, n))
    with one_blas_thread():
        for _ in range(10_000):
            nxt_r = a0 @ np.linalg.inv(eye - a1 - r @ a2)
            if np.max(np.abs(nxt_r - r)) < 1e-16:
                r = nxt_r
                break
            r = nxt_r
        nn = np.linalg.inv(eye - a1 - r @ a2)
        pi0 = stationary_of(b1 + b0 @ nn @ a2)
        pi1 = pi0 @ b0 @ nn
        total = pi0 + pi1 @ np.linalg.inv(eye - r)
    total = total / total.sum()
    where, is_roll, ends = _labels(m, [ph + (0,) for ph in phases])
    return np.vstack([total, where, is_roll, ends])


def solve_chain(m: Movement) -> Chain:
    """The chain of a compiled movement (see :class:`Chain` for held cards)."""
    return build_chain(m)


__all__ = ["Chain", "State", "START", "build_chain", "solve_chain", "stationary_of", "steps"]
