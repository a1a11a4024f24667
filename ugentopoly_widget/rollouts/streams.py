"""Random streams of the rollouts: rollout *k* of a run seeded *s* depends on (s, k) alone.

Common random numbers: whatever is compared (the actions of a decision, a trade made or not,
one worker or many), rollout *k* plays the same dice and deck order after the compared step,
so the differences are paired. The first roll is stratified: the rollouts are taken in blocks
of one per outcome of the dice (36 for two six-sided dice), each block in its own random
order, so every rollout's first roll is uniform (the plain mean stays unbiased for any count)
and every complete block holds each first roll exactly once (gnubg's rotation of the first
roll). Seeds are cut from a keyed hash: a microsecond each, no generator state.

>>> rollout_seed(0, 5) == rollout_seed(0, 5) != rollout_seed(1, 5)
True
>>> sorted(first_roll(7, k, 2, 6) for k in range(36)) == [(a, b) for a in range(1, 7)
...                                                     for b in range(1, 7)]
True
"""

from __future__ import annotations

import hashlib
import random
from functools import lru_cache

MAX_STRATA = 216  # dice with more outcomes than this are not stratified (3d6 still are)


def _hash(*parts: int) -> int:
    data = b"".join(p.to_bytes(16, "little", signed=True) for p in parts)
    return int.from_bytes(hashlib.blake2b(data, digest_size=8, person=b"ugentopoly-ro").digest(),
                          "little") >> 1


def rollout_seed(seed: int, k: int) -> int:
    """The seed of rollout `k`'s dice and decks (a 63-bit integer)."""
    return _hash(seed, k, 0)


def bot_seed(rollout: int, seat: int) -> int:
    """The seed of the bot in `seat` of the rollout seeded `rollout`."""
    return _hash(rollout, seat, 1)


def strata(dice_count: int, sides: int) -> int:
    """How many first-roll outcomes the rollouts cycle through (1: not stratified)."""
    outcomes = sides ** dice_count
    return outcomes if outcomes <= MAX_STRATA else 1


@lru_cache(maxsize=64)
def _block(seed: int, block: int, size: int) -> tuple[int, ...]:
    order = list(range(size))
    random.Random(_hash(seed, block, 2)).shuffle(order)
    return tuple(order)


def stratum(seed: int, k: int, size: int) -> int:
    """The first-roll outcome (0 .. size - 1) of rollout `k`."""
    if size <= 1:
        return 0
    return _block(seed, k // size, size)[k % size]


def outcome_dice(outcome: int, dice_count: int, sides: int) -> tuple[int, ...]:
    """Outcome number -> the dice, first die most significant: 0 -> (1, 1), 35 -> (6, 6)."""
    dice = []
    for _ in range(dice_count):
        outcome, face = divmod(outcome, sides)
        dice.append(face + 1)
    return tuple(reversed(dice))


def first_roll(seed: int, k: int, dice_count: int, sides: int) -> tuple[int, ...] | None:
    """Rollout `k`'s first roll, or None when the dice are not stratified."""
    size = strata(dice_count, sides)
    if size <= 1:
        return None
    return outcome_dice(stratum(seed, k, size), dice_count, sides)


__all__ = ["rollout_seed", "bot_seed", "strata", "stratum", "outcome_dice", "first_roll"]
