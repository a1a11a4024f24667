"""Mutable per-game state pieces: players, pending decisions, the chance source."""

from __future__ import annotations

import random
from array import array
from collections import deque
from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, Any, Final

from .boards.board import Card

if TYPE_CHECKING:
    from .actions import Action
    from .rules import RulesProfile

# Decision kinds: who must act and what about. See Game.legal_actions().
TURN: Final = "turn"  # before rolling (or rolling again after doubles): roll, jail options, manage
POST_ROLL: Final = "post_roll"  # after the move is resolved: end the turn, manage
BUY: Final = "buy"  # buy the property landed on, or decline
AUCTION: Final = "auction"  # bid or pass (a property, or a house in a housing shortage)
TAX: Final = "tax"  # income tax: fixed amount or percentage
JAIL_FINE: Final = "jail_fine"  # third failed jail roll with a card in hand: pay or use the card
TRADE: Final = "trade"  # the partner answers a trade offer
MORTGAGED: Final = "mortgaged"  # a received mortgaged property: lift now or pay 10 %
DEBT: Final = "debt"  # raise money or declare bankruptcy
HOUSE_OFFER: Final = "house_offer"  # 22-cell: build a house on your own street?
PLACE_HOUSE: Final = "place_house"  # housing auction won: choose the street
GAME_OVER: Final = "game_over"

DECISION_KINDS = (
    TURN, POST_ROLL, BUY, AUCTION, TAX, JAIL_FINE, TRADE, MORTGAGED, DEBT, HOUSE_OFFER,
    PLACE_HOUSE, GAME_OVER,
)


class Decision:
    """Whose decision it is now, about what, with the context the choice needs."""

    __slots__ = ("kind", "player", "data")

    def __init__(self, kind: str, player: int | None, **data: Any) -> None:
        self.kind = kind
        self.player = player
        self.data = data

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "player": self.player}
        for key, value in self.data.items():
            out[key] = value.to_dict() if hasattr(value, "to_dict") else value
        return out

    def __repr__(self) -> str:
        return f"Decision({self.kind!r}, player={self.player}, {self.data!r})"


class PlayerState:
    __slots__ = (
        "index", "name", "token", "colour", "cash", "position", "in_jail", "jail_tries",
        "jail_skip", "jail_cards", "bankrupt", "in_park", "last_roll", "out_order",
    )

    def __init__(self, index: int, name: str, token: str, colour: str, cash: int) -> None:
        self.index = index
        self.name = name
        self.token = token
        self.colour = colour
        self.cash = cash
        self.position = 0
        self.in_jail = False
        self.jail_tries = 0
        self.jail_skip = 0
        self.jail_cards: list[Card] = []
        self.bankrupt = False
        self.in_park = False
        self.last_roll = 0  # total of the player's last dice roll (utility rent)
        self.out_order = 0  # 1 for the first player out, 2 for the second, ...

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "token": self.token,
            "colour": self.colour,
            "cash": self.cash,
            "position": self.position,
            "in_jail": self.in_jail,
            "jail_tries": self.jail_tries,
            "jail_skip": self.jail_skip,
            "jail_cards": [c.id for c in self.jail_cards],
            "bankrupt": self.bankrupt,
            "in_park": self.in_park,
            "last_roll": self.last_roll,
        }


BLOCK: Final = 512  # draws per block (see ChanceSource)

RngPosition = tuple[tuple[int, "array[int]", Any], int]


def _compact(state: tuple[Any, ...]) -> tuple[int, array[int], Any]:
    """The Mersenne Twister state in 2.5 KB instead of 625 int objects (about 20 KB)."""
    return (state[0], array("I", state[1]), state[2])


