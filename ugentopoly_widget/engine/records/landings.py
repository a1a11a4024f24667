"""Where players land: counted from a game's events.

A *landing* is where a movement roll ends once everything it set off is resolved: a Chance card
that sends the token back three tiles counts where the token stops, a Go To Jail tile counts as
In Jail (never as Go To Jail), and a third double in a row or a failed try at doubles counts as
In Jail too. In Jail is kept apart from the jail tile itself (Just Visiting). Rolls made only to
work out a utility rent are not movement rolls and are not counted.

The counter reads events only, so it gives the same answer live (fed as events arrive, as the
widget does), after the fact (``Game.landings()``), and on a replayed or loaded game.

>>> from ugentopoly_widget import Game
>>> game = Game("classic", players=["Ann", "Bob"], seed=2)
>>> game.testing.script_dice((3, 4))   # from GO to Chance (7)
>>> game.testing.stack_deck("CHANCE", ["card.chance.09"])   # go back three spaces
>>> _ = game.act("roll")
>>> landings = game.landings()
>>> landings.tiles[4], landings.rolls   # Income Tax, where the token stopped
(1, 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from .events import Event

Per = Literal["roll", "turn"]


@dataclass(frozen=True)
class Landings:
    """How many rolls (or turns) ended on each tile, and how many ended in jail.

    ``tiles[k]`` counts tile ``k``; on the jail tile that means Just Visiting. ``in_jail``
    counts the rolls that ended with the player in jail."""

    tiles: tuple[int, ...]
    in_jail: int
    per: Per = "roll"

    @property
    def rolls(self) -> int:
        """The number of counted rolls (or turns, for ``per="turn"``)."""
        return sum(self.tiles) + self.in_jail

    def frequencies(self) -> tuple[float, ...]:
        """The share of each tile, then In Jail last (all 0.0 when nothing was counted)."""
        total = self.rolls
        counts = (*self.tiles, self.in_jail)
        return tuple(c / total for c in counts) if total else tuple(0.0 for _ in counts)

    def __add__(self, other: Landings) -> Landings:
        if not isinstance(other, Landings):
            return NotImplemented
        if len(other.tiles) != len(self.tiles) or other.per != self.per:
            raise ValueError("landings of different boards (or per roll and per turn) do not add")
        tiles = tuple(a + b for a, b in zip(self.tiles, other.tiles, strict=True))
        return Landings(tiles, self.in_jail + other.in_jail, self.per)


class LandingCounter:
    """Counts landings from events, fed in order, one game at a time (``reset()`` between).

    A roll is counted when it is over: at the next movement roll, at the end of the turn or at
    the end of the game. :meth:`landings` can include the roll still in progress."""

    def __init__(self, size: int, jail: int | None, *, record: bool = False) -> None:
        if size < 1:
            raise ValueError("a board has at least one tile")
        self.size = size
        self.jail = jail
        # record=True keeps where every counted roll ended, in order (``size`` = In Jail):
        # what a convergence chart needs.
        self.history: list[int] | None = [] if record else None
        self.by_roll = [0] * (size + 1)  # the last slot is In Jail
        self.by_turn = [0] * (size + 1)
        self.reset_game()

    def reset_game(self) -> None:
        """Forget the positions of the game being read (keep the counts)."""
        self._position: list[int] = []
        self._jailed: list[bool] = []
        self._pending: int | None = None  # the player whose roll is not over yet

    def reset(self) -> None:
        """Forget everything: counts and positions."""
        self.by_roll = [0] * (self.size + 1)
        self.by_turn = [0] * (self.size + 1)
        if self.history is not None:
            self.history = []
        self.reset_game()

    def _where(self, player: int) -> int:
        return self.size if self._jailed[player] else self._position[player]

    def _end_roll(self) -> None:
        if self._pending is not None:
            slot = self._where(self._pending)
            self.by_roll[slot] += 1
            if self.history is not None:
                self.history.append(slot)
            self._pending = None

    def feed(self, events: Iterable[Event]) -> None:
        """Read more events of the current game, in order."""
        for event in events:
            kind = event.kind
            player = event.player
            if kind == "moved" and player is not None:
                self._position[player] = event.get("end")
            elif kind == "rolled" and player is not None:
                if "purpose" not in event.keys:  # a utility card's extra roll moves nobody
                    self._end_roll()
                    self._pending = player
            elif kind == "went_to_jail" and player is not None:
                self._jailed[player] = True
                if self.jail is not None:
                    self._position[player] = self.jail
            elif kind == "left_jail" and player is not None:
                self._jailed[player] = False
            elif kind == "placed" and player is not None:
                self._position[player] = event.get("position")
            elif kind == "turn_ended" and player is not None:
                self._end_roll()
                self.by_turn[self._where(player)] += 1
            elif kind == "game_over":
                self._end_roll()
            elif kind == "game_started":
                count = len(event.get("players"))
                self._position = [0] * count
                self._jailed = [False] * count
                self._pending = None

    def landings(self, per: Per = "roll", *, include_current: bool = True) -> Landings:
        """The counts so far. ``include_current`` also counts the roll in progress where its
        token stands now (what a live view shows right after a roll)."""
        if per not in ("roll", "turn"):
            raise ValueError(f"per is 'roll' or 'turn', not {per!r}")
        counts = list(self.by_roll if per == "roll" else self.by_turn)
        if per == "roll" and include_current and self._pending is not None:
            counts[self._where(self._pending)] += 1
        return Landings(tuple(counts[:-1]), counts[-1], per)


def count_landings(
    events: Sequence[Event], size: int, jail: int | None, per: Per = "roll"
) -> Landings:
    """Landings of one game's whole event list."""
    counter = LandingCounter(size, jail)
    counter.feed(events)
    return counter.landings(per)


__all__ = ["Landings", "LandingCounter", "count_landings"]
