"""Optional dependencies (extras): import them, or say exactly what to install."""

from __future__ import annotations

import importlib
from types import ModuleType


class MissingExtraError(ImportError):
    """An optional dependency is not installed; the message names the pip command."""


def require(module: str, extra: str, feature: str) -> ModuleType:
    """Import `module`, or raise MissingExtraError naming the pip command for `extra`."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingExtraError(
            f"{feature} needs {module.split('.')[0]}: pip install ugentopoly_widget[{extra}]"
            f" ({exc})"
        ) from exc


__all__ = ["MissingExtraError", "require"]
