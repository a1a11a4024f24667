"""Raising money in the least harmful order (BOTS.md §1.6, §5.8): each way to raise money is
weighed by what it costs per dollar raised: the rent it gives up over the horizon, plus what
is lost outright (a mortgage's 10 % interest to lift it; a house sold at half its price; a
lot of a whole group mortgaged stops the group's building). So single lots that earn little
go first, houses of the group that loses least next, the lots of whole groups last."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .. import actions as A
from ..actions import Action
from ..legal import manage_actions
from .why import Why
from .worth import INTEREST, Worth

if TYPE_CHECKING:
    from ..core import Engine

SELL_ACTION: Final = A.Sell
SELL_DOWN_ACTION: Final = A.SellDown
MORTGAGE_ACTION: Final = A.Mortgage
# What a mortgage of a whole group's lot costs beyond its rent, per dollar: the group cannot
# be built on until it is lifted.
GROUP_MORTGAGE_COST: Final = 1.5


def mortgage_harm(w: Worth, e: Engine, me: int, pos: int) -> float:
    """Cost per dollar of mortgaging `pos` (the lower, the sooner)."""
    f = w.f
    value = e.mortgage_values[pos]
    if value <= 0:
        return 1e9
    ai = e.area_index[pos]
    whole = ai >= 0 and ai in e.complete[me]
    if whole:
        rent = f.land[pos] * f.grouped[pos][0] if f.grouped[pos] else 0.0
    elif pos in f.railways or pos in f.utilities:
        rent = station_rent(w, e, me, pos)
    else:
        rent = f.land[pos] * f.alone[pos]
    harm = rent * w.active * w.horizon / value + INTEREST
    if whole:
        harm += GROUP_MORTGAGE_COST
    return harm


def station_rent(w: Worth, e: Engine, me: int, pos: int) -> float:
    f = w.f
    railway = pos in f.railways
    where = f.railways if railway else f.utilities
    count = 0
    for q in where:
        if e.owner[q] == me:
            count += 1
    rent = f.railway_rent[count] if railway else f.utility_rent[count]
    return f.land[pos] * rent


def sale_harm(w: Worth, e: Engine, pos: int) -> float:
    """Cost per dollar of selling one building level of `pos`'s group evenly."""
    ai = e.area_index[pos]
    if ai < 0:
        return 1e9
    lots = e.area_lot_list[ai]
    refund = e.house_prices[pos] // 2
    if refund <= 0:
        return 1e9
    total = 0
    for q in lots:
        total += e.level[q]
    level = total / len(lots)
    lost = w.group_epr(ai, level) - w.group_epr(ai, level - 1.0 / len(lots))
    return lost * w.active * w.horizon / refund + 1.0  # bought at the price, sold at half


def raise_money(w: Worth, e: Engine, me: int) -> tuple[Action | None, Why | None]:
    """The least harmful way to raise money now (of the legal ones), or None."""
    p = e.players[me]
    best: Action | None = None
    best_harm = 0.0
    down: Action | None = None
    for action in manage_actions(e, p, build=False, unmortgage=False):
        kind = type(action)
        if kind is MORTGAGE_ACTION and isinstance(action, A.Mortgage):
            harm = mortgage_harm(w, e, me, action.position)
        elif kind is SELL_ACTION and isinstance(action, A.Sell):
            harm = sale_harm(w, e, action.position)
        elif kind is SELL_DOWN_ACTION:
            if down is None:
                down = action
            continue
        else:
            continue
        if best is None or harm < best_harm:
            best, best_harm = action, harm
    if best is None:
        if down is not None:
            return down, Why("raise_sell_down")
        return None, None
    if isinstance(best, A.Mortgage):
        pos = best.position
        ai = e.area_index[pos]
        whole = ai >= 0 and ai in e.complete[me]
        return best, Why("raise_group_mortgage" if whole else "raise_mortgage", pos=pos,
                         area=ai)
    pos = best.position if isinstance(best, A.Sell) else -1
    return best, Why("raise_sell", pos=pos, area=e.area_index[pos] if pos >= 0 else -1)
