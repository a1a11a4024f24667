"""Why the strong bot took a decision: a code and the figures behind it, kept by the bot for
its last decision (cheap: no words while it plays); ``strong.words`` puts it in English or
Dutch."""

from __future__ import annotations


class Why:
    """The reason of one decision. `code` names the rule (see strong.words.PHRASES); the rest
    are its figures: a tile, a player, a colour group (area index), an amount, a value."""

    def __init__(self, code: str, pos: int = -1, player: int = -1, area: int = -1,
                 amount: int = 0, value: float = 0.0, other: int = -1) -> None:
        self.code = code
        self.pos = pos
        self.player = player
        self.area = area
        self.amount = amount
        self.value = value
        self.other = other

    def __repr__(self) -> str:
        return (f"Why({self.code!r}, pos={self.pos}, player={self.player}, area={self.area}, "
                f"amount={self.amount}, value={self.value:.1f}, other={self.other})")
