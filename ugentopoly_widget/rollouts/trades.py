"""``rate_trade()``: is this offer good for either side, and at what price would it be fair?

Both sides' chances to win with and without the deal (paired rollouts: the same seeds, the
partner made to accept), what the deal does to each side's expected rent per opponent roll
(the probability lab's long-run landing odds, ``probability.money``), how many opponent rolls
pay back its cash, and the cash that would make it even for the proposer, found by bisection
on the same seeds. Mortgaged lots (the receiver pays 10 % at once or lifts the mortgage; the
bots choose) and get-out-of-jail cards travel as the engine trades them.

>>> from ugentopoly_widget import Game
>>> from ugentopoly_widget.engine.actions import ProposeTrade, TradeSide
>>> game = Game.scenario("classic", players=["Ann", "Bob"], seed=2, current="Ann",
...                      owners={16: "Ann", 18: "Ann", 19: "Bob", 1: "Bob"})
>>> offer = ProposeTrade(0, 1, give=TradeSide(cash=300), get=TradeSide(properties=(19,)))
>>> rating = rate_trade(game, offer, rollouts=72, fair=False)
>>> rating.table.name.tolist(), bool(rating.table.rent_change[0] > 0)
(['Ann', 'Bob'], True)
>>> "orange" in rating.explain("en")
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..engine.actions import AcceptTrade, Action, ProposeTrade, TradeSide, action_from_dict
from ..engine.boards.board import TileKind
from ..engine.errors import InvalidActionError
from ..engine.game import Game
from ..engine.state import interest
from .errors import OfferError, RolloutError
from .runner import (
    DEFAULT_MAX_TURNS,
    AtCap,
    BotSpec,
    Outcomes,
    ProgressCallback,
    checked_request,
    is_bool,
)
from .slices import finish
from .stats import difference_interval, differences, mean, standard_error
from .words import points

if TYPE_CHECKING:  # the table only: the rating itself (the widget's Advice) needs no pandas
    import pandas as pd

# Expected rent per opponent roll by (position, level name): the probability lab's
# property_income (numpy), read once per rating; absent where numpy is (the browser site).
Income = dict[tuple[int, str], float]

DEFAULT_ROLLOUTS = 360
FAIR_STEPS = 8  # bisection steps: the price to within a 256th of the range (a few units)


# ------------------------------------------------------------------ the offer


def check_offer(game: Game, offer: Any) -> ProposeTrade:
    """A ProposeTrade (or its dict form) that is legal now; OfferError names why not."""
    if isinstance(offer, Mapping):
        data: dict[Any, Any] = {"type": "propose_trade"}
        data.update(offer)
        for key in ("give", "get"):  # a side names what it hands over; the rest is empty
            side = data.get(key, {})
            if isinstance(side, Mapping):
                data[key] = {"properties": [], "cash": 0, "cards": []}
                data[key].update(side)
        try:
            offer = action_from_dict(data)
        except InvalidActionError as exc:
            raise OfferError(f"not a trade offer: {exc}") from None
    if not isinstance(offer, ProposeTrade):
        raise OfferError(f"a trade offer is a ProposeTrade (or its dict), not {offer!r}")
    problem = game.trade_problem(offer)
    if problem is not None:
        raise OfferError(f"the offer is not legal now: {problem}")
    if not game.is_legal(offer):  # pragma: no cover - trade_problem says why first
        raise OfferError("the offer is not legal now")
    return offer


def with_net_cash(offer: ProposeTrade, net: int) -> ProposeTrade:
    """The offer with `net` cash going from the proposer to the partner (negative: back)."""
    give = TradeSide(offer.give.properties, max(net, 0), offer.give.cards)
    get = TradeSide(offer.get.properties, max(-net, 0), offer.get.cards)
    return ProposeTrade(offer.player, offer.partner, give=give, get=get)


# ------------------------------------------------------------------ money (the lab)


def _level_name(game: Game, pos: int, owner: Sequence[int], level: Sequence[int]) -> str:
    rules, board = game.rules, game.board
    tile = board.tiles[pos]
    who = owner[pos]
    if tile.kind is TileKind.RAILWAY or tile.kind is TileKind.UTILITY:
        same = board.positions_of(tile.kind)
        return f"{sum(1 for q in same if owner[q] == who)} owned"
    lv = level[pos]
    if rules.street_rent == "linear_houses":
        return "1 house" if lv == 1 else f"{lv} houses"
    if lv:
        if lv == game.hotel_level:
            return "hotel"
        return "1 house" if lv == 1 else f"{lv} houses"
    area = board.areas.get(tile.area or "")
    if area is not None and all(owner[q] == who for q in area.positions):
        return "group"
    return "single"


def holdings_rent(game: Game, income: Income, owner: Sequence[int],
                  mortgaged: Sequence[bool], player: int, only: int | None = None) -> float:
    """`player`'s expected rent per opponent roll with this ownership (buildings as now;
    mortgaged lots pay nothing); ``only``: of that one lot."""
    level = game.levels
    lookup = income
    total = 0.0
    for pos, who in enumerate(owner):
        if who != player or mortgaged[pos] or (only is not None and pos != only):
            continue
        total += lookup.get((pos, _level_name(game, pos, owner, level)), 0.0)
    return total


BUILT_HOUSES = 3  # "if built": three houses a lot, where classic rents jump (and pay back)


def built_rent(game: Game, income: Income, groups: Sequence[str]) -> tuple[float, int]:
    """The expected rent per opponent roll of whole `groups` with BUILT_HOUSES houses on every
    lot, and what those houses cost (classic buildings only: else (0, 0))."""
    if game.rules.buildings != "classic" or not groups:
        return 0.0, 0
    label = f"{BUILT_HOUSES} houses"
    rent, cost = 0.0, 0
    for aid in groups:
        for pos in game.board.areas[aid].positions:
            if (pos, label) in income:
                rent += income[pos, label]
                cost += BUILT_HOUSES * game.house_price(pos)
    return rent, cost


def _after(game: Game, offer: ProposeTrade) -> list[int]:
    owner = list(game.owners)
    for pos in offer.give.properties:
        owner[pos] = offer.partner
    for pos in offer.get.properties:
        owner[pos] = offer.player
    return owner


def _groups(game: Game, owner: Sequence[int], player: int) -> set[str]:
    return {aid for aid, area in game.board.areas.items()
            if area.positions and all(owner[q] == player for q in area.positions)}


# ------------------------------------------------------------------ the rating


@dataclass
class TradeRating:
    """The figures of a rated offer: ``sides`` (one row per side, plain data; ``table``: the
    same as a DataFrame), ``fair_cash`` (the net cash from proposer to partner at which the
    deal is even for the proposer; ``None`` when no cash in reach makes it even, see
    ``fair_note``), and :meth:`explain`."""

    game: Game = field(repr=False)
    offer: ProposeTrade
    sides: list[dict[str, Any]]
    fair_cash: int | None
    fair_note: str  # "even" | "gains_at_most" | "loses_at_least" | "not_asked"
    completes: dict[int, list[str]]
    breaks: dict[int, list[str]]
    mortgaged_received: dict[int, list[int]]
    rollouts: int
    seconds: float

    @property
    def table(self) -> pd.DataFrame:
        """``sides`` as a DataFrame (one row per side)."""
        import pandas as pd

        table: pd.DataFrame = pd.DataFrame(self.sides)
        return table

    def explain(self, lang: str = "en") -> str:
        """The rating in plain words (``"en"`` or ``"nl"``)."""
        return explanation(self, lang)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for a view (the trade dialog's advice)."""
        rows = [dict(row) for row in self.sides]
        return {"offer": self.offer.to_dict(), "sides": rows, "fair_cash": self.fair_cash,
                "fair_note": self.fair_note, "rollouts": self.rollouts,
                "text": {"en": self.explain("en"), "nl": self.explain("nl")}}


