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

from array import array
from collections.abc import Iterator, Sequence
from typing import Any, overload

BANK = "bank"
POT = "pot"

Party = int | str  # a player index, BANK or POT

_KEYS: dict[tuple[str, ...], tuple[str, ...]] = {}  # one shared tuple per set of field names
_NO_FIELDS: tuple[Any, ...] = ()


def fields(*names: str) -> tuple[str, ...]:
    """The shared tuple of these field names (for :meth:`Event.make`)."""
    return _KEYS.setdefault(names, names)


class Event:
    """One thing that happened. ``kind`` names it; ``data`` holds its JSON-ready fields."""

    __slots__ = ("kind", "player", "keys", "values")

    def __init__(self, kind: str, player: int | None = None,
                 data: dict[str, Any] | None = None) -> None:
        # A plain dict argument, not **kwargs: events are made on the hot path of simulations.
        self.kind = kind
        self.player = player
        if data:
            keys = tuple(data)
            self.keys: tuple[str, ...] = _KEYS.setdefault(keys, keys)
            self.values: tuple[Any, ...] = tuple(data.values())
        else:
            self.keys = _NO_FIELDS
            self.values = _NO_FIELDS

    @staticmethod
    def make(kind: str, player: int | None, keys: tuple[str, ...], values: tuple[Any, ...]
             ) -> Event:
        """An event from shared field names (see :func:`fields`) and its values, no dict."""
        event = Event(kind, player)
        event.keys = keys
        event.values = values
        return event

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
_SHAPE_KIND: list[str] = []
_SHAPE_KEYS: list[tuple[str, ...]] = []
_SHAPE_IDS: dict[tuple[str, tuple[str, ...]], int] = {}
PLAYER_SPAN = 16  # header = shape * PLAYER_SPAN + player + 1 (0: no player); games have <= 8


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
        _SHAPE_IDS[key] = number
    return number


# ---------------------------------------------------------------------- value codes

# A value code is 32 bits with a 2-bit tag: 0 an int inline (|value| < 2**29: amounts,
# positions, turns, players), 1 a process-wide constant (None, booleans, strings such as
# "bank", card ids or reasons, and short int sequences such as the dice, kept as tuples and
# handed out as new lists), 2 an object kept by the log itself (anything else: trade offers,
# name lists, huge numbers).
_INT_LIMIT = 1 << 29
_CONSTS: list[Any] = [None, True, False]
_CONST_IDS: dict[Any, int] = {}  # str and tuple-of-int keys only (True == 1 must not collide)
_MAX_CONSTS = 1 << 16  # past this (hostile inputs, endless new card ids) values go to the log
_NONE_CODE, _TRUE_CODE, _FALSE_CODE = 1, 5, 9
_TAIL = 256  # codes gathered in a list before they go to the array (one call, not one each)
_MARK = 16  # every 16th event's offset is kept: reading event i walks at most 15 headers


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


def _small_ints(values: Sequence[Any]) -> bool:
    return len(values) <= 8 and all(type(v) is int and -1024 <= v <= 1024 for v in values)


