"""Landing on a tile: buying, rent, taxes, the parking pot, and cards."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from . import actions as A
from . import deals, endgame, turns
from .boards.board import Card, CardKind, TileKind
from .records.events import BANK, POT, shape
from .state import BUY, HOUSE_OFFER, TAX, Decision, Flow, GameEnds, PlayerState

# Final: compiled, these are C statics; an enum member read off its class (TileKind.TAX) goes
# through the enum type's slow attribute hook on every landing.
STREET: Final = TileKind.STREET
RAILWAY: Final = TileKind.RAILWAY
UTILITY: Final = TileKind.UTILITY
TAX_TILE: Final = TileKind.TAX
CHANCE_TILE: Final = TileKind.CHANCE
CHEST_TILE: Final = TileKind.CHEST
JAIL_TILE: Final = TileKind.GO_TO_JAIL
PARKING_TILE: Final = TileKind.FREE_PARKING
KIND_JAIL: Final = CardKind.JAIL
KIND_MOVE: Final = CardKind.MOVE
KIND_MOVEREL: Final = CardKind.MOVEREL
KIND_MONEY: Final = CardKind.MONEY
KIND_PLAYERS_MONEY: Final = CardKind.PLAYERS_MONEY
KIND_GO_TO_JAIL: Final = CardKind.GO_TO_JAIL
KIND_NEAREST: Final = CardKind.NEAREST
KIND_REPAIRS: Final = CardKind.REPAIRS
KIND_ROLL_AGAIN: Final = CardKind.ROLL_AGAIN

if TYPE_CHECKING:
    from .core import Engine

ENTERED_PARK: Final = shape("entered_park")
POT_COLLECTED: Final = shape("pot_collected", "payer", "payee", "amount")
DECLINED: Final = shape("declined", "position")
DECLINED_POOR: Final = shape("declined", "position", "reason")
BOUGHT: Final = shape("bought", "position", "payer", "payee", "amount")
BUILT: Final = shape("built", "position", "level", "payer", "payee", "amount")
HOUSE_DECLINED: Final = shape("house_declined", "position")
NO_RENT: Final = shape("no_rent", "position", "owner", "reason")
UTILITY_ROLL: Final = shape("rolled", "dice", "total", "double", "purpose")
RENT: Final = shape("rent", "payer", "payee", "amount", "position")
CARD_CHAIN_STOPPED: Final = shape("card_chain_stopped", "cards")
CARD_DRAWN: Final = shape("card_drawn", "deck", "card")
JAIL_CARD_KEPT: Final = shape("jail_card_kept", "card")
CARD_MONEY: Final = shape("card_money", "payer", "payee", "amount", "card")

# Cards drawn in a row by one move (a card moves the token onto a deck tile, which draws again):
# a board file can make that chain endless (a "move 0" card, two decks sending to each other).
MAX_CARD_CHAIN = 10


def land_now(e: Engine, p: PlayerState, rent_multiplier: int = 1,
             dice_multiplier: int | None = None) -> bool:
    """Land where nobody has to decide (most landings), without a generator: True when done,
    False (nothing changed) when the landing needs the flow (:func:`land_flow`). Callers write
    ``if not land_now(...): yield from land_flow(...)``, with no wrapper generator: most
    landings then make no generator at all."""
    pos = p.position
    kind = e.kinds[pos]
    if kind is STREET or kind is RAILWAY or kind is UTILITY:
        owner = e.owner[pos]
        i = p.index
        if owner < 0:
            if p.cash < e.costs[pos] and not e.rx.mortgages:
                e.events.add(DECLINED_POOR, i, (pos, "cannot_afford"))
                return True
            return False
        if owner == i:
            return not _house_offered(e, pos)
        if e.mortgaged[pos]:
            e.events.add(NO_RENT, i, (pos, owner, "mortgaged"))
            return True
        landlord = e.players[owner]
        if landlord.in_park:
            e.events.add(NO_RENT, i, (pos, owner, "park"))
            return True
        if dice_multiplier is not None and kind is UTILITY:
            return False
        amount = e.rent(pos, p, rent_multiplier)
        if 0 < amount <= p.cash and not e.rx.end_when_money_reaches_zero:
            p.cash -= amount
            landlord.cash += amount
            e.events.add_pay_i(RENT, i, i, owner, amount, pos)
            return True
        return False
    if kind is TAX_TILE or kind is CHANCE_TILE or kind is CHEST_TILE:
        return False
    if kind is JAIL_TILE:
        turns.send_to_jail(e, p, "tile")
    elif kind is PARKING_TILE:
        if e.rx.parking == "car_park":
            p.in_park = True
            e.events.add0(ENTERED_PARK, p.index)
        elif e.rx.free_parking_pot and e.pot > 0:
            amount = e.pot
            e.pot = 0
            p.cash += amount
            e.events.add_pay(POT_COLLECTED, p.index, POT, p.index, amount)
    return True


def _house_offered(e: Engine, pos: int) -> bool:
    """22-cell: landing on your own street offers a house."""
    return (
        e.rx.offer_house_on_own_land
        and e.kinds[pos] is STREET
        and e.rx.buildings == "unlimited"
    )


def land_flow(e: Engine, p: PlayerState, rent_multiplier: int, dice_multiplier: int | None
) -> Flow:
    """The landings :func:`land_now` left: a decision, or a payment that may need one. A plain
    function handing back the tile's own flow: no generator layer of its own for every
    action sent to a landing's decisions to pass through."""
    kind = e.kinds[p.position]
    if kind is STREET or kind is RAILWAY or kind is UTILITY:
        return land_property(e, p, p.position, rent_multiplier, dice_multiplier)
    if kind is TAX_TILE:
        return land_tax(e, p, p.position)
    if kind is CHANCE_TILE or kind is CHEST_TILE:
        # the deck named as the tile kind (TileKind.CHANCE.value == "CHANCE"), without the
        # enum's slow .value
        return draw_card(e, p, "CHANCE" if kind is CHANCE_TILE else "CHEST")
    return _settled()


