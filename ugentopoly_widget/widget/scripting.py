"""The widget's scripting methods: ``w.roll()``, ``w.buy()``, ``w.bid(120)``, ... apply an action
for whoever decides now (the board follows in every open view); ``w.apply(...)`` takes any
action, ``w.undo()`` takes the last decision back. A mixin of :class:`UgentopolyWidget`: with
no view at all, a script plays the same game a person clicks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..engine.actions import Action
from ..engine.errors import IllegalActionError

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.records.events import Event


class Scripting:
    """Actions from code, for whoever decides now."""

    if TYPE_CHECKING:  # provided by the widget
        @property
        def game(self) -> Game: ...
        def _schedule_bots(self, delay: float | None = None, *, force: bool = False) -> None: ...

    def apply(self, action: Action | Mapping[str, Any] | str) -> list[Event]:
        """Apply one action (an Action, its dict, or text such as ``"buy"`` / ``"1:bid 120"``).

        Text without a player (``"roll"``) is for whoever decides now. Illegal: raises, and the
        game is unchanged."""
        game = self.game
        if isinstance(action, str) and ":" not in action:
            player = game.decision.player
            if player is None:
                raise IllegalActionError("the game is over", phase="game_over")
            action = f"{player}:{action}"
        return game.apply(action)

    def _act(self, kind: str, **fields: Any) -> list[Event]:
        player = self.game.decision.player
        if player is None:
            raise IllegalActionError("the game is over: nobody decides", phase="game_over")
        return self.apply({"type": kind, "player": player, **fields})

    def roll(self) -> list[Event]:
        return self._act("roll")

    def buy(self) -> list[Event]:
        return self._act("buy")

    def decline(self) -> list[Event]:
        return self._act("decline")

    def bid(self, amount: int) -> list[Event]:
        return self._act("bid", amount=amount)

    def pass_(self) -> list[Event]:
        """Leave the auction."""
        return self._act("pass")

    pass_auction = pass_

    def end_turn(self) -> list[Event]:
        return self._act("end_turn")

    def pay_fine(self) -> list[Event]:
        return self._act("pay_fine")

    def use_card(self) -> list[Event]:
        return self._act("use_card")

    def choose_tax(self, choice: str) -> list[Event]:
        return self._act("tax", choice=choice)

    def build(self, position: int) -> list[Event]:
        return self._act("build", position=position)

    def sell(self, position: int) -> list[Event]:
        return self._act("sell", position=position)

    def mortgage(self, position: int) -> list[Event]:
        return self._act("mortgage", position=position)

    def unmortgage(self, position: int) -> list[Event]:
        return self._act("unmortgage", position=position)

    def lift(self, position: int) -> list[Event]:
        return self._act("lift", position=position)

    def keep(self, position: int) -> list[Event]:
        return self._act("keep", position=position)

    def place(self, position: int) -> list[Event]:
        return self._act("place", position=position)

    def sell_down(self, area: str, level: int) -> list[Event]:
        return self._act("sell_down", area=area, level=level)

    def propose_trade(self, partner: int, give: Mapping[str, Any] | None = None,
                      get: Mapping[str, Any] | None = None) -> list[Event]:
        """Offer a trade: ``give``/``get`` are ``{"properties": [...], "cash": n,
        "cards": [...]}`` (missing keys are empty)."""
        def side(value: Mapping[str, Any] | None) -> dict[str, Any]:
            value = value or {}
            return {"properties": list(value.get("properties", [])),
                    "cash": value.get("cash", 0), "cards": list(value.get("cards", []))}
        return self._act("propose_trade", partner=partner, give=side(give), get=side(get))

    def accept(self) -> list[Event]:
        return self._act("accept")

    def reject(self) -> list[Event]:
        return self._act("reject")

    def declare_bankruptcy(self) -> list[Event]:
        return self._act("bankrupt")

    def undo(self) -> None:
        """Take back the last decision (never across dice, cards or the clock). The state is
        published once (by the game's listener); a bot whose decision is back plays again."""
        self.game.undo()
        self._schedule_bots()

    def tick(self) -> list[Event]:
        """Check the clocks (turn timer, timed game); the view calls this when its timer ends.
        Nothing due: nothing is sent (Python also checks the timer itself on the kernel's
        loop, so a view whose clock runs ahead is corrected when the time is really up)."""
        return self.game.tick()


__all__ = ["Scripting"]
