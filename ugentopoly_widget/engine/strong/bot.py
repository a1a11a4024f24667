"""The strong bot: plays as a sensible person does, by what lots earn and deny.

Every decision that moves money or property is taken by the valuation of strong.worth (the
bot's worth against the table's, for the ownership and cash a choice leads to): buying,
bidding (up to where owning the lot stops being better than letting the strongest rival
have it: blocking included), trades (strong.trading), building and mortgages
(strong.building), raising money (strong.cash). Jail by phase: out early while lots are for
sale, in late when the board is built up (BOTS.md §1.4). Each decision leaves its reason in
``bot.why`` (strong.why); ``bot.explain(game)`` says it in words (strong.words).

It asks the engine directly, as the heuristic bot does, and only ever returns an action the
engine lists as legal (play_game applies the built-in bots' actions without checking again).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final

from mypy_extensions import mypyc_attr

from .. import actions as A
from ..actions import Action
from ..deals import housing_shortage
from ..legal import bid_action
from ..state import (
    AUCTION,
    BUY,
    DEBT,
    HOUSE_OFFER,
    JAIL_FINE,
    MORTGAGED,
    PLACE_HOUSE,
    POST_ROLL,
    TAX,
    TRADE,
    TURN,
)
from .building import best_build, best_lift, best_spot, funding_mortgage, rivals_can_build
from .cash import raise_money
from .odds import board_facts
from .trading import Deal, Ladder, Position, answer, completes, position_of, propose, score
from .why import Why
from .worth import Worth, rent_exposure

if TYPE_CHECKING:
    from ..core import Engine
    from ..game import Game

# Cash kept back, as a share of the highest rent the bot could have to pay next (where
# mortgages can pay the rest, BOTS.md §1.6: a small reserve wins), and its bounds (at a
# salary of 200; scaled with the board's salary). Without mortgages see reserve().
RESERVE_SHARE: Final = 0.5
RESERVE_LOW: Final = 50
RESERVE_HIGH: Final = 400
LIFT_MARGIN: Final = 150  # lift a mortgage only with this much to spare beyond the reserve
JAIL_DANGER: Final = 0.015  # expected rent per roll, as a share of cash, that keeps it in jail
RIVAL_DISCOUNT: Final = 0.8  # a lot declined goes to auction: the rival's price, as a share
# The most the bot bids for a lone lot (one that neither completes nor blocks a group), as a
# share of its list price. The valuation's limit (owning it against a rival owning it at the
# same price) counts cash at face value, while early on cash buys the next lots at list price:
# two strong bots took Illinois Avenue (listed at 240) to 1,240 at turn 2, and rollouts judged
# the winner ruined. A lot that completes or blocks a group keeps the valuation's limit: in
# two-player play denying a group is worth about what completing it is, and a fixed multiple
# there only made the analysis' rollout rival give up too early. Capping blockers at 1.6x and
# completers at 2.5x changed not one strong-vs-strong game against caps of 2.5x/2.5x or 10x/10x
# (1,500 of 3,000 and 1,000 of 2,000 games won, seeds 2000 on), nor the analysis' charges for
# the bots' own play (seeds 5, 7, 11); but with 1.6x the analysis called declining the last
# lot of one's orange group an inaccuracy of 3.3 points (the rival stopped bidding at 320 and
# the decliner won it back at 353), with 10x a blunder of 45.5.
AUCTION_CAP_VALUE: Final = 1.2
# Rounds without a new whole group after which the bot's trade offers are no longer checked by
# the model of the chance to win (strong.winmodel): with the check always on, 5 of 300
# strong-bot games had not ended at turn 1,500; with 20 rounds every one ended (mean 112
# turns, 97.5 before both trade changes) and the check kept its gain (benchmarks/duel_trades.py).
QUIET_ROUNDS: Final = 20


@mypyc_attr(allow_interpreted_subclasses=True)
class StrongBot:
    """``simulate(bots=["strong", "heuristic"])``, a widget seat ``"strong"``, the bots of the
    win-chance rollouts. ``bot.why`` is the reason of its last decision; ``bot.explain(game)``
    says in words what it would do now and why."""

    name: ClassVar[str] = "strong"

    def __init__(self, seed: int | None = None) -> None:
        self._seed = seed  # the strong bot draws nothing: kept for the bots' common signature
        self.why: Why | None = None
        self.ladder = Ladder()
        # (event index, reason) of each decision, when a caller keeps them (the widget's log)
        self.notes: list[tuple[int, Why]] | None = None
        self._worth: Worth | None = None
        self._facts_of: object = None
        self._looked_turn = -1
        self._shortage_turn = -1
        self._auction_key = (-1, -1, -1)
        self._auction_limit = 0
        self._auction_why = Why("auction_pass")
        self._exposure_key = (-1, -1, -1)
        self._exposure = (0.0, 0)
        # its trade offers checked by the model of the chance to win (strong.winmodel); off:
        # as until December 2026 (benchmarks/duel_trades.py measures the two side by side)
        self.check_offers = True
        # the whole groups each player held at the last look, and the round they changed: the
        # check stands down after QUIET_ROUNDS without a new group (else two bots that each
        # refuse the other's terms never trade, and a game without groups never ends)
        self._groups_key: tuple[int, ...] = ()
        self._groups_round = -1

    # ------------------------------------------------------------------ the entry points

    def choose(self, game: Game) -> Action:
        return self._choose(game._engine)

    def _choose(self, e: Engine) -> Action:
        action = self._decide(e)
        notes = self.notes
        if notes is not None and self.why is not None:
            notes.append((len(e.events), self.why))
        return action

    def decide(self, game: Game) -> tuple[Action, Why | None]:
        """The action the bot takes now and its reason (as choose(); for tests and words)."""
        action = self._choose(game._engine)
        return action, self.why

    def explain(self, game: Game, lang: str = "en") -> str:
        """What the bot would do now and why, in words (English or Dutch): "Bob rejects: New
        York Avenue completes Ann's orange group, worth about +46 per opponent roll to Ann."
        The game and the bot's own state (its trade offers so far) stay as they were."""
        from . import words  # (interpreted: words are not on the hot path)

        saved = (self.why, self.notes, self._looked_turn, self._shortage_turn,
                 self.ladder.copy(), self._auction_key, self._auction_limit)
        groups = (self._groups_key, self._groups_round)
        self.notes = None
        try:
            action = self._decide(game._engine)
            return words.explain(game, self.why, lang, action)
        finally:
            (self.why, self.notes, self._looked_turn, self._shortage_turn, self.ladder,
             self._auction_key, self._auction_limit) = saved
            self._groups_key, self._groups_round = groups

    def worth(self, e: Engine) -> Worth:
        """The valuation of this engine's board and rules, prepared for the decision."""
        w = self._worth
        key = (e.board, e.rules)
        if w is None or self._facts_of != key:
            w = self._worth = Worth(board_facts(e), e)
            self._facts_of = key
        w.prepare(e)
        return w

    # ------------------------------------------------------------------ decisions

    def _decide(self, e: Engine) -> Action:
        self.why = None
        d = e.decision
        kind = d.kind
        i = d.player
        assert i is not None, "no decision to take"
        acts = e.acts[i]
        if kind in (TURN, POST_ROLL):
            return self._manage(e, i, kind)
        if kind == TAX:
            me = e.players[i]
            percent: int = d.data["percent"] or 0
            amount: int = d.data["amount"]
            by_percent = e.net_worth(me) * percent // 100
            if by_percent < amount:
                self.why = Why("tax_percent", amount=by_percent, other=amount)
                return acts.tax_percent
            self.why = Why("tax_flat", amount=amount, other=by_percent)
            return acts.tax_flat
        if kind == JAIL_FINE:
            self.why = Why("jail_card_saves", amount=e.rx.jail_fine or 0)
            return acts.use_card
        w = self.worth(e)
        if kind == BUY:
            return self._buy(e, w, i)
        if kind == AUCTION:
            return self._bid(e, w, i)
        if kind == TRADE:
            action, why = answer(w, e, i)
            self.why = why
            return action
        if kind == HOUSE_OFFER:
            pos: int = d.data["position"]
            price: int = d.data["price"]
            keep = self.reserve(e, w, i)
            if e.players[i].cash - price >= keep:
                self.why = Why("build_offer", pos=pos, amount=price)
                return acts.build_at[pos]
            self.why = Why("keep_cash", pos=pos, amount=keep)
            return acts.decline
        if kind == MORTGAGED:
            pos = d.data["position"]
            cost: int = d.data["value"] + d.data["interest"]
            keep = self.reserve(e, w, i)
            cash = e.players[i].cash
            ai = e.area_index[pos]
            useful = ai >= 0 and ai in e.complete[i]
            if cash - cost >= keep and (useful or cash - cost >= 3 * keep):
                self.why = Why("lift_now", pos=pos, amount=cost)
                return acts.lift[pos]
            self.why = Why("keep_mortgage", pos=pos, amount=d.data["interest"])
            return acts.keep[pos]
        if kind == DEBT:
            owed: int = d.data["amount"]
            if e.max_raisable(e.players[i]) < owed:
                self.why = Why("bankrupt", amount=owed)
                return acts.bankrupt
            action_, why_ = raise_money(w, e, i)
            if action_ is not None:
                self.why = why_
                return action_
        if kind == PLACE_HOUSE:
            spots: list[int] = d.data["positions"]
            spot = best_spot(w, e, i, spots)
            self.why = Why("place_house", pos=spot, area=e.area_index[spot])
            return acts.place[spot]
        return e.legal_actions()[0]

    def _manage(self, e: Engine, i: int, kind: str) -> Action:
        """Own turn: build, lift, trade, jail, then roll (or end the turn)."""
        me = e.players[i]
        acts = e.acts[i]
        in_jail = kind == TURN and me.in_jail
        if not e._manages and not in_jail:
            return acts.roll if kind == TURN else acts.end_turn
        w = self.worth(e)
        keep = self.reserve(e, w, i)
        if e.complete[i] and e.rx.buildings == "classic" and self._shortage_turn != e.turn_number:
            build, why = best_build(w, e, i, keep)
            if build is not None:
                if housing_shortage(e):
                    self._shortage_turn = e.turn_number  # one house auction a turn
                self.why = why
                return build
            held = why
            fund, why = funding_mortgage(w, e, i, keep)
            if fund is not None:
                self.why = why
                return fund
            if held is not None:
                self.why = held
        lift, why = best_lift(w, e, i, keep + LIFT_MARGIN)
        if lift is not None:
            self.why = why
            return lift
        if e.trading and kind == TURN and self._looked_turn != e.turn_number:
            self._looked_turn = e.turn_number  # one look (and at most one offer) a turn
            offer, why = propose(w, e, i, self.ladder, self._checking(e))
            if offer is not None:
                self.why = why
                return offer
        if in_jail:
            return self._jail(e, w, i, keep)
        return acts.roll if kind == TURN else acts.end_turn

    def _checking(self, e: Engine) -> bool:
        """Whether this turn's trade offer is checked by the model of the chance to win."""
        if not self.check_offers:
            return False
        key = tuple([len(e.complete[p.index]) for p in e.players])
        if key != self._groups_key:
            self._groups_key = key
            self._groups_round = e.round
        return e.round - self._groups_round < QUIET_ROUNDS

    def _jail(self, e: Engine, w: Worth, i: int, keep: int) -> Action:
        """Leave early while lots are for sale and the board is cheap to cross; stay (roll
        for doubles) once everything is owned or the rents in reach are high."""
        me = e.players[i]
        acts = e.acts[i]
        rx = e.rx
        can_card = bool(me.jail_cards) and not rx.jail_card_auto
        fine = rx.jail_fine
        can_pay = fine is not None and me.cash >= fine
        if not can_card and not can_pay:
            return acts.roll
        unowned = 0
        for pos in w.f.properties:
            if e.owner[pos] < 0:
                unowned += 1
        danger, _ = self.exposure(e, w, i)
        built_up = danger > JAIL_DANGER * max(me.cash, 1) + 2.0
        if unowned == 0 or built_up:
            self.why = Why("jail_stay", amount=unowned, value=danger)
            return acts.roll
        if can_card:
            self.why = Why("jail_leave_card", amount=unowned, value=danger)
            return acts.use_card
        if fine is not None and me.cash - fine >= keep:
            self.why = Why("jail_leave_pay", amount=unowned, value=danger, other=fine)
            return acts.pay_fine
        self.why = Why("jail_roll_cash", amount=keep)
        return acts.roll

    # ------------------------------------------------------------------ buying and bidding

    def _buy(self, e: Engine, w: Worth, i: int) -> Action:
        d = e.decision
        pos: int = d.data["position"]
        price: int = d.data["price"]
        me = e.players[i]
        acts = e.acts[i]
        now = position_of(e)
        base = score(w, e, now, i)
        mine = now.copy()
        mine.owner[pos] = i
        mine.cash[i] -= price
        gain = score(w, e, mine, i) - base
        rival, rival_score = self._rival(e, w, now, i, pos, price * RIVAL_DISCOUNT, None)
        worth_it = gain > 0.0 or (rival >= 0 and base + gain > rival_score)
        keep = self.reserve(e, w, i)
        why = self._lot_reason(e, i, pos, rival, gain, "buy")
        if not worth_it:
            self.why = Why("decline_value", pos=pos, value=gain, amount=price)
            return acts.decline
        if me.cash < price:
            # a valuable lot: mortgage a single lot to pay for it (the buy decision lists
            # the mortgages), else let it go to auction
            if e.rx.mortgages and why.code != "buy_value":
                fund, _ = raise_money(w, e, i)
                if fund is not None and type(fund) is A.Mortgage:
                    self.why = Why("mortgage_to_buy", pos=fund.position if isinstance(
                        fund, A.Mortgage) else -1, other=pos)
                    return fund
            self.why = Why("decline_cash", pos=pos, amount=price)
            return acts.decline
        if not e.rx.mortgages and me.cash - price < (keep if why.code.endswith("_value")
                                                      else keep // 2):
            # nothing to mortgage: a payment the cash cannot cover ends the game or the
            # player (a lot that completes or blocks a group may risk half the reserve)
            self.why = Why("keep_cash", pos=pos, amount=keep)
            return acts.decline
        self.why = why
        return acts.buy

    def _lot_reason(self, e: Engine, i: int, pos: int, rival: int, gain: float, verb: str
                    ) -> Why:
        owner = list(e.owner)
        owner[pos] = i
        ai = completes(e, owner, i, pos)
        if ai >= 0:
            return Why(verb + "_completes", pos=pos, area=ai, value=gain)
        ai = e.area_index[pos]
        if ai >= 0:
            # a lot that stops another player's group: they hold every other lot of it, or
            # hold some and nobody else does
            for p in e.players:
                j = p.index
                if j == i or p.bankrupt:
                    continue
                count = 0
                others = 0
                for q in e.area_lot_list[ai]:
                    if q == pos:
                        continue
                    if e.owner[q] == j:
                        count += 1
                    elif e.owner[q] >= 0:
                        others += 1
                if count > 0 and others == 0:
                    return Why(verb + "_blocks", pos=pos, player=j, area=ai, value=gain)
        return Why(verb + "_value", pos=pos, value=gain)

    def _rival(self, e: Engine, w: Worth, now: Position, me: int, pos: int, price: float,
               among: list[int] | None) -> tuple[int, float]:
        """The opponent whose owning `pos` at `price` is worst for the bot, and the bot's
        score then (-1 when nobody else can pay for it). Looked at: the opponents who hold a
        lot of its group (or a station of its kind), else the richest one."""
        worst = -1
        worst_score = 0.0
        f = w.f
        ai = f.area_of[pos]
        kin = (f.area_lots[ai] if ai >= 0
               else (f.railways if f.is_railway[pos] else f.utilities if f.is_utility[pos]
                     else []))
        interested: list[int] = []
        richest = -1
        for p in e.players:
            j = p.index
            if j == me or p.bankrupt or p.cash < price:
                continue
            if among is not None and j not in among:
                continue
            if richest < 0 or p.cash > e.players[richest].cash:
                richest = j
            for q in kin:
                if now.owner[q] == j:
                    interested.append(j)
                    break
        if not interested and richest >= 0:
            interested.append(richest)
        for j in interested:
            theirs = now.copy()
            theirs.owner[pos] = j
            theirs.cash[j] -= int(price)
            s = score(w, e, theirs, me)
            if worst < 0 or s < worst_score:
                worst, worst_score = j, s
        return worst, worst_score

    def _bid(self, e: Engine, w: Worth, i: int) -> Action:
        d = e.decision
        acts = e.acts[i]
        low: int = d.data["min_bid"]
        cash = e.players[i].cash
        pos: int | None = d.data["position"]
        if cash < low:
            return acts.pass_
        key = (e.turn_number, pos if pos is not None else -1, e.applied if pos is None else -2)
        if key != self._auction_key:
            self._auction_key = key
            if pos is None:
                self._auction_limit = self._house_limit(e, w, i, low)
                self._auction_why = Why("auction_house", amount=self._auction_limit)
            else:
                why = self._lot_reason(e, i, pos, -1, 0.0, "auction")
                limit = self._lot_limit(e, w, i, pos, d.data["bidders"])
                cap = self._lot_cap(e, pos, why.code)
                if cap >= 0 and limit > cap:
                    limit = cap
                # up to its mortgage value a lot costs nothing: mortgaged at once, it pays
                # the price back (the valuation, short of cash, would let it go for 1)
                floor = e.costs[pos] // 2 if e.rx.mortgages else 0
                self._auction_limit = limit if limit > floor else floor
                self._auction_why = why
            self._auction_why.amount = self._auction_limit
        limit = self._auction_limit
        if limit < low:
            self.why = Why("auction_pass", pos=pos if pos is not None else -1, amount=limit)
            return acts.pass_
        price = e.costs[pos] if pos is not None else low
        # a twentieth of the price, a tenth of the bid once that is more, and at once to half
        # the price (the mortgage value, which every bidder's limit reaches): three bidders
        # with a lot each of a bankrupt's seven to fight over used to take 480 bids
        jump = price // 20 if price >= 100 else 5
        if low // 10 > jump:
            jump = low // 10
        amount = low + jump
        if pos is not None and amount < price // 2:
            amount = price // 2
        # never more than wins outright: one above what the richest rival still bidding has
        # (a jump to half the price handed the lot over at 150 where 35 won it)
        top = 0
        for j in d.data["bidders"]:
            if j != i and e.players[j].cash > top:
                top = e.players[j].cash
        if amount > top + 1 and top + 1 >= low:
            amount = top + 1
        if amount > limit:
            amount = limit
        if amount > cash:
            amount = cash
        self.why = self._auction_why  # (worked out once an auction)
        return bid_action(e, i, amount)

    def _lot_limit(self, e: Engine, w: Worth, i: int, pos: int, bidders: list[int]) -> int:
        """The highest price at which owning `pos` is still better for the bot than the
        worst-placed rival bidder owning it at that price (or, with no rival who can pay,
        than the lot staying with the bank). The rival is the one whose owning it is worst for
        the bot at the lowest price; both sides' scores are near linear in the price, so the
        limit is where the two lines cross (checked once at that price)."""
        now = position_of(e)
        cash = e.players[i].cash
        low: int = e.decision.data["min_bid"]
        rival, _ = self._rival(e, w, now, i, pos, float(low), bidders)
        mine = Deal(w, e, now, i, -1, (), (pos,))  # the bot pays the bank the price
        theirs = Deal(w, e, now, rival, -1, (), (pos,)) if rival >= 0 else None
        stays = w.score(w.values(e, now.owner, now.cash, now.cards), i, e)

        def margin(price: int) -> float:
            other = theirs.score(price, i) if theirs is not None else stays
            return mine.score(price, i) - other

        at_low, at_high = margin(low), margin(cash)
        if at_high >= 0.0:
            return cash
        if at_low < 0.0:
            return -1
        guess = low + int((cash - low) * at_low / (at_low - at_high))
        if guess > low and margin(guess) < 0.0:
            # bent by the houses the cash would have paid for: back to where it holds
            at_guess = margin(guess)
            guess = low + int((guess - low) * at_low / (at_low - at_guess))
        return guess if guess >= low else low

    def _lot_cap(self, e: Engine, pos: int, code: str) -> int:
        """The most the bot pays for `pos` at auction, by what the lot does for it (the
        reason's code): a lone lot (``auction_value``) is capped, a lot that completes or
        blocks a group is not (-1: the valuation's limit stands)."""
        if code != "auction_value":
            return -1
        return int(e.costs[pos] * AUCTION_CAP_VALUE)

    def _house_limit(self, e: Engine, w: Worth, i: int, price: int) -> int:
        """A house at auction (a shortage): worth a premium where it pays, its price where it
        only keeps it from a rival."""
        keep = self.reserve(e, w, i)
        room = e.players[i].cash - keep
        wants = False
        for ai in e.complete[i]:
            lots = e.area_lot_list[ai]
            if any(e.mortgaged[q] for q in lots):
                continue
            total = 0
            for q in lots:
                total += e.level[q]
            if total < e.hbh * len(lots):
                wants = True
        limit = price * 3 // 2 if wants else (price if rivals_can_build(e, i) else -1)
        return limit if limit <= room else room

    # ------------------------------------------------------------------ money kept back

    def exposure(self, e: Engine, w: Worth, i: int) -> tuple[float, int]:
        """The rent per roll the bot can expect to pay and the highest single rent in its
        way (rounded), from the other players' holdings now."""
        versions = 0
        for v in e._holdings_version:
            versions += v
        key = (versions, e._stock_version, i)
        if key == self._exposure_key:
            return self._exposure
        self._exposure_key = key
        self._exposure = rent_exposure(e, w.f, i)
        return self._exposure

    def reserve(self, e: Engine, w: Worth, i: int) -> int:
        """Cash the bot keeps back."""
        expected, top = self.exposure(e, w, i)
        salary = e.salary if e.salary > 0 else 200
        if e.rx.mortgages:
            keep = int(RESERVE_SHARE * top)
            low = RESERVE_LOW * salary // 200
            high = RESERVE_HIGH * salary // 200
            return low if keep < low else (high if keep > high else keep)
        # nothing to mortgage: a payment the cash cannot cover ends the game or the player
        fixed = w.f.top_fixed
        keep = top if top > fixed else fixed
        # (where a player who cannot pay is out and the rest play on, as in the 22-cell
        # game, a quarter of it: houses there repay so fast that cash kept costs more)
        return keep if e.rx.debt_mode == "end_game" else keep // 4


BOT_NAME: Final = "strong"
__all__ = ["StrongBot", "Why"]
