"""The fixed action encoding: ``Discrete(n)`` indices <-> engine actions, and the legal mask.

Every index names its target: ``build:39`` is a house on the tile at position 39,
``trade_buy:39:x1.5`` offers its owner 1.5 times its printed price for it. The families present
depend on the rules (a family the rules can never allow is left out), so the size is fixed per
board, rules profile and number of players; ``ActionCodec.names`` lists them in order (see
docs/rl.md for the table).

The encoding is a subset of the engine's choices. Engine actions it cannot express (a bid of
another amount, a trade of several properties, a swap, a get-out-of-jail card) are never masked
in; they stay open to the engine's bots, and an agent answers any incoming offer with
``accept`` / ``reject`` (the observation describes the offer).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

import numpy as np

from ..engine import actions as A
from ..engine.actions import Action
from ..engine.boards.board import TileKind
from ..engine.legal import player_actions
from ..engine.state import AUCTION, DEBT, POST_ROLL, TURN
from .errors import EncodingError
from .tables import Tables

if TYPE_CHECKING:
    from ..engine.game import Game

# The one-off choices: always present (a few may never be legal under some rules).
SINGLES: Final = (
    "roll", "end_turn", "buy", "decline", "pay_fine", "use_card", "tax_flat", "tax_percent",
    "accept", "reject", "lift", "keep", "bankrupt", "pass",
)
"""The one-off choices, the first action indices in this order."""
# Bid levels: the minimum raise, fractions of the item's price (a property's printed price;
# a house auction's opening bid), and everything the bidder has. Legal when the amount lies
# between the minimum raise and the bidder's cash; two levels may name the same amount.
BID_LEVELS: Final = ("min", "x0.5", "x0.75", "x1", "x1.25", "x1.5", "x2", "all_in")
"""The bid levels of an auction's action indices (see the comment above)."""
_BID_PERCENT: Final = (0, 50, 75, 100, 125, 150, 200, 0)
# Trade cash bands: the cash side of a one-property trade, in percent of its printed price.
TRADE_BANDS: Final = (100, 150, 200)
"""The cash side of a one-property trade, in percent of its printed price."""

_OFFER_KINDS: Final = frozenset((TURN, POST_ROLL, DEBT))  # where trades may be offered
_SINGLE_TYPES: Final[dict[type[Action], int]] = {
    A.Roll: 0, A.EndTurn: 1, A.Buy: 2, A.Decline: 3, A.PayFine: 4, A.UseJailCard: 5,
    A.AcceptTrade: 8, A.RejectTrade: 9, A.LiftMortgage: 10, A.KeepMortgage: 11,
    A.DeclareBankruptcy: 12, A.Pass: 13,
}


def squash(value: float, scale: float) -> float:
    """Money into [0, 1): value / (value + scale). Monotone, never clipped, never out of bounds."""
    return value / (value + scale) if value > 0 else 0.0


