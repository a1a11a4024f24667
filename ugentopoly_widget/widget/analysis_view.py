"""The Analysis tab's payloads: a game analysis (:mod:`ugentopoly_widget.rollouts.analysis`'s
plain result types) turned into the ``analysis`` and ``roll_map`` traits (contract/analysis.py).

Pure functions of the results (no game, no rollouts, no numpy): the words in both languages,
the chart's running sums, the biggest mistakes, the roll map's colours. The figures are the
analysis' own, passed on unrounded (the view's data- attributes are compared with them).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Literal

from . import heatmap
from .contract.analysis import (
    AnalysisPlayer,
    AnalysisPoint,
    AnalysisReport,
    LiveLuck,
    LiveVerdict,
    Mistake,
    RollCell,
    RollMapPanel,
)
from .contract.base import Texts

if TYPE_CHECKING:
    from ..rollouts.analysis.results import (
        ChanceRow,
        DecisionRow,
        GameAnalysis,
        PlayerSummary,
        RollMap,
    )

MAX_MISTAKES = 10  # the list's length: the worst first
# the roll map's colours: loss red, gain blue (ColorBrewer RdBu: readable for red-green
# colour blindness), near-white for an average roll
GAIN_PALETTE = tuple(reversed(heatmap.DIVERGING))
MIN_SCALE = 1.0  # points: a map whose outcomes all lie within ±1 point is not coloured deeper

VERDICT_WORDS: dict[str, Texts] = {
    "fine": {"en": "fine", "nl": "goed"},
    "inaccuracy": {"en": "inaccuracy", "nl": "onnauwkeurig"},
    "mistake": {"en": "mistake", "nl": "fout"},
    "blunder": {"en": "blunder", "nl": "blunder"},
}
POINTS: Texts = {"en": "points", "nl": "punten"}
LUCK_WORDS: dict[str, Texts] = {
    "roll+": {"en": "lucky roll", "nl": "geluksworp"},
    "roll-": {"en": "unlucky roll", "nl": "pechworp"},
    "roll0": {"en": "an average roll", "nl": "een gewone worp"},
    "card+": {"en": "lucky card", "nl": "gelukskaart"},
    "card-": {"en": "unlucky card", "nl": "pechkaart"},
    "card0": {"en": "an average card", "nl": "een gewone kaart"},
}
BEST: Texts = {"en": "best", "nl": "beter"}


def signed(points: float) -> str:
    """``+7`` / ``−6`` / ``0``: whole points with a true minus."""
    value = round(points)
    if value == 0:
        return "0"
    return f"+{value}" if value > 0 else f"−{-value}"


def points_text(points: float, se: float | None, lang: Literal["en", "nl"]) -> str:
    """``"−6 ± 2 points"`` (the error left out when there is none)."""
    spread = f" ± {max(round(se), 0)}" if se is not None and math.isfinite(se) and se > 0 else ""
    return f"{signed(points)}{spread} {POINTS[lang]}"


def _both(make: Callable[[Literal["en", "nl"]], str]) -> Texts:
    return {"en": make("en"), "nl": make("nl")}


def _name(names: Sequence[str], player: int) -> str:
    return names[player] if 0 <= player < len(names) else str(player)


def decision_text(row: DecisionRow, names: Sequence[str]) -> Texts:
    """"Bob: mistake, −6 ± 2 points: sell New York Avenue; best: keep it" (a fine choice:
    "Bob: fine: buy Boardwalk"), the choices named in each language."""
    who = _name(names, row.player)

    def line(lang: Literal["en", "nl"]) -> str:
        verdict = VERDICT_WORDS.get(row.verdict, {"en": row.verdict, "nl": row.verdict})[lang]
        if row.verdict == "fine" and row.chosen.loss <= 0:
            return f"{who}: {verdict}: {row.chosen.description_in(lang)}"
        return (f"{who}: {verdict}, {points_text(-row.chosen.loss, row.chosen.loss_se, lang)}: "
                f"{row.chosen.description_in(lang)}; {BEST[lang]}: "
                f"{row.best.description_in(lang)}")
    return _both(line)


def luck_text(row: ChanceRow, names: Sequence[str]) -> Texts:
    """"Ann: lucky roll 5+3: +7 points" (``luck`` rounds to 0: an average roll)."""
    who = _name(names, row.player)
    sign = "+" if round(row.luck) > 0 else "-" if round(row.luck) < 0 else "0"
    key = f"{row.kind}{sign}"

    def line(lang: Literal["en", "nl"]) -> str:
        words = LUCK_WORDS.get(key, LUCK_WORDS[f"roll{sign}"])[lang]
        return (f"{who}: {words} {row.outcome_in(lang)}: "
                f"{points_text(row.luck, row.luck_se, lang)}")
    return _both(line)


def live_verdict(row: DecisionRow, names: Sequence[str]) -> LiveVerdict:
    return {"index": row.index, "turn": row.turn, "player": row.player, "verdict": row.verdict,
            "loss": row.chosen.loss, "loss_se": row.chosen.loss_se,
            "text": decision_text(row, names)}


def live_luck(row: ChanceRow, names: Sequence[str]) -> LiveLuck:
    return {"index": row.index, "turn": row.turn, "player": row.player, "kind": row.kind,
            "luck": row.luck, "luck_se": row.luck_se, "text": luck_text(row, names)}


def player_row(summary: PlayerSummary) -> AnalysisPlayer:
    return {"player": summary.player, "name": summary.name, "result": summary.result,
            "luck": summary.luck, "luck_se": summary.luck_se,
            "skill_loss": summary.skill_loss, "skill_loss_se": summary.skill_loss_se,
            "inaccuracies": summary.inaccuracies, "mistakes": summary.mistakes,
            "blunders": summary.blunders, "adjusted": summary.adjusted,
            "adjusted_low": summary.adjusted_low, "adjusted_high": summary.adjusted_high}


def series(analysis: GameAnalysis, players: int) -> list[AnalysisPoint]:
    """Each player's luck and skill loss summed turn by turn (one point per turn with a row,
    after a point of zeros before the first row's turn): the chart's lines. The last point's
    sums are the summaries' (the same rows added in the same order)."""
    rows: list[tuple[int, int, int, float, float]] = []  # index, turn, player, luck, loss
    rows += [(c.index, c.turn, c.player, c.luck, 0.0) for c in analysis.chances]
    rows += [(d.index, d.turn, d.player, 0.0, d.chosen.loss) for d in analysis.decisions]
    rows.sort(key=lambda r: (r[0], r[1]))
    luck = [0.0] * players
    skill = [0.0] * players
    points: list[AnalysisPoint] = []
    for index, turn, player, lucky, loss in rows:
        if not points:
            points.append({"turn": turn - 1, "index": index, "luck": list(luck),
                           "skill": list(skill)})
        if 0 <= player < players:
            luck[player] += lucky
            skill[player] += loss
        point: AnalysisPoint = {"turn": turn, "index": index, "luck": list(luck),
                                "skill": list(skill)}
        if points[-1]["turn"] == turn:
            points[-1] = point  # one point per turn: its last row's sums
        else:
            points.append(point)
    return points


