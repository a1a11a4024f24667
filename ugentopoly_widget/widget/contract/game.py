"""The game's payloads: board_data, the lobby, actions, decisions and the state."""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict

from ...engine.rules import Buildings, GameMode, StreetRent
from .base import (
    Deck,
    Doc,
    Empty,
    Lang,
    LobbyFlag,
    NotRequired,
    SeatKind,
    SomeTexts,
    Texts,
    TileKindName,
)

__all__ = [
    "Tile", "Area", "Card", "BoardRules", "BoardData", "LobbyProfile", "LobbyBoard", "LobbyData",
    "TradeSide", "SimpleAction", "PositionAction", "BidAction", "TaxAction", "SellDownAction",
    "ProposeTradeAction", "Action", "TurnDecision", "BuyData", "BuyDecision", "AuctionData",
    "AuctionDecision", "TaxData", "TaxDecision", "JailFineData", "JailFineDecision", "TradeData",
    "TradeDecision", "MortgagedData", "MortgagedDecision", "DebtData", "DebtDecision",
    "HouseOfferData", "HouseOfferDecision", "PlaceHouseData", "PlaceHouseDecision", "GameOverData",
    "GameOverDecision", "Decision", "Player", "LogPiece", "BidRange", "Timer", "Move", "DrawnCard",
    "Batch", "Last", "JailHelp", "AgainHelp", "TaxHelp", "StreetRentHelp", "LinearRentHelp",
    "RailwayRentHelp", "UtilityRentHelp", "RentHelp", "AuctionHelp", "HouseHelp", "Help",
    "RankRow", "GameState", "LobbyState", "State",
]


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
    seat_help: Annotated[dict[str, Texts],
                         Doc("each bot level of seat_kinds with its sentence for a class "
                             "(engine.bots.LEVELS): the seat menu's tooltip")]
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
    game_start: Annotated[int, Doc(
        "the seq of this game's first state: the same for all its states, new for a new game")]
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
