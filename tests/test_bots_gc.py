"""play_game lets the cyclic garbage collector run less often, and always puts it back."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from ugentopoly_widget import Game
from ugentopoly_widget.engine.actions import Action
from ugentopoly_widget.engine.bots import (
    GC_YOUNG_THRESHOLD,
    FewerCollections,
    RandomBot,
    play_game,
)


class Watching(RandomBot):
    """A bot that notes the collector's threshold at each decision (and may fail on cue)."""

    def __init__(self, seed: int, seen: list[int], fail_at: int | None = None) -> None:
        super().__init__(seed=seed)
        self.seen = seen
        self.fail_at = fail_at

    def choose(self, game: Game) -> Action:
        self.seen.append(gc.get_threshold()[0])
        if self.fail_at is not None and len(self.seen) >= self.fail_at:
            raise RuntimeError("a bot that fails")
        return super().choose(game)


@pytest.fixture
def threshold() -> Iterator[tuple[int, int, int]]:
    before = gc.get_threshold()
    yield before
    gc.set_threshold(*before)


def test_bots_play_with_fewer_collections_and_the_threshold_comes_back(
    threshold: tuple[int, int, int],
) -> None:
    seen: list[int] = []
    game = Game("ugentopoly", players=2, seed=1)
    play_game(game, [Watching(1, seen), Watching(2, seen)], max_actions=300)
    assert len(seen) > 20 and set(seen) == {GC_YOUNG_THRESHOLD}
    assert gc.get_threshold() == threshold


def test_the_threshold_comes_back_when_a_bot_fails(threshold: tuple[int, int, int]) -> None:
    seen: list[int] = []
    game = Game("classic", players=2, seed=2)
    with pytest.raises(RuntimeError, match="a bot that fails"):
        play_game(game, [Watching(1, seen, fail_at=30), Watching(2, seen, fail_at=30)])
    assert gc.get_threshold() == threshold


def test_a_higher_threshold_set_by_the_user_is_left_alone(
    threshold: tuple[int, int, int],
) -> None:
    gc.set_threshold(10 * GC_YOUNG_THRESHOLD, 5, 5)
    seen: list[int] = []
    game = Game("cell22", players=2, seed=3)
    play_game(game, [Watching(1, seen), Watching(2, seen)], max_actions=100)
    assert set(seen) == {10 * GC_YOUNG_THRESHOLD}
    assert gc.get_threshold() == (10 * GC_YOUNG_THRESHOLD, 5, 5)


def test_simulations_that_sample_net_worth_collect_less_often_too(
    threshold: tuple[int, int, int],
) -> None:
    from ugentopoly_widget.simulation.worker import _NetWorthSampler, _play

    seen: list[int] = []
    rows: list[object] = []
    game = Game("classic", players=2, seed=4, options={"turn_limit": 40})
    sampler = _NetWorthSampler(0, 5, ["a", "b"], rows)  # type: ignore[arg-type]
    _play(game, [Watching(1, seen), Watching(2, seen)], 5_000, sampler)
    assert rows and len(seen) > 20 and set(seen) == {GC_YOUNG_THRESHOLD}
    assert gc.get_threshold() == threshold


def test_fewer_collections_nests_and_restores(threshold: tuple[int, int, int]) -> None:
    with FewerCollections():
        assert gc.get_threshold()[0] == GC_YOUNG_THRESHOLD
        with FewerCollections():
            assert gc.get_threshold()[0] == GC_YOUNG_THRESHOLD
        assert gc.get_threshold()[0] == GC_YOUNG_THRESHOLD
    assert gc.get_threshold() == threshold
