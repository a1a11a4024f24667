"""What the strong bot knows of a board under a set of rules, worked out once per board and
rules and shared by every game and bot of the process: where a roll ends in the long run (a
small Markov chain over the tiles, the cards and jail, solved by power iteration), the rent of
every lot at every building level, and the expected rent per opponent roll of every group.

The engine may not import the probability lab (it lives above the engine), so the chain is a
plain one of its own: one step per roll, the dice's totals, "go to jail", every card that moves
the token (to a tile, back or forward, to the nearest station or utility, to jail) and jail
left on doubles or after the last try. It leaves out what changes the odds by a fraction of a
point (three doubles in a row, a held jail card): the bot ranks choices, it does not publish
figures (the probability lab does; tests/test_strong_bot.py compares the two).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..boards.board import CardKind, TileKind

if TYPE_CHECKING:
    from ..core import Engine

STREET: Final = TileKind.STREET
RAILWAY: Final = TileKind.RAILWAY
UTILITY: Final = TileKind.UTILITY
GO_TO_JAIL_TILE: Final = TileKind.GO_TO_JAIL
CHANCE_TILE: Final = TileKind.CHANCE
CHEST_TILE: Final = TileKind.CHEST
MOVE: Final = CardKind.MOVE
MOVEREL: Final = CardKind.MOVEREL
NEAREST: Final = CardKind.NEAREST
CARD_TO_JAIL: Final = CardKind.GO_TO_JAIL
JAIL_CARD: Final = CardKind.JAIL
MONEY: Final = CardKind.MONEY
PLAYERS_MONEY: Final = CardKind.PLAYERS_MONEY
TAX_TILE: Final = TileKind.TAX

# A board larger than this gets uniform odds (power iteration mixes in about size / 7 rolls;
# such boards are made to stress the engine, not to be played well).
CHAIN_MAX_TILES: Final = 400
ITERATIONS: Final = 400
TOLERANCE: Final = 1e-11
CARD_DEPTH: Final = 3  # cards that move onto a deck tile draw again, at most this deep


def dice_odds(count: int, sides: int) -> tuple[list[float], list[float]]:
    """P(total) and P(total and every die equal), indexed by total."""
    ways: dict[tuple[int, ...], int] = {(): 1}
    for _ in range(count):
        step: dict[tuple[int, ...], int] = {}
        for faces, n in ways.items():
            for face in range(1, sides + 1):
                key = (*faces, face)
                step[key] = step.get(key, 0) + n
        ways = step
    top = count * sides
    total = [0.0] * (top + 1)
    double = [0.0] * (top + 1)
    whole = float(sides ** count)
    for faces, n in ways.items():
        s = sum(faces)
        total[s] += n / whole
        if count >= 2 and min(faces) == max(faces):
            double[s] += n / whole
    return total, double


class BoardFacts:
    """The board's long-run landing odds and rents, for one rules profile (read only)."""

    def __init__(self, e: Engine) -> None:
        rx = e.rx
        self.size: int = e.size
        size = self.size
        self.costs: list[int] = list(e.costs)
        self.hbh: int = e.hbh
        self.classic: bool = rx.buildings == "classic"
        self.unlimited: bool = rx.buildings == "unlimited"
        # the highest building level a whole group can reach (0: no buildings)
        self.top: int = e.hotel_level if self.classic else 0
        self.street_rent: str = rx.street_rent
        totals, doubles = dice_odds(rx.dice_count, rx.dice_sides)
        p_double = sum(doubles)
        self.p_double: float = p_double
        # rolls a turn: doubles roll again (three in a row end in jail)
        self.rolls_per_turn: float = (1.0 + p_double + p_double * p_double
                                      if rx.doubles_roll_again else 1.0)
        self.mean_roll: float = sum(t * p for t, p in enumerate(totals))
        self.land: list[float] = landing_odds(e, totals, doubles)
        self.railways: list[int] = list(e.railways)
        self.utilities: list[int] = list(e.utilities)
        low, high = rx.utility_multipliers
        self.utility_rent: list[float] = [0.0] + [
            self.mean_roll * (low if k <= 1 else high) for k in range(1, len(self.utilities) + 1)]
        self.railway_rent: list[int] = [0] + [
            railway_rent(e.rents[self.railways[0]], k) if self.railways else 0
            for k in range(1, len(self.railways) + 1)]
        # per lot: the rent alone (group not whole), and with the group whole at each level
        self.alone: list[int] = [0] * size
        self.grouped: list[list[int]] = [[] for _ in range(size)]
        for pos in range(size):
            if e.kinds[pos] is STREET:
                self.alone[pos] = street_rent(e, pos, 0, False)
                self.grouped[pos] = [street_rent(e, pos, lv, True)
                                     for lv in range(self.top + 1)]
        land = self.land
        # per area (engine order): the whole group's expected rent per opponent roll at each
        # level, one level's house cost, its lots alone
        self.area_lots: list[tuple[int, ...]] = list(e.area_lot_list)
        self.level_cost: list[int] = []
        self.area_epr: list[list[float]] = []
        self.area_alone: list[float] = []
        for lots in self.area_lots:
            self.level_cost.append(sum(e.house_prices[q] for q in lots))
            self.area_epr.append([sum(land[q] * self.grouped[q][lv] for q in lots
                                      if self.grouped[q]) for lv in range(self.top + 1)])
            self.area_alone.append(sum(land[q] * self.alone[q] for q in lots))
        # the level that pays most per dollar of houses (3 houses, BOTS.md §1.1), or the top
        self.sweet: int = min(3, self.hbh) if self.classic else 0
        self.area_of: list[int] = list(e.area_index)
        # streets in no group (every street of the 22-cell board), and every property
        self.loose: list[int] = [pos for pos in range(size)
                                 if e.kinds[pos] is STREET and e.area_index[pos] < 0]
        self.properties: list[int] = [pos for pos in range(size)
                                      if e.kinds[pos] is STREET or e.kinds[pos] is RAILWAY
                                      or e.kinds[pos] is UTILITY]
        self.is_railway: list[bool] = [e.kinds[pos] is RAILWAY for pos in range(size)]
        self.is_utility: list[bool] = [e.kinds[pos] is UTILITY for pos in range(size)]
        self.house_prices: list[int] = list(e.house_prices)
        # the largest payment a tile or a card can ask (not rent): taxes, card fines, a card
        # paying every other player
        top = 0
        for tile in e.tiles:
            if tile.kind is TAX_TILE and tile.amount > top:
                top = tile.amount
        for deck in e.board.decks.values():
            for card in deck.cards:
                if card.kind is MONEY and -card.amount > top:
                    top = -card.amount
                if card.kind is PLAYERS_MONEY and -card.amount * (len(e.players) - 1) > top:
                    top = -card.amount * (len(e.players) - 1)
        self.top_fixed: int = top

    def lot_epr(self, pos: int) -> float:
        """Expected rent per opponent roll of one lot, its group not whole."""
        return self.land[pos] * self.alone[pos]

    def level_rent(self, pos: int, level: int) -> int:
        """A street's rent at a building level, its group not whole (a 22-cell street's
        rent grows with its houses alone; elsewhere a loose street has its base rent)."""
        if self.street_rent == "linear_houses":
            return self.costs[pos] * (2 + level) // 2
        return self.alone[pos]