def _side_rows(game: Game, offer: ProposeTrade, outcomes: Outcomes, confidence: float,
               income: Income | None) -> list[dict[str, Any]]:
    rows = []
    owner_after = _after(game, offer)
    mortgaged = [game.is_mortgaged(q) for q in range(game.board.size)]
    for role, player, pays in (("proposer", offer.player, offer.give.cash - offer.get.cash),
                               ("partner", offer.partner, offer.get.cash - offer.give.cash)):
        without = outcomes.share(0, player)
        with_deal = outcomes.share(1, player)
        diff = differences(with_deal, without)
        delta = mean(diff)
        delta_se = standard_error(diff, outcomes.strata)
        low, high = difference_interval(delta, delta_se, confidence)
        received = offer.get.properties if role == "proposer" else offer.give.properties
        interest_due = sum(interest(game.board.tiles[q].mortgage) for q in received
                           if mortgaged[q])
        row: dict[str, Any] = {
            "role": role, "player": player, "name": game.players[player].name,
            "p_without": mean(without), "p_with": mean(with_deal),
            "delta": delta, "delta_se": delta_se, "delta_low": low, "delta_high": high,
            "cash_paid": pays, "interest_due": interest_due,
            "rent_before": math.nan, "rent_after": math.nan, "rent_change": math.nan,
            "payback_rolls": math.nan, "built_rent_change": math.nan,
            "built_payback_rolls": math.nan,
        }
        if income is not None:
            before = holdings_rent(game, income, game.owners, mortgaged, player)
            after = holdings_rent(game, income, owner_after, mortgaged, player)
            change = after - before
            cost = pays + interest_due
            row.update(rent_before=before, rent_after=after, rent_change=change,
                       payback_rolls=cost / change if change > 0 and cost > 0 else math.nan)
            new = sorted(_groups(game, owner_after, player) - _groups(game, game.owners, player))
            if new:
                # the completed groups built up: their unbuilt rent replaced by the built one
                plain = sum(holdings_rent(game, income, owner_after, mortgaged, player, only=q)
                            for aid in new for q in game.board.areas[aid].positions)
                rent, houses = built_rent(game, income, new)
                if houses:
                    gained = change - plain + rent
                    row.update(built_rent_change=gained,
                               built_payback_rolls=(max(cost, 0) + houses) / gained
                               if gained > 0 else math.nan)
        rows.append(row)
    return rows


