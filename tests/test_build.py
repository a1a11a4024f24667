"""The compiled engine and its pure-Python fallback: which one runs, and that both play the same
games (every profile and mode, digests and logs compared)."""

from __future__ import annotations

import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from golden_games import CONFIGS, MIXES, play, summary

import ugentopoly_widget.engine as engine
from ugentopoly_widget.engine import _build

TESTS = Path(__file__).parent
PURE = os.environ.get("UGENTOPOLY_PURE") == "1"


def test_compiled_flag_says_which_modules_run() -> None:
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    files = [sys.modules[f"ugentopoly_widget.engine.{m}"].__file__ or "" for m in _build.COMPILED]
    assert engine.compiled == all(f.endswith(suffixes) for f in files)
    if PURE:
        assert not engine.compiled and all(f.endswith(".py") for f in files)


def test_the_build_that_runs_is_the_one_asked_for() -> None:
    """scripts/test installs the checkout editable: with a C compiler that build is compiled,
    without one (or under UGENTOPOLY_PURE=1) the pure-Python fallback runs."""
    has_compiler = shutil.which("cc") is not None or shutil.which("gcc") is not None
    expected = has_compiler and not PURE
    assert engine.compiled == expected, (
        f"compiled={engine.compiled}, expected {expected} (compiler: {has_compiler}, "
        f"UGENTOPOLY_PURE: {PURE}); see hatch_build.py and engine/_build_info.json")


SCRIPT = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import ugentopoly_widget.engine as engine
from golden_games import CONFIGS, MIXES, play, summary
out = {"compiled": engine.compiled, "games": {}}
for config in CONFIGS:
    for mix in MIXES:
        for seed in (100, 101):
            out["games"][f"{config}/{mix}/{seed}"] = summary(play(config, mix, seed))
print(json.dumps(out))
"""


def test_pure_and_compiled_builds_play_the_same_games() -> None:
    """The same seeded games in this process and in one that forces the other build."""
    env = dict(os.environ)
    if PURE:
        env.pop("UGENTOPOLY_PURE")
    else:
        env["UGENTOPOLY_PURE"] = "1"
    res = subprocess.run([sys.executable, "-c", SCRIPT, str(TESTS)], env=env, text=True,
                         capture_output=True, check=True, timeout=900)
    other = json.loads(res.stdout.strip().splitlines()[-1])
    if engine.compiled:
        assert other["compiled"] is False
    mine = {f"{c}/{m}/{s}": summary(play(c, m, s))
            for c in CONFIGS for m in MIXES for s in (100, 101)}
    assert mine == other["games"]


def test_compiled_bots_keep_their_class_attributes_and_can_be_subclassed() -> None:
    """A compiled class turns plain class attributes into instance slots: `name` is a ClassVar,
    and users' bots may subclass the built-in ones (mypyc_attr allow_interpreted_subclasses)."""
    from ugentopoly_widget import Game
    from ugentopoly_widget.engine.bots import HeuristicBot, RandomBot, play_game

    assert HeuristicBot.name == "heuristic" and RandomBot.name == "random"

    class Counting(HeuristicBot):
        name = "counting"

        def choose(self, game: Game):  # type: ignore[no-untyped-def]
            self.calls = getattr(self, "calls", 0) + 1
            return super().choose(game)

    game = Game("classic", players=2, seed=3, options={"turn_limit": 40})
    bots = [Counting(seed=1), HeuristicBot(seed=2)]
    play_game(game, bots)
    assert bots[0].calls > 10 and Counting.name == "counting"