def _settled() -> Flow:
    """The flow of a landing with nothing left to do."""
    yield from ()


def land_property(
    e: Engine, p: PlayerState, pos: int, rent_multiplier: int, dice_multiplier: int | None
) -> Flow:
    """Buying, the 22-cell house offer, and rent that needs the dice or a payment flow (the
    cases land_now() does not settle)."""
    owner = e.owner[pos]
    i = p.index
    if owner < 0:
        cost = e.costs[pos]
        while True:
            action = yield Decision(BUY, i, position=pos, price=cost)
            kind = type(action)
            if kind is A.Buy:
                p.cash -= cost
                e.bank += cost
                e._set_owner(pos, i)
                e.events.add_at_pay(BOUGHT, i, pos, i, BANK, cost)
                if p.cash == 0 and e.rx.end_when_money_reaches_zero:
                    raise GameEnds("money_reached_zero")
                return
            if kind is A.Decline:
                e.events.add_i(DECLINED, i, pos)
                if e.rx.auction_on_decline:
                    yield from deals.auction(e, pos, i)
                return
            yield from deals.manage(e, p, action)
    if owner == i:
        price = e.house_price(pos)
        action = yield Decision(HOUSE_OFFER, i, position=pos, price=price)
        if type(action) is A.Build:
            p.cash -= price
            e.bank += price
            e._set_level(pos, e.level[pos] + 1)
            e.events.add_level_pay(BUILT, i, pos, e.level[pos], i, BANK, price)
        else:
            e.events.add_i(HOUSE_DECLINED, i, pos)
        return
    if dice_multiplier is not None and e.kinds[pos] is UTILITY:
        dice = e.chance.dice(e.rx.dice_count, e.rx.dice_sides)
        total = sum(dice)
        e.events.add(UTILITY_ROLL, i, (dice, total, False, "utility"))
        amount = total * dice_multiplier
    else:
        amount = e.rent(pos, p, rent_multiplier)
    if 0 < amount <= p.cash and not e.rx.end_when_money_reaches_zero:
        p.cash -= amount  # the common case, without the generator of _pay
        e.players[owner].cash += amount
        e.events.add_pay_i(RENT, i, i, owner, amount, pos)
    else:
        yield from endgame.pay(e, p, owner, amount, "rent", position=pos)


def land_tax(e: Engine, p: PlayerState, pos: int) -> Flow:
    tile = e.tiles[pos]
    choice = "flat"
    if e.rx.income_tax_choice and tile.percent is not None:
        action = yield Decision(
            TAX, p.index, position=pos, amount=tile.amount, percent=tile.percent
        )
        if isinstance(action, A.ChooseTax):
            choice = action.choice
    if choice == "percent":
        worth = e.net_worth(p)
        amount = worth * (tile.percent or 0) // 100
        yield from endgame.pay(e,
            p, e._fee_payee(), amount, "tax", position=pos, choice=choice, net_worth=worth
        )
    else:
        yield from endgame.pay(e,
            p, e._fee_payee(), tile.amount, "tax", position=pos, choice=choice
        )


def draw_card(e: Engine, p: PlayerState, deck_kind: str) -> Flow:
    deck = e.decks.get(deck_kind)
    if not deck:
        return
    if e._card_chain >= MAX_CARD_CHAIN:
        e.events.add_i(CARD_CHAIN_STOPPED, p.index, e._card_chain)
        return
    spec = e.board.decks[deck_kind]
    if spec.draw == "random":
        forced = e.chance.forced_draws.get(deck_kind)
        if forced:
            wanted = forced.popleft()
            card = next(c for c in spec.cards if c.id == wanted)
        else:
            card = spec.cards[e.chance.below(len(spec.cards))]
    else:
        e.chance.used = True
        card = deck.popleft()
        if card.kind is not KIND_JAIL:
            deck.append(card)
    e.events.add_ss(CARD_DRAWN, p.index, deck_kind, card.id)
    e._card_chain += 1
    try:
        yield from card_effect(e, p, card)
    finally:
        e._card_chain -= 1


def card_effect(e: Engine, p: PlayerState, card: Card) -> Flow:
    kind = card.kind
    i = p.index
    if kind is KIND_JAIL:
        p.jail_cards.append(card)
        e.events.add_s(JAIL_CARD_KEPT, i, card.id)
    elif kind is KIND_MOVE:
        if card.position == e.jail and e.rx.card_move_to_jail_tile_jails:
            turns.send_to_jail(e, p, "card")
            return
        steps = (card.position - p.position) % e.size
        turns.move(e, p, steps, card.collect, "card")
        if not land_now(e, p):
            yield from land_flow(e, p, 1, None)
    elif kind is KIND_MOVEREL:
        turns.move(e, p, card.relative, card.relative > 0, "card")
        if not land_now(e, p):
            yield from land_flow(e, p, 1, None)
    elif kind is KIND_MONEY:
        if card.amount >= 0:
            p.cash += card.amount
            e.bank -= card.amount
            e.events.add_pay_s(CARD_MONEY, i, BANK, i, card.amount, card.id)
        else:
            payee = e._fee_payee()
            if not endgame.pay_now(e, p, payee, -card.amount, endgame.CARD_MONEY, card.id):
                yield from endgame.pay(e, p, payee, -card.amount, "card_money", card=card.id)
    elif kind is KIND_PLAYERS_MONEY:
        others = [q for q in e.players if q.index != i and not q.bankrupt]
        n = len(e.players)
        others.sort(key=lambda q: (q.index - i) % n)
        for other in others:
            if card.amount >= 0:
                if not other.bankrupt and not endgame.pay_now(
                    e, other, i, card.amount, endgame.PLAYERS_MONEY, card.id
                ):
                    yield from endgame.pay(e, other, i, card.amount, "players_money", card=card.id)
            else:
                if p.bankrupt:
                    break
                if not endgame.pay_now(
                    e, p, other.index, -card.amount, endgame.PLAYERS_MONEY, card.id
                ):
                    yield from endgame.pay(e,
                        p, other.index, -card.amount, "players_money", card=card.id
                    )
    elif kind is KIND_GO_TO_JAIL:
        turns.send_to_jail(e, p, "card")
    elif kind is KIND_NEAREST:
        target = nearest(e, p.position, card.target)
        if target is None:
            return
        steps = (target - p.position) % e.size or e.size
        turns.move(e, p, steps, card.collect, "card")
        if not land_now(e, p, card.rent_multiplier, card.dice_multiplier):
            yield from land_flow(e, p, card.rent_multiplier, card.dice_multiplier)
    elif kind is KIND_REPAIRS:
        houses = hotels = 0
        for pos in e.owned[i]:
            if e.level[pos]:
                if e.level[pos] == e.hotel_level and e.rx.buildings == "classic":
                    hotels += 1
                else:
                    houses += e.level[pos]
        amount = houses * card.house + hotels * card.hotel
        if amount:
            yield from endgame.pay(e,
                p,
                e._fee_payee(),
                amount,
                "repairs",
                card=card.id,
                houses=houses,
                hotels=hotels,
            )
    elif kind is KIND_ROLL_AGAIN:
        e._extra_roll = True


def nearest(e: Engine, start: int, kind: TileKind | None) -> int | None:
    for step in range(1, e.size + 1):
        pos = (start + step) % e.size
        if e.kinds[pos] is kind:
            return pos
    return None
