"""The game analysis (rollouts/analysis): decisions judged, rolls and cards measured, per-player
sums, incremental and cancellable, named errors. Small budgets and short horizons: the
properties tested hold exactly or by far margins (see test_analysis_executors.py for the
executors and the statistical checks)."""

from __future__ import annotations

import math
import threading
from typing import Any

import pytest

from ugentopoly_widget import Game
from ugentopoly_widget.engine.actions import AcceptTrade, ProposeTrade, TradeSide
from ugentopoly_widget.engine.bots import make_bot, play_game
from ugentopoly_widget.rollouts.analysis import (
    Analyser,
    AnalysisError,
    GameAnalysis,
    Thresholds,
    analyse,
    chances_table,
    decisions_table,
    explain,
    roll_map,
    summary_table,
)
from ugentopoly_widget.rollouts.analysis.core import LIVE_BACKLOG
from ugentopoly_widget.rollouts.analysis.walk import _next_cards

FAST: dict[str, Any] = {"rollouts": 12, "chance_rollouts": 2, "horizon": 2}


def orange_decline() -> Game:
    """Ann owns two orange lots, rolls onto the third and declines it: a planted blunder."""
    game = Game.scenario("classic", players=["Ann", "Bob"], owners={16: 0, 18: 0},
                         positions={"Ann": 14}, current="Ann")
    game.testing.script_dice((2, 3))
    game.act("roll")
    game.act("decline")
    return game


def bot_game(turns: int, seed: int = 5) -> Game:
    game = Game("classic", players=["Ann", "Bob"], seed=seed)
    play_game(game, [make_bot("strong", 1), make_bot("strong", 2)], until_turn=turns)
    return game


def test_declining_the_last_lot_of_ones_group_is_a_blunder() -> None:
    result = analyse(orange_decline(), rollouts=36, chance_rollouts=2, horizon=4)
    (row,) = result.decisions
    assert (row.kind, row.player, row.index) == ("buy", 0, 1)
    assert row.chosen.description == "decline New York Avenue"
    assert row.best.description == "buy New York Avenue" == row.options[0].description
    assert row.verdict == "blunder"
    assert row.loss >= 10 + 2 * row.loss_se
    assert row.best.loss == 0.0 and row.chosen.action == {"type": "decline", "player": 0}


def test_giving_away_the_last_lot_of_an_opponents_group_is_a_blunder() -> None:
    game = Game.scenario("classic", players=["Ann", "Bob"], owners={16: 0, 18: 0, 19: 1},
                         cash={"Ann": 1500, "Bob": 1500}, current="Ann")
    game.apply(ProposeTrade(0, 1, give=TradeSide(), get=TradeSide(properties=(19,))))
    game.apply(AcceptTrade(1))
    result = analyse(game, rollouts=36, chance_rollouts=2, horizon=4)
    answer = next(r for r in result.decisions if r.kind == "trade_answer")
    assert answer.player == 1 and answer.chosen.description == "accept the trade"
    assert answer.best.description == "reject the trade"
    assert answer.verdict == "blunder"
    offer = next(r for r in result.decisions if r.kind == "trade_offer")
    assert offer.player == 0 and offer.verdict == "fine"  # asking for it was good for Ann


def test_a_neutral_choice_is_fine() -> None:
    # Ann's net worth is 2000: 10 % is exactly the fixed 200, so either choice is the same
    game = Game.scenario("classic", players=["Ann", "Bob"], positions={"Ann": 0},
                         cash={"Ann": 2000, "Bob": 1500}, current="Ann")
    game.testing.script_dice((1, 3))
    game.act("roll")
    game.act("tax", "percent")
    (row,) = analyse(game, **FAST).decisions
    assert row.kind == "tax" and row.verdict == "fine"
    assert row.loss == 0.0 and row.options[0].p_win == row.options[1].p_win


def test_luck_of_a_roll_averages_to_zero_over_the_36_outcomes_exactly() -> None:
    lucks, befores = [], set()
    for a in range(1, 7):
        for b in range(1, 7):
            game = Game.scenario("classic", players=["Ann", "Bob"], owners={16: 1, 18: 1},
                                 positions={"Ann": 10}, current="Ann")
            game.testing.script_dice((a, b))
            game.act("roll")
            (row,) = [r for r in analyse(game, **FAST).chances if r.kind == "roll"]
            assert row.outcome.startswith(f"{a}+{b}") and row.player == 0
            assert (" (double)" in row.outcome) == (a == b)
            lucks.append(row.luck)
            befores.add(row.p_before)
    assert len(befores) == 1  # the same exact mean from every outcome
    assert abs(sum(lucks)) < 1e-9
    assert max(lucks) - min(lucks) > 5  # landing on Bob's orange lots or not: luck matters


