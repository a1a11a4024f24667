"""Plain data the widget sends to its front end: static board data, the lobby schema and the
dynamic state snapshot. Pure functions of the engine (no ipywidgets import), so they are cheap
to test and to time."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from ..engine.actions import Action
from ..engine.boards.board import Board, TileKind
from ..engine.bots import LEVELS
from ..engine.game import COLOURS, TOKENS, Game
from ..engine.records.events import Event, EventLog
from ..engine.render.i18n import render_lines
from ..engine.render.logtext import narrate_events
from ..engine.rules import PROFILES, RulesProfile
from ..engine.state import interest
from ..engine.strong import words as bot_words
from ..engine.strong.why import Why
from .explain import decision_help

if TYPE_CHECKING:  # the contract's types (mypy checks the builders against them)
    from .contract import Action as ActionDict
    from .contract import (
        BoardData,
        Card,
        Decision,
        Deck,
        GameState,
        Help,
        Lang,
        Last,
        LobbyBoard,
        LobbyData,
        LobbyFlag,
        LobbyProfile,
        LogPiece,
        Player,
        SeatKind,
        SomeTexts,
        Texts,
        Tile,
    )

LANGS: tuple[Lang, ...] = ("en", "nl")
# What a seat can be: a person, or a bot level, weakest first (their sentences: LEVELS)
SEAT_KINDS: tuple[SeatKind, ...] = ("person", "random", "heuristic", "strong", "rollout")
WHY = {"en": "Why:", "nl": "Waarom:"}  # a bot's reason after its log line
LOG_TAIL = 100  # rendered log lines kept for the views (the whole log stays in the game)
# Lines rendered when a view's lines start again (first state, a long play_bots batch, undo,
# another language): rendering 100 cost more than the rest of a batch's state; a view asks
# for earlier lines, LOG_PAGE at a time, when its reader wants them.
LOG_JUMP = 25
LOG_PAGE = 100

PROFILE_LABELS: dict[str, Texts] = {
    "ugentopoly": {"en": "Ugentopoly", "nl": "Ugentopoly"},
    "classic": {"en": "Classic Monopoly", "nl": "Klassiek Monopoly"},
    "cell22": {"en": "22-cell game", "nl": "22-vakjesspel"},
}

# Rules options the lobby offers: key -> (type, label en, label nl). The engine validates values.
LOBBY_FLAGS: dict[LobbyFlag, tuple[str, str]] = {
    "free_parking_pot": ("Taxes and fines go to a pot on free parking",
                         "Belastingen en boetes gaan naar een pot op vrij parkeren"),
    "auction_on_decline": ("Auction a property nobody buys", "Veiling als niemand koopt"),
    "income_tax_choice": ("Income tax: fixed amount or percentage",
                          "Inkomstenbelasting: vast bedrag of percentage"),
    "doubles_roll_again": ("Doubles roll again", "Dubbel gooien: nog eens"),
    "jail_card_auto": ("Use jail cards automatically", "Gevangeniskaart automatisch gebruiken"),
    "release_after_three_tries": ("Leave jail after three failed tries at doubles",
                                  "Na drie mislukte pogingen dubbel uit de gevangenis"),
    "card_move_to_jail_tile_jails": ("A card that sends you to the jail tile jails you",
                                     "Een kaart naar het gevangenisvak zet je in de gevangenis"),
    "end_when_money_reaches_zero": ("The game ends when someone's money reaches zero",
                                    "Het spel eindigt wanneer iemands geld op nul komt"),
    "rank_by_net_worth": ("Rank by net worth (not by cash)",
                          "Rangschikken op vermogen (niet op geld)"),
}


def flag_value(profile: RulesProfile, key: str) -> bool:
    """The lobby checkbox `key` for a profile (two checkboxes stand for non-boolean rules)."""
    if key == "rank_by_net_worth":
        return profile.rank_by == "net_worth"
    if key == "release_after_three_tries":
        return profile.max_jail_turns is not None
    return bool(getattr(profile, key))


def flag_option(key: str, value: bool) -> tuple[str, Any]:
    """The rules option that lobby checkbox `key` sets."""
    if key == "rank_by_net_worth":
        return "rank_by", "net_worth" if value else "money"
    if key == "release_after_three_tries":
        return "max_jail_turns", 3 if value else None
    return key, value


def _pick(lang: str) -> Lang:
    return lang if lang in LANGS else "en"


def _breaks(board: Board, tile_id: str, names: Texts) -> SomeTexts:
    """A board file's own break points for a tile's name, per language: the value of
    ``<tile id>.breaks`` with ``|`` where the name may break, when it spells that name."""
    key = f"{tile_id}.breaks"
    if not any(key in table for table in board.names.values()):
        return {}
    out: SomeTexts = {}
    for lang in LANGS:
        marked = board.text(key, lang)
        if marked.replace("|", "") == names[lang]:
            out[lang] = marked
    return out


def board_data(game: Game) -> BoardData:
    """Static data of the game's board and rules: sent once per game."""
    board = game.board
    rules = game.rules
    tiles: list[Tile] = []
    for tile in board.tiles:
        area = board.areas.get(tile.area) if tile.area is not None else None
        entry: Tile = {
            "pos": tile.position,
            "kind": tile.kind.value,
            "id": tile.id,
            "name": {"en": board.tile_name(tile.position, "en"),
                     "nl": board.tile_name(tile.position, "nl")},
            "area": tile.area,
            "colour": area.color if area is not None else None,
            "cost": tile.cost,
            "rents": list(tile.rents),
            "mortgage": tile.mortgage,
        }
        breaks = _breaks(board, tile.id, entry["name"])
        if breaks:
            entry["breaks"] = breaks
        if tile.is_property:  # the per-tile buttons' figures (the view holds no rules)
            entry["lift_cost"] = tile.mortgage + interest(tile.mortgage)
        if tile.kind is TileKind.STREET:
            entry["house_price"] = game.house_price(tile.position)
            entry["sell_refund"] = entry["house_price"] // 2
        if tile.kind is TileKind.TAX:
            entry["amount"] = tile.amount
            entry["percent"] = tile.percent
        tiles.append(entry)
    # every card's text in both languages: a drawn card and the trade dialog's jail cards are
    # shown in the view's language, also after a switch (a state only names the card)
    cards: dict[str, Card] = {
        card.id: {"deck": cast("Deck", deck.kind), "en": board.text(card.id, "en"),
                  "nl": board.text(card.id, "nl")}
        for deck in board.decks.values()
        for card in deck.cards
    }
    titled = any("board.name" in table for table in board.names.values())
    return {
        "name": board.name,
        # the board's own display name ("Ugentopoly", "Classic Monopoly"), per language
        "titles": {"en": board.text("board.name", "en") if titled else board.name,
                   "nl": board.text("board.name", "nl") if titled else board.name},
        "profile": rules.name,
        "size": board.size,
        "salary": game.rules.salary if game.rules.salary is not None else board.salary,
        "tiles": tiles,
        "areas": {
            key: {"colour": area.color, "house_price": area.house_price,
                  "positions": list(area.positions)}
            for key, area in board.areas.items()
        },
        "cards": cards,
        "hotel_level": game.hotel_level,
        "rules": {
            "mode": rules.mode,
            "trading": rules.trading,
            "mortgages": rules.mortgages,
            "buildings": rules.buildings,
            "street_rent": rules.street_rent,
            "turn_timer_seconds": rules.turn_timer_seconds,
            "time_limit_minutes": rules.time_limit_minutes,
            "bank_houses": rules.bank_houses,
            "bank_hotels": rules.bank_hotels,
        },
    }


