"""VS Code's notebook widget manager, with a real kernel, offline (issue 35).

VS Code itself cannot run here (its Jupyter extension comes only from the marketplace): what runs
is the widget manager its webview uses, the npm package ``@vscode/jupyter-ipywidgets8`` (pinned in
``tests/vscode/package.json``), in a page that renders outputs as the extension's webview does
(``tests/vscode/src/harness.js``), connected to a kernel of a plain ``jupyter server``; anywidget's
script is found the way the extension finds it for a local kernel (``vscode_host.py``: the
kernel environment's ``share/jupyter/nbextensions``). Every request that is not for 127.0.0.1 is
blocked and counted. What the harness does not have: VS Code's editor, its renderer messaging,
its CDN option and its remote-server path.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import pytest

from . import vscode_host
from .conftest import (
    ARTIFACTS,
    REPO_ROOT,
    _free_port,
    _unavailable,
    _write_isolated_jupyter_dirs,
    stop_process,
)

if TYPE_CHECKING:  # pragma: no cover
    from playwright.sync_api import Browser, Locator, Page

pytestmark = pytest.mark.vscode

HARNESS = REPO_ROOT / "tests" / "vscode"
NO_COPY = "novsc"  # a kernel whose environment has no local copy of anywidget's script
ERROR = "No version of module anywidget is registered"
SETUP = "from ugentopoly_widget import UgentopolyWidget\n"


@dataclass
class VSCodeServer:
    url: str  # the harness page
    served: Path
    process: subprocess.Popen[bytes]
    answers: dict[str, dict[str, Any]]


def _venv_without_nbextensions(base: Path) -> Path:
    """A venv that imports this one's packages (a .pth runs ``site.addsitedir``) but whose own
    ``share/jupyter`` has nothing: anywidget is importable, its nbextension copy is not there."""
    venv = base / NO_COPY
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True,
                   timeout=120)
    python = venv / "bin" / "python"
    code = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    purelib = subprocess.run([str(python), "-c", code], capture_output=True, text=True,
                             check=True).stdout.strip()
    here = sysconfig.get_paths()["purelib"]
    Path(purelib, "ugw_parent_env.pth").write_text(f"import site; site.addsitedir({here!r})\n")
    assert not (venv / "share" / "jupyter" / "nbextensions" / "anywidget").exists()
    return python


@pytest.fixture(scope="session")
def vscode_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VSCodeServer]:
    dist = HARNESS / "dist"
    if not (dist / "index.html").exists() or not (dist / "ipywidgets.js").exists():
        _unavailable(f"{dist} is not built: npm ci --prefix tests/vscode && "
                     "npm run build --prefix tests/vscode (scripts/test does it)")
    base = tmp_path_factory.mktemp("vscode")
    env = _write_isolated_jupyter_dirs(base)
    kernels = {"python3": sys.executable, NO_COPY: str(_venv_without_nbextensions(base))}
    kdir = base / "data" / "kernels" / NO_COPY
    kdir.mkdir(parents=True)
    (kdir / "kernel.json").write_text(json.dumps({
        "argv": [kernels[NO_COPY], "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "no local anywidget", "language": "python"}))
    static = base / "static"
    served = static / "vscode"
    shutil.copytree(dist, served)
    host_env = vscode_host.isolated_env(base)
    answers = {name: vscode_host.publish(served, "/static/vscode/", name, python, host_env)
               for name, python in kernels.items()}
    port = _free_port()
    root = base / "root"
    root.mkdir()
    cmd = [sys.executable, "-m", "jupyter_server", "--ServerApp.ip=127.0.0.1",
           f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
           f"--ServerApp.root_dir={root}", "--IdentityProvider.token=", "--ServerApp.password=",
           "--ServerApp.disable_check_xsrf=True", "--ServerApp.open_browser=False",
           f"--ServerApp.extra_static_paths={[str(static)]!r}"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")
    ARTIFACTS.mkdir(exist_ok=True)
    log = (ARTIFACTS / "vscode-server.log").open("wb")
    proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            if proc.poll() is not None:
                pytest.fail(f"jupyter server exited with {proc.returncode} "
                            "(test-artifacts/vscode-server.log)")
            try:
                urllib.request.urlopen(f"{url}/static/vscode/index.html", timeout=5).read()
                break
            except (urllib.error.URLError, OSError):
                if time.monotonic() > deadline:
                    pytest.fail("jupyter server did not serve the harness within 90 s")
                time.sleep(0.25)
        yield VSCodeServer(f"{url}/static/vscode/index.html", served, proc, answers)
    finally:
        stop_process(proc)
        log.close()


@dataclass
class Harness:
    """One page of the harness: a kernel of its own, cells run as in a notebook."""

    page: Page
    outside: list[str]  # requests for any host but 127.0.0.1 (blocked)
    console: list[str]
    requests: list[str] = field(default_factory=list)

    def run(self, code: str, **options: Any) -> int:
        """Run ``code`` as a new cell (or ``index=`` an earlier one again); its index."""
        res = self.page.evaluate("([c, o]) => harness.run(c, o)", [code, options])
        assert not res["errors"], res["errors"]
        return int(res["index"])

    def eval(self, expr: str) -> Any:
        """A JSON-able Python expression evaluated in the kernel."""
        res = self.page.evaluate("(c) => harness.exec(c)",
                                 f"import json as _j; print(_j.dumps({expr}))")
        assert res["error"] is None, re.sub(r"\x1b\[[0-9;]*m", "", res["error"])
        return json.loads(res["out"].strip().splitlines()[-1])

    def cell(self, index: int) -> Locator:
        return self.page.locator(f"section.cell[data-cell='{index}']")

    def root(self, index: int) -> Locator:
        return self.cell(index).locator("[data-ugw=root]")

    def wait_root(self, index: int) -> Locator:
        """The board of cell ``index``, once drawn (scrolled to: outputs render in view)."""
        self.cell(index).locator(".cell-outputs").scroll_into_view_if_needed()
        root = self.root(index)
        root.wait_for(state="visible", timeout=60_000)
        return root


OpenHarness = Callable[..., Harness]


@pytest.fixture
def open_harness(browser: Browser, vscode_server: VSCodeServer,
                 request: pytest.FixtureRequest) -> Iterator[OpenHarness]:
    pages: list[Page] = []

    def _open(kernel: str = "python3", theme: str = "light", lazy: bool = True,
              viewport: tuple[int, int] = (1280, 900)) -> Harness:
        context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
        page = context.new_page()
        page.set_default_timeout(30_000)
        harness = Harness(page, [], [])

        def route(r: Any) -> None:
            url = r.request.url
            host = urlsplit(url).hostname
            if host == "127.0.0.1" or url.startswith(("data:", "blob:")):
                harness.requests.append(url)
                r.continue_()
            else:
                harness.outside.append(url)
                r.abort()

        page.route("**/*", route)
        page.on("console", lambda m: harness.console.append(f"[{m.type}] {m.text}"))
        page.on("pageerror", lambda e: harness.console.append(f"[pageerror] {e}"))
        request.node._browser_page = page
        request.node._browser_console = harness.console
        pages.append(page)
        page.goto(f"{vscode_server.url}?kernel={kernel}&theme={theme}&lazy={int(lazy)}")
        page.wait_for_function("() => document.body.dataset.ready", timeout=90_000)
        state = page.evaluate("() => [document.body.dataset.ready, document.body.dataset.error]")
        assert state[0] == "true", f"the harness did not start: {state[1]}"
        return harness

    try:
        yield _open
    finally:
        for page in pages:
            try:
                page.evaluate("() => harness.shutdown()")
            except Exception:  # noqa: BLE001 - a failed page must not hide the test's failure
                pass
            page.context.close()
        request.node._browser_page = None


def _seq(root: Locator) -> int:
    return int(root.get_attribute("data-seq") or -1)


def _click(h: Harness, root: Locator, selector: str) -> None:
    """Click a control once it takes clicks (new buttons ignore clicks for 300 ms) and wait
    for the next state to be drawn."""
    old = _seq(root)
    button = root.locator(selector).first
    button.wait_for(state="visible")
    h.page.wait_for_function("(b) => !b.hasAttribute('data-arming')", arg=button.element_handle())
    button.click()
    _wait_seq(h, root, ">", old)


def _wait_seq(h: Harness, root: Locator, op: str, value: int) -> None:
    """Until the view's drawn ``seq`` is ``op`` (">" or "===") ``value``."""
    h.page.wait_for_function(f"([r, s]) => Number(r.dataset.seq) {op} s",
                             arg=[root.element_handle(), value])


