"""Which decisions of a record are judged, and against what: the sensible choices of each
decision point (the choice made always among them).

Closed decisions (buy or decline, the tax, pay or use the card, accept or reject, lift or keep
a mortgage) are judged against every choice. Open-ended ones against a few candidates: an
auction bid against dropping out, the lowest bid and the strong bot's bid; raising cash
against the bot's way and two more; building, mortgaging and trade offers (choices made
between rolls) against the bot's choice and simply going on (roll, or end the turn). A turn
in which the player simply rolled or ended the turn where the bot would too is no decision
point: the bot agrees and nothing else was tried.
"""

from __future__ import annotations

from collections.abc import Callable

from ...engine import actions as A
from ...engine import state as S
from ...engine.actions import Action
from ...engine.game import Game
from .results import DecisionKind

MANAGEMENT = (A.Build, A.Sell, A.SellDown, A.Mortgage, A.Unmortgage, A.ProposeTrade)
_KINDS: dict[type, DecisionKind] = {
    A.Build: "build", A.Sell: "build", A.SellDown: "build", A.PlaceHouse: "build",
    A.Mortgage: "raise_cash", A.Unmortgage: "other", A.ProposeTrade: "trade_offer",
}


def _unique(actions: list[Action | None], game: Game) -> list[Action]:
    out: list[Action] = []
    for action in actions:
        if action is not None and action not in out and game.is_legal(action):
            out.append(action)
    return out


def candidates(game: Game, made: Action, bot: Callable[[], Action]
               ) -> tuple[DecisionKind, list[Action], bool] | None:
    """(kind, choices, quiet) of the decision before `made`, or None when it is no decision
    point; `bot()` asks the strong bot (only where needed). `quiet`: the decider's bot makes
    no trade offer of its own for the rest of the turn in the rollouts (it might make the
    very offer compared)."""
    if made.player < 0:  # the clock's actions
        return None
    decision = game.decision
    kind = decision.kind
    legal = game.legal_actions()
    player = made.player
    if kind == S.BUY:
        return "buy", _unique([made, *[a for a in legal if isinstance(a, (A.Buy, A.Decline))]],
                              game), False
    if kind == S.AUCTION:
        low = decision.data.get("min_bid")
        lowest = A.Bid(player, low) if isinstance(low, int) else None
        return "auction", _unique([made, A.Pass(player), lowest, bot()], game), False
    if kind == S.TAX:
        return "tax", _unique([made, *legal], game), False
    if kind == S.JAIL_FINE:
        return "jail", _unique([made, *legal], game), False
    if kind == S.TRADE:
        return "trade_answer", _unique([made, *legal], game), False
    if kind == S.MORTGAGED:
        return "other", _unique([made, *legal], game), False
    if kind == S.DEBT:
        others = [a for a in legal if not isinstance(a, A.DeclareBankruptcy)][:2]
        return "raise_cash", _unique([made, bot(), *others], game), False
    if kind in (S.HOUSE_OFFER, S.PLACE_HOUSE):
        return "build", _unique([made, bot(), *legal[:3]], game), False
    if kind not in (S.TURN, S.POST_ROLL):
        return None
    jail = [a for a in legal if isinstance(a, (A.PayFine, A.UseJailCard))]
    if jail and not isinstance(made, MANAGEMENT):
        return "jail", _unique([made, A.Roll(player), *jail], game), False
    choice = bot()
    plain: Action = A.Roll(player) if kind == S.TURN else A.EndTurn(player)
    if not isinstance(made, MANAGEMENT) and choice == made:
        return None
    which = made if isinstance(made, MANAGEMENT) else choice
    return _KINDS.get(type(which), "other"), _unique([made, choice, plain], game), True


__all__ = ["candidates", "MANAGEMENT"]
