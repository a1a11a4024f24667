"""The exact chain's states and transitions, built in plain Python (no numpy, no scipy).

A *step* is what one player does next: a roll (with everything it sets off), or a turn
skipped in jail (the 22-cell game). The state after a step is what the rules make matter:

- ``("free", tile, k, c)``: the step ended on ``tile``; ``k = -1`` when the turn is over,
  else the turn goes on (doubles or a "roll again" card) after ``k`` doubles;
- ``("jail", t, c)``: the step ended In Jail after ``t`` failed tries at doubles;
- ``("skipped", s, c)``: a turn skipped in jail, ``s`` more to skip;
- ``("released", c)``: a skipped turn that ended the jail term, the token on the jail tile;

where ``c`` counts the Get Out of Jail Free cards held (only when they change how a player
leaves jail; else 0). The chain is the states reachable from the start (GO, a new turn).

:func:`build_transitions` gives them as a :class:`Transitions`: the states and one sparse
row of probabilities per state in compressed-row form (CSR, the layout of
``scipy.sparse.csr_array``) held in :mod:`array` arrays, with per-state labels. A board of
``n`` tiles has about ``3 n`` states of about 11 transitions each, so the build grows with
the board, never with its square. Solvers read it as it is: :mod:`.chain` with numpy (dense
for small chains) or scipy.sparse (large ones); a pure-Python solver can use the same rows.

>>> from ugentopoly_widget.engine import get_profile, load_bundled
>>> from ugentopoly_widget.probability.model import Options, compile_movement
>>> m = compile_movement(load_bundled("classic-standard-decks"), get_profile("classic"),
...                      Options())
>>> t = build_transitions(m)
>>> len(t), t.states[0], round(sum(p for _, p in t.row(0)), 12)
(118, ('free', 0, -1, 0), 1.0)
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from dataclasses import dataclass

from .errors import ChainTooLargeError
from .model import Landing, Movement

State = tuple[object, ...]
START: State = ("free", 0, -1, 0)
# States the exact chain is built for at most: about 3 per tile, so boards of some 65,000
# tiles (a course board has 40). Building more costs minutes of pure Python and the solve a
# few GB; a larger board is refused with ChainTooLargeError before it gets that far.
MAX_STATES = 200_000


def _roll_from(m: Movement, pos: int, d0: int, c: int, cap: int
               ) -> Iterator[tuple[State, float, int, Landing]]:
    """A roll by a free player on `pos` with `d0` doubles so far this turn and `c` cards.
    Yields (next state, probability, dice total, landing)."""
    size = m.size
    for roll in m.rolls:
        rolled_double = False
        d1 = d0
        if roll.double and m.doubles_roll_again:
            if m.max_doubles is None:
                d1 = 0  # no limit: the count of doubles changes nothing (and has no end)
            else:
                d1 = d0 + 1
                if d1 >= m.max_doubles:
                    yield ("jail", 0, c), roll.probability, roll.total, Landing(m.jail or 0,
                                                                                 True)
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


def labels(m: Movement, states: list[State]) -> tuple[array[int], array[int], array[int]]:
    """Per state: where it counts (its tile, or `size` for In Jail), whether the step into it
    was a roll (1) and whether that step ended a turn (1)."""
    size = m.size
    jail_tile = m.jail if m.jail is not None else 0
    where: array[int] = array("q")
    is_roll: array[int] = array("b")
    ends: array[int] = array("b")
    for s in states:
        kind = s[0]
        if kind == "free":
            where.append(s[1])  # type: ignore[arg-type]
            is_roll.append(1)
            ends.append(s[2] == -1)
        elif kind == "jail":
            where.append(size)
            is_roll.append(1)
            ends.append(1)
        else:  # a skipped turn: In Jail still, or released onto the jail tile
            where.append(size if kind == "skipped" else jail_tile)
            is_roll.append(0)
            ends.append(1)
    return where, is_roll, ends


@dataclass(frozen=True)
class Transitions:
    """The states of one player's movement and the chain's transitions between them.

    Row ``i`` (the next states of ``states[i]``) is ``indices[indptr[i]:indptr[i + 1]]``
    with ``probabilities`` at the same places; each row sums to 1. ``where[i]`` is the row
    of :func:`~ugentopoly_widget.probability.landing_distribution` that state ``i`` counts
    for (its tile, or ``size`` for In Jail), ``is_roll[i]`` says the step into it was a roll,
    ``ends_turn[i]`` that it ended a turn, ``cards[i]`` the jail cards held. ``cap``: the
    most cards counted (a card drawn at the cap is not kept), 0 when they do not matter.
    """

    size: int
    cap: int
    states: list[State]
    indptr: array[int]
    indices: array[int]
    probabilities: array[float]
    where: array[int]
    is_roll: array[int]
    ends_turn: array[int]
    cards: array[int]

    def __len__(self) -> int:
        return len(self.states)

    @property
    def nnz(self) -> int:
        """The number of transitions (nonzero entries of the matrix)."""
        return len(self.indices)

    def row(self, i: int) -> list[tuple[int, float]]:
        """(next state, probability) pairs of state `i`."""
        lo, hi = self.indptr[i], self.indptr[i + 1]
        return list(zip(self.indices[lo:hi], self.probabilities[lo:hi], strict=True))


def estimated_states(m: Movement, cap: int) -> int:
    """About how many states the chain of `m` has: per tile one per count of doubles that
    can go on, times the card counts (classic: 40 x 3 = 120 for 118 states)."""
    doubles = m.max_doubles if m.doubles_roll_again and m.max_doubles else 1
    return m.size * doubles * (cap + 1 if m.track_cards else 1)


def build_transitions(m: Movement, cap: int = 0, limit: int = MAX_STATES) -> Transitions:
    """Every state reachable from the start (breadth first) and its row of transitions.

    Raises :class:`ChainTooLargeError` as soon as the chain would pass `limit` states."""
    if m.track_cards and cap == 0:
        cap = 8
    estimate = estimated_states(m, cap)
    if estimate > limit:  # refused before minutes of building
        raise ChainTooLargeError(estimate, limit, m.size, about=True)
    index: dict[State, int] = {START: 0}
    states: list[State] = [START]
    indptr: array[int] = array("q", [0])
    indices: array[int] = array("q")
    probabilities: array[float] = array("d")
    k = 0
    while k < len(states):
        row: dict[int, float] = {}
        for nxt, p, _total, _landing in steps(m, states[k], cap):
            j = index.get(nxt)
            if j is None:
                if len(states) >= limit:
                    raise ChainTooLargeError(len(states) + 1, limit, m.size)
                j = index[nxt] = len(states)
                states.append(nxt)
            row[j] = row.get(j, 0.0) + p
        indices.extend(row)
        probabilities.extend(row.values())
        indptr.append(len(indices))
        k += 1
    where, is_roll, ends = labels(m, states)
    cards: array[int] = array("q", [s[-1] for s in states])  # type: ignore[misc]
    return Transitions(m.size, cap, states, indptr, indices, probabilities, where, is_roll,
                       ends, cards)


__all__ = ["MAX_STATES", "START", "State", "Transitions", "build_transitions",
           "estimated_states", "labels", "steps"]
