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
from collections.abc import Callable
from typing import Any, Final

from . import actions as A
from . import endgame, legal, turns
from .actions import Action
from .boards.board import Board, Card, TileKind
from .errors import IllegalActionError, InvalidActionError
from .records import checkpoints
from .records.events import BANK, POT, Event, EventLog, Party, shape
from .rules import RulesProfile
from .state import (
    AUCTION,
    DEBT,
    GAME_OVER,
    POST_ROLL,
    TURN,
    ChanceSource,
    Decision,
    Flow,
    GameEnds,
    PlayerOut,
    PlayerState,
    RulesView,
    interest,
)

STREET: Final = TileKind.STREET
RAILWAY: Final = TileKind.RAILWAY
UTILITY: Final = TileKind.UTILITY
PROPERTY_KINDS: Final = (STREET, RAILWAY, UTILITY)
GAME_STARTED: Final = shape("game_started", "profile", "mode", "players", "seed")
FIRST_PLAYER: Final = shape("first_player")
TIME_UP: Final = shape("time_up")


class BoardTables:
    """What the engine derives from a board alone, made once per board (a game's set-up
    cost about a third less): shared by the board's games, read only."""

    def __init__(self, board: Board) -> None:
        self.jail = board.jail_position
        self.railways = board.positions_of(RAILWAY)
        self.utilities = board.positions_of(UTILITY)
        # An area no street uses has no lots to build on or sell: the engine leaves it out.
        self.area_lots = {aid: a.positions for aid, a in board.areas.items() if a.positions}
        # tiles whose landing does nothing at all: no need to start the landing flow
        inert = (TileKind.START, TileKind.JAIL)
        self.inert = [t.kind in inert for t in board.tiles]
        area_ids = list(self.area_lots)
        self.area_ids = area_ids
        self.area_lot_list = [board.areas[a].positions for a in area_ids]
        self.lift_cost = [t.mortgage + interest(t.mortgage) for t in board.tiles]
        index_of = {aid: k for k, aid in enumerate(area_ids)}  # linear in areas x tiles
        self.area_index = [
            index_of.get(t.area, -1) if t.area is not None else -1 for t in board.tiles
        ]
        self.area_sizes = [len(board.areas[a].positions) for a in area_ids]
        # read off interpreted Tile / Board objects, these cost a generic attribute look-up:
        # the engine reads the tiles through these lists (compiled: list indexing)
        self.costs = [t.cost for t in board.tiles]
        self.kinds = [t.kind for t in board.tiles]
        self.tile_areas = [t.area for t in board.tiles]
        self.rents = [t.rents for t in board.tiles]
        self.mortgage_values = [t.mortgage for t in board.tiles]
        self.board_salary: int = board.salary
        # house prices by (house_price_rule, buildings): they depend on those two rules only
        self.house_prices: dict[tuple[str, str], list[int]] = {}


# By id of the board, with the board itself (kept alive here, so the id stays its own).
_BOARD_TABLES: Final[dict[int, tuple[Board, BoardTables]]] = {}