def _income(game: Game) -> Income | None:
    """The expected rents of the board's lots, or None: a board the lab cannot model (e.g.
    its decks), or no numpy (the browser site): then the rating has no money rows."""
    from ..probability.errors import NUMPY_MODULES, ProbabilityError

    try:
        from ..probability.money import property_income
    except ModuleNotFoundError as exc:
        if exc.name in NUMPY_MODULES:
            return None
        raise
    try:
        income = property_income(game)
    except ProbabilityError:
        return None
    return {(int(pos), str(name)): float(rent) for pos, name, rent in zip(
        income.position.tolist(), income.level.tolist(), income.expected_rent.tolist(),
        strict=True)}


def rate_trade(
    game: Game,
    offer: ProposeTrade | Mapping[str, Any],
    *,
    rollouts: int = DEFAULT_ROLLOUTS,
    fair: bool = True,
    bots: BotSpec | Sequence[BotSpec] = "strong",
    seed: int = 0,
    max_turns: int = DEFAULT_MAX_TURNS,
    executor: Any = None,
    workers: int | None = None,
    at_cap: AtCap = "apart",
    confidence: float = 0.95,
    progress: ProgressCallback | None = None,
) -> TradeRating:
    """Rate a trade offer the deciding player could make now (see the module docstring).

    ``table`` has one row per side (``role`` proposer / partner): ``p_without``, ``p_with``,
    ``delta`` (paired, ``delta_se``, ``delta_low``, ``delta_high``), ``cash_paid`` (net, by
    that side), ``interest_due`` (10 % of a mortgaged lot received), ``rent_before``,
    ``rent_after``, ``rent_change`` (expected rent per opponent roll), ``payback_rolls``
    (opponent rolls for the rent gained to pay back the cash and interest). ``fair=True``
    also finds ``fair_cash`` by bisection (about eight more runs of `rollouts`). Bad input:
    :class:`OfferError` (an offer not legal now), :class:`RolloutError` (the rest)."""
    return finish(rating_steps(game, offer, rollouts=rollouts, fair=fair, bots=bots, seed=seed,
                               max_turns=max_turns, executor=executor, workers=workers,
                               at_cap=at_cap, confidence=confidence, progress=progress))


