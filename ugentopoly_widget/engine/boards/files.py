"""Reading files that may come from anyone: regular files only, and never more than a cap.

A board, names or save file could be a FIFO (reading blocks for ever), a device such as
``/dev/zero`` (reading never ends) or simply huge; each is refused before its content is read,
and no read takes more than the cap plus one byte.
"""

from __future__ import annotations

import os
import stat

__all__ = ["FileRefused", "read_capped"]

_CHUNK = 1 << 20


class FileRefused(Exception):
    """The file cannot or may not be read; the message says why (callers add the file name)."""


def _what(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"


def _check(info: os.stat_result, cap: int) -> None:
    if not stat.S_ISREG(info.st_mode):
        raise FileRefused(f"not a regular file ({_what(info.st_mode)}): refused unread")
    if info.st_size > cap:
        raise FileRefused(f"file is too large ({info.st_size} bytes; the limit is {cap})")


def read_capped(path: str | os.PathLike[str], cap: int) -> bytes:
    """The content of a regular file of at most `cap` bytes, else :class:`FileRefused`."""
    try:
        _check(os.stat(path), cap)
        # O_NONBLOCK: should a FIFO be swapped in after the check, opening it must not block;
        # the descriptor is checked again before anything is read.
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
        fd = os.open(path, flags)
    except OSError as exc:
        raise FileRefused(f"cannot read file: {exc.strerror or exc}") from None
    try:
        _check(os.fstat(fd), cap)
        chunks: list[bytes] = []
        total = 0
        while total <= cap:  # a file that grows while it is read stops at cap + 1 bytes
            chunk = os.read(fd, min(_CHUNK, cap + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        raise FileRefused(f"cannot read file: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if total > cap:
        raise FileRefused(f"file is too large (more than {cap} bytes)")
    return b"".join(chunks)
