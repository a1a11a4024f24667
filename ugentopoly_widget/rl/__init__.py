"""Reinforcement-learning environments (analysis layer: imports the engine, never the widget).

- ``env(profile, players=4, ...)``: a PettingZoo AEC environment, one agent per seat
  (``raw_env`` unwrapped);
- ``SingleAgentEnv(profile, seat=0, opponents="heuristic")``: a Gymnasium environment, one
  learner against bots that play inside ``step()`` (``"curriculum"``: easy bots first);
  registered as ``ugentopoly_widget/Classic-v0`` (and ``Ugentopoly-v0``, ``Cell22-v0``);
- ``SelfPlayEnv(rl.raw_env(...))``: any seat of an AEC environment as a Gymnasium environment,
  the others played by policies (frozen copies of the learner);
- ``evaluate(model, ...)``: win rates with intervals; ``PolicyBot(model)``: a policy as an
  engine bot (a widget's seat).

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
    ResetNeededError,
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
from .curriculum import Curriculum  # noqa: E402
from .evaluation import Evaluation, evaluate  # noqa: E402
from .match import Match  # noqa: E402
from .observation import Observer  # noqa: E402
from .policy import PolicyBot, UniformPolicy, as_policy  # noqa: E402
from .registration import ENV_IDS, register_envs  # noqa: E402
from .selfplay import SelfPlayEnv  # noqa: E402
from .single import SingleAgentEnv  # noqa: E402
from .tables import Tables  # noqa: E402

register_envs()

__all__ = [
    "env", "raw_env", "SingleAgentEnv", "SelfPlayEnv", "NAME", "ENV_IDS", "ActionCodec",
    "Observer", "Match", "Tables", "Curriculum", "PolicyBot", "UniformPolicy", "as_policy",
    "evaluate", "Evaluation", "register_envs", "SINGLES", "BID_LEVELS", "TRADE_BANDS",
    "ActionIndexError", "MaskedActionError", "GameChangedError", "EncodingError",
    "MissingExtraError", "ResetNeededError",
]
