"""Each collection against a hand count on scripted games (chosen dice, a stacked card), and
against the engine's own counts on random games."""

from __future__ import annotations

import pandas as pd
from simulation_bots import Scripted

from ugentopoly_widget.simulation import simulate

SCRIPTED = {"turn_limit": 4}


def scripted(games: int, collect: object) -> object:
    return simulate(games, "classic", bots=[Scripted, Scripted], options=SCRIPTED,
                    collect=collect, progress=False)  # type: ignore[arg-type]


def test_landings_per_roll_by_hand() -> None:
    results = scripted(3, {"landings": "roll"})
    land = results.landings  # type: ignore[attr-defined]
    # Per game: seat 0 ends rolls on 3 and 6; seat 1 on 4 (sent back from Chance), 16, 28,
    # and In Jail (third double): six rolls.
    expected = [0] * 40
    for tile in (3, 6, 4, 16, 28):
        expected[tile] = 3
    assert list(land.tiles) == expected and land.in_jail == 3 and land.per == "roll"
    assert land.tiles[7] == 0 and land.tiles[30] == 0  # never where a card or jail moved on
    table = results.landings_table()  # type: ignore[attr-defined]
    assert table.loc[table["tile"] == 4, "name"].item() == "Income Tax"
    assert table["count"].sum() == 18 and table.iloc[-1]["name"] == "In Jail"
    assert abs(table["share"].sum() - 1) < 1e-12


def test_landings_per_turn_by_hand() -> None:
    land = scripted(2, {"landings": "turn"}).landings  # type: ignore[attr-defined]
    expected = [0] * 40
    for tile in (3, 6, 4):
        expected[tile] = 2
    assert list(land.tiles) == expected and land.in_jail == 2  # seat 1's second turn: jail


def test_net_worth_samples_by_hand() -> None:
    results = scripted(3, {"net_worth": 1})
    nw = results.net_worth  # type: ignore[attr-defined]
    games = results.games  # type: ignore[attr-defined]
    for game, first in enumerate(games["first_player"]):
        mine = nw[nw["game"] == game]
        got = {(r.round, r.seat, r.final): (r.cash, r.net_worth) for r in mine.itertuples()}
        # Seat 0 buys Baltic Avenue (60) in its first turn: cash 1440, net worth 1500.
        # Seat 1 pays 200 income tax in its first turn: 1300.
        after_1 = {0: (1440, 1500), 1: (1300, 1300)}
        # rounds count from the player drawn to start: [0, 1] [0, 1] or [1, 0] [1, 0], so
        # both orders give every seat its first turn in round 1
        want = {(0, 0, False): (1500, 1500), (0, 1, False): (1500, 1500),
                (1, 0, False): after_1[0], (1, 1, False): after_1[1],
                (2, 0, True): after_1[0], (2, 1, True): after_1[1]}
        assert got == want, (game, first)
    assert set(games["first_player"]) == {0, 1}  # both orders were checked
    assert set(nw["bot"]) == {"scripted"}


def test_events_kept_for_the_first_games_only() -> None:
    results = simulate(4, "classic", bots=["heuristic", "random"], options={"round_limit": 10},
                       collect={"events": 2}, progress=False)
    events = results.events
    assert events is not None and sorted(set(events["game"])) == [0, 1]
    for game in (0, 1):
        replayed = results.replay(game)
        mine = events[events["game"] == game]
        assert mine["seq"].tolist() == list(range(len(replayed.events)))
        assert [(r.kind, None if pd.isna(r.player) else r.player, r.data)
                for r in mine.itertuples()] == [(e.kind, e.player, e.data)
                                                for e in replayed.events]


def test_landings_and_net_worth_of_random_games_agree_with_the_engine() -> None:
    results = simulate(3, "cell22", bots=["heuristic", "random", "heuristic"],
                       options={"round_limit": 40},
                       collect={"landings": "roll", "net_worth": 10}, progress=False)
    total = None
    for game in range(3):
        replayed = results.replay(game)
        got = replayed.landings("roll")
        total = got if total is None else total + got
        final = results.net_worth[(results.net_worth["game"] == game)
                                  & results.net_worth["final"]]
        assert final["net_worth"].tolist() == [replayed.net_worth(s) for s in range(3)]
        rounds = results.games.loc[game, "rounds"]
        assert final["round"].tolist() == [rounds] * 3
        sampled = results.net_worth[(results.net_worth["game"] == game)
                                    & ~results.net_worth["final"]]
        assert sorted(set(sampled["round"])) == list(range(0, rounds, 10))
    assert results.landings == total
    assert results.landings.rolls > 100  # type: ignore[union-attr]
