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


class Observer:
    """Builds observations for one board, rules profile and player count (see module doc).

    The players' and the properties' blocks are one indexed copy of the tables (tables.py) in
    the seat's order; the entries that depend on the seat or the decision are written after."""

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
        self._scalars = len(SCALARS)
        self._to_play = self.layout["to_play"].start
        self._decision = self.layout["decision"].start
        self._kind_index = {kind: k for k, kind in enumerate(KINDS)}
        # Per seat: the entry of tables.absolute each observation entry copies (the zero entry
        # where it is written afterwards).
        row, width = tables.row, tables.width
        self._gather: list[np.ndarray] = []
        for seat in range(n):
            index = np.full(self.n, tables.zero, dtype=np.intp)
            order = [(seat + k) % n for k in range(n)]
            index[self.layout["players"]] = [i * row + f for i in order for f in range(row)]
            columns = [0] + [1 + i for i in order]  # owner columns: bank, seat, next ...
            index[self.layout["owner"]] = [
                tables.owners_start + k * width + c for k in range(p) for c in columns]
            index[self.layout["level"]] = range(tables.levels_start, tables.levels_start + p)
            index[self.layout["mortgaged"]] = range(tables.mortgages_start,
                                                    tables.mortgages_start + p)
            self._gather.append(index)

    def observe(self, game: Game, seat: int, offers_left: int) -> np.ndarray:
        """The observation of `seat` now (a new array)."""
        tables = self.tables
        tables.refresh(game)
        obs: np.ndarray = tables.absolute.take(self._gather[seat])
        engine = game._engine  # read only: each Game property is an interpreted call
        n = self.players
        houses, hotels, pot = engine.houses_left, engine.hotels_left, engine.pot
        current = engine.current
        turn = engine.turn_number / self.max_turns
        max_offers = self.max_offers
        obs[:self._scalars] = (
            turn if turn < 1.0 else 1.0,
            1.0 if current == seat else 0.0,
            houses / self.bank_houses if houses is not None and self.bank_houses else 1.0,
            hotels / self.bank_hotels if hotels is not None and self.bank_hotels else 1.0,
            pot / (pot + self.scale) if pot > 0 else 0.0,
            (offers_left / max_offers if offers_left < max_offers else 1.0)
            if offers_left > 0 and max_offers else 0.0,
        )
        obs[self._to_play + (current - seat) % n] = 1.0
        k = self._kind_index.get(engine.decision.kind)
        if k is not None:
            obs[self._decision + k] = 1.0
            if k > 1:  # KINDS[0:2] are turn and post-roll: others fill their own blocks
                self._decision_block(game, seat, obs)
        return obs

    def _decision_block(self, game: Game, seat: int, obs: np.ndarray) -> None:
        lay = self.layout
        slot = self.tables.slot
        decision = game.decision
        kind, data = decision.kind, decision.data
        tiles = lay["decision_tiles"].start
        if kind in _TILE_DECISIONS:
            k = slot(data.get("position", -1))
            if k is not None:
                obs[tiles + k] = 1.0
        elif kind == "place_house":
            for q in data["positions"]:
                obs[tiles + (slot(q) or 0)] = 1.0
        money = lay["decision_money"].start
        scale = self.scale
        amount = data.get("price", data.get("amount", data.get("fine", 0))) or 0
        if kind == "mortgaged":
            amount = data["value"] + data["interest"]
        elif kind == "auction" and data.get("position") is not None:
            amount = self.codec.costs[data["position"]]
        obs[money] = squash(amount, scale)
        if kind == "auction":
            obs[money + 1] = squash(data["high_bid"], scale)
            obs[money + 2] = squash(data["min_bid"], scale)
            obs[money + 3] = float(data["leader"] == seat)
        if kind == TRADE:
            offer = data["offer"]
            obs[lay["trade_proposer"].start + (offer.player - seat) % self.players] = 1.0
            receive, give = lay["trade_receive"].start, lay["trade_give"].start
            for q in offer.give.properties:
                obs[receive + (slot(q) or 0)] = 1.0
            for q in offer.get.properties:
                obs[give + (slot(q) or 0)] = 1.0
            cash, cards = lay["trade_cash"].start, lay["trade_cards"].start
            obs[cash] = squash(offer.give.cash, scale)
            obs[cash + 1] = squash(offer.get.cash, scale)
            obs[cards] = min(1.0, len(offer.give.cards) / 2)
            obs[cards + 1] = min(1.0, len(offer.get.cards) / 2)


__all__ = ["Observer", "KINDS", "PLAYER_FEATURES", "SCALARS"]
