"""Bots: see the game and its legal actions, return one action. Each has its own generator.

>>> from ugentopoly_widget.engine.game import Game
>>> game = Game("ugentopoly", players=2, seed=3)
>>> result = play_game(game, [RandomBot(seed=1), HeuristicBot(seed=2)])
>>> game.is_over
True
"""

from __future__ import annotations

import gc
import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar, Protocol

from mypy_extensions import mypyc_attr

from . import actions as A
from . import legal as rules_legal
from .actions import Action
from .errors import BotError
from .strong.bot import StrongBot

if TYPE_CHECKING:
    from .core import Engine
    from .game import Game

# While bots play, the cyclic garbage collector runs after this many new container objects
# instead of 700. Measured side by side (bench_engine.py --variants compiled,gc700): worth
# 1.2-3.6x when every event was an object (a 2,000-turn Ugentopoly game spent most of its time
# collecting); since events are kept compactly (EventLog) the difference is within noise, also
# beside a 2-million-object heap. Kept as a guard for bots that allocate more; restored after.
GC_YOUNG_THRESHOLD = 50_000


class FewerCollections:
    """``with FewerCollections(): ...`` runs the collector after ``GC_YOUNG_THRESHOLD`` new
    objects (a higher threshold already set is kept) and puts the old threshold back."""

    def __init__(self) -> None:
        self.saved = gc.get_threshold()

    def __enter__(self) -> None:
        self.saved = saved = gc.get_threshold()
        if saved[0] < GC_YOUNG_THRESHOLD:
            gc.set_threshold(GC_YOUNG_THRESHOLD, saved[1], saved[2])

    def __exit__(self, *exc: object) -> None:
        gc.set_threshold(*self.saved)


class Bot(Protocol):
    def choose(self, game: Game) -> Action: ...


@mypyc_attr(allow_interpreted_subclasses=True)  # users write their bots by subclassing these
class RandomBot:
    """Picks uniformly among the legal actions; bids a random amount in the legal range."""

    name: ClassVar[str] = "random"  # ClassVar: a class attribute in the compiled class too

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Action:
        engine = game._engine  # asked directly: the same answers as game.legal_actions()
        legal = engine.legal_actions()
        action = legal[int(self.rng.random() * len(legal))] if len(legal) > 1 else legal[0]
        if type(action) is A.Bid:
            decision = engine.decision
            low: int = decision.data["min_bid"]
            high = min(engine.players[action.player].cash, low + 200)
            return rules_legal.bid_action(engine, action.player, self.rng.randint(low, high))
        return action


