"""Checks on what devices send the room: names, class codes, teacher keys, request floods.

Pure functions and small classes, no server: the room (room.py) calls them under its lock."""

from __future__ import annotations

import secrets
import unicodedata

from ..widget.requests import RequestError

# A class code is read off a projector and typed on a phone: no 0/O, 1/I/L look-alikes.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
NAME_MAX = 20
# Characters a name may hold besides letters and digits (any script) and spaces.
NAME_EXTRA = set(" -.'_")


class RoomError(RequestError):
    """A request the room refuses: said in plain words, nothing changed."""


def new_code() -> str:
    """A short class code (31**6, about 890 million codes; wrong guesses are rate-limited)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_key() -> str:
    """The teacher's key: 128 random bits, drawn apart from the class code (the code, which
    the whole class sees, says nothing about it)."""
    return secrets.token_urlsafe(16)


def normal_code(value: object) -> str:
    """A typed code as the room compares it: upper case, spaces and dashes dropped."""
    if not isinstance(value, str) or len(value) > 40:
        raise RoomError("wrong class code: type the code shown on the projector")
    return "".join(c for c in value.upper() if c not in " -")


def same_secret(given: str, expected: str) -> bool:
    """Compare a code or key in constant time (no timing hints for guessing)."""
    return secrets.compare_digest(given.encode(), expected.encode())


def check_name(value: object) -> str:
    """A player's name as typed: 1 to NAME_MAX letters, digits, spaces and ``- . ' _``.

    Markup, control characters and emoji are refused with a message that says what a name
    may hold (the views draw names as text anyway; a refused name changes nothing)."""
    if not isinstance(value, str):
        raise RoomError("a name is text")
    name = " ".join(unicodedata.normalize("NFC", value).split())
    if not name:
        raise RoomError("type your name first")
    if len(name) > NAME_MAX:
        raise RoomError(f"a name has at most {NAME_MAX} characters")
    for ch in name:
        if ch in NAME_EXTRA or ch.isalnum():
            continue
        shown = ch if ch.isprintable() else f"U+{ord(ch):04X}"
        raise RoomError(f"a name holds letters, digits, spaces and - . ' _ only, "
                        f"not {shown!r}")
    return name


class Bucket:
    """Flood control per device: `rate` requests a second, bursts up to `burst`."""

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.at = now

    def take(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


__all__ = ["Bucket", "RoomError", "check_name", "new_code", "new_key", "normal_code",
           "same_secret"]
