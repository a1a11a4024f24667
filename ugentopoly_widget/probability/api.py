"""Exact landing odds as DataFrames: long-run (per roll or per turn), next roll from where a
player stands, observed against exact, total variation distance, convergence.

Every function takes a ``Game``, or a ``Board`` with a rules profile (or a profile name such
as ``"classic"`` for its bundled board), and the assumptions of :class:`.model.Options` as
keywords. Rows are the board's tiles in order, then In Jail (index ``len(board.tiles)``),
so ``df.probability.to_numpy()`` lines up with ``Landings.frequencies()``.

>>> df = landing_distribution("classic", board="bundled:classic-standard-decks")
>>> float(round(100 * df.probability.sum(), 9))
100.0
>>> df.loc[len(df) - 1, "name"]
'In Jail'
"""

from __future__ import annotations

import math
import os
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import pandas as pd

from ..engine.boards.board import Board
from ..engine.records.landings import LandingCounter, Landings
from ..engine.rules import RulesProfile
from .chain import DENSE_MAX, Chain, State, solve_chain, steps
from .errors import ArgumentError
from .model import Measure, Options, Per, compile_movement, resolve_inputs

if TYPE_CHECKING:
    from ..engine.game import Game

Source = Any  # Game | Board | str | os.PathLike[str]
IN_JAIL_NAMES = {"en": "In Jail", "nl": "In de gevangenis"}
_CACHE: OrderedDict[tuple[int, RulesProfile, Options], tuple[Board, Chain]] = OrderedDict()


def _options(jail: str, assumptions: dict[str, Any]) -> Options:
    unknown = sorted(set(assumptions) - {"jail_card", "jail_doubles_roll_again", "decks",
                                         "cards"})
    if unknown:
        raise ArgumentError(f"unknown assumption(s) {unknown}; the assumptions are jail, "
                        "jail_card, jail_doubles_roll_again, decks and cards")
    options = Options(jail=jail, **assumptions)  # type: ignore[arg-type]
    options.check()
    return options


def _inputs(source: Source, rules: RulesProfile | str | None, board: Any
            ) -> tuple[Board, RulesProfile]:
    if board is not None:  # landing_distribution("classic", board="bundled:...")
        from ..engine.game import _resolve_board
        from ..engine.rules import get_profile

        profile = get_profile(source if isinstance(source, (str, RulesProfile)) else "ugentopoly")
        return _resolve_board(board, profile), get_profile(rules) if rules else profile
    return resolve_inputs(source, rules)


def landing_model(
    game_or_board: Source,
    rules: RulesProfile | str | None = None,
    *,
    jail: Literal["short", "long", "off"] = "short",
    board: Board | str | os.PathLike[str] | None = None,
    **assumptions: Any,
) -> Chain:
    """The solved Markov chain (cached: the widget asks again on every update)."""
    the_board, profile = _inputs(game_or_board, rules, board)
    options = _options(jail, assumptions)
    key = (id(the_board), profile, options)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is the_board:
        _CACHE.move_to_end(key)
        return hit[1]
    chain = solve_chain(compile_movement(the_board, profile, options))
    _CACHE[key] = (the_board, chain)
    while len(_CACHE) > 16:
        _CACHE.popitem(last=False)
    return chain


def tile_table(board: Board, lang: str = "en") -> pd.DataFrame:
    """One row per tile (position, name, kind, area), then the In Jail row."""
    if not isinstance(lang, str):
        raise ArgumentError(f"lang is a language code such as 'en' or 'nl', not {lang!r}")
    rows = [
        {"position": t.position, "name": board.tile_name(t.position, lang),
         "kind": t.kind.value, "area": t.area}
        for t in board.tiles
    ]
    rows.append({"position": board.jail_position if board.jail_position is not None else -1,
                 "name": IN_JAIL_NAMES.get(lang, IN_JAIL_NAMES["en"]), "kind": "IN_JAIL",
                 "area": None})
    table: pd.DataFrame = pd.DataFrame(rows)
    table["area"] = pd.Series([r["area"] for r in rows], dtype=object)  # None, never NaN
    return table


def _per(per: str) -> Per:
    if not isinstance(per, str) or per not in ("roll", "turn"):
        raise ArgumentError(f"per is 'roll' or 'turn', not {per!r}")
    return per  # type: ignore[return-value]


def _measure(per: str) -> Measure:
    """An exact (or simulated) measure: "visits" too (a game's counts are per roll or turn)."""
    if not isinstance(per, str) or per not in ("roll", "turn", "visits"):
        raise ArgumentError(f"per is 'roll', 'turn' or 'visits', not {per!r}")
    return per  # type: ignore[return-value]