def rating_steps(game: Game, offer: ProposeTrade | Mapping[str, Any], *,
                 rollouts: int = DEFAULT_ROLLOUTS, fair: bool = True,
                 bots: BotSpec | Sequence[BotSpec] = "strong", seed: int = 0,
                 max_turns: int = DEFAULT_MAX_TURNS, executor: Any = None,
                 workers: int | None = None, at_cap: AtCap = "apart",
                 confidence: float = 0.95, progress: ProgressCallback | None = None,
                 step: int | None = None) -> Generator[None, None, TradeRating]:
    """:func:`rate_trade` as steps: a generator that yields after every few turns of play
    (the browser's slices: ``slices.Sliced``), telling ``progress`` every `step` rollouts
    (None: it yields after each run), and returns the rating."""
    request = checked_request(game, rollouts=rollouts, bots=bots, seed=seed,
                              max_turns=max_turns, at_cap=at_cap, confidence=confidence,
                              executor=executor, workers=workers, progress=progress)
    game = request.game
    offer = check_offer(game, offer)
    if not is_bool(fair):
        raise RolloutError(f"fair is True or False, not {fair!r}")
    accept = AcceptTrade(offer.partner)

    def run(variants: list[list[Action]]) -> Generator[None, None, Outcomes]:
        # (the proposer's bot makes no offer of its own in this turn: "without" is no deal)
        return request.run_steps(variants, quiet=(offer.player,), step=step)

    outcomes = yield from run([[], [offer, accept]])
    seconds = outcomes.seconds
    rows = _side_rows(game, offer, outcomes, request.confidence, _income(game))
    fair_cash: int | None = None
    note = "not_asked"
    if fair:
        fair_cash, note, spent = yield from _fair_cash(game, offer, outcomes, run)
        seconds += spent
    owner_after = _after(game, offer)
    completes, breaks, received = {}, {}, {}
    for player, got in ((offer.player, offer.get.properties),
                        (offer.partner, offer.give.properties)):
        before, after = _groups(game, game.owners, player), _groups(game, owner_after, player)
        completes[player] = sorted(after - before)
        breaks[player] = sorted(before - after)
        received[player] = [q for q in got if game.is_mortgaged(q)]
    return TradeRating(game, offer, rows, fair_cash, note, completes, breaks, received,
                       request.rollouts, seconds)


def _fair_cash(game: Game, offer: ProposeTrade, base: Outcomes,
               run: Callable[[list[list[Action]]], Generator[None, None, Outcomes]]
               ) -> Generator[None, None, tuple[int | None, str, float]]:
    """The net cash (proposer to partner) at which the proposer's gain is zero: bisection on
    the same seeds (each try is the deal at another price against the same "without")."""
    proposer, partner = game.players[offer.player], game.players[offer.partner]
    without = base.share(0, offer.player)
    spent = 0.0

    def gain(net: int) -> Generator[None, None, float]:
        nonlocal spent
        candidate = with_net_cash(offer, net)
        if candidate.give.is_empty() and candidate.get.is_empty():
            return 0.0  # a cash-only offer at no cash is no deal: the same as without, exactly
        out = yield from run([[candidate, AcceptTrade(offer.partner)]])
        spent += out.seconds
        return mean(differences(out.share(0, offer.player), without))

    low, high = -partner.cash, proposer.cash  # what each side could pay at most
    if (yield from gain(high)) > 0:
        return high, "gains_at_most", spent  # good even at every unit the proposer has
    if (yield from gain(low)) < 0:
        return low, "loses_at_least", spent  # bad even with all the partner's cash
    for _ in range(FAIR_STEPS):
        if high - low <= 1:
            break
        mid = (low + high) // 2
        if (yield from gain(mid)) > 0:
            low = mid
        else:
            high = mid
    return (low + high) // 2, "even", spent


# ------------------------------------------------------------------ words


WORDS = {
    "en": {
        "chance": "{name}: chance to win {before} → {after} ({swing}).",
        "completes": "{name} completes the {groups} group{s}",
        "breaks": "{name} breaks up the {groups} group{s}",
        "rent": "{sign}{rent:.0f} per opponent roll",
        "payback": "paid back in {rolls:.0f} opponent rolls",
        "built": "with {houses} houses on each lot {sign}{rent:.0f} per opponent roll, paid "
                 "back (houses included) in {rolls:.0f}",
        "gives_cash": "{name} gives up {cash} in cash",
        "gives": "{name} gives {things}",
        "mortgaged": "{name} receives {tiles} mortgaged: {interest} interest now, or lift it "
                     "for its value plus 10 %",
        "card": "a get-out-of-jail card",
        "cards": "{n} get-out-of-jail cards",
        "and": " and ",
        "even": "Even for {name} at {cash} in cash from {payer} to {payee}.",
        "gains_at_most": "{name} still gains when paying all {cash} in cash.",
        "loses_at_least": "{name} loses even with all {cash} of {partner}'s cash.",
        "rollouts": "({n} rollouts per side, ± one standard error.)",
    },
    "nl": {
        "chance": "{name}: winstkans {before} → {after} ({swing}).",
        "completes": "{name} vervolledigt de groep{s} {groups}",
        "breaks": "{name} breekt de groep{s} {groups}",
        "rent": "{sign}{rent:.0f} per worp van een tegenstander",
        "payback": "terugverdiend in {rolls:.0f} worpen van tegenstanders",
        "built": "met {houses} huizen op elk perceel {sign}{rent:.0f} per worp, terugverdiend "
                 "(huizen inbegrepen) in {rolls:.0f}",
        "gives_cash": "{name} geeft {cash} aan geld",
        "gives": "{name} geeft {things}",
        "mortgaged": "{name} krijgt {tiles} met hypotheek: nu {interest} interest, of de "
                     "hypotheek aflossen voor de waarde plus 10 %",
        "card": "een kaart 'verlaat de gevangenis'",
        "cards": "{n} kaarten 'verlaat de gevangenis'",
        "and": " en ",
        "even": "Eerlijk voor {name} bij {cash} aan geld van {payer} naar {payee}.",
        "gains_at_most": "{name} wint zelfs als die alle {cash} aan geld betaalt.",
        "loses_at_least": "{name} verliest zelfs met al het geld ({cash}) van {partner}.",
        "rollouts": "({n} simulaties per kant, ± één standaardfout.)",
    },
}


