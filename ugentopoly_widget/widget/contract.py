"""The contract between Python and the browser view, written once: every synced trait the view
reads or writes and every custom message in both directions, as typed Python definitions.

Why typed Python definitions (``TypedDict``) and not a hand-written JSON Schema: the payloads
are built in Python, so mypy (strict) checks the builders against these very types
(``board_data() -> BoardData``, ``state_snapshot() -> GameState``, ...) as they are written,
before any test runs; the JSON Schema (``contract.schema.json``, for tests and any other
client, e.g. a classroom server) and the TypeScript types of the view (``js/src/contract.ts``)
are generated from them by :mod:`ugentopoly_widget.widget.contract_export`, with no dependency
on either side. ``tests/test_contract.py`` validates every published payload against the
schema across seeded playouts, checks that every field the schema names was seen, and that the
generated files are up to date.

Conventions: ``NotRequired`` fields may be absent; ``X | None`` is JSON null; ``Empty`` is
``{}`` (a trait that is off); a dict with ``Literal`` keys has every one of them. Tuples are
JSON arrays of fixed length. Changing anything here changes the contract: run
``python -m ugentopoly_widget.widget.contract_export --write`` and the view's type check.
"""

from __future__ import annotations

import sys
import typing
from functools import cache
from typing import Annotated, Any, Literal, TypedDict

from ..engine.rules import Buildings, GameMode, StreetRent

if sys.version_info >= (3, 11):
    from typing import NotRequired
else:  # pragma: no cover - Python 3.10 (anywidget depends on typing_extensions)
    from typing_extensions import NotRequired, TypedDict  # noqa: F811

class Doc(str):
    """A field's description (``Annotated[int, Doc("...")]``)."""


Lang = Literal["en", "nl"]
SeatKind = Literal["person", "random", "heuristic", "rollout"]
TileKindName = Literal["START", "STREET", "RAILWAY", "UTILITY", "TAX", "CHANCE", "CHEST",
                       "JAIL", "GO_TO_JAIL", "FREE_PARKING"]
Deck = Literal["CHANCE", "CHEST"]
HeatMode = Literal["exact", "observed", "difference", "next"]
JailStrategy = Literal["short", "long"]
Per = Literal["roll", "turn"]
LobbyFlag = Literal["free_parking_pot", "auction_on_decline", "income_tax_choice",
                    "doubles_roll_again", "jail_card_auto", "release_after_three_tries",
                    "card_move_to_jail_tile_jails", "end_when_money_reaches_zero",
                    "rank_by_net_worth"]


class Empty(TypedDict):
    """``{}``: a trait that is off (no error, no heat layer, no fan ...)."""


class Texts(TypedDict):
    """A text in both languages."""

    en: str
    nl: str


class SomeTexts(TypedDict, total=False):
    """A text in the languages it exists in."""

    en: str
    nl: str


# ---------------------------------------------------------------------------------- board_data


class Tile(TypedDict):
    """One tile of ``board_data.tiles`` (its index is its position)."""

    pos: int
    kind: TileKindName
    id: str
    name: Texts
    area: str | None
    colour: Annotated[str | None, Doc("the colour group's colour (#rrggbb)")]
    cost: int
    rents: list[int]
    mortgage: int
    breaks: NotRequired[Annotated[SomeTexts, Doc("the board file's break points: 'Nacht|win|kel'")]]
    lift_cost: NotRequired[Annotated[int, Doc("a property: mortgage + 10 % interest")]]
    house_price: NotRequired[Annotated[int, Doc("a street")]]
    sell_refund: NotRequired[Annotated[int, Doc("a street: half the house price")]]
    amount: NotRequired[Annotated[int, Doc("a tax: the fixed amount")]]
    percent: NotRequired[Annotated[int | None, Doc("a tax: the percentage alternative")]]


class Area(TypedDict):
    colour: str
    house_price: int | None
    positions: list[int]


