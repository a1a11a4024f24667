"""The strong bot's valuation: what every player's holdings are worth, in money, for a given
(perhaps imagined) ownership and cash, and so what a choice changes for the bot against the
table.

A player's worth X is
- what the holdings can be turned into (cash, mortgage values, houses at half their price;
  under rules without mortgages, where net worth ranks, half the printed price),
- plus what the rents will bring over the rest of the game, *minus* what the player will pay
  the others: rent is a transfer, so a group one player completes costs every other player;
  over ``K`` opponent rolls (the horizon: rounds left times rolls a turn), a player whose
  holdings earn ``r`` per opponent roll gains ``K (n r - sum of everyone's r)`` with n players,
- plus the chance of completing a group still open (bought up from the bank, or by trade
  where another player holds a lot: a lot that blocks another player is worth what it denies).

A whole group counts at the houses its owner can pay for (cash, mortgaging lots outside whole
groups, a little income to come), built in the order that pays most per dollar (the third
house first; BOTS.md §1.1): the same group is worth far more to an owner with cash to build.

The bot's score is its X minus the table's: half the strongest opponent's, half the average.
Every decision (a deal, a bid, a purchase) compares the score with and without.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .odds import BoardFacts

if TYPE_CHECKING:
    from ..core import Engine

# Rounds left when the rules set no limit: games that end by bankruptcy are decided within
# tens of rounds; a game that rarely ends (Ugentopoly: nobody leaves, the richest wins at a
# limit) values rent over more of them.
ROUNDS_BANKRUPTCY: Final = 45.0
ROUNDS_OPEN: Final = 100.0
# The chance to complete a group another player holds a lot of: only by trade.
TRADE_CHANCE: Final = 0.12
# What a group still to be built is worth counts the income the owner will have for houses:
# this many salaries on top of the cash.
FUTURE_SALARIES: Final = 4.0
LATER_WEIGHT: Final = 0.5  # the rent of houses paid from salaries to come: half of it
JAIL_CARD_WORTH: Final = 30.0
# The table the bot measures itself against: the strongest opponent weighs this much, the
# opponents' mean the rest (helping the leader costs more than helping the table).
LEADER_WEIGHT: Final = 0.5
# A mortgaged lot counts its rent at this weight (it may be lifted later) and owes interest.
MORTGAGED_RENT: Final = 0.5
INTEREST: Final = 0.1


def horizon_rounds(e: Engine) -> float:
    """Rounds the rents still have to earn: the rules' limit when they set one, else a game's
    typical remainder."""
    rx = e.rx
    active = 0
    for p in e.players:
        if not p.bankrupt:
            active += 1
    # a game that ends when a player is out is decided within tens of rounds; one that
    # rarely ends (Ugentopoly: the first who cannot pay ends it) runs to its limit
    open_ended = rx.debt_mode == "end_game" and not rx.mortgages
    rounds = ROUNDS_OPEN if open_ended else ROUNDS_BANKRUPTCY
    limited = False
    left = 0.0
    if rx.round_limit is not None:
        left = float(rx.round_limit - e.round + 1)
        limited = True
    if rx.turn_limit is not None and active > 0:
        by_turns = (rx.turn_limit - e.turn_number) / active
        if not limited or by_turns < left:
            left = by_turns
        limited = True
    if limited and (open_ended or left < rounds):
        rounds = left
    return rounds if rounds > 1.0 else 1.0


def rent_exposure(e: Engine, f: BoardFacts, i: int) -> tuple[float, int]:
    """The rent per roll player `i` can expect to pay and the highest single rent in its way
    (rounded), from the other players' holdings now."""
    expected = 0.0
    top = 0
    payer = e.players[i]
    for pos in f.properties:
        owner = e.owner[pos]
        if owner < 0 or owner == i or e.mortgaged[pos]:
            continue
        if pos in f.utilities:  # (the dice decide: the mean roll's rent)
            count = 0
            for q in f.utilities:
                if e.owner[q] == owner:
                    count += 1
            rent = int(f.utility_rent[count])
        else:
            rent = e.rent(pos, payer)
        expected += f.land[pos] * rent
        if rent > top:
            top = rent
    return expected, top