def _percent(p: float) -> str:
    return f"{round(100 * p)} %"


def explanation(rating: TradeRating, lang: str = "en") -> str:
    lang = lang if lang in WORDS else "en"
    w = WORDS[lang]
    game, offer = rating.game, rating.offer
    board = game.board
    parts: list[str] = []
    for row in rating.sides:
        player = int(row["player"])
        name = str(row["name"])
        gave = offer.give if row["role"] == "proposer" else offer.get
        bits: list[str] = []
        if rating.completes[player]:
            groups = rating.completes[player]
            bits.append(w["completes"].format(name=name, groups=", ".join(groups),
                                              s="s" if len(groups) > 1 and lang == "en"
                                              else "en" if len(groups) > 1 else ""))
        if rating.breaks[player]:
            groups = rating.breaks[player]
            bits.append(w["breaks"].format(name=name, groups=", ".join(groups),
                                           s="s" if len(groups) > 1 and lang == "en"
                                           else "en" if len(groups) > 1 else ""))
        rent = float(row["rent_change"])
        if math.isfinite(rent) and round(rent) != 0:
            money = w["rent"].format(sign="+" if rent > 0 else "−", rent=abs(rent))
            if math.isfinite(float(row["payback_rolls"])):
                money += ", " + w["payback"].format(rolls=float(row["payback_rolls"]))
            bits.append(money)
        built = float(row["built_rent_change"])
        if math.isfinite(built) and math.isfinite(float(row["built_payback_rolls"])):
            bits.append(w["built"].format(houses=BUILT_HOUSES, sign="+" if built > 0 else "−",
                                          rent=abs(built),
                                          rolls=float(row["built_payback_rolls"])))
        if gave.cash:
            bits.append(w["gives_cash"].format(name=name, cash=gave.cash))
        things = [board.tile_name(q, lang) for q in gave.properties]
        if gave.cards:
            things.append(w["card"] if len(gave.cards) == 1
                          else w["cards"].format(n=len(gave.cards)))
        if things:
            bits.append(w["gives"].format(name=name, things=", ".join(things)))
        if rating.mortgaged_received[player]:
            tiles = ", ".join(board.tile_name(q, lang)
                              for q in rating.mortgaged_received[player])
            bits.append(w["mortgaged"].format(name=name, tiles=tiles,
                                              interest=int(row["interest_due"])))
        swing = points(float(row["delta"]), float(row["delta_se"]), lang)
        line = w["chance"].format(name=name, before=_percent(float(row["p_without"])),
                                  after=_percent(float(row["p_with"])), swing=swing)
        if bits:
            line += " " + "; ".join(bits) + "."
        parts.append(line)
    proposer, partner = game.players[offer.player].name, game.players[offer.partner].name
    if rating.fair_cash is not None:
        cash = rating.fair_cash
        if rating.fair_note == "even":
            payer, payee = (proposer, partner) if cash >= 0 else (partner, proposer)
            parts.append(w["even"].format(name=proposer, cash=abs(cash), payer=payer,
                                          payee=payee))
        elif rating.fair_note == "gains_at_most":
            parts.append(w["gains_at_most"].format(name=proposer, cash=cash))
        else:
            parts.append(w["loses_at_least"].format(name=proposer, cash=-cash,
                                                    partner=partner))
    parts.append(w["rollouts"].format(n=rating.rollouts))
    return " ".join(parts)


__all__ = ["rate_trade", "rating_steps", "TradeRating", "check_offer", "with_net_cash",
           "holdings_rent"]
