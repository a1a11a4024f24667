"""Log text in English and Dutch, rendered from events (never stored in the engine)."""

from __future__ import annotations

import string
from typing import TYPE_CHECKING, Any, TypeAlias

from ..records.events import Event
from . import logtext
from .logtext import LineContext, Piece, Pieces

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from ..boards.board import Board
    from ..game import Game

LANGUAGES = ("en", "nl")

# Templates by event kind. Fields: {p} acting player, {tile} tile name, {amount}, {owner},
# {to}, {card} card text, plus any field of the event.
TEMPLATES: dict[str, dict[str, str]] = {
    "game_started": {"en": "A {profile_name} game starts ({mode_name}): {names}.",
                     "nl": "Een spel {profile_name} begint ({mode_name}): {names}."},
    "first_player": {"en": "{p} is drawn to start.", "nl": "{p} mag beginnen (geloot)."},
    "deed_dealt": {"en": "{p} is dealt {tile} and pays {amount}.",
                   "nl": "{p} krijgt {tile} en betaalt {amount}."},
    "turn_started": {"en": "Turn {turn}: {p}.", "nl": "Beurt {turn}: {p}."},
    "rolled": {"en": "{p} rolled {dice} ({total}){dbl}.", "nl": "{p} gooide {dice} ({total}){dbl}."},
    "moved": {"en": "{p} moved to {end_name}.", "nl": "{p} ging naar {end_name}."},
    "salary": {"en": "{p} collected {amount} salary{landed_txt}.",
               "nl": "{p} ontving {amount} startgeld{landed_txt}."},
    "bought": {"en": "{p} bought {tile} for {amount}.", "nl": "{p} kocht {tile} voor {amount}."},
    "declined": {"en": "{p} did not buy {tile}{reason_txt}.",
                 "nl": "{p} kocht {tile} niet{reason_txt}."},
    "auction_started": {"en": "Auction of {item_name} (minimum bid {min_bid}).",
                        "nl": "Veiling van {item_name} (minimumbod {min_bid})."},
    "bid": {"en": "{p} bid {amount}.", "nl": "{p} bood {amount}."},
    "auction_pass": {"en": "{p} left the auction.", "nl": "{p} stapte uit de veiling."},
    "auction_won": {"en": "{p} won the auction of {item_name} for {amount}.",
                    "nl": "{p} won de veiling van {item_name} voor {amount}."},
    "auction_unsold": {"en": "Nobody bid: {item_name} stays with the bank.",
                       "nl": "Niemand bood: {item_name} blijft bij de bank."},
    "rent": {"en": "{p} paid {amount} rent to {payee_name} for {tile}.",
             "nl": "{p} betaalde {amount} huur aan {payee_name} voor {tile}."},
    "no_rent": {"en": "{p} pays no rent for {tile} ({reason_txt}).",
                "nl": "{p} betaalt geen huur voor {tile} ({reason_txt})."},
    "tax": {"en": "{p} paid {amount} tax{to_pot}.", "nl": "{p} betaalde {amount} belasting{to_pot}."},
    "pot_collected": {"en": "{p} collected the pot: {amount}.",
                      "nl": "{p} kreeg de pot: {amount}."},
    "card_drawn": {"en": "{p} drew a card: {card_text}", "nl": "{p} trok een kaart: {card_text}"},
    "card_money": {"en": "{p} {money_verb} {amount}.", "nl": "{p} {money_verb} {amount}."},
    "card_chain_stopped": {"en": "{p} draws no more cards after {cards} in a row.",
                           "nl": "{p} trekt geen kaarten meer na {cards} na elkaar."},
    "players_money": {"en": "{p} paid {amount} to {payee_name}.",
                      "nl": "{p} betaalde {amount} aan {payee_name}."},
    "repairs": {"en": "{p} paid {amount} for repairs.", "nl": "{p} betaalde {amount} voor herstellingen."},
    "jail_card_kept": {"en": "{p} keeps the get-out-of-jail card.",
                       "nl": "{p} houdt de kaart 'verlaat de gevangenis'."},
    "jail_card_used": {"en": "{p} used a get-out-of-jail card.",
                       "nl": "{p} gebruikte een kaart 'verlaat de gevangenis'."},
    "went_to_jail": {"en": "{p} went to jail{reason_txt}.", "nl": "{p} ging naar de gevangenis{reason_txt}."},
    "stayed_in_jail": {"en": "{p} stays in jail (try {tries}).",
                       "nl": "{p} blijft in de gevangenis (poging {tries})."},
    "left_jail": {"en": "{p} left jail ({how_txt}).", "nl": "{p} verliet de gevangenis ({how_txt})."},
    "jail_turn_skipped": {"en": "{p} sits out a turn in jail.",
                          "nl": "{p} zit een beurt uit in de gevangenis."},
    "fine": {"en": "{p} paid a fine of {amount}.", "nl": "{p} betaalde een boete van {amount}."},
    "roll_again": {"en": "{p} rolls again.", "nl": "{p} gooit opnieuw."},
    "turn_ended": {"en": "{p} ended the turn.", "nl": "{p} beëindigde de beurt."},
    "timer_ran_out": {"en": "Time ran out: the dice are rolled for {p}.",
                      "nl": "De tijd is om: er wordt gegooid voor {p}."},
    "built": {"en": "{p} built {what} on {tile} for {amount}.",
              "nl": "{p} bouwde {what} op {tile} voor {amount}."},
    "house_declined": {"en": "{p} built no house on {tile}.", "nl": "{p} bouwde geen huis op {tile}."},
    "sold_building": {"en": "{p} sold buildings on {tile} for {amount}.",
                      "nl": "{p} verkocht gebouwen op {tile} voor {amount}."},
    "housing_shortage": {"en": "Housing shortage: {houses_left} houses left, auction!",
                         "nl": "Huizentekort: nog {houses_left} huizen, veiling!"},
    "mortgaged": {"en": "{p} mortgaged {tile} for {amount}.",
                  "nl": "{p} nam een hypotheek op {tile} voor {amount}."},
    "unmortgaged": {"en": "{p} lifted the mortgage on {tile} for {amount}.",
                    "nl": "{p} loste de hypotheek op {tile} af voor {amount}."},
    "mortgage_interest": {"en": "{p} paid {amount} interest on {tile}.",
                          "nl": "{p} betaalde {amount} intrest op {tile}."},
    "trade_offered": {"en": "{p} offered {partner_name} a trade.",
                      "nl": "{p} stelde {partner_name} een ruil voor."},
    "trade_accepted": {"en": "{p} accepted the trade.", "nl": "{p} aanvaardde de ruil."},
    "trade_rejected": {"en": "{p} rejected the trade.", "nl": "{p} weigerde de ruil."},
    "trade_cash": {"en": "{p} paid {amount} to {payee_name} (trade).",
                   "nl": "{p} betaalde {amount} aan {payee_name} (ruil)."},
    "card_given": {"en": "{p} gave a get-out-of-jail card to {to_name}.",
                   "nl": "{p} gaf een kaart 'verlaat de gevangenis' aan {to_name}."},
    "property_given": {"en": "{p} gave {tile} to {to_name}.", "nl": "{p} gaf {tile} aan {to_name}."},
    "property_returned": {"en": "{tile} goes back to the bank.", "nl": "{tile} gaat terug naar de bank."},
    "debt": {"en": "{p} owes {amount} and must raise money.",
             "nl": "{p} moet {amount} betalen en moet geld bijeenbrengen."},
    "cannot_pay": {"en": "{p} cannot pay {owed} (paid {paid}).",
                   "nl": "{p} kan {owed} niet betalen (betaalde {paid})."},
    "bankrupt": {"en": "{p} is bankrupt.", "nl": "{p} is failliet."},
    "assets_cash": {"en": "{p} hands {amount} to {payee_name}.",
                    "nl": "{p} geeft {amount} aan {payee_name}."},
    "entered_park": {"en": "{p} parks: no rent for {p} while parked.",
                     "nl": "{p} parkeert: geen huur voor {p} zolang die parkeert."},
    "left_park": {"en": "{p} left the car park.", "nl": "{p} verliet de parking."},
    "time_up": {"en": "Time is up: the game ends after this turn.",
                "nl": "De tijd is om: het spel eindigt na deze beurt."},
    "game_over": {"en": "Game over ({reason_txt}). Winner: {winner_names}.",
                  "nl": "Einde van het spel ({reason_txt}). Winnaar: {winner_names}."},
    "cash_set": {"en": "[testing] {p}'s cash set.", "nl": "[test] geld van {p} ingesteld."},
    "owner_set": {"en": "[testing] {p} owns {tile}.", "nl": "[test] {p} bezit {tile}."},
    "placed": {"en": "[testing] {p} placed on {tile}.", "nl": "[test] {p} op {tile} gezet."},
    "scenario_set": {"en": "[scenario] The position is set up: {p} to play.",
                     "nl": "[scenario] De stelling staat klaar: {p} is aan zet."},
}

