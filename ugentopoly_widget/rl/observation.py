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
from .holdings import Holdings

if TYPE_CHECKING:
    from ..engine.game import Game

KINDS: Final = tuple(k for k in DECISION_KINDS if k != GAME_OVER)
PLAYER_FEATURES: Final = (
    "alive", "cash", "valuation", "position", "in_jail", "jail_tries", "jail_cards", "to_play")
_TILE_DECISIONS: Final = ("buy", "auction", "mortgaged", "house_offer")


class Observer:
    """Builds observations for one board, rules profile and player count (see module doc).

    The blocks that change at every step (the scalars and the players) come first and are
    written with one slice assignment; the property blocks are the seat's section of the
    holdings, kept up to date incrementally (see holdings.py), copied in one slice."""

    def __init__(self, game: Game, codec: ActionCodec, holdings: Holdings, max_turns: int,
                 max_offers: int) -> None:
        n = self.players = codec.players
        self.codec = codec
        self.holdings = holdings
        self.max_turns = max_turns
        self.max_offers = max_offers
        self.size = game.board.size
        self.scale = float(game.initial_money) / n  # the starting cash
        rules = game.rules
        self.bank_houses = rules.bank_houses or 0
        self.bank_hotels = rules.bank_hotels or 0
        self.jail_scale = float(rules.max_jail_turns or 3)
        p = len(codec.properties)
        blocks = [
            ("progress", 1), ("my_turn", 1), ("bank_houses", 1), ("bank_hotels", 1), ("pot", 1),
            ("offers_left", 1), ("players", n * len(PLAYER_FEATURES)), ("decision", len(KINDS)),
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
        self._dynamic = self.layout["players"].stop  # entries written from one list
        self._decision = self.layout["decision"].start
        self._kind_index = {kind: k for k, kind in enumerate(KINDS)}
        # owner, level and mortgaged: the seat's section of the holdings, in one copy
        self._section = slice(self.layout["owner"].start, self.layout["mortgaged"].stop)
        assert self._section.stop - self._section.start == holdings.section.shape[1]
        self._zeros = np.zeros(self.n, dtype=np.float32)

    def observe(self, game: Game, seat: int, offers_left: int) -> np.ndarray:
        """The observation of `seat` now (a new array)."""
        holdings = self.holdings
        holdings.refresh(game)
        obs: np.ndarray = self._zeros.copy()
        obs[:self._dynamic] = self._dynamic_values(game, seat, offers_left)
        obs[self._section] = holdings.section[seat]
        decision = game.decision
        k = self._kind_index.get(decision.kind)
        if k is not None:
            obs[self._decision + k] = 1.0
            if k > 1:  # KINDS[0:2] are turn and post-roll: others fill their own blocks
                self._decision_block(game, seat, obs)
        return obs

    def _dynamic_values(self, game: Game, seat: int, offers_left: int) -> list[float]:
        n, scale, size, jail = self.players, self.scale, self.size, self.jail_scale
        houses, hotels, pot = game.houses_left, game.hotels_left, game.pot
        current = game.current_player
        values: list[float] = [
            min(1.0, game.turn_number / self.max_turns),
            1.0 if current == seat else 0.0,
            houses / self.bank_houses if houses is not None and self.bank_houses else 1.0,
            hotels / self.bank_hotels if hotels is not None and self.bank_hotels else 1.0,
            pot / (pot + scale) if pot > 0 else 0.0,
            min(1.0, offers_left / self.max_offers) if self.max_offers else 0.0,
        ]
        players = game.players
        held = self.holdings.held_value
        for k in range(n):
            i = seat + k if seat + k < n else seat + k - n
            p = players[i]
            cash = p.cash
            worth = cash + held[i]
            values += (
                0.0 if p.bankrupt else 1.0,
                cash / (cash + scale) if cash > 0 else 0.0,
                worth / (worth + scale) if worth > 0 else 0.0,
                p.position / size,
                1.0 if p.in_jail else 0.0,
                min(1.0, p.jail_tries / jail),
                min(1.0, len(p.jail_cards) / 2),
                1.0 if i == current else 0.0,
            )
        return values

    def _decision_block(self, game: Game, seat: int, obs: np.ndarray) -> None:
        lay = self.layout
        slot = self.holdings.slot
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


__all__ = ["Observer", "KINDS", "PLAYER_FEATURES"]
