"""Events: what happened, as plain values. The log text is rendered from them (see i18n).

Every event that moves money carries ``payer``, ``payee`` (a player index, ``"bank"`` or
``"pot"``) and ``amount``, so the books can be checked from the events alone.

Events are stored compactly: the field names as one tuple shared by every event with the same
fields, the values as a tuple; ``data`` builds the dict when asked (a game makes about a
thousand events and most are never looked at one by one).
"""

from __future__ import annotations

from typing import Any

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
