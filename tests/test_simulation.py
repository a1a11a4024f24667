"""simulate(): rows, seeding (identical across executors and chunk sizes), seat rotation, the
reduction (no Game kept, bounded rows), bad input, lazy import."""

from __future__ import annotations

import functools
import gc
import pickle
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pandas as pd
import pytest
import simulation_bots
from simulation_bots import Watcher

from ugentopoly_widget import Game, SetupError, simulate
from ugentopoly_widget.engine.bots import HeuristicBot, RandomBot, play_game
from ugentopoly_widget.simulation import bot_seed, game_seed
from ugentopoly_widget.simulation.settings import make_settings
from ugentopoly_widget.simulation.worker import columns, run_chunk

SHORT = {"round_limit": 25}
ALL = {"landings": "roll", "net_worth": 5, "events": 2}


def run(games: int = 9, **kw: object) -> object:
    kw.setdefault("progress", False)
    kw.setdefault("options", SHORT)
    return simulate(games, "classic", bots=["heuristic", "heuristic", "random"], **kw)  # type: ignore[arg-type]


def assert_same(a: object, b: object) -> None:
    pd.testing.assert_frame_equal(a.games, b.games)  # type: ignore[attr-defined]
    assert a.landings == b.landings  # type: ignore[attr-defined]
    pd.testing.assert_frame_equal(a.net_worth, b.net_worth)  # type: ignore[attr-defined]
    pd.testing.assert_frame_equal(a.events, b.events)  # type: ignore[attr-defined]


def test_rows_match_the_games_played_by_hand() -> None:
    results = simulate(4, "classic", bots=["heuristic", "random"], seed=11, progress=False,
                       options=SHORT)
    assert list(results.games.columns) == list(columns(2))
    assert results.complete and len(results.failures) == 0
    for i, row in results.games.iterrows():
        seed = game_seed(11, i)
        game = Game("classic", players=2, seed=seed, options=SHORT)
        actions = play_game(game, [HeuristicBot(seed=bot_seed(seed, 0)),
                                   RandomBot(seed=bot_seed(seed, 1))])
        assert row["seed"] == seed and row["actions"] == actions
        assert row["turns"] == game.turn_number and row["rounds"] == game.state()["round"]
        assert row["end_reason"] == game.decision.data["reason"]
        assert [row["won_0"], row["won_1"]] == [0 in game.winners, 1 in game.winners]
        assert row["winner"] == (game.winners[0] if len(game.winners) == 1 else -1)
        for seat in (0, 1):
            assert row[f"cash_{seat}"] == game.players[seat].cash
            assert row[f"net_worth_{seat}"] == game.net_worth(seat)
            assert row[f"properties_{seat}"] == len(game.properties_of(seat))
            assert row[f"bankrupt_{seat}"] == game.players[seat].bankrupt
            assert row[f"rank_{seat}"] == game.ranking.index(seat)
            bought = sum(1 for e in game.events if e.player == seat and (
                e.kind == "bought" or (e.kind == "auction_won" and e.data["item"] != "house")))
            assert row[f"bought_{seat}"] == bought
        first = next(e.player for e in game.events if e.kind == "first_player")
        assert row["first_player"] == first and row[f"order_{first}"] == 0
        assert [row["bot_0"], row["bot_1"]] == ["heuristic", "random"]


def test_identical_results_whatever_the_executor_and_chunk_size() -> None:
    serial = run(collect=ALL)
    assert len(serial.games) == 9 and serial.games["game"].tolist() == list(range(9))
    assert_same(serial, run(collect=ALL, chunk_size=1))
    assert_same(serial, run(collect=ALL, chunk_size=4))
    processes = run(collect=ALL, executor="processes", workers=2, chunk_size=2)
    assert processes.executor == "processes" and processes.workers == 2
    assert_same(serial, processes)
    with ThreadPoolExecutor(3) as pool:
        assert_same(serial, run(collect=ALL, executor=pool, chunk_size=3))
    # a different seed is a different run; the same seed is the same run
    assert not run(seed=1).games["seed"].equals(serial.games["seed"])
    assert run().games["seed"].tolist() == [game_seed(0, i) for i in range(9)]


