"""Time on the board, exactly: how long a jail stay lasts, how fast the long run is reached
(mixing), and how many rolls until a tile is first landed on (hitting times).

All three read the solved chain (:func:`.api.landing_model`): the jail states as an absorbing
chain, the chain seen once per turn, and the fundamental matrix ``(I - Q)^-1`` of the chain
with the target states made absorbing. The maths for students: docs/probability.md.

>>> jail_time("classic", board="bundled:classic-standard-decks", jail="long").expected
2.527777777777778
>>> round(91 / 36, 15)
2.527777777777778
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from ..engine.boards.board import Board
from ..engine.rules import RulesProfile
from .api import Source, landing_model
from .chain import (
    DENSE_MAX,
    TRUNCATION_MASS,
    Chain,
    build_chain,
    one_blas_thread,
    stationary_of,
)
from .errors import ArgumentError, MissingJailError, ProbabilityError
from .model import Movement
from .transitions import State

TAIL = 1e-12  # a distribution's table stops once what is left is below this
MAX_ROWS = 5000
MAX_TURNS = 10_000


def dense(chain: Chain) -> np.ndarray:
    """The chain's matrix as a dense array (the lessons invert blocks of it)."""
    n = len(chain.states)
    if n > DENSE_MAX:
        raise ProbabilityError(f"this chain has {n:,} states; the timing lessons solve it "
                               f"dense, up to {DENSE_MAX:,} states")
    matrix = chain.matrix
    return np.asarray(matrix.toarray() if chain.sparse else matrix)


def _kinds(chain: Chain) -> np.ndarray:
    return np.array([str(s[0]) for s in chain.states])


# ---------------------------------------------------------------- time in jail


@dataclass(frozen=True)
class JailTime:
    """How many turns a jailed player begins in jail, the turn they leave included.

    ``table``: turns, probability, cumulative (and ``without_card``, ``with_card`` when a held
    Get Out of Jail Free card is used by itself); ``expected`` over the jailings of the long
    run; ``p_card``: the share of those who hold a card when jailed."""

    rule: str
    expected: float
    table: pd.DataFrame
    p_card: float = 0.0
    expected_without_card: float | None = None
    expected_with_card: float | None = None


def _rule_text(chain: Chain) -> str:
    m = chain.movement
    r = m.rules
    if m.skip_turns:
        return f"skip {m.skip_turns} turn{'s' if m.skip_turns > 1 else ''}, then play on"
    if m.leave_at_once:
        text = f"pay {r.jail_fine} at once and take a normal turn"
    else:
        cap = (f"released after {m.max_jail_turns} failed tries"
               + (f" (paying {r.jail_fine})" if m.can_pay else "")
               if m.max_jail_turns else "no limit on tries")
        text = f"roll for doubles, leave moving by that roll; {cap}"
    if m.track_cards:
        text += "; a held Get Out of Jail Free card is used at once"
    return text


def _passage(q: np.ndarray, start: np.ndarray) -> tuple[float, np.ndarray]:
    """Steps spent in a transient block `q` entered with weights `start` (a distribution):
    the expected number, and P(exactly t) for t = 1, 2, ... until the tail is negligible."""
    exit_ = 1.0 - q.sum(axis=1)
    with one_blas_thread():
        expected = float(start @ np.linalg.solve(np.eye(len(q)) - q, np.ones(len(q))))
    probs: list[float] = []
    mass = start.copy()
    while mass.sum() > TAIL and len(probs) < MAX_ROWS:
        probs.append(float(mass @ exit_))
        mass = mass @ q
    return expected, np.array(probs)


def _untruncated(chain: Chain) -> Chain:
    """With held jail cards, the chain truncated where the card count at its cap is held
    with probability below TRUNCATION_MASS (1e-12; the chain's own cap, 8, holds 0.7 %):
    the share of jailings with a card in hand then is exact to that."""
    if not chain.movement.track_cards:
        return chain
    current = chain
    while float(current.stationary()[current.cards == current.cap].sum()) >= TRUNCATION_MASS \
            and current.cap < 64:
        current = build_chain(chain.movement, current.cap * 2)
    return current


