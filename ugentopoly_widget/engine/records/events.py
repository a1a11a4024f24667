"""Events: what happened, as plain values. The log text is rendered from them (see i18n).

Every event that moves money carries ``payer``, ``payee`` (a player index, ``"bank"`` or
``"pot"``) and ``amount``, so the books can be checked from the events alone.

A game makes about 1,300 events (classic, 4 players) and most are never looked at one by one,
so a game keeps them in an :class:`EventLog`: one flat array of 32-bit codes, no object per
event. Each event is a header (its *shape*: kind and field names, shared by every event of that
form, plus the player) followed by one code per field value. An :class:`Event` object is made
only when somebody reads one.
"""

from __future__ import annotations

import struct
from array import array
from collections.abc import Iterator, Sequence
from typing import Any, Final, overload

from mypy_extensions import mypyc_attr

BANK: Final = "bank"  # Final: compiled code uses the constant, not a global look-up
POT: Final = "pot"

Party = int | str  # a player index, BANK or POT

_KEYS: Final[dict[tuple[str, ...], tuple[str, ...]]] = {}  # one shared tuple per set of field names
_NO_FIELDS: Final[tuple[Any, ...]] = ()


def fields(*names: str) -> tuple[str, ...]:
    """The shared tuple of these field names (for :meth:`Event.make`)."""
    return _KEYS.setdefault(names, names)


# Events hold plain values, never an object that refers back to them: no cycles to collect
# (compiled, they skip the garbage collector's tracking: a full read of a log makes thousands).
@mypyc_attr(acyclic=True)
class Event:
    """One thing that happened. ``kind`` names it; ``data`` holds its JSON-ready fields.

    An Event read from an :class:`EventLog` decodes its field values when first asked for
    them: a reader that looks only at ``kind`` and ``player`` (most scans do) pays for neither.
    """

    __slots__ = ("kind", "player", "keys", "_values", "_codes", "_at", "_objs")

    def __init__(self, kind: str, player: int | None = None,
                 data: dict[str, Any] | None = None) -> None:
        # A plain dict argument, not **kwargs: events are made on the hot path of simulations.
        self.kind = kind
        self.player = player
        # where the values are still encoded (see EventLog._read): a private copy of the codes
        self._codes: list[int] | None = None
        self._at = 0
        self._objs: list[Any] | None = None
        if data:
            keys = tuple(data)
            self.keys: tuple[str, ...] = _KEYS.setdefault(keys, keys)
            self._values: tuple[Any, ...] | None = tuple(data.values())
        else:
            self.keys = _NO_FIELDS
            self._values = _NO_FIELDS

    @staticmethod
    def make(kind: str, player: int | None, keys: tuple[str, ...], values: tuple[Any, ...]
             ) -> Event:
        """An event from shared field names (see :func:`fields`) and its values, no dict."""
        event = Event(kind, player)
        event.keys = keys
        event._values = values
        return event

    @property
    def values(self) -> tuple[Any, ...]:
        """The field values, in the order of ``keys``."""
        values = self._values
        if values is None:
            codes = self._codes
            objs = self._objs
            assert codes is not None and objs is not None
            values = self._values = _decode_values(codes, self._at, len(self.keys), objs)
            self._codes = None  # the block of codes it came from can go
            self._objs = None
        return values

    @property
    def data(self) -> dict[str, Any]:
        """The fields as a new dict (changing it changes nothing in the game)."""
        return dict(zip(self.keys, self.values, strict=True))

    def get(self, key: str, default: Any = None) -> Any:
        """One field, without building the dict."""
        keys = self.keys
        for k in range(len(keys)):
            if keys[k] == key:
                return self.values[k]
        return default

    @property
    def moves_money(self) -> bool:
        return "amount" in self.keys and "payer" in self.keys

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "player": self.player}
        out.update(zip(self.keys, self.values, strict=True))
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Event:
        values = dict(data)
        kind = values.pop("kind")
        player = values.pop("player", None)
        return cls(kind, player, values)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Event)
            and self.kind == other.kind
            and self.player == other.player
            and self.data == other.data
        )

    def __hash__(self) -> int:
        return hash((self.kind, self.player))

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in zip(self.keys, self.values, strict=True))
        return f"Event({self.kind!r}, player={self.player}{', ' + shown if shown else ''})"


