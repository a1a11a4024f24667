"""Legal actions: what the deciding player may do now, and the management actions cache."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import actions as A
from .actions import Action, cached
from .state import (
    AUCTION,
    BUY,
    DEBT,
    GAME_OVER,
    HOUSE_OFFER,
    JAIL_FINE,
    MORTGAGED,
    PLACE_HOUSE,
    POST_ROLL,
    TAX,
    TRADE,
    TURN,
    PlayerState,
    interest,
)

if TYPE_CHECKING:
    from .core import Engine


def compute_legal(e: Engine) -> tuple[Action, ...]:
    d = e.decision
    kind = d.kind
    if kind == GAME_OVER or d.player is None:
        return ()
    p = e.players[d.player]
    i = p.index
    out: list[Action]
    if kind == TURN:
        if not p.in_jail and (not e._manages or not e.owned[i]):
            return e._roll_only[i]
        if not p.in_jail:
            return memo_legal(e, i * 2, cached(A.Roll, i), p)
        out = [cached(A.Roll, i)]
        if p.in_jail:
            fine = e.rules.jail_fine
            if fine is not None and p.cash >= fine:
                out.append(cached(A.PayFine, i))
            if p.jail_cards and not e.rules.jail_card_auto:
                out.append(cached(A.UseJailCard, i))
        out.extend(manage_actions(e, p, build=True, unmortgage=True))
    elif kind == POST_ROLL:
        return memo_legal(e, i * 2 + 1, cached(A.EndTurn, i), p)
    elif kind == BUY:
        out = [cached(A.Buy, i)] if p.cash >= e.tiles[d.data["position"]].cost else []
        out.append(cached(A.Decline, i))
        out.extend(manage_actions(e, p, build=False, unmortgage=False))
    elif kind == AUCTION:
        out = [cached(A.Pass, i)]
        if p.cash >= d.data["min_bid"]:
            out.append(A.Bid(i, d.data["min_bid"]))
    elif kind == TAX:
        out = [cached(A.ChooseTax, i, "flat"), cached(A.ChooseTax, i, "percent")]
    elif kind == JAIL_FINE:
        out = [cached(A.PayFine, i), cached(A.UseJailCard, i)]
    elif kind == TRADE:
        out = [cached(A.AcceptTrade, i), cached(A.RejectTrade, i)]
    elif kind == MORTGAGED:
        pos = d.data["position"]
        value = e.tiles[pos].mortgage
        out = [cached(A.LiftMortgage, i, pos)] if p.cash >= value + interest(value) else []
        out.append(cached(A.KeepMortgage, i, pos))
    elif kind == DEBT:
        out = list(manage_actions(e, p, build=False, unmortgage=False))
        if e.max_raisable(p) < d.data["amount"]:
            out.append(cached(A.DeclareBankruptcy, i))
    elif kind == HOUSE_OFFER:
        pos = d.data["position"]
        out = [cached(A.Build, i, pos)] if p.cash >= e.house_price(pos) else []
        out.append(cached(A.Decline, i))
    elif kind == PLACE_HOUSE:
        out = [cached(A.PlaceHouse, i, pos) for pos in d.data["positions"]]
    else:  # pragma: no cover - every kind is handled above
        out = []
    return tuple(out)


def memo_legal(e: Engine, key: int, first: Action, p: PlayerState) -> tuple[Action, ...]:
    """`first` + the management actions; the same tuple while those do not change."""
    manage = manage_actions(e, p, build=True, unmortgage=True)
    memo = e._legal_memo.get(key)
    if memo is not None and memo[0] is manage:
        return memo[1]
    legal = (first, *manage)
    e._legal_memo[key] = (manage, legal)
    return legal


def manage_actions(e: Engine, p: PlayerState, *, build: bool, unmortgage: bool
) -> tuple[Action, ...]:
    """Build / sell / sell-down / mortgage / lift actions open to `p` now (cached).

    The list changes only when the player's holdings or the bank's stock change or
    when the player's cash crosses a price that decides what is affordable, so it is kept
    with the cash range in which it stays true."""
    key = p.index * 4 + build * 2 + unmortgage
    entry = e._manage_cache.get(key)
    cash = p.cash
    if (
        entry is not None
        and entry[0] == e._holdings_version[p.index]
        and entry[1] == e._stock_version
        and entry[2] <= cash < entry[3]
    ):
        return entry[4]
    bounds = [0, 1 << 62]
    out = tuple(compute_manage(e, p, build, unmortgage, bounds))  # shared: immutable
    e._manage_cache[key] = (
        e._holdings_version[p.index], e._stock_version, bounds[0], bounds[1], out
    )
    return out


def compute_manage(e: Engine, p: PlayerState, build: bool, unmortgage: bool, bounds: list[int]
) -> list[Action]:
    """Works group by group: only a whole group can carry buildings, so per-lot checks are
    needed for mortgages alone. `bounds` narrows to the cash range where the answer holds."""
    rules = e.rules
    if not e._manages:
        return []
    out: list[Action] = []
    i = p.index
    cash = p.cash
    owned = e.owned[i]
    if not owned:
        return out
    level, mortgaged = e.level, e.mortgaged
    area_index, group_levels = e.area_index, e.group_levels
    if rules.buildings == "classic":
        counts = e.group_count[i]
        for ai, lots in enumerate(e.area_lot_list):
            if counts[ai] != e.area_sizes[ai]:
                continue
            levels = [level[q] for q in lots]
            low, high = min(levels), max(levels)
            if build and low < e.hotel_level and not any(mortgaged[q] for q in lots):
                for q in lots:
                    if level[q] == low:
                        price = e.house_prices[q]
                        if price <= cash:
                            bounds[0] = max(bounds[0], price)
                        else:
                            bounds[1] = min(bounds[1], price)
                        if 0 < price <= cash and (
                            (e.hotels_left is None or e.hotels_left > 0)
                            if low == e.hbh
                            else (e.houses_left is None or e.houses_left > 0)
                        ):
                            out.append(A.BUILD.get(i, q))
            if high:
                if (
                    high < e.hotel_level
                    or e.houses_left is None
                    or (e.houses_left >= e.hbh)
                ):
                    for q in lots:
                        if level[q] == high:
                            out.append(A.SELL.get(i, q))
                if (
                    high == e.hotel_level
                    and e.houses_left is not None
                    and (e.houses_left < e.hbh)
                ):  # hotels cannot be sold one level at a time: offer selling further down
                    area = e.area_ids[ai]
                    for target in range(e.hotel_level):
                        if e.sell_down_problem(i, area, target) is None:
                            out.append(cached(A.SellDown, i, area, target))
    if rules.mortgages:
        for pos in owned:
            if mortgaged[pos]:
                if unmortgage:
                    cost = e.lift_cost[pos]
                    if cash >= cost:
                        bounds[0] = max(bounds[0], cost)
                        out.append(A.UNMORTGAGE.get(i, pos))
                    else:
                        bounds[1] = min(bounds[1], cost)
            else:
                ai = area_index[pos]
                if (group_levels[ai] == 0) if ai >= 0 else (level[pos] == 0):
                    out.append(A.MORTGAGE.get(i, pos))
    return out