def _no_trouble(h: Harness) -> None:
    assert h.outside == [], f"requests left 127.0.0.1: {h.outside}"
    errors = [c for c in h.console if c.startswith("[pageerror]")]
    assert not errors, errors


# ------------------------------------------------------------------------------------ tests
def test_host_finds_anywidget_in_the_kernel_environment(vscode_server: VSCodeServer) -> None:
    """The extension host's answer: anywidget from the environment's nbextensions (the wheel's
    ``extension.js`` maps it to ``nbextensions/anywidget/index``); none where no copy exists."""
    answer = vscode_server.answers["python3"]
    assert {"moduleName": "anywidget", "source": "local",
            "scriptUri": f"{answer['baseUrl']}nbextensions/anywidget/index"} in answer["scripts"]
    assert not any(s["moduleName"] == "anywidget"
                   for s in vscode_server.answers[NO_COPY]["scripts"])
    text = ('window.requirejs?.config({\n map: {\n "*": {\n'
            ' anywidget: "nbextensions/anywidget/index", // x\n },\n },\n});')
    assert vscode_host.require_config(text) == {"anywidget": "nbextensions/anywidget/index"}
    assert vscode_host.require_config("define(function () { return {}; });") == {}


def test_every_profile_draws_and_plays(open_harness: OpenHarness) -> None:
    h = open_harness(lazy=False)
    h.run(SETUP)
    tiles = {}
    for profile in ("ugentopoly", "classic", "cell22"):
        name = f"w_{profile}"
        index = h.run(f'{name} = UgentopolyWidget("{profile}", players=["Ann", "Bob"], seed=3)\n'
                      f"{name}.turn_pause = 0\n{name}")
        root = h.wait_root(index)
        tiles[profile] = root.locator("[data-ugw-tile]").count()
        assert root.locator("svg").count() > 0
        assert root.locator("button[data-ugw-action=roll]").is_visible()
        assert _seq(root) == h.eval(f"w_{profile}.state['seq']")
    assert tiles == {"ugentopoly": 40, "classic": 40, "cell22": 22}
    # anywidget came from the environment's copy, through requirejs, from this machine
    assert any(u.endswith("/nbextensions/anywidget/index.js") for u in h.requests), h.requests
    _no_trouble(h)