# ---------------------------------------------------------------------- shapes

# A shape is a kind with its field names, numbered in the order first used (process-wide; the
# numbers never leave the process: saves and digests hold events in dict form).
_SHAPE_KIND: Final[list[str]] = []
_SHAPE_KEYS: Final[list[tuple[str, ...]]] = []
_SHAPE_IDS: Final[dict[tuple[str, tuple[str, ...]], int]] = {}
_SHAPE_ROLL: Final[list[bool]] = []  # whether the shape is a "rolled" event (counted by logs)
PLAYER_SPAN: Final = 16  # header = shape << 4 | player + 1 (0: no player); games have <= 8


def shape(kind: str, *names: str) -> int:
    """The number of events of this kind with these fields, in this order (for
    :meth:`EventLog.add`): shapes are made once, at import, by the modules that record events."""
    return _shape_of(kind, fields(*names))


def _shape_of(kind: str, keys: tuple[str, ...]) -> int:
    key = (kind, keys)
    number = _SHAPE_IDS.get(key)
    if number is None:
        number = len(_SHAPE_KIND)
        _SHAPE_KIND.append(kind)
        _SHAPE_KEYS.append(_KEYS.setdefault(keys, keys))
        _SHAPE_ROLL.append(kind == "rolled")
        _SHAPE_IDS[key] = number
    return number


# ---------------------------------------------------------------------- value codes

# A value code is 32 bits with a 2-bit tag: 0 an int inline (|value| < 2**29: amounts,
# positions, turns, players), 1 a process-wide constant (None, booleans, strings such as
# "bank", card ids or reasons, and short int sequences such as the dice, kept as tuples and
# handed out as new lists), 2 an object kept by the log itself (anything else: trade offers,
# name lists, huge numbers).
_INT_LIMIT: Final = 1 << 29
_CONSTS: Final[list[Any]] = [None, True, False]
_CONST_IDS: Final[dict[Any, int]] = {}  # str and int-tuple keys only (True == 1 must not meet)
_MAX_CONSTS: Final = 1 << 16  # past this (hostile input, endless new card ids): kept per log
_NONE_CODE: Final = 1  # _CONSTS[0] << 2 | 1
_TRUE_CODE: Final = 5
_FALSE_CODE: Final = 9
_TAIL: Final = 256  # codes gathered in a list before they go to the array (one call, not one each)
_MARK: Final = 16  # every 16th event's offset is kept: reading event i walks at most 15 headers
_BLOCK: Final = 256  # events made at a time by iteration


# the value codes of a roll of two dice a, b < 32 at a << 5 | b, None until first made
_ROLL2_CODES: Final[list[tuple[int, int, int] | None]] = [None] * 1024


def _const_code(value: Any) -> int:
    """The tag-1 code of a str or a short tuple of small ints, or -1 when it has none."""
    number = _CONST_IDS.get(value)
    if number is None:
        if len(_CONSTS) >= _MAX_CONSTS:
            return -1
        number = len(_CONSTS)
        _CONSTS.append(value)
        _CONST_IDS[value] = number
    return number << 2 | 1


_BANK_CODE: Final = _const_code(BANK)  # the commonest strings' codes, made at import
_DICE_CODE: Final = _const_code("dice")


def _pack(codes: list[int]) -> bytes:
    """The codes as the bytes of an array("i"): struct converts a list 3x faster than
    array.extend, which parses every item on its own (measured 4.5 vs 13.5 us per 260)."""
    return struct.pack(f"{len(codes)}i", *codes)


def _small_ints(values: Sequence[Any]) -> bool:
    return len(values) <= 8 and all(type(v) is int and -1024 <= v <= 1024 for v in values)