GROUP_OF_KIND = {"RAILWAY": "railways", "UTILITY": "utilities", "IN_JAIL": "in jail"}


def group_distribution(table: pd.DataFrame) -> pd.DataFrame:
    """A tile table's ``probability`` summed per colour group (the tile's area), with all
    railways, all utilities, In Jail and every other tile ("other") as groups of their own,
    in board order. Columns: group, tiles, probability."""
    if not isinstance(table, pd.DataFrame) or not {"kind", "area", "probability"} <= set(
            table.columns):
        raise ArgumentError("group_distribution takes a table with kind, area and probability "
                            "columns (landing_distribution, next_roll_distribution, ...)")
    groups = [a if isinstance(a, str) and a else GROUP_OF_KIND.get(str(k), "other")
              for a, k in zip(table["area"], table["kind"], strict=True)]
    frame = pd.DataFrame({"group": groups, "probability": table["probability"].to_numpy()})
    out = frame.groupby("group", sort=False).agg(tiles=("probability", "size"),
                                                 probability=("probability", "sum"))
    result: pd.DataFrame = out.reset_index()
    return result


def _by(table: pd.DataFrame, by: str) -> pd.DataFrame:
    if by == "tile":
        return table
    if by == "group":
        return group_distribution(table)
    raise ArgumentError(f"by is 'tile' or 'group', not {by!r}")


def landing_distribution(
    game_or_board: Source,
    rules: RulesProfile | str | None = None,
    *,
    jail: Literal["short", "long", "off"] = "short",
    per: Measure = "roll",
    by: Literal["tile", "group"] = "tile",
    board: Board | str | os.PathLike[str] | None = None,
    lang: str = "en",
    **assumptions: Any,
) -> pd.DataFrame:
    """Exact long-run share of rolls (``per="roll"``) or turns (``per="turn"``) that end on
    each tile, In Jail apart (last row). Columns: position, name, kind, area, probability.
    ``per="visits"``: the mean number of rolls per turn that end on each tile (the column
    sums to the rolls per turn, more than 1).

    Assumptions (keywords): ``jail="short"|"long"|"off"`` (off: no jail at all),
    ``cards=False`` (card tiles do nothing), ``jail_card="keep"|"ignore"``,
    ``jail_doubles_roll_again``, ``decks="random"|"strict"`` — see docs/probability.md.
    ``by="group"``: summed per colour group (:func:`group_distribution`)."""
    per = _measure(per)
    chain = landing_model(game_or_board, rules, jail=jail, board=board, **assumptions)
    table = tile_table(chain.movement.board, lang)
    table["probability"] = chain.distribution(per)
    return _by(table, by)


def rolls_per_turn(
    game_or_board: Source,
    rules: RulesProfile | str | None = None,
    *,
    jail: Literal["short", "long", "off"] = "short",
    board: Board | str | os.PathLike[str] | None = None,
    **assumptions: Any,
) -> float:
    """Long-run rolls per turn: the factor between a per-roll and a per-turn figure
    (1 + 1/6 + 1/36 before jail and cards cut turns short; under 1 with skipped turns)."""
    return landing_model(game_or_board, rules, jail=jail, board=board,
                         **assumptions).rolls_per_turn()


def transition_matrix(
    game_or_board: Source,
    rules: RulesProfile | str | None = None,
    *,
    jail: Literal["short", "long", "off"] = "short",
    board: Board | str | os.PathLike[str] | None = None,
    **assumptions: Any,
) -> tuple[np.ndarray, pd.DataFrame]:
    """The one-step matrix ``P[i, j] = P(next state j | state i)`` and a DataFrame of the
    states (label, kind, position, slot, doubles, jail_tries, jail_cards, is_roll,
    ends_turn). ``slot`` is the row of :func:`landing_distribution` the state counts for.
    The matrix is a numpy array; for a chain of more than ``DENSE_MAX`` (3000) states, a
    ``scipy.sparse.csr_array``."""
    chain = landing_model(game_or_board, rules, jail=jail, board=board, **assumptions)
    board_ = chain.movement.board
    rows = []
    for i, s in enumerate(chain.states):
        kind = str(s[0])
        pos = int(chain.where[i]) if kind == "free" else board_.jail_position
        doubles = int(s[2]) if kind == "free" else -1  # type: ignore[call-overload]
        tries = int(s[1]) if kind == "jail" else 0  # type: ignore[call-overload]
        name = board_.tile_name(pos) if pos is not None else "?"
        if kind == "free":
            label = name + (f" ({doubles} double{'s' if doubles != 1 else ''}, rolls again)"
                            if doubles >= 0 else "")
        elif kind == "jail":
            label = "In Jail" + (f" ({tries} tries)" if tries else "")
        elif kind == "skipped":
            label = f"In Jail (turn skipped, {s[1]} more)"
        else:
            label = "Released from jail (turn skipped)"
        if chain.movement.track_cards:
            label += f" [{int(chain.cards[i])} cards]"
        rows.append({
            "label": label, "kind": kind, "position": pos, "slot": int(chain.where[i]),
            "doubles": max(doubles, 0), "jail_tries": tries, "jail_cards": int(chain.cards[i]),
            "is_roll": bool(chain.is_roll[i]), "ends_turn": bool(chain.ends_turn[i]),
        })
    matrix = chain.matrix
    if chain.sparse and len(chain.states) <= DENSE_MAX:
        matrix = matrix.toarray()  # a numpy array, as for every chain of a few thousand states
    return matrix.copy(), pd.DataFrame(rows)


