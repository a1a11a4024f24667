"""Actions: small immutable values, one per kind of decision, each naming the acting player.

Every action has one dict form (``to_dict`` / ``action_from_dict``, used by records and the
widget) and one text form (``str(action)`` / ``action_from_text``, e.g. ``"1:bid 120"``).
Parsing is strict: anything malformed raises :class:`InvalidActionError`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .errors import InvalidActionError

MAX_NUMBER = 10**9  # larger numbers in a request are malformed, not merely illegal

SYSTEM = -1  # the "player" of actions the game takes itself (the clock)


@dataclass(frozen=True, slots=True)
class Action:
    """One move in a game, made by seat ``player``; the subclasses (``Roll``, ``Buy``, ``Bid``
    ...) carry the details. ``str(action)`` is its text form (``"0:roll"``)."""

    player: int
    type: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "player": self.player}

    def _args(self) -> str:
        return ""

    def __str__(self) -> str:
        args = self._args()
        return f"{self.player}:{self.type}{' ' + args if args else ''}"


@dataclass(frozen=True, slots=True)
class Roll(Action):
    type: ClassVar[str] = "roll"


@dataclass(frozen=True, slots=True)
class Buy(Action):
    type: ClassVar[str] = "buy"


@dataclass(frozen=True, slots=True)
class Decline(Action):
    """Decline to buy a property (or, in the 22-cell game, the offered house)."""

    type: ClassVar[str] = "decline"


@dataclass(frozen=True, slots=True)
class Bid(Action):
    amount: int = 0
    type: ClassVar[str] = "bid"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "player": self.player, "amount": self.amount}

    def _args(self) -> str:
        return str(self.amount)


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Leave an auction."""

    type: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    type: ClassVar[str] = "end_turn"


@dataclass(frozen=True, slots=True)
class PayFine(Action):
    type: ClassVar[str] = "pay_fine"


@dataclass(frozen=True, slots=True)
class UseJailCard(Action):
    type: ClassVar[str] = "use_card"


@dataclass(frozen=True, slots=True)
class ChooseTax(Action):
    """Income tax: pay the fixed amount ("flat") or the percentage of net worth ("percent")."""

    choice: str = "flat"
    type: ClassVar[str] = "tax"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "player": self.player, "choice": self.choice}

    def _args(self) -> str:
        return self.choice


@dataclass(frozen=True, slots=True)
class _PositionAction(Action):
    position: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "player": self.player, "position": self.position}

    def _args(self) -> str:
        return str(self.position)


@dataclass(frozen=True, slots=True)
class Build(_PositionAction):
    """Buy one house (or the hotel, after the last house) on a street."""

    type: ClassVar[str] = "build"


@dataclass(frozen=True, slots=True)
class Sell(_PositionAction):
    """Sell one building level of a street back to the bank at half price."""

    type: ClassVar[str] = "sell"


@dataclass(frozen=True, slots=True)
class Mortgage(_PositionAction):
    type: ClassVar[str] = "mortgage"


@dataclass(frozen=True, slots=True)
class Unmortgage(_PositionAction):
    type: ClassVar[str] = "unmortgage"


@dataclass(frozen=True, slots=True)
class LiftMortgage(_PositionAction):
    """After receiving a mortgaged property: lift it now (value + 10 %)."""

    type: ClassVar[str] = "lift"


@dataclass(frozen=True, slots=True)
class KeepMortgage(_PositionAction):
    """After receiving a mortgaged property: pay the 10 % now and keep it mortgaged."""

    type: ClassVar[str] = "keep"


@dataclass(frozen=True, slots=True)
class PlaceHouse(_PositionAction):
    """Put a house won in a housing-shortage auction on one of your streets."""

    type: ClassVar[str] = "place"


@dataclass(frozen=True, slots=True)
class SellDown(Action):
    """Sell every street of an area down to one building level (hotels when houses are short)."""

    area: str = ""
    level: int = 0
    type: ClassVar[str] = "sell_down"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "player": self.player, "area": self.area, "level": self.level}

    def _args(self) -> str:
        return f"{self.area} {self.level}"


@dataclass(frozen=True, slots=True)
class TradeSide:
    """What one side of a trade hands over."""

    properties: tuple[int, ...] = ()
    cash: int = 0
    cards: tuple[str, ...] = ()

    def is_empty(self) -> bool:
        return not self.properties and not self.cash and not self.cards

    def to_dict(self) -> dict[str, Any]:
        return {"properties": list(self.properties), "cash": self.cash, "cards": list(self.cards)}

    def _text(self) -> str:
        parts = [",".join(map(str, self.properties)) or "-", str(self.cash)]
        parts.append(",".join(self.cards) or "-")
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class ProposeTrade(Action):
    partner: int = 0
    give: TradeSide = field(default_factory=TradeSide)
    get: TradeSide = field(default_factory=TradeSide)
    type: ClassVar[str] = "propose_trade"

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "player": self.player,
            "partner": self.partner,
            "give": self.give.to_dict(),
            "get": self.get.to_dict(),
        }

    def _args(self) -> str:
        return f"{self.partner} give {self.give._text()} get {self.get._text()}"


