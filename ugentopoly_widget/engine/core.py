"""The rules engine: state plus the flow of play.

The flow is a generator: every point where somebody must decide is a ``yield`` of a
:class:`Decision`, and the chosen (already validated) action is sent back in. Debts, auctions,
trades and card effects nest with ``yield from``, so a payment deep inside a card effect can stop
for the debtor to raise money and then carry on where it was. The engine never keeps the
generator's frame anywhere but here: saving, undo and copies go through the action record.
"""

from __future__ import annotations

from bisect import insort
from collections import deque
from collections.abc import Callable, Generator
from typing import Any

from . import actions as A
from .actions import Action, cached
from .board import Board, Card, CardKind, TileKind
from .errors import IllegalActionError, InvalidActionError
from .events import BANK, POT, Event, Party
from .rules import RulesProfile
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
    ChanceSource,
    Decision,
    PlayerState,
)

Flow = Generator[Decision, Action, Any]

STREET, RAILWAY, UTILITY = TileKind.STREET, TileKind.RAILWAY, TileKind.UTILITY
PROPERTY_KINDS = (STREET, RAILWAY, UTILITY)


class _GameOver(Exception):
    def __init__(self, reason: str) -> None:
        self.reason = reason


class _PlayerOut(Exception):
    """The current player went bankrupt: their turn stops here."""


# Cards drawn in a row by one move (a card moves the token onto a deck tile, which draws again):
# a board file can make that chain endless (a "move 0" card, two decks sending to each other).
MAX_CARD_CHAIN = 10