class ChanceSource:
    """All randomness of one game: a seeded generator, plus scripted dice and stacked draws.

    Draws are the generator's own random() calls, counted in blocks of BLOCK: the generator's
    state is kept at the start of each block, so a checkpoint is the (shared) block start and
    an index, not a copy of the whole generator state. A shuffle skips the rest of the block
    (see _sync)."""

    __slots__ = ("seed", "rng", "scripted_dice", "forced_draws", "used", "_start", "_next",
                 "_draw")

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.scripted_dice: deque[tuple[int, ...]] = deque()
        self.forced_draws: dict[str, deque[str]] = {}  # random-draw decks: outcomes in order
        self.used = False  # set whenever a chance step happens (undo never crosses one)
        self._start: tuple[int, array[int], Any] | None = None  # state at the block's start
        self._next = BLOCK  # draws made in the block (BLOCK whenever _start is None)
        # the bound method, called directly: a draw is one C call (no look-up, no buffer)
        self._draw: Callable[[], float] = self.rng.random

    def _random(self) -> float:
        k = self._next
        if k >= BLOCK:  # a new block: keep where it starts (a checkpoint's position)
            self._start = _compact(self.rng.getstate())
            k = 0
        self._next = k + 1
        return self._draw()

    def _sync(self) -> None:
        """End the block before using the generator directly (a shuffle): the generator then
        stands at the end of the block, not at the draw position, as if the block's unused
        draws had been made. Deterministic, and what checkpoints restore (a shuffle follows
        draws only in a hand-made ChanceSource: games shuffle before the first draw)."""
        if self._start is not None:
            left = BLOCK - self._next
            if left > 0:
                self.rng.getrandbits(64 * left)  # random() takes two 32-bit words a draw
            self._start = None
            self._next = BLOCK

    def position(self) -> RngPosition:
        """Where the draws stand (for a checkpoint)."""
        if self._start is None:
            return (_compact(self.rng.getstate()), 0)
        return (self._start, self._next)

    def restore_position(self, position: RngPosition) -> None:
        start, k = position
        version, internal, gauss = start
        self.rng.setstate((version, tuple(internal), gauss))
        self._start = None
        self._next = BLOCK
        if k:
            # getrandbits() takes the words of k random() calls in one call
            self.rng.getrandbits(64 * k)
            self._start = start
            self._next = k

    def dice(self, count: int, sides: int) -> tuple[int, ...]:
        self.used = True
        if self.scripted_dice:
            return self.scripted_dice.popleft()
        if count == 2:
            k = self._next
            if k <= BLOCK - 2:  # both draws in the block begun: _random() twice, inline
                self._next = k + 2
                draw = self._draw
                return (int(draw() * sides) + 1, int(draw() * sides) + 1)
            return (int(self._random() * sides) + 1, int(self._random() * sides) + 1)
        return tuple(int(self._random() * sides) + 1 for _ in range(count))

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        self.used = True
        return int(self._random() * n)

    def shuffle(self, items: list[Any]) -> None:
        """random.Random.shuffle(items), step for step (the same draws, the same order), here
        so that it runs compiled: the stdlib's is Python code, a tenth of a game's set-up."""
        self.used = True
        self._sync()
        getrandbits = self.rng.getrandbits
        for i in range(len(items) - 1, 0, -1):
            n = i + 1  # j = Random._randbelow(n): k bits at a time until below n
            k = n.bit_length()
            j: int = getrandbits(k)
            while j >= n:
                j = getrandbits(k)
            items[i], items[j] = items[j], items[i]


Flow = Generator[Decision, "Action", Any]  # the flow of play: yields decisions, gets actions


class GameEnds(Exception):  # noqa: N818 - a signal, not an error
    """Raised inside the flow when the game ends; carries why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class PlayerOut(Exception):  # noqa: N818 - a signal, not an error
    """The current player went bankrupt: their turn stops here."""


def interest(value: int) -> int:
    """10 % of a mortgage value, rounded up to whole units."""
    return -(-value // 10)


class RulesView:
    """The rules profile's values as typed attributes of a compiled class: the flow reads them
    at every step, and a compiled read of an interpreted dataclass field costs a dict look-up."""

    def __init__(self, rules: RulesProfile) -> None:
        self.name: str = rules.name
        self.min_players: int = rules.min_players
        self.max_players: int = rules.max_players
        self.starting_money: int | None = rules.starting_money
        self.salary: int | None = rules.salary
        self.land_on_start_multiplier: int = rules.land_on_start_multiplier
        self.dice_count: int = rules.dice_count
        self.dice_sides: int = rules.dice_sides
        self.doubles_roll_again: bool = rules.doubles_roll_again
        self.max_doubles: int | None = rules.max_doubles
        self.auto_end_turn: bool = rules.auto_end_turn
        self.auction_on_decline: bool = rules.auction_on_decline
        self.buildings: str = rules.buildings
        self.houses_before_hotel: int = rules.houses_before_hotel
        self.bank_houses: int | None = rules.bank_houses
        self.bank_hotels: int | None = rules.bank_hotels
        self.house_price_rule: str = rules.house_price_rule
        self.offer_house_on_own_land: bool = rules.offer_house_on_own_land
        self.mortgages: bool = rules.mortgages
        self.trading: bool = rules.trading
        self.street_rent: str = rules.street_rent
        self.utility_multipliers: tuple[int, int] = rules.utility_multipliers
        self.parking: str = rules.parking
        self.free_parking_pot: bool = rules.free_parking_pot
        self.jail_fine: int | None = rules.jail_fine
        self.max_jail_turns: int | None = rules.max_jail_turns
        self.jail_skip_turns: int = rules.jail_skip_turns
        self.jail_card_auto: bool = rules.jail_card_auto
        self.card_move_to_jail_tile_jails: bool = rules.card_move_to_jail_tile_jails
        self.income_tax_choice: bool = rules.income_tax_choice
        self.debt_mode: str = rules.debt_mode
        self.end_when_money_reaches_zero: bool = rules.end_when_money_reaches_zero
        self.rank_by: str = rules.rank_by
        self.mode: str = rules.mode
        self.short_game_deeds: int = rules.short_game_deeds
        self.short_game_houses_before_hotel: int = rules.short_game_houses_before_hotel
        self.timed_game_deeds: int = rules.timed_game_deeds
        self.time_limit_minutes: float | None = rules.time_limit_minutes
        self.turn_limit: int | None = rules.turn_limit
        self.round_limit: int | None = rules.round_limit
        self.turn_timer_seconds: float | None = rules.turn_timer_seconds
        self.effective_houses_before_hotel: int = rules.effective_houses_before_hotel