def _doubles_this_turn(game: Game, player: int) -> int:
    """Doubles rolled so far in the player's turn, if their next roll goes on with it."""
    decision = game.decision
    if decision.player != player or decision.kind in ("post_roll", "game_over"):
        return 0
    events = game.events
    start = len(events)
    while start > 0 and not (events[start - 1].kind == "turn_started"
                             and events[start - 1].player == player):
        start -= 1
    doubles, last_double, rolled = 0, False, False
    for k in range(start, len(events)):
        e = events[k]
        if e.kind == "rolled" and e.player == player and "purpose" not in e.data:
            rolled = True
            jail_roll = k + 1 < len(events) and events[k + 1].kind in ("left_jail",
                                                                         "stayed_in_jail")
            last_double = bool(e.data["double"]) and not jail_roll
            doubles += last_double
    goes_on = (decision.kind == "turn" and rolled) or last_double
    return doubles if goes_on else 0


def _game_state(game: Game, chain: Chain, player: int) -> State:
    m = chain.movement
    p = game.players[player]
    c = len(p.jail_cards) if m.track_cards else 0
    if p.in_jail:
        if m.skip_turns > 0 and 0 < p.jail_skip < m.skip_turns:
            return ("skipped", p.jail_skip, c)
        return ("jail", p.jail_tries if m.max_jail_turns else 0, c)
    return ("free", p.position, _doubles_this_turn(game, player), c)


def next_roll_distribution(
    game_or_board: Source,
    rules: RulesProfile | str | None = None,
    *,
    player: int | None = None,
    position: int = 0,
    in_jail: bool = False,
    doubles: int = 0,
    jail_tries: int = 0,
    jail_cards: int = 0,
    jail: Literal["short", "long", "off"] = "short",
    by: Literal["tile", "group"] = "tile",
    board: Board | str | os.PathLike[str] | None = None,
    lang: str = "en",
    **assumptions: Any,
) -> pd.DataFrame:
    """Where the next roll of one player ends, exactly (cards and jail included).

    With a Game: the player (default: whose turn it is) as they stand: tile, jail, tries,
    held cards, doubles already rolled this turn. Otherwise from ``position`` (or In Jail
    with ``jail_tries``), ``doubles`` rolled so far this turn and ``jail_cards`` held.
    A turn skipped in jail (22-cell game) is passed over: the next *roll* is shown.
    ``by="group"``: summed per colour group (leaving jail: the oranges, 14/36 on the
    classic board without cards)."""
    from ..engine.game import Game

    chain = landing_model(game_or_board, rules, jail=jail, board=board, **assumptions)
    m = chain.movement
    if isinstance(game_or_board, Game):
        who = game_or_board.current_player if player is None else player
        if not 0 <= who < len(game_or_board.players):
            raise ArgumentError(f"no player {who} in this game")
        state = _game_state(game_or_board, chain, who)
        if state[0] != "free" and m.options.jail == "off":
            raise ArgumentError("jail='off', but this player is in jail")
    else:
        if not 0 <= position < m.size:
            raise ArgumentError(f"position {position} is not on the board (0..{m.size - 1})")
        if m.max_doubles is not None and not 0 <= doubles < m.max_doubles:
            raise ArgumentError(f"doubles so far is 0..{m.max_doubles - 1}")
        c = jail_cards if m.track_cards else 0
        if in_jail:
            if m.jail is None or m.options.jail == "off":
                raise ArgumentError("the board has no jail" if m.jail is None else
                                    "jail='off': nobody is in jail")
            state = ("jail", jail_tries if m.max_jail_turns else 0, c)
        else:
            state = ("free", position, doubles, c)
    cap = int(state[-1]) + 2  # type: ignore[call-overload]
    out = np.zeros(m.size + 1)
    frontier: list[tuple[State, float]] = [(state, 1.0)]
    while frontier:  # skipped turns are not rolls: carry on to the next roll
        nxt: list[tuple[State, float]] = []
        for s, w in frontier:
            for t, p, _total, _landing in steps(m, s, cap):
                if t[0] in ("skipped", "released"):
                    nxt.append((t, w * p))
                elif t[0] == "jail":
                    out[m.size] += w * p
                else:
                    out[int(t[1])] += w * p  # type: ignore[call-overload]
        frontier = nxt
    table = tile_table(m.board, lang)
    table["probability"] = out
    return _by(table, by)