class Worth:
    """Every player's worth X for an ownership and cash (see the module's docstring).

    One per bot and board: `facts` is the board's, `horizon` (opponent rolls) and the number
    of players still in are set by :meth:`prepare` before a decision's valuations."""

    def __init__(self, facts: BoardFacts, e: Engine) -> None:
        self.f = facts
        self.horizon = 30.0  # opponent rolls a lot earns over: rounds x rolls a turn
        self.active = 2
        self.trade_chance = TRADE_CHANCE
        # what each lot itself counts for: its mortgage value where mortgages exist, half its
        # price where net worth ranks without them, nothing where cash alone ranks
        rx = e.rx
        self.asset: list[float] = [
            float(e.mortgage_values[pos]) if rx.mortgages
            else (0.5 * e.costs[pos] if rx.rank_by == "net_worth" else 0.0)
            for pos in range(facts.size)]
        self.interest: list[float] = [INTEREST * v for v in e.mortgage_values]
        self.gains: list[float] = []
        self.key = (-1, -1.0)
        # the base (see values): the engine's ownership and what it gives each player
        self.base_key = (-1, -1, -1, -1.0)
        self.base_engine: Engine | None = None
        self.base_owner: list[int] = []
        self.base_inc: list[float] = []
        self.base_worth: list[float] = []
        self.base_complete: list[list[int]] = []
        self.touched: list[bool] = []
        self.counts: list[int] = []
        self.plans: dict[tuple[int, int, int], tuple[float, float]] = {}

    def prepare(self, e: Engine) -> None:
        active = 0
        for p in e.players:
            if not p.bankrupt:
                active += 1
        active = active if active > 1 else 2
        horizon = horizon_rounds(e) * self.f.rolls_per_turn
        if (active, horizon) != self.key:
            self.key = (active, horizon)
            self.active = active
            self.horizon = horizon
            self.gains = [self.group_gain(ai) for ai in range(len(self.f.area_lots))]

    def group_gain(self, ai: int) -> float:
        """What completing area `ai` is worth (built to its sweet spot), for the options."""
        f = self.f
        epr = f.area_epr[ai]
        level = f.sweet if f.top > 0 else 0
        built = epr[level] if level < len(epr) else 0.0
        gain = self.active * self.horizon * (built - f.area_alone[ai])
        return gain - 0.5 * level * f.level_cost[ai]

    def values(self, e: Engine, owner: list[int], cash: list[int], cards: list[int]
               ) -> list[float]:
        """Every player's X (0 for a player out).

        The holdings' part is kept for the engine's own ownership (the base, made again when
        any holding changes): an imagined ownership re-values only the groups, stations and
        lots it changes, and the build plans of the players whose cash or groups differ."""
        f = self.f
        self._refresh(e)
        base_owner = self.base_owner
        inc = list(self.base_inc)
        worth = list(self.base_worth)
        complete = self.base_complete
        changed = False
        touched = self.touched
        for k in range(len(touched)):
            touched[k] = False
        stations = False
        utilities = False
        area_of = f.area_of
        for pos in f.properties:
            if owner[pos] != base_owner[pos]:
                changed = True
                ai = area_of[pos]
                if ai >= 0:
                    touched[ai] = True
                elif f.is_railway[pos]:
                    stations = True
                elif f.is_utility[pos]:
                    utilities = True
                else:
                    self._loose(e, pos, base_owner[pos], inc, worth, -1.0)
                    self._loose(e, pos, owner[pos], inc, worth, 1.0)
        if changed:
            complete = [list(groups) for groups in complete]
            for ai in range(len(touched)):
                if touched[ai]:
                    self._area(e, ai, base_owner, inc, worth, -1.0, complete, True)
                    self._area(e, ai, owner, inc, worth, 1.0, complete, False)
            if stations:
                self._stations(e, base_owner, f.railways, inc, worth, True, -1.0)
                self._stations(e, owner, f.railways, inc, worth, True, 1.0)
            if utilities:
                self._stations(e, base_owner, f.utilities, inc, worth, False, -1.0)
                self._stations(e, owner, f.utilities, inc, worth, False, 1.0)
        total = 0.0
        for p in e.players:
            if p.bankrupt:
                continue
            i = p.index
            worth[i] += float(cash[i]) + JAIL_CARD_WORTH * cards[i]
            if complete[i]:
                plan_inc, plan_worth = self._plan(e, i, owner, cash[i], complete[i], changed)
                inc[i] += plan_inc
                worth[i] += plan_worth
            total += inc[i]
        k_rolls = self.horizon
        active = self.active
        for p in e.players:
            i = p.index
            worth[i] = 0.0 if p.bankrupt else worth[i] + k_rolls * (active * inc[i] - total)
        return worth

    def _refresh(self, e: Engine) -> None:
        """The base: the holdings' part of every player's X for the engine's ownership."""
        version = 0
        for v in e._holdings_version:
            version += v
        key = (version, e._stock_version, self.active, self.horizon)
        if key == self.base_key and self.base_engine is e:
            return
        self.base_key = key
        self.base_engine = e
        self.plans.clear()
        f = self.f
        n = len(e.players)
        owner = list(e.owner)
        inc = [0.0] * n
        worth = [0.0] * n
        complete: list[list[int]] = [[] for _ in range(n)]
        for ai in range(len(f.area_lots)):
            self._area(e, ai, owner, inc, worth, 1.0, complete, False)
        self._stations(e, owner, f.railways, inc, worth, True, 1.0)
        self._stations(e, owner, f.utilities, inc, worth, False, 1.0)
        for pos in f.loose:
            self._loose(e, pos, owner[pos], inc, worth, 1.0)
        self.base_owner = owner
        self.base_inc = inc
        self.base_worth = worth
        self.base_complete = complete
        self.touched = [False] * len(f.area_lots)

    def _area(self, e: Engine, ai: int, owner: list[int], inc: list[float],
              worth: list[float], sign: float, complete: list[list[int]], drop: bool) -> None:
        """Add (sign 1) or take away (sign -1) what area `ai` gives its holders under
        `owner`; a whole group under building rules goes to (or, with `drop`, leaves) its
        owner's list in `complete` instead (its build plan values it)."""
        f = self.f
        lots = f.area_lots[ai]
        holder = owner[lots[0]]
        whole = holder >= 0
        for q in lots:
            if owner[q] != holder:
                whole = False
                break
        if whole and f.top > 0:
            groups = complete[holder]
            if drop:
                if ai in groups:
                    groups.remove(ai)
            elif ai not in groups:
                groups.append(ai)
            return
        land = f.land
        mortgaged = e.mortgaged
        asset = self.asset
        interest = self.interest
        n = len(inc)
        counts = self.counts
        if len(counts) < n:
            counts = self.counts = [0] * n
        for k in range(n):
            counts[k] = 0
        held = 0
        for q in lots:
            o = owner[q]
            if o < 0:
                continue
            held += 1
            counts[o] += 1
            rent = land[q] * (f.grouped[q][0] if whole else f.alone[q])
            if f.unlimited:
                rent = land[q] * f.level_rent(q, e.level[q])
            value = asset[q]
            if mortgaged[q]:
                value -= interest[q]
                rent *= MORTGAGED_RENT
            worth[o] += sign * value
            inc[o] += sign * rent
        if whole or len(lots) < 2:
            return
        gain = self.gains[ai]
        if gain <= 0.0:
            return
        size = len(lots)
        share = 1.0 / self.active
        for o in range(n):
            k = counts[o]
            if k == 0:
                continue
            # the rest bought from the bank, or (another player holds some) only by trade
            chance = (share ** (size - held) if held == k
                      else self.trade_chance * k / (size - 1))
            worth[o] += sign * chance * gain

    def _loose(self, e: Engine, pos: int, o: int, inc: list[float], worth: list[float],
               sign: float) -> None:
        """A street in no group (every 22-cell street): its rent at its houses."""
        if o < 0:
            return
        f = self.f
        value = self.asset[pos]
        rent = f.land[pos] * f.level_rent(pos, e.level[pos])
        if e.mortgaged[pos]:
            value -= self.interest[pos]
            rent *= MORTGAGED_RENT
        if f.unlimited and e.rx.rank_by == "net_worth":
            value += 0.5 * e.level[pos] * e.house_prices[pos]
        worth[o] += sign * value
        inc[o] += sign * rent

    def _stations(self, e: Engine, owner: list[int], where: list[int], inc: list[float],
                  worth: list[float], railway: bool, sign: float) -> None:
        f = self.f
        n = len(inc)
        counts = [0] * n
        for pos in where:
            o = owner[pos]
            if o >= 0:
                counts[o] += 1
        for pos in where:
            o = owner[pos]
            if o < 0:
                continue
            k = counts[o]
            rent = f.railway_rent[k] if railway else f.utility_rent[k]
            value = f.land[pos] * rent
            worth[o] += sign * self.asset[pos]
            if e.mortgaged[pos]:
                worth[o] -= sign * self.interest[pos]
                value *= MORTGAGED_RENT
            inc[o] += sign * value

    def _plan(self, e: Engine, i: int, owner: list[int], cash: int, groups: list[int],
              changed: bool) -> tuple[float, float]:
        """Player i's whole groups at the houses its money pays for (kept per cash and
        groups while the base stands, and the ownership is the engine's)."""
        key = (i, cash, len(groups))
        if not changed:
            known = self.plans.get(key)
            if known is not None:
                return known
        inc = [0.0]
        worth = [0.0]
        self._build_plan(e, i, owner, cash, groups, inc, worth, 0)
        out = (inc[0], worth[0])
        if not changed:
            if len(self.plans) > 256:
                self.plans.clear()
            self.plans[key] = out
        return out

    def _build_plan(self, e: Engine, i: int, owner: list[int], cash: int, groups: list[int],
                    inc: list[float], worth: list[float], slot: int) -> None:
        """Player i's whole groups at the houses its money pays for, best return first."""
        f = self.f
        mortgaged, mvalues, level = e.mortgaged, e.mortgage_values, e.level
        budget = float(cash)
        # lots outside whole groups can be mortgaged for houses (BOTS.md §5.8)
        for pos in f.properties:
            if owner[pos] == i and not mortgaged[pos] and f.area_of[pos] not in groups:
                budget += mvalues[pos]
        levels: list[float] = []
        for ai in groups:
            lots = f.area_lots[ai]
            houses = 0
            for q in lots:
                if mortgaged[q]:
                    budget -= mvalues[q] * (1.0 + INTEREST)  # lifted before building
                else:
                    worth[slot] += self.asset[q]
                houses += level[q]
                worth[slot] += 0.5 * level[q] * e.house_prices[q]
            levels.append(houses / len(lots))
        houses_left = e.houses_left
        spare = float(houses_left) if houses_left is not None else 1e9
        # spend the budget a step at a time on the step that pays most per dollar: what the
        # player has now, then salaries to come, whose houses earn over less of the game
        active = self.active
        k_rolls = self.horizon
        later = FUTURE_SALARIES * e.salary
        if budget < 0.0:
            later += budget
            budget = 0.0
        now: list[float] = []
        while spare > 0.0:
            if budget <= 0.0:
                if not now:
                    now = list(levels)  # the levels the money of now pays for
                if later <= 0.0:
                    break
                budget, later = later, 0.0
            best = -1
            best_roi = 0.0
            for g in range(len(groups)):
                roi = self.step_roi(groups[g], levels[g])
                if roi > best_roi:
                    best, best_roi = g, roi
            if best < 0:
                break
            ai = groups[best]
            cost = float(f.level_cost[ai])
            step_level = float(int(levels[best]) + 1) - levels[best]  # to the next whole level
            # a step is taken only if it pays back within the horizon (houses sell at half)
            if best_roi * active * k_rolls < 0.5:
                break
            count = float(len(f.area_lots[ai]))
            want = step_level * cost
            new = step_level * count
            if new > spare:
                want *= spare / new
                new = spare
            if want > budget:
                new *= budget / want
                want = budget
            levels[best] += new / count
            spare -= new
            budget -= want
            worth[slot] -= 0.5 * want  # cash turned into houses worth half their price
        if not now:
            now = levels
        for g in range(len(groups)):
            at_now = self.group_epr(groups[g], now[g])
            inc[slot] += at_now + LATER_WEIGHT * (self.group_epr(groups[g], levels[g]) - at_now)

    def group_epr(self, ai: int, level: float) -> float:
        """A whole group's expected rent per opponent roll at a (fractional) even level."""
        epr = self.f.area_epr[ai]
        top = len(epr) - 1
        if level >= top:
            return epr[top]
        low = int(level)
        frac = level - low
        return epr[low] + frac * (epr[low + 1] - epr[low])

    def step_roi(self, ai: int, level: float) -> float:
        """Rent per opponent roll gained per dollar by the next level of houses, looking ahead
        to the sweet spot (a first house pays little alone, the third pays most)."""
        f = self.f
        epr = f.area_epr[ai]
        top = len(epr) - 1
        low = int(level)
        cost = f.level_cost[ai]
        if low >= top or cost <= 0:
            return 0.0
        sweet = f.sweet
        target = sweet if low < sweet else low + 1
        return (epr[target] - self.group_epr(ai, level)) / ((target - level) * cost)

    def score(self, values: list[float], me: int, e: Engine) -> float:
        """The bot's worth against the table: the strongest opponent's worth weighted
        LEADER_WEIGHT, the mean of the opponents' the rest."""
        top = -1e18
        total = 0.0
        count = 0
        for p in e.players:
            k = p.index
            if k == me or p.bankrupt:
                continue
            v = values[k]
            total += v
            count += 1
            if v > top:
                top = v
        if count == 0:
            return values[me]
        return values[me] - LEADER_WEIGHT * top - (1.0 - LEADER_WEIGHT) * total / count