def railway_rent(rents: tuple[int, ...], count: int) -> int:
    """The engine's railway rent for `count` railways owned (core.Engine.rent)."""
    return rents[count - 1] if len(rents) >= count else (rents[0] << (count - 1) if rents
                                                        else 0)


def street_rent(e: Engine, pos: int, level: int, whole: bool) -> int:
    """The engine's street rent (core.Engine.rent) at a building level, the group whole or
    not (every lot of the group at that level)."""
    model = e.rx.street_rent
    rents = e.rents[pos]
    if model == "linear_houses":
        return e.costs[pos] * (2 + level) // 2
    if not rents:
        return 0
    if level and model == "classic":
        if level == e.hotel_level:
            return rents[-1] if len(rents) > 5 else rents[min(level, len(rents) - 1)]
        return rents[min(level, len(rents) - 1)]
    base = rents[0]
    if whole and e.tile_areas[pos] is not None:
        base *= 2
    return base


def _nearest(e: Engine, start: int, kind: TileKind | None) -> int:
    size = e.size
    for step in range(1, size + 1):
        pos = (start + step) % size
        if e.kinds[pos] is kind:
            return pos
    return -1


def landing_odds(e: Engine, totals: list[float], doubles: list[float]) -> list[float]:
    """P(a roll ends on each tile), long run (jail stays count as rolls that end nowhere).

    Where a held get-out-of-jail card is used by itself (Ugentopoly), a player sent to jail
    often walks out at once: the chain is solved again with that share (the rate of drawing
    such a card over the rate of going to jail, an estimate of holding one when jailed)."""
    size = e.size
    if size > CHAIN_MAX_TILES:
        return [1.0 / size] * size
    states = _chain(e, totals, doubles, 0.0)
    if not e.rx.jail_card_auto or e.jail is None or e.rx.jail_skip_turns:
        return states[:size]
    cards = 0.0  # per roll: a jail card drawn
    for pos in range(size):
        kind = e.kinds[pos]
        if kind is CHANCE_TILE or kind is CHEST_TILE:
            deck = e.board.decks.get("CHANCE" if kind is CHANCE_TILE else "CHEST")
            if deck is not None and deck.cards:
                held = 0
                for card in deck.cards:
                    if card.kind is JAIL_CARD:
                        held += 1
                cards += states[pos] * held / len(deck.cards)
    jailed = 0.0  # per roll: sent to jail (the jail states' inflow: their share / stay)
    for s in range(size, len(states)):
        jailed += states[s]
    if cards <= 0.0 or jailed <= 0.0:
        return states[:size]
    # rolls that end in jail per visit: the one that sent the player, then the failed tries
    # (about 1 / P(doubles) while tries are unlimited)
    p_double = sum(doubles)
    rate = jailed * p_double if p_double > 0.0 else jailed
    return _chain(e, totals, doubles, cards / (cards + rate))[:size]


