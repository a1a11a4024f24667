"""The exact chain's figures in pure Python: what the widget's Odds tab shows where numpy and
pandas are absent (the browser site, docs/lite.md), the same numbers as :mod:`.chain`.

The chain is the same: the rows of :func:`.transitions.build_transitions`, solved by
a sparse LU (:mod:`.pure_linalg`) in an order that keeps the fill small: classic's 118 states
take a few milliseconds. Held Get Out of Jail Free cards (Ugentopoly) have no upper bound;
:mod:`.chain` solves them as a quasi-birth-death process, here they are solved *by
excursions*: cut the game at every arrival In Jail. An excursion from jail with a card in hand
starts with the card used (one card fewer), one without starts by sitting the term out; either
way what follows does not depend on how many cards are held, so each kind of excursion has
expected counts per tile ``V0``, ``V1`` and expected cards drawn ``K0``, ``K1`` (two solves of
the ~120 card-free states). The cards held at successive arrivals form the chain
``c' = c - 1 + K1`` (c >= 1), ``c' = K0`` (c = 0), whose share of arrivals without a card is
``p0 = (1 - E K1) / (1 - E K1 + E K0)`` (its mean change is zero); the long-run shares are
``(p0 V0 + (1 - p0) V1)`` normalised (renewal-reward). Exact, as the QBD is.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import ArgumentError, ProbabilityError
from .model import Movement, Options, compile_movement
from .pure_linalg import Row, SparseLU
from .transitions import START, State, Transitions, build_transitions, labels, steps

if TYPE_CHECKING:
    from ..engine.boards.board import Board
    from ..engine.game import Game
    from ..engine.rules import RulesProfile

JAIL_PHASE: tuple[object, ...] = ("jail", 0)  # where excursions start and end (cards apart)


def fill_order(rows: Sequence[Row], levels: Sequence[int]) -> list[int]:
    """An elimination order with little fill: by held cards, then by how many states lead
    into a state (the jail states, which nearly every state leads into, come last)."""
    indegree = [0] * len(rows)
    for row in rows:
        for j in row:
            indegree[j] += 1
    return sorted(range(len(rows)), key=lambda i: (levels[i], indegree[i], i))


def _reduced(rows: Sequence[Row], keep: Sequence[int]) -> list[Row]:
    """``I - P`` on the states `keep` (in that order), renumbered."""
    pos = {s: k for k, s in enumerate(keep)}
    out: list[Row] = []
    for k, s in enumerate(keep):
        row: Row = {k: 1.0}
        for j, p in rows[s].items():
            c = pos.get(j)
            if c is not None:
                row[c] = row.get(c, 0.0) - p
        out.append(row)
    return out


def _weights(per: str, is_roll: Sequence[int], ends: Sequence[int]) -> Sequence[int]:
    if per == "roll":
        return is_roll
    if per == "turn":
        return ends
    raise ArgumentError(f"per is 'roll' or 'turn', not {per!r}")


def _aggregate(vector: Sequence[float], weights: Sequence[int], where: Sequence[int],
               size: int) -> list[float]:
    out = [0.0] * (size + 1)
    for v, w, slot in zip(vector, weights, where, strict=True):
        if w:
            out[slot] += v
    total = sum(out)
    return [x / total for x in out] if total > 0 else out


@dataclass
class PureChain:
    """:class:`.chain.Chain` without numpy: the same :class:`.transitions.Transitions`, solved
    from its rows as ``{next state: probability}`` dicts (what :class:`.SparseLU` takes)."""

    movement: Movement
    transitions: Transitions
    _rows: list[Row] | None = field(default=None, repr=False)
    _factor: tuple[SparseLU, list[int], int] | None = field(default=None, repr=False)
    _stationary: list[float] | None = field(default=None, repr=False)
    _exact: dict[str, list[float]] | None = field(default=None, repr=False)

    @property
    def size(self) -> int:
        return self.movement.size

    @property
    def states(self) -> list[State]:
        return self.transitions.states

    @property
    def where(self) -> Sequence[int]:
        return self.transitions.where

    @property
    def is_roll(self) -> Sequence[int]:
        return self.transitions.is_roll

    @property
    def ends_turn(self) -> Sequence[int]:
        return self.transitions.ends_turn

    @property
    def cards(self) -> Sequence[int]:
        return self.transitions.cards

    @property
    def cap(self) -> int:
        return self.transitions.cap

    @property
    def rows(self) -> list[Row]:
        """``rows[i][j]`` = P(next state j | state i)."""
        if self._rows is None:
            t = self.transitions
            self._rows = [dict(t.row(i)) for i in range(len(t))]
        return self._rows

    def _lu(self) -> tuple[SparseLU, list[int], int]:
        """``I - P`` with one state (the last of the fill order, a jail state when there is
        one: every recurrent chain here passes through it) pinned, factorised once."""
        if self._factor is None:
            order = fill_order(self.rows, self.cards)
            pinned, keep = order[-1], order[:-1]
            self._factor = (SparseLU(_reduced(self.rows, keep)), keep, pinned)
        return self._factor

    def stationary(self) -> list[float]:
        """pi P = pi, sum(pi) = 1, over the states of ``rows`` (cards capped at ``cap``)."""
        if self._stationary is None:
            lu, keep, pinned = self._lu()
            rhs = [self.rows[pinned].get(s, 0.0) for s in keep]  # pi_pinned = 1
            x = lu.solve_transposed(rhs)
            pi = [0.0] * len(self.states)
            pi[pinned] = 1.0
            for s, v in zip(keep, x, strict=True):
                pi[s] = v
            total = sum(pi)
            self._stationary = [v / total if abs(v / total) >= 1e-17 else 0.0 for v in pi]
        return self._stationary

    def distribution(self, per: str = "roll") -> list[float]:
        """Long-run share of rolls (or turns) ending on each tile, In Jail last."""
        weights = _weights(per, self.is_roll, self.ends_turn)
        if self.movement.track_cards:
            if self._exact is None:
                self._exact = excursion_shares(self.movement)
            return list(self._exact[per])
        return _aggregate(self.stationary(), weights, self.where, self.size)

    def sampling_variance(self, per: str = "roll") -> list[float]:
        """As :meth:`.chain.Chain.sampling_variance` (the Markov chain CLT): per tile, N x the
        variance of the observed share after N counted steps of one long game."""
        pi = self.stationary()
        w = [1.0 if x else 0.0 for x in _weights(per, self.is_roll, self.ends_turn)]
        m_w = sum(p * x for p, x in zip(pi, w, strict=True))
        mu = _aggregate(pi, [x > 0 for x in w], self.where, self.size)
        lu, keep, pinned = self._lu()
        out = [0.0] * (self.size + 1)
        for slot in range(self.size + 1):
            if mu[slot] == 0.0:
                continue
            h = [wi * ((1.0 if where == slot else 0.0) - mu[slot])
                 for wi, where in zip(w, self.where, strict=True)]
            x = lu.solve([h[s] for s in keep])  # (I - P) y = h, y_pinned = 0
            y = [0.0] * len(h)
            for s, v in zip(keep, x, strict=True):
                y[s] = v
            shift = sum(p * v for p, v in zip(pi, y, strict=True))  # pi (y - shift) = 0: Z h
            ph = [p * v for p, v in zip(pi, h, strict=True)]
            sigma2 = 2.0 * sum(a * (b - shift) for a, b in zip(ph, y, strict=True)) - sum(
                a * b for a, b in zip(ph, h, strict=True))
            out[slot] = max(sigma2, 0.0) / m_w
        return out


def build_pure_chain(m: Movement, cap: int = 0) -> PureChain:
    """The chain of `m` (held cards counted up to `cap`, 8 by default, as
    :func:`.chain.build_chain`); ChainTooLargeError above ``transitions.MAX_STATES``."""
    return PureChain(m, build_transitions(m, cap))


def excursion_shares(m: Movement) -> dict[str, list[float]]:
    """Exact long-run shares per roll and per turn when held jail cards matter (see the
    module's docstring): two excursion solves on the states without their card count."""

    def moves(phase: tuple[object, ...], cards: int) -> Row:
        """Next phases (a card gained: the phase's index + n_phases) and their probabilities."""
        out: dict[tuple[tuple[object, ...], int], float] = {}
        for nxt, p, _t, _l in steps(m, (*phase, cards), 2):
            key = (nxt[:-1], int(nxt[-1]))  # type: ignore[call-overload]
            out[key] = out.get(key, 0.0) + p
        return {_index(ph) * 2 + gained: p for (ph, gained), p in out.items()}

    phases: list[tuple[object, ...]] = []
    index: dict[tuple[object, ...], int] = {}

    def _index(ph: tuple[object, ...]) -> int:
        k = index.get(ph)
        if k is None:
            k = index[ph] = len(phases)
            phases.append(ph)
        return k

    _index(JAIL_PHASE)
    _index(START[:-1])
    first = [moves(JAIL_PHASE, 0), moves(JAIL_PHASE, 1)]  # sit the term out / use a card
    rows: list[Row] = [{}]
    k = 1
    while k < len(phases):
        rows.append(moves(phases[k], 0))
        k += 1
    n = len(phases)

    def merged(row: Row) -> tuple[Row, float]:
        """(next phase -> p, P(a card is gained))"""
        out: Row = {}
        gain = 0.0
        for code, p in row.items():
            out[code // 2] = out.get(code // 2, 0.0) + p
            if code % 2:
                gain += p
        return out, gain

    trans = [merged(r) for r in rows]
    where, is_roll, ends = labels(m, [(*ph, 0) for ph in phases])
    # every phase but In Jail: the excursion runs through them until it is back In Jail
    order_rows = [trans[s][0] for s in range(n)]
    order = [s for s in fill_order(order_rows, [0] * n) if s != 0]
    lu = SparseLU(_reduced(order_rows, order))
    shares: dict[str, list[list[float]]] = {"roll": [], "turn": []}
    gained: list[float] = []
    for start in first:
        entry, gain = merged(start)
        visits = lu.solve_transposed([entry.get(s, 0.0) for s in order])  # a (I - Q)^-1
        by_state = dict(zip(order, visits, strict=True))
        gained.append(gain + sum(v * trans[s][1] for s, v in by_state.items()))
        for per, weights in (("roll", is_roll), ("turn", ends)):
            counts = [0.0] * (m.size + 1)
            for s, v in by_state.items():
                if weights[s]:
                    counts[where[s]] += v
            if weights[0]:
                counts[where[0]] += 1.0  # every excursion ends with one arrival In Jail
            shares[per].append(counts)
    k0, k1 = gained
    if k1 >= 1.0:
        raise ProbabilityError(f"{m.board.source}: players gain Get Out of Jail Free cards "
                               "faster than they use them: held cards grow without bound")
    p0 = (1.0 - k1) / (1.0 - k1 + k0)
    result = {}
    for per, (v0, v1) in shares.items():
        mix = [p0 * a + (1.0 - p0) * b for a, b in zip(v0, v1, strict=True)]
        total = sum(mix)
        result[per] = [x / total for x in mix]
    return result


# --------------------------------------------------------------------------- the game
def doubles_this_turn(game: Game, player: int) -> int:
    """Doubles rolled so far in the player's turn, if their next roll goes on with it."""
    decision = game.decision
    if decision.player != player or decision.kind in ("post_roll", "game_over"):
        return 0
    events = game.events
    start = len(events)
    while start > 0 and not (events[start - 1].kind == "turn_started"
                             and events[start - 1].player == player):
        start -= 1
    doubles, last_double, rolled = 0, False, False
    for k in range(start, len(events)):
        e = events[k]
        if e.kind == "rolled" and e.player == player and "purpose" not in e.data:
            rolled = True
            jail_roll = k + 1 < len(events) and events[k + 1].kind in ("left_jail",
                                                                         "stayed_in_jail")
            last_double = bool(e.data["double"]) and not jail_roll
            doubles += last_double
    goes_on = (decision.kind == "turn" and rolled) or last_double
    return doubles if goes_on else 0


def game_state(game: Game, m: Movement, player: int) -> State:
    """The chain state a player of a live game stands in."""
    p = game.players[player]
    c = len(p.jail_cards) if m.track_cards else 0
    if p.in_jail:
        if m.skip_turns > 0 and 0 < p.jail_skip < m.skip_turns:
            return ("skipped", p.jail_skip, c)
        return ("jail", p.jail_tries if m.max_jail_turns else 0, c)
    return ("free", p.position, doubles_this_turn(game, player), c)


def next_roll_shares(m: Movement, state: State) -> list[float]:
    """Where the next roll from `state` ends (tiles, In Jail last); a turn skipped in jail
    is passed over: the next *roll* is shown."""
    cap = int(state[-1]) + 2  # type: ignore[call-overload]
    out = [0.0] * (m.size + 1)
    frontier: list[tuple[State, float]] = [(state, 1.0)]
    while frontier:
        nxt: list[tuple[State, float]] = []
        for s, w in frontier:
            for t, p, _total, _landing in steps(m, s, cap):
                if t[0] in ("skipped", "released"):
                    nxt.append((t, w * p))
                elif t[0] == "jail":
                    out[m.size] += w * p
                else:
                    out[int(t[1])] += w * p  # type: ignore[call-overload]
        frontier = nxt
    return out


# --------------------------------------------------------------------------- for the widget
_CACHE: OrderedDict[tuple[int, RulesProfile, Options], tuple[Board, PureChain]] = OrderedDict()


def pure_landing_model(game: Game, jail: str = "short") -> PureChain:
    """The game's chain (cached per board, rules and strategy, as :func:`.api.landing_model`)."""
    options = Options(jail=jail)  # type: ignore[arg-type]
    options.check()
    key = (id(game.board), game.rules, options)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is game.board:
        _CACHE.move_to_end(key)
        return hit[1]
    chain = build_pure_chain(compile_movement(game.board, game.rules, options))
    _CACHE[key] = (game.board, chain)
    while len(_CACHE) > 16:
        _CACHE.popitem(last=False)
    return chain


def overlay_values(game: Game, mode: str, jail: str = "short", per: str = "roll"
                   ) -> list[float]:
    """The values of :func:`.api.overlay` (per roll or per turn; tiles, In Jail last) for a
    live game; a next roll is one roll whatever `per`."""
    chain = pure_landing_model(game, jail)
    if mode == "next":
        return next_roll_shares(chain.movement,
                                game_state(game, chain.movement, game.current_player))
    exact = chain.distribution(per)
    if mode == "exact":
        return exact
    landings = game.landings(per)  # type: ignore[arg-type]
    counts = [*landings.tiles, landings.in_jail]
    n = sum(counts)
    observed = [c / n for c in counts] if n else [0.0] * len(counts)
    if mode == "observed":
        return observed
    if mode == "difference":
        return [o - e for o, e in zip(observed, exact, strict=True)]
    raise ArgumentError(f"mode is one of exact, observed, difference, next, not {mode!r}")


def log_points(n: int, count: int) -> list[int]:
    """`count` log-spaced roll counts from 1 to n, rounded, without repeats."""
    if n <= 0:
        return []
    count = max(count, 2)
    top = math.log(n)
    return sorted({max(1, int(round(math.exp(top * k / (count - 1))))) for k in range(count)})


def total_variation(p: Sequence[float], q: Sequence[float]) -> float:
    if len(p) != len(q):
        raise ArgumentError(f"distributions of different lengths ({len(p)} and {len(q)})")
    return 0.5 * sum(abs(a - b) for a, b in zip(p, q, strict=True))


def convergence_curve(history: Sequence[int], exact: Sequence[float], points: Sequence[int]
                      ) -> list[float]:
    """Total variation between the observed shares after n rolls and `exact`, per n."""
    counts = [0] * len(exact)
    done = 0
    out = []
    for point in points:
        for slot in history[done:point]:
            if slot < len(counts):
                counts[slot] += 1
        done = point
        out.append(total_variation([c / point for c in counts], exact))
    return out


def expected_total_variation(chain: Any, rolls: int) -> float:
    """About how far (total variation) one long game of `rolls` rolls lies from the exact
    shares: sum of sqrt(2 var / pi) / 2 (normal approximation)."""
    var = chain.sampling_variance("roll")
    return 0.5 * sum(math.sqrt(v / max(rolls, 1)) for v in var) * math.sqrt(2 / math.pi)


__all__ = ["PureChain", "build_pure_chain", "convergence_curve",
           "doubles_this_turn", "excursion_shares", "expected_total_variation", "fill_order",
           "game_state", "log_points", "next_roll_shares", "overlay_values",
           "pure_landing_model", "total_variation"]
