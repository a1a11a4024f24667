"""Auctions, buildings and mortgages (incl. the housing shortage), and trades."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from . import actions as A
from . import endgame
from .actions import Action
from .records.events import BANK, shape
from .state import AUCTION, MORTGAGED, PLACE_HOUSE, TRADE, Decision, Flow, PlayerState, interest

if TYPE_CHECKING:
    from .core import Engine

AUCTION_STARTED: Final = shape("auction_started", "position", "item", "bidders", "min_bid")
AUCTION_PASS: Final = shape("auction_pass", "auto")
BID: Final = shape("bid", "amount")
AUCTION_UNSOLD: Final = shape("auction_unsold", "position", "item")
AUCTION_WON: Final = shape("auction_won", "position", "item", "payer", "payee", "amount")
MORTGAGED_EVENT: Final = shape("mortgaged", "position", "payer", "payee", "amount")
BUILT: Final = shape("built", "position", "level", "hotel", "payer", "payee", "amount")
SOLD_BUILDING: Final = shape("sold_building", "position", "level", "payer", "payee", "amount")
HOUSING_SHORTAGE: Final = shape("housing_shortage", "houses_left", "wanted")
TRADE_OFFERED: Final = shape("trade_offered", "partner", "give", "get")
TRADE_REJECTED: Final = shape("trade_rejected", "proposer")
TRADE_ACCEPTED: Final = shape("trade_accepted", "proposer")
TRADE_CASH: Final = shape("trade_cash", "payer", "payee", "amount")
CARD_GIVEN: Final = shape("card_given", "to", "card")
PROPERTY_GIVEN: Final = shape("property_given", "to", "position")
UNMORTGAGED: Final = shape("unmortgaged", "position", "payer", "payee", "amount")


def auction(e: Engine, pos: int | None,
    after: int,
    *,
    min_bid: int = 1,
    bidders: list[int] | None = None,
    item: str = "property",
) -> Flow:
    """Auction `pos` (or a house); returns the winner's index or None."""
    n = len(e.players)
    if bidders is None:
        order = [(after + k) % n for k in range(1, n + 1)]
        bidders = [b for b in order if not e.players[b].bankrupt]
    e.events.add(AUCTION_STARTED, None, (pos, item, bidders, min_bid))
    live = list(bidders)
    high = 0
    leader: int | None = None
    k = 0
    while live:
        if leader is not None and live == [leader]:
            break
        k %= len(live)
        b = live[k]
        if b == leader:
            k += 1
            continue
        need = high + 1 if high >= min_bid else min_bid  # max(), without the builtin call
        bidder = e.players[b]
        if bidder.cash < need:
            live.pop(k)
            e.events.add_b(AUCTION_PASS, b, True)
            continue
        action = yield Decision(
            AUCTION,
            b,
            position=pos,
            item=item,
            high_bid=high,
            leader=leader,
            min_bid=need,
            bidders=list(live),
        )
        if isinstance(action, A.Bid):
            high = action.amount
            leader = b
            e.events.add_i(BID, b, high)
            k += 1
        else:
            live.pop(k)
            e.events.add_b(AUCTION_PASS, b, False)
    if leader is None:
        e.events.add(AUCTION_UNSOLD, None, (pos, item))
        return None
    winner = e.players[leader]
    winner.cash -= high
    e.bank += high
    e.events.add(AUCTION_WON, leader, (pos, item, leader, BANK, high))
    if pos is not None:
        e._set_owner(pos, leader)
    return leader


def manage(e: Engine, p: PlayerState, action: Action) -> Flow:
    """A management action (see :func:`manage_now` for the hot callers' fast path)."""
    if manage_now(e, p, action):
        return
    if isinstance(action, A.Build):  # in a housing shortage
        e.turn_started_at = e.clock()  # a building purchase resets the turn timer
        yield from house_auction(e, p, action.position)
    elif isinstance(action, A.ProposeTrade):
        yield from trade(e, p, action)
    else:  # pragma: no cover - check_legal lets nothing else through
        raise AssertionError(f"unexpected action {action}")


def manage_now(e: Engine, p: PlayerState, action: Action) -> bool:
    """Apply a management action that needs nobody's decision (most: a build, a sale, a
    mortgage), without a generator: True when done, False (nothing changed) for those that
    need the flow of :func:`manage` (a house in a housing shortage, a trade offer). Callers
    write ``if not manage_now(...): yield from manage(...)``."""
    kind = type(action)
    i = p.index
    if kind is A.Build and isinstance(action, A.Build):
        pos = action.position
        if e.level[pos] < e.hbh and housing_shortage(e):
            return False  # a house auction (before the clock is read: manage() reads it)
        e.turn_started_at = e.clock()  # a building purchase resets the turn timer
        build(e, p, pos, e.house_prices[pos])
    elif kind is A.Sell and isinstance(action, A.Sell):
        sell_level(e, p, action.position)
    elif kind is A.SellDown and isinstance(action, A.SellDown):
        for pos in e.area_lots[action.area]:
            while e.level[pos] > action.level:
                sell_level(e, p, pos, down_to=action.level)
    elif kind is A.Mortgage and isinstance(action, A.Mortgage):
        value = e.mortgage_values[action.position]
        e._set_mortgaged(action.position, True)
        p.cash += value
        e.bank -= value
        e.events.add_at_pay(MORTGAGED_EVENT, i, action.position, BANK, i, value)
    elif kind is A.Unmortgage and isinstance(action, A.Unmortgage):
        lift_mortgage(e, p, action.position)
    else:
        return False  # a trade offer (or what manage() refuses)
    return True


