"""Real-browser test harness: JupyterLab + Debian's chromium driven by Playwright.

Fixtures
--------
``jupyter_server`` (session)
    A JupyterLab server on 127.0.0.1 (free port, no token, isolated config/settings/
    workspace/runtime dirs, news + update checks off, ``window.jupyterapp`` exposed).
    Its kernel ``python3`` is *this* interpreter (``sys.executable``).
``browser`` (session) / ``page`` (function)
    Headless ``/usr/bin/chromium`` through ``playwright.sync_api`` (never downloads a browser).
``open_notebook`` (function)
    ``open_notebook(cells, name) -> Page``: writes a notebook into the server root, opens it in
    JupyterLab, waits for the kernel, runs all cells and returns the page.
``kernel`` (function)
    ``kernel.run(code) -> str`` executes code in the kernel of the open notebook and returns
    its text output (raises ``KernelError`` on an exception); ``kernel.eval(expr)`` returns
    ``repr``-free ``str(expr)``; ``kernel.wait_for(expr, expected)`` polls until it matches.

On a failing test the page's screenshot, HTML and browser console go to ``test-artifacts/``.
Every test in this folder is marked ``browser`` (deselect with ``-m 'not browser'``).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:  # pragma: no cover
    from playwright.sync_api import Browser, Page

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--disable-dev-shm-usage",
]
VIEWPORT = {"width": 1280, "height": 900}
HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]
ARTIFACTS = REPO_ROOT / "test-artifacts"

SERVER_START_TIMEOUT = 90.0  # s, first start compiles nothing but imports a lot
KERNEL_TIMEOUT_MS = 90_000  # kernel start + all cells
UI_TIMEOUT_MS = 60_000  # JupyterLab app shell load

KERNELSPEC = {"name": "python3", "display_name": "Python 3", "language": "python"}


# --------------------------------------------------------------------------- marking
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in Path(str(item.path)).resolve().parents:
            item.add_marker(pytest.mark.browser)


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def _unavailable(reason: str) -> None:
    """Fail under CI (a missing browser must not turn into a green run), skip elsewhere."""
    if _in_ci():
        pytest.fail(f"browser tests cannot run under CI: {reason}", pytrace=False)
    pytest.skip(f"browser tests skipped: {reason}")


# --------------------------------------------------------------------------- failure artifacts
@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if report.when not in ("setup", "call") or not report.failed:
        return
    page = getattr(item, "_browser_page", None)
    if page is None:
        return
    _save_artifacts(item, page)


def _safe_name(nodeid: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "_", nodeid).strip("_")[:150]


def _save_artifacts(item: pytest.Item, page: Page) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    stem = _safe_name(item.nodeid)
    png, html, txt = (ARTIFACTS / f"{stem}{ext}" for ext in (".png", ".html", ".console.txt"))
    saved = []
    try:
        page.screenshot(path=str(png), full_page=True, timeout=10_000)
        saved.append(png.name)
    except Exception as exc:  # noqa: BLE001 - best effort, never hide the real failure
        saved.append(f"(screenshot failed: {exc})")
    try:
        html.write_text(page.content(), encoding="utf-8")
        saved.append(html.name)
    except Exception as exc:  # noqa: BLE001
        saved.append(f"(html failed: {exc})")
    console = getattr(item, "_browser_console", None)
    if console is not None:
        txt.write_text("\n".join(console), encoding="utf-8")
        saved.append(txt.name)
    sys.stderr.write(f"\n[browser] artifacts for {item.nodeid}: {ARTIFACTS}/ {saved}\n")


# --------------------------------------------------------------------------- server
def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class JupyterServer:
    url: str  # http://127.0.0.1:PORT
    root_dir: Path  # notebooks written here are served under /lab/tree/NAME
    process: subprocess.Popen[bytes]
    log_path: Path

    def api(self, method: str, path: str) -> Any:
        req = urllib.request.Request(self.url + path, method=method)
        with urllib.request.urlopen(req, timeout=10) as resp:
            body = resp.read()
        return json.loads(body) if body else None

    def shutdown_sessions(self) -> None:
        """Stop every kernel session (tests run one after another; kernels would pile up)."""
        try:
            for sess in self.api("GET", "/api/sessions"):
                self.api("DELETE", f"/api/sessions/{sess['id']}")
        except (urllib.error.URLError, OSError, ValueError):
            pass

    def log_tail(self, n: int = 60) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return "(no log)"


def _write_isolated_jupyter_dirs(base: Path) -> dict[str, str]:
    """Config, data, settings and runtime dirs of our own: nothing from ~ leaks in."""
    config_dir = base / "config"
    data_dir = base / "data"
    settings_dir = base / "lab-settings"
    workspaces_dir = base / "lab-workspaces"
    runtime_dir = base / "runtime"
    for d in (config_dir, data_dir, settings_dir, workspaces_dir, runtime_dir):
        d.mkdir(parents=True, exist_ok=True)

    # Kernel "python3" = this interpreter, whatever kernelspecs exist elsewhere
    # (JUPYTER_PATH comes first in the kernelspec search path).
    kdir = data_dir / "kernels" / "python3"
    kdir.mkdir(parents=True, exist_ok=True)
    (kdir / "kernel.json").write_text(
        json.dumps(
            {
                "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                "display_name": "Python 3",
                "language": "python",
                "metadata": {"debugger": False},
            }
        )
    )

    # No news prompt / announcements toast, no update check (both would hit the network
    # and pop notifications over the notebook).
    notif = settings_dir / "@jupyterlab" / "apputils-extension"
    notif.mkdir(parents=True, exist_ok=True)
    (notif / "notification.jupyterlab-settings").write_text(
        json.dumps({"checkForUpdates": False, "doNotDisturbMode": True, "fetchNews": "false"})
    )

    env = dict(os.environ)
    env.update(
        JUPYTER_CONFIG_DIR=str(config_dir),
        JUPYTER_PATH=str(data_dir),
        JUPYTER_RUNTIME_DIR=str(runtime_dir),
        JUPYTERLAB_SETTINGS_DIR=str(settings_dir),
        JUPYTERLAB_WORKSPACES_DIR=str(workspaces_dir),
        JUPYTER_PLATFORM_DIRS="1",
        PYDEVD_DISABLE_FILE_VALIDATION="1",
        PYTHONUNBUFFERED="1",
    )
    # Make sure the kernel and `jupyter` helpers come from this environment.
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    return env


@pytest.fixture(scope="session")
def jupyter_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[JupyterServer]:
    if importlib.util.find_spec("jupyterlab") is None:
        _unavailable("jupyterlab is not installed (pip install -e '.[dev]')")

    base = tmp_path_factory.mktemp("jupyter")
    root_dir = base / "root"
    root_dir.mkdir()
    env = _write_isolated_jupyter_dirs(base)
    port = _free_port()
    ARTIFACTS.mkdir(exist_ok=True)
    log_path = ARTIFACTS / "jupyter-server.log"
    cmd = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--ServerApp.root_dir={root_dir}",
        "--IdentityProvider.token=",
        "--ServerApp.password=",
        "--ServerApp.disable_check_xsrf=True",
        "--LabApp.expose_app_in_browser=True",
        "--LabApp.news_url=None",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        "--ServerApp.open_browser=False",
        "--LabApp.extension_manager=readonly",  # the default one queries PyPI
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:  # CI runs as root
        cmd.append("--allow-root")
    log = log_path.open("wb")
    proc = subprocess.Popen(
        cmd, cwd=root_dir, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
    )
    server = JupyterServer(f"http://127.0.0.1:{port}", root_dir, proc, log_path)
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    try:
        while True:
            if proc.poll() is not None:
                pytest.fail(
                    f"jupyter lab exited with {proc.returncode}:\n{server.log_tail()}",
                    pytrace=False,
                )
            try:
                server.api("GET", "/api/status")
                break
            except (urllib.error.URLError, OSError, ValueError):
                if time.monotonic() > deadline:
                    pytest.fail(
                        f"jupyter lab did not answer /api/status within {SERVER_START_TIMEOUT}s:\n"
                        f"{server.log_tail()}",
                        pytrace=False,
                    )
                time.sleep(0.25)
        yield server
    finally:
        stop_process(proc)
        log.close()


def stop_process(proc: subprocess.Popen[bytes]) -> None:
    """Terminate a server started by a fixture; kill it when it does not stop in 15 s."""
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=5)


# --------------------------------------------------------------------------- browser
@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        _unavailable(f"{CHROMIUM} is missing (apt-get install chromium; scripts/test does it)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed (pip install -e '.[dev]')")
    # Never let Playwright fetch its own browser builds (offline machine).
    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def page(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Page]:
    context = browser.new_context(viewport=VIEWPORT)  # type: ignore[arg-type]
    pg = context.new_page()
    pg.set_default_timeout(30_000)
    console: list[str] = []
    pg.on("console", lambda msg: console.append(f"[{msg.type}] {msg.text}"))
    pg.on("pageerror", lambda err: console.append(f"[pageerror] {err}"))
    request.node._browser_page = pg
    request.node._browser_console = console
    try:
        yield pg
    finally:
        request.node._browser_page = None
        context.close()


# --------------------------------------------------------------------------- notebooks
def make_notebook(cells: list[str]) -> dict[str, Any]:
    """A minimal nbformat v4 notebook with kernelspec metadata (no kernel chooser)."""
    import nbformat

    nb: dict[str, Any] = {
        "nbformat": 4,
        "nbformat_minor": 5,
        "metadata": {"kernelspec": dict(KERNELSPEC), "language_info": {"name": "python"}},
        "cells": [
            {
                "cell_type": "code",
                "id": f"cell-{i}",
                "metadata": {},
                "source": src,
                "outputs": [],
                "execution_count": None,
            }
            for i, src in enumerate(cells)
        ],
    }
    nbformat.validate(nbformat.from_dict(nb))
    return nb


_JS_WAIT_KERNEL_IDLE = """
(path) => {
  const app = window.jupyterapp;
  if (!app || !app.shell) return false;
  const w = app.shell.currentWidget;
  if (!w || !w.context || w.context.path !== path) return false;
  const sc = w.sessionContext;
  if (!sc || !sc.isReady || !sc.session || !sc.session.kernel) return false;
  return sc.session.kernel.status === 'idle' && sc.session.kernel.connectionStatus === 'connected';
}
"""

_JS_RUN_ALL = """
async () => {
  const app = window.jupyterapp;
  const ok = await app.commands.execute('notebook:run-all-cells');
  const nb = app.shell.currentWidget;
  const errors = [];
  const counts = [];
  for (const cell of nb.content.widgets) {
    if (cell.model.type !== 'code') continue;
    counts.push(cell.model.executionCount);
    const outputs = cell.model.outputs;
    for (let i = 0; i < outputs.length; i++) {
      const o = outputs.get(i).toJSON();
      if (o.output_type === 'error') errors.push(o.ename + ': ' + o.evalue);
    }
  }
  return { ok, errors, counts };
}
"""

_JS_EXECUTE = """
async (code) => {
  const nb = window.jupyterapp.shell.currentWidget;
  const kernel = nb.sessionContext.session.kernel;
  const future = kernel.requestExecute({ code, stop_on_error: true, store_history: false });
  const out = [];
  let error = null;
  future.onIOPub = (msg) => {
    const t = msg.header.msg_type;
    const c = msg.content;
    if (t === 'stream') out.push(c.text);
    else if (t === 'execute_result' || t === 'display_data') {
      if (c.data && c.data['text/plain'] !== undefined) out.push(c.data['text/plain'] + '\\n');
    } else if (t === 'error') {
      error = c.ename + ': ' + c.evalue + '\\n' + (c.traceback || []).join('\\n');
    }
  };
  await future.done;
  return { out: out.join(''), error };
}
"""

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


class KernelError(AssertionError):
    """Code run through :class:`Kernel` raised in the kernel."""


@dataclass
class Kernel:
    """Run code in the kernel behind the notebook that is open in ``page``."""

    page: Page | None = None
    history: list[str] = field(default_factory=list)

    def _page(self) -> Page:
        if self.page is None:
            raise RuntimeError("no notebook open: call open_notebook(...) first")
        return self.page

    def run(self, code: str) -> str:
        """Execute ``code``; return its stdout + text/plain results. Raises KernelError."""
        self.history.append(code)
        res = self._page().evaluate(_JS_EXECUTE, code)
        if res["error"]:
            raise KernelError(
                f"kernel raised while running:\n{code}\n{_ANSI.sub('', res['error'])}"
            )
        return str(res["out"])

    def eval(self, expr: str) -> str:
        """``str(expr)`` evaluated in the kernel."""
        return self.run(f"print({expr})").rstrip("\n")

    def wait_for(self, expr: str, expected: str, timeout: float = 10.0) -> str:
        """Poll ``str(expr)`` until it equals ``expected`` (front-end messages are async)."""
        deadline = time.monotonic() + timeout
        while True:
            got = self.eval(expr)
            if got == expected or time.monotonic() > deadline:
                return got
            time.sleep(0.1)


OpenNotebook = Callable[..., "Page"]


@pytest.fixture
def kernel() -> Kernel:
    return Kernel()


@pytest.fixture
def open_notebook(
    page: Page, jupyter_server: JupyterServer, kernel: Kernel
) -> Iterator[OpenNotebook]:
    # ``page`` first: without chromium we skip/fail before starting a server.
    """``open_notebook(cells, name="test.ipynb", allow_errors=False) -> Page``."""

    def _open(cells: list[str], name: str = "test.ipynb", *, allow_errors: bool = False) -> Page:
        if not name.endswith(".ipynb"):
            name += ".ipynb"
        nb_path = jupyter_server.root_dir / name
        nb_path.parent.mkdir(parents=True, exist_ok=True)
        nb_path.write_text(json.dumps(make_notebook(cells), indent=1), encoding="utf-8")
        # A fresh workspace per page: the default one would re-open earlier tests' notebooks.
        workspace = "t" + re.sub(r"[^A-Za-z0-9]", "", name) + str(int(time.time() * 1000))
        page.goto(f"{jupyter_server.url}/lab/workspaces/{workspace}/tree/{name}")
        page.wait_for_function(
            "() => !!(window.jupyterapp && window.jupyterapp.shell)", timeout=UI_TIMEOUT_MS
        )
        page.wait_for_function(_JS_WAIT_KERNEL_IDLE, arg=name, timeout=KERNEL_TIMEOUT_MS)
        # Give the notebook the whole width (the file browser is not under test).
        page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
        kernel.page = page
        result = page.evaluate(_JS_RUN_ALL)
        if not allow_errors:
            if result["errors"]:
                raise KernelError(f"{name}: cell error(s): {result['errors']}")
            if not result["ok"] or any(c is None for c in result["counts"]):
                raise KernelError(f"{name}: not every cell ran: {result}")
        return page

    try:
        yield _open
    finally:
        kernel.page = None
        jupyter_server.shutdown_sessions()


@pytest.fixture(scope="session")
def static_dir() -> Path:
    """The built front end (``npm run build --prefix js``)."""
    d = REPO_ROOT / "ugentopoly_widget" / "static"
    if not (d / "widget.js").exists():
        pytest.fail(f"{d}/widget.js missing: run `npm ci --prefix js && npm run build --prefix js`")
    return d
