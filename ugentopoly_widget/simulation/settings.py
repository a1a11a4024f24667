"""What a run plays, checked before any game starts: profile, board, seats, bots, collections.

A :class:`Settings` is small and picklable: it is all a worker (a process, a Dask worker on
another machine) receives besides the game numbers of its chunk. Boards travel as their
bundled name or XML text (a parsed Board holds read-only mappings that do not pickle).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.boards.board import Board
from ..engine.boards.writer import board_to_xml
from ..engine.bots import BOTS, Bot
from ..engine.errors import BotError, SetupError
from ..engine.game import Game
from ..engine.integers import as_integer
from ..engine.rules import RulesProfile, get_profile

BotFactory = Callable[..., Bot]
"""Anything called as ``factory(seed=<int>)`` that returns an object with ``choose(game)``:
``HeuristicBot``, ``RandomBot``, ``functools.partial(HeuristicBot, reserve=300)``, a class."""
BotSpec = str | BotFactory
BoardSpec = tuple[str, ...]  # ("bundled", name) or ("xml", text, file name)
CollectSpec = Sequence[str] | Mapping[str, Any] | None

# A game whose rules set neither turn_limit nor round_limit ends after this many rounds, the
# richest winning (Ugentopoly's money supply grows every lap: bots can play it for ever).
DEFAULT_ROUND_LIMIT = 500
DEFAULT_NET_WORTH_EVERY = 5  # rounds between net-worth samples
DEFAULT_EVENT_GAMES = 10  # games whose events are kept
COLLECTIONS = ("landings", "net_worth", "events")


@dataclass(frozen=True)
class Collect:
    """Which collections a run keeps besides one row per game."""

    landings: str | None = None  # "roll" or "turn": per-tile counts summed over the run
    net_worth_every: int | None = None  # sample net worth per seat every N rounds
    event_games: int = 0  # keep the events of the first K games

    @property
    def names(self) -> tuple[str, ...]:
        out = []
        if self.landings:
            out.append("landings")
        if self.net_worth_every:
            out.append("net_worth")
        if self.event_games:
            out.append("events")
        return tuple(out)


def is_dask_client(executor: object) -> bool:
    """A ``dask.distributed.Client`` (checked by name: dask is an optional extra)."""
    return type(executor).__name__ == "Client" and type(executor).__module__.startswith(
        "distributed"
    )


def check_workers(workers: object, error: type[SetupError] = SetupError) -> int | None:
    """None (the default) or a positive whole number of workers (numpy's too); else `error`
    (the rollouts raise their own RolloutError, a SetupError)."""
    if workers is None:
        return None
    whole = as_integer(workers)
    if whole is None or whole < 1:
        raise error(f"workers must be a positive integer, not {workers!r}")
    return whole


def _positive_int(value: Any, what: str) -> int:
    whole = as_integer(value)
    if whole is None or whole < 1:
        raise SetupError(f"{what} must be a positive integer, not {value!r}")
    return whole


def parse_collect(collect: CollectSpec) -> Collect:
    """``("landings", "net_worth")`` with default parameters, or a mapping with parameters:
    ``{"landings": "turn", "net_worth": 10, "events": 3}``."""
    if collect is None:
        return Collect()
    if isinstance(collect, str):
        collect = (collect,)
    items: dict[str, Any]
    if isinstance(collect, Mapping):
        items = dict(collect)
    elif isinstance(collect, Sequence):
        items = {}
        for name in collect:
            if not isinstance(name, str):
                raise SetupError(f"collect names are texts, not {name!r}")
            items[name] = True
    else:
        raise SetupError("collect is a list of names or a mapping name -> parameter")
    unknown = sorted(set(items) - set(COLLECTIONS))
    if unknown:
        raise SetupError(f"unknown collection(s) {unknown}; choose from {list(COLLECTIONS)}")
    landings = items.get("landings")
    if landings is True:
        landings = "roll"
    if landings is not None and landings is not False and landings not in ("roll", "turn"):
        raise SetupError(f"collect landings per 'roll' or 'turn', not {landings!r}")
    every = items.get("net_worth")
    if every is True:
        every = DEFAULT_NET_WORTH_EVERY
    elif every is not None and every is not False:  # 0 is a mistake, not "off"
        every = _positive_int(every, "collect net_worth (rounds between samples)")
    games = items.get("events")
    if games is True:
        games = DEFAULT_EVENT_GAMES
    elif games is not None and games is not False:
        games = _positive_int(games, "collect events (number of games)")
    return Collect(landings or None, every or None, games or 0)


def board_spec(board: Board | str | os.PathLike[str] | None, profile: RulesProfile) -> BoardSpec:
    """A picklable description of the board (bundled name, or its XML text)."""
    if board is None:
        return ("bundled", profile.name)
    if isinstance(board, str) and board.startswith("bundled:"):
        return ("bundled", board.split(":", 1)[1])
    if not isinstance(board, Board):
        from ..engine.boards.loader import load_board

        if not isinstance(board, (str, os.PathLike)):
            raise SetupError(
                f"board must be a Board, a file path or None, not {type(board).__name__}"
            )
        board = load_board(board)
    if board.source.startswith("bundled:"):
        return ("bundled", board.source.split(":", 1)[1])
    # Display names stay behind (Settings.tile_names): a worker needs only the rules.
    return ("xml", board.xml_text or board_to_xml(board), board.source)


@functools.lru_cache(maxsize=8)
def resolve_board(spec: BoardSpec) -> Board:
    """The Board of a spec, parsed once per process."""
    from ..engine.boards.loader import load_bundled, parse_board

    if spec[0] == "bundled":
        return load_bundled(spec[1])
    return parse_board(spec[1], file=spec[2], source=spec[2])


def bot_label(spec: BotSpec) -> str:
    """The name a bot goes by in result columns: its text, its ``name``, or its function name."""
    if isinstance(spec, str):
        return spec
    name = getattr(spec, "name", None)
    if isinstance(name, str) and name:
        return name
    if isinstance(spec, functools.partial):
        inner = bot_label(spec.func)
        args = ",".join(f"{k}={v!r}" for k, v in sorted(spec.keywords.items()))
        return f"{inner}({args})" if args else inner
    return str(getattr(spec, "__qualname__", None) or getattr(spec, "__name__", None) or spec)


def named_bot(name: str) -> BotFactory | None:
    """The bots of the analysis layer that go by a name, imported when named (the engine's
    own, ``BOTS``, are made by the engine)."""
    if name == "rollout":
        from ..rollouts.bot import RolloutBot

        return RolloutBot
    return None


BOT_NAMES = (*sorted(BOTS), "rollout")


def _check_bot(spec: Any, seat: int) -> BotSpec:
    if isinstance(spec, str):
        factory = named_bot(spec)
        if factory is not None:
            spec = factory
        elif spec not in BOTS:
            raise BotError(f"seat {seat}: unknown bot {spec!r}; choose one of "
                           f"{list(BOT_NAMES)}")
        else:
            return spec
    if hasattr(spec, "choose") and not isinstance(spec, type):
        raise SetupError(
            f"seat {seat}: {spec!r} is a bot object; pass its class or a factory called as "
            "factory(seed=...) so that every game gets a freshly seeded bot"
        )
    if not callable(spec):
        raise SetupError(f"seat {seat}: a bot is a name {sorted(BOTS)} or a factory, not {spec!r}")
    try:
        bot = spec(seed=0)
    except TypeError as exc:
        raise SetupError(f"seat {seat}: the bot factory must accept seed=...: {exc}") from None
    if not callable(getattr(bot, "choose", None)):
        raise SetupError(f"seat {seat}: {bot_label(spec)}(seed=...) has no choose(game) method")
    return spec  # type: ignore[no-any-return]


@dataclass(frozen=True)
class Settings:
    """One run's settings, validated; the same for every game of the run."""

    profile: RulesProfile
    board: BoardSpec
    players: tuple[str, ...]
    bots: tuple[BotSpec, ...]
    labels: tuple[str, ...]
    tile_names: tuple[str, ...]
    rotate_seats: bool
    collect: Collect
    max_actions: int

    @property
    def seats(self) -> int:
        return len(self.players)

    def lineup(self, rotation: int) -> tuple[int, ...]:
        """Which bot (index into ``bots``) sits in each seat for a game rotated by `rotation`."""
        n = self.seats
        return tuple((seat - rotation) % n for seat in range(n))


def _check_seats(n: int, rules: RulesProfile, at_least: bool = True) -> None:
    if n > rules.max_players or (at_least and n < rules.min_players):
        raise SetupError(
            f"{rules.name} is for {rules.min_players} to {rules.max_players} players, not {n}")


def make_settings(
    profile: str | RulesProfile,
    *,
    board: Board | str | os.PathLike[str] | None,
    players: int | Sequence[str] | None,
    bots: BotSpec | Sequence[BotSpec],
    options: Mapping[str, Any] | None,
    rotate_seats: bool,
    collect: CollectSpec,
    max_actions: int,
) -> Settings:
    """Check everything a run needs, and build one game to prove it starts (raises SetupError
    or BoardError naming the problem; no game is played)."""
    base = get_profile(profile)
    if options is not None and not isinstance(options, Mapping):
        raise SetupError(f"options is a mapping of rules options, not {type(options).__name__}")
    opts = dict(options or {})
    if "turn_limit" not in opts and "round_limit" not in opts and (
        base.turn_limit is None and base.round_limit is None
    ):
        opts["round_limit"] = DEFAULT_ROUND_LIMIT
    rules = base.with_options(**opts)  # SetupError names an unknown key
    if rules.mode == "timed" and rules.turn_limit is None and rules.round_limit is None:
        raise SetupError("a timed game in a simulation needs turn_limit or round_limit")
    if as_integer(players) is not None:
        players = as_integer(players)  # a numpy integer too
    # the seats counted before any list is made of them (players=10**9 is one number)
    if isinstance(players, int):
        _check_seats(players, rules)
    for seq in (players, bots):
        if isinstance(seq, Sequence) and not isinstance(seq, (str, bytes)):
            _check_seats(len(seq), rules, at_least=False)
    if isinstance(bots, (str, bytes)) or not isinstance(bots, Sequence):
        count = players if isinstance(players, int) else (
            len(players) if isinstance(players, Sequence) and not isinstance(players, str)
            else rules.min_players
        )
        if isinstance(count, bool) or not isinstance(count, int):
            raise SetupError("players is a number or a list of names")
        bot_list: list[Any] = [bots] * max(count, 0)
    else:
        bot_list = list(bots)
    names: list[str]
    if players is None:
        names = [f"Player {k + 1}" for k in range(len(bot_list))]
    elif isinstance(players, int) and not isinstance(players, bool):
        names = [f"Player {k + 1}" for k in range(players)]
    elif isinstance(players, Sequence) and not isinstance(players, (str, bytes)):
        names = [str(p) for p in players]
    else:
        raise SetupError("players is a number or a list of names")
    if len(names) != len(bot_list):
        raise SetupError(
            f"players and bots differ in length: {len(names)} players, {len(bot_list)} bots "
            "(one bot per seat)"
        )
    checked = tuple(_check_bot(spec, seat) for seat, spec in enumerate(bot_list))
    if not isinstance(rotate_seats, bool):
        raise SetupError("rotate_seats is True or False")
    max_actions = _positive_int(max_actions, "max_actions")
    spec = board_spec(board, rules)
    resolved = board if isinstance(board, Board) else resolve_board(spec)
    settings = Settings(
        profile=rules,
        board=spec,
        players=tuple(names),
        bots=checked,
        labels=tuple(bot_label(b) for b in checked),
        tile_names=tuple(resolved.tile_name(t.position) for t in resolved.tiles),
        rotate_seats=rotate_seats,
        collect=parse_collect(collect),
        max_actions=max_actions,
    )
    # The engine checks the rest (board vs rules, player count and names) on a real game.
    Game(rules, board=resolved, players=list(names), seed=0)
    return settings


__all__ = [
    "BotFactory", "BotSpec", "Collect", "Settings", "make_settings", "parse_collect",
    "resolve_board", "bot_label", "check_workers", "is_dask_client", "DEFAULT_ROUND_LIMIT",
]