class Card(TypedDict):
    deck: Deck
    en: str
    nl: str


class BoardRules(TypedDict):
    mode: GameMode
    trading: bool
    mortgages: bool
    buildings: Buildings
    street_rent: StreetRent
    turn_timer_seconds: float | None
    time_limit_minutes: float | None
    bank_houses: int | None
    bank_hotels: int | None


class BoardData(TypedDict):
    """The ``board_data`` trait: the board and its rules, sent once per game (widget/data.py)."""

    name: str
    titles: Annotated[Texts, Doc("the board's display name")]
    profile: str
    size: int
    salary: int
    tiles: list[Tile]
    areas: dict[str, Area]
    cards: Annotated[dict[str, Card], Doc("every card's text by its id, both languages")]
    hotel_level: int
    rules: BoardRules


# ---------------------------------------------------------------------------------- lobby


class LobbyProfile(TypedDict):
    name: str
    label: Texts
    min_players: int
    max_players: int
    starting_money: int
    mode: GameMode
    turn_timer_seconds: float | None
    time_limit_minutes: float | None
    flags: dict[LobbyFlag, bool]


class LobbyBoard(TypedDict):
    id: Annotated[str, Doc("'bundled:<profile>' or 'custom'")]
    label: str


class LobbyData(TypedDict):
    """The ``lobby`` trait: the setup screen's choices (widget/data.py lobby_data)."""

    profiles: list[LobbyProfile]
    boards: list[LobbyBoard]
    default_profile: str
    default_board: str | None
    tokens: list[str]
    colours: list[str]
    seat_kinds: list[SeatKind]
    flags: dict[LobbyFlag, Texts]
    modes: list[GameMode]


# ---------------------------------------------------------------------------------- actions


class TradeSide(TypedDict):
    """What one side of a trade hands over."""

    properties: list[int]
    cash: int
    cards: Annotated[list[str], Doc("jail card ids")]


class SimpleAction(TypedDict):
    type: Literal["roll", "buy", "decline", "pass", "end_turn", "pay_fine", "use_card",
                  "accept", "reject", "bankrupt"]
    player: int


class PositionAction(TypedDict):
    type: Literal["build", "sell", "mortgage", "unmortgage", "lift", "keep", "place"]
    player: int
    position: int


class BidAction(TypedDict):
    type: Literal["bid"]
    player: int
    amount: int


class TaxAction(TypedDict):
    type: Literal["tax"]
    player: int
    choice: Literal["flat", "percent"]


class SellDownAction(TypedDict):
    type: Literal["sell_down"]
    player: int
    area: str
    level: int


class ProposeTradeAction(TypedDict):
    type: Literal["propose_trade"]
    player: int
    partner: int
    give: TradeSide
    get: TradeSide


Action = (SimpleAction | PositionAction | BidAction | TaxAction | SellDownAction
          | ProposeTradeAction)

# ---------------------------------------------------------------------------------- decisions


class TurnDecision(TypedDict):
    kind: Literal["turn", "post_roll"]
    player: int
    data: Empty


class BuyData(TypedDict):
    position: int
    price: int


class BuyDecision(TypedDict):
    kind: Literal["buy"]
    player: int
    data: BuyData


class AuctionData(TypedDict):
    position: Annotated[int | None, Doc("None: a house (housing shortage)")]
    item: Literal["property", "house"]
    high_bid: int
    leader: int | None
    min_bid: int
    bidders: list[int]


class AuctionDecision(TypedDict):
    kind: Literal["auction"]
    player: int
    data: AuctionData


class TaxData(TypedDict):
    position: int
    amount: int
    percent: int


class TaxDecision(TypedDict):
    kind: Literal["tax"]
    player: int
    data: TaxData


class JailFineData(TypedDict):
    fine: int


class JailFineDecision(TypedDict):
    kind: Literal["jail_fine"]
    player: int
    data: JailFineData


