"""Checks on the requests a view sends (pure functions: no widget, no comm)."""

from __future__ import annotations

import sys
from typing import Any

from .data import LOBBY_FLAGS, flag_option


def _pyodide_null() -> object:
    """JavaScript's null as Pyodide hands it over in a comm message (the browser site)."""
    if sys.platform != "emscripten":
        return None
    try:
        from pyodide.ffi import jsnull  # type: ignore[import-not-found]
    except ImportError:
        return None
    return jsnull


JS_NULL = _pyodide_null()


def from_view(content: Any, null: object = JS_NULL) -> Any:
    """A view's message with JavaScript's null as None. Pyodide passes null on as
    ``pyodide.ffi.jsnull``, not None (a lobby start with the turn timer off was refused in
    the browser site); elsewhere there is nothing to do."""
    if null is None:
        return content
    if content is null:
        return None
    if isinstance(content, dict):
        return {k: from_view(v, null) for k, v in content.items()}
    if isinstance(content, list):
        return [from_view(v, null) for v in content]
    return content


class RequestError(Exception):
    """A front-end request that is refused (stale, forged or malformed)."""


MAX_DEPTH = 12  # the deepest request (a trade: request > action > give > properties) is 4
MAX_NODES = 5_000  # values in one request (a setup with 8 players is about a hundred)


def check_shape(content: Any) -> None:
    """Refuse a request nested deeper than MAX_DEPTH or made of more than MAX_NODES values,
    walked without recursion: a list nested a thousand deep is one the kernel's JSON decoder
    accepts, and then any recursive look at it (the size check, a dict comparison) raises
    RecursionError."""
    stack: list[tuple[Any, int]] = [(content, 1)]
    nodes = 0
    while stack:
        value, depth = stack.pop()
        nodes += 1
        if depth > MAX_DEPTH or nodes > MAX_NODES:
            raise RequestError("refused: malformed request (nested too deeply or too large)")
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, (list, tuple)):
            stack.extend((v, depth + 1) for v in value)


def is_int(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def check_keys(content: dict[str, Any], allowed: set[str],
               optional: set[str] | None = None) -> None:
    extra = set(content) - allowed
    missing = allowed - (optional or set()) - set(content)
    if extra or missing:
        raise RequestError(
            f"refused: malformed request (unexpected {sorted(map(str, extra))[:5]}, "
            f"missing {sorted(missing)})"
        )


def check_request(content: dict[str, Any]) -> str:
    """The request's type, once its keys are those the contract gives that type (widget/
    contract/: every key it names, none it does not, the optional ones may be missing)."""
    from .contract import request_keys

    kind = content.get("type")
    keys = request_keys().get(kind) if isinstance(kind, str) else None
    if keys is None:
        raise RequestError(f"refused: unknown request type {str(kind)[:40]!r}")
    check_keys(content, set(keys[0]), optional=set(keys[1]))
    if "seq" in content and not is_int(content["seq"], 0, 2**53):
        raise RequestError("refused: the request has no valid state number (seq)")
    return str(kind)


def setup_options(options: Any) -> dict[str, Any]:
    """The rules options of a lobby setup request, each checked; lobby flags translated."""
    if not isinstance(options, dict):
        raise RequestError("refused: options is an object")
    out: dict[str, Any] = {}
    for key, value in options.items():
        if key in LOBBY_FLAGS:
            if not isinstance(value, bool):
                raise RequestError(f"refused: option {key} is true or false")
            name, setting = flag_option(key, value)
            out[name] = setting
        elif key == "mode":
            if value not in ("long", "short", "timed"):
                raise RequestError("refused: mode is long, short or timed")
            out[key] = value
        elif key in ("time_limit_minutes", "turn_timer_seconds"):
            if value is None:
                out[key] = None
            elif isinstance(value, (int, float)) and not isinstance(value, bool) \
                    and 0 < value <= 100_000:
                out[key] = value
            else:
                raise RequestError(f"refused: {key} is a positive number or null")
        elif key == "starting_money":
            if not is_int(value, 1, 10**8):
                raise RequestError("refused: starting money is a positive whole number")
            out[key] = value
        else:
            raise RequestError(f"refused: unknown option {str(key)[:40]!r}")
    if out.get("mode") != "timed":
        out.pop("time_limit_minutes", None)
    return out
