"""``action_values()``: what each choice of the current decision is worth to the player who
decides, as a change in their chance to win, with a paired standard error.

Every action is played out from the same copies of the position with the same rollout seeds
(common random numbers): the dice and decks after the choice are the same for every choice,
so the differences between choices are measured far more precisely than two separate
estimates would be.

>>> from ugentopoly_widget import Game
>>> game = Game.scenario("classic", players=["Ann", "Bob"], owners={16: 0, 18: 0},
...                      positions={"Ann": 14}, current="Ann")
>>> game.testing.script_dice((2, 3))             # Ann lands on the last orange lot
>>> _ = game.act("roll")
>>> table = action_values(game, rollouts=72, seed=2)
>>> sorted(table.text)         # classic: a buyer may also mortgage to raise the price
['0:buy', '0:decline', '0:mortgage 16', '0:mortgage 18']
>>> table[table.bot_choice].text.tolist()     # the strong bot buys it
['0:buy']
>>> table.text.iloc[-1], bool(table.delta.iloc[-1] < 0)   # declining is worst, and costs
('0:decline', True)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..engine.actions import Action, action_from_dict
from ..engine.errors import InvalidActionError
from ..engine.game import Game
from ..engine.integers import as_integer
from .chances import summarize
from .errors import RolloutError
from .runner import (
    DEFAULT_MAX_TURNS,
    AtCap,
    BotSpec,
    Outcomes,
    ProgressCallback,
    bot_choice,
    check_playouts,
    check_variants,
    checked_request,
)
from .stats import difference_interval, differences, mean, standard_error
from .words import LANGS, describe_action

if TYPE_CHECKING:  # imported by the tables (a DataFrame), not by the rows
    import pandas as pd

DEFAULT_ROLLOUTS = 360  # per action: ten of each first roll
MAX_ACTIONS = 1000  # choices compared in one call (a decision has at most a few dozen)


def check_actions(actions: object) -> list[Action] | None:
    """The actions to value: engine Actions or their dict form (``action.to_dict()``, as a
    view or a saved game holds them), converted here; None: every legal one."""
    if actions is None:
        return None
    if isinstance(actions, (str, bytes, Mapping, Action)) or not isinstance(actions, Iterable):
        raise RolloutError(f"actions is a list of actions (or their dicts), not {actions!r}")
    out: list[Action] = []
    for action in actions:
        if isinstance(action, Mapping):
            try:
                action = action_from_dict(dict(action))
            except InvalidActionError as exc:
                raise RolloutError(f"actions: {exc}") from None
        if not isinstance(action, Action):
            raise RolloutError(f"actions: an action is an engine Action or its dict, not "
                               f"{action!r}")
        out.append(action)
        if len(out) > MAX_ACTIONS:
            raise RolloutError(f"actions: at most {MAX_ACTIONS} to compare in one call")
    if not out:
        raise RolloutError("actions: at least one action to value")
    if len(set(out)) != len(out):
        raise RolloutError("actions: an action is named twice")
    return out


def _candidates(game: Game, actions: list[Action] | None, baseline: Action) -> list[Action]:
    out = list(game.legal_actions()) if actions is None else list(actions)
    if baseline not in out:
        out.append(baseline)
    return out


def _players(game: Game, players: Any, decider: int) -> list[int]:
    n = len(game.players)
    if players is None:
        return []
    if isinstance(players, str):
        if players != "all":
            raise RolloutError(f"players is 'all', a seat or a list of seats, not {players!r}")
        return [k for k in range(n) if k != decider]
    if as_integer(players) is not None:
        chosen: list[Any] = [players]
    elif isinstance(players, Iterable) and not isinstance(players, (bytes, Mapping)):
        chosen = list(players)
    else:
        raise RolloutError(f"players is 'all', a seat or a list of seats, not {players!r}")
    seats = []
    for k in chosen:
        seat = as_integer(k)
        if seat is None or not 0 <= seat < n:
            raise RolloutError(f"players: there is no player {repr(k) if seat is None else seat}")
        seats.append(seat)
    return [k for k in dict.fromkeys(seats) if k != decider]


def check_lang(lang: object) -> str:
    if not isinstance(lang, str) or lang not in LANGS:
        raise RolloutError(f"lang is one of {list(LANGS)}, not {lang!r}")
    return lang


def value_rows(game: Game, outcomes: Outcomes, candidates: Sequence[Action], base: int,
               player: int, others: Sequence[int], confidence: float, lang: str
               ) -> list[dict[str, Any]]:
    """One row per candidate, best first (plain data, no pandas): P(win) of `player` after
    it, and the paired difference to the baseline candidate (index `base`)."""
    strata = outcomes.strata
    base_wins = outcomes.share(base, player)
    rows = []
    for v, action in enumerate(candidates):
        figures = summarize(outcomes, v, confidence)
        mine = figures["players"][player]
        diff = differences(outcomes.share(v, player), base_wins)
        delta = mean(diff)
        delta_se = standard_error(diff, strata) if v != base else 0.0
        low, high = difference_interval(delta, delta_se, confidence)
        row: dict[str, Any] = {
            "action": action, "text": str(action), "description": describe_action(game, action,
                                                                                  lang),
            "p_win": mine["p_win"], "se": mine["se"], "delta": delta, "delta_se": delta_se,
            "delta_low": low, "delta_high": high, "bot_choice": v == base,
            "p_unfinished": figures["p_unfinished"],
        }
        for k in others:
            row[f"p_win_{k}"] = figures["players"][k]["p_win"]
            row[f"se_{k}"] = figures["players"][k]["se"]
        rows.append(row)
    # best first, the bot's own choice first among equals (a stable sort keeps the rest)
    return sorted(rows, key=lambda r: (-r["p_win"], not r["bot_choice"]))


def values_table(game: Game, outcomes: Outcomes, candidates: Sequence[Action], base: int,
                 player: int, others: Sequence[int], confidence: float, lang: str
                 ) -> pd.DataFrame:
    """:func:`value_rows` as a DataFrame."""
    import pandas as pd

    rows = value_rows(game, outcomes, candidates, base, player, others, confidence, lang)
    table: pd.DataFrame = pd.DataFrame(rows)
    return table


def action_values(
    game: Game,
    *,
    rollouts: int = DEFAULT_ROLLOUTS,
    actions: Iterable[Action] | None = None,
    players: Any = None,
    bots: BotSpec | Sequence[BotSpec] = "strong",
    seed: int = 0,
    max_turns: int = DEFAULT_MAX_TURNS,
    executor: Any = None,
    workers: int | None = None,
    at_cap: AtCap = "apart",
    confidence: float = 0.95,
    lang: str = "en",
    progress: ProgressCallback | None = None,
) -> pd.DataFrame:
    """One row per choice of the current decision (``actions``, default every legal one, and
    the bots' own choice), best first: the deciding player's ``p_win`` after it (``se``), and
    ``delta``, its difference to what the bot in that seat would choose (``bot_choice``),
    with the paired ``delta_se`` and a `confidence` interval (``delta_low``, ``delta_high``).
    ``players="all"`` (or a list of seats) adds the others' chances (``p_win_1``, ``se_1``
    ...). After the choice, the bots play every seat to the end, `rollouts` times per choice
    on the same seeds. Bids and trade offers (open-ended) are valued when passed in
    ``actions`` (engine actions or their dicts, ``action.to_dict()``). Bad input raises
    :class:`RolloutError` before any rollout (also above ``MAX_PLAYOUTS`` rollouts times
    choices in all)."""
    request = checked_request(game, rollouts=rollouts, bots=bots, seed=seed,
                              max_turns=max_turns, at_cap=at_cap, confidence=confidence,
                              executor=executor, workers=workers, progress=progress)
    game = request.game
    given = check_actions(actions)
    lang = check_lang(lang)
    decider = game.decision.player
    if decider is None:  # pragma: no cover - check_game refused a finished game
        raise RolloutError("nobody decides now")
    others = _players(game, players, decider)
    if given is not None:
        check_variants(game, [[a] for a in given])  # before the bot is asked
    baseline = bot_choice(game, request.bots[decider], request.seed)
    candidates = _candidates(game, given, baseline)
    check_variants(game, [[a] for a in candidates])
    check_playouts(request.rollouts, len(candidates))
    outcomes = request.run([[a] for a in candidates])
    table = values_table(game, outcomes, candidates, candidates.index(baseline), decider,
                         others, request.confidence, lang)
    table.attrs.update(rollouts=request.rollouts, seed=request.seed, player=decider,
                       decision=game.decision.kind, seconds=outcomes.seconds)
    return table


__all__ = ["action_values", "values_table", "value_rows", "check_actions", "DEFAULT_ROLLOUTS"]
