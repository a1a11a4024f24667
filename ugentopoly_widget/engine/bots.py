"""Bots: see the game and its legal actions, return one action. Each has its own generator.

>>> from ugentopoly_widget.engine.game import Game
>>> game = Game("ugentopoly", players=2, seed=3)
>>> result = play_game(game, [RandomBot(seed=1), HeuristicBot(seed=2)])
>>> game.is_over
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from mypy_extensions import mypyc_attr

from . import actions as A
from .actions import Action
from .board import TileKind

if TYPE_CHECKING:
    from .game import Game


class Bot(Protocol):
    def choose(self, game: Game) -> Action: ...


@mypyc_attr(allow_interpreted_subclasses=True)  # users write their bots by subclassing these
class RandomBot:
    """Picks uniformly among the legal actions; bids a random amount in the legal range."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Action:
        legal = game.legal_actions()
        action = legal[int(self.rng.random() * len(legal))] if len(legal) > 1 else legal[0]
        if type(action) is A.Bid:
            decision = game.decision
            low = decision.data["min_bid"]
            high = min(game.players[action.player].cash, low + 200)
            return A.Bid(action.player, self.rng.randint(low, high))
        return action


@mypyc_attr(allow_interpreted_subclasses=True)
class HeuristicBot:
    """A sensible player: keeps a cash reserve, completes colour groups, builds, bids to value,
    raises money by selling and mortgaging the least useful things first."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, reserve: int = 150) -> None:
        self.rng = random.Random(seed)
        self.reserve = reserve
        self._offered_turn = -1
        self._last_legal: tuple[Action, ...] = ()
        self._last_by_type: dict[type[Action], list[Action]] = {}

    def choose(self, game: Game) -> Action:
        decision = game.decision
        kind = decision.kind
        legal = game.legal_actions()
        if len(legal) == 1:
            only = legal[0]
            if type(only) is not A.Pass or kind != "auction":
                return only
        me = game.players[decision.player] if decision.player is not None else None
        assert me is not None, "no decision to take"
        if legal is self._last_legal:  # the engine hands out the same tuple while it holds
            by_type = self._last_by_type
        else:
            by_type = {}
            for action in legal:
                by_type.setdefault(type(action), []).append(action)
            self._last_legal, self._last_by_type = legal, by_type
        if kind == "buy":
            price = decision.data["price"]
            if A.Buy in by_type and me.cash - price >= self._reserve(game):
                return by_type[A.Buy][0]
            position = decision.data["position"]
            if A.Buy in by_type and self._completes_group(game, me.index, position):
                return by_type[A.Buy][0]
            return by_type[A.Decline][0]
        if kind == "auction":
            return self._bid(game, me.index, by_type)
        if kind == "tax":
            worth = game.net_worth(me.index)
            percent = decision.data["percent"] or 0
            choice = "percent" if worth * percent // 100 < decision.data["amount"] else "flat"
            return A.ChooseTax(me.index, choice)
        if kind == "jail_fine":
            return by_type.get(A.UseJailCard, by_type.get(A.PayFine, legal))[0]
        if kind == "trade":
            return self._answer_trade(game, me.index)
        if kind == "mortgaged":
            if A.LiftMortgage in by_type and me.cash > 3 * self._reserve(game):
                return by_type[A.LiftMortgage][0]
            return by_type[A.KeepMortgage][0]
        if kind == "debt":
            return self._raise_money(game, me.index, by_type)
        if kind == "house_offer":
            if A.Build in by_type and me.cash - decision.data["price"] >= self._reserve(game):
                return by_type[A.Build][0]
            return by_type[A.Decline][0]
        if kind == "place_house":
            return legal[0]
        if kind in ("turn", "post_roll"):
            return self._manage(game, me.index, kind, by_type)
        return legal[0]

    # ---------------------------------------------------------------- helpers

    def _reserve(self, game: Game) -> int:
        return self.reserve * game.board.salary // 200 if game.board.salary else self.reserve

    def _completes_group(self, game: Game, player: int, position: int) -> bool:
        tile = game.board.tiles[position]
        if tile.kind is not TileKind.STREET or tile.area is None:
            return False
        lots = game.board.areas[tile.area].positions
        return all(game.owner(q) == player for q in lots if q != position)

    def _value(self, game: Game, player: int, position: int) -> int:
        cost = game.board.tiles[position].cost
        return cost * 3 // 2 if self._completes_group(game, player, position) else cost

    def _bid(self, game: Game, player: int, by_type: dict[type[Action], list[Action]]
             ) -> Action:
        decision = game.decision
        low = decision.data["min_bid"]
        pos = decision.data.get("position")
        cash = game.players[player].cash
        if decision.data.get("item") == "house" or pos is None:
            limit = cash - self._reserve(game)
            worth = low + low // 2
        else:
            limit = cash - self._reserve(game) // 2
            worth = self._value(game, player, pos)
        if A.Bid in by_type and low <= min(limit, worth):
            step = max(1, (min(limit, worth) - low) // 4)
            return A.Bid(player, min(low + int(self.rng.random() * step), cash))
        return by_type[A.Pass][0]

    def _answer_trade(self, game: Game, player: int) -> Action:
        offer = game.decision.data["offer"]
        gain = offer.give.cash + sum(self._value(game, player, q) for q in offer.give.properties)
        loss = offer.get.cash + sum(self._value(game, player, q) for q in offer.get.properties)
        for q in offer.get.properties:  # never break up a group of my own
            tile = game.board.tiles[q]
            if tile.area is not None and all(
                game.owner(r) == player for r in game.board.areas[tile.area].positions
            ):
                return A.RejectTrade(player)
        if gain >= loss * 11 // 10 and gain > 0:
            return A.AcceptTrade(player)
        return A.RejectTrade(player)

    def _raise_money(self, game: Game, player: int, by_type: dict[type[Action], list[Action]]
                     ) -> Action:
        for kind in (A.Sell, A.SellDown, A.Mortgage):
            options = by_type.get(kind)
            if options:
                if kind is A.Mortgage:
                    return min(options, key=lambda a: self._mortgage_rank(game, player, a))
                return options[0]
        if A.DeclareBankruptcy in by_type:
            return by_type[A.DeclareBankruptcy][0]
        return next(iter(by_type.values()))[0]

    def _mortgage_rank(self, game: Game, player: int, action: Action) -> tuple[int, int]:
        pos = getattr(action, "position", 0)
        tile = game.board.tiles[pos]
        in_group = tile.area is not None and all(
            game.owner(q) == player for q in game.board.areas[tile.area].positions
        )
        return (1 if in_group else 0, tile.cost)

    def _manage(self, game: Game, player: int, kind: str,
                by_type: dict[type[Action], list[Action]]) -> Action:
        me = game.players[player]
        reserve = self._reserve(game)
        builds = by_type.get(A.Build)
        if builds:
            affordable = [
                a for a in builds
                if me.cash - game.house_price(getattr(a, "position", 0)) >= reserve * 2
            ]
            if affordable:
                return min(affordable, key=lambda a: game.buildings(getattr(a, "position", 0)))
        unmortgages = by_type.get(A.Unmortgage)
        if unmortgages and me.cash > reserve * 4:
            return unmortgages[0]
        if game.rules.trading and self._offered_turn != game.turn_number:
            self._offered_turn = game.turn_number  # at most one look (and offer) per turn
            offer = self._group_offer(game, player)
            if offer is not None:
                return offer
        if A.UseJailCard in by_type:
            return by_type[A.UseJailCard][0]
        if A.PayFine in by_type and me.cash > reserve * 3:
            return by_type[A.PayFine][0]
        if kind == "turn":
            return by_type[A.Roll][0]
        return by_type[A.EndTurn][0]

    def _group_offer(self, game: Game, player: int) -> Action | None:
        """Offer cash for the one lot that would complete a colour group."""
        me = game.players[player]
        owners = game.owners
        for area in game.board.areas.values():
            lots = area.positions
            if len(lots) < 2:
                continue
            missing = [q for q in lots if owners[q] != player]
            if len(missing) != 1:
                continue
            pos = missing[0]
            holder = owners[pos]
            if holder < 0 or game.buildings(pos) or game.players[holder].bankrupt:
                continue
            price = game.board.tiles[pos].cost * 3 // 2
            if me.cash - price < self._reserve(game):
                continue
            offer = A.ProposeTrade(player, holder, A.TradeSide(cash=price),
                                   A.TradeSide(properties=(pos,)))
            if game.trade_problem(offer) is None:
                return offer
        return None


BOTS: dict[str, type[RandomBot] | type[HeuristicBot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
}


def make_bot(kind: str, seed: int | None = None) -> RandomBot | HeuristicBot:
    try:
        return BOTS[kind](seed=seed)
    except KeyError:
        raise ValueError(f"unknown bot {kind!r}; choose one of {sorted(BOTS)}") from None


def play_game(
    game: Game,
    bots: Sequence[Bot] | Mapping[int, Bot],
    *,
    max_actions: int = 1_000_000,
) -> int:
    """Let bots take every decision until the game is over; returns the number of actions."""
    seats = dict(enumerate(bots)) if isinstance(bots, Sequence) else dict(bots)
    count = 0
    apply = game.apply
    while not game.is_over and count < max_actions:
        player = game.decision.player
        if player is None:
            break
        apply(seats[player].choose(game))
        count += 1
    return count