def test_click_reaches_python_and_python_reaches_the_view(open_harness: OpenHarness) -> None:
    h = open_harness(theme="dark")
    index = h.run(SETUP + 'w = UgentopolyWidget("classic", players=["Ann", "Bob"], seed=5)\n'
                  "w.turn_pause = 0\nw")
    root = h.wait_root(index)
    _click(h, root, "button[data-ugw-action=roll]")
    assert h.eval("w.state['rolls']") == 1
    assert h.eval("w.state['seq']") == _seq(root)
    # a Python action: the view follows, with the same state
    before = _seq(root)
    h.eval("w.game.apply(w.game.legal_actions()[0]) and None")
    _wait_seq(h, root, ">", before)
    assert _seq(root) == h.eval("w.state['seq']")
    _no_trouble(h)


def test_win_bar_and_trade_dialog_open(open_harness: OpenHarness) -> None:
    h = open_harness()
    index = h.run(
        SETUP + "from ugentopoly_widget import Game\n"
        'g = Game.scenario("classic", players=["Ann", "Bob"], seed=4, current="Ann",\n'
        '                  owners={16: "Ann", 18: "Ann", 19: "Bob"})\n'
        "w = UgentopolyWidget.from_game(g, seats=['person', 'person'])\nw.turn_pause = 0\nw")
    root = h.wait_root(index)
    h.eval("w.show_win_chances(True, budget=120) and None")
    h.eval("w.wait_win_chances(timeout=120)['status']")
    bar = root.locator("[data-ugw=win-bar]")
    bar.wait_for(state="visible")
    h.page.wait_for_function("(b) => b.dataset.status === 'done'", arg=bar.element_handle())
    assert root.locator("[data-ugw=win-seg]").count() == 2
    trade = root.locator("[data-ugw=trade]").first
    trade.wait_for(state="visible")
    h.page.wait_for_function("(b) => !b.hasAttribute('data-arming')", arg=trade.element_handle())
    trade.click()
    dialog = root.locator("[data-ugw=trade-dialog]")
    dialog.wait_for(state="visible")
    h.page.screenshot(path=str(ARTIFACTS / "vscode-trade-dialog.png"))
    root.locator("[data-ugw=trade-cancel]").click()
    dialog.wait_for(state="hidden")
    _no_trouble(h)


