"""Java ``.properties`` files, read exactly as ``java.util.Properties.load`` reads them.

Rules (the ones that matter for board name files):

- natural lines end at ``\\n``, ``\\r`` or ``\\r\\n``; leading white space (space, tab, form
  feed) is skipped; blank lines are ignored;
- a line whose first non-white character is ``#`` or ``!`` is a comment (comments never
  continue onto the next line);
- a line ending in an odd number of backslashes continues on the next natural line, whose
  leading white space is dropped;
- the key ends at the first unescaped ``=``, ``:`` or white space; white space around the
  separator is skipped, and one ``=``/``:`` after white space is part of the separator;
- escapes ``\\t`` ``\\n`` ``\\r`` ``\\f`` ``\\uXXXX``; any other escaped character stands for
  itself (so ``\\\\``, ``\\=``, ``\\:``, ``\\ `` and ``\\#``); a malformed ``\\uXXXX`` is an error;
- a later key overrides an earlier one.

The bytes are read as Java 9 and later read resource-bundle files (JEP 226): UTF-8, and
ISO-8859-1 when they are not valid UTF-8; a byte order mark, or an encoding given by the
caller, decides instead (``java.util.Properties.load(InputStream)`` itself reads ISO-8859-1:
pass ``encoding="iso-8859-1"`` for that).
"""

from __future__ import annotations

import codecs
import os
import re

from ..errors import BoardError
from .files import FileRefused, read_capped

__all__ = ["MAX_PROPERTIES_BYTES", "decode_properties", "parse_properties", "read_properties"]

MAX_PROPERTIES_BYTES = 5_000_000  # display names and card texts: a few kB in practice

_WHITE = " \t\f"
_NEWLINE = re.compile(r"\r\n|\r|\n")
_HEX = frozenset("0123456789abcdefABCDEF")
_SIMPLE_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}


def _odd_trailing_backslashes(line: str) -> bool:
    count = len(line) - len(line.rstrip("\\"))
    return count % 2 == 1


def _logical_lines(text: str) -> list[tuple[int, str]]:
    """(line number of the first natural line, logical line) pairs, comments dropped."""
    natural = _NEWLINE.split(text)
    result: list[tuple[int, str]] = []
    index = 0
    while index < len(natural):
        start = index + 1
        line = natural[index].lstrip(_WHITE)
        index += 1
        if not line or line[0] in "#!":
            continue
        parts: list[str] = []
        while _odd_trailing_backslashes(line):
            parts.append(line[:-1])
            if index >= len(natural):  # a continuation at the end of the file: dropped
                line = ""
                break
            line = natural[index].lstrip(_WHITE)
            index += 1
        parts.append(line)
        result.append((start, "".join(parts)))
    return result


def _unescape(raw: str, *, file: str, line: int) -> str:
    if "\\" not in raw:
        return raw
    out: list[str] = []
    i = 0
    n = len(raw)
    while i < n:
        ch = raw[i]
        i += 1
        if ch != "\\":
            out.append(ch)
            continue
        if i >= n:  # a lone trailing backslash: Java drops it
            break
        ch = raw[i]
        i += 1
        if ch == "u":
            digits = raw[i : i + 4]
            if len(digits) != 4 or not all(d in _HEX for d in digits):
                raise BoardError(f"malformed \\uxxxx escape: \\u{digits}", file=file, line=line)
            out.append(chr(int(digits, 16)))
            i += 4
        else:
            out.append(_SIMPLE_ESCAPES.get(ch, ch))
    text = "".join(out)
    if any("\ud800" <= c <= "\udfff" for c in text):
        # Java strings are UTF-16: join surrogate pairs, replace lone surrogates.
        text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return text


def _split(line: str) -> tuple[str, str]:
    """Split a logical line into the raw (still escaped) key and value."""
    n = len(line)
    key_len = 0
    value_start = n
    has_sep = False
    backslash = False
    while key_len < n:
        c = line[key_len]
        if c in "=:" and not backslash:
            value_start = key_len + 1
            has_sep = True
            break
        if c in _WHITE and not backslash:
            value_start = key_len + 1
            break
        backslash = (not backslash) if c == "\\" else False
        key_len += 1
    while value_start < n:
        c = line[value_start]
        if c not in _WHITE:
            if not has_sep and c in "=:":
                has_sep = True
            else:
                break
        value_start += 1
    return line[:key_len], line[value_start:]


def parse_properties(text: str, *, file: str = "<string>") -> dict[str, str]:
    """Parse the text of a ``.properties`` file; later keys override earlier ones."""
    result: dict[str, str] = {}
    for number, logical in _logical_lines(text):
        raw_key, raw_value = _split(logical)
        key = _unescape(raw_key, file=file, line=number)
        result[key] = _unescape(raw_value, file=file, line=number)
    return result


def decode_properties(data: bytes, encoding: str | None = None, *, file: str) -> str:
    """The text of a ``.properties`` file. A byte order mark decides (UTF-8, UTF-16): a Java
    program reading the file as ISO-8859-1 would see garbage keys, and nobody means those.
    Else a given `encoding` decides; without one (None) the file is read as Java 9 and later
    read resource bundles (JEP 226): strict UTF-8, and ISO-8859-1 when the bytes are not
    valid UTF-8 (a Latin-1 course file, with é as one byte, still reads as before)."""
    if encoding is None:
        if data.startswith(codecs.BOM_UTF8) or data.startswith(
                (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or b"\x00" in data:
            return decode_properties(data, "utf-8", file=file)  # BOM or NUL: the rules below
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            return data.decode("iso-8859-1")  # every byte is a character
    try:
        codec = codecs.lookup(encoding)
    except (LookupError, TypeError, ValueError):  # ValueError: a NUL in the name
        raise BoardError(f"unknown encoding {encoding!r}", file=file) from None
    if data.startswith(codecs.BOM_UTF8):
        data, encoding = data[len(codecs.BOM_UTF8) :], "utf-8"
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) and not codec.name.startswith(
        "utf-32"
    ):
        encoding = "utf-16"  # the byte order mark says which end first
    elif b"\x00" in data and not codec.name.startswith(("utf-16", "utf-32")):
        line = data[: data.index(b"\x00")].count(b"\n") + 1
        raise BoardError(
            "NUL bytes: this looks like UTF-16 without a byte order mark; save it as "
            "ISO-8859-1 or UTF-8 (or as UTF-16 with a byte order mark)",
            file=file,
            line=line,
        )
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise BoardError(f"not valid {encoding}: {exc.reason}", file=file, line=line) from None


def read_properties(path: str | os.PathLike[str], encoding: str | None = None
                    ) -> dict[str, str]:
    """Read a ``.properties`` file: UTF-8, or ISO-8859-1 when it is not valid UTF-8, as Java
    reads resource bundles; a byte order mark or an explicit `encoding` decides instead (see
    :func:`decode_properties`)."""
    file = os.fspath(path)
    if encoding is not None:
        try:
            codecs.lookup(encoding)
        except (LookupError, TypeError, ValueError):
            raise BoardError(f"unknown encoding {encoding!r}", file=file) from None
    try:
        data = read_capped(file, MAX_PROPERTIES_BYTES)
    except FileRefused as exc:
        raise BoardError(str(exc), file=file) from None
    return parse_properties(decode_properties(data, encoding, file=file), file=file)
