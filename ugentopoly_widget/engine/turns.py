"""Turns: the dice, doubles, jail, moving and the passing of the turn."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from . import actions as A
from . import deals, endgame, landing
from .actions import Action
from .boards.board import Card
from .records.events import BANK, shape
from .state import JAIL_FINE, Decision, Flow, GameEnds, PlayerState

if TYPE_CHECKING:
    from .core import Engine

# The action classes, as C statics when compiled (A.Roll is a module attribute lookup).
ROLL_ACTION: Final = A.Roll
END_TURN_ACTION: Final = A.EndTurn
TIMER_ROLL_ACTION: Final = A.TimerRoll
PAY_FINE_ACTION: Final = A.PayFine
USE_JAIL_CARD_ACTION: Final = A.UseJailCard

DEED_DEALT: Final = shape("deed_dealt", "position", "payer", "payee", "amount")
TURN_ENDED: Final = shape("turn_ended")
TURN_STARTED: Final = shape("turn_started", "turn")
JAIL_TURN_SKIPPED: Final = shape("jail_turn_skipped")
LEFT_JAIL: Final = shape("left_jail", "how")
ROLLED: Final = shape("rolled", "dice", "total", "double")
ROLL_AGAIN: Final = shape("roll_again", "reason")
TIMER_RAN_OUT: Final = shape("timer_ran_out")
JAIL_CARD_USED: Final = shape("jail_card_used", "card")
STAYED_IN_JAIL: Final = shape("stayed_in_jail", "tries")
LEFT_PARK: Final = shape("left_park")
WENT_TO_JAIL: Final = shape("went_to_jail", "reason")
MOVED: Final = shape("moved", "start", "end", "steps", "via")
SALARY: Final = shape("salary", "payer", "payee", "amount", "landed")


def deal_deeds(e: Engine, count: int) -> None:
    deeds = list(e.board.property_positions)
    e.chance.shuffle(deeds)
    for p in e.players:
        dealt = 0
        while dealt < count and deeds:
            for k, pos in enumerate(deeds):
                if e.tiles[pos].cost <= p.cash:
                    deeds.pop(k)
                    break
            else:
                break  # nothing left that this player can pay for
            cost = e.tiles[pos].cost
            p.cash -= cost
            e.bank += cost
            e._set_owner(pos, p.index)
            dealt += 1
            e.events.add_at_pay(DEED_DEALT, p.index, pos, p.index, BANK, cost)


def after_turn(e: Engine, p: PlayerState) -> None:
    rules = e.rx
    e.events.add0(TURN_ENDED, p.index)
    if e.time_up:
        raise GameEnds("time_up")
    if rules.turn_limit is not None and e.turn_number >= rules.turn_limit:
        raise GameEnds("turn_limit")
    players = e.players
    n = len(players)
    nxt = e.current
    left = n  # the next seat still in (a while loop: no range object every turn)
    while left:
        nxt = (nxt + 1) % n
        if not players[nxt].bankrupt:
            break
        left -= 1
    # A round ends when play comes back to the player drawn to start (or would pass their
    # seat, when they are out): everyone still in has then had the same number of turns.
    first = e.first_player
    if (nxt - first) % n <= (e.current - first) % n:
        e.round += 1
        if rules.round_limit is not None and e.round > rules.round_limit:
            e.round -= 1
            raise GameEnds("round_limit")
    e.current = nxt


def turn(e: Engine, p: PlayerState) -> Flow:
    rules = e.rx
    e.turn_number += 1
    if e._timer_on:
        e.turn_started_at = e.clock()
    e.events.add_i(TURN_STARTED, p.index, e.turn_number)
    if p.jail_skip > 0:
        p.jail_skip -= 1
        e.events.add0(JAIL_TURN_SKIPPED, p.index)
        if p.jail_skip == 0:
            p.in_jail = False
            e.events.add_s(LEFT_JAIL, p.index, "served")
        return
    if p.in_jail and p.jail_cards and rules.jail_card_auto:
        use_jail_card(e, p)
    doubles = 0
    while True:
        e._rolled_doubles = False
        e._extra_roll = False
        action = yield e._turn_decisions[p.index]
        if type(action) is not ROLL_ACTION:
            yield from before_roll(e, p, action)
        dice = e.chance.dice(rules.dice_count, rules.dice_sides)
        if len(dice) == 2:
            a, b = dice
            total = a + b
            is_double = a == b
            p.last_roll = total
            e.events.add_roll2(ROLLED, p.index, a, b)  # the dice read as a list
        else:
            total = sum(dice)
            is_double = len(dice) >= 2 and min(dice) == max(dice)
            p.last_roll = total
            e.events.add_roll(ROLLED, p.index, dice, total, is_double)
        if p.in_jail:
            yield from jail_roll(e, p, total, is_double)
        else:
            if is_double and rules.doubles_roll_again:
                doubles += 1
                if rules.max_doubles is not None and doubles >= rules.max_doubles:
                    send_to_jail(e, p, "doubles")
                    break
                e._rolled_doubles = True
            move(e, p, total, True)  # (positional: a keyword costs the call ~40 % more)
            # most landings need nobody's decision: settled without a generator
            if not e._inert[p.position] and not landing.land_now(e, p):
                yield from landing.land_flow(e, p, 1, None)
        if p.in_jail or p.bankrupt or not (e._rolled_doubles or e._extra_roll):
            break
        e.events.add_s(ROLL_AGAIN, p.index, "double" if e._rolled_doubles else "card")
    if not rules.auto_end_turn:
        while True:
            action = yield e._post_roll_decisions[p.index]
            if type(action) is END_TURN_ACTION:
                return
            if not deals.manage_now(e, p, action):
                yield from deals.manage(e, p, action)


def before_roll(e: Engine, p: PlayerState, action: Action) -> Flow:
    """Handle what comes before the roll (jail options, management) until the roll."""
    while True:
        kind = type(action)
        if kind is ROLL_ACTION or kind is TIMER_ROLL_ACTION:
            if kind is TIMER_ROLL_ACTION:
                e.events.add0(TIMER_RAN_OUT, p.index)
            return
        if kind is PAY_FINE_ACTION:
            fine, payee = e.rx.jail_fine or 0, e._fee_payee()
            if not endgame.pay_now(e, p, payee, fine, endgame.FINE, None):
                yield from endgame.pay(e, p, payee, fine, "fine")
            release(e, p, "fine")
        elif kind is USE_JAIL_CARD_ACTION:
            use_jail_card(e, p)
        elif not deals.manage_now(e, p, action):
            yield from deals.manage(e, p, action)
        action = yield e._turn_decisions[p.index]


def release(e: Engine, p: PlayerState, how: str) -> None:
    p.in_jail = False
    p.jail_tries = 0
    e.events.add_s(LEFT_JAIL, p.index, how)


def use_jail_card(e: Engine, p: PlayerState) -> None:
    card = p.jail_cards.pop(0)
    e.events.add_s(JAIL_CARD_USED, p.index, card.id)
    return_card(e, card)
    release(e, p, "card")


def return_card(e: Engine, card: Card) -> None:
    deck = e.decks.get(card.deck)
    if deck is not None and e.board.decks[card.deck].draw == "cycle":
        deck.append(card)


def jail_roll(e: Engine, p: PlayerState, total: int, is_double: bool) -> Flow:
    rules = e.rx
    if is_double:
        release(e, p, "doubles")
        move(e, p, total, True)
        if not landing.land_now(e, p):
            yield from landing.land_flow(e, p, 1, None)
        return
    p.jail_tries += 1
    if rules.max_jail_turns is None or p.jail_tries < rules.max_jail_turns:
        e.events.add_i(STAYED_IN_JAIL, p.index, p.jail_tries)
        return
    if rules.jail_fine is not None:
        use_card = False
        if p.jail_cards:
            choice = yield Decision(JAIL_FINE, p.index, fine=rules.jail_fine)
            use_card = type(choice) is USE_JAIL_CARD_ACTION
        if use_card:
            use_jail_card(e, p)
        else:
            payee = e._fee_payee()
            if not endgame.pay_now(e, p, payee, rules.jail_fine, endgame.FINE, None):
                yield from endgame.pay(e, p, payee, rules.jail_fine, "fine")
            if p.bankrupt:
                return
            release(e, p, "fine")
    else:
        release(e, p, "released")
    move(e, p, total, True)
    if not landing.land_now(e, p):
        yield from landing.land_flow(e, p, 1, None)


def send_to_jail(e: Engine, p: PlayerState, reason: str) -> None:
    if e.jail is None:
        return
    if p.in_park:
        p.in_park = False
        e.events.add0(LEFT_PARK, p.index)
    p.position = e.jail
    p.in_jail = True
    p.jail_tries = 0
    p.jail_skip = e.rx.jail_skip_turns
    e._rolled_doubles = False
    e._extra_roll = False
    e.events.add_s(WENT_TO_JAIL, p.index, reason)


def move(e: Engine, p: PlayerState, steps: int, collect: bool, via: str = "dice") -> None:
    """Move `steps` on (collecting the salary past the start where `collect`), by `via`."""
    old = p.position
    target = old + steps
    new = target % e.size
    p.position = new
    if p.in_park and steps:
        p.in_park = False
        e.events.add0(LEFT_PARK, p.index)
    e.events.add_move(MOVED, p.index, old, new, steps, via)
    if collect and steps > 0 and target >= e.size:
        salary = e.salary
        landed = new == 0
        if landed:
            salary *= e.rx.land_on_start_multiplier
        p.cash += salary
        e.bank -= salary
        e.events.add_pay_b(SALARY, p.index, BANK, p.index, salary, landed)
