"""Issue 9, "Done when": the widget in Jupyter Notebook 7 (`jupyter notebook`, started like the
JupyterLab server of conftest.py, with `window.jupyterapp` exposed): it renders and a click
plays (the page and the kernel agree afterwards)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
import urllib.error
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page

from .conftest import (
    _JS_RUN_ALL,
    _JS_WAIT_KERNEL_IDLE,
    ARTIFACTS,
    KERNEL_TIMEOUT_MS,
    UI_TIMEOUT_MS,
    JupyterServer,
    Kernel,
    _free_port,
    _unavailable,
    _write_isolated_jupyter_dirs,
    make_notebook,
)
from .test_widget_browser import IMPORTS, assert_page_matches_kernel, click_and_wait, root_of


@pytest.fixture(scope="module")
def notebook7(tmp_path_factory: pytest.TempPathFactory) -> Iterator[JupyterServer]:
    if importlib.util.find_spec("notebook") is None:
        _unavailable("Jupyter Notebook 7 is not installed (pip install -e '.[dev]')")
    base = tmp_path_factory.mktemp("nb7")
    root_dir = base / "root"
    root_dir.mkdir()
    env = _write_isolated_jupyter_dirs(base)
    port = _free_port()
    ARTIFACTS.mkdir(exist_ok=True)
    log_path = ARTIFACTS / "notebook7-server.log"
    cmd = [
        sys.executable,
        "-m",
        "notebook",
        "--no-browser",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--ServerApp.root_dir={root_dir}",
        "--IdentityProvider.token=",
        "--ServerApp.password=",
        "--ServerApp.disable_check_xsrf=True",
        "--JupyterNotebookApp.expose_app_in_browser=True",
        "--ServerApp.open_browser=False",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")
    log = log_path.open("wb")
    proc = subprocess.Popen(
        cmd, cwd=root_dir, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
    )
    server = JupyterServer(f"http://127.0.0.1:{port}", root_dir, proc, log_path)
    deadline = time.monotonic() + 90
    try:
        while True:
            if proc.poll() is not None:
                pytest.fail(f"jupyter notebook exited:\n{server.log_tail()}", pytrace=False)
            try:
                server.api("GET", "/api/status")
                break
            except (urllib.error.URLError, OSError, ValueError):
                if time.monotonic() > deadline:
                    pytest.fail(
                        f"jupyter notebook did not start:\n{server.log_tail()}", pytrace=False
                    )
                time.sleep(0.25)
        yield server
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)
        log.close()


def _open(page: Page, server: JupyterServer, cells: list[str], name: str) -> None:
    path: Path = server.root_dir / name
    path.write_text(json.dumps(make_notebook(cells), indent=1), encoding="utf-8")
    page.goto(f"{server.url}/notebooks/{name}")
    page.wait_for_function(
        "() => !!(window.jupyterapp && window.jupyterapp.shell)", timeout=UI_TIMEOUT_MS
    )
    page.wait_for_function(_JS_WAIT_KERNEL_IDLE, arg=name, timeout=KERNEL_TIMEOUT_MS)
    result = page.evaluate(_JS_RUN_ALL)
    assert not result["errors"] and all(c is not None for c in result["counts"]), result


def test_notebook7_renders_and_plays(page: Page, notebook7: JupyterServer, kernel: Kernel) -> None:
    _open(
        page,
        notebook7,
        [
            IMPORTS,
            'w = UgentopolyWidget("classic", players=["Ann", "Bob"], seed=1, turn_pause=0)\nw',
            "w.game.testing.script_dice((1, 2))\nw.refresh()",
        ],
        "nb7.ipynb",
    )
    kernel.page = page
    try:
        root = root_of(page)
        assert root.locator("[data-ugw-tile]").count() == 40
        assert_page_matches_kernel(page, kernel)
        click_and_wait(page, "button[data-ugw-action=roll]")
        snap = assert_page_matches_kernel(page, kernel)
        assert snap["decision"][0] == "buy" and snap["pos"][snap["decision"][1]] == 3
        root.screenshot(path=str(ARTIFACTS / "screens" / "notebook7-classic.png"))
    finally:
        kernel.page = None
        notebook7.shutdown_sessions()