@mypyc_attr(allow_interpreted_subclasses=True)
class HeuristicBot:
    """A sensible player: keeps a cash reserve, completes colour groups, builds, bids to value,
    raises money by selling and mortgaging the least useful things first.

    It asks the engine directly (owners, building levels, prices, the legal actions grouped by
    kind), which the engine answers from its own state without copies."""

    name: ClassVar[str] = "heuristic"

    def __init__(self, seed: int | None = None, reserve: int = 150) -> None:
        # Seeded on the first draw (only auction bids draw): seeding costs ~4 us a bot and
        # gives the same numbers later as now.
        self._seed = seed
        self._rng: random.Random | None = None
        self.reserve = reserve
        self._offered_turn = -1

    @property
    def rng(self) -> random.Random:
        rng = self._rng
        if rng is None:
            rng = self._rng = random.Random(self._seed)
        return rng

    def choose(self, game: Game) -> Action:
        return self._choose(game._engine)

    def _choose(self, e: Engine) -> Action:
        decision = e.decision
        kind = decision.kind
        i = decision.player
        assert i is not None, "no decision to take"
        me = e.players[i]
        acts = e.acts[i]
        # The common decisions are answered from the state, without listing the legal actions:
        # each choice below is listed exactly when its condition (that of
        # legal.compute_legal) holds, and where only one is listed it is the one returned.
        if kind == "turn" or kind == "post_roll":
            return self._manage(e, i, kind)
        if kind == "buy":
            # typed: the compiled code then reads and compares plain ints
            price: int = decision.data["price"]
            position: int = decision.data["position"]
            can_buy = me.cash >= e.costs[position]
            if can_buy and me.cash - price >= self._reserve(e):
                return acts.buy
            if can_buy and rules_legal.completes_group(e, i, position):
                return acts.buy
            return acts.decline
        if kind == "auction":
            min_bid: int = decision.data["min_bid"]
            return self._bid(e, i, me.cash >= min_bid)
        if kind == "tax":
            worth = e.net_worth(me)
            percent = decision.data["percent"] or 0
            choice = "percent" if worth * percent // 100 < decision.data["amount"] else "flat"
            return acts.tax_percent if choice == "percent" else acts.tax_flat
        if kind == "jail_fine":
            return acts.use_card  # both are always listed: the card first
        if kind == "trade":
            return self._answer_trade(e, i)
        if kind == "house_offer":
            pos: int = decision.data["position"]
            if (me.cash >= e.house_price(pos)
                    and me.cash - decision.data["price"] >= self._reserve(e)):
                return acts.build_at[pos]
            return acts.decline
        if kind == "debt":
            raise_by = rules_legal.debt_choice(e, me)  # what _raise_money picks, no list
            if raise_by is not None:
                return raise_by
        legal = e.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if kind == "mortgaged":
            if me.cash > 3 * self._reserve(e):
                return legal[0]  # the lift
            return legal[-1]  # keep
        if kind == "debt":
            return self._raise_money(e, i, rules_legal.grouped(e, legal))
        return legal[0]  # place_house: the first street offered

    # ---------------------------------------------------------------- helpers

    def _reserve(self, e: Engine) -> int:
        salary = e.board_salary
        return self.reserve * salary // 200 if salary else self.reserve

    def _value(self, e: Engine, player: int, position: int) -> int:
        cost = e.costs[position]
        return cost * 3 // 2 if rules_legal.completes_group(e, player, position) else cost

    def _bid(self, e: Engine, player: int, can_bid: bool) -> Action:
        decision = e.decision
        low: int = decision.data["min_bid"]
        pos: int | None = decision.data.get("position")
        cash = e.players[player].cash
        reserve = self._reserve(e)
        if decision.data.get("item") == "house" or pos is None:
            limit = cash - reserve
            worth = low + low // 2
        else:
            limit = cash - reserve // 2
            worth = self._value(e, player, pos)
        top = limit if limit < worth else worth  # min(), max(): builtin calls, not compiled
        if can_bid and low <= top:
            step = (top - low) // 4
            rng = self._rng  # self.rng, without the property's call once made
            amount = low + int((rng if rng is not None else self.rng).random() * (step or 1))
            return rules_legal.bid_action(e, player, amount if amount < cash else cash)
        return e.acts[player].pass_

    def _answer_trade(self, e: Engine, player: int) -> Action:
        offer = e.decision.data["offer"]
        gain = offer.give.cash + sum(self._value(e, player, q) for q in offer.give.properties)
        loss = offer.get.cash + sum(self._value(e, player, q) for q in offer.get.properties)
        for q in offer.get.properties:  # never break up a group of my own
            if e.tile_areas[q] is not None and rules_legal.owns_area_of(e, player, q):
                return e.acts[player].reject
        if gain >= loss * 11 // 10 and gain > 0:
            return e.acts[player].accept
        return e.acts[player].reject

    def _raise_money(self, e: Engine, player: int, by_type: dict[type[Action], list[Action]]
                     ) -> Action:
        for kind in (A.Sell, A.SellDown, A.Mortgage):
            options = by_type.get(kind)
            if options:
                if kind is A.Mortgage:
                    return rules_legal.least_useful_mortgage(e, player, options)
                return options[0]
        if A.DeclareBankruptcy in by_type:
            return by_type[A.DeclareBankruptcy][0]
        return next(iter(by_type.values()))[0]

    def _manage(self, e: Engine, player: int, kind: str) -> Action:
        """Own turn: asks the engine directly (no walk over the legal list), in the order of
        the choices below; each answer is one the legal list holds. Where that list has only
        the roll (or the end of the turn), every question below answers no and that is what
        comes back; the trade look, which changes the bot's state, is skipped then."""
        me = e.players[player]
        reserve = self._reserve(e)
        # (affordable_build's own first test, asked before the call: mostly no build to ask)
        if me.cash > reserve * 2 and e.complete[player]:
            best = rules_legal.affordable_build(e, me, reserve * 2)
            if best is not None:
                return best
        if me.cash > reserve * 4:
            lift = rules_legal.first_unmortgage(e, me)
            if lift is not None:
                return lift
        if (e.trading and self._offered_turn != e.turn_number
                and rules_legal.has_choices(e, player)):
            self._offered_turn = e.turn_number  # at most one look (and offer) per turn
            short = rules_legal.lots_one_short(e, player)
            offer = self._group_offer(e, player, short) if short else None
            if offer is not None:
                return offer
        acts = e.acts[player]
        if kind == "turn":
            if me.in_jail:  # the jail options of legal.compute_legal
                if me.jail_cards and not e.rx.jail_card_auto:
                    return acts.use_card
                fine = e.rx.jail_fine
                if fine is not None and me.cash >= fine and me.cash > reserve * 3:
                    return acts.pay_fine
            return acts.roll
        return acts.end_turn

    def _group_offer(self, e: Engine, player: int, short: list[int]) -> Action | None:
        """Offer cash for the one lot that would complete a colour group (`short`: the lot
        each group one short lacks, legal.lots_one_short)."""
        me = e.players[player]
        owners = e.owner
        for pos in short:
            holder = owners[pos]
            if holder < 0 or e.level[pos] or e.players[holder].bankrupt:
                continue
            price = e.costs[pos] * 3 // 2
            if me.cash - price < self._reserve(e):
                continue
            offer = A.ProposeTrade(player, holder, A.TradeSide(cash=price),
                                   A.TradeSide(properties=(pos,)))
            if e.trade_problem(offer) is None:
                return offer
        return None


