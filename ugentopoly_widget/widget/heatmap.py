"""The heat layer's colours and its one-line lessons, computed in Python for the view.

Colours: a perceptually uniform palette (viridis: its lightness grows evenly from dark violet
to light yellow, so a lighter tile always means more, in light and dark themes and for most
colour-blind readers), scaled from the lowest to the highest value shown; an opaque fill per
tile with the ink (black or white) that reads on it. A difference (observed - exact) uses a
blue-white-red scale symmetric about 0. Tiles where no roll can end (Go To Jail; a next roll's
unreachable tiles) get no fill: they keep the tile's own colour, so 0 is not a colour.

Notes: why the hottest and the coldest tile are what they are, in words a class can follow
("a Chance card sends players here, and it is 14 steps after Jail: two rolls of about 7").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..engine.boards.board import CardKind, TileKind

if TYPE_CHECKING:
    from ..engine.game import Game

# matplotlib's viridis at 0, 0.1, ..., 1
VIRIDIS = ("#440154", "#482475", "#414487", "#355f8d", "#2a788e", "#21918c", "#22a884",
           "#44bf70", "#7ad151", "#bddf26", "#fde725")
# ColorBrewer RdBu (reversed): blue below 0, near-white at 0, red above
DIVERGING = ("#2166ac", "#4393c3", "#92c5de", "#d1e5f0", "#f7f7f7", "#fddbc7", "#f4a582",
             "#d6604d", "#b2182b")
DARK_INK, LIGHT_INK = "#000000", "#ffffff"  # pure: at L = 0.179 both give 4.58:1
# a roll of 5-9 is about half of all rolls (7 is the likeliest total); two rolls 12-16
ONE_ROLL = range(5, 10)
TWO_ROLLS = range(12, 17)


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def mix(stops: Sequence[str], t: float) -> str:
    """The colour at `t` (0..1) along `stops`, interpolated in sRGB between neighbours."""
    t = min(max(t, 0.0), 1.0) * (len(stops) - 1)
    k = min(int(t), len(stops) - 2)
    f = t - k
    a, b = _rgb(stops[k]), _rgb(stops[k + 1])
    return "#" + "".join(f"{round(a[i] + (b[i] - a[i]) * f):02x}" for i in range(3))


def luminance(colour: str) -> float:
    """WCAG relative luminance of a #rrggbb colour (0 black .. 1 white)."""
    def lin(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(c) for c in _rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ink(colour: str) -> str:
    """Black or white text, whichever contrasts more with `colour` (they tie at L = 0.179)."""
    return DARK_INK if luminance(colour) > 0.179 else LIGHT_INK


def scale(values: Sequence[float], diverging: bool) -> tuple[float, float]:
    """The range the colours span: the lowest to the highest value above 0 (0 means "no roll
    ends here" and gets no colour), or -m..+m about 0 for a difference."""
    if diverging:
        top = max((abs(v) for v in values), default=0.0)
        return -top, top
    shown = [v for v in values if v > 0]
    if not shown:
        return 0.0, 0.0
    return min(shown), max(shown)


def fills(values: Sequence[float], low: float, high: float, diverging: bool,
          zero_blank: bool = True) -> tuple[list[str | None], list[str | None]]:
    """One fill colour per value (None: no fill, for 0 when `zero_blank`) and the ink that
    reads on it."""
    out: list[str | None] = []
    inks: list[str | None] = []
    span = high - low
    for v in values:
        if diverging:
            colour: str | None = mix(DIVERGING, 0.5 + (v / high / 2 if high > 0 else 0.0))
        elif v <= 0 and zero_blank:
            colour = None
        else:
            colour = mix(VIRIDIS, (v - low) / span if span > 0 else 1.0)
        out.append(colour)
        inks.append(ink(colour) if colour is not None else None)
    return out, inks


# --------------------------------------------------------------------------- notes

WORDS = {
    "en": {
        "card_move": "a {deck} card sends players here",
        "card_nearest": "{deck} cards send players to the nearest {kind}",
        "card_back": "a {deck} card sends players {k} steps back to here",
        "jail_cards": "Go To Jail, {cards} and three doubles in a row all send players here",
        "one_roll": "it is {d} steps after Jail (one roll; many turns start in Jail)",
        "two_rolls": "it is {d} steps after Jail (two rolls of about 7)",
        "never": "no roll ends here (it sends players straight to Jail)",
        "moves_away": "{k} of its {n} cards move players on",
        "after_gtj": "players who reach Go To Jail, {d} tiles before, skip it",
        "plain": "no card sends players here",
        "and": ", and ",
        "observed": "{n} of {total} rolls ended here (long run: {exact})",
        "next": "{d} steps: {w} of the {faces} ways the dice can fall",
        "next_card": "reached by a card from a tile the roll can end on",
        "Chance": "Chance", "Chest": "Community Chest", "RAILWAY": "station",
        "UTILITY": "utility",
    },
    "nl": {
        "card_move": "een {deck}-kaart stuurt spelers hierheen",
        "card_nearest": "{deck}-kaarten sturen spelers naar het dichtstbijzijnde {kind}",
        "card_back": "een {deck}-kaart stuurt spelers {k} vakjes terug naar hier",
        "jail_cards": "Naar de gevangenis, {cards} en drie keer dubbel op rij sturen spelers "
                      "allemaal hierheen",
        "one_roll": "het ligt {d} vakjes na de gevangenis (één worp; veel beurten "
                    "beginnen in de gevangenis)",
        "two_rolls": "het ligt {d} vakjes na de gevangenis (twee worpen van ongeveer 7)",
        "never": "geen worp eindigt hier (dit vak stuurt spelers meteen naar de gevangenis)",
        "moves_away": "{k} van zijn {n} kaarten sturen spelers verder",
        "after_gtj": "spelers die op Naar de gevangenis komen, {d} vakjes eerder, slaan het "
                     "over",
        "plain": "geen kaart stuurt spelers hierheen",
        "and": ", en ",
        "observed": "{n} van de {total} worpen eindigden hier (lange termijn: {exact})",
        "next": "{d} vakjes: {w} van de {faces} manieren waarop de dobbelstenen vallen",
        "next_card": "bereikt via een kaart vanaf een vak waar de worp kan eindigen",
        "Chance": "Kans", "Chest": "Algemeen Fonds", "RAILWAY": "station",
        "UTILITY": "nutsbedrijf",
    },
}


def pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _deck(kind: str, lang: str) -> str:
    return WORDS[lang]["Chance" if kind == "CHANCE" else "Chest"]


def _reasons(game: Game, pos: int, lang: str) -> list[str]:
    """Why rolls end on tile `pos` often or rarely: cards that lead here or away, and where
    it lies from Jail (where many turns start) and from Go To Jail (which empties a stretch)."""
    board = game.board
    words = WORDS[lang]
    n = board.size
    tile = board.tiles[pos]
    out: list[str] = []
    if tile.kind is TileKind.GO_TO_JAIL:
        return [words["never"]]
    decks = list(board.decks.values())
    if tile.kind is TileKind.JAIL:
        jailing = sorted({_deck(d.kind, lang) for d in decks for c in d.cards
                          if c.kind is CardKind.GO_TO_JAIL})
        return [words["jail_cards"].format(cards=" & ".join(jailing) or "-")]
    for deck in decks:
        name = _deck(deck.kind, lang)
        if any(c.kind is CardKind.MOVE and c.position == pos for c in deck.cards):
            out.append(words["card_move"].format(deck=name))
        elif any(c.kind is CardKind.NEAREST and c.target is tile.kind for c in deck.cards):
            out.append(words["card_nearest"].format(deck=name, kind=words[tile.kind.value]))
        else:
            back = [c.relative for c in deck.cards if c.kind is CardKind.MOVEREL
                    and any(t.kind.value == deck.kind and (t.position + c.relative) % n == pos
                            for t in board.tiles)]
            if back:
                out.append(words["card_back"].format(deck=name, k=abs(back[0])))
    if tile.kind.value in board.decks:
        cards = board.decks[tile.kind.value].cards
        away = sum(1 for c in cards if c.kind in (CardKind.MOVE, CardKind.MOVEREL,
                                                  CardKind.NEAREST, CardKind.GO_TO_JAIL))
        if away:
            out.append(words["moves_away"].format(k=away, n=len(cards)))
    jail = board.jail_position
    if jail is not None:
        d = (pos - jail) % n
        if d in ONE_ROLL:
            out.append(words["one_roll"].format(d=d))
        elif d in TWO_ROLLS:
            out.append(words["two_rolls"].format(d=d))
    if not out:
        gtj = next((t.position for t in board.tiles if t.kind is TileKind.GO_TO_JAIL), None)
        d = (pos - gtj) % n if gtj is not None else 0
        out.append(words["after_gtj"].format(d=d) if gtj is not None and 0 < d <= 12
                   else words["plain"])
    return out


def _name(game: Game, pos: int, lang: str) -> str:
    return game.board.tile_name(pos, lang).replace("\n", " ")


def _note(game: Game, pos: int, value: float, lang: str, why: str) -> str:
    text = f"{_name(game, pos, lang)} {pct(value)}: {why}"
    return text[0].upper() + text[1:]


def notes(game: Game, mode: str, values: Sequence[float], *,
          exact: Sequence[float] | None = None, counts: Sequence[int] | None = None,
          ways: dict[int, int] | None = None) -> dict[str, Any]:
    """The one-line "why" of the hottest and the coldest tile of a heat layer, en and nl:
    ``{"hot": {"pos", "value", "text": {en, nl}}, "cold": {...}}`` (none for a difference,
    whose extremes are chance; a next roll has only its likeliest tile)."""
    if mode == "difference" or not values or max(values) <= 0:
        return {}
    hot = max(range(len(values)), key=lambda k: values[k])
    cold = min(range(len(values)), key=lambda k: values[k])
    out: dict[str, Any] = {}
    picks = [("hot", hot)] if mode == "next" else [("hot", hot), ("cold", cold)]
    for key, pos in picks:
        text: dict[str, str] = {}
        for lang, words in WORDS.items():
            if mode == "observed" and counts is not None and exact is not None:
                why = words["observed"].format(n=counts[pos], total=sum(counts),
                                               exact=pct(exact[pos]))
            elif mode == "next":
                start = game.players[game.current_player].position
                d = (pos - start) % game.board.size
                w = (ways or {}).get(d)
                faces = int(game.rules.dice_sides) ** int(game.rules.dice_count)
                why = words["next"].format(d=d, w=w, faces=faces) if w else words["next_card"]
            else:
                why = words["and"].join(_reasons(game, pos, lang))
            text[lang] = _note(game, pos, values[pos], lang, why)
        out[key] = {"pos": pos, "value": values[pos], "text": text}
    return out


def dice_ways(game: Game) -> dict[int, int]:
    """In how many of the faces**count ways each total falls (2d6: 7 in 6 of 36)."""
    ways = {0: 1}
    for _ in range(int(game.rules.dice_count)):
        nxt: dict[int, int] = {}
        for total, w in ways.items():
            for face in range(1, int(game.rules.dice_sides) + 1):
                nxt[total + face] = nxt.get(total + face, 0) + w
        ways = nxt
    return ways


__all__ = ["DIVERGING", "VIRIDIS", "dice_ways", "fills", "ink", "luminance", "mix", "notes",
           "scale"]