def interest(value: int) -> int:
    """10 % of a mortgage value, rounded up to whole units."""
    return -(-value // 10)


class Engine:
    """State and flow of one game. Use it through :class:`ugentopoly_widget.Game`."""

    def __init__(
        self,
        board: Board,
        rules: RulesProfile,
        players: list[tuple[str, str, str]],
        seed: int,
        clock: Callable[[], float],
    ) -> None:
        self.board = board
        self.rules = rules
        self.size = board.size
        self.tiles = board.tiles
        self.clock = clock
        self.chance = ChanceSource(seed)
        start_cash = rules.starting_money if rules.starting_money is not None else board.balance
        self.salary = rules.salary if rules.salary is not None else board.salary
        self.players = [PlayerState(i, n, t, c, start_cash) for i, (n, t, c) in enumerate(players)]
        self.money_total = start_cash * len(players)  # cash + pot + bank balance never changes
        self.bank = 0  # what the bank has received minus what it has paid out
        self.pot = 0
        self.owner = [-1] * self.size
        self.owned: list[list[int]] = [[] for _ in self.players]  # positions, ascending
        self.level = [0] * self.size  # buildings: houses, and houses_before_hotel + 1 = hotel
        self.mortgaged = [False] * self.size
        self.houses_left = rules.bank_houses
        self.hotels_left = rules.bank_hotels
        self.hbh = rules.effective_houses_before_hotel
        self.hotel_level = self.hbh + 1
        self.jail = board.jail_position
        self.railways = board.positions_of(RAILWAY)
        self.utilities = board.positions_of(UTILITY)
        # An area no street uses has no lots to build on or sell: the engine leaves it out.
        self.area_lots = {aid: a.positions for aid, a in board.areas.items() if a.positions}
        self._manages = rules.mortgages or rules.buildings == "classic"
        self._timer_on = rules.turn_timer_seconds is not None
        # Versions for the management-actions cache: a player's own holdings (ownership,
        # buildings, mortgages) and the bank's building stock, which every builder shares.
        self._holdings_version = [0] * len(self.players)
        self._stock_version = 0
        self._manage_cache: dict[int, tuple[int, int, int, int, tuple[Action, ...]]] = {}
        self._legal_memo: dict[int, tuple[tuple[Action, ...], tuple[Action, ...]]] = {}
        # Decisions without context are shared: a new object per turn is measurable.
        self._turn_decisions = [Decision(TURN, i) for i in range(len(self.players))]
        self._roll_only = [(cached(A.Roll, i),) for i in range(len(self.players))]
        # tiles whose landing does nothing at all: no need to start the landing flow
        self._inert = [t.kind in (TileKind.START, TileKind.JAIL) for t in board.tiles]
        self._post_roll_decisions = [Decision(POST_ROLL, i) for i in range(len(self.players))]
        # Per-area bookkeeping, kept in step by _set_owner/_set_level: the hot path of
        # legal_actions() asks "owns the whole group?" and "any buildings in it?" constantly.
        area_ids = list(self.area_lots)
        self.area_ids = area_ids
        self.area_lot_list = [board.areas[a].positions for a in area_ids]
        self.lift_cost = [t.mortgage + interest(t.mortgage) for t in board.tiles]
        index_of = {aid: k for k, aid in enumerate(area_ids)}  # linear in areas x tiles
        self.area_index = [
            index_of.get(t.area, -1) if t.area is not None else -1 for t in board.tiles
        ]
        self.area_sizes = [len(board.areas[a].positions) for a in area_ids]
        self.group_count = [[0] * len(area_ids) for _ in self.players]
        self.group_levels = [0] * len(area_ids)
        self.house_prices = [self._house_price(pos) for pos in range(self.size)]
        self.decks: dict[str, deque[Card]] = {}
        self.current = 0
        self.first_player = 0
        self.turn_number = 0
        self.round = 1
        self.out_count = 0
        self.time_up = False
        self.over = False
        self.over_reason = ""
        self.winners: list[int] = []
        self.ranking: list[int] = []
        self.scores: list[int] = []
        self.events: list[Event] = []
        self.replaying = False
        self.turn_started_at = clock()
        self._rolled_doubles = False
        self._extra_roll = False
        self._card_chain = 0
        self._legal: tuple[Action, ...] | None = None
        self._legal_set: frozenset[Action] | None = None
        self._flow_gen = self._flow()
        self.decision: Decision = next(self._flow_gen)

    # ------------------------------------------------------------------ applying actions

    def apply(self, action: Action) -> list[Event]:
        if not isinstance(action, Action):
            raise InvalidActionError(
                f"apply() takes an Action, not {type(action).__name__}; "
                "use Game.act('buy') or action_from_dict() for other forms"
            )
        self.check_legal(action)
        return self.apply_checked(action)

    def apply_checked(self, action: Action) -> list[Event]:
        """Apply an action that check_legal() has accepted."""
        start = len(self.events)
        self.decision = self._flow_gen.send(action)
        self._legal = None
        self._legal_set = None
        return self.events[start:]

    def check_legal(self, action: Action) -> None:
        """Raise IllegalActionError unless `action` may be applied now. Changes nothing."""
        d = self.decision
        legal = self._legal if self._legal is not None else self.legal_actions()
        for candidate in legal:
            if candidate is action:
                return
        kind = type(action)
        if kind is A.TimeUp:
            if self._time_is_up():
                return
            self._refuse(action, "the game clock has not run out")
        if kind is A.TimerRoll:
            if (
                d.kind == TURN
                and action.player == d.player
                and (self.replaying or self.timer_expired())
            ):
                return
            self._refuse(action, "the turn timer has not run out")
        if action.player != d.player:
            self._refuse(action, "it is not this player's decision")
        if self._legal_set is None:
            self._legal_set = frozenset(legal)
        if action in self._legal_set:
            return
        if kind is A.Bid and d.kind == AUCTION:
            low, high = d.data["min_bid"], self.players[action.player].cash
            if isinstance(action, A.Bid) and low <= action.amount <= high:
                return
            self._refuse(action, f"a bid must be between {low} and {high}")
        if kind is A.ProposeTrade and isinstance(action, A.ProposeTrade):
            problem = self.trade_problem(action)
            if problem is None:
                return
            self._refuse(action, problem)
        self._refuse(action, "it is not one of the legal actions")

    def _refuse(self, action: Action, reason: str) -> None:
        d = self.decision
        who = self.players[d.player].name if d.player is not None else "nobody"
        legal = ", ".join(str(a) for a in self.legal_actions()) or "none"
        raise IllegalActionError(
            f"{action} refused: {reason}. Decision: {who}'s {d.kind!r}; legal now: {legal}",
            action=action,
            player=who,
            phase=d.kind,
        )

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self) -> tuple[Action, ...]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def _compute_legal(self) -> tuple[Action, ...]:
        d = self.decision
        kind = d.kind
        if kind == GAME_OVER or d.player is None:
            return ()
        p = self.players[d.player]
        i = p.index
        out: list[Action]
        if kind == TURN:
            if not p.in_jail and (not self._manages or not self.owned[i]):
                return self._roll_only[i]
            if not p.in_jail:
                return self._memo_legal(i * 2, cached(A.Roll, i), p)
            out = [cached(A.Roll, i)]
            if p.in_jail:
                fine = self.rules.jail_fine
                if fine is not None and p.cash >= fine:
                    out.append(cached(A.PayFine, i))
                if p.jail_cards and not self.rules.jail_card_auto:
                    out.append(cached(A.UseJailCard, i))
            out.extend(self._manage_actions(p, build=True, unmortgage=True))
        elif kind == POST_ROLL:
            return self._memo_legal(i * 2 + 1, cached(A.EndTurn, i), p)
        elif kind == BUY:
            out = [cached(A.Buy, i)] if p.cash >= self.tiles[d.data["position"]].cost else []
            out.append(cached(A.Decline, i))
            out.extend(self._manage_actions(p, build=False, unmortgage=False))
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
            value = self.tiles[pos].mortgage
            out = [cached(A.LiftMortgage, i, pos)] if p.cash >= value + interest(value) else []
            out.append(cached(A.KeepMortgage, i, pos))
        elif kind == DEBT:
            out = list(self._manage_actions(p, build=False, unmortgage=False))
            if self.max_raisable(p) < d.data["amount"]:
                out.append(cached(A.DeclareBankruptcy, i))
        elif kind == HOUSE_OFFER:
            pos = d.data["position"]
            out = [cached(A.Build, i, pos)] if p.cash >= self.house_price(pos) else []
            out.append(cached(A.Decline, i))
        elif kind == PLACE_HOUSE:
            out = [cached(A.PlaceHouse, i, pos) for pos in d.data["positions"]]
        else:  # pragma: no cover - every kind is handled above
            out = []
        return tuple(out)

    def _memo_legal(self, key: int, first: Action, p: PlayerState) -> tuple[Action, ...]:
        """`first` + the management actions; the same tuple while those do not change."""
        manage = self._manage_actions(p, build=True, unmortgage=True)
        memo = self._legal_memo.get(key)
        if memo is not None and memo[0] is manage:
            return memo[1]
        legal = (first, *manage)
        self._legal_memo[key] = (manage, legal)
        return legal

    def _manage_actions(
        self, p: PlayerState, *, build: bool, unmortgage: bool
    ) -> tuple[Action, ...]:
        """Build / sell / sell-down / mortgage / lift actions open to `p` now (cached).

        The list changes only when the player's holdings or the bank's stock change or
        when the player's cash crosses a price that decides what is affordable, so it is kept
        with the cash range in which it stays true."""
        key = p.index * 4 + build * 2 + unmortgage
        entry = self._manage_cache.get(key)
        cash = p.cash
        if (
            entry is not None
            and entry[0] == self._holdings_version[p.index]
            and entry[1] == self._stock_version
            and entry[2] <= cash < entry[3]
        ):
            return entry[4]
        bounds = [0, 1 << 62]
        out = tuple(self._compute_manage(p, build, unmortgage, bounds))  # shared: immutable
        self._manage_cache[key] = (
            self._holdings_version[p.index], self._stock_version, bounds[0], bounds[1], out
        )
        return out

    def _compute_manage(
        self, p: PlayerState, build: bool, unmortgage: bool, bounds: list[int]
    ) -> list[Action]:
        """Works group by group: only a whole group can carry buildings, so per-lot checks are
        needed for mortgages alone. `bounds` narrows to the cash range where the answer holds."""
        rules = self.rules
        if not self._manages:
            return []
        out: list[Action] = []
        i = p.index
        cash = p.cash
        owned = self.owned[i]
        if not owned:
            return out
        level, mortgaged = self.level, self.mortgaged
        area_index, group_levels = self.area_index, self.group_levels
        if rules.buildings == "classic":
            counts = self.group_count[i]
            for ai, lots in enumerate(self.area_lot_list):
                if counts[ai] != self.area_sizes[ai]:
                    continue
                levels = [level[q] for q in lots]
                low, high = min(levels), max(levels)
                if build and low < self.hotel_level and not any(mortgaged[q] for q in lots):
                    for q in lots:
                        if level[q] == low:
                            price = self.house_prices[q]
                            if price <= cash:
                                bounds[0] = max(bounds[0], price)
                            else:
                                bounds[1] = min(bounds[1], price)
                            if 0 < price <= cash and (
                                (self.hotels_left is None or self.hotels_left > 0)
                                if low == self.hbh
                                else (self.houses_left is None or self.houses_left > 0)
                            ):
                                out.append(A.BUILD.get(i, q))
                if high:
                    if (
                        high < self.hotel_level
                        or self.houses_left is None
                        or (self.houses_left >= self.hbh)
                    ):
                        for q in lots:
                            if level[q] == high:
                                out.append(A.SELL.get(i, q))
                    if (
                        high == self.hotel_level
                        and self.houses_left is not None
                        and (self.houses_left < self.hbh)
                    ):  # hotels cannot be sold one level at a time: offer selling further down
                        area = self.area_ids[ai]
                        for target in range(self.hotel_level):
                            if self.sell_down_problem(i, area, target) is None:
                                out.append(cached(A.SellDown, i, area, target))
        if rules.mortgages:
            for pos in owned:
                if mortgaged[pos]:
                    if unmortgage:
                        cost = self.lift_cost[pos]
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

    # ------------------------------------------------------------------ queries

    def _set_mortgaged(self, pos: int, value: bool) -> None:
        if self.owner[pos] >= 0:
            self._holdings_version[self.owner[pos]] += 1
        self.mortgaged[pos] = value

    def _set_owner(self, pos: int, player: int) -> None:
        old = self.owner[pos]
        if old >= 0:
            self._holdings_version[old] += 1
        if player >= 0:
            self._holdings_version[player] += 1
        ai = self.area_index[pos]
        if old >= 0:
            self.owned[old].remove(pos)
            if ai >= 0:
                self.group_count[old][ai] -= 1
        self.owner[pos] = player
        if player >= 0:
            insort(self.owned[player], pos)
            if ai >= 0:
                self.group_count[player][ai] += 1

    def _set_level(self, pos: int, level: int) -> None:
        if self.owner[pos] >= 0:
            self._holdings_version[self.owner[pos]] += 1
        self._stock_version += 1  # building or selling changes the bank's stock
        ai = self.area_index[pos]
        if ai >= 0:
            self.group_levels[ai] += level - self.level[pos]
        self.level[pos] = level

    def active_players(self) -> list[PlayerState]:
        return [p for p in self.players if not p.bankrupt]

    def house_price(self, pos: int) -> int:
        return self.house_prices[pos]

    def _house_price(self, pos: int) -> int:
        tile = self.tiles[pos]
        if tile.house_price is not None:
            return tile.house_price
        if self.rules.house_price_rule == "fifth_of_cost":
            return tile.cost // 5
        area = self.board.areas.get(tile.area or "")
        if area is None or area.house_price is None:
            return tile.cost // 5 if self.rules.buildings == "unlimited" else 0
        return area.house_price

    def group(self, pos: int) -> tuple[int, ...]:
        area = self.tiles[pos].area
        return self.area_lots[area] if area is not None else (pos,)

    def owns_group(self, player: int, pos: int) -> bool:
        ai = self.area_index[pos]
        if ai < 0:
            return self.owner[pos] == player
        return player >= 0 and self.group_count[player][ai] == self.area_sizes[ai]

    def group_has_buildings(self, pos: int) -> bool:
        ai = self.area_index[pos]
        if ai < 0 or self.rules.buildings == "unlimited":
            return self.level[pos] > 0
        return self.group_levels[ai] > 0

    def can_build(self, p: PlayerState, pos: int, *, ignore_cash: bool = False) -> bool:
        """May `p` put one more building (house or hotel) on `pos` now (classic rules)?"""
        tile = self.tiles[pos]
        if tile.kind is not STREET or tile.area is None or not self.owns_group(p.index, pos):
            return False
        lots = self.area_lots[tile.area]
        owner, level, mortgaged = self.owner, self.level, self.mortgaged
        lv = level[pos]
        if lv >= self.hotel_level:
            return False
        for q in lots:
            if owner[q] != p.index or mortgaged[q] or level[q] < lv:
                return False
        price = self.house_price(pos)
        if price <= 0 or (not ignore_cash and p.cash < price):
            return False
        if lv == self.hbh:
            return self.hotels_left is None or self.hotels_left > 0
        return self.houses_left is None or self.houses_left > 0

    def can_sell(self, pos: int) -> bool:
        lv = self.level[pos]
        if lv == 0 or self.rules.buildings != "classic":
            return False
        if any(self.level[q] > lv for q in self.group(pos)):
            return False  # sell evenly: the highest lots first
        if lv == self.hotel_level and self.houses_left is not None:
            return self.houses_left >= self.hbh  # the hotel goes back for houses the bank has
        return True

    def sell_down_problem(self, player: int, area: str, target: int) -> str | None:
        lots = self.area_lots.get(area)
        if lots is None:
            return f"there is no area {area!r}"
        if any(self.owner[q] != player for q in lots):
            return "you do not own that whole area"
        top = max(self.level[q] for q in lots)
        if not 0 <= target < top:
            return f"the level must be below the highest building level ({top})"
        need = 0
        for q in lots:
            lv = self.level[q]
            if lv == self.hotel_level:
                need += target
            elif lv > target:
                need -= lv - target
        if self.houses_left is not None and need > self.houses_left:
            return f"the bank has only {self.houses_left} houses"
        return None

    def building_value(self, pos: int) -> int:
        return self.level[pos] * self.house_price(pos)

    def net_worth(self, p: PlayerState) -> int:
        """The official net worth (RULES.md §2, income tax): cash + every property at its
        printed price, mortgaged or not + buildings at cost."""
        total = p.cash
        for pos in self.owned[p.index]:
            total += self.tiles[pos].cost + self.building_value(pos)
        return total

    def valuation(self, p: PlayerState) -> int:
        """The ranking count of short and timed games (RULES.md §2): like the net worth, but a
        mortgaged property counts at half its price (its mortgage is a debt to the bank)."""
        total = p.cash
        for pos in self.owned[p.index]:
            tile = self.tiles[pos]
            total += tile.cost // 2 if self.mortgaged[pos] else tile.cost
            total += self.building_value(pos)
        return total

    def max_raisable(self, p: PlayerState) -> int:
        """Cash after selling every building and mortgaging every property."""
        total = p.cash
        for pos in self.owned[p.index]:
            if self.rules.buildings == "classic":
                total += self.level[pos] * (self.house_price(pos) // 2)
            if self.rules.mortgages and not self.mortgaged[pos]:
                total += self.tiles[pos].mortgage
        return total

    def score(self, p: PlayerState) -> int:
        return p.cash if self.rules.rank_by == "money" else self.valuation(p)

    def rent(self, pos: int, payer: PlayerState, rent_multiplier: int = 1) -> int:
        tile = self.tiles[pos]
        owner = self.owner[pos]
        kind = tile.kind
        if kind is STREET:
            model = self.rules.street_rent
            rents = tile.rents
            if model == "linear_houses":
                return tile.cost * (2 + self.level[pos]) // 2
            lv = self.level[pos]
            if lv and model == "classic":
                if lv == self.hotel_level:
                    return rents[-1] if len(rents) > 5 else rents[min(lv, len(rents) - 1)]
                return rents[min(lv, len(rents) - 1)]
            base = rents[0]
            if tile.area is not None and self.owns_group(owner, pos):
                if model == "course" or not self.group_has_buildings(pos):
                    base *= 2
            return base * rent_multiplier
        if kind is RAILWAY:
            n = sum(1 for q in self.railways if self.owner[q] == owner)
            rents = tile.rents
            base = rents[n - 1] if len(rents) >= n else rents[0] << (n - 1)
            return base * rent_multiplier
        # UTILITY
        n = sum(1 for q in self.utilities if self.owner[q] == owner)
        low, high = self.rules.utility_multipliers
        return payer.last_roll * (low if n <= 1 else high)

    def trade_problem(self, offer: A.ProposeTrade) -> str | None:
        """Why this trade offer is not legal now, or None when it is."""
        d = self.decision
        if not self.rules.trading:
            return "trading is not part of these rules"
        if d.kind not in (TURN, POST_ROLL, DEBT) or d.player != offer.player:
            return "a trade can be offered only in your own turn or while raising money"
        n = len(self.players)
        if not 0 <= offer.partner < n or offer.partner == offer.player:
            return "the partner must be another player"
        if self.players[offer.partner].bankrupt:
            return "the partner is out of the game"
        if offer.give.is_empty() and offer.get.is_empty():
            return "an empty trade"
        for side, giver in ((offer.give, offer.player), (offer.get, offer.partner)):
            who = self.players[giver]
            if side.cash > who.cash:
                return f"{who.name} has only {who.cash}"
            if len(set(side.properties)) != len(side.properties):
                return "a property is named twice"
            for pos in side.properties:
                if not 0 <= pos < self.size or self.owner[pos] != giver:
                    return f"{who.name} does not own a property at {pos}"
                if self.group_has_buildings(pos):
                    return f"the group of {pos} has buildings: sell them first"
            held = [c.id for c in who.jail_cards]
            for card in side.cards:
                if card not in held:
                    return f"{who.name} has no card {card!r}"
                held.remove(card)
        return None

    def timer_expired(self) -> bool:
        limit = self.rules.turn_timer_seconds
        return (
            limit is not None
            and not self.replaying
            and (self.clock() - self.turn_started_at >= limit)
        )

    def _time_is_up(self) -> bool:
        minutes = self.rules.time_limit_minutes
        if self.replaying or self.time_up or self.over or minutes is None:
            return False
        return self.clock() - self.started_at >= minutes * 60

    # ------------------------------------------------------------------ money

    def _credit(self, party: Party, amount: int) -> None:
        if isinstance(party, int):
            self.players[party].cash += amount
        elif party == POT:
            self.pot += amount
        else:
            self.bank += amount

    def _transfer(self, payer: Party, payee: Party, amount: int) -> None:
        self._credit(payer, -amount)
        self._credit(payee, amount)

    def _fee_payee(self) -> str:
        return POT if self.rules.free_parking_pot else BANK

    def _pay(self, p: PlayerState, payee: Party, amount: int, kind: str, **data: Any) -> Flow:
        """Pay in full, or handle the shortfall by the profile's debt rule."""
        if amount <= 0:
            return
        if p.cash >= amount:
            p.cash -= amount
            self._credit(payee, amount)
            self.events.append(
                Event(kind, p.index, {"payer": p.index, "payee": payee, "amount": amount, **data})
            )
            if self.rules.end_when_money_reaches_zero and p.cash == 0:
                raise _GameOver("money_reached_zero")
            return
        mode = self.rules.debt_mode
        if mode == "raise_then_bankrupt":
            self.events.append(
                Event("debt", p.index, {"creditor": payee, "amount": amount, "reason": kind})
            )
            while p.cash < amount:
                action = yield Decision(DEBT, p.index, amount=amount, creditor=payee, reason=kind)
                if type(action) is A.DeclareBankruptcy:
                    yield from self._bankrupt(p, payee)
                    return
                yield from self._manage(p, action)
                if p.bankrupt:
                    return
            yield from self._pay(p, payee, amount, kind, **data)
            return
        paid = p.cash
        p.cash = 0
        self._credit(payee, paid)
        self.events.append(
            Event(
                kind,
                p.index,
                {"payer": p.index, "payee": payee, "amount": paid, "owed": amount, **data},
            )
        )
        if mode == "end_game":
            self.events.append(Event("cannot_pay", p.index, {"owed": amount, "paid": paid}))
            raise _GameOver("cannot_pay")
        yield from self._bankrupt(p, None)

    # ------------------------------------------------------------------ the flow

    def _flow(self) -> Flow:
        rules = self.rules
        self.started_at = self.clock()
        self.events.append(
            Event(
                "game_started",
                None,
                {
                    "profile": rules.name,
                    "mode": rules.mode,
                    "players": [p.name for p in self.players],
                    "seed": self.chance.seed,
                },
            )
        )
        for kind, deck in self.board.decks.items():
            cards = list(deck.cards)
            if deck.draw == "cycle":
                self.chance.shuffle(cards)
            self.decks[kind] = deque(cards)
        try:
            if rules.mode in ("short", "timed"):
                self._deal_deeds(
                    rules.short_game_deeds if rules.mode == "short" else rules.timed_game_deeds
                )
            self.current = self.first_player = self.chance.below(len(self.players))
            self.events.append(Event("first_player", self.current, {}))
            while True:
                p = self.players[self.current]
                try:
                    yield from self._turn(p)
                except _PlayerOut:
                    pass
                self._after_turn(p)
        except _GameOver as over:
            self._finish(over.reason)
        while True:
            yield Decision(GAME_OVER, None, reason=self.over_reason)

    def _deal_deeds(self, count: int) -> None:
        deeds = list(self.board.property_positions)
        self.chance.shuffle(deeds)
        for p in self.players:
            dealt = 0
            while dealt < count and deeds:
                for k, pos in enumerate(deeds):
                    if self.tiles[pos].cost <= p.cash:
                        deeds.pop(k)
                        break
                else:
                    break  # nothing left that this player can pay for
                cost = self.tiles[pos].cost
                p.cash -= cost
                self.bank += cost
                self._set_owner(pos, p.index)
                dealt += 1
                self.events.append(
                    Event(
                        "deed_dealt",
                        p.index,
                        {"position": pos, "payer": p.index, "payee": BANK, "amount": cost},
                    )
                )

    def _after_turn(self, p: PlayerState) -> None:
        rules = self.rules
        self.events.append(Event("turn_ended", p.index, {}))
        if self.time_up:
            raise _GameOver("time_up")
        if rules.turn_limit is not None and self.turn_number >= rules.turn_limit:
            raise _GameOver("turn_limit")
        n = len(self.players)
        nxt = self.current
        for _ in range(n):
            nxt = (nxt + 1) % n
            if not self.players[nxt].bankrupt:
                break
        # A round ends when play comes back to the player drawn to start (or would pass their
        # seat, when they are out): everyone still in has then had the same number of turns.
        first = self.first_player
        if (nxt - first) % n <= (self.current - first) % n:
            self.round += 1
            if rules.round_limit is not None and self.round > rules.round_limit:
                self.round -= 1
                raise _GameOver("round_limit")
        self.current = nxt

    def _turn(self, p: PlayerState) -> Flow:
        rules = self.rules
        self.turn_number += 1
        if self._timer_on:
            self.turn_started_at = self.clock()
        self.events.append(Event("turn_started", p.index, {"turn": self.turn_number}))
        if p.jail_skip > 0:
            p.jail_skip -= 1
            self.events.append(Event("jail_turn_skipped", p.index, {}))
            if p.jail_skip == 0:
                p.in_jail = False
                self.events.append(Event("left_jail", p.index, {"how": "served"}))
            return
        if p.in_jail and p.jail_cards and rules.jail_card_auto:
            self._use_jail_card(p)
        doubles = 0
        while True:
            self._rolled_doubles = False
            self._extra_roll = False
            action = yield self._turn_decisions[p.index]
            if type(action) is not A.Roll:
                yield from self._before_roll(p, action)
            dice = self.chance.dice(rules.dice_count, rules.dice_sides)
            if len(dice) == 2:
                total = dice[0] + dice[1]
                is_double = dice[0] == dice[1]
            else:
                total = sum(dice)
                is_double = len(dice) >= 2 and min(dice) == max(dice)
            p.last_roll = total
            self.events.append(
                Event("rolled", p.index, {"dice": list(dice), "total": total, "double": is_double})
            )
            if p.in_jail:
                yield from self._jail_roll(p, total, is_double)
            else:
                if is_double and rules.doubles_roll_again:
                    doubles += 1
                    if rules.max_doubles is not None and doubles >= rules.max_doubles:
                        self._send_to_jail(p, "doubles")
                        break
                    self._rolled_doubles = True
                self._move(p, total, collect=True)
                if not self._inert[p.position]:
                    yield from self._land(p)
            if p.in_jail or p.bankrupt or not (self._rolled_doubles or self._extra_roll):
                break
            self.events.append(
                Event(
                    "roll_again", p.index, {"reason": "double" if self._rolled_doubles else "card"}
                )
            )
        if not rules.auto_end_turn:
            while True:
                action = yield self._post_roll_decisions[p.index]
                if type(action) is A.EndTurn:
                    return
                yield from self._manage(p, action)

    def _before_roll(self, p: PlayerState, action: Action) -> Flow:
        """Handle what comes before the roll (jail options, management) until the roll."""
        while True:
            kind = type(action)
            if kind is A.Roll or kind is A.TimerRoll:
                if kind is A.TimerRoll:
                    self.events.append(Event("timer_ran_out", p.index, {}))
                return
            if kind is A.PayFine:
                yield from self._pay(p, self._fee_payee(), self.rules.jail_fine or 0, "fine")
                self._release(p, "fine")
            elif kind is A.UseJailCard:
                self._use_jail_card(p)
            else:
                yield from self._manage(p, action)
            action = yield self._turn_decisions[p.index]

    def _release(self, p: PlayerState, how: str) -> None:
        p.in_jail = False
        p.jail_tries = 0
        self.events.append(Event("left_jail", p.index, {"how": how}))

    def _use_jail_card(self, p: PlayerState) -> None:
        card = p.jail_cards.pop(0)
        self.events.append(Event("jail_card_used", p.index, {"card": card.id}))
        self._return_card(card)
        self._release(p, "card")

    def _return_card(self, card: Card) -> None:
        deck = self.decks.get(card.deck)
        if deck is not None and self.board.decks[card.deck].draw == "cycle":
            deck.append(card)

    def _jail_roll(self, p: PlayerState, total: int, is_double: bool) -> Flow:
        rules = self.rules
        if is_double:
            self._release(p, "doubles")
            self._move(p, total, collect=True)
            yield from self._land(p)
            return
        p.jail_tries += 1
        if rules.max_jail_turns is None or p.jail_tries < rules.max_jail_turns:
            self.events.append(Event("stayed_in_jail", p.index, {"tries": p.jail_tries}))
            return
        if rules.jail_fine is not None:
            use_card = False
            if p.jail_cards:
                choice = yield Decision(JAIL_FINE, p.index, fine=rules.jail_fine)
                use_card = type(choice) is A.UseJailCard
            if use_card:
                self._use_jail_card(p)
            else:
                yield from self._pay(p, self._fee_payee(), rules.jail_fine, "fine")
                if p.bankrupt:
                    return
                self._release(p, "fine")
        else:
            self._release(p, "released")
        self._move(p, total, collect=True)
        yield from self._land(p)

    def _send_to_jail(self, p: PlayerState, reason: str) -> None:
        if self.jail is None:
            return
        if p.in_park:
            p.in_park = False
            self.events.append(Event("left_park", p.index, {}))
        p.position = self.jail
        p.in_jail = True
        p.jail_tries = 0
        p.jail_skip = self.rules.jail_skip_turns
        self._rolled_doubles = False
        self._extra_roll = False
        self.events.append(Event("went_to_jail", p.index, {"reason": reason}))

    def _move(self, p: PlayerState, steps: int, *, collect: bool, via: str = "dice") -> None:
        old = p.position
        target = old + steps
        new = target % self.size
        p.position = new
        if p.in_park and steps:
            p.in_park = False
            self.events.append(Event("left_park", p.index, {}))
        self.events.append(
            Event("moved", p.index, {"start": old, "end": new, "steps": steps, "via": via})
        )
        if collect and steps > 0 and target >= self.size:
            salary = self.salary
            landed = new == 0
            if landed:
                salary *= self.rules.land_on_start_multiplier
            p.cash += salary
            self.bank -= salary
            self.events.append(
                Event(
                    "salary",
                    p.index,
                    {"payer": BANK, "payee": p.index, "amount": salary, "landed": landed},
                )
            )

    def _land(
        self, p: PlayerState, rent_multiplier: int = 1, dice_multiplier: int | None = None
    ) -> Flow:
        tile = self.tiles[p.position]
        kind = tile.kind
        if kind is STREET or kind is RAILWAY or kind is UTILITY:
            yield from self._land_property(p, p.position, rent_multiplier, dice_multiplier)
        elif kind is TileKind.TAX:
            yield from self._land_tax(p, p.position)
        elif kind is TileKind.CHANCE or kind is TileKind.CHEST:
            yield from self._draw_card(p, kind.value)
        elif kind is TileKind.GO_TO_JAIL:
            self._send_to_jail(p, "tile")
        elif kind is TileKind.FREE_PARKING:
            if self.rules.parking == "car_park":
                p.in_park = True
                self.events.append(Event("entered_park", p.index, {}))
            elif self.rules.free_parking_pot and self.pot > 0:
                amount = self.pot
                self.pot = 0
                p.cash += amount
                self.events.append(
                    Event(
                        "pot_collected", p.index, {"payer": POT, "payee": p.index, "amount": amount}
                    )
                )

    def _land_property(
        self, p: PlayerState, pos: int, rent_multiplier: int, dice_multiplier: int | None
    ) -> Flow:
        owner = self.owner[pos]
        i = p.index
        if owner < 0:
            tile = self.tiles[pos]
            if p.cash < tile.cost and not self.rules.mortgages:
                self.events.append(
                    Event("declined", i, {"position": pos, "reason": "cannot_afford"})
                )
                return
            while True:
                action = yield Decision(BUY, i, position=pos, price=tile.cost)
                kind = type(action)
                if kind is A.Buy:
                    p.cash -= tile.cost
                    self.bank += tile.cost
                    self._set_owner(pos, i)
                    self.events.append(
                        Event(
                            "bought",
                            i,
                            {"position": pos, "payer": i, "payee": BANK, "amount": tile.cost},
                        )
                    )
                    if p.cash == 0 and self.rules.end_when_money_reaches_zero:
                        raise _GameOver("money_reached_zero")
                    return
                if kind is A.Decline:
                    self.events.append(Event("declined", i, {"position": pos}))
                    if self.rules.auction_on_decline:
                        yield from self._auction(pos, i)
                    return
                yield from self._manage(p, action)
        if owner == i:
            if (
                self.rules.offer_house_on_own_land
                and self.tiles[pos].kind is STREET
                and self.rules.buildings == "unlimited"
            ):
                price = self.house_price(pos)
                action = yield Decision(HOUSE_OFFER, i, position=pos, price=price)
                if type(action) is A.Build:
                    p.cash -= price
                    self.bank += price
                    self._set_level(pos, self.level[pos] + 1)
                    self.events.append(
                        Event(
                            "built",
                            i,
                            {
                                "position": pos,
                                "level": self.level[pos],
                                "payer": i,
                                "payee": BANK,
                                "amount": price,
                            },
                        )
                    )
                else:
                    self.events.append(Event("house_declined", i, {"position": pos}))
            return
        landlord = self.players[owner]
        if self.mortgaged[pos]:
            self.events.append(
                Event("no_rent", i, {"position": pos, "owner": owner, "reason": "mortgaged"})
            )
            return
        if landlord.in_park:
            self.events.append(
                Event("no_rent", i, {"position": pos, "owner": owner, "reason": "park"})
            )
            return
        if dice_multiplier is not None and self.tiles[pos].kind is UTILITY:
            dice = self.chance.dice(self.rules.dice_count, self.rules.dice_sides)
            total = sum(dice)
            self.events.append(
                Event(
                    "rolled",
                    i,
                    {"dice": list(dice), "total": total, "double": False, "purpose": "utility"},
                )
            )
            amount = total * dice_multiplier
        else:
            amount = self.rent(pos, p, rent_multiplier)
        if 0 < amount <= p.cash and not self.rules.end_when_money_reaches_zero:
            p.cash -= amount  # the common case, without the generator of _pay
            landlord.cash += amount
            self.events.append(
                Event("rent", i, {"payer": i, "payee": owner, "amount": amount, "position": pos})
            )
        else:
            yield from self._pay(p, owner, amount, "rent", position=pos)

    def _land_tax(self, p: PlayerState, pos: int) -> Flow:
        tile = self.tiles[pos]
        choice = "flat"
        if self.rules.income_tax_choice and tile.percent is not None:
            action = yield Decision(
                TAX, p.index, position=pos, amount=tile.amount, percent=tile.percent
            )
            if isinstance(action, A.ChooseTax):
                choice = action.choice
        if choice == "percent":
            worth = self.net_worth(p)
            amount = worth * (tile.percent or 0) // 100
            yield from self._pay(
                p, self._fee_payee(), amount, "tax", position=pos, choice=choice, net_worth=worth
            )
        else:
            yield from self._pay(
                p, self._fee_payee(), tile.amount, "tax", position=pos, choice=choice
            )

    # ------------------------------------------------------------------ cards

    def _draw_card(self, p: PlayerState, deck_kind: str) -> Flow:
        deck = self.decks.get(deck_kind)
        if not deck:
            return
        if self._card_chain >= MAX_CARD_CHAIN:
            self.events.append(Event("card_chain_stopped", p.index, {"cards": self._card_chain}))
            return
        spec = self.board.decks[deck_kind]
        if spec.draw == "random":
            forced = self.chance.forced_draws.get(deck_kind)
            if forced:
                wanted = forced.popleft()
                card = next(c for c in spec.cards if c.id == wanted)
            else:
                card = spec.cards[self.chance.below(len(spec.cards))]
        else:
            self.chance.used = True
            card = deck.popleft()
            if card.kind is not CardKind.JAIL:
                deck.append(card)
        self.events.append(Event("card_drawn", p.index, {"deck": deck_kind, "card": card.id}))
        self._card_chain += 1
        try:
            yield from self._card_effect(p, card)
        finally:
            self._card_chain -= 1

    def _card_effect(self, p: PlayerState, card: Card) -> Flow:
        kind = card.kind
        i = p.index
        if kind is CardKind.JAIL:
            p.jail_cards.append(card)
            self.events.append(Event("jail_card_kept", i, {"card": card.id}))
        elif kind is CardKind.MOVE:
            if card.position == self.jail and self.rules.card_move_to_jail_tile_jails:
                self._send_to_jail(p, "card")
                return
            steps = (card.position - p.position) % self.size
            self._move(p, steps, collect=card.collect, via="card")
            yield from self._land(p)
        elif kind is CardKind.MOVEREL:
            self._move(p, card.relative, collect=card.relative > 0, via="card")
            yield from self._land(p)
        elif kind is CardKind.MONEY:
            if card.amount >= 0:
                p.cash += card.amount
                self.bank -= card.amount
                self.events.append(
                    Event(
                        "card_money",
                        i,
                        {"payer": BANK, "payee": i, "amount": card.amount, "card": card.id},
                    )
                )
            else:
                yield from self._pay(p, self._fee_payee(), -card.amount, "card_money", card=card.id)
        elif kind is CardKind.PLAYERS_MONEY:
            others = [q for q in self.players if q.index != i and not q.bankrupt]
            n = len(self.players)
            others.sort(key=lambda q: (q.index - i) % n)
            for other in others:
                if card.amount >= 0:
                    if not other.bankrupt:
                        yield from self._pay(other, i, card.amount, "players_money", card=card.id)
                else:
                    if p.bankrupt:
                        break
                    yield from self._pay(
                        p, other.index, -card.amount, "players_money", card=card.id
                    )
        elif kind is CardKind.GO_TO_JAIL:
            self._send_to_jail(p, "card")
        elif kind is CardKind.NEAREST:
            target = self._nearest(p.position, card.target)
            if target is None:
                return
            steps = (target - p.position) % self.size or self.size
            self._move(p, steps, collect=card.collect, via="card")
            yield from self._land(p, card.rent_multiplier, card.dice_multiplier)
        elif kind is CardKind.REPAIRS:
            houses = hotels = 0
            for pos in self.owned[i]:
                if self.level[pos]:
                    if self.level[pos] == self.hotel_level and self.rules.buildings == "classic":
                        hotels += 1
                    else:
                        houses += self.level[pos]
            amount = houses * card.house + hotels * card.hotel
            if amount:
                yield from self._pay(
                    p,
                    self._fee_payee(),
                    amount,
                    "repairs",
                    card=card.id,
                    houses=houses,
                    hotels=hotels,
                )
        elif kind is CardKind.ROLL_AGAIN:
            self._extra_roll = True

    def _nearest(self, start: int, kind: TileKind | None) -> int | None:
        for step in range(1, self.size + 1):
            pos = (start + step) % self.size
            if self.tiles[pos].kind is kind:
                return pos
        return None

    # ------------------------------------------------------------------ auctions

    def _auction(
        self,
        pos: int | None,
        after: int,
        *,
        min_bid: int = 1,
        bidders: list[int] | None = None,
        item: str = "property",
    ) -> Flow:
        """Auction `pos` (or a house); returns the winner's index or None."""
        n = len(self.players)
        if bidders is None:
            order = [(after + k) % n for k in range(1, n + 1)]
            bidders = [b for b in order if not self.players[b].bankrupt]
        self.events.append(
            Event(
                "auction_started",
                None,
                {"position": pos, "item": item, "bidders": list(bidders), "min_bid": min_bid},
            )
        )
        live = list(bidders)
        high = 0
        leader: int | None = None
        k = 0
        while live:
            if leader is not None and live == [leader]:
                break
            k %= len(live)
            b = live[k]
            if b == leader:
                k += 1
                continue
            need = max(min_bid, high + 1)
            bidder = self.players[b]
            if bidder.cash < need:
                live.pop(k)
                self.events.append(Event("auction_pass", b, {"auto": True}))
                continue
            action = yield Decision(
                AUCTION,
                b,
                position=pos,
                item=item,
                high_bid=high,
                leader=leader,
                min_bid=need,
                bidders=list(live),
            )
            if isinstance(action, A.Bid):
                high = action.amount
                leader = b
                self.events.append(Event("bid", b, {"amount": high}))
                k += 1
            else:
                live.pop(k)
                self.events.append(Event("auction_pass", b, {"auto": False}))
        if leader is None:
            self.events.append(Event("auction_unsold", None, {"position": pos, "item": item}))
            return None
        winner = self.players[leader]
        winner.cash -= high
        self.bank += high
        self.events.append(
            Event(
                "auction_won",
                leader,
                {"position": pos, "item": item, "payer": leader, "payee": BANK, "amount": high},
            )
        )
        if pos is not None:
            self._set_owner(pos, leader)
        return leader

    # ------------------------------------------------------------------ managing property

    def _manage(self, p: PlayerState, action: Action) -> Flow:
        kind = type(action)
        i = p.index
        if kind is A.Build and isinstance(action, A.Build):
            self.turn_started_at = self.clock()  # a building purchase resets the turn timer
            pos = action.position
            if self.level[pos] < self.hbh and self._housing_shortage():
                yield from self._house_auction(p, pos)
            else:
                self._build(p, pos, self.house_price(pos))
        elif kind is A.Sell and isinstance(action, A.Sell):
            self._sell_level(p, action.position)
        elif kind is A.SellDown and isinstance(action, A.SellDown):
            for pos in self.area_lots[action.area]:
                while self.level[pos] > action.level:
                    self._sell_level(p, pos, down_to=action.level)
        elif kind is A.Mortgage and isinstance(action, A.Mortgage):
            value = self.tiles[action.position].mortgage
            self._set_mortgaged(action.position, True)
            p.cash += value
            self.bank -= value
            self.events.append(
                Event(
                    "mortgaged",
                    i,
                    {"position": action.position, "payer": BANK, "payee": i, "amount": value},
                )
            )
        elif kind is A.Unmortgage and isinstance(action, A.Unmortgage):
            value = self.tiles[action.position].mortgage
            cost = value + interest(value)
            self._set_mortgaged(action.position, False)
            p.cash -= cost
            self.bank += cost
            self.events.append(
                Event(
                    "unmortgaged",
                    i,
                    {"position": action.position, "payer": i, "payee": BANK, "amount": cost},
                )
            )
        elif kind is A.ProposeTrade and isinstance(action, A.ProposeTrade):
            yield from self._trade(p, action)
        else:  # pragma: no cover - check_legal lets nothing else through
            raise AssertionError(f"unexpected action {action}")

    def _build(self, p: PlayerState, pos: int, price: int) -> None:
        lv = self.level[pos] + 1
        self._set_level(pos, lv)
        if lv == self.hotel_level:
            if self.hotels_left is not None:
                self.hotels_left -= 1
            if self.houses_left is not None:
                self.houses_left += self.hbh
        elif self.houses_left is not None:
            self.houses_left -= 1
        p.cash -= price
        self.bank += price
        self.events.append(
            Event(
                "built",
                p.index,
                {
                    "position": pos,
                    "level": lv,
                    "hotel": lv == self.hotel_level,
                    "payer": p.index,
                    "payee": BANK,
                    "amount": price,
                },
            )
        )

    def _sell_level(self, p: PlayerState, pos: int, down_to: int | None = None) -> None:
        """Sell one level; a hotel sold with `down_to` drops straight to that level."""
        lv = self.level[pos]
        price = self.house_price(pos) // 2
        if lv == self.hotel_level:
            new = self.hbh if down_to is None else down_to
            if self.hotels_left is not None:
                self.hotels_left += 1
            if self.houses_left is not None:
                self.houses_left -= new
        else:
            new = lv - 1
            if self.houses_left is not None:
                self.houses_left += 1
        refund = price * (lv - new)
        self._set_level(pos, new)
        p.cash += refund
        self.bank -= refund
        self.events.append(
            Event(
                "sold_building",
                p.index,
                {"position": pos, "level": new, "payer": BANK, "payee": p.index, "amount": refund},
            )
        )

    def eligible_builders(self) -> list[int]:
        """Players who could buy a house (not a hotel) right now."""
        out = []
        for q in self.active_players():
            for pos in self.owned[q.index]:
                if self.level[pos] < self.hbh and self.can_build(q, pos):
                    out.append(q.index)
                    break
        return out

    def _housing_shortage(self) -> bool:
        if self.houses_left is None:
            return False
        eligible = self.eligible_builders()
        return len(eligible) >= 2 and self.houses_left < len(eligible)

    def _house_auction(self, p: PlayerState, pos: int) -> Flow:
        eligible = self.eligible_builders()
        n = len(self.players)
        order = sorted(eligible, key=lambda b: (b - p.index) % n)
        self.events.append(
            Event(
                "housing_shortage",
                p.index,
                {"houses_left": self.houses_left, "wanted": len(eligible)},
            )
        )
        winner = yield from self._auction(
            None, p.index - 1, min_bid=self.house_price(pos), bidders=order, item="house"
        )
        if winner is None:
            return
        w = self.players[winner]
        spots = [
            q
            for q in self.owned[winner]
            if self.level[q] < self.hbh and self.can_build(w, q, ignore_cash=True)
        ]
        if not spots:
            return
        if winner == p.index and pos in spots:
            chosen = pos
        elif len(spots) == 1:
            chosen = spots[0]
        else:
            action = yield Decision(PLACE_HOUSE, winner, positions=spots)
            chosen = action.position if isinstance(action, A.PlaceHouse) else spots[0]
        self._build(w, chosen, 0)

    # ------------------------------------------------------------------ trades

    def _trade(self, p: PlayerState, offer: A.ProposeTrade) -> Flow:
        self.turn_started_at = self.clock()  # an offered trade resets the turn timer
        self.events.append(
            Event(
                "trade_offered",
                p.index,
                {
                    "partner": offer.partner,
                    "give": offer.give.to_dict(),
                    "get": offer.get.to_dict(),
                },
            )
        )
        answer = yield Decision(TRADE, offer.partner, offer=offer, proposer=p.index)
        if type(answer) is not A.AcceptTrade:
            self.events.append(Event("trade_rejected", offer.partner, {"proposer": p.index}))
            return
        self.events.append(Event("trade_accepted", offer.partner, {"proposer": p.index}))
        partner = self.players[offer.partner]
        received: list[tuple[PlayerState, int]] = []
        for side, giver, taker in ((offer.give, p, partner), (offer.get, partner, p)):
            if side.cash:
                giver.cash -= side.cash
                taker.cash += side.cash
                self.events.append(
                    Event(
                        "trade_cash",
                        giver.index,
                        {"payer": giver.index, "payee": taker.index, "amount": side.cash},
                    )
                )
            for card_id in side.cards:
                card = next(c for c in giver.jail_cards if c.id == card_id)
                giver.jail_cards.remove(card)
                taker.jail_cards.append(card)
                self.events.append(
                    Event("card_given", giver.index, {"to": taker.index, "card": card_id})
                )
            for pos in side.properties:
                self._set_owner(pos, taker.index)
                self.events.append(
                    Event("property_given", giver.index, {"to": taker.index, "position": pos})
                )
                if self.mortgaged[pos]:
                    received.append((taker, pos))
        for taker, pos in received:
            yield from self._receive_mortgaged(taker, pos)

    def _receive_mortgaged(self, taker: PlayerState, pos: int) -> Flow:
        if taker.bankrupt:
            return
        value = self.tiles[pos].mortgage
        action = yield Decision(
            MORTGAGED, taker.index, position=pos, value=value, interest=interest(value)
        )
        if type(action) is A.LiftMortgage:
            cost = value + interest(value)
            self._set_mortgaged(pos, False)
            taker.cash -= cost
            self.bank += cost
            self.events.append(
                Event(
                    "unmortgaged",
                    taker.index,
                    {"position": pos, "payer": taker.index, "payee": BANK, "amount": cost},
                )
            )
        else:
            yield from self._pay(taker, BANK, interest(value), "mortgage_interest", position=pos)

    # ------------------------------------------------------------------ bankruptcy & end

    def _bankrupt(self, p: PlayerState, creditor: Party | None) -> Flow:
        """`p` is out. Classic: everything to the creditor; else properties go back unowned."""
        i = p.index
        for pos in self.owned[i]:
            if self.level[pos]:
                if self.rules.buildings == "classic":
                    while self.level[pos]:
                        self._sell_level(p, pos, down_to=0)
                else:
                    self._set_level(pos, 0)
        p.bankrupt = True
        self.out_count += 1
        p.out_order = self.out_count
        self.events.append(Event("bankrupt", i, {"creditor": creditor}))
        if p.cash:
            to: Party = creditor if creditor is not None else BANK
            amount = p.cash
            self._transfer(i, to, amount)
            self.events.append(Event("assets_cash", i, {"payer": i, "payee": to, "amount": amount}))
        owned = list(self.owned[i])
        cards, p.jail_cards = p.jail_cards, []
        if isinstance(creditor, int):
            taker = self.players[creditor]
            for card in cards:
                taker.jail_cards.append(card)
                self.events.append(Event("card_given", i, {"to": creditor, "card": card.id}))
            for pos in owned:
                self._set_owner(pos, creditor)
                self.events.append(Event("property_given", i, {"to": creditor, "position": pos}))
        else:
            for card in cards:
                self._return_card(card)
            for pos in owned:
                self._set_owner(pos, -1)
                self._set_mortgaged(pos, False)
                self.events.append(Event("property_returned", i, {"position": pos}))
        self._check_end()
        if isinstance(creditor, int):
            for pos in owned:
                if self.mortgaged[pos]:
                    yield from self._receive_mortgaged(self.players[creditor], pos)
        elif self.rules.debt_mode == "raise_then_bankrupt":
            for pos in owned:
                if self.owner[pos] < 0:
                    yield from self._auction(pos, i)
        if i == self.current:
            raise _PlayerOut()

    def _check_end(self) -> None:
        active = len(self.active_players())
        if active <= 1:
            raise _GameOver("last_player_standing")
        if self.rules.mode == "short":
            needed = 1 if len(self.players) == 2 else 2
            if self.out_count >= needed:
                raise _GameOver("short_game_bankruptcies")

    def _finish(self, reason: str) -> None:
        self.over = True
        self.over_reason = reason
        active = self.active_players()
        scores = {p.index: self.score(p) for p in active}
        ranked = sorted(active, key=lambda p: (-scores[p.index], p.index))
        out = sorted((p for p in self.players if p.bankrupt), key=lambda p: -p.out_order)
        self.ranking = [p.index for p in ranked] + [p.index for p in out]
        top = scores[ranked[0].index] if ranked else 0
        self.winners = [p.index for p in ranked if scores[p.index] == top]
        self.scores = [self.score(p) if not p.bankrupt else 0 for p in self.players]
        self.events.append(
            Event(
                "game_over",
                None,
                {
                    "reason": reason,
                    "winners": list(self.winners),
                    "ranking": list(self.ranking),
                    "scores": list(self.scores),
                    "rank_by": self.rules.rank_by,
                },
            )
        )

    # ------------------------------------------------------------------ system actions

    def apply_time_up(self) -> list[Event]:
        """Record that the timed game's clock ran out: it ends after the current turn."""
        start = len(self.events)
        self.time_up = True
        self.events.append(Event("time_up", None, {}))
        return self.events[start:]

    def describe_state(self) -> dict[str, Any]:
        """Plain, JSON-ready dynamic state (what a save file's digest covers)."""
        return {
            "turn": self.turn_number,
            "round": self.round,
            "current": self.current,
            "players": [p.to_dict() for p in self.players],
            "owner": list(self.owner),
            "level": list(self.level),
            "mortgaged": [pos for pos in range(self.size) if self.mortgaged[pos]],
            "pot": self.pot,
            "bank": self.bank,
            "houses_left": self.houses_left,
            "hotels_left": self.hotels_left,
            "decks": {k: [c.id for c in v] for k, v in self.decks.items()},
            "decision": self.decision.to_dict(),
            "time_up": self.time_up,
            "over": self.over,
            "winners": list(self.winners),
            "ranking": list(self.ranking),
        }


__all__ = ["Engine", "interest"]