class TradeData(TypedDict):
    offer: ProposeTradeAction
    proposer: int


class TradeDecision(TypedDict):
    kind: Literal["trade"]
    player: Annotated[int, Doc("the partner, who answers")]
    data: TradeData


class MortgagedData(TypedDict):
    position: int
    value: int
    interest: int


class MortgagedDecision(TypedDict):
    kind: Literal["mortgaged"]
    player: int
    data: MortgagedData


class DebtData(TypedDict):
    amount: int
    creditor: Annotated[int | Literal["bank", "pot"], Doc("a player, the bank or the pot")]
    reason: str


class DebtDecision(TypedDict):
    kind: Literal["debt"]
    player: int
    data: DebtData


class HouseOfferData(TypedDict):
    position: int
    price: int


class HouseOfferDecision(TypedDict):
    kind: Literal["house_offer"]
    player: int
    data: HouseOfferData


class PlaceHouseData(TypedDict):
    positions: list[int]


class PlaceHouseDecision(TypedDict):
    kind: Literal["place_house"]
    player: int
    data: PlaceHouseData


class GameOverData(TypedDict):
    reason: str


class GameOverDecision(TypedDict):
    kind: Literal["game_over"]
    player: None
    data: GameOverData


Decision = (TurnDecision | BuyDecision | AuctionDecision | TaxDecision | JailFineDecision
            | TradeDecision | MortgagedDecision | DebtDecision | HouseOfferDecision
            | PlaceHouseDecision | GameOverDecision)

# ---------------------------------------------------------------------------------- state


class Player(TypedDict):
    name: str
    token: str
    colour: str
    cash: int
    position: int
    in_jail: bool
    jail_cards: list[str]
    bankrupt: bool
    in_park: bool
    seat: SeatKind


class LogPiece(TypedDict):
    """The log lines since the previous state (see data.LogCache.message)."""

    epoch: int
    base: Annotated[int | None, Doc("lines the view must have for these to follow on; "
                                    "None: they replace the view's lines")]
    total: int
    start: Annotated[int, Doc("the number of the first line sent")]
    lines: list[str]


class BidRange(TypedDict):
    min: int
    max: int


class Timer(TypedDict):
    limit: float
    remaining: float


Move = tuple[Annotated[int, Doc("player")], Annotated[int, Doc("start")],
             Annotated[int, Doc("end")], Annotated[int, Doc("steps")],
             Annotated[str, Doc("via")]]


class DrawnCard(TypedDict):
    deck: Deck
    id: str
    player: int
    text: str


Batch = TypedDict("Batch", {"actions": int, "from": int, "to": int})


class Last(TypedDict):
    """The events since the previous state, compact, for the narration (data.narrate); absent
    when nothing new happened (undo, a language switch). After a play_bots batch it has
    ``batch`` and the view tells the batch in one line."""

    actor: int | None
    n: Annotated[int, Doc("how many events")]
    dice: NotRequired[list[int]]
    moves: NotRequired[list[Move]]
    money: NotRequired[Annotated[list[tuple[int, int]], Doc("[player, delta]")]]
    card: NotRequired[DrawnCard]
    jail: NotRequired[list[int]]
    turn_passed: NotRequired[Literal[True]]
    batch: NotRequired[Annotated[Batch, Doc("a play_bots batch, told in one line")]]


JailHelp = TypedDict("JailHelp", {"try": int, "of": int | None, "fine": int | None,
                                 "cards": int})


class AgainHelp(TypedDict):
    reason: Literal["card", "double"]
    doubles: int
    max: int | None


class TaxHelp(TypedDict):
    flat: int
    percent: int
    worth: int
    percent_amount: int


class StreetRentHelp(TypedDict):
    kind: Literal["street"]
    rent: int
    group_rent: int
    base: int
    completes_group: bool
    group_size: int
    owned_in_group: int


