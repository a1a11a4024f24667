"""Sparse LU in pure Python: the probability lab's solves where numpy is absent (the browser
site, docs/lite.md).

Rows are ``{column: value}`` dicts. The matrices solved here are nonsingular M-matrices
(``I - P`` of a Markov chain with one state pinned, or with the states that end an excursion
left out), so Gaussian elimination needs no pivoting and stays stable; the caller chooses an
order that keeps the fill small (:func:`.pure.fill_order`). One factorisation answers both
``A x = b`` and ``A^T x = b``: a stationary vector and the Poisson equations of one chain.
"""

from __future__ import annotations

from collections.abc import Sequence

from .errors import ProbabilityError

Row = dict[int, float]
TINY = 1e-300


class SparseLU:
    """``A = L U`` of a square sparse matrix, eliminated in the order of its rows."""

    def __init__(self, rows: Sequence[Row]) -> None:
        n = len(rows)
        upper = [dict(r) for r in rows]
        below: list[set[int]] = [set() for _ in range(n)]  # per column: rows below holding it
        for i, r in enumerate(upper):
            for j in r:
                if j >= n:
                    raise ValueError(f"row {i} has column {j} of a {n} x {n} matrix")
                if i > j:
                    below[j].add(i)
        lower: list[Row] = [{} for _ in range(n)]
        for k in range(n):
            pivot_row = upper[k]
            pivot = pivot_row.get(k, 0.0)
            if abs(pivot) < TINY:
                raise ProbabilityError("the chain's linear system is singular (a state that "
                                       "can never be left, or none that is ever reached)")
            tail = [(j, v) for j, v in pivot_row.items() if j > k]
            for i in sorted(below[k]):
                row = upper[i]
                f = row.pop(k) / pivot
                if f == 0.0:
                    continue
                lower[i][k] = f
                for j, v in tail:
                    if j in row:
                        row[j] -= f * v
                    else:
                        row[j] = -f * v
                        if i > j:
                            below[j].add(i)
        self.n = n
        self.lower = lower
        self.upper = upper

    @property
    def fill(self) -> int:
        """Stored entries of L and U (the solves cost about this many multiply-adds)."""
        return sum(map(len, self.lower)) + sum(map(len, self.upper))

    def solve(self, b: Sequence[float]) -> list[float]:
        """x with A x = b."""
        y = list(b)
        for i, row in enumerate(self.lower):
            s = y[i]
            for k, f in row.items():
                s -= f * y[k]
            y[i] = s
        x = [0.0] * self.n
        for i in range(self.n - 1, -1, -1):
            row = self.upper[i]
            s = y[i]
            for j, v in row.items():
                if j > i:
                    s -= v * x[j]
            x[i] = s / row[i]
        return x

    def solve_transposed(self, b: Sequence[float]) -> list[float]:
        """x with A^T x = b (U^T then L^T, as scatters along the stored rows)."""
        z = list(b)
        for i, row in enumerate(self.upper):
            zi = z[i] / row[i]
            z[i] = zi
            if zi != 0.0:
                for j, v in row.items():
                    if j > i:
                        z[j] -= v * zi
        for i in range(self.n - 1, -1, -1):
            zi = z[i]
            if zi != 0.0:
                for k, f in self.lower[i].items():
                    z[k] -= f * zi
        return z


def dense_solve(a: list[list[float]], b: list[list[float]]) -> list[list[float]]:
    """X with A X = B for a small dense A (Gauss-Jordan, partial pivoting); ProbabilityError
    when A is singular."""
    n = len(a)
    m = [list(row) + list(rhs) for row, rhs in zip(a, b, strict=True)]
    width = len(m[0]) if m else 0
    for k in range(n):
        p = max(range(k, n), key=lambda i: abs(m[i][k]))
        if abs(m[p][k]) < 1e-14:
            raise ProbabilityError("singular system")
        m[k], m[p] = m[p], m[k]
        pivot = m[k]
        for i in range(n):
            if i != k and m[i][k] != 0.0:
                f = m[i][k] / pivot[k]
                row = m[i]
                for j in range(k, width):
                    row[j] -= f * pivot[j]
    return [[v / m[i][i] for v in m[i][n:]] for i in range(n)]


__all__ = ["Row", "SparseLU", "dense_solve"]
