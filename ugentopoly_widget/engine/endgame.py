"""Paying (and the debt rules), bankruptcy and the end of the game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from . import actions as A
from . import deals, turns
from .records.events import BANK, Party, shape
from .state import DEBT, Decision, Flow, GameEnds, PlayerOut, PlayerState

if TYPE_CHECKING:
    from .core import Engine

DEBT_EVENT: Final = shape("debt", "creditor", "amount", "reason")
CANNOT_PAY: Final = shape("cannot_pay", "owed", "paid")
BANKRUPT: Final = shape("bankrupt", "creditor")
ASSETS_CASH: Final = shape("assets_cash", "payer", "payee", "amount")
CARD_GIVEN: Final = shape("card_given", "to", "card")
PROPERTY_GIVEN: Final = shape("property_given", "to", "position")
PROPERTY_RETURNED: Final = shape("property_returned", "position")
GAME_OVER: Final = shape("game_over", "reason", "winners", "ranking", "scores", "rank_by")


# pay()'s events of these kinds, as record() makes them (the same shape numbers)
FINE: Final = shape("fine", "payer", "payee", "amount")
CARD_MONEY: Final = shape("card_money", "payer", "payee", "amount", "card")
PLAYERS_MONEY: Final = shape("players_money", "payer", "payee", "amount", "card")


def pay_now(e: Engine, p: PlayerState, payee: Party, amount: int, event: int, card: str | None
            ) -> bool:
    """pay() where it needs nobody's decision (most payments), without a generator or a dict:
    True when done, False (nothing changed) when the flow must ``yield from pay(...)``. `event`
    is pay()'s shape for the kind: FINE (no card), CARD_MONEY or PLAYERS_MONEY (a card)."""
    if amount <= 0:
        return True
    if p.cash < amount:
        return False
    p.cash -= amount
    e._credit(payee, amount)
    if card is None:
        e.events.add_pay(event, p.index, p.index, payee, amount)
    else:
        e.events.add_pay_s(event, p.index, p.index, payee, amount, card)
    if e.rx.end_when_money_reaches_zero and p.cash == 0:
        raise GameEnds("money_reached_zero")
    return True


def pay(e: Engine, p: PlayerState, payee: Party, amount: int, kind: str, **data: Any) -> Flow:
    """Pay in full, or handle the shortfall by the profile's debt rule."""
    if amount <= 0:
        return
    if p.cash >= amount:
        p.cash -= amount
        e._credit(payee, amount)
        e.events.record(kind, p.index, {"payer": p.index, "payee": payee, "amount": amount, **data})
        if e.rx.end_when_money_reaches_zero and p.cash == 0:
            raise GameEnds("money_reached_zero")
        return
    mode = e.rx.debt_mode
    if mode == "raise_then_bankrupt":
        e.events.add(DEBT_EVENT, p.index, (payee, amount, kind))
        while p.cash < amount:
            action = yield Decision(DEBT, p.index, amount=amount, creditor=payee, reason=kind)
            if type(action) is A.DeclareBankruptcy:
                yield from bankrupt(e, p, payee)
                return
            if not deals.manage_now(e, p, action):
                yield from deals.manage(e, p, action)
            if p.bankrupt:
                return
        yield from pay(e, p, payee, amount, kind, **data)
        return
    paid = p.cash
    p.cash = 0
    e._credit(payee, paid)
    e.events.record(
        kind, p.index, {"payer": p.index, "payee": payee, "amount": paid, "owed": amount, **data}
    )
    if mode == "end_game":
        e.events.add(CANNOT_PAY, p.index, (amount, paid))
        raise GameEnds("cannot_pay")
    yield from bankrupt(e, p, None)


def bankrupt(e: Engine, p: PlayerState, creditor: Party | None) -> Flow:
    """`p` is out. Classic: everything to the creditor; else properties go back unowned."""
    i = p.index
    for pos in e.owned[i]:
        if e.level[pos]:
            if e.rx.buildings == "classic":
                while e.level[pos]:
                    deals.sell_level(e, p, pos, down_to=0)
            else:
                e._set_level(pos, 0)
    p.bankrupt = True
    e.out_count += 1
    p.out_order = e.out_count
    e.events.add(BANKRUPT, i, (creditor,))
    if p.cash:
        to: Party = creditor if creditor is not None else BANK
        amount = p.cash
        e._transfer(i, to, amount)
        e.events.add_pay(ASSETS_CASH, i, i, to, amount)
    owned = list(e.owned[i])
    cards, p.jail_cards = p.jail_cards, []
    if isinstance(creditor, int):
        taker = e.players[creditor]
        for card in cards:
            taker.jail_cards.append(card)
            e.events.add(CARD_GIVEN, i, (creditor, card.id))
        for pos in owned:
            e._set_owner(pos, creditor)
            e.events.add(PROPERTY_GIVEN, i, (creditor, pos))
    else:
        for card in cards:
            turns.return_card(e, card)
        for pos in owned:
            e._set_owner(pos, -1)
            e._set_mortgaged(pos, False)
            e.events.add(PROPERTY_RETURNED, i, (pos,))
    check_end(e)
    if isinstance(creditor, int):
        for pos in owned:
            if e.mortgaged[pos]:
                yield from deals.receive_mortgaged(e, e.players[creditor], pos)
    elif e.rx.debt_mode == "raise_then_bankrupt":
        for pos in owned:
            if e.owner[pos] < 0:
                yield from deals.auction(e, pos, i)
    if i == e.current:
        raise PlayerOut()


def check_end(e: Engine) -> None:
    active = len(e.active_players())
    if active <= 1:
        raise GameEnds("last_player_standing")
    if e.rx.mode == "short":
        needed = 1 if len(e.players) == 2 else 2
        if e.out_count >= needed:
            raise GameEnds("short_game_bankruptcies")


def finish(e: Engine, reason: str) -> None:
    e.over = True
    e.over_reason = reason
    active = e.active_players()
    scores = {p.index: e.score(p) for p in active}
    ranked = sorted(active, key=lambda p: (-scores[p.index], p.index))
    out = sorted((p for p in e.players if p.bankrupt), key=lambda p: -p.out_order)
    e.ranking = [p.index for p in ranked] + [p.index for p in out]
    top = scores[ranked[0].index] if ranked else 0
    e.winners = [p.index for p in ranked if scores[p.index] == top]
    e.scores = [e.score(p) if not p.bankrupt else 0 for p in e.players]
    e.events.add(
        GAME_OVER, None, (reason, list(e.winners), list(e.ranking), list(e.scores), e.rx.rank_by)
    )
    # A finished game keeps its record and state, not what speeds up play: the events go to
    # their compact array, the per-game caches are dropped (undo refills them if it needs to).
    e.events.flush()
    e.forget_caches()