def _decode_values(codes: list[int], at: int, width: int, objs: list[Any]) -> tuple[Any, ...]:
    consts = _CONSTS
    items: list[Any] = []
    for k in range(at, at + width):
        code = codes[k]
        tag = code & 3
        if tag == 0:
            items.append(code >> 2)
        elif tag == 1:
            value = consts[code >> 2]
            items.append(list(value) if type(value) is tuple else value)
        else:
            items.append(objs[code >> 2])
    return tuple(items)


class EventLog(Sequence[Event]):
    """A game's events, stored compactly; reads like a list of :class:`Event` (indexing,
    slicing, iteration, ``len``, ``==`` with a list) and makes the objects only when read.

    The engine appends with :meth:`add` (a shape from :func:`shape` and the values in field
    order) or :meth:`record` (a kind and a dict, for events whose fields vary); undo truncates
    with ``del log[n:]``. Slices and :meth:`since` give new lists of new Event objects."""

    __slots__ = ("_codes", "_tail", "_objs", "_marks", "_count", "_rolls", "_last_roll")

    def __init__(self, events: Sequence[Event] = ()) -> None:
        self._codes = array("i")  # flushed codes
        self._tail: list[int] = []  # codes not yet flushed to _codes
        self._objs: list[Any] = []  # values kept as objects (tag 2), in order of appearance
        self._marks = array("I")  # offset of event 0, 16, 32, ...
        self._count = 0
        # "rolled" events held and the index of the last (-1: none), kept by add, add_roll2
        # (the only adders given a "rolled" shape) and truncate: see rolls()
        self._rolls = 0
        self._last_roll = -1
        for event in events:
            self.append(event)

    # ------------------------------------------------------------------ writing

    def add(self, shape: int, player: int | None, values: tuple[Any, ...]) -> None:
        """Record an event of `shape` (see :func:`shape`) with its values in field order."""
        roll = _SHAPE_ROLL[shape]  # (an unknown shape fails here, before anything is written)
        if player is None:
            head = shape << 4
        elif 0 <= player < PLAYER_SPAN - 1:
            head = (shape << 4) + player + 1
        else:  # refused before anything is written
            raise ValueError(f"an event's player must be 0..{PLAYER_SPAN - 2}, not {player}")
        tail = self._tail
        count = self._count
        if count & (_MARK - 1) == 0:
            self._marks.append(len(self._codes) + len(tail))
        tail.append(head)
        for v in values:
            kind = type(v)
            if kind is int:
                n: int = v
                if -_INT_LIMIT < n < _INT_LIMIT:
                    tail.append(n << 2)
                    continue
            elif kind is str:  # "bank", reasons, card ids: a known constant, most of the time
                number = _CONST_IDS.get(v)
                if number is not None:
                    tail.append(number << 2 | 1)
                    continue
            elif v is None:
                tail.append(_NONE_CODE)
                continue
            elif kind is bool:
                tail.append(_TRUE_CODE if v else _FALSE_CODE)
                continue
            tail.append(self._code(v))
        if roll:
            self._rolls += 1
            self._last_roll = count
        self._count = count + 1
        if len(tail) >= _TAIL:
            self._codes.frombytes(_pack(tail))
            tail.clear()

    # Fixed-shape adders for the frequent events (a player's, with these field types): the
    # same codes as add(), without a tuple of values to make and walk type by type (compiled,
    # the ints are not even boxed). `player` is a seat, 0..7 (the engine's own, never a
    # caller's); tests/test_event_log.py checks each against add(). The hottest ones open and
    # close the event inline: in pure Python a call costs as much as what it does. A payer or
    # payee that is a player or the bank is coded inline (what _party gives), the pot through it.

    def _open(self, shape: int, player: int) -> list[int]:
        """Start event `shape` of `player`: the header written, the codes to follow."""
        tail = self._tail
        count = self._count
        if count & (_MARK - 1) == 0:
            self._marks.append(len(self._codes) + len(tail))
        tail.append((shape << 4) + player + 1)
        self._count = count + 1
        return tail

    def _close(self, tail: list[int]) -> None:
        if len(tail) >= _TAIL:
            self._codes.frombytes(_pack(tail))
            tail.clear()

    def _str(self, text: str) -> int:
        number = _CONST_IDS.get(text)
        if number is not None:
            return number << 2 | 1
        return self._code(text)

    def _party(self, party: Party) -> int:
        if isinstance(party, int):
            return party << 2 if -_INT_LIMIT < party < _INT_LIMIT else self._code(party)
        return self._str(party)

    def add0(self, shape: int, player: int) -> None:
        tail = self._tail
        count = self._count
        if count & (_MARK - 1) == 0:
            self._marks.append(len(self._codes) + len(tail))
        self._count = count + 1
        tail.append((shape << 4) + player + 1)
        if len(tail) >= _TAIL:
            self._codes.frombytes(_pack(tail))
            tail.clear()

    def add_i(self, shape: int, player: int, a: int) -> None:
        tail = self._tail
        count = self._count
        if count & (_MARK - 1) == 0:
            self._marks.append(len(self._codes) + len(tail))
        self._count = count + 1
        tail.append((shape << 4) + player + 1)
        tail.append(a << 2 if -_INT_LIMIT < a < _INT_LIMIT else self._code(a))
        if len(tail) >= _TAIL:
            self._codes.frombytes(_pack(tail))
            tail.clear()

    def add_s(self, shape: int, player: int, a: str) -> None:
        tail = self._tail
        count = self._count
        if count & (_MARK - 1) == 0:
            self._marks.append(len(self._codes) + len(tail))
        self._count = count + 1
        tail.append((shape << 4) + player + 1)
        tail.append(self._str(a))
        if len(tail) >= _TAIL:
            self._codes.frombytes(_pack(tail))
            tail.clear()

    def add_b(self, shape: int, player: int, a: bool) -> None:
        tail = self._open(shape, player)
        tail.append(_TRUE_CODE if a else _FALSE_CODE)
        self._close(tail)

    def add_ii(self, shape: int, player: int, a: int, b: int) -> None:
        tail = self._open(shape, player)
        tail.append(a << 2 if -_INT_LIMIT < a < _INT_LIMIT else self._code(a))
        tail.append(b << 2 if -_INT_LIMIT < b < _INT_LIMIT else self._code(b))
        self._close(tail)

    def add_ss(self, shape: int, player: int, a: str, b: str) -> None:
        tail = self._open(shape, player)
        tail.append(self._str(a))
        tail.append(self._str(b))
        self._close(tail)

    def add_roll(self, shape: int, player: int, dice: tuple[int, ...], total: int,
                 double: bool) -> None:
        """(dice, total, double): what add() records; two ordinary dice through add_roll2."""
        if len(dice) == 2 and total == dice[0] + dice[1] and double is (dice[0] == dice[1]):
            self.add_roll2(shape, player, dice[0], dice[1])
        else:
            self.add(shape, player, (dice, total, double))

    def add_roll2(self, shape: int, player: int, a: int, b: int) -> None:
        """Two dice a, b: (dice, total, double) = ((a, b), a + b, a == b), the three value codes
        made once per pair of dice (every turn's roll: a table read instead of three codes)."""
        roll = _SHAPE_ROLL[shape]  # (an unknown shape fails here, before anything is written)
        small = (a | b) >> 5 == 0  # both dice in 0..31: a table entry
        codes = _ROLL2_CODES[a << 5 | b] if small else None
        if codes is None:
            dice = _const_code((a, b)) if small else -1
            if dice < 0:  # no table entry (or no constant left): what add() writes
                return self.add(shape, player, ((a, b), a + b, a == b))
            codes = _ROLL2_CODES[a << 5 | b] = (dice, (a + b) << 2, _TRUE_CODE if a == b
                                                else _FALSE_CODE)
        tail = self._tail
        count = self._count
        if count & (_MARK - 1) == 0:
            self._marks.append(len(self._codes) + len(tail))
        if roll:
            self._rolls += 1
            self._last_roll = count
        self._count = count + 1
        tail.append((shape << 4) + player + 1)
        tail += codes
        if len(tail) >= _TAIL:
            self._codes.frombytes(_pack(tail))
            tail.clear()

    def add_move(self, shape: int, player: int, start: int, end: int, steps: int, via: str
                 ) -> None:
        tail = self._tail
        count = self._count
        if count & (_MARK - 1) == 0:
            self._marks.append(len(self._codes) + len(tail))
        self._count = count + 1
        tail.append((shape << 4) + player + 1)
        tail.append(start << 2 if -_INT_LIMIT < start < _INT_LIMIT else self._code(start))
        tail.append(end << 2 if -_INT_LIMIT < end < _INT_LIMIT else self._code(end))
        tail.append(steps << 2 if -_INT_LIMIT < steps < _INT_LIMIT else self._code(steps))
        tail.append(_DICE_CODE if via == "dice" else self._str(via))
        if len(tail) >= _TAIL:
            self._codes.frombytes(_pack(tail))
            tail.clear()

    def add_pay(self, shape: int, player: int, payer: Party, payee: Party, amount: int) -> None:
        """(payer, payee, amount)."""
        tail = self._open(shape, player)
        tail.append(payer << 2 if isinstance(payer, int) and 0 <= payer < _INT_LIMIT
                    else _BANK_CODE if payer == BANK else self._party(payer))
        tail.append(payee << 2 if isinstance(payee, int) and 0 <= payee < _INT_LIMIT
                    else _BANK_CODE if payee == BANK else self._party(payee))
        tail.append(amount << 2 if -_INT_LIMIT < amount < _INT_LIMIT else self._code(amount))
        self._close(tail)

    def add_pay_i(self, shape: int, player: int, payer: Party, payee: Party, amount: int,
                  extra: int) -> None:
        """(payer, payee, amount, an int: the position of a rent)."""
        tail = self._tail
        count = self._count
        if count & (_MARK - 1) == 0:
            self._marks.append(len(self._codes) + len(tail))
        self._count = count + 1
        tail.append((shape << 4) + player + 1)
        tail.append(payer << 2 if isinstance(payer, int) and 0 <= payer < _INT_LIMIT
                    else _BANK_CODE if payer == BANK else self._party(payer))
        tail.append(payee << 2 if isinstance(payee, int) and 0 <= payee < _INT_LIMIT
                    else _BANK_CODE if payee == BANK else self._party(payee))
        tail.append(amount << 2 if -_INT_LIMIT < amount < _INT_LIMIT else self._code(amount))
        tail.append(extra << 2 if -_INT_LIMIT < extra < _INT_LIMIT else self._code(extra))
        if len(tail) >= _TAIL:
            self._codes.frombytes(_pack(tail))
            tail.clear()

    def add_pay_s(self, shape: int, player: int, payer: Party, payee: Party, amount: int,
                  extra: str) -> None:
        """(payer, payee, amount, a str: the card of a card's money)."""
        tail = self._open(shape, player)
        tail.append(payer << 2 if isinstance(payer, int) and 0 <= payer < _INT_LIMIT
                    else _BANK_CODE if payer == BANK else self._party(payer))
        tail.append(payee << 2 if isinstance(payee, int) and 0 <= payee < _INT_LIMIT
                    else _BANK_CODE if payee == BANK else self._party(payee))
        tail.append(amount << 2 if -_INT_LIMIT < amount < _INT_LIMIT else self._code(amount))
        tail.append(self._str(extra))
        self._close(tail)

    def add_pay_b(self, shape: int, player: int, payer: Party, payee: Party, amount: int,
                  extra: bool) -> None:
        """(payer, payee, amount, a bool: the salary's exact landing)."""
        tail = self._tail
        count = self._count
        if count & (_MARK - 1) == 0:
            self._marks.append(len(self._codes) + len(tail))
        self._count = count + 1
        tail.append((shape << 4) + player + 1)
        tail.append(payer << 2 if isinstance(payer, int) and 0 <= payer < _INT_LIMIT
                    else _BANK_CODE if payer == BANK else self._party(payer))
        tail.append(payee << 2 if isinstance(payee, int) and 0 <= payee < _INT_LIMIT
                    else _BANK_CODE if payee == BANK else self._party(payee))
        tail.append(amount << 2 if -_INT_LIMIT < amount < _INT_LIMIT else self._code(amount))
        tail.append(_TRUE_CODE if extra else _FALSE_CODE)
        if len(tail) >= _TAIL:
            self._codes.frombytes(_pack(tail))
            tail.clear()

    def add_at_pay(self, shape: int, player: int, position: int, payer: Party, payee: Party,
                   amount: int) -> None:
        """(position, payer, payee, amount): bought, mortgaged, unmortgaged, deeds dealt."""
        tail = self._tail  # self._open(), inline
        count = self._count
        if count & (_MARK - 1) == 0:
            self._marks.append(len(self._codes) + len(tail))
        self._count = count + 1
        tail.append((shape << 4) + player + 1)
        tail.append(position << 2 if -_INT_LIMIT < position < _INT_LIMIT else self._code(position))
        tail.append(payer << 2 if isinstance(payer, int) and 0 <= payer < _INT_LIMIT
                    else _BANK_CODE if payer == BANK else self._party(payer))
        tail.append(payee << 2 if isinstance(payee, int) and 0 <= payee < _INT_LIMIT
                    else _BANK_CODE if payee == BANK else self._party(payee))
        tail.append(amount << 2 if -_INT_LIMIT < amount < _INT_LIMIT else self._code(amount))
        if len(tail) >= _TAIL:  # self._close(), inline
            self._codes.frombytes(_pack(tail))
            tail.clear()

    def add_level_pay(self, shape: int, player: int, position: int, level: int, payer: Party,
                      payee: Party, amount: int) -> None:
        """(position, level, payer, payee, amount): buildings sold (and built, 22-cell)."""
        tail = self._open(shape, player)
        tail.append(position << 2 if -_INT_LIMIT < position < _INT_LIMIT else self._code(position))
        tail.append(level << 2 if -_INT_LIMIT < level < _INT_LIMIT else self._code(level))
        tail.append(payer << 2 if isinstance(payer, int) and 0 <= payer < _INT_LIMIT
                    else _BANK_CODE if payer == BANK else self._party(payer))
        tail.append(payee << 2 if isinstance(payee, int) and 0 <= payee < _INT_LIMIT
                    else _BANK_CODE if payee == BANK else self._party(payee))
        tail.append(amount << 2 if -_INT_LIMIT < amount < _INT_LIMIT else self._code(amount))
        self._close(tail)

    def add_built(self, shape: int, player: int, position: int, level: int, hotel: bool,
                  payer: Party, payee: Party, amount: int) -> None:
        """(position, level, hotel, payer, payee, amount): a building bought (classic)."""
        tail = self._tail  # self._open(), inline
        count = self._count
        if count & (_MARK - 1) == 0:
            self._marks.append(len(self._codes) + len(tail))
        self._count = count + 1
        tail.append((shape << 4) + player + 1)
        tail.append(position << 2 if -_INT_LIMIT < position < _INT_LIMIT else self._code(position))
        tail.append(level << 2 if -_INT_LIMIT < level < _INT_LIMIT else self._code(level))
        tail.append(_TRUE_CODE if hotel else _FALSE_CODE)
        tail.append(payer << 2 if isinstance(payer, int) and 0 <= payer < _INT_LIMIT
                    else _BANK_CODE if payer == BANK else self._party(payer))
        tail.append(payee << 2 if isinstance(payee, int) and 0 <= payee < _INT_LIMIT
                    else _BANK_CODE if payee == BANK else self._party(payee))
        tail.append(amount << 2 if -_INT_LIMIT < amount < _INT_LIMIT else self._code(amount))
        if len(tail) >= _TAIL:  # self._close(), inline
            self._codes.frombytes(_pack(tail))
            tail.clear()

    def record(self, kind: str, player: int | None, data: dict[str, Any]) -> None:
        """Record an event from a dict of fields (events whose fields vary from call to call)."""
        self.add(_shape_of(kind, tuple(data)), player, tuple(data.values()))

    def append(self, event: Event) -> None:
        """Record an :class:`Event` object (its fields are copied into the log)."""
        self.add(_shape_of(event.kind, event.keys), event.player, event.values)

    def _code(self, value: Any) -> int:
        if value is None:
            return _NONE_CODE
        if value is True:
            return _TRUE_CODE
        if value is False:
            return _FALSE_CODE
        kind = type(value)
        code = -1
        if kind is str:
            code = _const_code(value)
        elif (kind is tuple or kind is list) and _small_ints(value):
            code = _const_code(tuple(value))
        if code >= 0:
            return code
        objs = self._objs
        objs.append(list(value) if kind is tuple else value)  # events hold JSON-ready values
        return (len(objs) - 1) << 2 | 2

    def flush(self) -> None:
        """Move the codes gathered in the tail list to the array (done before every read and
        when a game ends: a finished game keeps only the array)."""
        tail = self._tail
        if tail:
            self._codes.frombytes(_pack(tail))
            tail.clear()

    # ------------------------------------------------------------------ reading

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> list[Event]: ...

    def __getitem__(self, index: int | slice) -> Event | list[Event]:
        if isinstance(index, slice):
            start, stop, step = index.indices(self._count)
            if step != 1:
                return [self[k] for k in range(start, stop, step)]
            return self._read(start, stop)
        count = self._count
        k: int = index
        if k < 0:
            k += count
        if not 0 <= k < count:
            raise IndexError("event index out of range")
        return self._read(k, k + 1)[0]

    def since(self, start: int) -> list[Event]:
        """The events from index `start` on, as a new list (``log[start:]``)."""
        return self._read(max(0, start), self._count)

    def __iter__(self) -> Iterator[Event]:
        count = self._count
        start = 0
        while start < count:  # a block at a time: memory stays flat for a long game
            stop = min(count, start + _BLOCK)
            yield from self._read(start, stop)
            start = stop

    def __reversed__(self) -> Iterator[Event]:
        k = self._count
        while k > 0:
            block = max(0, k - _BLOCK)
            yield from reversed(self._read(block, k))
            k = block

    def kind_at(self, index: int) -> str:
        """The kind of event `index`, without making the Event."""
        if not 0 <= index < self._count:
            raise IndexError("event index out of range")
        self.flush()
        return _SHAPE_KIND[self._codes[self._offset(index)] >> 4]

    def kinds(self, start: int = 0) -> list[str]:
        """The kinds of events `start`.. on, without making an Event: a reader that looks for
        one kind (the last roll, say) decodes only the events it finds."""
        count = self._count
        start = max(0, start)
        if start >= count:
            return []
        self.flush()
        chunk: list[int] = self._codes[self._offset(start):].tolist()
        names = _SHAPE_KIND
        shapes = _SHAPE_KEYS
        out: list[str] = []
        i = 0
        for _ in range(count - start):
            number = chunk[i] >> 4
            out.append(names[number])
            i += 1 + len(shapes[number])
        return out

    def count_kind(self, kind: str, start: int = 0) -> tuple[int, int]:
        """How many events of `kind` there are from `start` on, and the index of the last one
        (-1 when none): what kinds() would tell, without a list of every kind (the widget
        counts the rolls of a whole play_bots batch)."""
        count = self._count
        start = max(0, start)
        if start >= count:
            return 0, -1
        self.flush()
        codes = self._codes
        shapes = _SHAPE_KEYS
        wanted = {number for number, name in enumerate(_SHAPE_KIND) if name == kind}
        found = 0
        last = -1
        i = self._offset(start)
        for index in range(start, count):
            number = codes[i] >> 4
            if number in wanted:
                found += 1
                last = index
            i += 1 + len(shapes[number])
        return found, last

    def rolls(self) -> tuple[int, int]:
        """How many "rolled" events the log holds and the index of the last one (-1: none):
        ``count_kind("rolled")`` kept up to date as events come and go (no scan: the widget
        counts a play_bots batch's rolls with it)."""
        return self._rolls, self._last_roll

    def _read(self, start: int, stop: int) -> list[Event]:
        """Events start..stop-1 (0 <= start, stop <= len) as new Event objects."""
        if start >= stop:
            return []
        self.flush()
        codes = self._codes
        end = self._offset(stop) if stop < self._count else len(codes)
        # One C-level copy of the codes to a list, then a tight loop (no per-code array calls).
        return self._decode(codes[self._offset(start):end].tolist(), stop - start)

    def _offset(self, index: int) -> int:
        """Where event `index` (< len) starts in the flushed codes."""
        codes = self._codes
        shapes = _SHAPE_KEYS
        off: int = self._marks[index // _MARK]
        for _ in range(index % _MARK):
            head: int = codes[off]
            off += 1 + len(shapes[head >> 4])
        return off

    def _decode(self, chunk: list[int], count: int) -> list[Event]:
        """Events from a private copy of their codes: kind and player now, values when read
        (the copy, and the object list as it is now, stay with the events that need them)."""
        kinds = _SHAPE_KIND
        shapes = _SHAPE_KEYS
        objs = self._objs
        out: list[Event] = []
        i = 0
        for _ in range(count):
            head = chunk[i]
            number = head >> 4
            who = head & 15
            event = Event(kinds[number], who - 1 if who else None)
            keys = shapes[number]
            if keys:
                event.keys = keys
                event._values = None
                event._codes = chunk
                event._at = i + 1
                event._objs = objs
            out.append(event)
            i += 1 + len(keys)
        return out

    # ------------------------------------------------------------------ undo

    def __delitem__(self, index: slice) -> None:
        """Only ``del log[n:]`` (undo goes back to an earlier event count)."""
        if not isinstance(index, slice) or index.stop is not None or index.step is not None:
            raise TypeError("an event log only drops its end: del log[n:]")
        self.truncate(index.indices(self._count)[0])

    def truncate(self, count: int) -> None:
        """Keep the first `count` events."""
        if count >= self._count:
            return
        count = max(0, count)
        self.flush()
        codes = self._codes
        cut = self._offset(count)
        # the objects the dropped events kept: they come after those of the events kept
        first_obj = len(self._objs)
        off = cut
        end = len(codes)
        dropped_rolls = 0
        while off < end:
            head: int = codes[off]
            if _SHAPE_ROLL[head >> 4]:
                dropped_rolls += 1
            n = len(_SHAPE_KEYS[head >> 4])
            for k in range(off + 1, off + 1 + n):
                if codes[k] & 3 == 2:
                    first_obj = min(first_obj, codes[k] >> 2)
            off += 1 + n
        if first_obj < len(self._objs):  # a new list: events read before may still decode
            self._objs = self._objs[:first_obj]
        del codes[cut:]
        del self._marks[(count + _MARK - 1) // _MARK:]
        self._count = count
        self._rolls -= dropped_rolls
        if self._last_roll >= count:
            self._last_roll = self._last_roll_before(count) if self._rolls else -1

    def _last_roll_before(self, stop: int) -> int:
        """The index of the last "rolled" event before `stop` (-1: none), read block by block
        from the end (a game rolls every turn: the first block read has one, mostly)."""
        codes = self._codes
        block = (stop - 1) // _MARK
        while block >= 0:
            off: int = self._marks[block]
            last = -1
            for index in range(block * _MARK, min(stop, (block + 1) * _MARK)):
                head: int = codes[off]
                if _SHAPE_ROLL[head >> 4]:
                    last = index
                off += 1 + len(_SHAPE_KEYS[head >> 4])
            if last >= 0:
                return last
            block -= 1
        return -1

    def clear(self) -> None:
        self.truncate(0)

    # ------------------------------------------------------------------ comparing

    def __eq__(self, other: object) -> bool:
        if other is self:
            return True
        # EventLog apart: compiled by mypyc, isinstance("ab", (EventLog, list, tuple)) is True
        if isinstance(other, EventLog):
            return self._equal(other)
        if isinstance(other, (list, tuple)):
            return self._equal(other)
        return NotImplemented

    def _equal(self, theirs: Sequence[Any]) -> bool:
        if len(theirs) != self._count:
            return False
        return all(a == b for a, b in zip(self, theirs, strict=True))

    def __repr__(self) -> str:
        return f"<EventLog of {self._count} events>"

    def nbytes(self) -> int:
        """Bytes of the codes (what a finished game keeps per event, objects aside)."""
        return (len(self._codes) + len(self._tail)) * 4 + len(self._marks) * 4
