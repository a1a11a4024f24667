"""Gymnasium ids: ``gymnasium.make("ugentopoly_widget/Classic-v0", opponents="curriculum")``.

Registered when ``ugentopoly_widget.rl`` is imported (``gymnasium.register_envs(rl)`` says so
to a linter), or named with the module: ``gymnasium.make("ugentopoly_widget.rl:ugentopoly_widget/
Classic-v0")``. Each id is ``SingleAgentEnv`` with its profile; keyword arguments go to it.
"""

from __future__ import annotations

import gymnasium

NAMESPACE = "ugentopoly_widget"
ENV_IDS = {
    f"{NAMESPACE}/Classic-v0": "classic",
    f"{NAMESPACE}/Ugentopoly-v0": "ugentopoly",
    f"{NAMESPACE}/Cell22-v0": "cell22",
}
"""The Gymnasium ids (``gymnasium.make(id, ...)``: a SingleAgentEnv) and their profiles."""
ENTRY_POINT = "ugentopoly_widget.rl.single:SingleAgentEnv"


def env_id(profile: object) -> str | None:
    """The registered id of a profile name, or None."""
    return next((key for key, name in ENV_IDS.items() if name == profile), None)


def register_envs() -> None:
    """Register the ids (again: a no-op when they are there)."""
    for key, profile in ENV_IDS.items():
        if key not in gymnasium.registry:
            gymnasium.register(key, entry_point=ENTRY_POINT, kwargs={"profile": profile})


__all__ = ["ENV_IDS", "NAMESPACE", "register_envs", "env_id"]
