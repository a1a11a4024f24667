"""The exact Markov chain of one player's movement, solved from its :class:`Transitions`.

The states and transitions are built in plain Python (:mod:`.transitions`, where the states
are described); this module solves them with numpy: a dense matrix for small chains (the
classic board's 118 states take a millisecond or two), scipy.sparse above ``SPARSE_FROM``
states (a board of thousands of tiles), where a dense matrix would cost seconds and GB.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from threadpoolctl import ThreadpoolController  # type: ignore[import-untyped]

from .errors import MissingSciPyError, ProbabilityError
from .model import Movement
from .transitions import (
    MAX_STATES,
    START,
    State,
    Transitions,
    build_transitions,
    labels,
    steps,
)

# Chains above this many states are solved sparse (scipy): measured side by side
# (benchmarks/bench_probability.py --crossover), dense is faster below about 200 states
# (118: 0.5 vs 1.1 ms), sparse above (298: 2.4 vs 7.4 ms; 598: 8 vs 34 ms).
SPARSE_FROM = 250
# Without scipy a chain is solved dense up to this size (a 3000 x 3000 matrix: 72 MB, a
# second or two); a larger one needs scipy (MissingSciPyError says how to install it).
DENSE_MAX = 3000
# Held jail cards (quasi-birth-death, below) are solved exactly with dense phase matrices
# up to this many phases; a larger board solves the chain truncated at a card count whose
# probability is negligible (TRUNCATION_MASS), sparse.
QBD_MAX_PHASES = 400
TRUNCATION_MASS = 1e-12
_THREADS: ThreadpoolController | None = None


def one_blas_thread() -> Any:
    """Small dense algebra: one BLAS thread (threads only cost at this size, and a busy
    2-core machine makes them cost a lot)."""
    global _THREADS
    if _THREADS is None:
        _THREADS = ThreadpoolController()
    return _THREADS.limit(limits=1, user_api="blas")


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


def _scipy_sparse() -> Any:
    try:
        import scipy.sparse  # type: ignore[import-untyped]
        import scipy.sparse.linalg  # type: ignore[import-untyped]
    except ImportError as exc:
        raise MissingSciPyError(
            f"a chain of more than {DENSE_MAX:,} states is solved with scipy.sparse: "
            f"pip install scipy (or pip install ugentopoly_widget[sparse]) ({exc})") from exc
    return scipy.sparse


def _has_scipy() -> bool:
    """Whether scipy can be imported (found, not imported: a chain whose matrix is never
    asked for, such as one solved by its held cards' levels, does not pay for the import)."""
    try:
        return importlib.util.find_spec("scipy") is not None
    except (ImportError, ValueError):  # a broken or blocked scipy (sys.modules["scipy"] = None)
        return False


def dense_matrix(t: Transitions) -> np.ndarray:
    """The transition matrix of `t` as a dense array."""
    n = len(t)
    matrix = np.zeros((n, n))
    indptr = np.frombuffer(t.indptr, dtype=np.int64)
    rows = np.repeat(np.arange(n), np.diff(indptr))
    np.add.at(matrix, (rows, np.frombuffer(t.indices, dtype=np.int64)),
              np.frombuffer(t.probabilities, dtype=np.float64))
    return matrix


def sparse_matrix(t: Transitions) -> Any:
    """The transition matrix of `t` as a ``scipy.sparse.csr_array`` (no copy of the rows)."""
    sparse = _scipy_sparse()
    n = len(t)
    return sparse.csr_array(
        (np.frombuffer(t.probabilities, dtype=np.float64),
         np.frombuffer(t.indices, dtype=np.int64), np.frombuffer(t.indptr, dtype=np.int64)),
        shape=(n, n))


class _SparseSolver:
    """Solves with A = I - P + 1 e_0^T, factorised once (sparse LU).

    A is nonsingular for a chain with one closed class (A x = 0 gives x_0 = 0 from pi A =
    e_0, then (I - P) x = 0, so x is constant, hence 0). pi A = e_0^T gives the stationary
    vector from one transposed solve, and for pi h = 0, A y = h gives (I - P) y = h with
    y_0 = 0: what the fundamental matrix's products need, without the dense n x n inverse."""

    def __init__(self, matrix: Any) -> None:
        sparse = _scipy_sparse()
        n = matrix.shape[0]
        ones = sparse.csc_array((np.ones(n), (np.arange(n), np.zeros(n, dtype=np.int64))),
                                shape=(n, n))
        a = (sparse.eye_array(n, format="csc") - matrix.tocsc() + ones).tocsc()
        self.lu = sparse.linalg.splu(a)
        self.n = n

    def stationary(self) -> np.ndarray:
        e0 = np.zeros(self.n)
        e0[0] = 1.0
        pi = np.asarray(self.lu.solve(e0, trans="T"))
        pi[np.abs(pi) < 1e-17] = 0.0
        return np.asarray(pi / pi.sum())

    def solve(self, rhs: np.ndarray) -> np.ndarray:
        return np.asarray(self.lu.solve(rhs))


@dataclass
class Chain:
    """The states, the transition matrix and the labels of each state.

    ``transitions`` is the plain-Python build (:class:`Transitions`); ``matrix`` the
    transition matrix, a numpy array, or a ``scipy.sparse.csr_array`` when the chain is
    solved sparse (``sparse``: more than ``SPARSE_FROM`` states).

    When held Get Out of Jail Free cards matter (``movement.track_cards``) the number held
    has no upper bound: ``matrix`` then stops at ``cap`` cards (a card drawn at the cap is
    not kept) and :meth:`distribution` is solved exactly over every number of cards as a
    quasi-birth-death process (levels = cards held)."""

    movement: Movement
    transitions: Transitions
    sparse: bool = False
    _matrix: Any = field(default=None, repr=False)
    _solver: _SparseSolver | None = field(default=None, repr=False)
    _stationary: np.ndarray | None = field(default=None, repr=False)
    _fundamental: np.ndarray | None = field(default=None, repr=False)
    _exact: np.ndarray | None = field(default=None, repr=False)  # per (slot, roll, ends)

    def __post_init__(self) -> None:
        t = self.transitions
        self.where: np.ndarray = np.frombuffer(t.where, dtype=np.int64)
        self.is_roll: np.ndarray = np.frombuffer(t.is_roll, dtype=np.int8).astype(bool)
        self.ends_turn: np.ndarray = np.frombuffer(t.ends_turn, dtype=np.int8).astype(bool)
        self.cards: np.ndarray = np.frombuffer(t.cards, dtype=np.int64)

    @property
    def states(self) -> list[State]:
        return self.transitions.states

    @property
    def cap(self) -> int:
        return self.transitions.cap

    @property
    def size(self) -> int:
        return self.movement.size

    @property
    def matrix(self) -> Any:
        """row-stochastic: ``matrix[i, j]`` = P(next state j | state i)."""
        if self._matrix is None:
            t = self.transitions
            self._matrix = sparse_matrix(t) if self.sparse else dense_matrix(t)
        return self._matrix

    def _sparse_solver(self) -> _SparseSolver:
        if self._solver is None:
            self._solver = _SparseSolver(self.matrix)
        return self._solver

    def stationary(self) -> np.ndarray:
        """The long-run share of steps in each state of ``matrix``: pi P = pi, sum(pi) = 1."""
        if self._stationary is None:
            if self.sparse:
                self._stationary = self._sparse_solver().stationary()
            else:
                self._stationary = stationary_of(self.matrix)
        return self._stationary

    def weights(self, per: str) -> np.ndarray:
        if per == "roll":
            return self.is_roll.astype(float)
        if per == "turn":
            return self.ends_turn.astype(float)
        raise ProbabilityError(f"per is 'roll' or 'turn', not {per!r}")

    def aggregate(self, vector: np.ndarray, per: str) -> np.ndarray:
        """A distribution over states -> over tiles + In Jail (last), counting `per`."""
        w = vector * self.weights(per)
        out = np.bincount(self.where, weights=w, minlength=self.size + 1)
        total = out.sum()
        return out / total if total > 0 else out

    def _shares(self) -> np.ndarray:
        """Long-run share of steps per state, with its labels: rows (share, where, is_roll,
        ends_turn); summed over every number of held cards when they matter."""
        if self.movement.track_cards:
            if self._exact is None:
                self._exact = _qbd_shares(self.movement)
                if self._exact is None:  # too many phases for the dense QBD
                    self._exact = _truncated_shares(self)
            return self._exact
        return np.vstack([self.stationary(), self.where.astype(float),
                          self.is_roll.astype(float), self.ends_turn.astype(float)])

    def rolls_per_turn(self) -> float:
        """Long-run rolls per turn: (share of steps that are rolls) / (share that end a turn).
        1 + 1/6 + 1/36 on the classic board, less what jail and cards cut short."""
        shares = self._shares()
        return float((shares[0] @ shares[2]) / (shares[0] @ shares[3]))

    def distribution(self, per: str = "roll") -> np.ndarray:
        """Long-run share of rolls (or turns) ending on each tile, In Jail last; with
        ``per="visits"`` the mean number of rolls per turn that end there (sums to
        :meth:`rolls_per_turn`, more than 1)."""
        w_of = {"roll": 2, "turn": 3, "visits": 2}.get(per)
        if w_of is None:
            raise ProbabilityError(f"per is 'roll', 'turn' or 'visits', not {per!r}")
        shares = self._shares()
        out = np.bincount(shares[1].astype(np.int64), weights=shares[0] * shares[w_of],
                          minlength=self.size + 1)
        if per == "visits":
            return np.asarray(out / float(shares[0] @ shares[3]))
        return np.asarray(out / out.sum())

    def fundamental(self) -> np.ndarray:
        """Z = (I - P + 1 pi)^-1, for the variance of long-run averages (dense chains)."""
        if self.sparse:
            raise ProbabilityError(
                f"the fundamental matrix of a chain of {len(self.states):,} states is a dense "
                f"{len(self.states):,}-square matrix: not made for chains solved sparse "
                "(sampling_variance solves without it)")
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
        out = np.zeros(self.size + 1)
        slots = [slot for slot in range(self.size + 1) if mu[slot] != 0.0]
        if not self.sparse:
            z = self.fundamental()
            for slot in slots:
                h = w * ((self.where == slot).astype(float) - mu[slot])
                sigma2 = float(2.0 * (pi * h) @ (z @ h) - (pi * h) @ h)
                out[slot] = max(sigma2, 0.0) / m_w
            return out
        # Z h = y + (pi h - pi y) 1 with A y = h - (pi h) 1 (see _SparseSolver), in blocks
        solver = self._sparse_solver()
        for first in range(0, len(slots), 64):
            block = np.array(slots[first:first + 64])
            h = w[:, None] * ((self.where[:, None] == block[None, :]) - mu[block][None, :])
            ph = pi @ h
            y = solver.solve(h - ph[None, :])
            zh = y + (ph - pi @ y)[None, :]
            pih = pi[:, None] * h
            sigma2 = 2.0 * np.einsum("ij,ij->j", pih, zh) - np.einsum("ij,ij->j", pih, h)
            out[block] = np.maximum(sigma2, 0.0) / m_w
        return out


def build_chain(m: Movement, cap: int = 0) -> Chain:
    """All states reachable from the start and the transitions between them, to be solved
    dense or sparse by their number (raises ChainTooLargeError above ``MAX_STATES``, and
    MissingSciPyError for a chain above ``DENSE_MAX`` without scipy)."""
    t = build_transitions(m, cap, MAX_STATES)
    n = len(t)
    has_scipy = _has_scipy()
    if n > DENSE_MAX and not has_scipy:
        _scipy_sparse()  # raises MissingSciPyError saying what to install
    return Chain(m, t, n > SPARSE_FROM and has_scipy)


def _qbd_shares(m: Movement) -> np.ndarray | None:
    """Exact long-run shares per phase (a state without its card count), summed over every
    number of held cards, with their labels: rows (share, where, is_roll, ends_turn). None
    when there are more than QBD_MAX_PHASES phases (dense phase matrices would be too big).

    Levels c >= 1 behave alike (a card in hand is all that matters), so the chain is a
    quasi-birth-death process: pi_{c+1} = pi_c R with R = A0 + R A1 + R^2 A2."""
    phases: list[State] = [START[:-1]]
    index = {START[:-1]: 0}
    trans: list[list[list[tuple[int, int, float]]]] = []  # [phase][level] -> (dlevel, j, p)
    k = 0
    while k < len(phases):
        if len(phases) > QBD_MAX_PHASES:
            return None
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
    if n > QBD_MAX_PHASES:
        return None
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
    where, is_roll, ends = labels(m, [ph + (0,) for ph in phases])
    return np.vstack([total, np.asarray(where, dtype=float), np.asarray(is_roll, dtype=float),
                      np.asarray(ends, dtype=float)])


def _truncated_shares(chain: Chain) -> np.ndarray:
    """Held cards on a large board: the chain truncated at a card count held with
    probability below TRUNCATION_MASS (doubled from the chain's cap until it is), solved
    sparse; rows as _qbd_shares gives them."""
    current = chain
    while True:
        pi = current.stationary()
        if float(pi[current.cards == current.cap].sum()) < TRUNCATION_MASS or current.cap >= 64:
            break
        current = build_chain(chain.movement, current.cap * 2)
    return np.vstack([pi, current.where.astype(float), current.is_roll.astype(float),
                      current.ends_turn.astype(float)])


def solve_chain(m: Movement) -> Chain:
    """The chain of a compiled movement (see :class:`Chain` for held cards)."""
    return build_chain(m)


__all__ = ["Chain", "State", "START", "SPARSE_FROM", "DENSE_MAX", "build_chain", "solve_chain",
           "stationary_of", "steps", "dense_matrix", "sparse_matrix"]
