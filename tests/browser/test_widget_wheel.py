"""The wheel, installed in a clean venv (no checkout, no npm), renders the board in JupyterLab.

The wheel + venv come from ``tests/test_wheel.py`` (built once per session, shared through the
session's temporary directory). The venv gets a kernelspec ``ugw-wheel`` in the harness server's
own data dir (the server rescans kernelspecs on every request, so no restart is needed).
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from .conftest import KERNELSPEC, JupyterServer, Kernel, OpenNotebook
from .test_widget_browser import wait_armed

TEST_WHEEL = Path(__file__).resolve().parents[1] / "test_wheel.py"


def _wheel_module() -> ModuleType:
    for module in list(sys.modules.values()):  # already collected by pytest: reuse it
        if getattr(module, "__file__", None) == str(TEST_WHEEL):
            return module
    spec = importlib.util.spec_from_file_location("ugw_test_wheel", TEST_WHEEL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def wheel_kernel(tmp_path_factory: pytest.TempPathFactory, jupyter_server: JupyterServer) -> str:
    """Name of a kernelspec whose python is the clean venv with the wheel installed."""
    mod = _wheel_module()
    env = mod.build_wheel_env(tmp_path_factory.getbasetemp() / "ugw-wheel")
    name = "ugw-wheel"
    kdir = jupyter_server.root_dir.parent / "data" / "kernels" / name
    kdir.mkdir(parents=True, exist_ok=True)
    (kdir / "kernel.json").write_text(json.dumps({
        "argv": [str(env.python), "-I", "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "ugentopoly wheel venv",
        "language": "python",
        "env": {"PATH": str(env.venv / "bin")},  # no npm, no checkout tools
        "metadata": {"debugger": False},
    }))
    specs = jupyter_server.api("GET", "/api/kernelspecs")["kernelspecs"]
    assert name in specs, sorted(specs)
    return name


def test_wheel_venv_kernel_renders_the_board(
    wheel_kernel: str, open_notebook: OpenNotebook, kernel: Kernel,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(KERNELSPEC, "name", wheel_kernel)
    monkeypatch.setitem(KERNELSPEC, "display_name", "ugentopoly wheel venv")
    page = open_notebook([
        "import sys, ugentopoly_widget\n"
        "from ugentopoly_widget import UgentopolyWidget\n"
        'w = UgentopolyWidget("ugentopoly", players=2, seed=1)\nw',
    ], "wheel.ipynb")
    root = page.locator("[data-ugw=root]").first
    root.wait_for(state="visible", timeout=30_000)
    assert root.locator("[data-ugw-tile]").count() == 40
    assert root.locator("button[data-ugw-action=roll]").is_visible()

    prefix = kernel.eval("sys.prefix")
    assert prefix.endswith("/venv") and "ugw-wheel" in prefix, prefix
    assert kernel.eval("ugentopoly_widget.__file__").startswith(prefix)
    repo = str(Path(__file__).resolve().parents[2])
    assert kernel.eval(f"any(p.startswith({repo!r}) for p in sys.path)") == "False"

    # One click round trip through this kernel.
    old = root.get_attribute("data-seq")
    wait_armed(page, "button[data-ugw-action=roll]")  # safe clicks: a new button waits 300 ms
    root.locator("button[data-ugw-action=roll]").click()
    page.wait_for_function(
        "(old) => document.querySelector('[data-ugw=root]').dataset.seq !== old", arg=old
    )
    assert kernel.eval("w.state['rolls']") == "1"
    assert kernel.eval("w.state['seq']") == root.get_attribute("data-seq")
