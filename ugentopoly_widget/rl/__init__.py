"""Reinforcement-learning environments (analysis layer: imports the engine, never the widget).

- ``env(profile, players=4, ...)``: a PettingZoo AEC environment, one agent per seat
  (``raw_env`` unwrapped);
- ``SingleAgentEnv(profile, seat=0, opponents=[...])``: a Gymnasium environment, one learner
  against bots that play inside ``step()``.

Needs the ``rl`` extra: ``pip install 'ugentopoly_widget[rl]'`` (PettingZoo, Gymnasium, and
resvg-py + Pillow for ``render_mode="rgb_array"``). See ``docs/rl.md``.
"""

from __future__ import annotations

import importlib

from .errors import (
    ActionIndexError,
    EncodingError,
    GameChangedError,
    MaskedActionError,
    MissingExtraError,
)

for _module in ("gymnasium", "pettingzoo"):
    try:
        importlib.import_module(_module)
    except ImportError as _exc:
        raise MissingExtraError(
            f"ugentopoly_widget.rl needs {_module}: pip install 'ugentopoly_widget[rl]' ({_exc})"
        ) from _exc

from .actions import BID_LEVELS, SINGLES, TRADE_BANDS, ActionCodec  # noqa: E402
from .aec import NAME, env, raw_env  # noqa: E402
from .match import Match  # noqa: E402
from .observation import Observer  # noqa: E402
from .single import SingleAgentEnv  # noqa: E402
from .tables import Tables  # noqa: E402

__all__ = [
    "env", "raw_env", "SingleAgentEnv", "NAME", "ActionCodec", "Observer", "Match", "Tables",
    "SINGLES", "BID_LEVELS", "TRADE_BANDS", "ActionIndexError", "MaskedActionError",
    "GameChangedError", "EncodingError", "MissingExtraError",
]