def test_roll_map_outcomes_average_to_the_chance_before() -> None:
    game = Game.scenario("classic", players=["Ann", "Bob"], owners={16: 1, 18: 1, 19: 1},
                         buildings={"orange": 3}, positions={"Ann": 10}, current="Ann")
    rmap = roll_map(game, rollouts=4, horizon=2)
    assert len(rmap.outcomes) == 36 and rmap.player == 0 and rmap.rollouts == 4
    assert [o.dice for o in rmap.outcomes][:2] == [(1, 1), (1, 2)]
    assert sum(o.double for o in rmap.outcomes) == 6
    assert abs(sum(o.gain for o in rmap.outcomes)) < 1e-9
    assert abs(sum(o.p_win for o in rmap.outcomes) / 36 - rmap.p_mean) < 1e-12
    six = next(o for o in rmap.outcomes if o.dice == (3, 3))
    assert six.tile == 16 and six.tile_name == "St. James Place"
    orange = [o.gain for o in rmap.outcomes if o.tile in (16, 18, 19)]
    assert max(orange) < 0 < max(o.gain for o in rmap.outcomes)  # a hotel-ish rent hurts
    seven = [o for o in rmap.outcomes if sum(o.dice) == 7]  # Community Chest, at 17
    assert all(o.tile == 17 for o in seven)


def test_cards_are_measured_against_the_decks_remaining_cards() -> None:
    game = Game.scenario("classic", players=["Ann", "Bob"], positions={"Ann": 0},
                         current="Ann")
    game.testing.script_dice((3, 4))  # Chance at 7
    first = _ids(game)[0]
    game.testing.stack_deck("CHANCE", [first])
    game.act("roll")
    rows = analyse(game, **FAST).chances
    assert [r.kind for r in rows] == ["roll", "card"]
    # the card named in the player's words, as the log names it (not its id)
    assert rows[1].outcome == game.board.text(first, "en") != first
    dutch = analyse(game, lang="nl", **FAST).chances[1].outcome
    assert dutch == game.board.text(first, "nl") != rows[1].outcome


def utility_rent(rent_roll: tuple[int, int]) -> Game:
    """Ann rolls onto Chance, draws "nearest utility" (Bob's Electric Company) and rolls
    `rent_roll` for its rent: three chance events in one roll."""
    game = Game.scenario("classic", players=["Ann", "Bob"], owners={12: 1},
                         positions={"Ann": 0}, current="Ann")
    game.testing.script_dice((3, 4), rent_roll)  # Chance at 7, then the rent's roll
    game.testing.stack_deck("CHANCE", ["card.chance.03"])
    game.act("roll")
    return game


def test_a_utility_rent_roll_is_measured_as_luck() -> None:
    high, low = (analyse(utility_rent(roll), chance_rollouts=8, rollouts=2, horizon=2).chances
                 for roll in ((6, 6), (1, 2)))
    assert [r.kind for r in high] == ["roll", "card", "roll"]
    assert high[2].outcome == "6+6 (the utility's rent)" and high[2].player == 0
    # the exact mean over the rent roll's 36 outcomes, with the roll and the card as they
    # came: the same before either outcome
    assert high[2].p_before == low[2].p_before
    assert high[2].luck < 0 < low[2].luck  # 120 to pay against 30
    assert [r.luck for r in high[:2]] == [r.luck for r in low[:2]]


def chained_card(second: str) -> Game:
    """Ann rolls onto Chance at 36, draws "Go back 3 spaces" and lands on Community Chest."""
    game = Game.scenario("classic", players=["Ann", "Bob"], positions={"Ann": 29},
                         current="Ann")
    game.testing.script_dice((3, 4))
    game.testing.stack_deck("CHANCE", ["card.chance.09"])
    game.testing.stack_deck("CHEST", [second])
    game.act("roll")
    return game


