"""``win_chances()``: who is winning, as a probability per player with its standard error.

>>> from ugentopoly_widget import Game
>>> from ugentopoly_widget.engine.bots import HeuristicBot, play_game
>>> game = Game("classic", players=["Ann", "Bob"], seed=3)
>>> _ = play_game(game, [HeuristicBot(seed=1), HeuristicBot(seed=2)], until_turn=60)
>>> table = win_chances(game, rollouts=72, seed=1)
>>> list(table.columns)
['player', 'name', 'p_win', 'se', 'ci_low', 'ci_high', 'p_unfinished', 'mean_turns']
>>> bool(abs(table.p_win.sum() + table.p_unfinished.iloc[0] - 1) < 1e-9)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..engine.game import Game
from .runner import DEFAULT_MAX_TURNS, AtCap, BotSpec, Outcomes, ProgressCallback, checked_request
from .stats import interval, mean, standard_error

if TYPE_CHECKING:  # the tables only: summarize() (the widget's win bar) needs no pandas
    import pandas as pd

COLUMNS = ["player", "name", "p_win", "se", "ci_low", "ci_high", "p_unfinished", "mean_turns"]


def summarize(outcomes: Outcomes, variant: int = 0, confidence: float = 0.95
              ) -> dict[str, Any]:
    """The figures of one variant as plain data: per player p_win, se and interval; the share
    of rollouts with no winner at the cap (with its se and interval); the mean turns to the
    end of those that ended."""
    columns = outcomes.wins[variant]
    finished = outcomes.finished[variant]
    n = outcomes.count
    players = []
    for column in columns:
        p = mean(column)
        se = standard_error(column, outcomes.strata)
        low, high = interval(p, se, n, confidence)
        players.append({"p_win": p, "se": se, "ci_low": low, "ci_high": high})
    # at_cap="richest" scores the games at the cap: then nothing is left without a winner
    open_share = [1.0 - sum(shares) for shares in zip(*columns, strict=True)]
    left = mean(open_share)
    unfinished_se = standard_error(open_share, outcomes.strata)
    ended = [t for t, done in zip(outcomes.turns[variant], finished, strict=True) if done]
    return {
        "rollouts": n,
        "players": players,
        "p_unfinished": max(0.0, left),
        "unfinished_se": unfinished_se,
        "unfinished_ci": interval(max(0.0, left), unfinished_se, n, confidence),
        "p_capped": mean([0.0 if done else 1.0 for done in finished]),
        "mean_turns": mean(ended),
    }


def chances_table(game: Game, outcomes: Outcomes, variant: int = 0,
                  confidence: float = 0.95, **attrs: Any) -> pd.DataFrame:
    import pandas as pd

    figures = summarize(outcomes, variant, confidence)
    rows = [
        {"player": k, "name": game.players[k].name, **figures["players"][k],
         "p_unfinished": figures["p_unfinished"], "mean_turns": figures["mean_turns"]}
        for k in range(len(game.players))
    ]
    table: pd.DataFrame = pd.DataFrame(rows, columns=COLUMNS)
    table.attrs.update(
        rollouts=figures["rollouts"], unfinished_se=figures["unfinished_se"],
        unfinished_ci=figures["unfinished_ci"], p_capped=figures["p_capped"],
        seconds=outcomes.seconds, cpu_seconds=outcomes.cpu_seconds, confidence=confidence,
        **attrs)
    return table


def win_chances(
    game: Game,
    *,
    rollouts: int = 1000,
    bots: BotSpec | Sequence[BotSpec] = "strong",
    seed: int = 0,
    max_turns: int = DEFAULT_MAX_TURNS,
    executor: Any = None,
    workers: int | None = None,
    at_cap: AtCap = "apart",
    confidence: float = 0.95,
    progress: ProgressCallback | None = None,
) -> pd.DataFrame:
    """Each player's chance to win from the game's position, by rollouts: copies of the
    position played to the end by bots, each with fresh dice and deck order.

    One row per player: ``player``, ``name``, ``p_win``, ``se`` (its standard error),
    ``ci_low``, ``ci_high`` (a `confidence` interval), plus ``p_unfinished`` (rollouts still
    running after `max_turns` more turns: "no winner yet", apart from the players' chances)
    and ``mean_turns`` (to the end, of those that ended). ``table.attrs`` holds the rollouts,
    the unfinished share's se and interval, the seconds of play (``seconds`` wall,
    ``cpu_seconds`` the playing threads' CPU) and the settings.

    - ``bots``: one per seat or one for all: ``"strong"`` (the default: it sells no player
      the lot that completes a group for less than the group is worth to them, so the
      figures are what sensible play gives), ``"heuristic"``, ``"random"`` or a factory
      called as ``factory(seed=...)``, as for ``simulate()``; they finish the open decision
      too (a purchase, an auction, a trade answer).
    - ``seed``: rollout *k* plays dice and decks from (seed, k) alone: the same figures in
      this process, on ``executor="processes"``, any concurrent.futures executor or a Dask
      client; and the same streams for whatever is compared (common random numbers).
    - The first roll is stratified over the dice's outcomes (36 for two dice).
    - ``at_cap="richest"`` gives a game still running at the cap to the richest (by
      valuation), as a turn limit would, instead of counting it apart.

    The game itself is only read: nothing in it changes, its random state included.
    Bad input raises :class:`RolloutError` before any rollout (rollouts <= 0 or above
    ``MAX_ROLLOUTS``, a million; an unknown bot or a factory that makes none; a finished
    game; a confidence outside (0, 1); a progress callback that does not take (done,
    total)). Rollouts, seeds and worker counts may be numpy integers; ``workers`` beyond
    what helps (the chunks of 36 there are, 4 per core) is capped with a
    ``SimulationWarning``, as ``simulate()`` does. Ctrl-C raises KeyboardInterrupt at once
    and stops the worker processes.
    """
    request = checked_request(game, rollouts=rollouts, bots=bots, seed=seed,
                              max_turns=max_turns, at_cap=at_cap, confidence=confidence,
                              executor=executor, workers=workers, progress=progress)
    outcomes = request.run([()])
    return chances_table(request.game, outcomes, 0, request.confidence, seed=request.seed,
                         max_turns=request.max_turns, at_cap=request.at_cap,
                         bots=[_label(b) for b in request.bots])


def _label(spec: BotSpec) -> str:
    return spec if isinstance(spec, str) else str(getattr(spec, "name", None)
                                                  or getattr(spec, "__name__", spec))


__all__ = ["win_chances", "summarize", "chances_table"]
