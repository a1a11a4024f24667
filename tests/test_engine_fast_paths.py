"""The engine's fast paths give exactly what the plain code would (issue 7)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ugentopoly_widget import Game
from ugentopoly_widget.engine import actions as A
from ugentopoly_widget.engine import legal as legal_mod
from ugentopoly_widget.engine.bots import HeuristicBot
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


def _old_affordable(e: Any, p: Any, legal: tuple[Any, ...], keep: int) -> Any:
    """What the heuristic bot computed from the legal list before it asked directly."""
    best, best_level = None, 1 << 30
    for action in legal:
        if type(action) is A.Build:
            pos = action.position
            if p.cash - e.house_prices[pos] >= keep and e.level[pos] < best_level:
                best, best_level = action, e.level[pos]
    return best


@pytest.mark.parametrize("profile", ["classic", "cell22", "ugentopoly"])
def test_direct_questions_agree_with_the_legal_list(profile: str) -> None:
    """At every own-turn decision of seeded bot games: affordable_build, first_unmortgage,
    has_choices and rolls_only answer what the full legal list says (several reserves for the
    build)."""
    checked = 0
    for seed in range(6):
        game = Game(profile, players=4, seed=seed, options={"turn_limit": 300})
        bots = [HeuristicBot(seed=seed * 10 + k) for k in range(4)]
        e = game._engine
        while not game.is_over:
            d = e.decision
            if d.kind in ("turn", "post_roll"):
                assert d.player is not None
                p = e.players[d.player]
                legal = e.legal_actions()
                for keep in (0, 150, 300, 1000):
                    assert legal_mod.affordable_build(e, p, keep) is _old_affordable(
                        e, p, legal, keep)
                lifts = [a for a in legal if type(a) is A.Unmortgage]
                assert legal_mod.first_unmortgage(e, p) is (lifts[0] if lifts else None)
                assert legal_mod.has_choices(e, d.player) is (len(legal) > 1)
                if d.kind == "turn":
                    rolls = legal is e._roll_only[d.player]
                    assert legal_mod.rolls_only(e, d.player) is rolls
                checked += 1
            game.apply(bots[d.player or 0].choose(game))
    assert checked > 500
