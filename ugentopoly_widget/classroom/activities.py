"""The class's experiments and votes, as the room runs them (a mixin of :class:`Room`):
a device's rolls, opening and closing, the pooled chart on the clock, the table after class;
a device's vote, opening and closing, the swing worked out in a thread."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..widget.requests import is_int
from .checks import RoomError
from .experiments import Experiment, open_experiment
from .votes import Vote

if TYPE_CHECKING:
    import threading

    from ..engine.game import Game
    from .room import Device, RoomView


class Activities:
    """Experiments and votes of a room."""

    if TYPE_CHECKING:  # the room's
        lock: threading.RLock
        game: Game
        clock: Callable[[], float]
        started: bool
        game_seq: int
        version: int
        experiment: Experiment | None
        experiments: list[Experiment]
        vote: Vote | None
        votes: list[Vote]
        _views: list[RoomView]
        _pool_dirty: bool

        def _changed(self, *, pooled_only: bool = False) -> None: ...

    def _experiment_roll(self, device: Device, which: object, count: object) -> None:
        if device.role not in ("member", "teacher"):
            raise RoomError("refused: join the class with its code first")
        experiment = self.experiment
        if experiment is None or not experiment.open:
            raise RoomError("refused: no experiment is open")
        if which != experiment.id:
            raise RoomError("refused: that experiment is over")
        if not is_int(count, 1, experiment.count):
            raise RoomError(f"refused: roll 1 to {experiment.count} at a time")
        assert isinstance(count, int)
        experiment.run(device.id, device.number, device.name or f"device {device.number}",
                       count)  # RoomError when this device has done its share
        self._pool_dirty = True
        self.version += 1  # (the views' shared part holds the pooled counts)
        for view in list(self._views):  # its own panel now; the pooled chart on the clock
            if view.device == device.id:
                try:
                    view.room_update(False)
                except Exception:
                    continue

    def open_experiment(self, kind: str, count: int | None = None, seed: int | None = None
                        ) -> Experiment:
        with self.lock:
            number = len(self.experiments) + 1 + (1 if self.experiment is not None
                                                  and self.experiment.open else 0)
            # made (and checked) first: a refused one leaves the open experiment open
            experiment = open_experiment(self.game, kind, count=count, seed=seed,
                                         number=number, clock=self.clock)
            if self.experiment is not None and self.experiment.open:
                self.close_experiment()
            self.experiment = experiment
            self._changed()
            return experiment

    def close_experiment(self) -> None:
        with self.lock:
            experiment = self.experiment
            if experiment is None or not experiment.open:
                raise RoomError("no experiment is open")
            experiment.open = False
            self.experiments.append(experiment)
            self._changed()

    def flush_pool(self) -> bool:
        """Send the pooled chart and the teacher's refusals if they changed since the last
        time (the clock calls it, at most ten times a second; phones are not told)."""
        with self.lock:
            if not self._pool_dirty:
                return False
            self._pool_dirty = False
            self._changed(pooled_only=True)
            return True

    def experiment_table(self, which: int | None = None) -> Any:
        """Every outcome of the class's experiments, one row per trial (pandas): experiment,
        kind, device, trial, outcome, label. ``which``: an experiment's number (default all)."""
        from .experiments import table

        with self.lock:
            done = [*self.experiments]
            if self.experiment is not None and self.experiment.open:
                done.append(self.experiment)
            if which is not None:
                done = [e for e in done if e.number == which]
            return table(done)

    def _cast_vote(self, device: Device, vote_id: object, choice: object) -> None:
        if device.role not in ("member", "teacher"):
            raise RoomError("refused: join the class with its code first")
        vote = self.vote
        if vote is None or not vote.open or vote_id != vote.id:
            raise RoomError("refused: that vote is closed")
        vote.cast(device.id, choice)
        self._changed()

    def open_vote(self) -> Vote:
        with self.lock:
            if not self.started or self.game.is_over:
                raise RoomError("a vote needs a game in play")
            if self.vote is not None and self.vote.open:
                raise RoomError("a vote is open: close it first")
            vote = Vote.on(self.game, len(self.votes) + 1, self.game_seq)
            vote.position = self.game.copy()  # the swing is worked out on this position
            self.vote = vote
            self.votes.append(vote)
            self._changed()
            return vote

    def close_vote(self, *, swing: bool = True) -> None:
        """Close the vote; with `swing`, each choice's win chance follows from rollouts on
        the position it was on (in a thread; the views are told when it is there)."""
        with self.lock:
            vote = self.vote
            if vote is None or not vote.open:
                raise RoomError("no vote is open")
            vote.open = False
            if swing and vote.position is not None:
                vote.compute_swing(vote.position, done=self._vote_done)
            self._changed()

    def _vote_done(self) -> None:
        with self.lock:
            if self.vote is not None:
                self.vote.position = None  # (the copy is not needed any more)
            self._changed()



__all__ = ["Activities"]