@dataclass(frozen=True, slots=True)
class AcceptTrade(Action):
    type: ClassVar[str] = "accept"


@dataclass(frozen=True, slots=True)
class RejectTrade(Action):
    type: ClassVar[str] = "reject"


@dataclass(frozen=True, slots=True)
class DeclareBankruptcy(Action):
    type: ClassVar[str] = "bankrupt"


@dataclass(frozen=True, slots=True)
class TimeUp(Action):
    """Taken by the game itself when the timed game's clock runs out."""

    type: ClassVar[str] = "time_up"


@dataclass(frozen=True, slots=True)
class TimerRoll(Action):
    """Taken by the game itself when the turn timer runs out: the dice are rolled for the player."""

    type: ClassVar[str] = "timer_roll"


ACTION_TYPES: dict[str, type[Action]] = {
    cls.type: cls
    for cls in (
        Roll, Buy, Decline, Bid, Pass, EndTurn, PayFine, UseJailCard, ChooseTax, Build, Sell,
        Mortgage, Unmortgage, LiftMortgage, KeepMortgage, PlaceHouse, SellDown, ProposeTrade,
        AcceptTrade, RejectTrade, DeclareBankruptcy, TimeUp, TimerRoll,
    )
}
_SIMPLE = {
    name for name, cls in ACTION_TYPES.items()
    if [f.name for f in dataclasses.fields(cls)] == ["player"]
}
_POSITION = {name for name, cls in ACTION_TYPES.items() if issubclass(cls, _PositionAction)}


def _int(value: Any, what: str, *, low: int = -MAX_NUMBER, high: int = MAX_NUMBER) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidActionError(f"{what} must be an integer, not {type(value).__name__}")
    if not low <= value <= high:
        raise InvalidActionError(f"{what} must be between {low} and {high}, not {value}")
    return value


def _str(value: Any, what: str) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= 200:
        raise InvalidActionError(f"{what} must be a non-empty string of at most 200 characters")
    return value


def _keys(data: dict[str, Any], allowed: set[str], what: str) -> None:
    extra = sorted(set(data) - allowed)
    missing = sorted(allowed - set(data))
    if extra or missing:
        raise InvalidActionError(
            f"{what}: unexpected keys {extra}" if extra else f"{what}: missing keys {missing}"
        )


def _side(data: Any, what: str) -> TradeSide:
    if not isinstance(data, dict):
        raise InvalidActionError(f"{what} must be an object with properties, cash and cards")
    _keys(data, {"properties", "cash", "cards"}, what)
    props, cards = data["properties"], data["cards"]
    if not isinstance(props, list) or len(props) > 100:
        raise InvalidActionError(f"{what}.properties must be a list of positions")
    if not isinstance(cards, list) or len(cards) > 20:
        raise InvalidActionError(f"{what}.cards must be a list of card ids")
    return TradeSide(
        properties=tuple(_int(p, f"{what}.properties[]", low=0, high=10_000) for p in props),
        cash=_int(data["cash"], f"{what}.cash", low=0),
        cards=tuple(_str(c, f"{what}.cards[]") for c in cards),
    )


_PARSED: dict[tuple[Any, ...], Action] = {}  # dict forms already read -> the shared action


def action_from_dict(data: Any) -> Action:
    """Build an action from its dict form, checking every key and type.

    Simple and position actions come back as the shared instances the engine lists as legal
    (a save file of 100,000 turns is mostly the same few hundred actions)."""
    if type(data) is dict and 2 <= len(data) <= 3:
        player = data.get("player")
        position = data.get("position")
        kind = data.get("type")
        if (type(kind) is str and type(player) is int
                and (position is None or type(position) is int)):
            key = (kind, player, position, len(data))
            hit = _PARSED.get(key)
            if hit is not None:
                return hit
    action = _action_from_dict(data)
    kind = type(action)
    if kind.type in _SIMPLE or kind.type in _POSITION:
        position = getattr(action, "position", None)
        shared = (
            _POSITION_TABLES[kind].get(action.player, position)
            if kind in _POSITION_TABLES and position is not None
            else cached(kind, action.player, *(() if position is None else (position,)))
        )
        if len(_PARSED) < 100_000:
            _PARSED[(kind.type, action.player, position, len(data))] = shared
        return shared
    return action


