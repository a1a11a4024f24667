"""Events: what happened, as plain values. The log text is rendered from them (see i18n).

Every event that moves money carries ``payer``, ``payee`` (a player index, ``"bank"`` or
``"pot"``) and ``amount``, so the books can be checked from the events alone.
"""

from __future__ import annotations

from typing import Any

BANK = "bank"
POT = "pot"

Party = int | str  # a player index, BANK or POT


class Event:
    """One thing that happened. ``kind`` names it; ``data`` holds its JSON-ready fields."""

    __slots__ = ("kind", "player", "data")

    def __init__(self, kind: str, player: int | None = None,
                 data: dict[str, Any] | None = None) -> None:
        # A plain dict argument, not **kwargs: events are made on the hot path of simulations.
        self.kind = kind
        self.player = player
        self.data = data if data is not None else {}

    @property
    def moves_money(self) -> bool:
        return "amount" in self.data and "payer" in self.data

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "player": self.player, **self.data}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Event:
        fields = dict(data)
        kind = fields.pop("kind")
        player = fields.pop("player", None)
        return cls(kind, player, fields)

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
        fields = ", ".join(f"{k}={v!r}" for k, v in self.data.items())
        return f"Event({self.kind!r}, player={self.player}{', ' + fields if fields else ''})"
