"""Seeded bot games of every profile and mode give the same state, events and log as an engine
without the speed work (``tests/data/golden_games.json``, see ``tests/golden_games.py``).

Runs on whichever build is imported: scripts/test runs it on the compiled build and again with
UGENTOPOLY_PURE=1, so both builds are held to the same games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from golden_games import CONFIGS, MIXES, SEEDS, play, summary

GOLDEN = json.loads((Path(__file__).parent / "data" / "golden_games.json").read_text())


def test_golden_file_covers_every_config() -> None:
    assert len(GOLDEN) == len(CONFIGS) * len(MIXES) * len(SEEDS)


@pytest.mark.parametrize("config", list(CONFIGS))
@pytest.mark.parametrize("mix", MIXES)
def test_same_games_as_before(config: str, mix: str) -> None:
    for seed in SEEDS:
        game = play(config, mix, seed)
        want = GOLDEN[f"{config}/{mix}/{seed}"]
        got = {**summary(game), "turns": str(game.turn_number)}
        assert got == want, f"{config}/{mix}/{seed} differs"
