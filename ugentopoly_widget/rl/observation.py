"""The observation vector: one float32 Box in [0, 1], seen from the observing seat.

Seats are relative ("ego-centric"): block entry 0 is the observer, 1 the next seat in play
order, and so on; owners are coded the same way (0 the bank, 1 the observer, 2 the next seat).
A policy trained in one seat can then play in any seat. Money is squashed as
``x / (x + starting money)``: monotone, never clipped, never out of bounds. ``Observer.layout``
names every block (docs/rl.md has the table).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import numpy as np

from ..engine.state import DECISION_KINDS, GAME_OVER, TRADE
from .actions import ActionCodec, squash
from .tables import PLAYER_FEATURES, Tables

if TYPE_CHECKING:
    from ..engine.game import Game

KINDS: Final = tuple(k for k in DECISION_KINDS if k != GAME_OVER)
_TILE_DECISIONS: Final = ("buy", "auction", "mortgaged", "house_offer")
SCALARS: Final = ("progress", "my_turn", "bank_houses", "bank_hotels", "pot", "offers_left")
# The blocks copied as they are from the observers' room of the tables (no seat order).
_ABSOLUTE_BLOCKS: Final = ("decision", "decision_tiles", "decision_money", "trade_receive",
                           "trade_give", "trade_cash", "trade_cards")


class Observer:
    """Builds observations for one board, rules profile and player count (see module doc).

    An observation is one indexed copy of the tables (tables.py) in the seat's order: the
    players' and the properties' blocks, and the observer's room of them (the decision, the
    seat to play, the scalars), rewritten once per applied action."""

    def __init__(self, game: Game, codec: ActionCodec, tables: Tables, max_turns: int,
                 max_offers: int) -> None:
        n = self.players = codec.players
        self.codec = codec
        self.tables = tables
        self.max_turns = max_turns
        self.max_offers = max_offers
        self.scale = float(game.initial_money) / n  # the starting cash
        rules = game.rules
        self.bank_houses = rules.bank_houses or 0
        self.bank_hotels = rules.bank_hotels or 0
        p = len(codec.properties)
        blocks = [(name, 1) for name in SCALARS] + [
            ("to_play", n), ("players", n * len(PLAYER_FEATURES)), ("decision", len(KINDS)),
            ("owner", p * (n + 1)), ("level", p), ("mortgaged", p),
            ("decision_tiles", p), ("decision_money", 4),
            ("trade_proposer", n), ("trade_receive", p), ("trade_give", p),
            ("trade_cash", 2), ("trade_cards", 2),
        ]
        self.layout: dict[str, slice] = {}
        start = 0
        for name, width in blocks:
            self.layout[name] = slice(start, start + width)
            start += width
        self.n = start
        # The entries that depend on the decision, the seat to play or the observing seat are
        # kept in a room of tables.absolute too, in absolute terms (seat j's flag at j): one
        # indexed copy then makes the whole observation (NumPy calls cost ~1 us each; an entry
        # written through the tables' memoryview ~0.05 us).
        widths = [("scalars", len(SCALARS)), ("current", n), ("leader", n), ("proposer", n)] + [
            (name, lay.stop - lay.start) for name, lay in self.layout.items()
            if name in _ABSOLUTE_BLOCKS]
        base = tables.reserve(sum(width for _, width in widths))
        self.room: dict[str, int] = {}
        for name, width in widths:
            self.room[name] = base
            base += width
        self._kind_index = {kind: k for k, kind in enumerate(KINDS)}
        # Per seat: the entry of tables.absolute each observation entry copies.
        row, width = tables.row, tables.width
        room = self.room
        self._gather: list[np.ndarray] = []
        for seat in range(n):
            index = np.full(self.n, tables.zero, dtype=np.intp)
            order = [(seat + k) % n for k in range(n)]
            scalars = self.layout["progress"].start
            index[scalars:scalars + len(SCALARS)] = range(room["scalars"],
                                                          room["scalars"] + len(SCALARS))
            index[self.layout["my_turn"]] = room["current"] + seat
            index[self.layout["to_play"]] = [room["current"] + i for i in order]
            index[self.layout["players"]] = [i * row + f for i in order for f in range(row)]
            columns = [0] + [1 + i for i in order]  # owner columns: bank, seat, next ...
            index[self.layout["owner"]] = [
                tables.owners_start + k * width + c for k in range(p) for c in columns]
            index[self.layout["level"]] = range(tables.levels_start, tables.levels_start + p)
            index[self.layout["mortgaged"]] = range(tables.mortgages_start,
                                                    tables.mortgages_start + p)
            for name in _ABSOLUTE_BLOCKS:
                lay = self.layout[name]
                index[lay] = range(room[name], room[name] + lay.stop - lay.start)
            index[self.layout["decision_money"].start + 3] = room["leader"] + seat
            index[self.layout["trade_proposer"]] = [room["proposer"] + i for i in order]
            self._gather.append(index)

    def observe(self, game: Game, seat: int, offers_left: int) -> np.ndarray:
        """The observation of `seat` now (a new array)."""
        tables = self.tables
        tables.refresh(game)
        key = (self, tables.stamp())
        if tables.scratch_key != key:
            tables.scratch_key = key
            self._write_room(game)
        max_offers = self.max_offers
        tables.view[self.room["scalars"] + 5] = (
            (offers_left / max_offers if offers_left < max_offers else 1.0)
            if offers_left > 0 and max_offers else 0.0)
        return tables.absolute.take(self._gather[seat])

    def _write_room(self, game: Game) -> None:
        """The entries of the state now that no player's point of view changes."""
        tables = self.tables
        view, written = tables.view, tables.scratch_written
        for at in written:
            view[at] = 0.0
        written.clear()
        engine = game._engine  # read only: each Game property is an interpreted call
        room = self.room
        houses, hotels, pot = engine.houses_left, engine.hotels_left, engine.pot
        turn = engine.turn_number / self.max_turns
        at = room["scalars"]
        view[at] = turn if turn < 1.0 else 1.0
        view[at + 2] = (houses / self.bank_houses
                        if houses is not None and self.bank_houses else 1.0)
        view[at + 3] = hotels / self.bank_hotels if hotels is not None and self.bank_hotels else 1.0
        view[at + 4] = pot / (pot + self.scale) if pot > 0 else 0.0
        at = room["current"] + engine.current
        view[at] = 1.0
        written.append(at)
        k = self._kind_index.get(engine.decision.kind)
        if k is not None:
            at = room["decision"] + k
            view[at] = 1.0
            written.append(at)
            if k > 1:  # KINDS[0:2] are turn and post-roll: others fill their own blocks
                self._decision_block(game)

    def _decision_block(self, game: Game) -> None:
        room = self.room
        tables = self.tables
        slot, view, written = tables.slot, tables.view, tables.scratch_written

        def put(at: int, value: float) -> None:
            if value:
                view[at] = value
                written.append(at)

        decision = game.decision
        kind, data = decision.kind, decision.data
        tiles = room["decision_tiles"]
        if kind in _TILE_DECISIONS:
            position = data.get("position")  # None in a house auction (a housing shortage)
            k = slot(position) if position is not None else None
            if k is not None:
                put(tiles + k, 1.0)
        elif kind == "place_house":
            for q in data["positions"]:
                put(tiles + (slot(q) or 0), 1.0)
        money = room["decision_money"]
        scale = self.scale
        amount = data.get("price", data.get("amount", data.get("fine", 0))) or 0
        if kind == "mortgaged":
            amount = data["value"] + data["interest"]
        elif kind == "auction" and data.get("position") is not None:
            amount = self.codec.costs[data["position"]]
        put(money, squash(amount, scale))
        if kind == "auction":
            put(money + 1, squash(data["high_bid"], scale))
            put(money + 2, squash(data["min_bid"], scale))
            leader = data["leader"]
            if leader is not None and 0 <= leader < self.players:
                put(room["leader"] + leader, 1.0)
        if kind == TRADE:
            offer = data["offer"]
            put(room["proposer"] + offer.player, 1.0)
            receive, give = room["trade_receive"], room["trade_give"]
            for q in offer.give.properties:
                put(receive + (slot(q) or 0), 1.0)
            for q in offer.get.properties:
                put(give + (slot(q) or 0), 1.0)
            cash, cards = room["trade_cash"], room["trade_cards"]
            put(cash, squash(offer.give.cash, scale))
            put(cash + 1, squash(offer.get.cash, scale))
            put(cards, min(1.0, len(offer.give.cards) / 2))
            put(cards + 1, min(1.0, len(offer.get.cards) / 2))


__all__ = ["Observer", "KINDS", "PLAYER_FEATURES", "SCALARS"]