def _landings_of(source: Any, per: Per) -> tuple[Landings, Board | None]:
    from ..engine.game import Game

    if isinstance(source, Game):
        return source.landings(per), source.board
    if isinstance(source, LandingCounter):
        return source.landings(per), None
    if isinstance(source, Landings):
        return source, None
    raise ArgumentError(f"expected a Game, a LandingCounter or Landings, not "
                    f"{type(source).__name__}")


def observed_distribution(
    source: Any, board: Board | None = None, *, per: Per = "roll", lang: str = "en"
) -> pd.DataFrame:
    """Observed shares from a Game, a LandingCounter or Landings: the columns of
    :func:`landing_distribution` plus ``count`` (``probability`` is the observed share)."""
    landings, own = _landings_of(source, _per(per))
    board = board or own
    counts = np.array([*landings.tiles, landings.in_jail], dtype=np.int64)
    if board is not None:
        if board.size + 1 != len(counts):
            raise ArgumentError("the landings are of a board with another number of tiles")
        table = tile_table(board, lang)
    else:
        table = pd.DataFrame({"position": list(range(len(counts) - 1)) + [-1]})
    table["count"] = counts
    total = counts.sum()
    table["probability"] = counts / total if total else 0.0
    return table


def compare_landings(
    game_or_board: Source,
    observed: Any = None,
    rules: RulesProfile | str | None = None,
    *,
    per: Per = "roll",
    jail: Literal["short", "long", "off"] = "short",
    lang: str = "en",
    **assumptions: Any,
) -> pd.DataFrame:
    """Observed against exact, tile by tile: exact, observed, count, difference (observed -
    exact), standard_error (of the observed share after this many rolls, for one long run:
    the Markov chain CLT) and z (difference / standard_error).

    ``observed`` is a LandingCounter or Landings; default: the Game's own landings."""
    per = _per(per)
    chain = landing_model(game_or_board, rules, jail=jail, **assumptions)
    landings, _ = _landings_of(game_or_board if observed is None else observed, per)
    table = tile_table(chain.movement.board, lang)
    exact = chain.distribution(per)
    counts = np.array([*landings.tiles, landings.in_jail], dtype=np.int64)
    if len(counts) != len(exact):
        raise ArgumentError("the landings are of a board with another number of tiles")
    n = int(counts.sum())
    table["exact"] = exact
    table["observed"] = counts / n if n else np.zeros(len(counts))
    table["count"] = counts
    table["difference"] = table["observed"] - table["exact"]
    se = np.sqrt(chain.sampling_variance(per) / n) if n else np.full(len(counts), np.inf)
    table["standard_error"] = se
    with np.errstate(divide="ignore", invalid="ignore"):
        table["z"] = np.where(se > 0, table["difference"] / se, 0.0)
    return table


def _vector(x: Any) -> np.ndarray:
    if isinstance(x, pd.DataFrame):
        x = x["probability"]
    arr = np.asarray(x, dtype=float)
    if arr.ndim != 1:
        raise ArgumentError("a distribution is one row of numbers")
    return arr


def total_variation(p: Any, q: Any) -> float:
    """Total variation distance: half the sum of |p - q| (0: the same, 1: disjoint).
    Takes arrays, Series, or DataFrames with a ``probability`` column."""
    a, b = _vector(p), _vector(q)
    if a.shape != b.shape:
        raise ArgumentError(f"distributions of different lengths ({len(a)} and {len(b)})")
    return float(0.5 * np.abs(a - b).sum())