def build(e: Engine, p: PlayerState, pos: int, price: int) -> None:
    lv = e.level[pos] + 1
    e._set_level(pos, lv)
    if lv == e.hotel_level:
        if e.hotels_left is not None:
            e.hotels_left -= 1
        if e.houses_left is not None:
            e.houses_left += e.hbh
    elif e.houses_left is not None:
        e.houses_left -= 1
    p.cash -= price
    e.bank += price
    e.events.add_built(BUILT, p.index, pos, lv, lv == e.hotel_level, p.index, BANK, price)


def sell_level(e: Engine, p: PlayerState, pos: int, down_to: int | None = None) -> None:
    """Sell one level; a hotel sold with `down_to` drops straight to that level."""
    lv = e.level[pos]
    price = e.house_prices[pos] // 2
    if lv == e.hotel_level:
        new = e.hbh if down_to is None else down_to
        if e.hotels_left is not None:
            e.hotels_left += 1
        if e.houses_left is not None:
            e.houses_left -= new
    else:
        new = lv - 1
        if e.houses_left is not None:
            e.houses_left += 1
    refund = price * (lv - new)
    e._set_level(pos, new)
    p.cash += refund
    e.bank -= refund
    e.events.add_level_pay(SOLD_BUILDING, p.index, pos, new, BANK, p.index, refund)


def eligible_builders(e: Engine) -> list[int]:
    """Players who could buy a house (not a hotel) right now."""
    out = []
    for q in e.active_players():
        for pos in e.owned[q.index]:
            if e.level[pos] < e.hbh and e.can_build(q, pos):
                out.append(q.index)
                break
    return out


def housing_shortage(e: Engine) -> bool:
    if e.houses_left is None or e.houses_left >= len(e.players):
        return False  # never fewer houses than eligible builders: no need to count them
    eligible = eligible_builders(e)
    return len(eligible) >= 2 and e.houses_left < len(eligible)


def house_auction(e: Engine, p: PlayerState, pos: int) -> Flow:
    eligible = eligible_builders(e)
    n = len(e.players)
    order = sorted(eligible, key=lambda b: (b - p.index) % n)
    e.events.add(HOUSING_SHORTAGE, p.index, (e.houses_left, len(eligible)))
    winner = yield from auction(e,
        None, p.index - 1, min_bid=e.house_price(pos), bidders=order, item="house"
    )
    if winner is None:
        return
    w = e.players[winner]
    spots = [
        q
        for q in e.owned[winner]
        if e.level[q] < e.hbh and e.can_build(w, q, ignore_cash=True)
    ]
    if not spots:
        return
    if winner == p.index and pos in spots:
        chosen = pos
    elif len(spots) == 1:
        chosen = spots[0]
    else:
        action = yield Decision(PLACE_HOUSE, winner, positions=spots)
        chosen = action.position if isinstance(action, A.PlaceHouse) else spots[0]
    build(e, w, chosen, 0)


def trade(e: Engine, p: PlayerState, offer: A.ProposeTrade) -> Flow:
    e.turn_started_at = e.clock()  # an offered trade resets the turn timer
    e.events.add(
        TRADE_OFFERED, p.index, (offer.partner, offer.give.to_dict(), offer.get.to_dict())
    )
    answer = yield Decision(TRADE, offer.partner, offer=offer, proposer=p.index)
    if type(answer) is not A.AcceptTrade:
        e.events.add_i(TRADE_REJECTED, offer.partner, p.index)
        return
    e.events.add_i(TRADE_ACCEPTED, offer.partner, p.index)
    partner = e.players[offer.partner]
    received: list[tuple[PlayerState, int]] = []
    for side, giver, taker in ((offer.give, p, partner), (offer.get, partner, p)):
        if side.cash:
            giver.cash -= side.cash
            taker.cash += side.cash
            e.events.add_pay(TRADE_CASH, giver.index, giver.index, taker.index, side.cash)
        for card_id in side.cards:
            card = next(c for c in giver.jail_cards if c.id == card_id)
            giver.jail_cards.remove(card)
            taker.jail_cards.append(card)
            e.events.add(CARD_GIVEN, giver.index, (taker.index, card_id))
        for pos in side.properties:
            e._set_owner(pos, taker.index)
            e.events.add_ii(PROPERTY_GIVEN, giver.index, taker.index, pos)
            if e.mortgaged[pos]:
                received.append((taker, pos))
    for taker, pos in received:
        yield from receive_mortgaged(e, taker, pos)


def lift_mortgage(e: Engine, p: PlayerState, pos: int) -> None:
    """Pay the bank the mortgage value plus 10 % interest and lift the mortgage on `pos`."""
    value = e.mortgage_values[pos]
    cost = value + interest(value)
    e._set_mortgaged(pos, False)
    p.cash -= cost
    e.bank += cost
    e.events.add_at_pay(UNMORTGAGED, p.index, pos, p.index, BANK, cost)


def receive_mortgaged(e: Engine, taker: PlayerState, pos: int) -> Flow:
    if taker.bankrupt:
        return
    value = e.mortgage_values[pos]
    action = yield Decision(
        MORTGAGED, taker.index, position=pos, value=value, interest=interest(value)
    )
    if type(action) is A.LiftMortgage:
        lift_mortgage(e, taker, pos)
    else:
        yield from endgame.pay(e, taker, BANK, interest(value), "mortgage_interest", position=pos)
