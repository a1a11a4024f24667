"""Shared test helpers."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]


def fixtures_dir() -> Path:
    """The course board files in ``../shared/fixtures/ugentopoly-course`` (skip if absent)."""
    path = REPO_ROOT.parent / "shared" / "fixtures" / "ugentopoly-course"
    if not (path / "ugentopoly.xml").is_file():
        message = f"shared fixtures not found at {path}"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path


def skip_without_classroom_extra() -> None:
    """Skip a module when the classroom extra is missing, without importing Solara.

    Importing solara in a process with no kernel replaces ``comm.create_comm`` with one that
    keeps every comm, and so every widget, for ever; the widget tests later in the same
    process count released widgets. The classroom server runs in a child process."""
    import importlib.util

    if any(importlib.util.find_spec(name) is None for name in ("solara", "websocket")):
        pytest.skip("the classroom extra is not installed: pip install -e '.[classroom]'",
                    allow_module_level=True)


@contextlib.contextmanager
def _without_foreign_event_loop(path: Path) -> Iterator[None]:
    """A desk test runs as a script does: no event loop running in its thread.

    Playwright's sync API (the browser tests, earlier in the same session) leaves its own
    asyncio loop marked as running in the main thread for the rest of the session; code that
    asks ``asyncio.get_running_loop()`` (bot pacing, Roll once, win chances, trade advice, the
    analysis) would then hand its work to a loop nobody drives, and ``asyncio.run`` would
    refuse to start. The browser tests keep it; every other test sees none, and it is put back
    afterwards."""
    import asyncio

    if "browser" in path.parts:
        yield
        return
    foreign = asyncio._get_running_loop()
    asyncio._set_running_loop(None)
    try:
        yield
    finally:
        asyncio._set_running_loop(foreign)


@contextlib.contextmanager
def _ctrl_c_kept(where: str) -> Iterator[None]:
    """Ctrl-C's handler as it was before `where` ran: a test (or a module's fixtures) that
    leaves it changed is named in a warning and the handler put back, so later tests of
    Ctrl-C start from Python's own (a CI run under load once found SIGINT ignored in
    test_probability_limits, set by something earlier in the run)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.getsignal(signal.SIGINT)
    try:
        yield
    finally:
        after = signal.getsignal(signal.SIGINT)
        if after is not before:
            signal.signal(signal.SIGINT, before)
            warnings.warn(f"{where} left Ctrl-C's handler set to {after!r}: put back to "
                          f"{before!r}", stacklevel=1)


@pytest.fixture(autouse=True, scope="module")
def _no_foreign_event_loop_for_the_module(request: pytest.FixtureRequest) -> Iterator[None]:
    """The same for a module's own fixtures, set up before any test's: test_contract's
    recorded scenarios ask for a roll map whose answer goes to the loop (in CI's order, after
    the browser tests, it waited for ever on Playwright's)."""
    with _ctrl_c_kept(f"{request.node.nodeid} (its fixtures)"), \
            _without_foreign_event_loop(request.node.path):
        yield


@pytest.fixture(autouse=True)
def _no_foreign_event_loop(request: pytest.FixtureRequest) -> Iterator[None]:
    with _ctrl_c_kept(request.node.nodeid), _without_foreign_event_loop(request.node.path):
        yield


@pytest.fixture(scope="module")
def dask_client() -> Iterator[Any]:
    """A local Dask cluster of 2 worker processes, one per test module that asks for it
    (the rollouts' and the analysis' same-figures-everywhere tests)."""
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1,
                                       dashboard_address=None, processes=True,
                                       silence_logs=40)
    client = distributed.Client(cluster)
    try:
        yield client
    finally:
        client.close()
        cluster.close()