def roll_history(source: Any) -> np.ndarray:
    """Where each counted roll ended, in order (tile, or the board size for In Jail), from a
    Game, several Games (one after the other), a recording LandingCounter or a sequence."""
    from ..engine.game import Game

    if isinstance(source, Game):
        counter = LandingCounter(source.board.size, source.board.jail_position, record=True)
        counter.feed(source.events)
        counter.landings()  # closes nothing; the roll in progress stays out of the history
        return np.asarray(counter.history, dtype=np.int64)
    if isinstance(source, LandingCounter):
        if source.history is None:
            raise ArgumentError("this LandingCounter does not record: LandingCounter(..., "
                             "record=True)")
        return np.asarray(source.history, dtype=np.int64)
    if isinstance(source, Sequence) and source and isinstance(source[0], Game):
        return np.concatenate([roll_history(g) for g in source])
    return np.asarray(source, dtype=np.int64)


def convergence(
    source: Any,
    exact: Any = None,
    *,
    checkpoints: Sequence[int] | int = 40,
    jail: Literal["short", "long", "off"] = "short",
    **assumptions: Any,
) -> pd.DataFrame:
    """Total variation distance between the observed and the exact per-roll distribution
    after 1, ..., N rolls (at ``checkpoints``: a list, or that many log-spaced points).

    ``source``: a Game (or list of Games, or a recording LandingCounter, or a sequence of
    slots); ``exact``: a distribution, default the exact one of the (first) Game.
    Columns: rolls, total_variation."""
    from ..engine.game import Game

    history = roll_history(source)
    if exact is None:
        game = source if isinstance(source, Game) else (
            source[0] if isinstance(source, Sequence) and source and
            isinstance(source[0], Game) else None)
        if game is None:
            raise ArgumentError("pass exact= (a distribution) when the source is not a Game")
        exact = landing_model(game, jail=jail, **assumptions).distribution("roll")
    target = _vector(exact)
    n = len(history)
    if isinstance(checkpoints, int):
        points = sorted({max(1, int(round(x))) for x in
                         np.geomspace(1, max(n, 1), num=max(checkpoints, 2))}) if n else []
    else:
        points = sorted({int(c) for c in checkpoints if 1 <= int(c) <= n})
    rows = []
    counts = np.zeros(len(target))
    done = 0
    for point in points:
        counts += np.bincount(history[done:point], minlength=len(target))[: len(target)]
        done = point
        rows.append({"rolls": point, "total_variation": total_variation(counts / point, target)})
    result: pd.DataFrame = pd.DataFrame(rows, columns=["rolls", "total_variation"])
    return result


OVERLAY_MODES = ("exact", "observed", "difference", "next")


def overlay(
    game: Game,
    mode: Literal["exact", "observed", "difference", "next"] = "exact",
    *,
    per: Per = "roll",
    jail: Literal["short", "long", "off"] = "short",
    player: int | None = None,
    lang: str = "en",
    **assumptions: Any,
) -> pd.DataFrame:
    """One call per heat-overlay mode of a live game: the tile table plus ``value`` (a share
    of rolls; for ``"difference"`` observed - exact, which may be negative) and ``count``
    (observed counts; exact modes: 0). The last row is In Jail.

    ``"exact"``: long run; ``"observed"``: this game's counted landings; ``"difference"``;
    ``"next"``: where the next roll of `player` (default: whose turn it is) ends."""
    if mode not in OVERLAY_MODES:
        raise ArgumentError(f"mode is one of {OVERLAY_MODES}, not {mode!r}")
    if mode == "next":
        table = next_roll_distribution(game, player=player, jail=jail, lang=lang, **assumptions)
        table["count"] = 0
    elif mode == "exact":
        table = landing_distribution(game, jail=jail, per=per, lang=lang, **assumptions)
        table["count"] = 0
    else:
        table = compare_landings(game, per=per, jail=jail, lang=lang, **assumptions)
        table["probability"] = table["observed" if mode == "observed" else "difference"]
        table = table.drop(columns=["exact", "observed", "difference", "standard_error", "z"])
    table = table.rename(columns={"probability": "value"})
    result: pd.DataFrame = table[["position", "name", "kind", "area", "value", "count"]]
    return result


def expected_total_variation(chain: Chain, rolls: int) -> float:
    """About how far (total variation) the observed shares of one long game of `rolls` rolls
    lie from the exact ones: sum of sqrt(2 var / pi) / 2 (normal approximation)."""
    sd = np.sqrt(chain.sampling_variance("roll") / max(rolls, 1))
    return float(0.5 * sd.sum() * math.sqrt(2 / math.pi))


__all__ = [
    "landing_model", "landing_distribution", "group_distribution", "rolls_per_turn",
    "transition_matrix", "next_roll_distribution",
    "observed_distribution", "compare_landings", "total_variation", "convergence",
    "roll_history", "tile_table", "expected_total_variation", "overlay", "OVERLAY_MODES",
]