def _profile_schema(profile: RulesProfile, board: Board | None) -> LobbyProfile:
    balance = profile.starting_money
    if balance is None:
        balance = board.balance if board is not None else 1500
    return {
        "name": profile.name,
        "label": PROFILE_LABELS.get(profile.name, {"en": profile.name, "nl": profile.name}),
        "min_players": profile.min_players,
        "max_players": profile.max_players,
        "starting_money": balance,
        "mode": profile.mode,
        "turn_timer_seconds": profile.turn_timer_seconds,
        "time_limit_minutes": profile.time_limit_minutes,
        "flags": {key: flag_value(profile, key) for key in LOBBY_FLAGS},
    }


def lobby_data(custom_board: Board | None = None, profile: str | None = None) -> LobbyData:
    """The setup screen's schema: profiles with their limits and options, tokens, colours."""
    from ..engine.boards.loader import load_bundled

    profiles = []
    for name, prof in PROFILES.items():
        try:
            bundled: Board | None = load_bundled(name)
        except Exception:  # pragma: no cover - a broken bundled board must not kill the lobby
            bundled = None
        profiles.append(_profile_schema(prof, bundled))
    boards: list[LobbyBoard] = [{"id": f"bundled:{name}", "label": name} for name in PROFILES]
    if custom_board is not None:
        boards.insert(0, {"id": "custom", "label": custom_board.name or "custom board"})
    return {
        "profiles": profiles,
        "boards": boards,
        "default_profile": profile if profile in PROFILES else "ugentopoly",
        "default_board": "custom" if custom_board is not None else None,
        "tokens": list(TOKENS),
        "colours": list(COLOURS),
        "seat_kinds": list(SEAT_KINDS),
        "seat_help": {kind: {"en": LEVELS[kind]["en"], "nl": LEVELS[kind]["nl"]}
                      for kind in SEAT_KINDS if kind in LEVELS},
        "flags": {key: {"en": en, "nl": nl} for key, (en, nl) in LOBBY_FLAGS.items()},
        "modes": ["long", "short", "timed"],
    }