def _stays(m: Movement, state: State) -> list[tuple[State, float]]:
    """The steps of a jailed player that keep them in jail (a failed try at doubles, a
    skipped turn with more to skip), with their probabilities. A player who leaves and is
    sent back the same turn (a 12 onto Chance and its "go to jail" card) is jailed anew."""
    kind, c = state[0], state[-1]
    if kind == "skipped":
        left = int(state[1])  # type: ignore[call-overload]
        return [(("skipped", left - 1, c), 1.0)] if left > 1 else []
    if m.skip_turns:
        return [(("skipped", m.skip_turns - 1, c), 1.0)] if m.skip_turns > 1 else []
    if (m.track_cards and int(c) > 0  # type: ignore[call-overload]
            and (m.card_auto or m.options.jail == "short")) or m.leave_at_once:
        return []
    tries = int(state[1]) + 1  # type: ignore[call-overload]
    if m.max_jail_turns is not None and tries >= m.max_jail_turns:
        return []  # released: pay (or go free) and move
    fail = sum(r.probability for r in m.rolls if not r.double)
    return [(("jail", tries if m.max_jail_turns else 0, c), fail)]


def jail_time(
    game_or_board: Source,
    rules: RulesProfile | str | None = None,
    *,
    jail: Literal["short", "long"] = "short",
    board: Board | str | os.PathLike[str] | None = None,
    **assumptions: Any,
) -> JailTime:
    """Turns begun in jail per jailing (the one the player leaves in included), under the
    profile's jail rules and the strategy, over the jailings of the long run.

    The classic long stay (roll for doubles, pay after the third failed try):
    1 * 1/6 + 2 * (5/6)(1/6) + 3 * (5/6)^2 = 91/36 turns; the short one pays at once: 1.
    Ugentopoly (doubles only, no limit): 6 turns without a card, 1 with one; 22-cell: the
    skipped turn."""
    if jail == "off":  # type: ignore[comparison-overlap]
        raise ArgumentError("jail='off' has no jail to stay in")
    chain = _untruncated(landing_model(game_or_board, rules, jail=jail, board=board,
                                       **assumptions))
    m = chain.movement
    if m.jail is None:
        raise MissingJailError(f"{m.board.source}: the board has no JAIL tile")
    kinds = _kinds(chain)
    inside = np.flatnonzero((kinds == "jail") | (kinds == "skipped"))
    local = {chain.states[i]: k for k, i in enumerate(inside)}
    q = np.zeros((len(inside), len(inside)))
    for k, i in enumerate(inside):
        for nxt, prob in _stays(m, chain.states[i]):
            q[k, local[nxt]] += prob
    pi = chain.stationary()
    into = np.asarray(chain.matrix[:, inside].T @ pi).ravel()  # dense or sparse alike
    flow = into - pi[inside] @ q  # long-run jailings, by the state entered
    flow[flow < 1e-15] = 0.0
    if not len(inside) or flow.sum() <= 0:
        raise ProbabilityError("nothing sends a player to jail on this board under these "
                               "rules: there is no stay to time")
    expected, probs = _passage(q, flow / flow.sum())
    table = pd.DataFrame({"turns": np.arange(1, len(probs) + 1), "probability": probs})
    if not m.track_cards:
        table["cumulative"] = table.probability.cumsum()
        return JailTime(_rule_text(chain), expected, table)
    has_card = chain.cards[inside] > 0
    parts: dict[str, float | None] = {}
    columns: dict[str, np.ndarray] = {}
    for name, mask in (("without_card", ~has_card), ("with_card", has_card)):
        weights = np.where(mask, flow, 0.0)
        parts[name] = None
        columns[name] = np.zeros(0)
        if weights.sum() > 0:
            parts[name], columns[name] = _passage(q, weights / weights.sum())
    rows = max(len(probs), *(len(c) for c in columns.values()))
    table = pd.DataFrame({"turns": np.arange(1, rows + 1),
                          "probability": np.pad(probs, (0, rows - len(probs)))})
    for name, column in columns.items():
        table[name] = np.pad(column, (0, rows - len(column)))
    table["cumulative"] = table.probability.cumsum()
    return JailTime(_rule_text(chain), expected, table,
                    float(flow[has_card].sum() / flow.sum()),
                    parts["without_card"], parts["with_card"])


