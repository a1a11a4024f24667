"""Which build of the engine runs: the mypyc extension modules, or the .py files.

The same holds for the modules compiled beside the engine (COMPILED_BESIDE: the reinforcement-
learning environments' step); this module only names their files, it imports none of them.

Never compiled. Imported first by the package, it installs an import hook that loads the .py
source of the compiled modules when ``UGENTOPOLY_PURE=1`` is set, or when the sources differ from
the ones that were compiled (a checkout edited since its editable install): stale machine code
must never play a game the sources no longer describe.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

PACKAGE = __name__.rpartition(".")[0]
HERE = Path(__file__).parent
# Module paths relative to the engine package. Keep in step with COMPILED in hatch_build.py.
COMPILED = ("state", "records.events", "core", "legal", "turns", "landing", "deals", "endgame",
            "bots", "records.checkpoints", "render.logtext", "strong.why", "strong.odds",
            "strong.worth", "strong.building", "strong.cash", "strong.trading", "strong.bot")
# Module paths relative to the top package, compiled in the same group (keep in step with
# COMPILED_BESIDE in hatch_build.py): the RL environment step (its Python ran 3/4 of a step).
COMPILED_BESIDE = ("rl.tables", "rl.actions", "rl.observation", "rl.match")
TOP = PACKAGE.rpartition(".")[0]


def source_path(name: str) -> Path:
    """The .py file of a compiled module, e.g. ``records.events`` -> ``records/events.py``
    (a name of COMPILED_BESIDE, ``rl.tables``, is relative to the top package)."""
    root = HERE.parent if name in COMPILED_BESIDE else HERE
    return root.joinpath(*name.split(".")).with_suffix(".py")


def _full_names() -> dict[str, str]:
    """Each compiled module's full name -> its name in COMPILED or COMPILED_BESIDE."""
    names = {f"{PACKAGE}.{name}": name for name in COMPILED}
    names.update((f"{TOP}.{name}", name) for name in COMPILED_BESIDE)
    return names


class PureFinder:
    """Finds the .py file of a compiled engine module (ahead of the extension module)."""

    names = _full_names()

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        name = self.names.get(fullname)
        if name is None:
            return None
        return importlib.util.spec_from_file_location(fullname, source_path(name))


def _stale() -> str | None:
    """Why the extension modules here must not be used (None: they match the sources)."""
    info_path = HERE / "_build_info.json"
    if not info_path.is_file():
        return None  # a pure install, or a build from before the build info: nothing to check
    try:
        info = json.loads(info_path.read_text())
        if not info.get("compiled"):
            return None  # the build fell back to pure Python: nothing compiled to check
        sources = info["sources"]
        # (a build from before COMPILED_BESIDE has no extension modules of those to check)
        for name in COMPILED + tuple(n for n in COMPILED_BESIDE if n in sources):
            digest = hashlib.sha256(source_path(name).read_bytes()).hexdigest()
            if sources.get(name) != digest:
                return f"{name}.py changed since it was compiled"
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return f"unreadable build info ({exc})"
    return None


def _install() -> None:
    if any(isinstance(f, PureFinder) for f in sys.meta_path):
        return
    if os.environ.get("UGENTOPOLY_PURE") == "1":
        sys.meta_path.insert(0, PureFinder())
        return
    reason = _stale()
    if reason is not None:
        warnings.warn(
            f"ugentopoly_widget: the compiled engine is out of date ({reason}); running the "
            "pure-Python engine. Reinstall (pip install -e .) to compile it again.",
            RuntimeWarning,
            stacklevel=2,
        )
        sys.meta_path.insert(0, PureFinder())


def compiled() -> bool:
    """True when every hot-path module of the engine runs as a compiled extension."""
    import importlib

    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    for name in COMPILED:
        module = importlib.import_module(f"{PACKAGE}.{name}")
        if not str(getattr(module, "__file__", "")).endswith(suffixes):
            return False
    return True


_install()