NARRATE_TAIL = 32  # events narrated per state at most (the last ones: a batch ends with them)
MAX_MOVES = 6  # moves narrated per state (a batch of bot actions shows only its last ones)
MAX_SAMPLES = 400  # net-worth samples kept for the game-over chart (thinned beyond that)
MAX_ACTIONS = 4096  # legal actions whose dicts are kept (a game's are a few hundred)
MAX_NOTES = 500  # bots' reasons kept for the log (of its last lines)


class LogCache:
    """The last rendered log lines per language, extended incrementally (events only ever
    append, except after undo or a replaced game, which reset the cache). Only the tail a state
    carries is kept: the whole log stays in the game, so a long session's memory does not grow
    with rendered text (one line per event).

    It also keeps what the view narrates: the events since the previous snapshot in a compact
    form (dice, moves, money changes, a drawn card), and net worth per player sampled once per
    turn for the game-over chart.

    A state carries only the log lines added since the previous state (see :meth:`message`):
    resending the whole tail on every action made the log most of each state's bytes."""

    def __init__(self) -> None:
        self.epoch = 0  # numbers the runs of lines a view can extend; never goes back
        self._sent: tuple[str, int] | None = None  # (language, total) of the last message
        self._message: LogPiece | None = None
        self.lines: dict[str, list[str]] = {}
        self.done: dict[str, int] = {}  # events rendered (or skipped) per language
        self.dice: list[int] | None = None
        self.rolls = 0
        self._scanned = 0
        # the log read last, its length then (past the loaded checkpoint) and its rolls then
        self._roll_mark: tuple[EventLog | None, int, int] = (None, 0, 0)
        self._fresh = True
        self.recent: dict[str, Any] | None = None
        self.samples: list[list[int]] = []  # [turn, worth of player 0, worth of player 1, ...]
        self._sampled_game: int | None = None
        self._sections: dict[str, tuple[tuple[Any, ...], Any]] = {}
        self._players: list[tuple[tuple[Any, ...], Player]] = []
        self._actions: dict[int, tuple[Action, dict[str, Any]]] = {}
        # the events of the action being published, as the game gave them to its listeners
        # (the log's last ones), set by the widget around that publish only
        self.fresh: list[Event] | None = None
        # {"actions", "from", "to"} of a play_bots batch, for the state published after it
        self.batch: dict[str, int] | None = None
        # a bot's reason for a decision, by the number of its decision's first event: told
        # after that event's line ("Why: ...")
        self.notes: dict[int, tuple[int, Why]] = {}
        self._last_note: dict[int, tuple[str, int, int] | None] = {}
        self._note_top = -1  # the largest event number with a reason

    def reset(self) -> None:
        self.lines = {}
        self.done = {}
        self.dice = None
        self.rolls = 0
        self._scanned = 0
        self._roll_mark = (None, 0, 0)
        self._fresh = True  # after undo or a new game there is nothing to narrate
        self.recent = None
        self._sent = None  # the next message starts a new run (the views' lines are stale)

    def take_notes(self, game: Game, bots: Mapping[int, Any]) -> None:
        """Move the reasons the seats' bots noted (``bot.notes``: (event index, Why)) here; a
        bot that bids again in the same auction for the same reason is told once."""
        before = game.known_events()[0]
        for player, bot in bots.items():
            noted = getattr(bot, "notes", None)
            if not noted:
                continue
            last = self._last_note.get(player)
            for index, why in noted:
                key = (why.code, why.pos, why.amount)
                if last is not None and key == last and why.code.startswith("auction"):
                    continue
                self.notes[before + index] = (player, why)
                if before + index > self._note_top:
                    self._note_top = before + index
                last = key
            self._last_note[player] = last
            noted.clear()
        if len(self.notes) > 4 * MAX_NOTES:  # only recent lines are rendered again
            for index in sorted(self.notes)[:-MAX_NOTES]:
                del self.notes[index]

    def _annotate(self, game: Game, lang: str, first: int, lines: list[str]) -> list[str]:
        """The lines of events `first`.. with the bots' reasons after theirs."""
        if not self.notes:
            return lines
        label = WHY.get(lang, WHY["en"])
        for k in range(len(lines)):
            note = self.notes.get(first + k)
            if note is not None:
                lines[k] = f"{lines[k]} {label} {bot_words.log_reason(game, note[1], lang)}."
        return lines

    def update(self, game: Game, lang: str, keep: int = LOG_TAIL) -> list[str]:
        """The last `keep` log lines in `lang` (the log has one line per event).

        Reads only the events it needs, through ``game.known_events()``: a game loaded from a
        save file's checkpoint does not replay its history for a view (its log starts at the
        checkpoint's turn until something else loads the history)."""
        before, log = game.known_events()
        total = before + len(log)
        if self._scanned > total:
            self.reset()
        if self.notes and self._note_top >= total:  # decisions undone: their reasons go
            self.notes = {k: v for k, v in self.notes.items() if k < total}
            self._note_top = max(self.notes, default=-1)
        first_new = max(self._scanned, before)
        count_new = total - self._scanned
        lines = self.lines.setdefault(lang, [])
        done = self.done.get(lang, 0)
        if done > total:
            lines.clear()
            done = 0
        # lines that would be dropped are not rendered, nor those before a loaded checkpoint
        first = max(done, total - keep, before)
        if first > done or not lines:  # the lines start again: only the last few
            lines.clear()
            first = max(first, total - min(keep, LOG_JUMP))
        # A long batch (play_bots) narrates only its last events: the view animates the last
        # moves anyway, and the whole batch would cost a scan of every event it made.
        told = max(first_new, total - NARRATE_TAIL)
        read = min(first, told)
        fresh = self.fresh  # the action's events as the game told its listeners
        # used when they are exactly the events since the previous state (not when another
        # listener undid or applied something meanwhile)
        if fresh and count_new == len(fresh) and read >= first_new:
            events = fresh[read - (total - len(fresh)):]  # decoded already: not again
        else:
            events = log.since(read - before)  # decoded once, for the story and the lines
        if read <= first_new:  # every new event is decoded: their kinds are at hand
            kinds = [event.kind for event in events[first_new - read:]]
            rolls = kinds.count("rolled")
            last = first_new + len(kinds) - 1
            while rolls and kinds[last - first_new] != "rolled":  # the last roll, from the end
                last -= 1
        else:
            # a batch: the rolls counted in the codes, and only the last roll is decoded
            # (decoding each of the thousands of events cost more than the rest of the state)
            rolls, last = self._new_rolls(log, first_new - before)
            last += before
        if rolls:
            roll = events[last - read] if last >= read else log[last - before]
            dice = roll.get("dice")
            if isinstance(dice, (list, tuple)):
                self.dice = [int(d) for d in dice]
            self.rolls += rolls
        self.recent = None if self._fresh or not count_new else narrate(
            game, events[told - read:], lang, total=count_new)
        self._fresh = False
        self._scanned = total
        self._roll_mark = (log, total - before, log.rolls()[0])
        self.sample(game)
        lines.extend(self._annotate(game, lang, first,  # the names read once
                                    render_lines(events[first - read:], game, lang)))
        if keep > 0:
            del lines[:-keep]
        else:
            lines.clear()
        self.done[lang] = total
        return lines

    def _new_rolls(self, log: EventLog, start: int) -> tuple[int, int]:
        """The rolls of events `start`.. of `log` and the index of the last (-1: none): from
        the log's own count when the last update read this very log up to `start` (undo, the
        one thing that drops events, resets the cache), else counted in the codes."""
        seen, at, base = self._roll_mark
        if seen is log and at == start:
            held, last = log.rolls()
            if held >= base:
                return held - base, last if held > base else -1
        return log.count_kind("rolled", start)

    def section(self, key: str, source: tuple[Any, ...],
                build: Callable[[tuple[Any, ...]], Any]) -> Any:
        """``build(source)``, or the previous state's list while `source` is unchanged (the
        state's JSON then reuses its text too, see widget_sync)."""
        kept = self._sections.get(key)
        if kept is not None and kept[0] == source:
            return kept[1]
        value = build(source)
        self._sections[key] = (source, value)
        return value

    def legal(self, game: Game) -> list[dict[str, Any]]:
        """The legal actions as dicts: one dict per action object, made once (the engine
        hands out the same objects again: nine in ten of a game's), so the state's JSON reuses
        each one's text too (see widget_sync)."""
        known = self._actions
        out: list[dict[str, Any]] = []
        for action in game.legal_actions():
            hit = known.get(id(action))
            if hit is None or hit[0] is not action:  # kept alive here: an id is not reused
                if len(known) >= MAX_ACTIONS:
                    known.clear()
                hit = known[id(action)] = (action, action.to_dict())
            out.append(hit[1])
        return out

    def players(self, game: Game, seats: Sequence[str]) -> list[Player]:
        """Each player's part of the state: the previous state's dict while that player did
        not change (an action changes one or two), so its JSON text is reused as it is."""
        kept = self._players
        out: list[Player] = []
        for index, p in enumerate(game.players):
            cards = p.jail_cards
            # the player object stands for its name, token and colour (set when it is made)
            key = (p, p.cash, p.position, p.in_jail,
                   tuple([c.id for c in cards]) if cards else (), p.bankrupt, p.in_park,
                   seats[index] if index < len(seats) else "person")
            if index < len(kept) and kept[index][0] == key:
                out.append(kept[index][1])
                continue
            entry: Player = {
                "name": p.name,
                "token": p.token,
                "colour": p.colour,
                "cash": key[1],
                "position": key[2],
                "in_jail": key[3],
                "jail_cards": list(key[4]),
                "bankrupt": key[5],
                "in_park": key[6],
                "seat": cast("SeatKind", key[7]),
            }
            if index < len(kept):
                kept[index] = (key, entry)
            else:
                kept.append((key, entry))
            out.append(entry)
        del kept[len(out):]
        return out

    def message(self, lang: str, total: int, tail: list[str]) -> LogPiece:
        """The log part of a state: the lines since the previous message, or the whole kept
        tail when a new run starts (first state, undo, another language, a new game).

        ``base`` is the line count a view must already have for ``lines`` to extend it (None:
        the lines replace what the view has); ``start`` is the number of the first line sent
        (above ``base`` when a long batch made more lines than the tail keeps). A view that
        missed a state (opened later, say) asks for :meth:`full` instead."""
        sent = self._sent
        if sent is not None and sent == (lang, total) and self._message is not None:
            # nothing new: the same piece again (states can be coalesced on the way, as in
            # hold_sync, so a view may see only this one; one that has it ignores it)
            return self._message
        if sent is None or sent[0] != lang or sent[1] > total:
            self.epoch += 1
            base: int | None = None
            lines = list(tail)
        else:
            base = sent[1]
            new = total - base
            lines = tail[-new:]
        self._sent = (lang, total)
        self._message = {"epoch": self.epoch, "base": base, "total": total,
                         "start": total - len(lines), "lines": lines}
        return self._message

    def full(self, lang: str) -> dict[str, Any] | None:
        """The whole kept tail as of the last message (for a view that has a gap)."""
        if self._sent is None or self._sent[0] != lang:
            return None
        tail = list(self.lines.get(lang, ()))
        total = self._sent[1]
        return {"epoch": self.epoch, "base": None, "total": total,
                "start": total - len(tail), "lines": tail}

    def page(self, game: Game, lang: str, before: int) -> dict[str, Any]:
        """The LOG_PAGE lines before line `before` (a view's first), for a reader scrolling
        back. Lines before a loaded game's checkpoint need its history: asked for, it is
        replayed now (the first draw never does)."""
        start = max(0, before - LOG_PAGE)
        held, log = game.known_events()
        if start < held:
            held, log = 0, game.events
        lines = self._annotate(game, lang, start,
                               render_lines(log[start - held:before - held], game, lang))
        return {"type": "log_page", "epoch": self.epoch, "start": start, "lines": lines}

    def samples_game(self, game: Game) -> bool:
        """Whether the samples are this game's (sample() starts them again for another)."""
        return self._sampled_game == id(game)

    def sample(self, game: Game) -> None:
        """Net worth of every player once per turn (at the states the view is sent)."""
        if self._sampled_game != id(game):
            self._sampled_game = id(game)
            self.samples = []
        samples = self.samples
        turn = game.turn_number
        if samples and samples[-1][0] == turn and not game.is_over:
            return  # the common case, once per action inside a play_bots batch
        while samples and samples[-1][0] > turn:  # undone turns
            samples.pop()
        if samples and samples[-1][0] == turn and not game.is_over:
            return
        row = [turn, *game.valuations()]  # what ranks them
        if samples and samples[-1][0] == turn:
            samples[-1] = row
        else:
            samples.append(row)
        if len(samples) > MAX_SAMPLES:  # keep the first, thin the rest by two
            self.samples = samples[:1] + samples[2::2]