# ---------------------------------------------------------------- mixing


def turn_matrix(chain: Chain) -> tuple[np.ndarray, np.ndarray]:
    """The chain seen at the end of each turn: ``K = P_EE + P_EN (I - P_NN)^-1 P_NE`` over
    the states E that end a turn (N: mid-turn states, a double or a card going on), and the
    indices of E in the chain."""
    p = dense(chain)
    ends = np.flatnonzero(chain.ends_turn)
    mid = np.flatnonzero(~chain.ends_turn)
    k = p[np.ix_(ends, ends)]
    if len(mid):
        with one_blas_thread():
            through = np.linalg.solve(np.eye(len(mid)) - p[np.ix_(mid, mid)],
                                      p[np.ix_(mid, ends)])
        k = k + p[np.ix_(ends, mid)] @ through
    return k, ends


def _slem(matrix: np.ndarray) -> float:
    with one_blas_thread():
        moduli = np.sort(np.abs(np.linalg.eigvals(matrix)))[::-1]
    return float(moduli[1]) if len(moduli) > 1 else 0.0


def second_eigenvalue(
    game_or_board: Source,
    rules: RulesProfile | str | None = None,
    *,
    per: Literal["turn", "roll"] = "turn",
    jail: Literal["short", "long", "off"] = "short",
    board: Board | str | os.PathLike[str] | None = None,
    **assumptions: Any,
) -> float:
    """The second-largest eigenvalue modulus of the chain per turn (or per roll): the
    distance to the long run shrinks about this factor each turn (roll)."""
    chain = landing_model(game_or_board, rules, jail=jail, board=board, **assumptions)
    matrix = turn_matrix(chain)[0] if _step(per) == "turn" else dense(chain)
    return _slem(matrix)


def _step(per: str) -> str:
    if not isinstance(per, str) or per not in ("turn", "roll"):
        raise ArgumentError(f"per is 'turn' or 'roll', not {per!r}")
    return per


def mixing(
    game_or_board: Source,
    rules: RulesProfile | str | None = None,
    *,
    turns: int = 40,
    per: Literal["turn", "roll"] = "turn",
    jail: Literal["short", "long", "off"] = "short",
    board: Board | str | os.PathLike[str] | None = None,
    **assumptions: Any,
) -> pd.DataFrame:
    """How far the chance of where turn *t* ends (for a player who starts on GO) lies from
    the long run, for t = 0 .. `turns`. ``per="roll"``: after each step instead (a roll, or
    a turn skipped in jail).

    Columns: turns (or rolls), total_variation (over the tiles, In Jail apart),
    state_total_variation (over the chain's states: never grows), max_relative_error
    (the worst tile's |P_t / pi - 1|). ``attrs["slem"]``: the second-largest eigenvalue
    modulus, the factor by which the distance shrinks per turn in the end."""
    per = _step(per)  # type: ignore[assignment]
    if isinstance(turns, bool) or not isinstance(turns, (int, np.integer)) or not (
            0 <= turns <= MAX_TURNS):
        raise ArgumentError(f"turns is a whole number from 0 to {MAX_TURNS:,}, not {turns!r}")
    chain = landing_model(game_or_board, rules, jail=jail, board=board, **assumptions)
    if per == "turn":
        matrix, index = turn_matrix(chain)
    else:
        matrix, index = dense(chain), np.arange(len(chain.states))
    where = chain.where[index]
    pi = stationary_of(matrix)
    size = chain.size + 1
    target = np.bincount(where, weights=pi, minlength=size)
    mu = np.zeros(len(index))
    mu[int(np.flatnonzero(index == 0)[0])] = 1.0  # START: on GO, a turn about to begin
    rows = []
    for t in range(int(turns) + 1):
        tiles = np.bincount(where, weights=mu, minlength=size)
        seen = target > 0
        rows.append((t, 0.5 * float(np.abs(tiles - target).sum()),
                     0.5 * float(np.abs(mu - pi).sum()),
                     float(np.max(np.abs(tiles[seen] / target[seen] - 1.0)))))
        mu = mu @ matrix
    table: pd.DataFrame = pd.DataFrame(rows, columns=["turns" if per == "turn" else "rolls",
                                                      "total_variation",
                                                      "state_total_variation",
                                                      "max_relative_error"])
    table.attrs["slem"] = _slem(matrix)
    return table


