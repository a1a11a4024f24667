"""The named errors of the reinforcement-learning environments."""

from __future__ import annotations

from ..engine.errors import IllegalActionError, InvalidActionError, UgentopolyError


class MissingExtraError(ImportError):
    """An optional dependency of ``ugentopoly_widget.rl`` is missing; names the pip command."""


class ActionIndexError(InvalidActionError):
    """A step's action is not an index of the action space (wrong type, out of range, or
    ``None`` for an agent that is still playing). Nothing changes."""


class MaskedActionError(IllegalActionError):
    """A step's action index is masked out now (``action_mask[index] == 0``). Names the
    action, the decision and the indices that are masked in. Nothing changes."""


class GameChangedError(UgentopolyError, RuntimeError):
    """The environment's game was changed from outside (a widget's click, an undo, a direct
    ``game.apply``): its rewards and observations would no longer match. Reset it."""


class ResetNeededError(UgentopolyError, RuntimeError):
    """A call that needs a live episode came before ``reset()``, or after every agent's
    episode ended (``step``, ``last``, ``observe``). Nothing changes; call ``reset()``."""


class EncodingError(UgentopolyError, RuntimeError):
    """A decision has no legal action in the encoding (never seen in the tests; raised
    instead of handing an agent an all-zero mask)."""


__all__ = [
    "MissingExtraError", "ActionIndexError", "MaskedActionError", "GameChangedError",
    "EncodingError", "ResetNeededError",
]