WORDS: dict[str, dict[str, str]] = {
    "bank": {"en": "the bank", "nl": "de bank"},
    "profile_ugentopoly": {"en": "Ugentopoly", "nl": "Ugentopoly"},
    "profile_classic": {"en": "classic Monopoly", "nl": "klassiek Monopoly"},
    "profile_cell22": {"en": "22-cell", "nl": "22 vakjes"},
    "mode_long": {"en": "long game", "nl": "lang spel"},
    "mode_short": {"en": "short game", "nl": "kort spel"},
    "mode_timed": {"en": "timed game", "nl": "spel op tijd"},
    "pot": {"en": "the pot", "nl": "de pot"},
    "double": {"en": ", a double", "nl": ", dubbel"},
    "landed": {"en": " (double: landed on start)", "nl": " (dubbel: precies op start)"},
    "to_pot": {"en": " into the pot", "nl": " in de pot"},
    "cannot_afford": {"en": " (not enough money)", "nl": " (niet genoeg geld)"},
    "mortgaged": {"en": "mortgaged", "nl": "hypotheek"},
    "park": {"en": "the owner is parked", "nl": "de eigenaar staat geparkeerd"},
    "doubles": {"en": " (three doubles)", "nl": " (drie keer dubbel)"},
    "tile": {"en": "", "nl": ""},
    "card": {"en": " (card)", "nl": " (kaart)"},
    "testing": {"en": " (testing)", "nl": " (test)"},
    "fine": {"en": "paid the fine", "nl": "boete betaald"},
    "served": {"en": "turn served", "nl": "beurt uitgezeten"},
    "released": {"en": "released", "nl": "vrijgelaten"},
    "how_doubles": {"en": "rolled a double", "nl": "dubbel gegooid"},
    "how_card": {"en": "card", "nl": "kaart"},
    "receives": {"en": "received", "nl": "ontving"},
    "pays": {"en": "paid", "nl": "betaalde"},
    "house": {"en": "a house", "nl": "een huis"},
    "hotel": {"en": "a hotel", "nl": "een hotel"},
    "a_house": {"en": "a house", "nl": "een huis"},
    "cannot_pay": {"en": "a player could not pay", "nl": "een speler kon niet betalen"},
    "money_reached_zero": {"en": "a player ran out of money", "nl": "een speler heeft geen geld meer"},
    "last_player_standing": {"en": "one player left", "nl": "nog één speler over"},
    "short_game_bankruptcies": {"en": "short game: bankruptcies", "nl": "kort spel: faillissementen"},
    "time_up": {"en": "time is up", "nl": "de tijd is om"},
    "turn_limit": {"en": "turn limit", "nl": "beurtlimiet"},
    "round_limit": {"en": "round limit", "nl": "rondelimiet"},
}