# ---------------------------------------------------------------- hitting times


def _target_slots(chain: Chain, target: Any) -> tuple[str, list[int]]:
    """A target as (label, slots): a tile position, "jail" (In Jail), a colour group's
    name, or a list of positions (the first landing on any of them)."""
    board = chain.movement.board
    size = chain.size
    if isinstance(target, str):
        if target in ("jail", "in jail", "In Jail"):
            if chain.movement.jail is None:
                raise MissingJailError(f"{board.source}: the board has no JAIL tile")
            return "In Jail", [size]
        tiles = [t.position for t in board.tiles if t.area == target]
        if not tiles:
            groups = sorted({t.area for t in board.tiles if t.area})
            raise ArgumentError(f"no tile or group {target!r}: a target is a position, "
                                f"'jail', a group ({', '.join(groups)}) or a list of positions")
        return target, tiles
    if isinstance(target, (int, np.integer)) and not isinstance(target, bool):
        if not 0 <= target < size:
            raise ArgumentError(f"position {target} is not on the board (0..{size - 1})")
        return board.tile_name(int(target)), [int(target)]
    if isinstance(target, (list, tuple, set, frozenset)) and target:
        slots = sorted({s for t in target for s in _target_slots(chain, t)[1]})
        return "any of " + ", ".join(map(str, slots)), slots
    raise ArgumentError(f"a target is a position, 'jail', a group name or a list of "
                        f"positions, not {target!r}")


def _reachers(adjacent: np.ndarray, goal: np.ndarray, allowed: np.ndarray) -> np.ndarray:
    """States in `allowed` with a path (through `allowed`) into `goal`."""
    reach = np.zeros(len(goal), dtype=bool)
    frontier = goal.copy()
    while True:
        new = allowed & ~reach & adjacent[:, frontier].any(axis=1)
        if not new.any():
            return reach
        reach |= new
        frontier = new