def _chain(e: Engine, totals: list[float], doubles: list[float], free: float) -> list[float]:
    """The long-run share of rolls ending in each state (tiles, then jail after t tries);
    `free`: the share of players sent to jail who leave at once (a card)."""
    size = e.size
    rx = e.rx
    jail = e.jail
    # states: 0..size-1 on a tile; size + t in jail after t failed tries
    tries = rx.max_jail_turns if rx.max_jail_turns is not None else 1
    jailed = jail is not None and rx.jail_skip_turns == 0
    states = size + (tries if jailed else 0)
    to_jail = size if jailed else (jail if jail is not None else -1)

    def into_jail(p: float, out: dict[int, float]) -> None:
        if free > 0.0 and jail is not None:
            out[jail] = out.get(jail, 0.0) + p * free
        out[to_jail] = out.get(to_jail, 0.0) + p * (1.0 - free)

    def resolve(pos: int, p: float, depth: int, out: dict[int, float]) -> None:
        kind = e.kinds[pos]
        if kind is GO_TO_JAIL_TILE and to_jail >= 0:
            into_jail(p, out)
            return
        deck = e.board.decks.get("CHANCE" if kind is CHANCE_TILE else "CHEST") \
            if (kind is CHANCE_TILE or kind is CHEST_TILE) and depth < CARD_DEPTH else None
        if deck is None or not deck.cards:
            out[pos] = out.get(pos, 0.0) + p
            return
        share = p / len(deck.cards)
        for card in deck.cards:
            ck = card.kind
            if ck is MOVE:
                if card.position == jail and rx.card_move_to_jail_tile_jails and to_jail >= 0:
                    into_jail(share, out)
                else:
                    resolve(card.position % size, share, depth + 1, out)
            elif ck is MOVEREL:
                resolve((pos + card.relative) % size, share, depth + 1, out)
            elif ck is NEAREST:
                target = _nearest(e, pos, card.target)
                resolve(target if target >= 0 else pos, share, depth + 1, out)
            elif ck is CARD_TO_JAIL and to_jail >= 0:
                into_jail(share, out)
            else:
                out[pos] = out.get(pos, 0.0) + share

    rows: list[list[tuple[int, float]]] = []
    for s in range(states):
        out: dict[int, float] = {}
        if s < size:
            for t, p in enumerate(totals):
                if p > 0.0:
                    resolve((s + t) % size, p, 0, out)
        else:
            tried = s - size
            start = jail if jail is not None else 0
            last = rx.max_jail_turns is not None and tried + 1 >= tries
            no_doubles = rx.dice_count < 2 and rx.max_jail_turns is None
            for t, p in enumerate(totals):
                if p <= 0.0:
                    continue
                leave = doubles[t] if not (last or no_doubles) else p
                if leave > 0.0:
                    resolve((start + t) % size, leave, 0, out)
                stay = p - leave
                if stay > 0.0:
                    nxt = s + 1 if s + 1 < states else s
                    out[nxt] = out.get(nxt, 0.0) + stay
        rows.append(list(out.items()))
    pi = [1.0 / size if s < size else 0.0 for s in range(states)]
    mean = [0.0] * states
    averaged = 0
    for step in range(ITERATIONS):
        nxt_pi = [0.0] * states
        for s in range(states):
            mass = pi[s]
            if mass > 0.0:
                for target, p in rows[s]:
                    nxt_pi[target] += mass * p
        change = 0.0
        for s in range(states):
            change += abs(nxt_pi[s] - pi[s])
        pi = nxt_pi
        if change < TOLERANCE:
            break
        if step >= ITERATIONS // 2:  # not settled (a periodic chain): the average of the rest
            for s in range(states):
                mean[s] += pi[s]
            averaged += 1
    else:
        if averaged:
            pi = [m / averaged for m in mean]
    return pi


# By board: the board itself (kept alive, so its id stays its own) and its facts per rules.
_FACTS: Final[dict[int, tuple[object, dict[object, BoardFacts]]]] = {}


def board_facts(e: Engine) -> BoardFacts:
    """The facts of the engine's board and rules (made once, then shared)."""
    board = e.board
    entry = _FACTS.get(id(board))
    if entry is None or entry[0] is not board:
        if len(_FACTS) >= 32:
            _FACTS.clear()
        entry = (board, {})
        _FACTS[id(board)] = entry
    by_rules = entry[1]
    facts = by_rules.get(e.rules)
    if facts is None:
        facts = by_rules[e.rules] = BoardFacts(e)
    return facts