def word(key: str, lang: str) -> str:
    entry = WORDS.get(key)
    return entry.get(lang, entry["en"]) if entry else key


def party_name(party: Any, game: Game, lang: str) -> str:
    if isinstance(party, int) and 0 <= party < len(game.players):
        return game.players[party].name
    if party in ("bank", "pot"):
        return word(str(party), lang)
    return str(party)


def _fallback(event: Event, game: Game, lang: str) -> str:
    """The line of an event without a template (or whose template does not fit it)."""
    p = party_name(event.player, game, lang) if event.player is not None else ""
    return f"{event.kind} {p}".strip()


_MISSING: Any = object()  # a derived field this event does not have (its own field, if any)


def _tile(event: Event, data: dict[str, Any], game: Game, lang: str) -> Any:
    pos = data.get("position")
    if isinstance(pos, int) and 0 <= pos < game.board.size:
        return game.board.tile_name(pos, lang)
    return data.get("tile", "")


def _item_name(event: Event, data: dict[str, Any], game: Game, lang: str) -> Any:
    return _tile(event, data, game, lang) if data.get("item") != "house" \
        else word("a_house", lang)


def _end_name(event: Event, data: dict[str, Any], game: Game, lang: str) -> Any:
    return game.board.tile_name(data["end"], lang) if "end" in data else _MISSING


