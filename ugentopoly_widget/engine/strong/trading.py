"""Trades: answered and proposed by the valuation (strong.worth), never by list prices.

An offer is accepted when the bot's score (its worth against the table's) rises by a margin
with it: so a lot that completes another player's group goes only for what that group is
worth to them, cash they then lack for houses counted (BOTS.md §5.10), and a swap that
completes a group for each side is taken when the bot's group is worth more to it than the
other's is to them, by the same margin (an about even swap is offered, never taken).

Proposals, at most one a turn: for each lot that would complete a group of the bot's, held by
another player, a swap for a lot that completes one of theirs (the common human deal) or
cash. The bot first offers what its model of the partner (the same valuation, seen from their
side) says they gain from; if that is more than the deal is worth to the bot, it starts near
the list price and raises its offer turn by turn (a ladder of RUNGS offers) up to its own
limit, then waits COOL_ROUNDS rounds before asking again. An offer the calibrated model of the
chance to win (strong.winmodel: the worth and the valuation together) says lowers the bot's
chance is not made: the valuation alone, the same on both sides, let a leader climb to prices
that lose it the game. After twenty rounds without a new whole group the check stands down
(strong.bot.QUIET_ROUNDS): two bots that each refuse the other's terms would never end a game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .. import actions as A
from ..actions import Action
from ..legal import lots_one_short
from .why import Why
from .winmodel import offer_change
from .worth import Worth

if TYPE_CHECKING:
    from ..core import Engine

MARGIN: Final = 20.0  # a deal must raise the bot's score by this much
RUNGS: Final = 4
COOL_ROUNDS: Final = 6
OPENING: Final = 1.1  # the first offer for a lot the model says is not for sale: list x this
SWAP_SHARE: Final = 0.05  # see group_tolerance
PRICES_ROUNDS: Final = 4  # a deal's prices, once worked out, stand for this many rounds


class Position:
    """An ownership and cash, imagined: the engine's (:func:`position_of`), with a deal
    applied."""

    def __init__(self, owner: list[int], cash: list[int], cards: list[int]) -> None:
        self.owner = owner
        self.cash = cash
        self.cards = cards

    def copy(self) -> Position:
        return Position(list(self.owner), list(self.cash), list(self.cards))

    def deal(self, proposer: int, partner: int, give: A.TradeSide, get: A.TradeSide
             ) -> Position:
        """With a trade offer's two sides handed over."""
        out = self.swap(proposer, partner, give.properties, get.properties,
                        give.cash - get.cash)
        out.cards[proposer] += len(get.cards) - len(give.cards)
        out.cards[partner] += len(give.cards) - len(get.cards)
        return out

    def swap(self, proposer: int, partner: int, give: tuple[int, ...], get: tuple[int, ...],
             cash: int) -> Position:
        """With lots `give` to the partner, `get` to the proposer and `cash` from the
        proposer to the partner (negative: the other way). (No TradeSide made: the bot
        values many imagined deals, and an interpreted dataclass costs a microsecond.)"""
        out = self.copy()
        for pos in give:
            out.owner[pos] = partner
        for pos in get:
            out.owner[pos] = proposer
        out.cash[proposer] -= cash
        out.cash[partner] += cash
        return out


def position_of(e: Engine) -> Position:
    """The engine's ownership and cash now."""
    return Position(list(e.owner), [p.cash for p in e.players],
                    [len(p.jail_cards) for p in e.players])


def score(w: Worth, e: Engine, pos: Position, me: int) -> float:
    return w.score(w.values(e, pos.owner, pos.cash, pos.cards), me, e)


def completes(e: Engine, owner: list[int], player: int, pos: int) -> int:
    """The area index `pos` completes for `player` under `owner` (-1: none)."""
    ai = e.area_index[pos]
    if ai < 0:
        return -1
    for q in e.area_lot_list[ai]:
        if owner[q] != player:
            return -1
    return ai


def group_tolerance(w: Worth, ai: int) -> float:
    """How far below even a swap that completes group `ai` for a side may be when the bot
    proposes it between two players: a twentieth of what the group is worth built (two
    players who each complete a group trade on about even terms, as people do; with one
    valuation on both sides an exact even deal is never strictly good for both, where with
    more players a swap that completes a group each gains both against the rest). The bot's
    own answers ask its margin (see answer)."""
    return SWAP_SHARE * built_gain(w, ai) * w.active * w.horizon