BuiltinBot = RandomBot | HeuristicBot | StrongBot
BOTS: dict[str, type[RandomBot] | type[HeuristicBot] | type[StrongBot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "strong": StrongBot,
}


class WorthSampler:
    """Every player's valuation (``Game.valuations()``), as rows ``[turn, v0, v1, ...]``
    appended to `rows`, taken by play_game between two actions once the turn number reaches
    `next_turn`: then every `step` turns, the step doubling once the turn reaches
    ``step * per_doubling`` (so the sample turns stay multiples of every step before). Past
    `limit` rows the first is kept and the rest thinned by two. Compiled with the play loop: a
    sample is a few list reads, not a call into interpreted code (the widget's game-over
    chart samples a batch so, ~20 times in a classic game)."""

    def __init__(self, rows: list[list[int]], next_turn: int, step: int, per_doubling: int,
                 limit: int) -> None:
        self.rows = rows
        self.next_turn = next_turn
        self.step = step
        self.per_doubling = per_doubling
        self.limit = limit

    def take(self, e: Engine) -> None:
        turn: int = e.turn_number
        row = [turn]
        for p in e.players:
            row.append(e.valuation(p))
        rows = self.rows
        rows.append(row)
        if len(rows) > self.limit:
            kept = rows[2::2]
            del rows[1:]
            rows.extend(kept)
        step = self.step
        while turn >= step * self.per_doubling:
            step *= 2
        self.step = step
        self.next_turn = (turn // step + 1) * step


# The levels a class plays against, weakest first, each in a sentence a teacher can read out
# (the widget's seat menu and docs/bots.md use them). "rollout" lives in the analysis layer
# (ugentopoly_widget.rollouts.bot): named here so that every layer can list the levels.
LEVELS: dict[str, dict[str, str]] = {
    "random": {
        "en": "Random bot: makes any allowed move at random; it buys, bids and trades without "
              "a plan.",
        "nl": "Willekeurige bot: doet zomaar een toegelaten zet; hij koopt, biedt en ruilt "
              "zonder plan."},
    "heuristic": {
        "en": "Easy bot: follows rules of thumb (keep some cash, buy what you can afford, build "
              "on whole groups) but prices lots at their printed price, so you can talk it "
              "into selling you the lot you need.",
        "nl": "Makkelijke bot: volgt vuistregels (hou wat geld achter de hand, koop wat je kan "
              "betalen, bouw op volledige groepen) maar rekent met de gedrukte prijs, dus je "
              "praat hem het perceel dat je nodig hebt zo af."},
    "strong": {
        "en": "Strong bot: values each lot by the rent it earns and the rent it keeps from "
              "you, sells the lot that completes your group only for what the group is worth "
              "to you, builds the third house first and stays in jail late in the game.",
        "nl": "Sterke bot: weegt elk perceel af naar de huur die het opbrengt en de huur die "
              "het jou ontzegt, verkoopt het perceel dat jouw groep vervolledigt alleen voor "
              "wat die groep jou waard is, bouwt eerst het derde huis en blijft laat in het "
              "spel in de gevangenis."},
    "rollout": {
        "en": "Thinking bot: plays like the strong bot, but at the big decisions (buying, "
              "bidding, trading, jail) it plays each choice out in a few dozen quick games "
              "and takes the one that wins most often.",
        "nl": "Denkende bot: speelt zoals de sterke bot, maar bij de grote beslissingen "
              "(kopen, bieden, ruilen, gevangenis) speelt hij elke keuze uit in enkele "
              "tientallen snelle spelletjes en neemt de keuze die het vaakst wint."},
}


def make_bot(kind: str, seed: int | None = None) -> BuiltinBot:
    """One of the engine's bots by name (BotError for a name it does not know)."""
    try:
        return BOTS[kind](seed=seed)
    except (KeyError, TypeError):
        raise BotError(f"unknown bot {kind!r}; choose one of {sorted(BOTS)}") from None


def play_game(
    game: Game,
    bots: Sequence[Bot] | Mapping[int, Bot],
    *,
    max_actions: int = 1_000_000,
    until_turn: int | None = None,
    on_turn: Callable[[int], int] | None = None,
    on_turn_at: int = 0,
    sampler: WorthSampler | None = None,
) -> int:
    """Let bots take every decision until the game is over; returns the number of actions.

    With a mapping of seats to bots, play stops at the first decision of a seat it does not
    name (a person's); with ``until_turn``, once the game reaches that turn number.

    ``on_turn(turn)`` is called between two actions once the turn number reaches
    ``on_turn_at`` and returns the turn it is next called at (the widget samples net worth so,
    without stopping the play): where play with ``until_turn=on_turn_at`` would stop. It must
    not change the game. A ``sampler`` (see WorthSampler) samples net worth the same way
    without leaving compiled code.

    The built-in bots are trusted: their choices come from the engine's own answers, so they are
    applied without re-validation, and a seat whose only choice is to roll skips the bot. Any
    other bot (a subclass too) goes through the validated ``game.apply``. The garbage
    collector runs less often meanwhile (see ``GC_YOUNG_THRESHOLD``)."""
    seats = dict(enumerate(bots)) if isinstance(bots, Sequence) else dict(bots)
    with FewerCollections():
        return _play(game, seats, max_actions, until_turn, on_turn, on_turn_at, sampler)


def _play(game: Game, seats: dict[int, Bot], max_actions: int, until_turn: int | None,
          on_turn: Callable[[int], int] | None = None, on_turn_at: int = 0,
          sampler: WorthSampler | None = None) -> int:
    # By seat: what sits there (0 nobody, 1 a HeuristicBot, 2 a RandomBot, 3 another bot, 4 a
    # StrongBot) and the built-in bots, typed: their methods are called directly when compiled.
    size = max([*seats, -1]) + 1
    what = [0] * size
    heuristic: list[HeuristicBot | None] = [None] * size
    randoms: list[RandomBot | None] = [None] * size
    strong: list[StrongBot | None] = [None] * size
    for seat, bot in seats.items():
        if seat < 0:
            continue
        if type(bot) is HeuristicBot:
            what[seat] = 1
            heuristic[seat] = bot
        elif type(bot) is RandomBot:
            what[seat] = 2
            randoms[seat] = bot
        elif type(bot) is StrongBot:
            what[seat] = 4
            strong[seat] = bot
        else:
            what[seat] = 3
    timed = game._timed  # fixed for a game
    # The record's lists and the engine, read again after anything that may replace them (undo
    # or load in an untrusted bot or a listener); trusted bots change nothing but through
    # their action.
    actions, undoable, listeners = game._actions, game._undoable, game._listeners
    engine = game._engine
    count = 0
    while count < max_actions:
        if engine.over:
            break
        if on_turn is not None and engine.turn_number >= on_turn_at:
            on_turn_at = on_turn(engine.turn_number)
            # (read again, as after an untrusted bot: the hook is the caller's code)
            actions, undoable, listeners = game._actions, game._undoable, game._listeners
            engine = game._engine
            if engine.over:
                break
        if sampler is not None and engine.turn_number >= sampler.next_turn:
            sampler.take(engine)
        decision = engine.decision
        player = decision.player
        if player is None or (until_turn is not None and engine.turn_number >= until_turn):
            break
        seat = what[player] if player < size else 0  # (a decision's player is never < 0)
        if seat == 0:
            break
        if seat == 3:
            game.apply(seats[player].choose(game))
            actions, undoable, listeners = game._actions, game._undoable, game._listeners
            engine = game._engine
        else:
            kind = decision.kind
            if kind == "turn" and not engine.players[player].in_jail and (
                    not engine._manages or not engine.owned[player]):  # legal.rolls_only()
                action = engine.acts[player].roll
            elif seat == 1:
                known = heuristic[player]
                assert known is not None
                # its own turn asked straight away (what _choose does first; a call fewer)
                if kind == "post_roll" or kind == "turn":
                    action = known._manage(engine, player, kind)
                else:
                    action = known._choose(engine)
            elif seat == 4:
                wise = strong[player]
                assert wise is not None
                action = wise._choose(engine)
            else:
                chooser = randoms[player]
                assert chooser is not None
                action = chooser.choose(game)
            if timed or listeners:
                game._apply_valid(action)  # the clock, and views that follow the game
                actions, undoable, listeners = game._actions, game._undoable, game._listeners
                engine = game._engine
            else:  # what Game._apply_valid does, without its checks of the clock
                chance = engine.chance
                chance.used = False
                try:  # engine.apply_checked(action), inline (pure Python: a call per action)
                    engine.applied += 1
                    engine.decision = engine._flow_gen.send(action)
                    engine._legal = None
                    engine._legal_set = None
                except Exception:
                    game._rebuild(len(actions))  # as Game._apply_valid: state from before
                    raise
                actions.append(action)
                undoable.append(not chance.used)
        count += 1
    return count
