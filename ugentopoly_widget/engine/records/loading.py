"""Loading a save file: restore its checkpoint and replay the rest, or replay it all.

A version-3 save carries the state at the newest turn boundary (see :mod:`.savestate`). The
default load (``verify="checkpoint"``) checks the file, every checkpoint field and the state's
consistency, restores it, replays the actions after it (each checked for legality) and checks the
digest: a 100,000-turn game loads in a small fraction of the time a full replay takes. The
replay of the record before the checkpoint is deferred, not dropped: what needs that history
(``game.events``, the log, undo back across the checkpoint) replays the record then, compares
the state it reaches with the one loaded, and raises SaveFileError when they differ.
``verify="replay"`` does that at once, for files from hands you do not trust.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from ..errors import BoardError, SaveFileError, SetupError
from ..rules import get_profile, option_problem
from . import savestate
from .savefile import check_payload, check_record, decode_actions, save_digest

if TYPE_CHECKING:
    from ..actions import Action
    from ..boards.board import Board
    from ..game import Game

Verify = Literal["checkpoint", "replay"]
VERIFY_MODES = ("checkpoint", "replay")

__all__ = ["VERIFY_MODES", "Verify", "game_from_record", "load_history", "load_payload",
           "resume"]


def game_from_record(cls: type[Game], record: Any, clock: Callable[[], float] | None,
                     checked: bool = False) -> Game:
    """A new game with the record's setup (no action applied yet); raises SaveFileError.
    `checked`: check_record() has accepted the record already."""
    from ..boards.loader import parse_board

    if not checked:
        check_record(record)
    try:
        get_profile(record["profile"])
    except SetupError as exc:
        raise SaveFileError(f"record.profile: {exc}") from None
    for key, value in record["options"].items():
        problem = option_problem(key, value)
        if problem:
            raise SaveFileError(f"record.options.{key}: {problem}")
    board_spec = record["board"]
    board: Board | str
    try:
        if "bundled" in board_spec:
            board = "bundled:" + str(board_spec["bundled"])
        else:
            board = parse_board(
                board_spec["xml"],
                file=str(board_spec.get("file", "<save>")),
                names=board_spec.get("names") or {},
            )
    except BoardError as exc:
        raise SaveFileError(f"record.board: {exc}") from None
    try:
        return cls(
            record["profile"],
            board=board,
            players=record["players"],
            seed=record["seed"],
            options=record.get("options") or {},
            clock=clock,
            lang=record.get("lang", "en"),
        )
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        # ValueError covers every named error of the package (BoardError, SetupError ...):
        # a record that does not make a valid game is damaged (or edited).
        raise SaveFileError(f"the record's setup is invalid: {exc}") from None


def injections_of(record: Any) -> list[tuple[int, str, Any]]:
    return [(i["at"], i["op"], i["args"]) for i in record["injections"]]


def load_payload(cls: type[Game], payload: Any, clock: Callable[[], float] | None,
                 verify: Verify) -> Game:
    """A game from a parsed save file (see the module's docstring); raises SaveFileError."""
    check_payload(payload)
    record = payload["record"]
    checkpoint = payload.get("checkpoint")  # version 2 has none: the whole record replays
    game = game_from_record(cls, record, clock, checked=True)  # check_payload checked it
    actions = decode_actions(record["actions"])
    injections = injections_of(record)
    if checkpoint is None:
        game._replay_actions(actions, injections)
    else:
        resume(game, checkpoint, actions, injections)
    if payload["version"] == 2:
        expected = save_digest(record, payload["elapsed_seconds"], game.digest())
    else:
        expected = save_digest(record, payload["elapsed_seconds"], game.digest(), checkpoint)
    if expected != payload["digest"]:
        raise SaveFileError(
            "the save file is damaged or edited: its digest does not match its content "
            "(the digest guards against damage and casual edits)"
        )
    if verify == "replay":
        load_history(game)
    game._engine.started_at = game._clock() - float(payload["elapsed_seconds"])
    return game


def resume(game: Game, checkpoint: Any, actions: list[Action],
           injections: list[tuple[int, str, Any]]) -> None:
    """Put a game fresh from its record's setup in the state of a saved checkpoint (checked),
    then replay the record's actions and testing steps after it (each checked)."""
    savestate.restore(game._engine, checkpoint, len(actions))
    applied: int = checkpoint["applied"]
    game._actions = actions[:applied]
    # the testing steps before it are in the checkpoint's state; the record keeps them
    game._injections = [step for step in injections if step[0] < applied]
    game._undoable = [False] * applied
    if applied:
        game._undoable[-1] = checkpoint["undoable_before"]
    game._events_before = checkpoint["events"]
    game._history = checkpoint
    game._replay_actions(actions, injections, start=applied)


def load_history(game: Game) -> None:
    """Replay the whole record of a game loaded from a checkpoint, check that it reaches the
    saved checkpoint and then the state the game is in, and keep the replayed engine (with its
    events). On a mismatch raise SaveFileError and change nothing."""
    saved = game._history
    if saved is None:
        return
    cls = type(game)
    record = game.record()
    full = game_from_record(cls, record, game._clock)
    applied: int = saved["applied"]
    full._replay_actions(game._actions, injections_of(record), capture=(applied, saved["turn"]))
    cp = next((c for c in full._engine.checkpoints if c.applied == applied), None)
    if cp is None:  # pragma: no cover - the capture takes it; a broken flow would land here
        raise SaveFileError("the record does not reach a turn boundary where the checkpoint is")
    undoable = full._undoable[applied - 1] if applied else False
    replayed = savestate.to_data(full._engine, cp, 0, undoable)
    if replayed != saved:
        field = next(k for k in savestate.FIELDS if replayed.get(k) != saved.get(k))
        raise SaveFileError(
            f"the save file's checkpoint does not match its record (checkpoint.{field} differs "
            "from the state the record replays to)"
        )
    if full.digest() != game.digest() or full._undoable[applied:] != game._undoable[applied:]:
        raise SaveFileError("the save file's record does not replay to the state loaded from "
                            "its checkpoint")
    engine, old = full._engine, game._engine
    # the clocks run on: a replay must not give a timed game or a turn timer extra time
    engine.started_at, engine.turn_started_at = old.started_at, old.turn_started_at
    engine.checkpoint_every = old.checkpoint_every
    game._engine = engine
    game._undoable = full._undoable
    game._events_before = 0
    game._history = None
    game._landing_counter = None