def test_a_second_card_is_measured_against_its_own_deck() -> None:
    gain, loss = (analyse(chained_card(card), chance_rollouts=8, rollouts=2, horizon=2).chances
                  for card in ("card.chest.02", "card.chest.10"))  # +75, -100
    assert [r.kind for r in gain] == ["roll", "card", "card"]
    game = chained_card("card.chest.02")
    assert gain[2].outcome == game.board.text("card.chest.02", "en")
    # (the deck's cards in its order, which the stacked card changed: summed in another order)
    assert gain[2].p_before == pytest.approx(loss[2].p_before, abs=1e-12)
    assert gain[2].luck > 0 > loss[2].luck
    result = analyse(game, chance_rollouts=8, rollouts=2, horizon=2)
    assert result.players[0].luck == pytest.approx(sum(r.luck for r in result.chances
                                                       if r.player == 0))


def test_a_cycling_decks_card_drawn_earlier_in_the_roll_cannot_come_again() -> None:
    game = Game("classic", players=2)
    decks = {"CHANCE": ["a", "b", "c"], "CHEST": ["x", "y"]}
    assert _next_cards(game, decks, [("CHANCE", "a")], "CHANCE") == ["b", "c"]
    assert _next_cards(game, decks, [("CHANCE", "a")], "CHEST") == ["x", "y"]


def _ids(game: Game) -> list[str]:
    return [c.id for c in game.board.decks["CHANCE"].cards]


def test_per_player_sums_equal_the_rows() -> None:
    result = analyse(bot_game(10), **FAST)
    assert result.decisions and result.chances
    for p in result.players:
        assert p.luck == pytest.approx(sum(r.luck for r in result.chances if r.player == p.player))
        assert p.skill_loss == pytest.approx(sum(r.loss for r in result.decisions
                                                 if r.player == p.player))
        mine = [r for r in result.decisions if r.player == p.player]
        assert p.blunders == sum(r.verdict == "blunder" for r in mine)
        assert p.mistakes == sum(r.verdict == "mistake" for r in mine)
        assert p.inaccuracies == sum(r.verdict == "inaccuracy" for r in mine)
        assert p.adjusted == pytest.approx(100 * p.result - p.luck)
        assert p.adjusted_low < p.adjusted < p.adjusted_high
    assert [r.index for r in result.decisions] == sorted(r.index for r in result.decisions)
    assert decisions_table(result).shape[0] == len(result.decisions)
    assert chances_table(result).luck.sum() == pytest.approx(sum(p.luck for p in result.players))
    assert list(summary_table(result).name) == ["Ann", "Bob"]


def test_thresholds_set_the_verdicts() -> None:
    game = orange_decline()
    loose = analyse(game, rollouts=36, chance_rollouts=2, horizon=4, thresholds=(60, 70, 80))
    strict = analyse(game, rollouts=36, chance_rollouts=2, horizon=4,
                     thresholds=Thresholds(1, 2, 3))
    assert loose.decisions[0].loss == strict.decisions[0].loss
    assert loose.decisions[0].verdict == "fine" and strict.decisions[0].verdict == "blunder"
    assert loose.thresholds == Thresholds(60.0, 70.0, 80.0)