def test_seat_rotation_moves_the_line_up_but_not_the_dice() -> None:
    tough = functools.partial(HeuristicBot, reserve=400)
    bots = ["heuristic", "random", tough]
    rotated = simulate(6, "classic", bots=bots, rotate_seats=True, progress=False,
                       options=SHORT)
    labels = ["heuristic", "random", "heuristic(reserve=400)"]
    for i, row in rotated.games.iterrows():
        r = i % 3
        assert row["rotation"] == r
        assert [row[f"bot_{s}"] for s in range(3)] == [labels[(s - r) % 3] for s in range(3)]
    # every bot sits in every seat equally often
    seats = rotated.seats()
    assert (seats.groupby(["bot", "seat"]).size() == 2).all()
    # game i rotated by r is the game played by the line-up shifted by r, on the same seed
    for r in (1, 2):
        shifted = [bots[(s - r) % 3] for s in range(3)]
        plain = simulate(6, "classic", bots=shifted, progress=False, options=SHORT)
        mine = rotated.games[rotated.games["rotation"] == r].drop(columns="rotation")
        theirs = plain.games.loc[mine.index].drop(columns="rotation")
        pd.testing.assert_frame_equal(mine, theirs)


def test_finished_games_are_dropped_and_rows_stay_small() -> None:
    simulation_bots.SEEN.clear()
    results = simulate(5, "classic", bots=[Watcher, Watcher], progress=False, options=SHORT,
                       collect=("landings",))
    assert len(simulation_bots.SEEN) == 5
    gc.collect()
    assert all(ref() is None for ref in simulation_bots.SEEN), "a Game outlived its row"
    assert len(results.games) == 5
    # a chunk's payload does not grow with the length of its games
    short = make_settings("ugentopoly", board=None, players=None, bots=["heuristic"] * 2,
                          options={"round_limit": 5}, rotate_seats=False,
                          collect=("landings",), max_actions=10**6)
    long = make_settings("ugentopoly", board=None, players=None, bots=["heuristic"] * 2,
                         options={"round_limit": 300}, rotate_seats=False,
                         collect=("landings",), max_actions=10**6)
    small, big = run_chunk(short, 0, 0, 4), run_chunk(long, 0, 0, 4)
    assert len(big.rows) == len(small.rows) == 4
    assert sum(big.landings.tiles) > 20 * sum(small.landings.tiles)  # really longer games
    size_small, size_big = len(pickle.dumps(small)), len(pickle.dumps(big))
    assert size_big < 1.2 * size_small + 200, (size_small, size_big)
    assert size_big / 4 < 1500  # bytes per game, landing counts included
    assert results.games.memory_usage(deep=True).sum() / 5 < 3000


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"bots": ["heuristic", "nobody"]}, "unknown bot 'nobody'"),
        ({"bots": ["heuristic"] * 2, "players": ["Ann", "Bob", "Cy"]},
         "players and bots differ in length"),
        ({"games": 0}, "games must be a positive integer"),
        ({"games": -5}, "games must be a positive integer"),
        ({"games": 2.5}, "games must be a positive integer"),
        ({"options": {"no_such_rule": 1}}, "unknown rules option(s) for profile 'classic'"),
        ({"collect": ["landings", "heat"]}, "unknown collection(s) ['heat']"),
        ({"collect": {"net_worth": 0}}, "collect net_worth"),
        ({"executor": "threads"}, "executor is None, 'processes'"),
        ({"bots": [HeuristicBot(seed=1), "random"]}, "is a bot object"),
        ({"bots": [lambda: None, "random"]}, "must accept seed"),
        ({"seed": -1}, "seed must be a non-negative integer"),
        ({"workers": 0, "executor": "processes"}, "workers must be a positive integer"),
        ({"chunk_size": 0}, "chunk_size must be a positive integer"),
        ({"profile": "chess"}, "unknown profile 'chess'"),
        ({"bots": ["heuristic"] * 9}, "classic is for 2 to 8 players, not 9"),
        ({"options": {"mode": "timed", "time_limit_minutes": 30, "round_limit": None}},
         "a timed game in a simulation needs turn_limit or round_limit"),
    ],
)
def test_bad_input_is_refused_before_any_game(kwargs: dict[str, object], message: str) -> None:
    calls: list[tuple[int, int]] = []
    args = {"games": 3, "profile": "classic", "bots": ["heuristic", "random"],
            "progress": lambda done, total: calls.append((done, total))}
    args.update(kwargs)
    with pytest.raises(SetupError) as info:
        simulate(**args)  # type: ignore[arg-type]
    assert message in str(info.value)
    assert calls == []