class LinearRentHelp(TypedDict):
    kind: Literal["street"]
    rent: int
    per_house: int


class RailwayRentHelp(TypedDict):
    kind: Literal["railway"]
    rent: int
    owned: int
    by_count: list[int]


class UtilityRentHelp(TypedDict):
    kind: Literal["utility"]
    times: int
    low: int
    high: int
    owned: int
    of: int


RentHelp = StreetRentHelp | LinearRentHelp | RailwayRentHelp | UtilityRentHelp


class AuctionHelp(TypedDict):
    position: int | None
    bidders: list[int]
    list_price: int | None


class HouseHelp(TypedDict):
    position: int
    price: int
    level: int


class Help(TypedDict, total=False):
    """The figures of the rule behind the current decision (widget/explain.py); absent when
    there is nothing to add. The per-tile buttons' figures are the board's (Tile house_price,
    sell_refund, mortgage, lift_cost)."""

    jail: JailHelp
    again: AgainHelp
    tax: TaxHelp
    rent: RentHelp
    auction: AuctionHelp
    house: HouseHelp
    even: Annotated[list[list[int]], Doc("the lots the even-build rule holds back, by group")]


class RankRow(TypedDict):
    player: int
    name: str
    cash: int
    net_worth: int
    winner: bool


class GameState(TypedDict):
    """The ``state`` trait during a game: replaced whole on every change, sent as JSON text
    (widget/data.py state_snapshot)."""

    seq: Annotated[int, Doc("numbers the game's states; every request carries the last seen")]
    phase: Literal["play", "over"]
    turn: int
    current: int
    decision: Decision
    legal: Annotated[list[Action], Doc("exactly the actions the view may offer")]
    players: list[Player]
    owner: Annotated[list[int | None], Doc("per tile")]
    level: Annotated[list[int], Doc("buildings per tile")]
    mortgaged: Annotated[list[int], Doc("mortgaged positions")]
    pot: int
    houses_left: int | None
    hotels_left: int | None
    dice: list[int] | None
    rolls: int
    log: LogPiece
    lang: Lang
    can_undo: bool
    can_trade: bool
    bid: NotRequired[Annotated[BidRange, Doc("an auction")]]
    timer: NotRequired[Annotated[Timer, Doc("the turn timer, before a roll")]]
    time_left: NotRequired[Annotated[float, Doc("a timed game's clock, seconds")]]
    last: NotRequired[Last]
    help: NotRequired[Help]
    history: NotRequired[Annotated[list[list[int]], Doc(
        "net worth per player sampled once per turn, [turn, worth0, ...]; once the game is over")]]
    ranking: NotRequired[list[RankRow]]
    winners: NotRequired[list[int]]


class LobbyState(TypedDict):
    """The ``state`` trait before the first game (the lobby)."""

    seq: int
    phase: Literal["lobby"]


State = GameState | LobbyState

# ---------------------------------------------------------------------------------- other traits


class ErrorInfo(TypedDict):
    """A refusal or an error (widget/errors.py plain_error). A request's ``seq`` below the
    game's is stale (quiet), above it unknown or future."""

    message: Annotated[str, Doc("for programmers (also in w.errors)")]
    seq: int
    n: Annotated[int, Doc("numbers the errors: a new n is news")]
    text: Annotated[Texts, Doc("the refusal in plain words")]
    quiet: Annotated[bool, Doc("a stale request: the view drops it")]


class HeatNote(TypedDict):
    pos: int
    value: float
    text: Texts


class HeatNotes(TypedDict, total=False):
    hot: HeatNote
    cold: HeatNote


class CustomHeat(TypedDict):
    """``w.show_heat(values, label)``: one value per tile."""

    values: list[float]
    label: str
    min: float
    max: float
    fills: Annotated[list[str], Doc("the colour of each tile, chosen in Python")]
    inks: Annotated[list[str], Doc("the ink that reads on each fill")]
    palette: list[str]


