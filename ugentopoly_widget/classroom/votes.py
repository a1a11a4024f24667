"""Class votes on the live game's decision ("should Ann buy?"): every joined device votes for
one of the decision's choices (and may change its mind while the vote is open); the projector
shows the split, then, when the teacher closes the vote, each choice's win chance for the
deciding player from paired rollouts (``rollouts.action_values``: the win bar's swing per
choice). The vote advises; the seat's holder still decides."""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..engine.actions import Action
from ..engine.game import Game
from ..widget.requests import is_int
from .checks import RoomError

MAX_CHOICES = 8
# open-ended choices (any amount, any deal) are not put to a vote
NOT_VOTED = frozenset({"bid", "propose_trade"})
SWING_ROLLOUTS = 240


@dataclass
class Vote:
    number: int
    game_seq: int
    player: int
    kind: str
    choices: list[Action]
    ballots: dict[str, int] = field(default_factory=dict)  # device -> choice
    open: bool = True
    stale: bool = False  # the game moved on while it was open
    swing: list[dict[str, Any]] | None = None  # after closing: per choice p_win
    swing_status: str = ""  # "", "working", "done", "error: ..."
    position: Game | None = None  # a copy of the game as the vote opened (for the swing)

    @property
    def id(self) -> int:
        return self.number

    @classmethod
    def on(cls, game: Game, number: int, game_seq: int = 0) -> Vote:
        decision = game.decision
        if decision.player is None:
            raise RoomError("nobody decides now: no vote")
        choices = [a for a in game.legal_actions()
                   if a.player == decision.player and a.type not in NOT_VOTED]
        if len(choices) < 2:
            raise RoomError("this decision has one choice only: nothing to vote on")
        return cls(number, game_seq, decision.player, decision.kind, choices[:MAX_CHOICES])

    def cast(self, device: str, choice: object) -> None:
        if not is_int(choice, 0, len(self.choices) - 1):
            raise RoomError(f"refused: choice is 0 to {len(self.choices) - 1}")
        assert isinstance(choice, int)
        self.ballots[device] = choice

    def split(self) -> list[int]:
        counts = Counter(self.ballots.values())
        return [counts.get(k, 0) for k in range(len(self.choices))]

    def summary(self) -> dict[str, Any]:
        return {"id": self.id, "number": self.number, "player": self.player,
                "kind": self.kind, "choices": [a.to_dict() for a in self.choices],
                "split": self.split(), "votes": len(self.ballots), "open": self.open,
                "stale": self.stale, "swing": self.swing, "swing_status": self.swing_status}

    def compute_swing(self, game: Game, rollouts: int = SWING_ROLLOUTS, *,
                      done: Any = None) -> threading.Thread:
        """Each choice's win chance for the deciding player, from `game` (a copy of the
        position the vote was on) in a thread of its own; `done()` is called after."""
        self.swing_status = "working"

        def work() -> None:
            try:
                from ..rollouts import action_values

                frame = action_values(game, rollouts=rollouts, actions=self.choices,
                                      seed=self.number, workers=1)
                records: list[dict[str, Any]] = [
                    {str(k): v for k, v in r.items()} for r in frame.to_dict("records")]
                by_action = {str(r["action"]): r for r in records}
                rows = []
                for action in self.choices:
                    values = by_action.get(str(action), {})
                    rows.append({"p_win": _float(values.get("p_win")),
                                 "se": _float(values.get("se"))})
                best = max((r["p_win"] for r in rows if r["p_win"] is not None), default=0.0)
                for r in rows:
                    r["points"] = None if r["p_win"] is None else 100 * (r["p_win"] - best)
                self.swing = rows
                self.swing_status = "done"
            except Exception as exc:  # shown to the teacher, never raised into the server
                self.swing_status = f"error: {type(exc).__name__}: {exc}"[:200]
            if done is not None:
                done()

        thread = threading.Thread(target=work, name=f"vote-{self.number}-swing", daemon=True)
        thread.start()
        return thread


def _float(value: Any) -> float | None:
    return None if value is None else float(value)


__all__ = ["Vote"]