class Hitting:
    """Expected steps until first landing on a target, from every state (the fundamental
    matrix of the chain with the target states made absorbing), with the second moment."""

    def __init__(self, chain: Chain, matrix: np.ndarray, slots: Sequence[int], per: str
                 ) -> None:
        hit = chain.is_roll & np.isin(chain.where, list(slots))  # a roll that ends there
        rest = ~hit
        # reward of a step into state j: a roll (per roll), or a turn ended before the hit
        reward = (chain.is_roll.astype(float) if per == "roll"
                  else np.where(hit, 0.0, chain.ends_turn.astype(float)))
        adjacent = matrix > 0
        can_hit = _reachers(adjacent, hit, rest)
        lost = _reachers(adjacent, rest & ~can_hit, rest) | (rest & ~can_hit)
        good = np.flatnonzero(rest & ~lost)  # from here a hit is certain
        self.mean = np.full(len(hit), np.inf)
        self.second = np.full(len(hit), np.inf)
        self.mean[hit] = self.second[hit] = 0.0
        if len(good):
            q = matrix[np.ix_(good, good)]
            a = np.eye(len(good)) - q
            with one_blas_thread():
                m = np.linalg.solve(a, matrix[good] @ reward)
                s = np.linalg.solve(a, matrix[good] @ reward
                                    + 2.0 * matrix[np.ix_(good, good)] @ (reward[good] * m))
            self.mean[good], self.second[good] = m, s
        self.matrix, self.reward, self.hit = matrix, reward, hit
        self.offset = 0.0 if per == "roll" else 1.0  # turns: the turn of the hit counts

    def from_state(self, i: int) -> tuple[float, float]:
        """(mean, standard deviation) of the steps from state `i` until the first hit (the
        state's own landing not counted: it is where the count starts)."""
        row = self.matrix[i]
        ahead = np.where(self.hit, 0.0, self.mean)
        ahead2 = np.where(self.hit, 0.0, self.second)
        if np.any((row > 0) & ~np.isfinite(ahead)):
            return np.inf, np.inf
        mean = float(row @ (self.reward + ahead))
        second = float(row @ (self.reward + 2.0 * self.reward * ahead + ahead2))
        return mean + self.offset, float(np.sqrt(max(second - mean * mean, 0.0)))


def _start_state(chain: Chain, start: Any) -> int:
    state: tuple[object, ...]
    if start == "jail":
        state = ("jail", 0, 0)
    elif isinstance(start, (int, np.integer)) and not isinstance(start, bool):
        state = ("free", int(start), -1, 0)
    else:
        raise ArgumentError(f"start is a position or 'jail', not {start!r}")
    try:
        return chain.states.index(state)
    except ValueError:
        raise ArgumentError(f"no turn begins at {start!r} on this board (a Go To Jail tile "
                            "is never stood on)") from None


def hitting_times(
    game_or_board: Source,
    rules: RulesProfile | str | None = None,
    *,
    targets: Any = None,
    start: int | str = 0,
    per: Literal["roll", "turn"] = "roll",
    jail: Literal["short", "long", "off"] = "short",
    board: Board | str | os.PathLike[str] | None = None,
    **assumptions: Any,
) -> pd.DataFrame:
    """Expected rolls (``per="turn"``: turns, the one of the landing included) until a
    player who begins a turn on `start` (GO; or ``"jail"``) first lands on each target.

    ``targets``: a list of targets (default: every tile, then In Jail); a target is a
    position, ``"jail"``, a colour group's name or a list of positions (any of them).
    Columns: target, tiles, expected, sd. Exact: the fundamental matrix."""
    per = _per_hit(per)
    chain = landing_model(game_or_board, rules, jail=jail, board=board, **assumptions)
    matrix = dense(chain)
    first = _start_state(chain, start)
    if targets is None:
        targets = [*range(chain.size), "jail"] if chain.movement.jail is not None and \
            jail != "off" else list(range(chain.size))
    elif not isinstance(targets, (list, tuple)):
        targets = [targets]
    rows = []
    for target in targets:
        label, slots = _target_slots(chain, target)
        mean, sd = Hitting(chain, matrix, slots, per).from_state(first)
        rows.append((label, tuple(slots), mean, sd))
    result: pd.DataFrame = pd.DataFrame(rows, columns=["target", "tiles", "expected", "sd"])
    return result


def _per_hit(per: str) -> Literal["roll", "turn"]:
    if not isinstance(per, str) or per not in ("roll", "turn"):
        raise ArgumentError(f"per is 'roll' or 'turn', not {per!r}")
    return per  # type: ignore[return-value]


__all__ = ["JailTime", "jail_time", "mixing", "second_eigenvalue", "turn_matrix",
           "hitting_times", "Hitting", "dense"]
