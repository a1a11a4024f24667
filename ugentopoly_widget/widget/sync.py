"""The state as JSON text, built from the pieces of the previous state that did not change.

A state is replaced whole on every action, but most of it (who owns what, the buildings, most
players, often the legal actions) is what the previous state had: the JSON text of those
sections (and of each player) is kept and reused, so one action encodes only what it changed.
The text parses to exactly the state (tests compare); only the order of its keys differs.

Where orjson is installed (a dependency; a platform without its wheel falls back to this),
state_json() encodes the whole state with it instead: in C it takes about a fifth of the
time of the section reuse below (4.7 vs 24 us an action of a classic game, measured)."""

from __future__ import annotations

import json
import json.encoder
from collections.abc import Callable, Mapping
from json.encoder import encode_basestring_ascii
from typing import Any

_orjson: Any
try:  # orjson encodes a whole state in C about 5x faster than reusing sections (measured)
    import orjson as _orjson
except ImportError:  # pragma: no cover - a platform without an orjson wheel
    _orjson = None
_orjson_dumps: Callable[..., bytes] | None = None if _orjson is None else _orjson.dumps
_ORJSON_OPTIONS: int = 0 if _orjson is None else _orjson.OPT_NON_STR_KEYS

# The C encoder, made once: json.dumps sets one up on every call (most of its cost on a state).
_make: Any = getattr(json.encoder, "c_make_encoder", None)


def _refuse(value: Any) -> Any:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


if _make is not None:
    _iterencode = _make(None, _refuse, encode_basestring_ascii, None, ":", ",", False, False,
                        True)

    def _dumps(value: Any) -> str:
        return "".join(_iterencode(value, 0))
else:  # pragma: no cover - CPython has it; other Pythons get json.dumps
    def _dumps(value: Any) -> str:
        return json.dumps(value, separators=(",", ":"))


# The sections most actions leave as they were, compared by value with the previous state's
# (their builders give each field one type: no 1 == True mix-up reuses the wrong text). The
# rest of a state (small, and new on every action) is encoded in one call.
MAX_ITEMS = 4096  # list items whose text is kept by identity
BY_VALUE = frozenset({"owner", "level", "mortgaged", "legal", "players", "history", "ranking"})
_PREFIX = {key: encode_basestring_ascii(key) + ":" for key in BY_VALUE}


class StateText:
    """Encodes states one after the other, reusing the text of unchanged sections."""

    def __init__(self) -> None:
        self._parts: dict[str, tuple[Any, str]] = {}  # key -> (value, its JSON text)
        self._players: list[tuple[Any, str]] = []  # per player: (dict, its JSON text)
        self._items: dict[int, tuple[Any, str]] = {}  # id -> (a legal action's dict, text)

    def encode(self, state: Mapping[str, Any]) -> str:
        parts = self._parts
        rest: dict[str, Any] = {}
        kept: list[str] = []
        for key, value in state.items():
            if key not in BY_VALUE:
                rest[key] = value
                continue
            if key == "players" and type(value) is list:
                text = self._encode_players(value)
            elif key == "legal" and type(value) is list:
                hit = parts.get(key)
                if hit is not None and (hit[0] is value or hit[0] == value):
                    text = hit[1]
                else:
                    text = self._encode_items(value)
                    parts[key] = (value, text)
            else:
                hit = parts.get(key)
                if hit is not None and (hit[0] is value or hit[0] == value):
                    text = hit[1]
                else:
                    text = _dumps(value)
                    parts[key] = (value, text)  # kept: states are never changed in place
            kept.append(_PREFIX[key] + text)
        text = _dumps(rest)
        if not kept:
            return text
        return text[:-1] + ("," if rest else "") + ",".join(kept) + "}"

    def _encode_items(self, items: list[Any]) -> str:
        """A list whose items are often the very objects of earlier states (the legal
        actions' dicts, see LogCache.legal): each one's text kept by identity."""
        known = self._items
        texts: list[str] = []
        for item in items:
            hit = known.get(id(item))
            if hit is None or hit[0] is not item:  # kept alive here: an id is not reused
                if len(known) >= MAX_ITEMS:
                    known.clear()
                hit = known[id(item)] = (item, _dumps(item))
            texts.append(hit[1])
        return "[" + ",".join(texts) + "]"

    def _encode_players(self, players: list[Any]) -> str:
        """Each player's text reused while that player's dict is unchanged (an action moves
        one or two players' money or token)."""
        cached = self._players
        del cached[len(players):]
        texts: list[str] = []
        for index, player in enumerate(players):
            if index < len(cached) and (cached[index][0] is player or cached[index][0] == player):
                texts.append(cached[index][1])
                continue
            text = _dumps(player)
            if index < len(cached):
                cached[index] = (player, text)
            else:
                cached.append((player, text))
            texts.append(text)
        return "[" + ",".join(texts) + "]"


def state_json(state: Mapping[str, Any], encoder: StateText) -> str:
    """The state's compact JSON text: orjson's whole-state encoding where it is installed,
    else `encoder` (the standard library's C encoder, reusing unchanged sections). Keys that
    are not strings become strings, as with json; anything orjson refuses (an int past 64
    bits) takes the encoder, which says what it cannot encode."""
    if _orjson_dumps is not None:
        try:
            return _orjson_dumps(state, option=_ORJSON_OPTIONS).decode()
        except TypeError:  # orjson.JSONEncodeError
            pass
    return encoder.encode(state)


__all__ = ["StateText", "state_json"]