def narrate(game: Game, events: Sequence[Event], lang: str,
            total: int | None = None) -> dict[str, Any]:
    """The events of the last action(s) in the compact form the view animates (`total`: how
    many events the state brings, when `events` is only their tail). Compiled with the engine
    (logtext.narrate_events): interpreted it was a tenth of a play_bots batch's last state."""
    board = game.board
    lang = _pick(lang)
    return narrate_events(events, len(events) if total is None else total,
                          lambda card: board.text(card, lang), MAX_MOVES)


def _true_positions(flags: tuple[Any, ...]) -> list[int]:
    """What ``game.mortgaged_positions`` gives, from the engine's flags (kept per state)."""
    return [pos for pos, flag in enumerate(flags) if flag]


def _owner_list(owners: tuple[int, ...]) -> list[int | None]:
    return [None if owner < 0 else owner for owner in owners]


_PLAIN = frozenset({int, str, bool, type(None)})


def _jsonable(value: Any) -> Any:
    """Decision data is plain already; guard against anything that is not."""
    if type(value) is dict:  # the common case: plain values copied as they are
        out: dict[str, Any] = {}
        for k, v in value.items():
            if type(k) is str and type(v) in _PLAIN:
                out[k] = v
            else:
                out[str(k)] = _jsonable(v)
        return out
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if hasattr(value, "to_dict"):
        return _jsonable(value.to_dict())
    return str(value)