def swap_groups(e: Engine, owner: list[int], offer: A.ProposeTrade) -> tuple[int, int]:
    """The groups the deal completes for its proposer and its partner (-1: none)."""
    mine = -1
    theirs = -1
    for pos in offer.get.properties:
        if mine < 0:
            mine = completes(e, owner, offer.player, pos)
    for pos in offer.give.properties:
        if theirs < 0:
            theirs = completes(e, owner, offer.partner, pos)
    return mine, theirs


def answer(w: Worth, e: Engine, me: int) -> tuple[Action, Why]:
    """Accept or reject the offer on the table (the bot is its partner)."""
    offer: A.ProposeTrade = e.decision.data["offer"]
    proposer = offer.player
    acts = e.acts[me]
    now = position_of(e)
    after = now.deal(proposer, me, offer.give, offer.get)
    if after.cash[me] < 0 or after.cash[proposer] < 0:
        return acts.reject, Why("reject_value", value=0.0)
    delta = score(w, e, after, me) - score(w, e, now, me)
    theirs, _ = swap_groups(e, after.owner, offer)
    # The margin for swaps too: a swap its proposer picked, about even by the valuation,
    # favours the proposer (taking such swaps within group_tolerance won the proposer 53 % of
    # strong-bot duels, benchmarks/duel_trades.py); the bot offers them, it does not take them.
    if delta >= MARGIN:
        for pos in offer.give.properties:
            ai = completes(e, after.owner, me, pos)
            if ai >= 0:
                return acts.accept, Why("accept_swap" if theirs >= 0 else "accept_completes",
                                        pos=pos, area=ai, value=delta, other=theirs,
                                        player=proposer)
        return acts.accept, Why("accept", value=delta)
    for pos in offer.get.properties:
        if e.area_index[pos] >= 0 and e.area_index[pos] in e.complete[me]:
            return acts.reject, Why("reject_breaks", pos=pos, area=e.area_index[pos])
    for pos in offer.get.properties:
        ai = completes(e, after.owner, proposer, pos)
        if ai >= 0:
            return acts.reject, Why("reject_completes", pos=pos, player=proposer, area=ai,
                                    value=built_gain(w, ai))
    return acts.reject, Why("reject_value", value=-delta)


def built_gain(w: Worth, ai: int) -> float:
    """What a completed group adds per opponent roll, built to its sweet spot (3 houses)."""
    f = w.f
    epr = f.area_epr[ai]
    level = f.sweet if f.sweet < len(epr) else len(epr) - 1
    return epr[level] - f.area_alone[ai]


class Deal:
    """Lots changing hands between a proposer and a partner, valued at any cash from the one
    to the other (negative: the other way); every player's worth kept per cash, so that both
    sides' limits share their valuations. A partner of -1 is the bank: the proposer buys
    `get` from it for the cash."""

    def __init__(self, w: Worth, e: Engine, base: Position, proposer: int, partner: int,
                 give: tuple[int, ...], get: tuple[int, ...]) -> None:
        self.w = w
        self.e = e
        self.base = base
        self.proposer = proposer
        self.partner = partner
        self.known: dict[int, list[float]] = {}
        owner = list(base.owner)  # the same lots change hands at every cash
        for q in give:
            owner[q] = partner
        for q in get:
            owner[q] = proposer
        self.owner = owner

    def values(self, cash: int) -> list[float]:
        known = self.known.get(cash)
        if known is None:
            money = list(self.base.cash)
            money[self.proposer] -= cash
            if self.partner >= 0:
                money[self.partner] += cash
            known = self.known[cash] = self.w.values(self.e, self.owner, money, self.base.cards)
        return known

    def score(self, cash: int, judge: int) -> float:
        return self.w.score(self.values(cash), judge, self.e)