class EventLog(Sequence[Event]):
    """A game's events, stored compactly; reads like a list of :class:`Event` (indexing,
    slicing, iteration, ``len``, ``==`` with a list) and makes the objects only when read.

    The engine appends with :meth:`add` (a shape from :func:`shape` and the values in field
    order) or :meth:`record` (a kind and a dict, for events whose fields vary); undo truncates
    with ``del log[n:]``. Slices and :meth:`since` give new lists of new Event objects.
    """

    __slots__ = ("_codes", "_tail", "_objs", "_marks", "_count")

    def __init__(self, events: Sequence[Event] = ()) -> None:
        self._codes = array("i")  # flushed codes
        self._tail: list[int] = []  # codes not yet flushed to _codes
        self._objs: list[Any] = []  # values kept as objects (tag 2), in order of appearance
        self._marks = array("I")  # offset of event 0, 16, 32, ...
        self._count = 0
        for event in events:
            self.append(event)

    # ------------------------------------------------------------------ writing

    def add(self, shape: int, player: int | None, values: tuple[Any, ...]) -> None:
        """Record an event of `shape` (see :func:`shape`) with its values in field order."""
        tail = self._tail
        count = self._count
        if count & (_MARK - 1) == 0:
            self._marks.append(len(self._codes) + len(tail))
        if player is None:
            tail.append(shape * PLAYER_SPAN)
        elif 0 <= player < PLAYER_SPAN - 1:
            tail.append(shape * PLAYER_SPAN + player + 1)
        else:
            raise ValueError(f"an event's player must be 0..{PLAYER_SPAN - 2}, not {player}")
        for v in values:
            if type(v) is int:
                n: int = v
                if -_INT_LIMIT < n < _INT_LIMIT:
                    tail.append(n << 2)
                    continue
            tail.append(self._code(v))
        self._count = count + 1
        if len(tail) >= _TAIL:
            self._codes.extend(tail)
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
            self._codes.extend(tail)
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
        self.flush()
        return self._decode(self._offset(k))

    def since(self, start: int) -> list[Event]:
        """The events from index `start` on, as a new list (``log[start:]``)."""
        return self._read(max(0, start), self._count)

    def __iter__(self) -> Iterator[Event]:
        count = self._count
        self.flush()
        codes = self._codes
        off = 0
        for _ in range(count):
            yield self._decode(off)
            off += 1 + len(_SHAPE_KEYS[codes[off] // PLAYER_SPAN])

    def __reversed__(self) -> Iterator[Event]:
        k = self._count
        while k > 0:
            block = (k - 1) // _MARK * _MARK
            yield from reversed(self._read(block, k))
            k = block

    def kind_at(self, index: int) -> str:
        """The kind of event `index`, without making the Event."""
        if not 0 <= index < self._count:
            raise IndexError("event index out of range")
        self.flush()
        return _SHAPE_KIND[self._codes[self._offset(index)] // PLAYER_SPAN]

    def _read(self, start: int, stop: int) -> list[Event]:
        out: list[Event] = []
        if start >= stop:
            return out
        self.flush()
        codes = self._codes
        off = self._offset(start)
        for _ in range(stop - start):
            out.append(self._decode(off))
            off += 1 + len(_SHAPE_KEYS[codes[off] // PLAYER_SPAN])
        return out

    def _offset(self, index: int) -> int:
        """Where event `index` (< len) starts in the flushed codes."""
        codes = self._codes
        off: int = self._marks[index // _MARK]
        for _ in range(index % _MARK):
            off += 1 + len(_SHAPE_KEYS[codes[off] // PLAYER_SPAN])
        return off

    def _decode(self, off: int) -> Event:
        codes = self._codes
        head: int = codes[off]
        number = head // PLAYER_SPAN
        who = head % PLAYER_SPAN
        keys = _SHAPE_KEYS[number]
        values: list[Any] = []
        for k in range(1, len(keys) + 1):
            values.append(self._value(codes[off + k]))
        return Event.make(_SHAPE_KIND[number], who - 1 if who else None, keys, tuple(values))

    def _value(self, code: int) -> Any:
        tag = code & 3
        if tag == 0:
            return code >> 2
        if tag == 1:
            value = _CONSTS[code >> 2]
            return list(value) if type(value) is tuple else value
        return self._objs[code >> 2]

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
        while off < end:
            n = len(_SHAPE_KEYS[codes[off] // PLAYER_SPAN])
            for k in range(off + 1, off + 1 + n):
                if codes[k] & 3 == 2:
                    first_obj = min(first_obj, codes[k] >> 2)
            off += 1 + n
        del self._objs[first_obj:]
        del codes[cut:]
        del self._marks[(count + _MARK - 1) // _MARK:]
        self._count = count

    def clear(self) -> None:
        self.truncate(0)

    # ------------------------------------------------------------------ comparing

    def __eq__(self, other: object) -> bool:
        if other is self:
            return True
        # one type at a time: mypyc mis-narrows isinstance() with a tuple of types here
        theirs: Sequence[Any]
        if isinstance(other, EventLog):
            theirs = other
        elif isinstance(other, list):
            theirs = other
        elif isinstance(other, tuple):
            theirs = other
        else:
            return NotImplemented
        if len(theirs) != self._count:
            return False
        return all(a == b for a, b in zip(self, theirs, strict=True))

    def __repr__(self) -> str:
        return f"<EventLog of {self._count} events>"

    def nbytes(self) -> int:
        """Bytes of the codes (what a finished game keeps per event, objects aside)."""
        return (len(self._codes) + len(self._tail)) * 4 + len(self._marks) * 4
