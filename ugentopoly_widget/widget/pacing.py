"""Bot pacing for the widget: bot seats play synchronously (``play_bots``) or one action every
``bot_delay`` seconds on the kernel's event loop, paused and resumed from Python or the view.

A mixin of :class:`UgentopolyWidget` (split out of widget.py to keep it readable); it only
uses the widget's game, seats, pause and delay traits and its ``_publish``/``_report``.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from ..engine.actions import Action
from ..engine.bots import FewerCollections, WorthSampler, make_bot, play_game
from .data import MAX_SAMPLES, SEAT_KINDS

# (the engine's bots are imported here once: an import inside play_bots resolved the relative
# name on every call, six times a batch, ~80k instructions of what a batch adds to the engine)

# A play_bots batch samples net worth (the game-over chart) every this many turns; a game
# followed action by action samples every turn. Each stop of the engine's fast loop costs
# about a tenth of a turn's play: every 4 turns cost a tenth of the batch, every 8 half that,
# and a 170-turn game still draws 22 points across the chart's 270 pixels.
BATCH_SAMPLE_TURNS = 8
# Past SAMPLES_PER_DOUBLING samples the step doubles at each doubling of the turn number:
# a 2,000-turn game stops 120 times instead of 250 (in a quick game each stop and sample
# cost as much as 4 turns of play), and its chart still has ~60 points per doubling.
SAMPLES_PER_DOUBLING = 64


def sample_step(turn: int) -> int:
    """Turns between net-worth samples of a batch at `turn`: BATCH_SAMPLE_TURNS, doubled at
    turn 512, 1024, ... (powers of two: the sample turns stay multiples of every step before)."""
    step = BATCH_SAMPLE_TURNS
    while turn >= step * SAMPLES_PER_DOUBLING:
        step *= 2
    return step

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..engine.game import Game
    from ..engine.records.events import Event
    from .data import LogCache


class BotPacing:
    """Bot seats: who plays them, and when their next action is due."""

    _bots: dict[int, Any]
    _custom_bots: dict[str, Any]
    _bot_handle: asyncio.TimerHandle | None
    _bot_target_turn: int | None
    _everyone: str | None
    _batch: int
    _dirty: bool

    if TYPE_CHECKING:  # provided by the widget (traits and its publishing)
        _game: Game | None
        _listener: Callable[[list[Event]], None] | None
        _callbacks: list[Any]
        _cache: LogCache
        seats: Any
        paused: Any
        bot_delay: Any

        @property
        def game(self) -> Game: ...

        def _publish(self, *, bump: bool = True) -> None: ...

        def _report(self, message: str) -> None: ...

    def _init_bots(self) -> None:
        self._bots = {}
        self._bot_handle = None
        self._bot_target_turn = None
        self._everyone = None
        self._batch = 0
        self._dirty = False

    def _seat(self, player: int | None) -> str:
        seats = self.seats
        if player is None or not 0 <= player < len(seats):
            return "person"
        return str(seats[player])

    def _bot(self, player: int, kind: str) -> Any:
        custom = self._custom_bots.get(kind)
        if custom is not None:  # a bot of the user's (add_bot): one object for its seats
            self._bots[player] = custom
            return custom
        bot = self._bots.get(player)
        if bot is None or getattr(bot, "name", kind) != kind:
            base = self._game.seed if self._game is not None else 0
            seed = (base * 31 + player) % 2**32
            if kind == "rollout":  # the analysis layer's (numpy and pandas: loaded when seated)
                from ..rollouts.bot import RolloutBot

                bot = RolloutBot(seed=seed)
            else:
                bot = make_bot(kind, seed=seed)
            if hasattr(bot, "notes"):
                bot.notes = []  # its reasons, told in the log (LogCache.take_notes)
            self._bots[player] = bot
        return bot

    def _bot_action(self, everyone: str | None = None) -> Action | None:
        game = self._game
        if game is None or game.is_over:
            return None
        player = game.decision.player
        if player is None:
            return None
        kind = self._seat(player)
        if kind == "person":
            if everyone is None:
                return None
            kind = everyone
        action: Action = self._bot(player, kind).choose(game)
        return action

    def play_bots(self, turns: int | None = None, *, animate: bool = False,
                  everyone: str | None = None, max_actions: int = 200_000) -> int:
        """Let the bot seats play ``turns`` more turns (None: until a person must decide or the
        game ends). ``everyone="heuristic"`` lets a bot decide for the person seats too.

        ``animate=False`` plays synchronously and sends one state at the end; returns the number
        of actions. ``animate=True`` schedules one action every ``bot_delay`` seconds on the
        kernel's event loop and returns 0 at once (it never waits for a view)."""
        game = self.game
        kinds = SEAT_KINDS[1:] + tuple(self._custom_bots)
        if everyone is not None and everyone not in kinds:
            raise ValueError(f"everyone is one of {list(kinds)}")
        target = None if turns is None else game.turn_number + int(turns)
        if animate and self._running_loop() is not None:
            self._bot_target_turn = target
            self._everyone = everyone
            self._schedule_bots(0.0, force=True)
            return 0
        # The seats' bots, fixed for the batch (seats do not change while it runs): play_game
        # takes the trusted path of the built-in bots and stops at a person's decision.
        seat_bots = {}
        seats = list(self.seats)  # (the trait read once, not per seat)
        for player in range(len(game.players)):
            kind = str(seats[player]) if player < len(seats) else "person"
            if kind == "person":
                if everyone is None:
                    continue
                kind = everyone
            seat_bots[player] = self._bot(player, kind)
        count = 0
        first_turn = game.turn_number
        # The collector held back for the whole batch, not per run of turns: between runs it
        # found the young generation full every time (as costly as the stops themselves).
        with FewerCollections():
            self._batch += 1
            try:
                if self._callbacks or game._listeners != [self._listener]:
                    # someone else follows each action (a callback, another view): keep telling
                    count = play_game(game, seat_bots, max_actions=max_actions,
                                      until_turn=target)
                else:
                    count = self._play_turn_by_turn(game, seat_bots, max_actions, target)
            finally:
                self._batch -= 1
                if self._dirty or count:
                    self._dirty = False
                    if count > 1 and self._batch == 0:  # told in one line, not as its last move
                        self._cache.batch = {"actions": count, "from": first_turn,
                                             "to": game.turn_number}
                    self._publish()
        return count

    def _play_turn_by_turn(self, game: Game, seat_bots: dict[int, Any], max_actions: int,
                           target: int | None) -> int:
        """play_game without this widget's per-action listener (the engine's fastest path),
        sampling net worth every sample_step() turns for the game-over chart as it plays (it
        stopped and started the play there before: as costly as the samples)."""
        listener = self._listener
        assert listener is not None
        turn = game.turn_number
        if max_actions <= 0 or game.is_over or (target is not None and turn >= target):
            self._dirty = True  # nothing to play: the state is sent again all the same
            return 0
        cache = self._cache
        step = sample_step(turn)
        first = (turn // step + 1) * step
        rows = cache.samples
        sampler: WorthSampler | None = None
        on_turn: Callable[[int], int] | None = None
        if cache.samples_game(game) and (not rows or rows[-1][0] <= turn):
            # what sample() does at a turn past the last row's: an append (compiled)
            sampler = WorthSampler(rows, first, BATCH_SAMPLE_TURNS, SAMPLES_PER_DOUBLING,
                                   MAX_SAMPLES)
        else:  # samples of another game, or of undone turns: sample() sorts them out
            def resample(turn: int) -> int:
                cache.sample(game)
                step = sample_step(turn)
                return (turn // step + 1) * step

            on_turn = resample

        game.off_events(listener)
        try:
            # (where it stopped, the state sent right after samples: play_bots publishes)
            count = play_game(game, seat_bots, max_actions=max_actions, until_turn=target,
                              on_turn=on_turn, on_turn_at=first, sampler=sampler)
        finally:
            game.on_events(listener)
            self._dirty = True
        return count

    @staticmethod
    def _running_loop() -> asyncio.AbstractEventLoop | None:
        try:
            return asyncio.get_running_loop()
        except RuntimeError:
            return None

    def _cancel_bots(self) -> None:
        if self._bot_handle is not None:
            self._bot_handle.cancel()
            self._bot_handle = None

    def _schedule_bots(self, delay: float | None = None, *, force: bool = False) -> None:
        """Schedule the next bot action on the kernel's loop (no loop: nothing happens)."""
        if self._bot_handle is not None or self.paused or self._game is None:
            return
        if self._game.is_over:
            return
        everyone = self._everyone
        if self._seat(self._game.decision.player) == "person" and everyone is None:
            return
        loop = self._running_loop()
        if loop is None:
            return
        wait = self.bot_delay if delay is None else delay
        self._bot_handle = loop.call_later(max(0.0, min(wait, 60.0)), self._bot_step)

    def _bot_step(self) -> None:
        self._bot_handle = None
        game = self._game
        if game is None or self.paused:
            return
        target = self._bot_target_turn
        if target is not None and game.turn_number >= target:
            self._bot_target_turn = None
            self._everyone = None
            return
        try:
            action = self._bot_action(self._everyone)
            if action is None:
                self._everyone = None
                return
            game.apply(action)
        except Exception as exc:
            self._report(f"bot error: {type(exc).__name__}: {exc}")
            return
        self._schedule_bots()
