"""Seeds derived per game, never per worker: game *i* of a run depends on (seed, i) alone.

numpy's ``SeedSequence`` hashes its entropy and spawn key into well-mixed, independent
streams, so neighbouring games (and neighbouring seeds) are unrelated. Because nothing depends
on which worker plays a game or which chunk holds it, a run gives the same rows serially, on
every core, or on a cluster; and two settings run with the same seed play the same dice
sequence per game (common random numbers, see :func:`.experiments.compare`).

>>> game_seed(0, 0) == game_seed(0, 0), game_seed(0, 0) != game_seed(0, 1)
(True, True)
>>> 0 <= game_seed(2**40, 10**9) < 2**63
True
"""

from __future__ import annotations

import numpy as np

from ..engine.errors import SetupError
from ..engine.integers import as_integer

MAX_SEED = 2**128  # SeedSequence hashes any size; a bound keeps a hostile one cheap


def check_seed(seed: object) -> int:
    """A run's seed: any non-negative whole number below 2**128 (numpy integers too)."""
    whole = as_integer(seed)
    if whole is None or not 0 <= whole < MAX_SEED:
        raise SetupError(f"seed must be a non-negative integer below 2**128, not {seed!r}")
    return whole


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` of a run started with `seed` (a 63-bit integer)."""
    words = np.random.SeedSequence(seed, spawn_key=(index,)).generate_state(1, np.uint64)
    return int(words[0]) >> 1


def bot_seed(game: int, seat: int) -> int:
    """The seed of the bot in `seat` of the game seeded `game`: a stream of its own."""
    words = np.random.SeedSequence(game, spawn_key=(seat, 1)).generate_state(1, np.uint64)
    return int(words[0]) >> 1


__all__ = ["game_seed", "bot_seed", "check_seed"]
