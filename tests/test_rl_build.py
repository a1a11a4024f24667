"""The RL environment step is compiled beside the engine (COMPILED_BESIDE in hatch_build.py and
engine/_build.py) or runs pure with it, and both builds step the same episodes."""

from __future__ import annotations

import ast
import importlib
import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")

import ugentopoly_widget.engine as engine  # noqa: E402
from ugentopoly_widget.engine import _build  # noqa: E402

ROOT = Path(__file__).parent.parent


def test_the_rl_step_runs_in_the_build_the_engine_runs() -> None:
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    for name in _build.COMPILED_BESIDE:
        module = importlib.import_module(f"ugentopoly_widget.{name}")
        assert str(module.__file__).endswith(suffixes) == engine.compiled, name
        assert _build.source_path(name) == ROOT / "ugentopoly_widget" / Path(
            *name.split(".")).with_suffix(".py")


def test_the_build_hook_compiles_the_modules_the_run_time_checks() -> None:
    """hatch_build.py (not importable here: hatchling lives in the build environment) names
    the same modules as engine/_build.py, which falls back to their .py files."""
    tree = ast.parse((ROOT / "hatch_build.py").read_text())
    names = {target.id: ast.literal_eval(node.value) for node in tree.body
             if isinstance(node, ast.Assign) for target in node.targets
             if isinstance(target, ast.Name) and target.id in ("COMPILED", "COMPILED_BESIDE")}
    assert names == {"COMPILED": _build.COMPILED, "COMPILED_BESIDE": _build.COMPILED_BESIDE}


EPISODES = r"""
import hashlib, json, random
import numpy as np
import ugentopoly_widget.engine as engine
from ugentopoly_widget import rl

out = {"compiled": engine.compiled}
for profile in ("classic", "ugentopoly", "cell22"):
    env = rl.raw_env(profile, players=4, max_turns=150, reward_shaping=0.5)
    env.reset(seed=7)
    rng = random.Random(7)
    digest = hashlib.sha256()
    for _ in range(1200):
        obs, reward, terminated, truncated, _ = env.last()
        for part in (obs["observation"].tobytes(), obs["action_mask"].tobytes(),
                     repr((env.agent_selection, reward, terminated, truncated)).encode()):
            digest.update(part)
        if terminated or truncated:
            env.step(None)
            if not env.agents:
                env.reset()
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[int(rng.random() * len(legal))]))
    out[profile] = digest.hexdigest()
print(json.dumps(out))
"""


def episodes(pure: bool) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != "UGENTOPOLY_PURE"}
    if pure:
        env["UGENTOPOLY_PURE"] = "1"
    res = subprocess.run([sys.executable, "-c", EPISODES], env=env, text=True,
                         capture_output=True, check=True, timeout=600)
    result: dict[str, object] = json.loads(res.stdout.strip().splitlines()[-1])
    return result


def test_pure_and_compiled_rl_step_the_same_episodes() -> None:
    """Observations, masks, rewards and ends of seeded random episodes (every profile, shaping
    on), digested, in a process on the installed build and in one forced pure."""
    installed, pure = episodes(pure=False), episodes(pure=True)
    assert pure.pop("compiled") is False
    assert installed.pop("compiled") is engine.compiled or "UGENTOPOLY_PURE" in os.environ
    assert installed == pure
