"""Run one call in a child process with a memory cap and a timeout, and say how it ended.

The child is forked from the test process (everything is imported already, so a case costs
milliseconds), caps its address space at what it has now plus ``memory_mb``, runs the call,
and sends back how it ended: ``("ok", value)`` with whatever the call returned (small and
picklable), or ``("raised", module, class name, message)``. The parent gives it ``timeout``
seconds, then kills it: ``("timeout",)``; a child that dies (a MemoryError is a child that
raised) gives ``("died", exit code)``.
"""

from __future__ import annotations

import multiprocessing
import os
import resource
import signal
import traceback
from collections.abc import Callable
from typing import Any

_FORK = multiprocessing.get_context("fork")


def _vm_size() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


def _child(call: Callable[[], Any], memory_mb: int, conn: Any) -> None:
    cap = _vm_size() + memory_mb * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    try:
        value = call()
    except BaseException as exc:  # noqa: BLE001 - every ending is reported to the parent
        conn.send(("raised", type(exc).__module__, type(exc).__qualname__, str(exc)[:500],
                   traceback.format_exc()[-3000:]))
    else:
        try:
            conn.send(("ok", value))
        except Exception as exc:  # an unpicklable value: say so
            conn.send(("ok", f"<unpicklable {type(value).__name__}: {exc}>"))
    finally:
        conn.close()
        os._exit(0)  # no atexit handlers, no pytest teardown in the child


def _kill_tree(pid: int) -> None:
    """The child and the processes it started (a pool's workers are its children)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as listing:
            children = [int(p) for p in listing.read().split()]
    except OSError:
        children = []
    for child in children:
        _kill_tree(child)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def run_in_child(call: Callable[[], Any], *, timeout: float = 30.0,
                 memory_mb: int = 600) -> tuple[Any, ...]:
    """How `call()` ended in a forked child (see the module's docstring)."""
    parent, child = _FORK.Pipe(duplex=False)
    # not a daemon: a case may start a pool of worker processes of its own (killed with it)
    process = _FORK.Process(target=_child, args=(call, memory_mb, child))
    process.start()
    child.close()
    try:
        if parent.poll(timeout):
            try:
                return tuple(parent.recv())
            except EOFError:
                pass
        else:
            return ("timeout",)
    finally:
        if process.is_alive():
            _kill_tree(process.pid)
        process.join(5)
        parent.close()
    return ("died", process.exitcode)


def is_running(pid: int) -> bool:
    """The process exists and is not a zombie (ended, not yet reaped)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def descendants(pid: int | None = None) -> set[int]:
    """Every running process below `pid` (this one by default)."""
    pid = os.getpid() if pid is None else pid
    out: set[int] = set()
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children") as listing:
                children = [int(p) for p in listing.read().split()]
        except OSError:
            continue
        for child in children:
            if is_running(child):
                out.add(child)
            out |= descendants(child)
    return out


def is_named(outcome: tuple[Any, ...]) -> bool:
    """A raised error of the package's own (a named one), or argparse's exit."""
    return outcome[0] == "raised" and (
        str(outcome[1]).startswith("ugentopoly_widget") or outcome[2] == "SystemExit")
