"""Building and mortgages by return: the house that pays most per dollar first (the third
house of a group before a new group's first, BOTS.md §1.1), four houses held instead of a
hotel while houses are short and a rival waits for them (§1.3), single lots mortgaged to pay
for a house that pays (§5.8), mortgages lifted where they block building first."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .. import actions as A
from ..actions import Action
from ..legal import manage_actions
from .why import Why
from .worth import Worth

if TYPE_CHECKING:
    from ..core import Engine

BUILD_ACTION: Final = A.Build
MORTGAGE_ACTION: Final = A.Mortgage
UNMORTGAGE_ACTION: Final = A.Unmortgage
# Houses left in the bank at or below which a hotel (which hands its houses back) waits while
# a rival could build with them.
SHORTAGE_HOUSES: Final = 12


def group_level(e: Engine, ai: int) -> float:
    lots = e.area_lot_list[ai]
    total = 0
    for q in lots:
        total += e.level[q]
    return total / len(lots)


def rivals_can_build(e: Engine, me: int) -> bool:
    """Does another player hold a whole group with room for more houses?"""
    top = e.hbh * 1.0
    for p in e.players:
        if p.index == me or p.bankrupt:
            continue
        for ai in e.complete[p.index]:
            if group_level(e, ai) < top and e.house_prices[e.area_lot_list[ai][0]] > 0:
                return True
    return False


def holds_houses(e: Engine, me: int, pos: int) -> bool:
    """Keep four houses rather than build the hotel on `pos` (it would give the bank back the
    houses a rival is waiting for)?"""
    left = e.houses_left
    return (e.level[pos] == e.hbh and left is not None and left <= SHORTAGE_HOUSES
            and rivals_can_build(e, me))


def pays_back(w: Worth, roi: float) -> bool:
    """Does a house with this return (rent per opponent roll per dollar) earn back the half of
    its price a sale would not, within the horizon?"""
    return roi * w.active * w.horizon >= 0.5


def best_build(w: Worth, e: Engine, me: int, keep: int) -> tuple[Action | None, Why | None]:
    """The house (or hotel) with the best return that leaves `keep` in cash, or None, with the
    reason (a hotel held back in a shortage is a reason too)."""
    p = e.players[me]
    best: Action | None = None
    best_roi = 0.0
    best_land = 0.0
    held: Why | None = None
    for action in manage_actions(e, p, build=True, unmortgage=True):
        if type(action) is not BUILD_ACTION or not isinstance(action, A.Build):
            continue
        q = action.position
        if p.cash - e.house_prices[q] < keep:
            continue
        ai = e.area_index[q]
        roi = w.step_roi(ai, group_level(e, ai))
        if not pays_back(w, roi):
            continue
        if holds_houses(e, me, q):
            held = Why("hold_houses", pos=q, area=ai, amount=e.houses_left or 0)
            continue
        land = w.f.land[q]
        if roi > best_roi + 1e-12 or (roi > best_roi - 1e-12 and land > best_land):
            best, best_roi, best_land = action, roi, land
    if best is None:
        return None, held
    q = best.position if isinstance(best, A.Build) else 0
    ai = e.area_index[q]
    level = e.level[q] + 1
    return best, Why("build", pos=q, area=ai, amount=level,
                     value=best_roi * 100.0)


def funding_mortgage(w: Worth, e: Engine, me: int, keep: int) -> tuple[Action | None, Why | None]:
    """A single lot to mortgage so that a house below the sweet spot can be built while
    `keep` stays in cash (BOTS.md §5.8: mortgage single lots, never set lots, for houses)."""
    p = e.players[me]
    if not e.rx.mortgages or not e.complete[me]:
        return None, None
    want: Action | None = None
    need = 0
    for action in manage_actions(e, p, build=True, unmortgage=False):
        if type(action) is not BUILD_ACTION or not isinstance(action, A.Build):
            continue
        q = action.position
        ai = e.area_index[q]
        level = group_level(e, ai)
        if level >= w.f.sweet or holds_houses(e, me, q):
            continue
        if not pays_back(w, w.step_roi(ai, level)):
            continue
        short = e.house_prices[q] + keep - p.cash
        if short > 0 and (want is None or short < need):
            want, need = action, short
    if want is None:
        # a build the cash cannot pay at all is not listed: look at the groups directly
        for ai in e.complete[me]:
            lots = e.area_lot_list[ai]
            if any(e.mortgaged[q] for q in lots):
                continue
            level = group_level(e, ai)
            if level >= w.f.sweet or not pays_back(w, w.step_roi(ai, level)):
                continue
            short = e.house_prices[lots[0]] + keep - p.cash
            if short > 0 and (want is None or short < need):
                want, need = e.acts[me].build_at[lots[0]], short
    if want is None:
        return None, None
    target = want.position if isinstance(want, A.Build) else 0
    best: Action | None = None
    best_harm = 0.0
    for action in manage_actions(e, p, build=False, unmortgage=False):
        if type(action) is not MORTGAGE_ACTION or not isinstance(action, A.Mortgage):
            continue
        q = action.position
        ai = e.area_index[q]
        if ai >= 0 and ai in e.complete[me]:
            continue  # never a lot of a whole group
        harm = w.f.land[q] * w.f.alone[q] / max(1, e.mortgage_values[q])
        if best is None or harm < best_harm:
            best, best_harm = action, harm
    if best is None:
        return None, None
    # only if the mortgages there are can close the gap (else the house waits for the cash)
    total = 0
    for action in manage_actions(e, p, build=False, unmortgage=False):
        if type(action) is MORTGAGE_ACTION and isinstance(action, A.Mortgage):
            ai = e.area_index[action.position]
            if not (ai >= 0 and ai in e.complete[me]):
                total += e.mortgage_values[action.position]
    if total < need:
        return None, None
    pos = best.position if isinstance(best, A.Mortgage) else 0
    return best, Why("mortgage_to_build", pos=pos, other=target, area=e.area_index[target])


def best_lift(w: Worth, e: Engine, me: int, keep: int) -> tuple[Action | None, Why | None]:
    """The mortgage to lift while `keep` stays in cash: a lot of a whole group first (its
    mortgage stops the group's building), then the lot that earns most."""
    p = e.players[me]
    if not e.rx.mortgages:
        return None, None
    best: Action | None = None
    best_key = -1.0
    for pos in e.owned[me]:
        if not e.mortgaged[pos]:
            continue
        cost = e.lift_cost[pos]
        if p.cash - cost < keep:
            continue
        ai = e.area_index[pos]
        key = w.f.land[pos] * max(w.f.alone[pos], 1)
        if ai >= 0 and ai in e.complete[me]:
            key += 1000.0
        if key > best_key:
            best, best_key = e.acts[me].unmortgage[pos], key
    if best is None:
        return None, None
    pos = best.position if isinstance(best, A.Unmortgage) else 0
    return best, Why("lift", pos=pos, area=e.area_index[pos])


def best_spot(w: Worth, e: Engine, me: int, spots: list[int]) -> int:
    """Where a house won at auction goes: the group where it pays most."""
    best = spots[0]
    best_roi = -1.0
    for q in spots:
        ai = e.area_index[q]
        roi = w.step_roi(ai, group_level(e, ai)) if ai >= 0 else 0.0
        if roi > best_roi:
            best, best_roi = q, roi
    return best
