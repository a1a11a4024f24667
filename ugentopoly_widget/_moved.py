"""The module paths of version 0.1's flat layout, importable for one more release.

``import ugentopoly_widget.engine.svg`` (and every other moved path) gives the module at its new
home, with a DeprecationWarning naming it; the alias is the same module object, so its functions,
classes and module state are shared. Installed by the package's ``__init__``.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from collections.abc import Sequence
from types import ModuleType

_PACKAGE = __name__.rpartition(".")[0]
_ROOMS = {
    "engine.boards": ("board", "files", "loader", "properties", "writer"),
    "engine.records": ("checkpoints", "events", "landings", "loading", "savefile", "savestate"),
    "engine.render": ("i18n", "logtext", "svg", "text"),
}
MOVED: dict[str, str] = {
    f"{_PACKAGE}.engine.{name}": f"{_PACKAGE}.{room}.{name}"
    for room, names in _ROOMS.items()
    for name in names
}
MOVED.update({
    f"{_PACKAGE}.widget_{old}": f"{_PACKAGE}.widget.{new}"
    for old, new in (("bots", "pacing"), ("data", "data"), ("errors", "errors"),
                     ("probability", "odds"), ("requests", "requests"), ("sync", "sync"))
})
REMOVED_IN = "0.2"


class _AliasLoader(importlib.abc.Loader):
    def __init__(self, new: str) -> None:
        self.new = new

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        warnings.warn(
            f"{spec.name} has moved to {self.new}; the old path stops working in "
            f"ugentopoly_widget {REMOVED_IN}",
            DeprecationWarning,
            stacklevel=2,
        )
        return importlib.import_module(self.new)

    def exec_module(self, module: ModuleType) -> None:
        """The module at its new home has run already."""


class MovedFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        new = MOVED.get(fullname)
        if new is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(new))


def install() -> None:
    if not any(isinstance(finder, MovedFinder) for finder in sys.meta_path):
        sys.meta_path.append(MovedFinder())