def test_incremental_analysis_never_redoes_a_point() -> None:
    whole = bot_game(12)
    record = whole.record()
    half = Game.replay(record, upto=len(whole.actions) // 2)
    analyser = Analyser(half, **FAST)
    first = analyser.update()
    done = analyser.points_evaluated
    assert done > 0 and not first.complete
    assert analyser.update().decisions == first.decisions  # nothing new: nothing judged
    assert analyser.points_evaluated == done
    later = analyser.update(whole)
    fresh = Analyser(whole, **FAST)
    full = fresh.update()
    assert analyser.points_evaluated == fresh.points_evaluated  # each point judged once
    assert analyser.playouts == fresh.playouts
    assert later.decisions == full.decisions and later.chances == full.chances


def test_latest_first_judges_the_newest_position_then_the_backlog() -> None:
    game = bot_game(30)
    analyser = Analyser(game, latest_first=True, **FAST)
    full = analyse(game, **FAST)
    first = analyser.update()
    # the newest decision and the newest roll's points, then LIVE_BACKLOG older ones
    assert first.decisions[-1] == full.decisions[-1]
    last_roll = full.chances[-1].index
    assert [r for r in first.chances if r.index == last_roll] == [
        r for r in full.chances if r.index == last_roll]
    assert analyser.points_evaluated <= 1 + 3 + LIVE_BACKLOG
    assert first.upto < len(game.actions)
    calls = 1
    while analyser.analysis().upto < len(game.actions):
        analyser.update()
        calls += 1
    assert calls > 2
    done = analyser.analysis()
    assert done.decisions == full.decisions and done.chances == full.chances
    assert analyser.points_evaluated == len(full.decisions) + len(full.chances)
    plain = Analyser(game, **FAST)
    plain.update()
    assert plain.analysis().upto == len(game.actions)  # by default: everything at once
    with pytest.raises(AnalysisError, match="latest_first"):
        Analyser(game, latest_first="yes")


def test_incremental_follows_a_live_game_and_an_undo() -> None:
    game = orange_decline()
    game.act("pass")  # Bob drops out of the auction (a decision point too)
    analyser = Analyser(game, **FAST)
    first = analyser.update()
    assert [r.index for r in first.decisions] == [1, 2] and first.decisions[0].verdict != "fine"
    judged = analyser.points_evaluated
    game.undo()
    game.undo()  # Bob's pass and Ann's decline taken back ...
    game.act("buy")  # ... and the lot bought
    again = analyser.update()
    (row,) = again.decisions
    assert row.chosen.description == "buy New York Avenue" and row.verdict == "fine"
    assert again.chances == first.chances  # Ann's roll, before the change: kept ...
    assert analyser.points_evaluated == judged + 1  # ... and only the decision judged again


def test_cancel_returns_what_is_done_and_resumes() -> None:
    game = bot_game(6)
    stop = threading.Event()
    seen: list[int] = []

    def progress(done: int, total: int) -> None:
        seen.append(done)
        if done == 3:
            stop.set()

    analyser = Analyser(game, progress=progress, cancel=stop, **FAST)
    part = analyser.update()
    assert not part.complete and part.settings["cancelled"]
    assert len(part.decisions) + len(part.chances) == analyser.points_evaluated == 3
    stop.clear()
    rest = analyser.update()
    full = analyse(game, **FAST)
    assert rest.decisions == full.decisions and rest.chances == full.chances
    assert seen == list(range(1, len(seen) + 1))
    assert analyse(game, cancel=lambda: True, **FAST).decisions == []
    assert analyse(game, progress=True, **FAST).decisions == full.decisions  # a tqdm bar


def test_explain_in_words() -> None:
    result = analyse(orange_decline(), rollouts=36, chance_rollouts=2, horizon=4)
    dutch = analyse(orange_decline(), rollouts=36, chance_rollouts=2, horizon=4, lang="nl")
    en, nl = explain(result), explain(dutch, "nl")  # (choices named in the analysis' lang)
    assert en.startswith("Ann leads") or en.startswith("Bob leads")
    assert "Ann's decisions cost" in en and "mostly decline New York Avenue on turn 1" in en
    assert "a blunder" in en and "de beslissingen van Ann kostten" in nl
    assert "New York Avenue niet kopen in beurt 1" in nl
    # an analysis made in English, told in Dutch: its choices named in Dutch too
    assert "New York Avenue niet kopen in beurt 1" in explain(result, "nl")
    (row,) = result.decisions
    assert row.chosen.words == {"en": "decline New York Avenue",
                                "nl": "New York Avenue niet kopen"}
    assert {c.outcome_words["nl"] for c in result.chances} <= {
        c.outcome_words["nl"] for c in dutch.chances} and result.chances


def test_a_finished_game_says_who_won() -> None:
    game = bot_game(1000, seed=5)
    assert game.is_over
    result = analyse(game, rollouts=2, chance_rollouts=1, horizon=1)
    winner = game.winners[0]
    assert result.complete and result.players[winner].result == 1.0
    assert explain(result).startswith(f"{game.players[winner].name} won;")


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"rollouts": 0}, "rollouts must be a positive integer"),
    ({"rollouts": -3}, "rollouts must be a positive integer"),
    ({"rollouts": 10**6}, "beyond the limit"),
    ({"chance_rollouts": 0}, "chance_rollouts must be a positive integer"),
    ({"thresholds": (5, 2, 10)}, "thresholds go up"),
    ({"thresholds": (0, 5, 10)}, "above 0 points"),
    ({"thresholds": (-1, 5, 10)}, "above 0 points"),
    ({"thresholds": (2, 5)}, "three numbers"),
    ({"thresholds": (2, 5, math.inf)}, "finite"),
    ({"horizon": 0}, "horizon"),
    ({"lang": "fr"}, "lang"),
    ({"bots": "nobody"}, "unknown bot"),
    ({"seed": -1}, "seed"),
    ({"executor": "threads"}, "executor"),
    ({"cancel": 3}, "cancel"),
    ({"progress": "yes"}, "progress"),
])
def test_bad_settings_are_refused_by_name(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(AnalysisError, match=message):
        analyse(orange_decline(), **{**FAST, **kwargs})


def test_a_game_with_no_record_is_refused(tmp_path: Any) -> None:
    with pytest.raises(AnalysisError, match="no record"):
        analyse(Game("classic", players=2))
    with pytest.raises(AnalysisError, match="takes a Game"):
        analyse(42)
    with pytest.raises(AnalysisError, match="list of actions"):
        analyse({"profile": "classic"})
    with pytest.raises(AnalysisError, match="missing.sav"):
        analyse(tmp_path / "missing.sav")
    path = tmp_path / "game.json"
    orange_decline().save(path)
    assert analyse(path, **FAST).decisions[0].verdict != "fine"  # a save file is fine
    with pytest.raises(AnalysisError, match="one per seat"):
        analyse(orange_decline(), bots=["strong", "strong", "strong"], **FAST)
    with pytest.raises(AnalysisError, match="nobody is about to roll"):
        roll_map(_buying())
    assert isinstance(analyse(orange_decline(), **FAST), GameAnalysis)


def _buying() -> Game:
    game = Game.scenario("classic", players=["Ann", "Bob"], positions={"Ann": 14},
                         current="Ann")
    game.testing.script_dice((2, 3))
    game.act("roll")
    return game


def test_the_analysis_modules_import_neither_numpy_nor_pandas() -> None:
    """The browser site has neither: only the tables import pandas, inside the function."""
    import ast
    from pathlib import Path

    import ugentopoly_widget.rollouts.analysis as package

    for path in Path(package.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in tree.body:  # module level only (a lazy import inside a function is fine)
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            assert not any(n.split(".")[0] in ("numpy", "pandas") for n in names), path


@pytest.mark.parametrize("name", ["core", "explain"])
def test_docstring_examples(name: str) -> None:
    import doctest
    import importlib

    module = importlib.import_module(f"ugentopoly_widget.rollouts.analysis.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_turn_by_turn_as_the_game_goes_equals_the_whole() -> None:
    whole = bot_game(6)
    record = whole.record()
    live = Game.replay(record, upto=1)
    analyser = Analyser(live, **FAST)
    for action in whole.actions[1:]:
        analyser.update()
        live.apply(action)
    last = analyser.update()
    fresh = Analyser(whole, **FAST)
    full = fresh.update()
    assert last.decisions == full.decisions and last.chances == full.chances
    assert analyser.points_evaluated == fresh.points_evaluated
    assert analyser.playouts == fresh.playouts


def test_roll_map_tells_the_landing_tile_from_where_the_roll_ends() -> None:
    game = Game.scenario("classic", players=["Ann", "Bob"], positions={"Ann": 24},
                         current="Ann")
    rmap = roll_map(game, rollouts=2, horizon=1)
    by_dice = {o.dice: o for o in rmap.outcomes}
    assert (by_dice[(2, 4)].tile, by_dice[(2, 4)].end) == (30, 10)  # Go to Jail
    assert by_dice[(2, 4)].tile_name == "Go To Jail"
    assert (by_dice[(3, 3)].tile, by_dice[(3, 3)].end, by_dice[(3, 3)].double) == (30, 10, True)
    assert (by_dice[(3, 4)].tile, by_dice[(3, 4)].end) == (31, 31)


def test_a_timed_games_clock_in_the_record_is_walked_past() -> None:
    now = [0.0]
    game = Game("classic", players=["Ann", "Bob"], seed=3, clock=lambda: now[0],
                options={"mode": "timed", "time_limit_minutes": 1})
    play_game(game, [make_bot("strong", 1), make_bot("strong", 2)], until_turn=4)
    now[0] = 1000.0
    game.tick()
    assert str(game.actions[-1]) == "-1:time_up"
    result = analyse(game, **FAST)
    assert result.chances and result.chances[-1].index < len(game.actions) - 1