def _cash_for(deal: Deal, judge: int, before: float, target: float, low: int, high: int
              ) -> int | None:
    """The cash from proposer to partner (negative: the other way), within [low, high], at
    which `judge`'s score change reaches `target`: the least such for the partner, the most
    for the proposer (the change is monotonic in the cash). None: not within the range.
    `before`: the judge's score without the deal."""

    def change(cash: int) -> float:
        return deal.score(cash, judge) - before

    rising = judge == deal.partner
    lo, hi = low, high
    at_lo = change(lo) - target
    at_hi = change(hi) - target
    if rising:
        if at_hi < 0.0:
            return None
        if at_lo >= 0.0:
            return lo
    else:
        if at_lo < 0.0:
            return None
        if at_hi >= 0.0:
            return hi
    # the change is close to linear in the cash (the houses it pays for bend it a little):
    # false-position steps, the root kept bracketed (Illinois: a side that stays has its
    # value halved, so that both sides close in), to a few score points
    side = 0
    for _ in range(6):
        if hi - lo <= 4:
            break
        mid = lo + int((hi - lo) * at_lo / (at_lo - at_hi))
        if mid <= lo:
            mid = lo + 1
        elif mid >= hi:
            mid = hi - 1
        at_mid = change(mid) - target
        if 0.0 <= at_mid < 5.0:
            return mid  # the target met, within 5 points of it
        if (at_mid >= 0.0) == rising:
            hi, at_hi = mid, at_mid
            if side == 1:
                at_lo *= 0.5
            side = 1
        else:
            lo, at_lo = mid, at_mid
            if side == -1:
                at_hi *= 0.5
            side = -1
    return hi if rising else lo


class Ladder:
    """The bot's offers so far: per (partner, lot wanted, lot given or -1) how many were made
    and when the last was, and the prices worked out for it (kept PRICES_ROUNDS rounds: the
    valuations are the costly part of a look)."""

    def __init__(self) -> None:
        self.made: dict[tuple[int, int, int], tuple[int, int]] = {}
        # key -> (ownership key, turn, fair cash or NO_CASH, start, top or NO_CASH, gain)
        self.prices: dict[tuple[int, int, int], tuple[int, int, int, int, int, float]] = {}
        self.idle = -1  # the ownership of the last look that found nothing
        self.idle_turn = -1

    def rung(self, key: tuple[int, int, int], turn: int) -> int:
        entry = self.made.get(key)
        if entry is None:
            return 0
        count, last = entry
        if count >= RUNGS:
            if turn - last < COOL_ROUNDS:
                return -1
            return 0
        return count

    def note(self, key: tuple[int, int, int], rung: int, turn: int) -> None:
        self.made[key] = (rung + 1, turn)

    def copy(self) -> Ladder:
        other = Ladder()
        other.made = dict(self.made)
        other.prices = dict(self.prices)
        other.idle, other.idle_turn = self.idle, self.idle_turn
        return other


NO_CASH: Final = -(1 << 40)


def propose(w: Worth, e: Engine, me: int, ladder: Ladder, check: bool = True
            ) -> tuple[Action | None, Why | None]:
    """One trade offer worth making now, or None. `check`: the offer must not lower the bot's
    modelled chance to win (strong.winmodel)."""
    wanted = lots_one_short(e, me)
    if not wanted:
        return None, None
    owned = 0
    for v in e._owned_version:
        owned += v
    turn = e.round  # the ladder counts rounds (a turn of every player)
    if owned == ladder.idle and turn - ladder.idle_turn < COOL_ROUNDS:
        return None, None  # nothing to offer last time, and nobody's lots changed since
    base = position_of(e)
    scores: dict[int, float] = {}
    best_cash = NO_CASH
    best_key = (0, 0, 0)
    best_rung = 0
    best_fair = False
    best_gain = 0.0
    for pos in wanted:
        holder = e.owner[pos]
        if holder < 0 or holder == me or e.players[holder].bankrupt or e.group_has_buildings(pos):
            continue
        # swaps (a lot of mine that completes one of their groups), then cash alone
        gives: list[int] = []
        for give_pos in lots_one_short(e, holder):
            if e.owner[give_pos] == me and not e.group_has_buildings(give_pos):
                gives.append(give_pos)
        gives.append(-1)
        for give_pos in gives:
            key = (holder, pos, give_pos)
            rung = ladder.rung(key, turn)
            if rung < 0:
                continue
            entry = ladder.prices.get(key)
            if entry is None or turn - entry[1] >= PRICES_ROUNDS:
                entry = _prices(w, e, base, me, holder, give_pos, pos, owned, scores)
                ladder.prices[key] = entry
            cash = _offer(e, me, holder, entry, rung)
            if cash == NO_CASH:
                continue
            fair = rung == 0 and entry[2] != NO_CASH
            gain = entry[5]
            if best_cash == NO_CASH or (fair, gain) > (best_fair, best_gain):
                best_cash, best_key, best_rung, best_fair, best_gain = cash, key, rung, fair, gain
    best: A.ProposeTrade | None = None
    if best_cash != NO_CASH:
        holder, pos, give_pos = best_key
        best = A.ProposeTrade(
            me, holder,
            A.TradeSide(properties=(give_pos,) if give_pos >= 0 else (), cash=max(best_cash, 0)),
            A.TradeSide(properties=(pos,), cash=max(-best_cash, 0)))
    if best is None or e.trade_problem(best) is not None:
        ladder.idle, ladder.idle_turn = owned, turn
        return None, None
    ladder.note(best_key, best_rung, turn)
    if check and offer_change(w, e, best, me) < 0.0:
        # the calibrated model of the chance to win says the deal costs the bot: not made
        # (this won 53.8 % of strong-bot duels, 86.9 % against the heuristic bot, 85.0 % before)
        return None, None
    holder, pos, give_pos = best_key
    ai = e.area_index[pos]
    if give_pos >= 0:
        return best, Why("offer_swap", pos=pos, player=holder, area=ai, other=give_pos,
                         amount=best.give.cash - best.get.cash, value=best_gain)
    return best, Why("offer_buy", pos=pos, player=holder, area=ai, amount=best.give.cash,
                     value=best_gain)


