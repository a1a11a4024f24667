"""What both environments show of their match (a mixin of classes with other bases: AECEnv,
gymnasium.Env). Not compiled, unlike match.py: mypyc's classes cannot be mixed in there."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..engine.game import Game
    from .match import Match


class MatchView:
    """What both environments show of their match: the game and the action names."""

    match: Match

    @property
    def game(self) -> Game:
        """The engine game of the current episode (read it; act through step())."""
        return self.match.game

    @property
    def action_names(self) -> tuple[str, ...]:
        """The name of every action index (``"build:39"``, ``"trade_buy:39:x1.5"`` ...)."""
        return self.match.codec.names


__all__ = ["MatchView"]
