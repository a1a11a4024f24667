"""What observations and trade masks read from a game, kept up to date incrementally.

An environment step changes little: the acting player's cash or position, a mortgage flag, now
and then an owner or a house. Rebuilding the observation from the whole game at every step
cost more than the step's budget (Python floats into NumPy cost ~400 instructions each), so
the game's state is kept here once, from no seat's point of view, in one float32 array
(``absolute``), and only the entries that changed are rewritten:

- the players' rows: compared by their raw values (cash, position, jail, cards, valuation);
- the properties: the engine's owner, level and mortgage lists are compared with copies (a
  tenth of a microsecond when equal), and only the positions that differ are redone, the
  last action's own property first (:meth:`hint`).

Entries are written one by one through a memoryview (``view``: a tenth of what NumPy's item
assignment costs). ``absolute`` ends with a room the observers fill (the decision, the seat to
play, the scalars: :meth:`reserve`), so that an observation is one indexed copy of ``absolute``
in its seat's order (Observer). The
engine's lists are read directly (``game._engine``, read only: ``game.owners`` and friends
copy them, ``game.mortgaged_positions`` walks the board in interpreted code).
tests/test_rl_env.py checks every array against a fresh rebuild after every step of long random
episodes, and the observation against the public API.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, cast

import numpy as np

if TYPE_CHECKING:
    from ..engine.core import Engine
    from ..engine.game import Game
    from .actions import ActionCodec

PLAYER_FEATURES: Final = (
    "alive", "cash", "valuation", "position", "in_jail", "jail_tries", "jail_cards")


def float_view(array: np.ndarray) -> memoryview[float]:
    """The items of a 1-d float32 array as a memoryview (format ``f``), to write one by one."""
    return cast("memoryview[float]", array.data)


class Tables:
    """The state of one game at a time (see the module doc). Offsets into ``absolute``:
    ``players`` (a row of PLAYER_FEATURES per seat), ``owners`` (per property, its owner
    one-hot: column 0 the bank, 1 + j seat j), ``levels`` (building level as a fraction of a
    hotel), ``mortgages`` (flags), ``zero`` (always 0).

    ``trade_bytes[seat]`` says which entries of the trade families the holdings allow (cash
    aside), one byte each in their order: asking each property's owner for it (no buildings
    in its group, owned by another player still in the game), then offering each of the seat's
    own properties to the next seat, the one after, ... (still in the game), `bands` each.
    """

    def __init__(self, codec: ActionCodec, scale: float, hotel_level: int, size: int,
                 jail_turns: float, bands: int) -> None:
        self.players = n = codec.players
        positions = codec.properties
        p = len(positions)
        self._scale = scale
        self._inv_size = 1.0 / size
        self._inv_jail = 1.0 / jail_turns
        self._hotel_level = float(hotel_level)
        self._blocking = codec.blocking  # per property: the lots whose buildings block a trade
        self._slot = {q: k for k, q in enumerate(positions)}
        self._positions = positions
        self._blocked_by: dict[int, list[int]] = {}  # position -> slots it can block
        for k, lots in enumerate(self._blocking):
            for q in lots:
                self._blocked_by.setdefault(q, []).append(k)
        self.row = len(PLAYER_FEATURES)
        self.width = n + 1
        self.owners_start = n * self.row
        self.levels_start = self.owners_start + p * self.width
        self.mortgages_start = self.levels_start + p
        self.zero = self.mortgages_start + p
        self.absolute = np.zeros(self.zero + 1, dtype=np.float32)
        # Single entries are written through a memoryview: a tenth of NumPy's cost per item.
        self.view = float_view(self.absolute)
        self._scratch: tuple[int, int] | None = None  # the observers' room (reserve)
        self.scratch_key: tuple[object, object] | None = None  # who wrote it, for which state
        self.scratch_written: list[int] = []  # its entries set to non-zero values
        self._bands = bands
        self._block = p * bands
        self.trade_bytes = [bytearray(n * self._block) for _ in range(n)]
        self._trade_ints: list[int | None] = [None] * n
        self.trade_version = [0] * n  # by seat: counts the changes of trade_bytes[seat]
        self.owner_of = [-1] * p  # by property slot
        self._tradable = [True] * p
        self._alive = [True] * n
        self.held_value = [0] * n  # valuation minus cash, by seat
        self._player_keys: list[tuple[Any, ...] | None] = [None] * n
        self._seen: tuple[list[int], list[int], list[bool], int] | None = None
        self._game: Game | None = None
        self._hint: int | None = None
        self._stamp: tuple[object, int, int] | None = None

    def reserve(self, width: int) -> int:
        """Where `width` entries of the observers' own start in ``absolute`` (one room, shared
        by every observer of these tables: ``scratch_key`` says whose state it holds)."""
        if self._scratch is None:
            start = self.absolute.size
            grown = np.zeros(start + width, dtype=np.float32)
            grown[:start] = self.absolute
            self.absolute, self.view = grown, float_view(grown)
            self._scratch = (start, width)
        start, room = self._scratch
        if room != width:
            raise ValueError(f"the observers' room holds {room} entries, not {width}")
        return start

    def stamp(self) -> object:
        """The state the arrays describe (changes with every action applied)."""
        return self._stamp

    def slot(self, position: int) -> int | None:
        return self._slot.get(position)

    def hint(self, position: int | None) -> None:
        """The property the last action most likely changed (checked, never trusted)."""
        self._hint = position

    def trade_int(self, seat: int) -> int:
        """``trade_bytes[seat]`` as one integer (bytes of 0 / 1: ``&`` is a byte-wise and)."""
        value = self._trade_ints[seat]
        if value is None:
            value = self._trade_ints[seat] = int.from_bytes(self.trade_bytes[seat], "big")
        return value

    # ------------------------------------------------------------------ keeping up

    def refresh(self, game: Game) -> None:
        """Bring every array up to date with the game (once per applied action: an observation
        and the mask of the same step share the work)."""
        engine = game._engine
        stamp = (engine, engine.applied, len(game._injections))  # a testing step counts too
        if stamp == self._stamp:
            return
        self._stamp = stamp
        seen = self._seen
        if seen is None or game is not self._game or engine.out_count != seen[3]:
            self._rebuild(game)
        else:
            self._properties(game, engine, seen)
        self._players(engine)

    def _players(self, engine: Engine) -> None:
        keys, held = self._player_keys, self.held_value
        view, row = self.view, self.row
        scale = self._scale
        for i, p in enumerate(engine.players):
            cash = p.cash
            key = (cash, p.position, p.in_jail, p.jail_tries, len(p.jail_cards), p.bankrupt,
                   held[i])
            if key == keys[i]:
                continue
            keys[i] = key
            worth = cash + held[i]
            tries = p.jail_tries * self._inv_jail
            cards = key[4]
            at = i * row
            view[at] = 0.0 if p.bankrupt else 1.0
            view[at + 1] = cash / (cash + scale) if cash > 0 else 0.0
            view[at + 2] = worth / (worth + scale) if worth > 0 else 0.0
            view[at + 3] = p.position * self._inv_size
            view[at + 4] = 1.0 if p.in_jail else 0.0
            view[at + 5] = tries if tries < 1.0 else 1.0
            view[at + 6] = 0.5 * cards if cards < 2 else 1.0

    def _properties(self, game: Game, engine: Engine,
                    seen: tuple[list[int], list[int], list[bool], int]) -> None:
        owner, level, mortgaged = engine.owner, engine.level, engine.mortgaged
        old_owner, old_level, old_mortgaged = seen[0], seen[1], seen[2]
        same_owner, same_level = owner == old_owner, level == old_level
        if same_owner and same_level and mortgaged == old_mortgaged:
            return
        q, self._hint = self._hint, None
        if q is not None and q in self._slot:
            # The action's own property first: if it explains every difference, it is the
            # only one to redo (the lists compare equal once its entries are copied).
            was_owner, was_level = old_owner[q], old_level[q]
            old_owner[q], old_level[q], old_mortgaged[q] = owner[q], level[q], mortgaged[q]
            if owner == old_owner and level == old_level and mortgaged == old_mortgaged:
                if owner[q] == was_owner and level[q] == was_level:
                    self._mortgage(engine, q)  # the common case: a mortgage taken or lifted
                else:
                    self._update(engine, [q])
                return
        changed = [q for q in self._positions if owner[q] != old_owner[q]
                   or level[q] != old_level[q] or mortgaged[q] != old_mortgaged[q]]
        if q is not None and q in self._slot and q not in changed:
            changed.append(q)  # its entries were copied above
        old_owner[:], old_level[:], old_mortgaged[:] = owner, level, mortgaged
        self._update(engine, changed)

    def _mortgage(self, engine: Engine, q: int) -> None:
        """Only the mortgage flag of `q` changed: its entry and its owner's valuation; nothing a
        trade depends on."""
        k = self._slot[q]
        self.view[self.mortgages_start + k] = 1.0 if engine.mortgaged[q] else 0.0
        self._revalue(engine, {self.owner_of[k]})

    def _revalue(self, engine: Engine, seats: set[int]) -> None:
        players = engine.players
        for i in seats:
            if i >= 0:
                p = players[i]
                self.held_value[i] = engine.valuation(p) - p.cash

    def _rebuild(self, game: Game) -> None:
        engine = game._engine
        owner, level, mortgaged = list(engine.owner), list(engine.level), list(engine.mortgaged)
        self._seen = (owner, level, mortgaged, engine.out_count)
        self._game = game
        self._alive = [not p.bankrupt for p in engine.players]
        self.owner_of = [-2] * len(self._positions)  # no seat: every row is rewritten
        self._player_keys = [None] * self.players
        self._update(engine, list(self._positions))
        self._revalue(engine, set(range(self.players)))

    def _update(self, engine: Engine, positions: list[int]) -> None:
        assert self._seen is not None
        owner, level, mortgaged = self._seen[0], self._seen[1], self._seen[2]
        view, width = self.view, self.width
        owners, levels, mortgages = self.owners_start, self.levels_start, self.mortgages_start
        trade_slots: set[int] = set()
        seats: set[int] = set()
        for q in positions:
            k = self._slot[q]
            holder = owner[q]
            seats.add(self.owner_of[k])
            seats.add(holder)
            self.owner_of[k] = holder
            start = owners + k * width
            for c in range(width):
                view[start + c] = 1.0 if c == holder + 1 else 0.0
            lv = level[q] / self._hotel_level
            view[levels + k] = lv if lv < 1.0 else 1.0
            view[mortgages + k] = 1.0 if mortgaged[q] else 0.0
            trade_slots.add(k)
            for j in self._blocked_by.get(q, ()):
                trade_slots.add(j)
                self._tradable[j] = not any(level[lot] for lot in self._blocking[j])
        if trade_slots:
            self._trade(trade_slots)
        self._revalue(engine, seats)

    def _trade(self, slots: set[int]) -> None:
        n, bands, block, alive = self.players, self._bands, self._block, self._alive
        yes, no = b"\x01" * bands, b"\x00" * bands
        for seat in range(n):
            flags = self.trade_bytes[seat]
            for k in slots:
                holder = self.owner_of[k]
                free = self._tradable[k]
                start = k * bands
                flags[start:start + bands] = (
                    yes if free and holder >= 0 and holder != seat and alive[holder] else no)
                mine = free and holder == seat
                for j in range(1, n):
                    start = j * block + k * bands
                    flags[start:start + bands] = yes if mine and alive[(seat + j) % n] else no
            self._trade_ints[seat] = None
            self.trade_version[seat] += 1


__all__ = ["Tables", "PLAYER_FEATURES"]
