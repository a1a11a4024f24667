"""The engine's fast paths give exactly what the plain code would (issue 7)."""

from __future__ import annotations

import random

import pytest

from ugentopoly_widget.engine.events import EventLog, shape
from ugentopoly_widget.engine.state import BLOCK, ChanceSource


@pytest.mark.parametrize("seed", [0, 1, 12345, 2**40 + 7])
def test_chance_draws_are_those_of_random_random(seed: int) -> None:
    """The block of words from getrandbits() gives the very numbers of random(), across
    several refills, and leaves the generator where BLOCK random() calls would."""
    chance, plain = ChanceSource(seed), random.Random(seed)
    drawn = [chance._random() for _ in range(3 * BLOCK + 5)]
    assert drawn == [plain.random() for _ in range(3 * BLOCK + 5)]
    for _ in range(BLOCK - 5):  # to the end of the fourth block
        plain.random()
    assert chance.rng.getstate() == plain.getstate()


def test_chance_position_restores_the_same_draws() -> None:
    chance = ChanceSource(99)
    for _ in range(700):
        chance._random()
    where = chance.position()
    ahead = [chance._random() for _ in range(600)]
    again = ChanceSource(5)
    again.restore_position(where)
    assert [again._random() for _ in range(600)] == ahead


def test_event_log_flushes_keep_every_code() -> None:
    """Codes gathered in the tail go to the array in one packed block: every value, negative
    and near the inline limit too, reads back unchanged across many flushes."""
    kind = shape("fast_path_test", "a", "b", "c")
    log = EventLog()
    values = [(k * 1_000_003 % (1 << 29) - (1 << 28), -k, "bank" if k % 2 else None)
              for k in range(2000)]
    for k, v in enumerate(values):
        log.add(kind, k % 4, v)
    assert [e.values for e in log] == values
    assert log[1999].player == 3