class ProbabilityHeat(TypedDict):
    """A probability mode's heat layer (widget/odds.py heat_payload): a share of rolls (or
    turns) per tile, In Jail apart; the fills are opaque colours chosen in Python, the view
    only paints them; notes say why the hottest and coldest tiles are."""

    mode: HeatMode
    values: list[float]
    jail: Annotated[float, Doc("In Jail's share")]
    jail_position: int
    min: float
    max: float
    fills: Annotated[list[str | None], Doc("None: no roll ends there")]
    inks: list[str | None]
    jail_fill: str | None
    palette: list[str]
    unit: Literal["pp", "%"]
    diverging: bool
    per: Per
    rolls: int
    player: Annotated[int | None, Doc("mode next: whose roll")]
    strategy: JailStrategy
    notes: HeatNotes


Heat = CustomHeat | ProbabilityHeat | Empty


class DiceStats(TypedDict):
    totals: list[int]
    counts: list[int]
    exact: list[float]
    ways: list[int]
    faces: int
    rolls: int


class Convergence(TypedDict):
    rolls: list[int]
    tv: list[float]
    expected: list[float]


class JailGroup(TypedDict):
    key: str
    colour: str | None
    positions: list[int]
    label: Texts


class JailComparison(TypedDict):
    groups: list[JailGroup]
    per: Per
    short: list[float]
    long: list[float]
    same: bool


class Stats(TypedDict):
    """The Odds tab's charts (widget/odds.py stats_payload)."""

    dice: DiceStats
    convergence: Convergence
    jail_strategies: JailComparison
    strategy: JailStrategy


Fan = TypedDict("Fan", {
    "player": int,
    "from": int,
    "from_jail": bool,
    "arrows": Annotated[list[tuple[int, float]], Doc("[position, probability]")],
    "jail": float,
    "seq": int,
    "landed": int | None,
    "landed_jail": bool,
    "strategy": JailStrategy,
})


class WinRow(TypedDict):
    player: int
    name: str
    p_win: float
    se: float
    ci_low: float
    ci_high: float


class Unfinished(TypedDict):
    p_win: float
    se: float
    ci_low: float
    ci_high: float
    label: Texts


class Swing(TypedDict):
    seq: int
    player: int
    points: float
    se_points: float
    rollouts: int
    text: Texts


class WinWaiting(TypedDict):
    on: Literal[True]
    status: Literal["waiting"]
    budget: int


class WinEstimate(TypedDict):
    """The live win chances of the position of state ``seq`` (widget/win_chances.py)."""

    on: Literal[True]
    seq: int
    status: Literal["running", "done"]
    generation: int
    turn: int
    rollouts: int
    budget: int
    players: list[WinRow]
    unfinished: Unfinished
    mean_turns: float | None
    swings: list[Swing]


class WinOver(TypedDict):
    on: Literal[True]
    status: Literal["over"]
    seq: int
    swings: list[Swing]


WinChances = WinWaiting | WinEstimate | WinOver | Empty


class OfferSide(TypedDict, total=False):
    properties: list[int]
    cash: int
    cards: list[str]


class TradeOffer(TypedDict):
    """An offer to rate: a propose_trade action without its type."""

    player: int
    partner: int
    give: OfferSide
    get: OfferSide


class AdviceSide(TypedDict):
    role: Literal["proposer", "partner"]
    player: int
    name: str
    p_without: float
    p_with: float
    delta: float
    delta_se: float
    delta_low: float
    delta_high: float
    cash_paid: int
    interest_due: int
    rent_before: float | None
    rent_after: float | None
    rent_change: float | None
    payback_rolls: float | None
    built_rent_change: float | None
    built_payback_rolls: float | None


class AdviceWorking(TypedDict):
    seq: int
    id: int
    offer: ProposeTradeAction
    status: Literal["working"]


