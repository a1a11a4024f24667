"""The named errors of the probability layer: what the model cannot do, and why."""

from __future__ import annotations

from ..engine.errors import UgentopolyError


class ProbabilityError(UgentopolyError, ValueError):
    """The probability model cannot be built for this board, rules or options."""


class DiceError(ProbabilityError):
    """Dice options out of the range the engine plays (1-3 dice of 2-20 sides)."""


class MissingJailError(ProbabilityError):
    """Something sends players to jail (a tile, a card, the third double) but the board has
    no JAIL tile to put them on."""


class UnsupportedCardError(ProbabilityError):
    """A card whose effect on the token the chain cannot model (an unknown kind, a target
    off the board, a deck that can move a token round for ever)."""


class CyclingDeckError(ProbabilityError):
    """``decks="strict"`` and a deck cycles: the chain models random draws only."""


class ChainTooLargeError(ProbabilityError):
    """The exact chain of this board has more states than it is built for (``states``,
    ``limit``); :func:`~ugentopoly_widget.probability.simulate_landings` estimates any size."""

    def __init__(self, states: int, limit: int, tiles: int, *, about: bool = False) -> None:
        self.states, self.limit, self.tiles = states, limit, tiles
        count = f"about {states:,}" if about else f"more than {limit:,}"
        super().__init__(
            f"the exact chain of this board ({tiles:,} tiles) has {count} states; the limit "
            f"is {limit:,} (simulate_landings estimates the shares of a board of any size)")


class ArgumentError(ProbabilityError, TypeError):
    """An argument of the wrong type or out of range (a ValueError and a TypeError, so both
    ways of catching it work)."""


class MissingSciPyError(ProbabilityError, ImportError):
    """A large chain is solved with scipy.sparse, and scipy is not installed."""


__all__ = [
    "ProbabilityError", "DiceError", "MissingJailError", "UnsupportedCardError",
    "CyclingDeckError", "ChainTooLargeError", "ArgumentError", "MissingSciPyError",
]
