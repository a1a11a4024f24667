r"""A game analysis in words (English and Dutch) and as tables (pandas, imported only here).

>>> from .results import GameAnalysis, PlayerSummary
>>> ann = PlayerSummary(0, "Ann", 1.0, 31.2, 9.0, 4.1, 1.5, 1, 0, 0, 68.8, 51.2, 86.4)
>>> bob = PlayerSummary(1, "Bob", 0.0, -12.0, 9.0, 18.3, 2.0, 0, 1, 1, 12.0, -5.6, 29.6)
>>> print(explain(GameAnalysis((ann, bob))).replace(". ", ".\n"))
Ann won; Ann's dice and cards were worth +31 points, Ann's decisions cost 4 points.
Bob's dice and cards were worth −12 points, Bob's decisions cost 18 points.
"""

from __future__ import annotations

from typing import Any

from .checks import check_lang
from .errors import AnalysisError
from .results import DecisionRow, GameAnalysis, PlayerSummary

WORDS = {
    "en": {
        "won": "{name} won", "shared": "{names} shared the win", "leads": "{name} leads "
        "({p} %)", "luck": "{name}'s dice and cards were worth {luck} points",
        "cost": "{name}'s decisions cost {loss} points", "mostly": ", mostly {what} on turn {turn} "
        "({verdict}, {loss} points)", "and": " and ",
        "verdict": {"inaccuracy": "an inaccuracy", "mistake": "a mistake",
                    "blunder": "a blunder"},
        "none": "nothing was analysed yet",
    },
    "nl": {
        "won": "{name} won", "shared": "{names} wonnen samen", "leads": "{name} staat voor "
        "({p} %)", "luck": "de stenen en kaarten van {name} waren {luck} punten waard",
        "cost": "de beslissingen van {name} kostten {loss} punten", "mostly": ", vooral {what} in "
        "beurt {turn} ({verdict}, {loss} punten)", "and": " en ",
        "verdict": {"inaccuracy": "een onnauwkeurigheid", "mistake": "een fout",
                    "blunder": "een blunder"},
        "none": "er is nog niets geanalyseerd",
    },
}


def _signed(points: float) -> str:
    value = round(points)
    return f"+{value}" if value > 0 else f"−{abs(value)}" if value < 0 else "0"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _worst(analysis: GameAnalysis, player: int) -> DecisionRow | None:
    rows = [r for r in analysis.decisions if r.player == player and r.verdict != "fine"]
    return max(rows, key=lambda r: r.loss) if rows else None


def _headline(analysis: GameAnalysis, w: dict[str, Any]) -> str:
    players = analysis.players
    winners = [p for p in players if p.result >= 0.999]
    if analysis.complete or any(p.result in (0.0, 1.0) for p in players):
        shared = [p for p in players if p.result > 0 and p.result == max(q.result
                                                                          for q in players)]
        if winners:
            return str(w["won"].format(name=winners[0].name))
        if len(shared) > 1:
            return str(w["shared"].format(names=w["and"].join(p.name for p in shared)))
    top = max(players, key=lambda p: p.result)
    return str(w["leads"].format(name=top.name, p=round(100 * top.result)))


def _player_words(analysis: GameAnalysis, p: PlayerSummary, w: dict[str, Any], lang: str
                  ) -> str:
    text = f"{w['luck'].format(name=p.name, luck=_signed(p.luck))}, " \
           f"{w['cost'].format(name=p.name, loss=round(p.skill_loss))}"
    worst = _worst(analysis, p.player)
    if worst is not None:
        text += w["mostly"].format(what=worst.chosen.description_in(lang), turn=worst.turn,
                                   verdict=w["verdict"][worst.verdict],
                                   loss=_signed(-worst.loss))
    return text


def explain(analysis: GameAnalysis, lang: str = "en") -> str:
    """In plain words: who won, what each player's dice and cards were worth, what their
    decisions cost and the worst of them."""
    if not isinstance(analysis, GameAnalysis):
        raise AnalysisError(f"explain() takes a GameAnalysis, not {type(analysis).__name__}")
    lang = check_lang(lang)
    w = WORDS[lang]
    if not analysis.players:
        return str(w["none"])
    parts = [_player_words(analysis, p, w, lang) for p in analysis.players]
    head = _headline(analysis, w)
    return f"{head}; {parts[0]}." + "".join(f" {_capital(t)}." for t in parts[1:])


def decisions_table(analysis: GameAnalysis) -> Any:
    """One row per decision judged (pandas DataFrame)."""
    import pandas as pd

    return pd.DataFrame([{
        "index": r.index, "turn": r.turn, "player": r.player, "kind": r.kind,
        "chosen": r.chosen.description, "best": r.best.description,
        "p_chosen": r.chosen.p_win, "p_best": r.best.p_win, "loss": r.loss,
        "loss_se": r.loss_se, "verdict": r.verdict, "options": len(r.options)}
        for r in analysis.decisions])


def chances_table(analysis: GameAnalysis) -> Any:
    """One row per roll and card measured (pandas DataFrame)."""
    import pandas as pd

    return pd.DataFrame([{
        "index": r.index, "turn": r.turn, "player": r.player, "kind": r.kind,
        "outcome": r.outcome, "p_before": r.p_before, "p_after": r.p_after, "luck": r.luck,
        "luck_se": r.luck_se} for r in analysis.chances])


def summary_table(analysis: GameAnalysis) -> Any:
    """One row per player (pandas DataFrame)."""
    import pandas as pd

    return pd.DataFrame([vars(p) for p in analysis.players])


__all__ = ["explain", "decisions_table", "chances_table", "summary_table"]