class AdviceRated(TypedDict):
    """The trade dialog's advice (widget/trade_advice.py)."""

    seq: int
    id: int
    offer: ProposeTradeAction
    status: Literal["quick", "done"]
    sides: list[AdviceSide]
    fair_cash: int | None
    fair_note: Literal["even", "gains_at_most", "loses_at_least", "not_asked"]
    rollouts: int
    text: Texts


class AdviceError(TypedDict):
    seq: int
    id: int
    offer: NotRequired[ProposeTradeAction]
    status: Literal["error"]
    text: Texts


TradeAdvice = AdviceWorking | AdviceRated | AdviceError | Empty


class Traits(TypedDict):
    """Every synced trait the view reads: the widget's ``sync=True`` traits (game_widget.py
    and its mixins). ``VIEW_WRITES`` names those the view may set (checked in Python)."""

    board_data: BoardData | Empty
    state: Annotated[State, Doc("sent as JSON text; parsed once per change by the view")]
    lobby: LobbyData
    lang: Lang
    error: ErrorInfo | Empty
    heat: Heat
    stats: Stats | Empty
    fan: Annotated[Fan | Empty, Doc("Roll once's fan of where the next roll ends "
                                    "(widget/presentation.py)")]
    win_chances: WinChances
    rollouts_available: Annotated[bool, Doc("numpy and pandas: win bar and trade advice")]
    trade_advice: TradeAdvice
    seats: list[SeatKind]
    bot_delay: Annotated[float, Doc("seconds between bot actions, 0 to 10")]
    paused: bool
    presentation: bool
    turn_pause: Annotated[float, Doc("seconds a turn that ended by itself lingers; 0 off")]


VIEW_WRITES = ("lang", "bot_delay", "paused", "presentation")

# ---------------------------------------------------------------------------------- requests


class ActRequest(TypedDict):
    type: Literal["act"]
    action: Action
    seq: int


class UndoRequest(TypedDict):
    type: Literal["undo"]
    seq: int


class TickRequest(TypedDict):
    """The view's clock reached 0 (Python checks the time itself)."""

    type: Literal["tick"]
    seq: NotRequired[int]


class SetupPlayer(TypedDict):
    name: str
    token: str
    colour: str
    seat: NotRequired[SeatKind]


class SetupOptions(TypedDict, total=False):
    """The lobby's rules options (requests.setup_options); each LobbyFlag is a bool too."""

    mode: GameMode
    time_limit_minutes: float | None
    turn_timer_seconds: float | None
    starting_money: int
    free_parking_pot: bool
    auction_on_decline: bool
    income_tax_choice: bool
    doubles_roll_again: bool
    jail_card_auto: bool
    release_after_three_tries: bool
    card_move_to_jail_tile_jails: bool
    end_when_money_reaches_zero: bool
    rank_by_net_worth: bool


class SetupRequest(TypedDict):
    type: Literal["setup"]
    profile: str
    board: NotRequired[Annotated[str | None, Doc("a LobbyBoard id")]]
    options: NotRequired[SetupOptions | None]
    players: list[SetupPlayer]
    seed: NotRequired[int | None]
    seq: int


class LangRequest(TypedDict):
    type: Literal["lang"]
    lang: Lang
    seq: NotRequired[int]


class BotsRequest(TypedDict):
    type: Literal["bots"]
    paused: NotRequired[bool]
    delay: NotRequired[float]
    seq: NotRequired[int]


class ProbabilityRequest(TypedDict):
    """The Odds tab: what is given changes, the rest stays."""

    type: Literal["probability"]
    mode: NotRequired[HeatMode | Literal["off"] | None]
    stats: NotRequired[bool]
    jail: NotRequired[JailStrategy]
    per: NotRequired[Per]
    seq: NotRequired[int]


class RollOnceRequest(TypedDict):
    type: Literal["roll_once"]
    seq: int