def _dice(event: Event, data: dict[str, Any], game: Game, lang: str) -> Any:
    return "+".join(map(str, data["dice"])) if "dice" in data else _MISSING


def _dbl(event: Event, data: dict[str, Any], game: Game, lang: str) -> Any:
    if "dice" not in data:
        return _MISSING
    return word("double", lang) if data.get("double") else ""


def _reason_txt(event: Event, data: dict[str, Any], game: Game, lang: str) -> Any:
    reason = data.get("reason")
    if event.kind == "declined":
        return word("cannot_afford", lang) if reason else ""
    if event.kind == "went_to_jail":
        return word(str(reason), lang)
    return word(str(reason), lang) if reason else ""


def _how_txt(event: Event, data: dict[str, Any], game: Game, lang: str) -> Any:
    how = data.get("how")
    if how is None:
        return _MISSING
    return word("how_" + how if how in ("doubles", "card") else how, lang)


def _card_text(event: Event, data: dict[str, Any], game: Game, lang: str) -> Any:
    if "card" not in data:
        return _MISSING
    return game.board.text(str(data["card"]), lang).replace("\n", " ")


def _money_verb(event: Event, data: dict[str, Any], game: Game, lang: str) -> Any:
    if event.kind != "card_money":
        return _MISSING
    return word("receives" if data.get("payee") == event.player else "pays", lang)


def _what(event: Event, data: dict[str, Any], game: Game, lang: str) -> Any:
    if event.kind != "built":
        return _MISSING
    return word("hotel" if data.get("hotel") else "house", lang)


def _names(event: Event, data: dict[str, Any], game: Game, lang: str) -> Any:
    return ", ".join(data.get("players", [])) if event.kind == "game_started" else _MISSING


def _profile_name(event: Event, data: dict[str, Any], game: Game, lang: str) -> Any:
    if event.kind != "game_started":
        return _MISSING
    return word(f"profile_{data.get('profile')}", lang).removeprefix("profile_")


def _mode_name(event: Event, data: dict[str, Any], game: Game, lang: str) -> Any:
    if event.kind != "game_started":
        return _MISSING
    return word(f"mode_{data.get('mode')}", lang).removeprefix("mode_")


def _winner_names(event: Event, data: dict[str, Any], game: Game, lang: str) -> Any:
    if event.kind != "game_over":
        return _MISSING
    return ", ".join(party_name(w, game, lang) for w in data["winners"])


Derive: TypeAlias = "Callable[[Event, dict[str, Any], Game, str], Any]"

# The fields a template may name besides the event's own (derived from them; a derived field
# wins over an own field of that name, _MISSING leaves the own field, if any, in its place).
DERIVED: dict[str, Derive] = {
    "p": lambda e, d, g, lang: party_name(e.player, g, lang) if e.player is not None else "",
    "tile": _tile,
    "item_name": _item_name,
    "end_name": _end_name,
    "dice": _dice,
    "dbl": _dbl,
    "landed_txt": lambda e, d, g, lang: word("landed", lang) if d.get("landed") else "",
    "payee_name": lambda e, d, g, lang: party_name(d.get("payee"), g, lang),
    "to_name": lambda e, d, g, lang: party_name(d.get("to"), g, lang),
    "partner_name": lambda e, d, g, lang: party_name(d.get("partner"), g, lang),
    "to_pot": lambda e, d, g, lang: word("to_pot", lang) if d.get("payee") == "pot" else "",
    "reason_txt": _reason_txt,
    "how_txt": _how_txt,
    "card_text": _card_text,
    "money_verb": _money_verb,
    "what": _what,
    "names": _names,
    "profile_name": _profile_name,
    "mode_name": _mode_name,
    "winner_names": _winner_names,
}