def _action_from_dict(data: Any) -> Action:
    if not isinstance(data, dict):
        raise InvalidActionError(f"an action must be an object, not {type(data).__name__}")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in ACTION_TYPES:
        raise InvalidActionError(f"unknown action type {kind!r}")
    player = _int(data.get("player"), "player", low=-1, high=64)
    if kind in _SIMPLE:
        _keys(data, {"type", "player"}, kind)
        return ACTION_TYPES[kind](player)
    if kind in _POSITION:
        _keys(data, {"type", "player", "position"}, kind)
        position = _int(data["position"], "position", low=0, high=10_000)
        return ACTION_TYPES[kind](player, position)  # type: ignore[call-arg]
    if kind == "bid":
        _keys(data, {"type", "player", "amount"}, kind)
        return Bid(player, _int(data["amount"], "amount", low=0))
    if kind == "tax":
        _keys(data, {"type", "player", "choice"}, kind)
        choice = data["choice"]
        if choice not in ("flat", "percent"):
            raise InvalidActionError("tax choice must be 'flat' or 'percent'")
        return ChooseTax(player, choice)
    if kind == "sell_down":
        _keys(data, {"type", "player", "area", "level"}, kind)
        return SellDown(player, _str(data["area"], "area"), _int(data["level"], "level", low=0,
                                                                   high=100))
    if kind == "propose_trade":
        _keys(data, {"type", "player", "partner", "give", "get"}, kind)
        return ProposeTrade(
            player,
            _int(data["partner"], "partner", low=0, high=64),
            _side(data["give"], "give"),
            _side(data["get"], "get"),
        )
    raise InvalidActionError(f"unknown action type {kind!r}")  # pragma: no cover


def _text_side(words: list[str], what: str) -> TradeSide:
    if len(words) != 3:
        raise InvalidActionError(f"{what}: expected '<positions|-> <cash> <cards|->'")
    props = [] if words[0] == "-" else words[0].split(",")
    cards = [] if words[2] == "-" else words[2].split(",")
    try:
        return _side(
            {"properties": [int(p) for p in props], "cash": int(words[1]), "cards": cards}, what
        )
    except ValueError:
        raise InvalidActionError(f"{what}: positions and cash must be integers") from None


def action_from_text(text: str) -> Action:
    """Parse the text form, e.g. ``"0:roll"``, ``"1:bid 120"``, ``"0:build 37"``."""
    if not isinstance(text, str) or ":" not in text:
        raise InvalidActionError(f"an action text looks like '0:roll', not {text!r}")
    head, _, rest = text.strip().partition(":")
    words = rest.split()
    if not words:
        raise InvalidActionError(f"no action in {text!r}")
    try:
        player = int(head)
    except ValueError:
        raise InvalidActionError(f"player in {text!r} must be a number") from None
    kind, args = words[0], words[1:]
    data: dict[str, Any] = {"type": kind, "player": player}
    try:
        if kind in _POSITION:
            (data["position"],) = (int(a) for a in args)
        elif kind == "bid":
            (data["amount"],) = (int(a) for a in args)
        elif kind == "tax":
            (data["choice"],) = args
        elif kind == "sell_down":
            data["area"], level = args
            data["level"] = int(level)
        elif kind == "propose_trade":
            if len(args) != 9 or args[1] != "give" or args[5] != "get":
                raise InvalidActionError(
                    "trade text: '<partner> give <pos,..|-> <cash> <cards|-> get ...'"
                )
            return ProposeTrade(
                player, int(args[0]), _text_side(args[2:5], "give"), _text_side(args[6:9], "get")
            )
        elif args:
            raise InvalidActionError(f"{kind} takes no arguments")
    except ValueError:
        raise InvalidActionError(f"cannot read the arguments of {text!r}") from None
    return action_from_dict(data)


_CACHE: dict[tuple[type[Action], int, Any], Action] = {}


def cached(cls: type[Action], player: int, *args: Any) -> Action:
    """A shared instance of a simple action. Actions are immutable, so games can share them;
    this keeps legal_actions() from allocating on the hot path."""
    key = (cls, player, args)
    action = _CACHE.get(key)
    if action is None:
        action = _CACHE[key] = cls(player, *args)
    return action


class PositionActions:
    """Shared instances of one position action kind, indexed [player][position]."""

    def __init__(self, cls: type[_PositionAction]) -> None:
        self.cls = cls
        self.rows: list[list[Action | None]] = []

    def get(self, player: int, position: int) -> Action:
        rows = self.rows
        while len(rows) <= player:
            rows.append([])
        row = rows[player]
        if len(row) <= position:
            row.extend([None] * (position + 1 - len(row)))
        action = row[position]
        if action is None:
            action = row[position] = self.cls(player, position)
        return action


BUILD = PositionActions(Build)
SELL = PositionActions(Sell)
MORTGAGE = PositionActions(Mortgage)
UNMORTGAGE = PositionActions(Unmortgage)
LIFT = PositionActions(LiftMortgage)
KEEP = PositionActions(KeepMortgage)
PLACE = PositionActions(PlaceHouse)
_POSITION_TABLES: dict[type[Action], PositionActions] = {
    Build: BUILD, Sell: SELL, Mortgage: MORTGAGE, Unmortgage: UNMORTGAGE, LiftMortgage: LIFT,
    KeepMortgage: KEEP, PlaceHouse: PLACE,
}
