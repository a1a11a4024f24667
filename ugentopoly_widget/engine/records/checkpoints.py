"""Checkpoints: the whole dynamic state of a game at a turn boundary, as plain data.

Undo restores the newest checkpoint at or before the decision to take back and replays only the
actions after it (trusted: they were validated when first applied), instead of replaying the game
from its first action. A checkpoint is taken where the flow of play starts a turn, the one point
where a fresh flow generator can take over (``Engine._flow(resume=True)``).
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

from ..boards.board import Card
from ..state import RngPosition

if TYPE_CHECKING:
    from ..core import Engine

KEEP = 3  # checkpoints kept: undo never crosses a roll, so it never goes back further


class Checkpoint:
    """State after `applied` actions (the testing steps recorded at `applied` come after it)."""

    def __init__(self, e: Engine) -> None:
        self.applied: int = e.applied
        self.events: int = len(e.events)
        self.players: list[tuple[Any, ...]] = [
            (p.cash, p.position, p.in_jail, p.jail_tries, p.jail_skip, list(p.jail_cards),
             p.bankrupt, p.in_park, p.last_roll, p.out_order)
            for p in e.players
        ]
        self.owner: list[int] = list(e.owner)
        self.owned: list[list[int]] = [list(o) for o in e.owned]
        self.level: list[int] = list(e.level)
        self.mortgaged: list[bool] = list(e.mortgaged)
        self.group_count: list[list[int]] = [list(g) for g in e.group_count]
        self.group_levels: list[int] = list(e.group_levels)
        self.stock: tuple[int | None, int | None] = (e.houses_left, e.hotels_left)
        self.money: tuple[int, int] = (e.bank, e.pot)
        self.decks: dict[str, list[Card]] = {k: list(d) for k, d in e.decks.items()}
        chance = e.chance
        self.rng: RngPosition = chance.position()
        self.scripted: list[tuple[int, ...]] = list(chance.scripted_dice)
        self.forced: dict[str, list[str]] = {k: list(v) for k, v in chance.forced_draws.items()}
        self.counters: tuple[int, int, int, int] = (
            e.current, e.turn_number, e.round, e.out_count
        )
        self.time_up: bool = e.time_up


def take(e: Engine) -> None:
    """Add a checkpoint of the state now (the flow is at the start of a turn)."""
    cps = e.checkpoints
    if cps and cps[-1].applied == e.applied:
        cps.pop()  # the same boundary again (a restored flow restarting): keep one
    cps.append(Checkpoint(e))
    if len(cps) > KEEP:
        del cps[0]


def restore(e: Engine, cp: Checkpoint) -> None:
    """Put the engine back in the state of `cp`, with a fresh flow at the start of that turn."""
    for p, saved in zip(e.players, cp.players, strict=True):
        (p.cash, p.position, p.in_jail, p.jail_tries, p.jail_skip, cards, p.bankrupt,
         p.in_park, p.last_roll, p.out_order) = saved
        p.jail_cards = list(cards)
    e.owner[:] = cp.owner
    for owned, saved_owned in zip(e.owned, cp.owned, strict=True):
        owned[:] = saved_owned
    e.level[:] = cp.level
    e.mortgaged[:] = cp.mortgaged
    for counts, saved_counts in zip(e.group_count, cp.group_count, strict=True):
        counts[:] = saved_counts
    e.count_complete()
    e.group_levels[:] = cp.group_levels
    e.houses_left, e.hotels_left = cp.stock
    e.bank, e.pot = cp.money
    for kind, cards in cp.decks.items():
        e.decks[kind] = deque(cards)
    chance = e.chance
    chance.restore_position(cp.rng)
    chance.scripted_dice = deque(cp.scripted)
    chance.forced_draws = {k: deque(v) for k, v in cp.forced.items()}
    e.current, e.turn_number, e.round, e.out_count = cp.counters
    e.time_up = cp.time_up
    e._card_chain = 0
    e._rolled_doubles = e._extra_roll = False
    e.over = False
    e.over_reason = ""
    e.winners, e.ranking, e.scores = [], [], []
    del e.events[cp.events:]
    e.applied = cp.applied
    e.forget_caches()
    e.checkpoints = [c for c in e.checkpoints if c.applied <= cp.applied]
    e.restart_flow()


def find(e: Engine, applied: int) -> Checkpoint | None:
    """The newest checkpoint at or before `applied` actions, if one is kept."""
    for cp in reversed(e.checkpoints):
        if cp.applied <= applied:
            return cp
    return None