def test_a_lambda_factory_cannot_go_to_processes_and_says_why() -> None:
    with pytest.raises(SetupError, match="cannot be sent to worker processes"):
        simulate(2, "classic", bots=[lambda seed: HeuristicBot(seed=seed)] * 2,
                 executor="processes", progress=False)
    # in this process a lambda is fine
    assert len(simulate(2, "classic", bots=[lambda seed: HeuristicBot(seed=seed)] * 2,
                        progress=False, options=SHORT).games) == 2


def test_default_round_limit_and_lifting_it() -> None:
    results = simulate(2, "ugentopoly", progress=False, collect=())
    assert results.settings.profile.round_limit == 500
    assert set(results.games["end_reason"]) <= {"round_limit", "cannot_pay"}
    lifted = make_settings("ugentopoly", board=None, players=None, bots="heuristic",
                           options={"round_limit": None}, rotate_seats=False, collect=None,
                           max_actions=100)
    assert lifted.profile.round_limit is None
    capped = simulate(1, "ugentopoly", options={"round_limit": None}, max_actions=50,
                      progress=False)
    assert capped.games.loc[0, "end_reason"] == "max_actions"
    assert capped.games.loc[0, "actions"] == 50 and capped.games.loc[0, "n_winners"] == 0


def test_replay_gives_the_game_behind_a_row() -> None:
    results = run(3, collect=("events",))
    game = results.replay(2)
    row = results.games.loc[2]
    assert game.seed == row["seed"] and game.turn_number == row["turns"]
    assert [game.players[s].cash for s in range(3)] == [row[f"cash_{s}"] for s in range(3)]
    with pytest.raises(ValueError, match="no game 3"):
        results.replay(3)


def test_progress_bar_counts_games(capsys: pytest.CaptureFixture[str]) -> None:
    calls: list[tuple[int, int]] = []
    run(5, chunk_size=2, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(2, 5), (4, 5), (5, 5)]
    run(3, progress=True)
    err = capsys.readouterr().err
    assert "3/3" in err and "game/s" in err


def test_the_engine_alone_never_imports_pandas() -> None:
    code = (
        "import sys\n"
        "import ugentopoly_widget\n"
        "from ugentopoly_widget import Game\n"
        "from ugentopoly_widget.engine.bots import play_game, HeuristicBot\n"
        "g = Game('classic', players=2, seed=1)\n"
        "assert 'pandas' not in sys.modules and 'numpy' not in sys.modules, 'eager'\n"
        "from ugentopoly_widget import simulate, compare, sweep\n"
        "assert 'pandas' in sys.modules and callable(simulate) and callable(sweep)\n"
        "assert 'ugentopoly_widget.widget' not in sys.modules, 'simulation imported the widget'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("name", ["api", "seeding", "stats", "experiments"])
def test_docstring_examples(name: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(f"ugentopoly_widget.simulation.{name}"))
    assert result.attempted > 0 and result.failed == 0
