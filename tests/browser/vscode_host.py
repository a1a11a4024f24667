"""The extension host's part of VS Code's notebook widgets, for the harness in tests/vscode.

For a local kernel the Jupyter extension (microsoft/vscode-jupyter, LocalIPyWidgetScriptManager
and BaseIPyWidgetScriptManager) finds the scripts of third-party widgets like this:

1. the Jupyter data directories of the kernel's interpreter (``jupyter_path()``: the user's,
   ``JUPYTER_PATH``, ``<sys.prefix>/share/jupyter``, the system's) each hold an
   ``nbextensions`` folder; they are copied, lowest priority first, into one folder of the
   extension (``temp/scripts/<hash of the kernel>/jupyter/nbextensions``) that the webview can
   read (its ``data-base-url``);
2. every ``nbextensions/*/extension.js`` is read as text for its ``require.config`` /
   ``requirejs?.config`` call (not run: the innermost object's entries are picked out of the
   text) — the
   anywidget wheel's entry maps ``anywidget`` to ``nbextensions/anywidget/index``;
3. the modules the webview bundles itself (``@jupyter-widgets/base``, ``controls``, ``output``,
   ``jupyter-js-widgets``) are dropped; the rest is the answer to the webview's request for a
   module's source: ``{moduleName, scriptUri, source: "local"}``.

:func:`publish` does the same for a kernelspec and writes the answer as
``host/<kernel>.json`` beside the harness page (the page fetches it where the webview would get
a message). No CDN is asked: ``jupyter.widgetScriptSources`` is empty by default.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

# The spellings of the call the extension looks for, in the order it tries them (last first).
CONFIG_CALLS = (
    "require.config({", "requirejs?.config({", "window.requirejs?.config({", "requirejs.config({",
    '["require"].config({', "['require'].config({",
    '["requirejs"].config({', "['requirejs'].config({", '["require"]["config"]({',
    "['require']['config']({", '["requirejs"]["config"]({', "['requirejs']['config']({",
)
BUNDLED = ("jupyter-js-widgets", "@jupyter-widgets/base", "@jupyter-widgets/controls",
           "@jupyter-widgets/output")
_COMMENTS = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def require_config(contents: str) -> dict[str, str]:
    """The module -> path entries of an ``extension.js``'s requirejs config, read from its text
    the way the extension does ({} when there is none)."""
    start = -1
    for calls in (CONFIG_CALLS, tuple(c[:-2] for c in CONFIG_CALLS)):  # then without "({"
        for call in reversed(calls):
            start = contents.find(call)
            if start > 0:
                break
        if start > 0:
            break
    if start <= 0:
        return {}
    end = contents.find(")", start)
    if end <= 0:
        return {}
    text = _COMMENTS.sub("", contents[contents.find("{", start):end])
    text = "".join(line.strip() for line in text.splitlines() if line.strip())
    # the innermost object: its last "{" up to the next "}"
    entries = [e.strip() for e in text.split("{")[-1].split("}")[0].split(",")]
    config = {}
    for entry in entries:
        if ":" not in entry:
            continue
        key, value = entry.split(":", 1)
        config[key.strip().strip("'\"")] = value.strip().strip("'\"")
    return config


def data_dirs(python: str, env: dict[str, str]) -> list[Path]:
    """The Jupyter data directories of an interpreter, highest priority first."""
    code = ("import json; from jupyter_core.paths import jupyter_path;"
            " print(json.dumps(jupyter_path()))")
    out = subprocess.run([python, "-c", code], env=env, capture_output=True, text=True,
                         check=True, timeout=60).stdout
    return [Path(p) for p in json.loads(out.strip().splitlines()[-1])]


def publish(served: Path, url_prefix: str, kernel: str, python: str,
            env: dict[str, str]) -> dict[str, object]:
    """Copy the kernel environment's nbextensions under ``served`` and write the host's answer
    ``served/host/<kernel>.json``; ``url_prefix`` is the URL of ``served`` (ends with /)."""
    digest = hashlib.sha256(f"{kernel}:{python}".encode()).hexdigest()[:16]
    base = served / "scripts" / digest / "jupyter"
    target = base / "nbextensions"
    shutil.rmtree(base, ignore_errors=True)
    target.mkdir(parents=True)
    for folder in reversed(data_dirs(python, env)):  # lowest priority first, overwritten later
        if (folder / "nbextensions").is_dir():
            shutil.copytree(folder / "nbextensions", target, dirs_exist_ok=True)
    base_url = f"{url_prefix}scripts/{digest}/jupyter/"
    mapping: dict[str, str] = {}
    for entry in sorted(target.glob("*/extension.js")):
        mapping.update(require_config(entry.read_text(encoding="utf-8", errors="replace")))
    for name in BUNDLED:
        mapping.pop(name, None)
    answer: dict[str, object] = {
        "baseUrl": base_url,
        "scripts": [{"moduleName": name, "scriptUri": base_url + path, "source": "local"}
                    for name, path in sorted(mapping.items())],
    }
    (served / "host").mkdir(exist_ok=True)
    (served / "host" / f"{kernel}.json").write_text(json.dumps(answer, indent=1))
    return answer


def isolated_env(base: Path) -> dict[str, str]:
    """An environment in which only the interpreter's own data dirs (and the system's) count:
    no ``JUPYTER_PATH``, an empty user data dir."""
    env = {k: v for k, v in os.environ.items() if k not in {"JUPYTER_PATH", "PYTHONPATH"}}
    env["JUPYTER_DATA_DIR"] = str(base / "user-data")
    env["JUPYTER_PLATFORM_DIRS"] = "1"
    return env