def _fields_of(template: str) -> tuple[tuple[str, Derive | None], ...] | None:
    """The names a template uses, each with its derivation (None: the event's own field);
    None when the template uses more than plain ``{name}`` fields."""
    out: list[tuple[str, Derive | None]] = []
    for _text, name, spec, conversion in string.Formatter().parse(template):
        if name is None:
            continue
        if not name.isidentifier() or spec or conversion:
            return None
        if all(name != seen for seen, _ in out):
            out.append((name, DERIVED.get(name)))
    return tuple(out)


# (kind, lang) -> the template and its fields, read once (None: no template, or an odd one)
_COMPILED: dict[tuple[str, str], tuple[str, tuple[tuple[str, Derive | None], ...]] | None] = {}


def _compiled(kind: str, lang: str) -> tuple[str, tuple[tuple[str, Derive | None], ...]] | None:
    key = (kind, lang)
    if key in _COMPILED:
        return _COMPILED[key]
    templates = TEMPLATES.get(kind)
    template = templates.get(lang) if templates is not None else None
    fields = _fields_of(template) if template is not None else None
    entry = (template, fields) if template is not None and fields is not None else None
    _COMPILED[key] = entry
    return entry


def _flag(op: int, field: str, key: str) -> Callable[[str, str, dict[str, int]], Piece | None]:
    """A piece reading `field` (absent: -1) with the word `key` as its text."""
    return lambda kind, lang, index: ("", op, index.get(field, -1), -1, word(key, lang))


def _party(field: str) -> Callable[[str, str, dict[str, int]], Piece | None]:
    return lambda kind, lang, index: ("", logtext.PARTY, index.get(field, -1), -1, "")


def _needs(op: int, field: str, kind: str | None = None
           ) -> Callable[[str, str, dict[str, int]], Piece | None]:
    """A piece reading `field`, None (the general renderer) where the event lacks it, or for
    a kind other than `kind` (the derived field is then the event's own, if any)."""
    def make(event_kind: str, lang: str, index: dict[str, int]) -> Piece | None:
        if field not in index or (kind is not None and event_kind != kind):
            return None
        return ("", op, index[field], -1, "")
    return make


def _tile_piece(kind: str, lang: str, index: dict[str, int]) -> Piece | None:
    if "position" not in index:
        return None
    return ("", logtext.TILE, index["position"], index.get("tile", -1), "")


def _dbl_piece(kind: str, lang: str, index: dict[str, int]) -> Piece | None:
    if "dice" not in index:
        return None
    return ("", logtext.FLAG, index.get("double", -1), -1, word("double", lang))


def _reason_piece(kind: str, lang: str, index: dict[str, int]) -> Piece | None:
    mode = 1 if kind == "declined" else 2 if kind == "went_to_jail" else 0
    return ("", logtext.REASON, index.get("reason", -1), mode, word("cannot_afford", lang))


def _kind_piece(op: int, field: str, kind: str
                ) -> Callable[[str, str, dict[str, int]], Piece | None]:
    """A piece derived for one kind only, from `field` (absent: -1)."""
    def make(event_kind: str, lang: str, index: dict[str, int]) -> Piece | None:
        return None if event_kind != kind else ("", op, index.get(field, -1), -1, "")
    return make


# Derived fields filled from an event's values by position (for one shape: a kind with its
# field names, see logtext); a field not here (or a piece None) is derived through DERIVED
# from the event's dict, by render_slow.
FAST: dict[str, Callable[[str, str, dict[str, int]], Piece | None]] = {
    "p": lambda kind, lang, index: ("", logtext.PLAYER, -1, -1, ""),
    "tile": _tile_piece,
    "end_name": _needs(logtext.END, "end"),
    "dice": _needs(logtext.DICE, "dice"),
    "dbl": _dbl_piece,
    "landed_txt": _flag(logtext.FLAG, "landed", "landed"),
    "payee_name": _party("payee"),
    # property_given (the end of most bot games: a bankrupt's deeds), card_given, trade_offered
    "to_name": _party("to"),
    "partner_name": _party("partner"),
    "to_pot": _flag(logtext.TO_POT, "payee", "to_pot"),
    "reason_txt": _reason_piece,
    "card_text": _needs(logtext.CARD, "card"),
    "money_verb": _kind_piece(logtext.VERB, "payee", "card_money"),
    "what": _kind_piece(logtext.WHAT, "hotel", "built"),
    "winner_names": _needs(logtext.WINNERS, "winners", "game_over"),
}

