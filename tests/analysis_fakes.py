"""A stand-in for the rollouts' analysis in the widget's tests: the same result types
(rollouts/analysis/results.py), made from the record by fixed rules, fast and exact, so a test
can check what the widget shows against what the "analysis" found and how it was called.

Rules: every roll is a chance row with luck ``(7 * index) % 11 - 5`` points (±1), every third
one counted as a card; a purchase is fine, declining a lot loses 6 ± 2 points (a mistake) the
first time, 12 (a blunder) the second, 2.5 (an inaccuracy) the third, and so on (best: buy
it); other actions are not judged. ``CALLS`` records (key, actions analysed before, actions
now) of each step: the widget must go on with one analyser per line of play, never start
again for a longer record.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ugentopoly_widget.engine.game import Game
from ugentopoly_widget.rollouts.analysis.results import (
    ChanceRow,
    DecisionRow,
    GameAnalysis,
    OptionValue,
    PlayerSummary,
    RollMap,
    RollOutcome,
    Thresholds,
)

CALLS: list[tuple[Any, int, int]] = []
RECORDS: list[dict[str, Any]] = []  # the records the widget's worker handed over
_DONE: dict[Any, int] = {}


def _option(game: Game, action: Any, text: str, p: float, loss: float, se: float) -> OptionValue:
    return OptionValue(action=action.to_dict(), description=text, p_win=p, se=0.02,
                       loss=loss, loss_se=se)


def analysis_of(game: Game, thresholds: Thresholds | None = None) -> GameAnalysis:
    thresholds = thresholds or Thresholds()
    decisions: list[DecisionRow] = []
    chances: list[ChanceRow] = []
    rolls = declines = 0
    for index, action in enumerate(game.actions):
        turn = index // 3 + 1
        if action.type == "roll":
            luck = float((7 * index) % 11 - 5)
            rolls += 1
            chances.append(ChanceRow(index=index, turn=turn, player=action.player,
                                     kind="card" if rolls % 3 == 2 else "roll",
                                     outcome=f"roll {index}", p_before=0.5,
                                     p_after=0.5 + luck / 100, luck=luck, luck_se=1.0))
        elif action.type in ("buy", "decline"):
            buy = _option(game, action, "buy it", 0.56, 0.0, 0.0)
            if action.type == "buy":
                chosen = buy
            else:
                loss = (6.0, 12.0, 2.5)[declines % 3]
                declines += 1
                chosen = _option(game, action, "decline it", 0.56 - loss / 100, loss, 2.0)
            decisions.append(DecisionRow(
                index=index, turn=turn, player=action.player, kind="buy", chosen=chosen,
                best=buy, options=(buy, chosen) if chosen is not buy else (buy,),
                verdict=thresholds.verdict(chosen.loss)))
    players = []
    for k, p in enumerate(game.players):
        luck = sum(c.luck for c in chances if c.player == k)
        loss = sum(d.chosen.loss for d in decisions if d.player == k)
        verdicts = [d.verdict for d in decisions if d.player == k]
        result = 1.0 / len(game.players)
        players.append(PlayerSummary(
            player=k, name=p.name, result=result, luck=luck, luck_se=1.0, skill_loss=loss,
            skill_loss_se=2.0, inaccuracies=verdicts.count("inaccuracy"),
            mistakes=verdicts.count("mistake"), blunders=verdicts.count("blunder"),
            adjusted=100 * result - luck, adjusted_low=100 * result - luck - 4,
            adjusted_high=100 * result - luck + 4))
    return GameAnalysis(players=tuple(players), decisions=decisions, chances=chances,
                        thresholds=thresholds, upto=len(game.actions),
                        complete=game.is_over, settings={"rollouts": 36})


def step(key: Any, record: dict[str, Any], settings: Mapping[str, Any], cancel: Any
         ) -> tuple[GameAnalysis, Any]:
    RECORDS.append(record)
    game = Game.replay(record)
    CALLS.append((key, _DONE.get(key, 0), len(game.actions)))
    _DONE[key] = len(game.actions)
    result = analysis_of(game, settings["thresholds"])
    words = {lang: f"{len(result.decisions)} decisions, {len(result.chances)} rolls ({lang})"
             for lang in ("en", "nl")}
    return result, words


def failing_step(key: Any, record: Any, settings: Mapping[str, Any], cancel: Any) -> Any:
    raise RuntimeError("the judge fell over")


def failing_roll_map(record: Any, settings: Mapping[str, Any]) -> RollMap:
    raise RuntimeError("the map fell over")


def roll_map_of(record: dict[str, Any], settings: Mapping[str, Any]) -> RollMap:
    game = Game.replay(record)
    player = game.decision.player
    assert player is not None
    start = game.players[player].position
    size = game.board.size
    outcomes = []
    for a in range(1, 7):
        for b in range(1, 7):
            tile = (start + a + b) % size
            gain = float(a - b) + (3.0 if a == b else 0.0) - 0.5
            outcomes.append(RollOutcome(dice=(a, b), double=a == b, tile=tile,
                                        tile_name=game.board.tile_name(tile, "en"), end=tile,
                                        p_win=0.5 + gain / 100, se=0.01, gain=gain))
    return RollMap(player=player, p_mean=0.5, outcomes=tuple(outcomes),
                   rollouts=settings["rollouts"])
