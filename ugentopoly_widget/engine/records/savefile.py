"""Save files: the checks on what is read, the digest, and writing that never loses a save.

A save file is ``{"format", "version", "record", "checkpoint", "elapsed_seconds", "digest"}``.
The record rebuilds the game; the checkpoint (version 3, see :mod:`.savestate`) is the state at
the newest turn boundary, so a load restores it and replays only the actions after it. The digest
is a SHA-256 of the whole record, the checkpoint, the elapsed time and the digest of the state
the load reaches. It is not keyed: it detects damage and casual edits (a changed number, a pasted
line), not a determined editor, who can recompute it.

In version 3 the record's simple actions are written in their text form (``"0:roll"``, ``"2:build
37"``): a 100,000-turn game is 600,000 actions, and one short string each parses and hashes
several times faster than an object each. Actions with free text (trades, selling down) keep
their object form; a record may mix both.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import re
import secrets
import stat
from typing import Any

from ..actions import ACTION_TYPES, Action, action_from_dict
from ..errors import InvalidActionError, SaveFileError

__all__ = [
    "MAX_SAVE_BYTES",
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "check_payload",
    "check_record",
    "decode_actions",
    "encode_actions",
    "save_digest",
    "write_atomic",
]

SAVE_FORMAT = "ugentopoly-save"
SAVE_VERSION = 3  # 1: the digest covered the replayed state only; 2: no checkpoint
READABLE_VERSIONS = (2, 3)
MAX_SAVE_BYTES = 64_000_000  # about 500,000 turns of a classic game
INJECTION_OPS = frozenset({"dice", "stack", "cash", "owner", "place", "jail", "scenario"})
_HEX64 = re.compile(r"[0-9a-f]{64}")


_NO_CHECKPOINT: Any = object()  # version 2: the digest has no checkpoint field


def save_digest(record: Any, elapsed: Any, state_digest: str,
                checkpoint: Any = _NO_CHECKPOINT) -> str:
    """The digest of a save file: the whole record, the elapsed time, the state reached and
    (version 3) the checkpoint, ``None`` included."""
    covered = {"record": record, "elapsed_seconds": elapsed, "state": state_digest}
    if checkpoint is not _NO_CHECKPOINT:
        covered["checkpoint"] = checkpoint
    text = json.dumps(
        covered,
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=True,  # lone surrogates in names must not break the digest
        allow_nan=False,
    )
    return hashlib.sha256(text.encode("ascii")).hexdigest()


# --------------------------------------------------------------------------- checks


def _fail(field: str, expected: str, value: Any) -> SaveFileError:
    shown = repr(value)
    if len(shown) > 40:
        shown = shown[:37] + "..."
    return SaveFileError(f"{field}: expected {expected}, not {shown}")


def _object(value: Any, field: str, required: set[str], optional: set[str] | None = None) -> None:
    if not isinstance(value, dict):
        raise _fail(field, "an object", value)
    allowed = required | (optional or set())
    for key in value:
        if not isinstance(key, str) or key not in allowed:
            raise SaveFileError(f"{field}: unexpected field {str(key)[:40]!r}")
    for key in sorted(required - set(value)):
        raise SaveFileError(f"{field}.{key}: missing")


def _text(value: Any, field: str, limit: int = 100) -> None:
    if not isinstance(value, str) or len(value) > limit:
        raise _fail(field, f"text of at most {limit} characters", value)


def _whole(value: Any, field: str, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fail(field, f"a whole number from {low} to {high}", value)


def _list(value: Any, field: str, limit: int) -> list[Any]:
    if not isinstance(value, list) or len(value) > limit:
        raise _fail(field, f"a list of at most {limit} items", value)
    return value


def check_payload(payload: Any) -> None:
    """The envelope of a save file, field by field."""
    if not isinstance(payload, dict) or payload.get("format") != SAVE_FORMAT:
        raise SaveFileError("not an ugentopoly save file")
    version = payload.get("version")
    if version == 1:
        raise SaveFileError(
            "a save file of version 1 (from an older version of this package) cannot be "
            "checked: its digest does not cover its record"
        )
    if isinstance(version, bool) or version not in READABLE_VERSIONS:
        raise SaveFileError(f"unknown save file version {version!r}")
    if "record" not in payload:
        raise SaveFileError("the save file has no record")
    fields = {"format", "version", "record", "elapsed_seconds", "digest"}
    _object(payload, "save file", fields | {"checkpoint"} if version == 3 else fields)
    elapsed = payload["elapsed_seconds"]
    if (
        isinstance(elapsed, bool)
        or not isinstance(elapsed, (int, float))
        or not math.isfinite(elapsed)
        or not 0 <= elapsed < 10**9
    ):
        raise _fail("elapsed_seconds", "a number of seconds from 0 to 10**9", elapsed)
    digest = payload["digest"]
    if not isinstance(digest, str) or not _HEX64.fullmatch(digest):
        raise _fail("digest", "64 hexadecimal digits", digest)
    check_record(payload["record"])


def check_record(record: Any, field: str = "record") -> None:
    """Every field of a record by type and range; what only a game can judge (a legal action, a
    known profile, a taken token) is judged when the record is replayed."""
    _object(record, field,
            {"profile", "options", "board", "players", "seed", "lang", "injections", "actions"})
    _text(record["profile"], f"{field}.profile", 40)
    options = record["options"]
    if not isinstance(options, dict):
        raise _fail(f"{field}.options", "an object", options)
    _check_board(record["board"], f"{field}.board")
    players = _list(record["players"], f"{field}.players", 8)
    if len(players) < 2:
        raise _fail(f"{field}.players", "2 to 8 players", players)
    for k, spec in enumerate(players):
        where = f"{field}.players[{k}]"
        _object(spec, where, {"name", "token", "colour"})
        for key in ("name", "token", "colour"):
            _text(spec[key], f"{where}.{key}", 40)
    _whole(record["seed"], f"{field}.seed", 0, 2**63 - 1)
    if record["lang"] not in ("en", "nl"):
        raise _fail(f"{field}.lang", "'en' or 'nl'", record["lang"])
    actions = _list(record["actions"], f"{field}.actions", 10**7)
    if not set(map(type, actions)) <= {str, dict}:  # one pass in C; the loop names the first
        for k, action in enumerate(actions):
            if type(action) is not str and type(action) is not dict:
                raise _fail(f"{field}.actions[{k}]", "an action text or object", action)
    injections = _list(record["injections"], f"{field}.injections", 10**6)
    for k, step in enumerate(injections):
        where = f"{field}.injections[{k}]"
        _object(step, where, {"at", "op", "args"})
        _whole(step["at"], f"{where}.at", 0, len(actions))
        if not isinstance(step["op"], str) or step["op"] not in INJECTION_OPS:
            raise _fail(f"{where}.op", f"one of {sorted(INJECTION_OPS)}", step["op"])
        _list(step["args"], f"{where}.args", 10_000)


def _check_board(board: Any, field: str) -> None:
    if isinstance(board, dict) and "bundled" in board:
        _object(board, field, {"bundled"})
        _text(board["bundled"], f"{field}.bundled", 100)
        return
    _object(board, field, {"xml"}, {"file", "names"})
    if not isinstance(board["xml"], str):
        raise _fail(f"{field}.xml", "the board's XML text", board["xml"])
    if "file" in board:
        _text(board["file"], f"{field}.file", 4096)
    names = board.get("names", {})
    if not isinstance(names, dict):
        raise _fail(f"{field}.names", "an object of display-name tables", names)
    for lang, table in names.items():
        if not isinstance(table, dict):
            raise _fail(f"{field}.names[{lang!r}]", "an object of display names", table)
        for key, value in table.items():
            if not isinstance(value, str):
                raise _fail(f"{field}.names[{lang!r}][{key[:40]!r}]", "text", value)


# --------------------------------------------------------------------------- actions

# The kinds whose text form is exact: a player, a kind and at most one number or word.
_TEXT_KINDS = frozenset(
    name for name in ACTION_TYPES if name not in ("sell_down", "propose_trade")
)
_TEXT = re.compile(r"(-?[0-9]{1,3}):([a-z_]{1,20})(?: ([0-9]{1,10}|[a-z]{1,10}))?")
_ARGUMENT = {"bid": "amount", "tax": "choice"}  # the rest: "position"
_DECODED: dict[str, Action] = {}  # one instance per text: a long game repeats a few hundred


def encode_actions(actions: list[Action]) -> list[str | dict[str, Any]]:
    """The actions of a version-3 record: the text form where it is exact, else the object."""
    return [str(a) if a.type in _TEXT_KINDS else a.to_dict() for a in actions]


def decode_actions(items: list[Any]) -> list[Action]:
    """The actions of a record, each given as its text (version 3) or its object form, checked
    as strictly as ``action_from_dict``. Raises SaveFileError naming the first bad one."""
    known = _DECODED
    # Texts seen before in one pass in C; a dict (unhashable) or a new text leaves a None.
    out: list[Action | None] = [
        known.get(item) if type(item) is str else None for item in items
    ] if dict in set(map(type, items)) else list(map(known.get, items))
    k = -1
    while True:
        try:
            k = out.index(None, k + 1)
        except ValueError:
            break
        item = items[k]
        action = known.get(item) if type(item) is str else None
        if action is None:
            try:
                action = _decode_text(item) if type(item) is str else action_from_dict(item)
            except InvalidActionError as exc:
                raise SaveFileError(f"record.actions[{k}]: {exc}") from None
            if type(item) is str and len(known) < 100_000:
                known[item] = action
        out[k] = action
    return out  # type: ignore[return-value] # no None is left


def _decode_text(text: str) -> Action:
    match = _TEXT.fullmatch(text)
    if match is None or match.group(2) not in _TEXT_KINDS:
        raise InvalidActionError(f"not an action text like '0:roll' or '1:bid 120': {text!r}")
    player, kind, argument = match.groups()
    data: dict[str, Any] = {"type": kind, "player": int(player)}
    if argument is not None:
        key = _ARGUMENT.get(kind, "position")
        data[key] = argument if key == "choice" else int(argument) if argument.isdigit() else ""
    action = action_from_dict(data)
    if str(action) != text:  # one text per action: "0:bid 007" is not how it is written
        raise InvalidActionError(f"not the text form of an action: {text!r}")
    return action


# --------------------------------------------------------------------------- writing


def write_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write `text` to `path` whole or not at all: into a new file in the same folder, synced,
    then renamed over the old one. A failure (a full disk) leaves the previous file as it was."""
    target = os.path.realpath(os.fspath(path))  # a link: replace the file it points to
    folder = os.path.dirname(target)
    temporary = os.path.join(folder, f".{os.path.basename(target)}.{secrets.token_hex(6)}.tmp")
    data = text.encode("utf-8")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0),
                 0o666)
    try:
        try:
            if hasattr(os, "fchmod"):
                with contextlib.suppress(OSError):  # keep the old file's permissions
                    os.fchmod(fd, stat.S_IMODE(os.stat(target).st_mode))
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise

