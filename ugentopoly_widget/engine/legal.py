"""Legal actions: what the deciding player may do now, and the management actions cache."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from . import actions as A
from .actions import Action, cached
from .boards.board import TileKind
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

STREET: Final = TileKind.STREET
# The action classes, as C statics when compiled (A.Sell is a module attribute look-up).
SELL_ACTION: Final = A.Sell
SELL_DOWN_ACTION: Final = A.SellDown
MORTGAGE_ACTION: Final = A.Mortgage


class PlayerActions:
    """The shared actions of one player seat on a board size: made once per process, so that
    listing legal actions is list indexing (actions are immutable values)."""

    def __init__(self, i: int, size: int) -> None:
        self.roll = cached(A.Roll, i)
        self.end_turn = cached(A.EndTurn, i)
        self.buy = cached(A.Buy, i)
        self.decline = cached(A.Decline, i)
        self.pass_ = cached(A.Pass, i)
        self.pay_fine = cached(A.PayFine, i)
        self.use_card = cached(A.UseJailCard, i)
        self.tax_flat = cached(A.ChooseTax, i, "flat")
        self.tax_percent = cached(A.ChooseTax, i, "percent")
        self.accept = cached(A.AcceptTrade, i)
        self.reject = cached(A.RejectTrade, i)
        self.bankrupt = cached(A.DeclareBankruptcy, i)
        self.roll_only: tuple[Action, ...] = (self.roll,)
        where = range(size)
        self.build_at: list[Action] = [A.BUILD.get(i, q) for q in where]
        self.sell: list[Action] = [A.SELL.get(i, q) for q in where]
        self.mortgage: list[Action] = [A.MORTGAGE.get(i, q) for q in where]
        self.unmortgage: list[Action] = [A.UNMORTGAGE.get(i, q) for q in where]
        self.lift: list[Action] = [A.LIFT.get(i, q) for q in where]
        self.keep: list[Action] = [A.KEEP.get(i, q) for q in where]
        self.place: list[Action] = [A.PLACE.get(i, q) for q in where]


_PLAYER_ACTIONS: dict[tuple[int, int], PlayerActions] = {}


def player_actions(i: int, size: int) -> PlayerActions:
    acts = _PLAYER_ACTIONS.get((i, size))
    if acts is None:
        acts = _PLAYER_ACTIONS[(i, size)] = PlayerActions(i, size)
    return acts


_BIDS: Final[dict[int, Action]] = {}  # shared by every game of the process (immutable values)


def bid_action(e: Engine, player: int, amount: int) -> Action:
    """A shared Bid (actions are immutable): bids repeat, and making one costs more than this."""
    key = player * 1_000_003 + amount
    bid = _BIDS.get(key)
    if bid is None:
        if len(_BIDS) > 65536:
            _BIDS.clear()
        bid = _BIDS[key] = A.Bid(player, amount)
    return bid


def compute_legal(e: Engine) -> tuple[Action, ...]:
    d = e.decision
    kind = d.kind
    if kind == GAME_OVER or d.player is None:
        return ()
    p = e.players[d.player]
    i = p.index
    acts = e.acts[i]
    out: list[Action]
    if kind == TURN:
        if not p.in_jail and (not e._manages or not e.owned[i]):
            return acts.roll_only
        if not p.in_jail:
            return memo_legal(e, i * 2, acts.roll, p)
        out = [acts.roll]
        if p.in_jail:
            fine = e.rx.jail_fine
            if fine is not None and p.cash >= fine:
                out.append(acts.pay_fine)
            if p.jail_cards and not e.rx.jail_card_auto:
                out.append(acts.use_card)
        out.extend(manage_actions(e, p, build=True, unmortgage=True))
    elif kind == POST_ROLL:
        return memo_legal(e, i * 2 + 1, acts.end_turn, p)
    elif kind == BUY:
        out = [acts.buy] if p.cash >= e.costs[d.data["position"]] else []
        out.append(acts.decline)
        out.extend(manage_actions(e, p, build=False, unmortgage=False))
    elif kind == AUCTION:
        out = [acts.pass_]
        min_bid: int = d.data["min_bid"]
        if p.cash >= min_bid:
            out.append(bid_action(e, i, min_bid))
    elif kind == TAX:
        out = [acts.tax_flat, acts.tax_percent]
    elif kind == JAIL_FINE:
        out = [acts.pay_fine, acts.use_card]
    elif kind == TRADE:
        out = [acts.accept, acts.reject]
    elif kind == MORTGAGED:
        pos = d.data["position"]
        value = e.mortgage_values[pos]
        out = [acts.lift[pos]] if p.cash >= value + interest(value) else []
        out.append(acts.keep[pos])
    elif kind == DEBT:
        out = list(manage_actions(e, p, build=False, unmortgage=False))
        if e.max_raisable(p) < d.data["amount"]:
            out.append(acts.bankrupt)
    elif kind == HOUSE_OFFER:
        pos = d.data["position"]
        out = [acts.build_at[pos]] if p.cash >= e.house_price(pos) else []
        out.append(acts.decline)
    elif kind == PLACE_HOUSE:
        out = [acts.place[pos] for pos in d.data["positions"]]
    else:  # pragma: no cover - every kind is handled above
        out = []
    return tuple(out)


def rolls_only(e: Engine, i: int) -> bool:
    """At player i's turn decision: is rolling the only legal action (legal_actions() is
    ``acts.roll_only``)? Asked without listing them."""
    p = e.players[i]
    return not p.in_jail and (not e._manages or not e.owned[i])


def has_choices(e: Engine, i: int) -> bool:
    """At player i's turn or post-roll decision: does legal_actions() hold more than the roll
    (or the end of the turn)? Asked without building the list."""
    p = e.players[i]
    if e.decision.kind == TURN:
        if p.in_jail:
            fine = e.rx.jail_fine
            if fine is not None and p.cash >= fine:
                return True
            if p.jail_cards and not e.rx.jail_card_auto:
                return True
        elif not e._manages or not e.owned[i]:
            return False
    if e.rx.mortgages:  # a property that may be mortgaged is a choice (compute_manage's rule)
        mortgaged, level = e.mortgaged, e.level
        area_index, group_levels = e.area_index, e.group_levels
        for pos in e.owned[i]:
            if not mortgaged[pos]:
                ai = area_index[pos]
                if (group_levels[ai] == 0) if ai >= 0 else (level[pos] == 0):
                    return True
    return len(manage_actions(e, p, build=True, unmortgage=True)) > 0


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
    rules = e.rx
    if not e._manages:
        return []
    out: list[Action] = []
    i = p.index
    acts = e.acts[i]
    cash = p.cash
    owned = e.owned[i]
    if not owned:
        return out
    level, mortgaged = e.level, e.mortgaged
    area_index, group_levels = e.area_index, e.group_levels
    if rules.buildings == "classic":
        area_lot_list = e.area_lot_list
        for ai in e.complete[i]:  # only a complete group can be built on or have buildings
            lots = area_lot_list[ai]
            low = high = level[lots[0]]  # min() / max() of a list are calls, not compiled
            for q in lots:
                lv = level[q]
                if lv < low:
                    low = lv
                elif lv > high:
                    high = lv
            if build and low < e.hotel_level and not any(mortgaged[q] for q in lots):
                for q in lots:
                    if level[q] == low:
                        price = e.house_prices[q]
                        if price <= cash:
                            if price > bounds[0]:
                                bounds[0] = price
                        elif price < bounds[1]:
                            bounds[1] = price
                        if 0 < price <= cash and (
                            (e.hotels_left is None or e.hotels_left > 0)
                            if low == e.hbh
                            else (e.houses_left is None or e.houses_left > 0)
                        ):
                            out.append(acts.build_at[q])
            if high:
                if (
                    high < e.hotel_level
                    or e.houses_left is None
                    or (e.houses_left >= e.hbh)
                ):
                    for q in lots:
                        if level[q] == high:
                            out.append(acts.sell[q])
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
                        if cost > bounds[0]:
                            bounds[0] = cost
                        out.append(acts.unmortgage[pos])
                    elif cost < bounds[1]:
                        bounds[1] = cost
            else:
                ai = area_index[pos]
                if (group_levels[ai] == 0) if ai >= 0 else (level[pos] == 0):
                    out.append(acts.mortgage[pos])
    return out


# ---------------------------------------------------------------------- direct questions (bots)

def grouped(e: Engine, legal: tuple[Action, ...]) -> dict[type[Action], list[Action]]:
    """The legal actions by kind, in their order; kept while the same tuple is handed out
    (memo_legal() hands each seat the same tuple while its choices stay the same)."""
    memo = e._grouped_memo
    entry = memo.get(id(legal))
    if entry is not None and entry[0] is legal:
        return entry[1]
    if len(memo) >= 64:
        memo.clear()
    by_type: dict[type[Action], list[Action]] = {}
    for action in legal:
        kind = type(action)
        options = by_type.get(kind)
        if options is None:
            by_type[kind] = [action]
        else:
            options.append(action)
    memo[id(legal)] = (legal, by_type)
    return by_type


def completes_group(e: Engine, player: int, position: int) -> bool:
    """Would owning the street at `position` give `player` its whole colour group?"""
    area = e.tile_areas[position]
    if e.kinds[position] is not STREET or area is None:
        return False
    owner = e.owner
    for q in e.area_lots[area]:  # noqa: SIM110 - a loop, not all() of a generator: 2 calls fewer
        if owner[q] != player and q != position:
            return False
    return True


def owns_area_of(e: Engine, player: int, position: int) -> bool:
    """Does `player` own every lot of the area of `position` (which has an area)?"""
    owner = e.owner
    return all(owner[q] == player for q in e.area_lots[e.tile_areas[position] or ""])


def least_useful_mortgage(e: Engine, player: int, options: list[Action]) -> Action:
    """The mortgage to take first: outside complete groups, then the cheapest (first on ties)."""
    best = options[0]
    best_group, best_cost = 2, 0  # (in a complete group, price): lowest first
    area_index, counts, sizes, costs = e.area_index, e.group_count[player], e.area_sizes, e.costs
    for action in options:
        pos = getattr(action, "position", 0)
        ai = area_index[pos]  # -1: no area (the tile is in no group)
        in_group = 1 if ai >= 0 and counts[ai] == sizes[ai] else 0
        cost = costs[pos]
        if in_group < best_group or (in_group == best_group and cost < best_cost):
            best, best_group, best_cost = action, in_group, cost
    return best


def debt_choice(e: Engine, p: PlayerState) -> Action | None:
    """The heuristic bot's way to raise money, asked without the legal list: the first sale
    of a building, else the first sell-down, else the least useful mortgage, of the management
    actions a debt lists (compute_legal: the same tuple, in the same order). None when there
    is none of those (the bankruptcy is then all the legal list may hold)."""
    sell_down: Action | None = None
    mortgages: list[Action] | None = None
    for action in manage_actions(e, p, build=False, unmortgage=False):
        kind = type(action)
        if kind is SELL_ACTION:
            return action
        if kind is SELL_DOWN_ACTION:
            if sell_down is None:
                sell_down = action
        elif kind is MORTGAGE_ACTION:
            if mortgages is None:
                mortgages = [action]
            else:
                mortgages.append(action)
    if sell_down is not None:
        return sell_down
    if mortgages is not None:
        return least_useful_mortgage(e, p.index, mortgages)
    return None


def affordable_build(e: Engine, p: PlayerState, keep: int) -> Action | None:
    """Of the builds compute_manage() lists for `p` (same order), the first on the lowest
    level that leaves `p` at least `keep` cash; asked directly, without the legal list.

    Kept, like manage_actions(), while the player's holdings and the bank's stock stay the same
    and the cash stays in the range where every price looked at stays (un)affordable: the walk
    below, and so its answer, depends on nothing else. The stock only counts where the walk
    read it (kept as -1 where not: no complete group that could build)."""
    i = p.index
    cash = p.cash
    complete = e.complete[i]
    if cash <= keep or not complete or e.rx.buildings != "classic" or not e._manages:
        return None  # a build costs more than 0: none leaves `keep`; no complete group: none
    entry = e._afford_cache.get(i)
    if (
        entry is not None
        and entry[0] == e._holdings_version[i]
        and (entry[1] == e._stock_version or entry[1] < 0)
        and entry[2] == keep
        and entry[3] <= cash < entry[4]
    ):
        return entry[5]
    low_cash, high_cash = 0, 1 << 62  # the cash range where the answer holds
    area_lot_list = e.area_lot_list
    level, mortgaged, prices = e.level, e.mortgaged, e.house_prices
    top = e.hotel_level
    best: Action | None = None
    best_level = top
    stock_read = False  # not read (no complete group could build): the answer holds for any
    for ai in complete:  # the player's complete groups, in area order
        lots = area_lot_list[ai]
        low = top
        for q in lots:
            if mortgaged[q]:
                low = top  # a mortgaged lot blocks the whole group
                break
            if level[q] < low:
                low = level[q]
        if low >= best_level:
            continue  # hotels everywhere, mortgaged, or no better than the best so far
        stock_read = True
        if not ((e.hotels_left is None or e.hotels_left > 0) if low == e.hbh
                else (e.houses_left is None or e.houses_left > 0)):
            continue
        for q in lots:
            price = prices[q]
            if level[q] == low and price > 0:
                need = price + keep if keep > 0 else price  # cash >= price, and keep left
                if cash >= need:
                    if need > low_cash:  # max() / min(): builtin calls, not compiled
                        low_cash = need
                    best, best_level = e.acts[i].build_at[q], low
                    break  # the first of this group; a later group must be lower to win
                if need < high_cash:
                    high_cash = need
    e._afford_cache[i] = (
        e._holdings_version[i], e._stock_version if stock_read else -1, keep, low_cash,
        high_cash, best
    )
    return best


def lots_one_short(e: Engine, player: int) -> list[int]:
    """The lots that would each complete a group of `player`: of every area of two or more
    lots whose lots the player owns all but one, that one, in area order. Kept while the
    player's properties stay the same: the answer depends on nothing else, not even their
    buildings (the heuristic bot asks once a turn; walking every area cost ~1 %)."""
    version = e._owned_version[player]
    entry = e._short_cache.get(player)
    if entry is not None and entry[0] == version:
        return entry[1]
    out: list[int] = []
    owners = e.owner
    counts, sizes = e.group_count[player], e.area_sizes
    for ai, lots in enumerate(e.area_lot_list):
        if sizes[ai] < 2 or counts[ai] != sizes[ai] - 1:
            continue  # not exactly one lot short of the group (counted, not walked)
        for q in lots:
            if owners[q] != player:
                out.append(q)
                break
    e._short_cache[player] = (version, out)
    return out


def first_unmortgage(e: Engine, p: PlayerState) -> Action | None:
    """The first lift compute_manage() lists for `p` (owned order), asked directly."""
    if not e._manages or not e.rx.mortgages:
        return None
    mortgaged, lift_cost, cash = e.mortgaged, e.lift_cost, p.cash
    for pos in e.owned[p.index]:
        if mortgaged[pos] and cash >= lift_cost[pos]:
            return e.acts[p.index].unmortgage[pos]
    return None