def _base_score(w: Worth, e: Engine, base: Position, who: int, scores: dict[int, float]
                ) -> float:
    known = scores.get(who)
    if known is None:
        known = scores[who] = score(w, e, base, who)
    return known


def _prices(w: Worth, e: Engine, base: Position, me: int, holder: int, give_pos: int,
            pos: int, owned: int, scores: dict[int, float]
            ) -> tuple[int, int, int, int, int, float]:
    """The prices of a deal for lot `pos` (for `give_pos` too, if not -1), as cash from the
    bot to the holder (negative: the other way): the fair one (NO_CASH: none), the ladder's
    start and top (NO_CASH: none), and the bot's gain at the first offer.

    A fair offer (the model's partner takes it) comes first: the least cash the partner
    takes (a swap within the partner's tolerance) where that still gains the bot its margin;
    between two players, where no deal can gain both sides (one valuation, seen from each
    side), a swap that completes a group for each is offered about even: midway between the
    two sides' limits, each within its tolerance. Otherwise a ladder from about the list price
    up to the most the deal is worth to the bot."""
    low = -e.players[holder].cash if give_pos >= 0 else 0
    high = e.players[me].cash
    give = (give_pos,) if give_pos >= 0 else ()
    deal = Deal(w, e, base, me, holder, give, (pos,))
    mine = _base_score(w, e, base, me, scores)
    theirs = _base_score(w, e, base, holder, scores)
    top = _cash_for(deal, me, mine, MARGIN, low, high)
    fair = NO_CASH
    their_floor = -group_tolerance(w, e.area_index[give_pos]) if give_pos >= 0 else MARGIN
    if top is not None:
        least = _cash_for(deal, holder, theirs, their_floor, low, top)
        if least is not None:
            fair = least
    if fair == NO_CASH and give_pos >= 0 and w.active == 2:
        loose = _cash_for(deal, me, mine, -group_tolerance(w, e.area_index[pos]), low, high)
        if loose is not None:
            least = _cash_for(deal, holder, theirs, their_floor, low, loose)
            if least is not None:
                fair = (least + loose) // 2
    listed = e.costs[pos] * OPENING - (e.costs[give_pos] if give_pos >= 0 else 0)
    start = int(listed) + 1
    if top is not None:
        if start > top:
            start = top
        if start < low:
            start = low
    first = fair if fair != NO_CASH else (start if top is not None else NO_CASH)
    gain = deal.score(first, me) - mine if first != NO_CASH else 0.0
    return (owned, e.round, fair, start, top if top is not None else NO_CASH, gain)


def _offer(e: Engine, me: int, holder: int, prices: tuple[int, int, int, int, int, float],
           rung: int) -> int:
    """The cash of this rung's offer from the prices (NO_CASH: none to make, or not
    affordable now)."""
    _, _, fair, start, top, _ = prices
    if rung == 0 and fair != NO_CASH:
        cash = fair
    elif top == NO_CASH:
        return NO_CASH
    else:
        cash = start + (top - start) * rung // (RUNGS - 1) if RUNGS > 1 else start
        if rung > 0 and cash == start + (top - start) * (rung - 1) // (RUNGS - 1):
            return NO_CASH  # the offer just refused again (no room between start and top)
    if cash > e.players[me].cash or -cash > e.players[holder].cash:
        return NO_CASH
    return cash