def decision_dict(game: Game) -> Decision:
    """Whose decision it is and about what, as the contract says it (``state.decision``, and the
    classroom's room view): ``{"kind", "player", "data"}``."""
    decision = game.decision
    return cast("Decision", {"kind": decision.kind, "player": decision.player,
                             "data": _jsonable(decision.data)})


def state_snapshot(
    game: Game, seq: int, lang: str, seats: Sequence[str], cache: LogCache,
    log_tail: int = LOG_TAIL, *, game_start: int | None = None,
) -> GameState:
    """The dynamic state the view draws from. Replaced whole on every change.
    `game_start`: the seq of this game's first state (`seq` itself when not given)."""
    lang = _pick(lang)
    decision = game.decision
    tail = cache.update(game, lang, keep=log_tail)
    total = game.event_count  # one log line per event
    players = cache.players(game, seats)
    legal = cache.legal(game)
    over = game.is_over
    rules = game.rules
    buildings = rules.buildings != "none"
    state: GameState = {
        "seq": seq,
        "game_start": seq if game_start is None else game_start,
        "phase": "over" if over else "play",
        "turn": game.turn_number,
        "current": game.current_player,
        "decision": decision_dict(game),
        "legal": cast("list[ActionDict]", legal),
        "players": players,
        "owner": cache.section("owner", game.owners, _owner_list),
        "level": cache.section("level", game.levels, list),
        "mortgaged": cache.section("mortgaged", tuple(game._engine.mortgaged), _true_positions),
        "pot": game.pot,
        "houses_left": game.houses_left if buildings else None,
        "hotels_left": game.hotels_left if buildings else None,
        "dice": cache.dice,
        "rolls": cache.rolls,
        "log": cache.message(lang, total, tail),
        "lang": lang,
        "can_undo": game.can_undo(),
        "can_trade": bool(
            rules.trading and decision.kind in ("turn", "post_roll", "debt")
            and decision.player is not None
        ),
    }
    if decision.kind == "auction" and decision.player is not None:
        state["bid"] = {"min": decision.data.get("min_bid", 0),
                        "max": game.players[decision.player].cash}
    # (no clock in the rules: no call, the answer is None)
    limit = rules.turn_timer_seconds
    timer = game.timer_remaining() if limit is not None else None
    if timer is not None and limit is not None and decision.kind == "turn" and not over:
        state["timer"] = {"limit": limit, "remaining": round(timer, 2)}
    clock = game.time_remaining() if rules.time_limit_minutes is not None else None
    if clock is not None and not game.time_up and not over:
        state["time_left"] = round(clock, 1)
    # (the engine's Any-typed dicts: tests/test_contract.py checks them against the types)
    if cache.recent is not None:
        state["last"] = cast("Last", cache.recent)
    if cache.batch is not None:  # a play_bots batch: the view tells it in one line
        state["last"] = cast("Last", {**(cache.recent or {}), "batch": cache.batch})
        cache.batch = None
    if decision.player is not None:
        figures = decision_help(game, legal)
        if figures:
            state["help"] = cast("Help", figures)
    if over:
        # net worth over the game, for the game-over chart (sent once the game is over only)
        state["history"] = cache.samples
        winners = game.winners
        people = game.players
        # the figure that ranked them (mortgaged property at half), not the tax's one: every
        # player's in one call (game.valuation(i) per player checked i and cost 4x as much)
        worth = game.valuations()
        state["ranking"] = [
            {"player": i, "name": people[i].name, "cash": people[i].cash,
             "net_worth": worth[i], "winner": i in winners}
            for i in game.ranking
        ]
        state["winners"] = winners
    return state