_SHAPES: dict[tuple[str, str, tuple[str, ...]], Pieces | None] = {}


def _pieces(kind: str, lang: str, keys: tuple[str, ...]) -> Pieces | None:
    """How a shape renders from its values (see logtext), or None when a field it names needs
    the event's dict (or is missing: the fallback line)."""
    templates = TEMPLATES.get(kind)
    template = templates.get(lang) if templates is not None else None
    if template is None:
        return None
    index = {key: i for i, key in enumerate(keys)}
    out: list[Piece] = []
    # parsed here alone (not through _compiled, which render_slow needs): a new shape costs
    # half as much, and the first bot game's last state meets a dozen
    for literal, name, spec, conversion in string.Formatter().parse(template):
        if name is None:
            out.append((literal, logtext.LIT, -1, -1, ""))
            continue
        if not name.isidentifier() or spec or conversion:
            return None  # more than a plain {name}: render_slow says what it gives
        make = FAST.get(name)
        piece: Piece | None
        if make is not None:
            piece = make(kind, lang, index)
        elif name in DERIVED:
            piece = None  # derived from the dict (or missing): the slow path
        else:
            piece = ("", logtext.OWN, index[name], -1, "") if name in index else None
        if piece is None:
            return None
        out.append((literal, *piece[1:]))
    return tuple(out)


# Per board and language: its tile names by position and its cards' texts on one line, looked
# up when first asked for (boards are frozen); the board is kept with them (an id is not reused
# while it lives).
_BOARDS: dict[tuple[int, str], tuple[Board, list[str], Callable[[str], str]]] = {}
_WORDS: dict[str, dict[str, str]] = {}


def _card_texts(board: Board, lang: str) -> Callable[[str], str]:
    """A card's text (by id) with its newlines made spaces, each read once."""
    texts: dict[str, str] = {}

    def card(card_id: str) -> str:
        text = texts.get(card_id)
        if text is None:
            if len(texts) >= 1024:  # events made by hand can name any card: stay bounded
                texts.clear()
            text = texts[card_id] = board.text(card_id, lang).replace("\n", " ")
        return text
    return card


def _context(game: Game, lang: str) -> LineContext:
    board = game.board
    hit = _BOARDS.get((id(board), lang))
    if hit is None or hit[0] is not board:
        if len(_BOARDS) >= 64:
            _BOARDS.clear()
        tiles = [board.tile_name(pos, lang) for pos in range(board.size)]
        hit = _BOARDS[(id(board), lang)] = (board, tiles, _card_texts(board, lang))
    words = _WORDS.get(lang)
    if words is None:
        words = _WORDS[lang] = {key: word(key, lang) for key in WORDS}
    return LineContext([p.name for p in game.players], hit[1], hit[2], words)


def render_lines(events: Sequence[Event], game: Game, lang: str = "en") -> list[str]:
    """The log line of each event (see render_event), the names read once for them all."""
    if lang not in LANGUAGES:
        lang = "en"
    if not events:
        return []
    return logtext.render_all(events, lang, _context(game, lang), _SHAPES, _pieces,
                              lambda event: render_slow(event, game, lang))


def render_event(event: Event, game: Game, lang: str = "en") -> str:
    """One log line for an event, in English ("en") or Dutch ("nl").

    Derives only the fields its template names, read by position from the event's values for
    the common shapes, in compiled code (logtext); the text is that of filling the template
    from the event's fields plus every derived one (render_slow)."""
    return render_lines((event,), game, lang)[0]


def render_slow(event: Event, game: Game, lang: str = "en") -> str:
    """render_event for any event: its dict, and each field its template names derived."""
    if lang not in LANGUAGES:
        lang = "en"
    entry = _COMPILED.get((event.kind, lang)) or _compiled(event.kind, lang)
    if entry is None:
        return _fallback(event, game, lang)
    template, names = entry
    data = dict(zip(event.keys, event.values, strict=True))
    values: dict[str, Any] = {}
    for name, derive in names:
        value = _MISSING if derive is None else derive(event, data, game, lang)
        if value is _MISSING:
            value = data.get(name, _MISSING)
            if value is _MISSING:
                return _fallback(event, game, lang)
        values[name] = value
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError):
        return _fallback(event, game, lang)
