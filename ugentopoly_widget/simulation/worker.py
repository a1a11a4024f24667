"""The per-chunk worker: plays games through the public engine API and keeps only their rows.

A chunk is a range of game numbers. Each game is built from the settings and its own seed,
played by freshly seeded bots (``play_game``, or the same loop over ``game.apply`` when net
worth is sampled), reduced to one row of plain values (plus the requested collections) and
dropped: a worker never holds more than one Game, and only compact tuples travel back.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.bots import Bot, FewerCollections, make_bot, play_game
from ..engine.game import Game
from ..engine.records.events import Event
from ..engine.records.landings import Landings
from .seeding import bot_seed, game_seed
from .settings import Settings, resolve_board

GAME_COLUMNS = (
    "game", "seed", "rotation", "first_player", "end_reason", "turns", "rounds", "actions",
    "winner", "winner_bot", "n_winners", "bankruptcies", "properties_bought", "buildings_built",
)
SEAT_FIELDS = (
    "bot", "order", "won", "rank", "cash", "net_worth", "bankrupt", "properties", "bought",
    "built",
)
NET_WORTH_COLUMNS = ("game", "round", "seat", "bot", "cash", "net_worth", "final")
EVENT_COLUMNS = ("game", "seq", "kind", "player", "data")
FAILURE_COLUMNS = ("game", "seed", "error", "traceback")

Row = tuple[Any, ...]
_COUNTED = frozenset(("bought", "auction_won", "built", "first_player"))


def columns(seats: int) -> tuple[str, ...]:
    """The columns of ``Results.games`` for a run with this many seats (per-seat fields are
    suffixed by the seat number: ``cash_0``, ``cash_1`` ...)."""
    return GAME_COLUMNS + tuple(f"{name}_{k}" for name in SEAT_FIELDS for k in range(seats))


def _frozen_clock() -> float:
    # Simulated games never look at a wall clock: timed games end by turn or round limit, and
    # the same seed gives the same game whatever the machine's load.
    return 0.0


@dataclass
class ChunkResult:
    """What one chunk sends back: rows and collections, nothing that refers to a Game."""

    start: int
    stop: int
    rows: list[Row] = field(default_factory=list)
    landings: Landings | None = None
    net_worth: list[Row] = field(default_factory=list)
    events: list[Row] = field(default_factory=list)
    failures: list[Row] = field(default_factory=list)
    cpu_seconds: float = 0.0
    interrupted: bool = False  # stopped by KeyboardInterrupt: rows cover the games done

    @property
    def done(self) -> int:
        """Games finished (played to a row, or failed with a traceback)."""
        return len(self.rows) + len(self.failures)


class _NetWorthSampler:
    """Samples every seat's cash and net worth after every N completed rounds.

    Rounds are counted as the engine counts them: a new round starts when the turn comes back
    to the player drawn to start, or would pass their seat (counted in turn order from that
    player). A sample is taken once the action that started the round has been applied (the
    first decision of the round)."""

    def __init__(self, index: int, every: int, labels: Sequence[str], out: list[Row]) -> None:
        self.index = index
        self.every = every
        self.labels = labels
        self.out = out
        self.round = 1
        self.last: int | None = None
        self.first = 0  # the player drawn to start
        self.players = len(labels)

    def sample(self, game: Game, round_: int, final: bool = False) -> None:
        for seat, label in enumerate(self.labels):
            player = game.players[seat]
            self.out.append(
                (self.index, round_, seat, label, player.cash, game.net_worth(seat), final)
            )

    def feed(self, game: Game, events: Sequence[Event]) -> None:
        for event in events:
            if event.kind == "turn_started" and event.player is not None:
                n, first = self.players, self.first
                if self.last is not None and (
                    (event.player - first) % n <= (self.last - first) % n
                ):
                    self.round += 1
                    if (self.round - 1) % self.every == 0:
                        self.sample(game, self.round - 1)
                self.last = event.player


def _play(game: Game, seats: Sequence[Bot], max_actions: int,
          sampler: _NetWorthSampler | None) -> int:
    """Bots take every decision; the plain engine loop unless net worth is sampled."""
    if sampler is None:
        return play_game(game, seats, max_actions=max_actions)
    sampler.sample(game, 0)
    sampler.last = sampler.first = game.current_player  # the first turn started with the game
    count = 0
    apply = game.apply
    turn = game.turn_number
    with FewerCollections():  # as play_game does
        while not game.is_over and count < max_actions:
            player = game.decision.player
            if player is None:
                break
            events = apply(seats[player].choose(game))
            count += 1
            if game.turn_number != turn:  # only a new turn can start a new round
                turn = game.turn_number
                sampler.feed(game, events)
    return count


def new_game(settings: Settings, index: int, seed: int) -> tuple[Game, list[Bot], int]:
    """Game `index` of a run (seeded `game_seed(seed, index)`), its seated bots, its rotation."""
    gseed = game_seed(seed, index)
    rotation = index % settings.seats if settings.rotate_seats else 0
    game = Game(
        settings.profile,
        board=resolve_board(settings.board),
        players=list(settings.players),
        seed=gseed,
        clock=_frozen_clock,
    )
    bots: list[Bot] = []
    for seat, which in enumerate(settings.lineup(rotation)):
        spec = settings.bots[which]
        bseed = bot_seed(gseed, seat)
        bots.append(make_bot(spec, bseed) if isinstance(spec, str) else spec(seed=bseed))
    return game, bots, rotation


def reduce_game(game: Game, index: int, rotation: int, labels: Sequence[str],
                actions: int) -> Row:
    """One game as a row of plain values (see :func:`columns`)."""
    n = len(game.players)
    bought = [0] * n
    built = [0] * n
    first = -1
    for event in game.events:
        kind = event.kind
        if kind in _COUNTED:
            player = event.player
            if player is None:
                continue
            if kind == "built":
                built[player] += 1
            elif kind == "bought" or (kind == "auction_won" and event.data.get("item") != "house"):
                bought[player] += 1
            elif kind == "first_player":
                first = player
    winners = game.winners
    ranking = game.ranking
    players = game.players
    over = game.is_over
    reason = str(game.decision.data.get("reason", "")) if over else "max_actions"
    winner = winners[0] if len(winners) == 1 else -1
    rank = {seat: place for place, seat in enumerate(ranking)}
    row: list[Any] = [
        index, game.seed, rotation, first, reason, game.turn_number,
        int(game.state()["round"]), actions, winner, labels[winner] if winner >= 0 else "",
        len(winners), sum(1 for p in players if p.bankrupt), sum(bought), sum(built),
    ]
    row += labels
    row += [(seat - first) % n if first >= 0 else -1 for seat in range(n)]
    row += [seat in winners for seat in range(n)]
    row += [rank.get(seat, -1) for seat in range(n)]
    row += [p.cash for p in players]
    row += [game.net_worth(seat) for seat in range(n)]
    row += [p.bankrupt for p in players]
    row += [len(game.properties_of(seat)) for seat in range(n)]
    row += bought
    row += built
    return tuple(row)


def play_one(settings: Settings, seed: int, index: int,
             sampler_out: list[Row] | None = None) -> tuple[Game, Row]:
    """Play game `index` of the run to the end; return the game and its row."""
    game, bots, rotation = new_game(settings, index, seed)
    labels = [settings.labels[b] for b in settings.lineup(rotation)]
    every = settings.collect.net_worth_every
    sampler = (
        _NetWorthSampler(index, every, labels, sampler_out)
        if every and sampler_out is not None else None
    )
    actions = _play(game, bots, settings.max_actions, sampler)
    row = reduce_game(game, index, rotation, labels, actions)
    if sampler is not None:
        sampler.sample(game, row[GAME_COLUMNS.index("rounds")], final=True)
    return game, row


def run_chunk(settings: Settings, seed: int, start: int, stop: int) -> ChunkResult:
    """Play games ``start`` .. ``stop - 1``. A game that raises becomes a failure (its seed and
    traceback) and the chunk goes on; Ctrl-C ends the chunk with the games done so far."""
    result = ChunkResult(start, stop)
    collect = settings.collect
    cpu = time.process_time()
    try:
        for index in range(start, stop):
            samples: list[Row] = []
            try:
                game, row = play_one(settings, seed, index, samples)
            except Exception as exc:
                result.failures.append(
                    (index, game_seed(seed, index), f"{type(exc).__name__}: {exc}",
                     traceback.format_exc())
                )
                continue
            result.rows.append(row)
            result.net_worth += samples
            if collect.landings:
                got = game.landings(collect.landings)  # type: ignore[arg-type]
                result.landings = got if result.landings is None else result.landings + got
            if index < collect.event_games:
                result.events += [
                    (index, seq, e.kind, e.player, dict(e.data))
                    for seq, e in enumerate(game.events)
                ]
            del game  # the row is all that stays
    except KeyboardInterrupt:
        result.interrupted = True
    result.cpu_seconds = time.process_time() - cpu
    return result


__all__ = [
    "ChunkResult", "columns", "new_game", "play_one", "reduce_game", "run_chunk",
    "GAME_COLUMNS", "SEAT_FIELDS", "NET_WORTH_COLUMNS", "EVENT_COLUMNS", "FAILURE_COLUMNS",
]