class PictureRequest(TypedDict):
    """Answered with a PictureMessage."""

    type: Literal["picture"]
    seq: NotRequired[int]


class WinChancesRequest(TypedDict):
    type: Literal["win_chances"]
    on: bool
    budget: NotRequired[int]
    seq: NotRequired[int]


class TradeAdviceRequest(TypedDict):
    type: Literal["trade_advice"]
    offer: TradeOffer
    seq: int


class LogRequest(TypedDict):
    """The whole kept tail (a LogMessage), or with ``before`` the page before that line
    (a LogPageMessage)."""

    type: Literal["log"]
    before: NotRequired[int]
    seq: NotRequired[int]


Request = (ActRequest | UndoRequest | TickRequest | SetupRequest | LangRequest | BotsRequest
           | ProbabilityRequest | RollOnceRequest | PictureRequest | WinChancesRequest
           | TradeAdviceRequest | LogRequest)

# ---------------------------------------------------------------------------------- messages


class PictureMessage(TypedDict):
    type: Literal["picture"]
    svg: Annotated[str, Doc("the board with its heat layer (w.board_picture())")]


class LogMessage(TypedDict):
    type: Literal["log"]
    epoch: int
    base: None
    total: int
    start: int
    lines: list[str]


class LogPageMessage(TypedDict):
    type: Literal["log_page"]
    epoch: int
    start: int
    lines: list[str]


class LogLangMessage(TypedDict):
    """Another language: the log's lines in it (the state itself is not sent again)."""

    type: Literal["log_lang"]
    lang: Lang
    epoch: int
    base: None
    total: int
    start: int
    lines: list[str]


Message = PictureMessage | LogMessage | LogPageMessage | LogLangMessage

# The roots of the contract: what the schema and the TypeScript export by name.
ROOTS: dict[str, object] = {"Traits": Traits, "Request": Request, "Message": Message}

# What the named unions and literals stand for (TypedDicts say it in their docstrings).
ALIAS_DOCS = {
    "Action": "an action a person can take (engine/actions.py, its dict form)",
    "Decision": "whose decision it is, about what (engine/state.py Decision)",
    "State": "the state trait: a game's, or the lobby's before the first game",
    "Request": "a view's model.send(...), checked in Python (game_widget._handle_request)",
    "Message": "a custom message from Python to the views (widget.send)",
    "Heat": "the heat layer: w.show_heat's, a probability mode's, or none",
    "WinChances": "the live win chances: waiting, an estimate, game over, or off",
    "TradeAdvice": "the trade dialog's advice: working, rated, refused, or none yet",
    "RentHelp": "what a property would earn its buyer (explain.buy_rent)",
    "Move": "[player, start, end, steps, via] of one move",
}


def fields(td: Any) -> dict[str, tuple[Any, bool]]:
    """A TypedDict's fields: name -> (type, required). (Its own ``__required_keys__`` is
    wrong under ``from __future__ import annotations`` before Python 3.12: a NotRequired
    written as a string is not seen.)"""
    out: dict[str, tuple[Any, bool]] = {}
    for key, tp in typing.get_type_hints(td, include_extras=True).items():
        needed = bool(td.__total__)
        if typing.get_origin(tp) is NotRequired:
            tp, needed = typing.get_args(tp)[0], False
        out[key] = (tp, needed)
    return out


@cache
def request_keys() -> dict[str, tuple[frozenset[str], frozenset[str]]]:
    """Each request type's keys, from the Request union: type -> (all keys, optional ones).
    The widget checks every request against these (game_widget._handle_request)."""
    out: dict[str, tuple[frozenset[str], frozenset[str]]] = {}
    for td in typing.get_args(Request):
        spec = fields(td)
        (kind,) = typing.get_args(spec["type"][0])
        out[kind] = (frozenset(spec), frozenset(k for k, (_, needed) in spec.items()
                                                if not needed))
    return out