def board_tables(board: Board) -> BoardTables:
    entry = _BOARD_TABLES.get(id(board))
    if entry is not None and entry[0] is board:
        return entry[1]
    tables = BoardTables(board)
    if len(_BOARD_TABLES) >= 32:
        _BOARD_TABLES.clear()
    _BOARD_TABLES[id(board)] = (board, tables)
    return tables


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
        self.rx = RulesView(rules)
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
        tables = board_tables(board)
        self.jail = tables.jail
        self.railways = tables.railways
        self.utilities = tables.utilities
        self.area_lots = tables.area_lots
        self.costs = tables.costs  # tile prices (0 where there is none)
        self.kinds = tables.kinds  # the tiles' fields, by position (see BoardTables)
        self.tile_areas = tables.tile_areas
        self.rents = tables.rents
        self.mortgage_values = tables.mortgage_values
        self.board_salary = tables.board_salary  # the board's own, whatever the rules say
        self._manages = rules.mortgages or rules.buildings == "classic"
        self.trading = rules.trading
        # legal.grouped(): by id of the legal tuple (kept alive by the entry), one per seat
        self._grouped_memo: dict[int, tuple[tuple[Action, ...], dict[type[Action], list[Action]]]]
        self._grouped_memo = {}
        self._timer_on = rules.turn_timer_seconds is not None
        # Versions for the management-actions cache: a player's own holdings (ownership,
        # buildings, mortgages) and the bank's building stock, which every builder shares.
        self._holdings_version = [0] * len(self.players)
        self._owned_version = [0] * len(self.players)  # ownership alone (not buildings)
        self._stock_version = 0
        self._manage_cache: dict[int, tuple[int, int, int, int, tuple[Action, ...]]] = {}
        # legal.affordable_build() by player: versions, keep, cash range, answer
        self._afford_cache: dict[int, tuple[int, int, int, int, int, Action | None]] = {}
        self._legal_memo: dict[int, tuple[tuple[Action, ...], tuple[Action, ...]]] = {}
        # legal.lots_one_short() by player: ownership version, answer
        self._short_cache: dict[int, tuple[int, list[int]]] = {}
        # Decisions without context are shared: a new object per turn is measurable.
        self._turn_decisions = [Decision(TURN, i) for i in range(len(self.players))]
        self.acts = [legal.player_actions(i, self.size) for i in range(len(self.players))]
        self._roll_only = [a.roll_only for a in self.acts]
        self._inert = tables.inert
        self._post_roll_decisions = [Decision(POST_ROLL, i) for i in range(len(self.players))]
        # Per-area bookkeeping, kept in step by _set_owner/_set_level: the hot path of
        # legal_actions() asks "owns the whole group?" and "any buildings in it?" constantly.
        # (The tables below are the board's, shared by its games: never changed in place.)
        area_ids = tables.area_ids
        self.area_ids = area_ids
        self.area_lot_list = tables.area_lot_list
        self.lift_cost = tables.lift_cost
        self.area_index = tables.area_index
        self.area_sizes = tables.area_sizes
        self.group_count = [[0] * len(area_ids) for _ in self.players]
        # By player, the areas whose every lot they own (group_count == area size), ascending:
        # the build and sell questions walk these alone, not every area of the board.
        self.complete: list[list[int]] = [[] for _ in self.players]
        self.group_levels = [0] * len(area_ids)
        prices_key = (self.rx.house_price_rule, self.rx.buildings)
        prices = tables.house_prices.get(prices_key)
        if prices is None:
            prices = tables.house_prices[prices_key] = [
                self._house_price(pos) for pos in range(self.size)
            ]
        self.house_prices = prices
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
        self.events = EventLog()
        self.replaying = False
        self.turn_started_at = clock()
        self.started_at = clock()
        self._rolled_doubles = False
        self._extra_roll = False
        self._card_chain = 0
        self._legal: tuple[Action, ...] | None = None
        self._legal_set: frozenset[Action] | None = None
        # Undo: actions applied so far, and checkpoints at every `checkpoint_every`-th turn
        # boundary (plain data; see checkpoints.py). 0 switches them off. A checkpoint costs about
        # one Ugentopoly turn (6-8 us compiled): every 32nd keeps bot games within 3 %, and an
        # undo then replays at most 32 turns (a few ms).
        self.applied = 0
        self.checkpoint_every = 32
        self.checkpoints: list[checkpoints.Checkpoint] = []
        self._flow_gen = self._flow()
        self.decision: Decision = next(self._flow_gen)

    def restart_flow(self) -> None:
        """A fresh flow at the start of the current turn (after a checkpoint was restored)."""
        self._flow_gen = self._flow(resume=True)
        self.decision = next(self._flow_gen)

    def forget_caches(self) -> None:
        self._legal = None
        self._legal_set = None
        self._manage_cache.clear()
        self._afford_cache.clear()
        self._short_cache.clear()
        self._legal_memo.clear()
        self._grouped_memo.clear()

    # ------------------------------------------------------------------ applying actions

    def apply(self, action: Action) -> list[Event]:
        if not isinstance(action, Action):
            raise InvalidActionError(
                f"apply() takes an Action, not {type(action).__name__}; "
                "use Game.act('buy') or action_from_dict() for other forms"
            )
        self.check_legal(action)
        start = len(self.events)
        self.apply_checked(action)
        return self.events.since(start)

    def apply_checked(self, action: Action) -> None:
        """Apply an action that check_legal() has accepted. Its events are ``events[n:]`` for
        the ``n = len(events)`` before (made into objects only by who reads them).
        bots._play does the same inline: keep the two in step."""
        self.applied += 1
        self.decision = self._flow_gen.send(action)
        self._legal = None
        self._legal_set = None

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
            self._legal = legal.compute_legal(self)
        return self._legal

    def _manage_actions(
        self, p: PlayerState, *, build: bool, unmortgage: bool
    ) -> tuple[Action, ...]:
        return legal.manage_actions(self, p, build=build, unmortgage=unmortgage)

    def _compute_manage(
        self, p: PlayerState, build: bool, unmortgage: bool, bounds: list[int]
    ) -> list[Action]:
        return legal.compute_manage(self, p, build, unmortgage, bounds)

    # ------------------------------------------------------------------ queries

    def _set_mortgaged(self, pos: int, value: bool) -> None:
        if self.owner[pos] >= 0:
            self._holdings_version[self.owner[pos]] += 1
        self.mortgaged[pos] = value

    def _set_owner(self, pos: int, player: int) -> None:
        old = self.owner[pos]
        if old >= 0:
            self._holdings_version[old] += 1
            self._owned_version[old] += 1
        if player >= 0:
            self._holdings_version[player] += 1
            self._owned_version[player] += 1
        ai = self.area_index[pos]
        if old >= 0:
            self.owned[old].remove(pos)
            if ai >= 0:
                counts = self.group_count[old]
                if counts[ai] == self.area_sizes[ai]:
                    self.complete[old].remove(ai)
                counts[ai] -= 1
        self.owner[pos] = player
        if player >= 0:
            insort(self.owned[player], pos)
            if ai >= 0:
                counts = self.group_count[player]
                counts[ai] += 1
                if counts[ai] == self.area_sizes[ai]:
                    insort(self.complete[player], ai)

    def count_complete(self) -> None:
        """Recount `complete` from `group_count` (after a checkpoint or a save wrote it)."""
        sizes = self.area_sizes
        self.complete = [
            [ai for ai, n in enumerate(counts) if n == sizes[ai]] for counts in self.group_count
        ]

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
        if self.rx.house_price_rule == "fifth_of_cost":
            return tile.cost // 5
        area = self.board.areas.get(tile.area or "")
        if area is None or area.house_price is None:
            return tile.cost // 5 if self.rx.buildings == "unlimited" else 0
        return area.house_price

    def group(self, pos: int) -> tuple[int, ...]:
        area = self.tile_areas[pos]
        return self.area_lots[area] if area is not None else (pos,)

    def owns_group(self, player: int, pos: int) -> bool:
        ai = self.area_index[pos]
        if ai < 0:
            return self.owner[pos] == player
        return player >= 0 and self.group_count[player][ai] == self.area_sizes[ai]

    def group_has_buildings(self, pos: int) -> bool:
        ai = self.area_index[pos]
        if ai < 0 or self.rx.buildings == "unlimited":
            return self.level[pos] > 0
        return self.group_levels[ai] > 0

    def can_build(self, p: PlayerState, pos: int, *, ignore_cash: bool = False) -> bool:
        """May `p` put one more building (house or hotel) on `pos` now (classic rules)?"""
        area = self.tile_areas[pos]
        if self.kinds[pos] is not STREET or area is None or not self.owns_group(p.index, pos):
            return False
        lots = self.area_lots[area]
        owner, level, mortgaged = self.owner, self.level, self.mortgaged
        lv = level[pos]
        if lv >= self.hotel_level:
            return False
        for q in lots:
            if owner[q] != p.index or mortgaged[q] or level[q] < lv:
                return False
        price = self.house_prices[pos]
        if price <= 0 or (not ignore_cash and p.cash < price):
            return False
        if lv == self.hbh:
            return self.hotels_left is None or self.hotels_left > 0
        return self.houses_left is None or self.houses_left > 0

    def can_sell(self, pos: int) -> bool:
        lv = self.level[pos]
        if lv == 0 or self.rx.buildings != "classic":
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
        return self.level[pos] * self.house_prices[pos]

    def net_worth(self, p: PlayerState) -> int:
        """The official net worth (RULES.md §2, income tax): cash + every property at its
        printed price, mortgaged or not + buildings at cost."""
        total = p.cash
        for pos in self.owned[p.index]:
            total += self.costs[pos] + self.building_value(pos)
        return total

    def valuation(self, p: PlayerState) -> int:
        """The ranking count of short and timed games (RULES.md §2): like the net worth, but a
        mortgaged property counts at half its price (its mortgage is a debt to the bank)."""
        total = p.cash
        costs = self.costs
        for pos in self.owned[p.index]:
            total += costs[pos] // 2 if self.mortgaged[pos] else costs[pos]
            total += self.building_value(pos)
        return total

    def max_raisable(self, p: PlayerState) -> int:
        """Cash after selling every building and mortgaging every property."""
        total = p.cash
        for pos in self.owned[p.index]:
            if self.rx.buildings == "classic":
                total += self.level[pos] * (self.house_price(pos) // 2)
            if self.rx.mortgages and not self.mortgaged[pos]:
                total += self.mortgage_values[pos]
        return total

    def score(self, p: PlayerState) -> int:
        return p.cash if self.rx.rank_by == "money" else self.valuation(p)

    def rent(self, pos: int, payer: PlayerState, rent_multiplier: int = 1) -> int:
        owner = self.owner[pos]
        kind = self.kinds[pos]
        if kind is STREET:
            model = self.rx.street_rent
            rents = self.rents[pos]
            if model == "linear_houses":
                return self.costs[pos] * (2 + self.level[pos]) // 2
            lv = self.level[pos]
            if lv and model == "classic":
                if lv == self.hotel_level:
                    return rents[-1] if len(rents) > 5 else rents[min(lv, len(rents) - 1)]
                return rents[min(lv, len(rents) - 1)]
            base = rents[0]
            if self.tile_areas[pos] is not None and self.owns_group(owner, pos):
                if model == "course" or not self.group_has_buildings(pos):
                    base *= 2
            return base * rent_multiplier
        if kind is RAILWAY:
            n = sum(1 for q in self.railways if self.owner[q] == owner)
            rents = self.rents[pos]
            base = rents[n - 1] if len(rents) >= n else rents[0] << (n - 1)
            return base * rent_multiplier
        # UTILITY
        n = sum(1 for q in self.utilities if self.owner[q] == owner)
        low, high = self.rx.utility_multipliers
        return payer.last_roll * (low if n <= 1 else high)

    def trade_problem(self, offer: A.ProposeTrade) -> str | None:
        """Why this trade offer is not legal now, or None when it is."""
        d = self.decision
        if not self.rx.trading:
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
        limit = self.rx.turn_timer_seconds
        return (
            limit is not None
            and not self.replaying
            and (self.clock() - self.turn_started_at >= limit)
        )

    def _time_is_up(self) -> bool:
        minutes = self.rx.time_limit_minutes
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
        return POT if self.rx.free_parking_pot else BANK

    # ------------------------------------------------------------------ the flow

    def _flow(self, resume: bool = False) -> Flow:
        """The whole game in one generator (set-up, turns, game over): every action sent in
        passes through one layer less for each generator not nested here."""
        if resume or self._start_game():
            try:
                while True:
                    every = self.checkpoint_every
                    if every and self.turn_number % every == 0:
                        checkpoints.take(self)
                    p = self.players[self.current]
                    try:
                        yield from turns.turn(self, p)
                    except PlayerOut:
                        pass
                    turns.after_turn(self, p)
            except GameEnds as over:
                endgame.finish(self, over.reason)
        # Game over: a generator that does not refer to the engine takes over, and this one
        # (whose frame does) goes once the caller is done with it. No engine <-> generator
        # cycle is left, so a finished game is freed by reference counting, not the collector.
        decision = Decision(GAME_OVER, None, reason=self.over_reason)
        self._flow_gen = _game_over(decision)
        yield decision


    def _start_game(self) -> bool:
        """Decks, deeds and the first player; False when that already ended the game."""
        rules = self.rules
        self.events.add(
            GAME_STARTED,
            None,
            (rules.name, rules.mode, [p.name for p in self.players], self.chance.seed),
        )
        for kind, deck in self.board.decks.items():
            cards = list(deck.cards)
            if deck.draw == "cycle":
                self.chance.shuffle(cards)
            self.decks[kind] = deque(cards)
        try:
            if rules.mode in ("short", "timed"):
                turns.deal_deeds(self,
                    rules.short_game_deeds if rules.mode == "short" else rules.timed_game_deeds
                )
            self.current = self.first_player = self.chance.below(len(self.players))
            self.events.add(FIRST_PLAYER, self.current, ())
        except GameEnds as over:
            endgame.finish(self, over.reason)
            return False
        return True

    def _send_to_jail(self, p: PlayerState, reason: str) -> None:
        turns.send_to_jail(self, p, reason)

    # ------------------------------------------------------------------ system actions

    def apply_time_up(self) -> list[Event]:
        """Record that the timed game's clock ran out: it ends after the current turn."""
        start = len(self.events)
        self.applied += 1
        self.time_up = True
        self.events.add(TIME_UP, None, ())
        return self.events.since(start)

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


def _game_over(decision: Decision) -> Flow:
    """The flow of a finished game: the same GAME_OVER decision, whatever is sent."""
    while True:
        yield decision


__all__ = ["Engine", "interest"]