def _luminance(css: str) -> float:
    r, g, b = (int(x) for x in re.findall(r"\d+", css)[:3])
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_vscode_theme_variables(open_harness: OpenHarness, theme: str) -> None:
    """VS Code's theme reaches the board: its background and ink follow the editor's colours
    (through the extension's --jp-* bridge and the body's vscode-light/-dark class)."""
    from .board_checks import axe_serious, inject_axe

    h = open_harness(theme=theme)
    index = h.run(SETUP + 'w = UgentopolyWidget("ugentopoly", players=2, seed=1)\nw')
    root = h.wait_root(index)
    colours = root.evaluate("""(r) => { const s = getComputedStyle(r);
        return { bg: s.getPropertyValue('--ugw-bg').trim(), ink: s.color,
                 font: s.fontFamily, page: getComputedStyle(document.body).backgroundColor }; }""")
    expected_bg = {"light": "#f8f8f8", "dark": "#313131"}[theme]  # cellEditor / input background
    assert colours["bg"].lower() == expected_bg, colours
    # VS Code's UI font, not the editor's monospace one (which the extension hands widgets
    # as --jp-ui-font-family)
    assert colours["font"].startswith("system-ui") and "Menlo" not in colours["font"], colours
    dark_ink = _luminance(colours["ink"]) < 0.5
    assert dark_ink == (theme == "light"), colours
    h.page.screenshot(path=str(ARTIFACTS / f"vscode-{theme}.png"))
    inject_axe(h.page)
    assert axe_serious(root) == []
    _no_trouble(h)


def test_without_a_local_copy_the_known_error_shows(open_harness: OpenHarness) -> None:
    """The negative control: a kernel whose environment has no share/jupyter/nbextensions/anywidget
    (and no CDN allowed): the widget manager's error widget in the output and the load failure
    the extension shows as a notification, with the message VS Code users report."""
    h = open_harness(kernel=NO_COPY, lazy=False)
    index = h.run(SETUP + 'w = UgentopolyWidget("ugentopoly", players=2, seed=1)\nw')
    note = h.page.locator("[data-harness=load-failure]").first
    note.wait_for(state="visible", timeout=60_000)
    assert ERROR in note.inner_text()
    broken = h.cell(index).locator(".jupyter-widgets-error-widget")
    broken.wait_for(state="visible")
    broken.click()  # "Click to show javascript error."
    h.page.wait_for_function("([e, t]) => e.textContent.includes(t)",
                             arg=[broken.element_handle(), ERROR])
    assert h.root(index).count() == 0
    h.page.screenshot(path=str(ARTIFACTS / "vscode-no-local-anywidget.png"))
    assert h.outside == []


