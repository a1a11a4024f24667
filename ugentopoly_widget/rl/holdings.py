"""The board's ownership, buildings and mortgages as arrays, kept up to date incrementally.

Observations and trade masks read these at every step, and random play changes them at most
steps (a mortgage taken, lifted, taken again ...), one or two properties at a time. So the
engine's three lists are compared with copies (a tenth of a microsecond when equal), the
positions that differ are found, and only their entries are rewritten, for every seat at once.
An observation then copies its seat's property section in one slice.

The engine's lists are read directly (``game._engine``): ``game.owners`` and friends copy them
and ``game.mortgaged_positions`` walks the board in interpreted code, a fifth of a step. They
are only read. tests/test_rl_env.py checks these arrays against a fresh rebuild and the
public API after every step of long random episodes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from ..engine.game import Game
    from .actions import ActionCodec


class Holdings:
    """Arrays over the board's properties (in board order), for one game at a time.

    ``section[seat]`` is what the seat observes of them: the owners one-hot as the seat sees
    them (0 the bank, 1 the seat, 2 the next seat ...) property by property, then every
    building level (as a fraction of a hotel), then every mortgage flag.

    ``trade_flags[seat]`` says which entries of the trade families the holdings allow (cash
    aside), in their order: asking each property's owner for it (no buildings in its group,
    owned by another player still in the game), then offering each of the seat's own
    properties to the next seat, the one after, ... (still in the game), `bands` entries each.
    """

    def __init__(self, codec: ActionCodec, hotel_level: int, bands: int) -> None:
        self.players = n = codec.players
        self._props = np.array(codec.properties, dtype=np.intp)
        p = len(self._props)
        self._hotel_level = float(hotel_level)
        self._blocking = codec.blocking  # per property: the lots whose buildings block a trade
        self._slot = {q: k for k, q in enumerate(codec.properties)}
        self._blocked_by: dict[int, list[int]] = {}  # position -> slots it can block
        for k, lots in enumerate(self._blocking):
            for q in lots:
                self._blocked_by.setdefault(q, []).append(k)
        seats = np.arange(n)
        eye = np.eye(n + 1, dtype=np.float32)
        # By owner + 1 (0: the bank): every seat's one-hot row, and who owns it for each seat.
        self._rows = [eye[np.zeros(n, dtype=np.intp) if owner < 0 else (owner - seats) % n + 1]
                      for owner in range(-1, n)]
        self._is_seat = [seats == owner for owner in range(-1, n)]
        self.width = n + 1
        self.level_start = p * (n + 1)
        self.mortgage_start = self.level_start + p
        self.section = np.zeros((n, self.mortgage_start + p), dtype=np.float32)
        self.owners = np.full(p, -1, dtype=np.intp)
        self.tradable = np.ones(p, dtype=bool)
        self.alive = np.ones(n, dtype=bool)
        self._bands = bands
        self._partners = [(seats + j) % n for j in range(n)]  # [j][seat]: the seat j places on
        self.trade_flags = np.zeros((n, n * p * bands), dtype=bool)
        self.held_value = [0] * n  # valuation minus cash, by seat
        self.version = 0  # grows at every change
        self._seen: tuple[list[int], list[int], list[bool], int] | None = None
        self._game: Game | None = None

    def slot(self, position: int) -> int | None:
        return self._slot.get(position)

    def refresh(self, game: Game) -> None:
        """Bring the arrays up to date with the game."""
        engine = game._engine
        seen = self._seen
        if seen is None or game is not self._game or engine.out_count != seen[3]:
            self._rebuild(game)
            return
        owner, level, mortgaged = engine.owner, engine.level, engine.mortgaged
        if owner == seen[0] and level == seen[1] and mortgaged == seen[2]:
            return
        changed: set[int] = set()
        traded: set[int] = set()  # owners or buildings changed: the trade flags too
        pairs: tuple[tuple[list[Any], list[Any]], ...] = (
            (owner, seen[0]), (level, seen[1]), (mortgaged, seen[2]))
        for new, old in pairs:
            if new != old:
                diff = [q for q in range(len(new)) if new[q] != old[q]]
                changed.update(diff)
                if new is not mortgaged:
                    traded.update(diff)
                old[:] = new
        self._update(game, changed, traded)

    def _rebuild(self, game: Game) -> None:
        engine = game._engine
        owner, level, mortgaged = list(engine.owner), list(engine.level), list(engine.mortgaged)
        self._seen = (owner, level, mortgaged, engine.out_count)
        self._game = game
        self.alive = np.array([not p.bankrupt for p in game.players], dtype=bool)
        self.owners[:] = -1
        everything = set(range(len(owner)))
        self._update(game, everything, everything, every=True)

    def _update(self, game: Game, positions: set[int], traded: set[int], every: bool = False
                ) -> None:
        assert self._seen is not None
        owner, level, mortgaged = self._seen[0], self._seen[1], self._seen[2]
        section, width = self.section, self.width
        levels, mortgages = self.level_start, self.mortgage_start
        trade_slots: set[int] = set()
        seats: set[int] = set()
        for q in positions:
            k = self._slot.get(q)
            if k is None:
                continue  # not a property: nothing here depends on it
            holder = owner[q]
            seats.update((int(self.owners[k]), holder))
            self.owners[k] = holder
            section[:, k * width:(k + 1) * width] = self._rows[holder + 1]
            section[:, levels + k] = min(level[q] / self._hotel_level, 1.0)
            section[:, mortgages + k] = 1.0 if mortgaged[q] else 0.0
            if q in traded:
                trade_slots.add(k)
                for j in self._blocked_by.get(q, ()):
                    trade_slots.add(j)
                    self.tradable[j] = not any(level[lot] for lot in self._blocking[j])
        flags, bands, alive = self.trade_flags, self._bands, self.alive
        block = len(self._props) * bands
        for k in trade_slots:
            holder = int(self.owners[k])
            free = bool(self.tradable[k])
            is_seat = self._is_seat[holder + 1]
            theirs = ~is_seat if free and holder >= 0 and alive[holder] else False
            flags[:, k * bands:(k + 1) * bands] = np.asarray(theirs)[..., None]
            for j in range(1, self.players):
                start = j * block + k * bands
                mine = is_seat & alive[self._partners[j]] if free else False
                flags[:, start:start + bands] = np.asarray(mine)[..., None]
        players = game.players
        if every:
            worth = game.valuations()
            self.held_value = [worth[i] - players[i].cash for i in range(self.players)]
        else:
            for i in seats:
                if i >= 0:
                    self.held_value[i] = game.valuation(i) - players[i].cash
        self.version += 1


__all__ = ["Holdings"]
