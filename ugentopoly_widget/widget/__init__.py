"""The notebook widget: the AnyWidget class, its synced state, requests from the view, bot pacing,
the odds panels and plain-word errors. It imports the engine and the analysis layer; nothing
imports it back.

``UgentopolyWidget`` loads on first use, so the pure helpers here (request checks, state JSON)
import without anywidget.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game_widget import UgentopolyWidget

__all__ = ["UgentopolyWidget"]


def __getattr__(name: str) -> Any:
    if name == "UgentopolyWidget":
        from .game_widget import UgentopolyWidget

        return UgentopolyWidget
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