def test_created_off_screen_and_scrolled_into_view_later(open_harness: OpenHarness) -> None:
    """VS Code renders an output only when it comes into view: the game may have moved on in
    Python before the view exists. Scrolled to, the board shows the current state, fitted."""
    h = open_harness(lazy=True)
    h.run(SETUP)
    index = h.run('w = UgentopolyWidget("classic", players=["Ann", "Bob"], seed=8)\n'
                  "w.turn_pause = 0\nw", spacer=4000)
    container = h.cell(index).locator(".output").first
    assert container.get_attribute("data-rendered") is None, "rendered while out of view"
    assert h.root(index).count() == 0
    h.eval("w.roll() and None")
    h.eval("w.game.apply(w.game.legal_actions()[0]) and None")
    container.scroll_into_view_if_needed()
    root = h.wait_root(index)
    _wait_seq(h, root, "===", h.eval("w.state['seq']"))
    _board_is_fitted(root)
    _no_trouble(h)


def test_rendered_while_hidden_then_shown(open_harness: OpenHarness) -> None:
    """Rendered into an output that has no size yet (a collapsed output, a webview not shown):
    once shown, the board takes its size and fits its names."""
    h = open_harness(lazy=False)
    h.page.evaluate("() => { const s = document.createElement('style'); s.id = 'hide';"
                    " s.textContent = '.cell-outputs { display: none; }';"
                    " document.head.append(s); }")
    index = h.run(SETUP + 'w = UgentopolyWidget("ugentopoly", players=2, seed=2)\nw')
    h.root(index).wait_for(state="attached")
    h.page.evaluate("() => document.getElementById('hide').remove()")
    root = h.wait_root(index)
    _board_is_fitted(root)
    _no_trouble(h)


def _board_is_fitted(root: Locator) -> None:
    fit = root.evaluate("""(r) => {
        const grid = r.querySelector('[data-ugw-tile]').parentElement;
        const side = grid.getBoundingClientRect().width;
        const names = [...r.querySelectorAll('[data-ugw-tile] .ugw-tile-name')];
        const sizes = names.map((n) => parseFloat(getComputedStyle(n).fontSize));
        return { side, names: names.length, min: Math.min(...sizes),
                 boardSide: parseFloat(r.style.getPropertyValue('--ugw-board-side')) || 0 };
    }""")
    assert fit["side"] > 300 and fit["names"] > 20, fit
    assert fit["min"] >= 8, fit
    assert abs(fit["boardSide"] - fit["side"]) < 0.1 * fit["side"], fit


def test_rerun_cell_renders_the_new_widget(open_harness: OpenHarness) -> None:
    """Re-running a cell clears its output and renders the new widget in its place (the blank
    output after a re-run that VS Code users report must not happen here)."""
    h = open_harness(lazy=True)
    code = SETUP + ('w = UgentopolyWidget("cell22", players=["Ann", "Bob"], seed=9)\n'
                    "w.turn_pause = 0\nw")
    index = h.run(code)
    root = h.wait_root(index)
    first_model = h.cell(index).locator(".output").first.get_attribute("data-model-id")
    _click(h, root, "button[data-ugw-action=roll]")
    for _ in range(2):
        h.run(code, index=index)
        root = h.wait_root(index)
        assert h.root(index).count() == 1
        assert h.cell(index).locator(".output").first.get_attribute("data-model-id") != first_model
        assert h.eval("w.state['rolls']") == 0
        assert _seq(root) == h.eval("w.state['seq']")
        _click(h, root, "button[data-ugw-action=roll]")
        assert h.eval("w.state['rolls']") == 1
    # a cell that shows the same widget again: a second view, in step with the first
    again = h.run("w")
    root2 = h.wait_root(again)
    assert _seq(root2) == _seq(h.root(index)) == h.eval("w.state['seq']")
    _no_trouble(h)