class ActionCodec:
    """The action table of one board, rules profile and player count.

    ``mask(game, offers_left)`` is the legal mask (np.int8) of whoever decides now;
    ``decode(index, game)`` the engine action an index stands for now (None: none).
    """

    def __init__(self, game: Game) -> None:
        board, rules = game.board, game.rules
        self.players = n = len(game.players)
        self.size = board.size
        self.properties: tuple[int, ...] = tuple(t.position for t in board.tiles if t.is_property)
        self.streets: tuple[int, ...] = tuple(
            t.position for t in board.tiles if t.kind is TileKind.STREET)
        self.areas: tuple[str, ...] = tuple(a for a, area in board.areas.items() if area.positions)
        self.area_lots: tuple[tuple[int, ...], ...] = tuple(
            board.areas[a].positions for a in self.areas)
        self.hotel_level = game.hotel_level
        self.costs: tuple[int, ...] = tuple(t.cost for t in board.tiles)
        self.trading = rules.trading
        classic = rules.buildings == "classic"
        names: list[str] = list(SINGLES)
        self.bid0 = self.build0 = self.sell0 = self.place0 = self.mortgage0 = -1
        self.unmortgage0 = self.sell_down0 = self.trade_buy0 = self.trade_sell0 = -1

        def family(prefix: str, labels: Sequence[str]) -> int:
            start = len(names)
            names.extend(f"{prefix}:{label}" for label in labels)
            return start

        if rules.auction_on_decline or classic:
            self.bid0 = family("bid", BID_LEVELS)
        if rules.buildings != "none":
            self.build0 = family("build", [str(q) for q in self.streets])
        if classic:
            self.sell0 = family("sell", [str(q) for q in self.streets])
            self.place0 = family("place", [str(q) for q in self.streets])
            self.sell_down0 = family("sell_down", [
                f"{area}:{level}" for area in self.areas for level in range(self.hotel_level)])
        if rules.mortgages:
            self.mortgage0 = family("mortgage", [str(q) for q in self.properties])
            self.unmortgage0 = family("unmortgage", [str(q) for q in self.properties])
        if rules.trading:
            self.trade_buy0 = family("trade_buy", [
                f"{q}:x{band / 100:g}" for q in self.properties for band in TRADE_BANDS])
            self.trade_sell0 = family("trade_sell", [
                f"+{k}:{q}:x{band / 100:g}" for k in range(1, n) for q in self.properties
                for band in TRADE_BANDS])
        self.names: tuple[str, ...] = tuple(names)
        self.n = len(names)
        self._street_slot = {q: k for k, q in enumerate(self.streets)}
        self._property_slot = {q: k for k, q in enumerate(self.properties)}
        self._area_slot = {a: k for k, a in enumerate(self.areas)}
        # Trade tables: the cash of every (property, band), and each property's group lots.
        costs = np.array([self.costs[q] for q in self.properties], dtype=np.int64)
        self._trade_cash = (costs[:, None] * np.array(TRADE_BANDS)[None, :]) // 100
        self._trade_cash_list: list[list[int]] = self._trade_cash.tolist()
        self.blocking: list[tuple[int, ...]] = []  # per property: lots whose buildings block
        unlimited = rules.buildings == "unlimited"
        for q in self.properties:
            area = board.tiles[q].area
            lots = (board.areas[area].positions
                    if area is not None and area in board.areas and not unlimited else ())
            self.blocking.append(lots if lots else (q,))
        self.tables = Tables(self, float(game.initial_money) / n, game.hotel_level, self.size,
                             float(rules.max_jail_turns or 3), len(TRADE_BANDS))
        # Which trade entries a player's cash affords, as integers of 0 / 1 bytes placed at the
        # block of each relative seat (0: asking, k: offering to seat +k): one per distinct
        # amount, found by bisection; the trade mask is then the holdings' flags & these.
        trade_cash = self._trade_cash.ravel()
        block = trade_cash.size
        self._cash_levels: list[int] = sorted(set(trade_cash.tolist()))
        self._afford: list[list[int]] = []
        for k in range(n):
            shift = 8 * block * (n - 1 - k)
            self._afford.append([0] + [
                int.from_bytes((trade_cash <= level).astype(np.uint8).tobytes(), "big") << shift
                for level in self._cash_levels])
        assert self.trade_buy0 < 0 or self.trade_buy0 + block * n == len(names)  # trades last
        # The engine's shared action instances (legal_actions() hands out the same objects
        # every time) by id, with their index: a dict look-up instead of a type dispatch. The
        # list keeps them alive, so that no other object can take one of their ids.
        self._shared: list[Action] = []
        self._ids: dict[int, int] = {}
        for seat in range(n):
            acts = player_actions(seat, self.size)
            for action in (
                    acts.roll, acts.end_turn, acts.buy, acts.decline, acts.pass_, acts.pay_fine,
                    acts.use_card, acts.tax_flat, acts.tax_percent, acts.accept, acts.reject,
                    acts.bankrupt, *acts.build_at, *acts.sell, *acts.mortgage, *acts.unmortgage,
                    *acts.lift, *acts.keep, *acts.place,
                    *(A.cached(A.SellDown, seat, area, level) for area in self.areas
                      for level in range(self.hotel_level))):
                index = self.index_of(action)
                if index is not None:
                    self._ids[id(action)] = index
                    self._shared.append(action)
        # id of a legal tuple -> what it encodes to; the engine hands out the same tuple while
        # a seat's choices stay the same
        self._memo: dict[int, _Encoded] = {}
        self._levels = len(self._cash_levels) + 1

    # ------------------------------------------------------------------ the mask

    def _legal_entry(self, legal: tuple[Action, ...]) -> _Encoded:
        entry = self._memo.get(id(legal))
        if entry is not None and entry.legal is legal:
            return entry
        by_index: dict[int, Action] = {}
        ids = self._ids
        for action in legal:
            index = ids.get(id(action))
            if index is None:
                index = self.index_of(action)
                if index is None:
                    continue
            by_index[index] = action
        flags = bytearray(self.n)
        for index in by_index:
            flags[index] = 1
        entry = _Encoded(legal, by_index, bytes(flags))
        if len(self._memo) >= 512:
            self._memo.clear()
        self._memo[id(legal)] = entry
        return entry

    def index_of(self, action: Action) -> int | None:
        """The index of a fixed engine action (not a bid or a trade offer), or None."""
        kind = type(action)
        single = _SINGLE_TYPES.get(kind)
        if single is not None:
            return single
        if kind is A.ChooseTax and isinstance(action, A.ChooseTax):
            return 6 if action.choice == "flat" else 7
        position = getattr(action, "position", None)
        if kind is A.Build and self.build0 >= 0:
            return self._slot(self.build0, self._street_slot, position)
        if kind is A.Sell and self.sell0 >= 0:
            return self._slot(self.sell0, self._street_slot, position)
        if kind is A.PlaceHouse and self.place0 >= 0:
            return self._slot(self.place0, self._street_slot, position)
        if kind is A.Mortgage and self.mortgage0 >= 0:
            return self._slot(self.mortgage0, self._property_slot, position)
        if kind is A.Unmortgage and self.unmortgage0 >= 0:
            return self._slot(self.unmortgage0, self._property_slot, position)
        if kind is A.SellDown and isinstance(action, A.SellDown) and self.sell_down0 >= 0:
            area = self._area_slot.get(action.area)
            if area is not None and 0 <= action.level < self.hotel_level:
                return self.sell_down0 + area * self.hotel_level + action.level
        return None  # a bid, or an action outside the encoding

    @staticmethod
    def _slot(start: int, slots: dict[int, int], position: int | None) -> int | None:
        slot = slots.get(position) if position is not None else None
        return None if slot is None else start + slot

    def zero_mask(self) -> np.ndarray:
        return np.zeros(self.n, dtype=np.int8)

    def mask(self, game: Game, offers_left: int) -> np.ndarray:
        """The legal mask of the player deciding now (all zero when the game is over)."""
        return np.frombuffer(self.mask_flags(game, offers_left), dtype=np.int8)

    def mask_flags(self, game: Game, offers_left: int) -> bytearray:
        """:meth:`mask` as a new bytearray, a byte per index (the mask is a view of it)."""
        # Built as bytes, viewed by NumPy once: a small NumPy operation costs a few thousand
        # instructions, a byte written into a bytearray a few dozen.
        engine = game._engine
        decision = engine.decision
        seat = decision.player
        if seat is None:
            return bytearray(self.n)
        entry = self._legal_entry(engine.legal_actions())
        if not entry.by_index:
            raise EncodingError(
                f"no legal action of player {seat}'s {decision.kind!r} decision is in the "
                f"encoding: {', '.join(map(str, engine.legal_actions())) or 'none'}")
        kind = decision.kind
        if kind == AUCTION:
            flags = bytearray(entry.flags)
            cash = engine.players[seat].cash
            low = decision.data["min_bid"]
            for level, amount in enumerate(self.bid_amounts(game)):
                if low <= amount <= cash:
                    flags[self.bid0 + level] = 1
            return flags
        if self.trading and offers_left > 0 and kind in _OFFER_KINDS:
            return bytearray(self._with_trades(game, seat, entry))
        return bytearray(entry.flags)

    def _with_trades(self, game: Game, seat: int, entry: _Encoded) -> bytes:
        """The flags of `entry` and of the trade offers `seat` may make now. They depend only
        on the holdings (the tables' trade version) and on where each player's cash lies
        among the trade amounts: memoised on both, they are rebuilt now and then."""
        tables = self.tables
        tables.refresh(game)
        players, n, levels = game._engine.players, self.players, self._cash_levels
        places = [bisect_right(levels, players[(seat + k) % n].cash) for k in range(n)]
        key = tables.trade_version[seat]
        for place in places:
            key = key * self._levels + place
        flags = entry.trades.get(key)
        if flags is None:
            afford = 0
            for k, place in enumerate(places):
                afford |= self._afford[k][place]
            start = self.trade_buy0
            built = bytearray(entry.flags)
            built[start:] = (tables.trade_int(seat) & afford).to_bytes(self.n - start, "big")
            if len(entry.trades) >= 16:
                entry.trades.clear()
            flags = entry.trades[key] = bytes(built)
        return flags

    def bid_amounts(self, game: Game) -> list[int]:
        """The amount of every bid level in the auction now (see BID_LEVELS)."""
        data = game.decision.data
        seat = game.decision.player
        assert seat is not None
        position = data.get("position")
        base = self.costs[position] if position is not None else _opening_bid(game)
        amounts = [base * percent // 100 for percent in _BID_PERCENT]
        amounts[0] = data["min_bid"]
        amounts[-1] = game.players[seat].cash
        return amounts

    # ------------------------------------------------------------------ decoding

    def decode(self, index: int, game: Game) -> Action | None:
        """The engine action `index` stands for now, for whoever decides (None: it stands for
        nothing now). The mask says whether it is legal; this only builds it."""
        decision = game.decision
        seat = decision.player
        if seat is None or not 0 <= index < self.n:
            return None
        shared = self._legal_entry(game.legal_actions()).by_index.get(index)
        if shared is not None:
            return shared  # the engine's own instance: its legality check is an identity test
        if self.bid0 >= 0 and self.bid0 <= index < self.bid0 + len(BID_LEVELS):
            if decision.kind != AUCTION:
                return None
            return A.Bid(seat, self.bid_amounts(game)[index - self.bid0])
        if self.trade_buy0 >= 0 and index >= self.trade_buy0:
            bands = len(TRADE_BANDS)
            if index < self.trade_sell0:
                slot, band = divmod(index - self.trade_buy0, bands)
                q = self.properties[slot]
                owner = game.owner(q)
                if owner is None or owner == seat:
                    return None
                cash = self._trade_cash_list[slot][band]
                return A.ProposeTrade(seat, owner, A.TradeSide(cash=cash),
                                      A.TradeSide(properties=(q,)))
            k, rest = divmod(index - self.trade_sell0, len(self.properties) * bands)
            slot, band = divmod(rest, bands)
            q = self.properties[slot]
            partner = (seat + k + 1) % self.players
            cash = self._trade_cash_list[slot][band]
            return A.ProposeTrade(seat, partner, A.TradeSide(properties=(q,)),
                                  A.TradeSide(cash=cash))
        return self._fixed(index, seat, game)

    def _fixed(self, index: int, seat: int, game: Game) -> Action | None:
        """A fixed action that is not legal now (the legal ones come from the engine)."""
        name = self.names[index]
        if name in ("lift", "keep"):
            position = game.decision.data.get("position")
            if position is None or game.decision.kind != "mortgaged":
                return None
            return (A.LiftMortgage if name == "lift" else A.KeepMortgage)(seat, position)
        if name == "tax_flat" or name == "tax_percent":
            return A.ChooseTax(seat, name[4:])
        if ":" not in name:
            cls = {"roll": A.Roll, "end_turn": A.EndTurn, "buy": A.Buy, "decline": A.Decline,
                   "pay_fine": A.PayFine, "use_card": A.UseJailCard, "accept": A.AcceptTrade,
                   "reject": A.RejectTrade, "bankrupt": A.DeclareBankruptcy,
                   "pass": A.Pass}[name]
            return cls(seat)
        head, _, rest = name.partition(":")
        if head == "sell_down":
            area, _, level = rest.partition(":")
            return A.SellDown(seat, area, int(level))
        cls_of: dict[str, type[A._PositionAction]] = {
            "build": A.Build, "sell": A.Sell, "place": A.PlaceHouse, "mortgage": A.Mortgage,
            "unmortgage": A.Unmortgage}
        return cls_of[head](seat, int(rest))


class _Encoded:
    """A legal tuple of the engine, encoded: index -> its shared action, the flags of those
    indices, and the flags with the trade offers (see ActionCodec._with_trades)."""

    __slots__ = ("legal", "by_index", "flags", "trades")

    def __init__(self, legal: tuple[Action, ...], by_index: dict[int, Action],
                 flags: bytes) -> None:
        self.legal = legal  # kept alive: its id is the memo's key
        self.by_index = by_index
        self.flags = flags
        self.trades: dict[int, bytes] = {}


def _opening_bid(game: Game) -> int:
    """A house auction's opening bid (its price), read from the auction's start event."""
    _, log = game.known_events()
    for k in range(len(log) - 1, max(-1, len(log) - 400), -1):
        event = log[k]
        if event.kind == "auction_started":
            opening: int = event.get("min_bid")
            return opening
    return int(game.decision.data["min_bid"])


__all__ = ["ActionCodec", "SINGLES", "BID_LEVELS", "TRADE_BANDS", "squash"]