def mistakes(analysis: GameAnalysis, names: Sequence[str], most: int = MAX_MISTAKES
             ) -> list[Mistake]:
    """The decisions judged worse than fine, the biggest loss first (ties: the earlier)."""
    bad = [d for d in analysis.decisions if d.verdict != "fine"]
    bad.sort(key=lambda d: (-d.chosen.loss, d.index))
    return [{"index": d.index, "turn": d.turn, "player": d.player, "verdict": d.verdict,
             "loss": d.chosen.loss, "loss_se": d.chosen.loss_se,
             "chosen": d.chosen.description, "best": d.best.description,
             "text": decision_text(d, names)} for d in bad[:most]]


def analysis_payload(analysis: GameAnalysis, *, seq: int, actions: int, explain: Texts,
                     status: Literal["running", "done"] = "done",
                     browser: bool = False) -> AnalysisReport:
    """The ``analysis`` trait of an analysis of the game up to ``analysis.upto`` of its
    ``actions`` (``seq``: the state it was made for; ``explain``: its summary in words;
    ``browser``: made in the browser site's slices, with its smaller budget)."""
    names = [p.name for p in sorted(analysis.players, key=lambda p: p.player)]
    last_decision = max(analysis.decisions, key=lambda d: d.index, default=None)
    last_chance = max(analysis.chances, key=lambda c: c.index, default=None)
    rollouts = analysis.settings.get("rollouts", 0)
    chance = analysis.settings.get("chance_rollouts", 0)
    t = analysis.thresholds
    return {
        "on": True, "status": status, "seq": seq, "upto": analysis.upto, "actions": actions,
        "complete": analysis.complete,
        "rollouts": rollouts if isinstance(rollouts, int) and not isinstance(rollouts, bool)
        else 0,
        "chance_rollouts": chance if isinstance(chance, int) and not isinstance(chance, bool)
        else 0,
        "browser": browser,
        "thresholds": {"inaccuracy": t.inaccuracy, "mistake": t.mistake, "blunder": t.blunder},
        "players": [player_row(p) for p in sorted(analysis.players, key=lambda p: p.player)],
        "series": series(analysis, len(names)),
        "mistakes": mistakes(analysis, names),
        "decisions": len(analysis.decisions), "chances": len(analysis.chances),
        "verdict": live_verdict(last_decision, names) if last_decision is not None else None,
        "luck": live_luck(last_chance, names) if last_chance is not None else None,
        "explain": {"en": explain.get("en", ""), "nl": explain.get("nl", "")},
    }


def roll_map_payload(roll_map: RollMap, *, seq: int, name: str, sides: int,
                     tile_names: Mapping[int, Texts], browser: bool = False) -> RollMapPanel:
    """The ``roll_map`` trait: every outcome's cell (landing tile, P(win) after, gain) with its
    colour, on a scale symmetric about 0 (the largest gain or loss, at least MIN_SCALE);
    ``browser``: made in the browser site, with its smaller budget."""
    top = max([MIN_SCALE, *(abs(o.gain) for o in roll_map.outcomes if math.isfinite(o.gain))])
    cells: list[RollCell] = []
    for o in roll_map.outcomes:
        fill = heatmap.mix(GAIN_PALETTE, 0.5 + o.gain / top / 2)
        unknown: Texts = {"en": str(o.tile), "nl": str(o.tile)}
        cells.append({"dice": list(o.dice), "double": o.double, "tile": o.tile, "end": o.end,
                      "name": tile_names.get(o.tile, unknown),
                      "end_name": tile_names.get(o.end, unknown),
                      "p_win": o.p_win, "se": o.se, "gain": o.gain,
                      "fill": fill, "ink": heatmap.ink(fill)})
    return {"seq": seq, "status": "done", "player": roll_map.player, "name": name,
            "p_mean": roll_map.p_mean, "rollouts": roll_map.rollouts, "browser": browser,
            "sides": sides,
            "scale": top, "palette": list(GAIN_PALETTE), "cells": cells}


__all__ = ["analysis_payload", "roll_map_payload", "series", "mistakes", "decision_text",
           "luck_text", "points_text", "MAX_MISTAKES", "GAIN_PALETTE"]
