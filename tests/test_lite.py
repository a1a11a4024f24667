"""Issue 21 without a browser: what the browser site (scripts/lite, docs/lite.md) needs of the
package. Its runtime dependencies install there (markers), and JavaScript's null from Pyodide
reads as None. The site itself is built and played in tests/browser/test_lite_site.py."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

REPO = Path(__file__).resolve().parents[1]


def _lite_build() -> object:
    spec = importlib.util.spec_from_file_location("lite_build", REPO / "lite" / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_runtime_dependency_installs_in_the_browser() -> None:
    """Evaluated as in Pyodide, each runtime dependency is one the site serves as a pure wheel
    (lite/wheels.txt); numpy, pandas, orjson and threadpoolctl are marked away. A new
    dependency without a pure wheel (scipy, say) fails here until it is marked
    `; sys_platform != 'emscripten'` (else `%pip install ugentopoly_widget` fails there)."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]

    lite = _lite_build()
    env = lite.browser_environment("3.14.2")  # type: ignore[attr-defined]
    served = {canonicalize_name(Requirement(s).name)
              for s in lite.read_pins(REPO / "lite" / "wheels.txt")}  # type: ignore[attr-defined]
    deps = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]
    installed, marked = set(), set()
    for text in deps:
        req = Requirement(text)
        name = canonicalize_name(req.name)
        if req.marker is None or req.marker.evaluate({**env, "extra": ""}):
            installed.add(name)
        else:
            marked.add(name)
    assert installed <= served, f"not served in the browser: {sorted(installed - served)}"
    assert {"numpy", "pandas", "orjson", "threadpoolctl"} <= marked
    desk = {canonicalize_name(Requirement(t).name) for t in deps
            if Requirement(t).marker is None or Requirement(t).marker.evaluate()}
    assert marked <= desk, "a marker must not drop a dependency on a desk"


def test_javascript_null_from_pyodide_reads_as_none() -> None:
    """In the browser site a view's null arrives as pyodide.ffi.jsnull: the widget reads it as
    None (the lobby's start with the turn timer off sends one and was refused); elsewhere
    messages pass as they are."""
    from ugentopoly_widget.widget.requests import JS_NULL, from_view, setup_options

    jsnull = object()
    msg = {"type": "setup", "options": {"turn_timer_seconds": jsnull, "mode": "long"},
           "players": [{"name": "Ann", "x": [jsnull, 1]}]}
    got = from_view(msg, jsnull)
    assert got["options"]["turn_timer_seconds"] is None and got["players"][0]["x"] == [None, 1]
    assert setup_options(got["options"])["turn_timer_seconds"] is None
    assert JS_NULL is None and from_view(msg) is msg  # not in Pyodide: untouched
