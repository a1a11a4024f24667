"""Load and validate board files (the Ghent University course XML format, extended).

See ``docs/board-format.md``. Every problem raises :class:`BoardError` naming the file, the
element and the attribute (and the line when known); no other exception escapes.
"""

from __future__ import annotations

import codecs
import os
import re
import warnings
import xml.etree.ElementTree as StdET
from collections.abc import Callable, Mapping
from importlib import resources
from pathlib import Path, PurePath
from typing import Any, TypeVar

from defusedxml import DefusedXmlException  # type: ignore[import-untyped, unused-ignore]
from defusedxml.ElementTree import (  # type: ignore[import-untyped, unused-ignore]
    DefusedXMLParser,
)
from defusedxml.ElementTree import (  # type: ignore[import-untyped, unused-ignore]
    ParseError as DefusedParseError,
)

from ..errors import BoardError, BoardWarning
from .board import PROPERTY_KINDS, Area, Board, Card, CardKind, Deck, Tile, TileKind
from .files import FileRefused, read_capped
from .properties import decode_properties, parse_properties, read_properties

__all__ = ["bundled_boards", "load_board", "load_bundled", "parse_board"]

MAX_NUMBER = 10**9
MAX_XML_CHARS = 5_000_000
MAX_BOARD_BYTES = 4 * MAX_XML_CHARS  # UTF-32 at worst
MIN_TILES = 8

_INT = re.compile(r"[+-]?[0-9]+")
_LANG = re.compile(r"[a-z]{2,3}")
_BUNDLED_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")
_COLOR = re.compile(r"#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})|[A-Za-z]{3,30}")
_RENT_ATTR = re.compile(r"rent([0-9]+)")
_XML_DECL_ENCODING = re.compile(rb"""^<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["']""")
_TRUE_FALSE = {"true": True, "false": False}

T = TypeVar("T")


# --------------------------------------------------------------------------- parsing helpers


class _Ctx:
    """Where we are: the file and the line of each element (for error messages)."""

    def __init__(self, file: str, lines: Mapping[int, int]) -> None:
        self.file = file
        self.lines = lines

    def error(
        self, message: str, elem: StdET.Element | None = None, attribute: str | None = None
    ) -> BoardError:
        return BoardError(
            message,
            file=self.file,
            element=None if elem is None else str(elem.tag),
            attribute=attribute,
            line=None if elem is None else self.lines.get(id(elem)),
        )

    def text(self, elem: StdET.Element, name: str) -> str:
        value = elem.get(name)
        if value is None:
            raise self.error("required attribute is missing", elem, name)
        value = value.strip()
        if not value:
            raise self.error("attribute is empty", elem, name)
        return value

    def opt_text(self, elem: StdET.Element, name: str) -> str | None:
        if elem.get(name) is None:
            return None
        return self.text(elem, name)

    def number(self, elem: StdET.Element, name: str, *, negative: bool = False) -> int:
        raw = elem.get(name)
        if raw is None:
            raise self.error("required attribute is missing", elem, name)
        return self._to_int(raw, elem, name, negative=negative)

    def opt_number(self, elem: StdET.Element, name: str, *, negative: bool = False) -> int | None:
        raw = elem.get(name)
        if raw is None:
            return None
        return self._to_int(raw, elem, name, negative=negative)

    def _to_int(self, raw: str, elem: StdET.Element, name: str, *, negative: bool) -> int:
        text = raw.strip(" \t\r\n")
        if not text:
            raise self.error("expected a whole number, got an empty value", elem, name)
        if not _INT.fullmatch(text):
            raise self.error(f"expected a whole number, got {raw[:40]!r}", elem, name)
        if len(text.lstrip("+-").lstrip("0")) > 10:  # don't convert huge digit strings
            raise self.error(f"number {text[:20]!r}... is too large", elem, name)
        value = int(text)
        if abs(value) > MAX_NUMBER:
            raise self.error(f"number {value} is too large (limit {MAX_NUMBER})", elem, name)
        if value < 0 and not negative:
            raise self.error(f"must not be negative, got {value}", elem, name)
        return value

    def boolean(self, elem: StdET.Element, name: str) -> bool:
        value = self.text(elem, name).lower()
        if value not in _TRUE_FALSE:
            raise self.error(f"expected 'true' or 'false', got {value[:40]!r}", elem, name)
        return _TRUE_FALSE[value]

    def choice(self, elem: StdET.Element, name: str, options: Callable[[str], T], what: str) -> T:
        value = self.text(elem, name)
        try:
            return options(value)
        except (ValueError, KeyError):
            raise self.error(f"unknown {what} {value[:40]!r}", elem, name) from None


class _LineTreeBuilder(StdET.TreeBuilder):
    """A tree builder that remembers the source line of every element."""

    def __init__(self) -> None:
        super().__init__()
        self.expat: Any = None
        self.lines: dict[int, int] = {}
        self._keep: list[StdET.Element] = []  # keep ids valid while the tree is built

    def start(self, tag: str, attrs: dict[str, str]) -> StdET.Element:
        elem = super().start(tag, attrs)
        if self.expat is not None:
            self.lines[id(elem)] = int(self.expat.CurrentLineNumber)
            self._keep.append(elem)
        return elem


def _parse_xml(xml_text: str, file: str) -> tuple[StdET.Element, dict[int, int]]:
    if len(xml_text) > MAX_XML_CHARS:
        raise BoardError(f"file is too large ({len(xml_text)} characters)", file=file)
    builder = _LineTreeBuilder()
    try:
        parser = DefusedXMLParser(
            target=builder, forbid_dtd=True, forbid_entities=True, forbid_external=True
        )
        builder.expat = getattr(parser, "parser", None)
        parser.feed(xml_text)
        root = parser.close()
    except (StdET.ParseError, DefusedParseError) as exc:
        position = getattr(exc, "position", None)
        line = position[0] if isinstance(position, tuple) and position else None
        raise BoardError(f"not well-formed XML: {exc}", file=file, line=line) from None
    except DefusedXmlException as exc:
        line = getattr(builder.expat, "CurrentLineNumber", None)
        raise BoardError(
            f"refused XML construct (DTDs, entities and external references are not "
            f"allowed): {type(exc).__name__}",
            file=file,
            line=line if isinstance(line, int) else None,
        ) from None
    if not isinstance(root, StdET.Element):
        raise BoardError("no root element", file=file)
    return root, builder.lines


# --------------------------------------------------------------------------- the board


def _only_child(ctx: _Ctx, root: StdET.Element, tags: tuple[str, ...]) -> StdET.Element | None:
    found = [child for child in root if child.tag in tags]
    if len(found) > 1:
        raise ctx.error(f"more than one <{'>/<'.join(tags)}> element", found[1])
    return found[0] if found else None


def _children(ctx: _Ctx, parent: StdET.Element, tag: str) -> list[StdET.Element]:
    result = []
    for child in parent:
        if child.tag != tag:
            raise ctx.error(f"unexpected element inside <{parent.tag}>", child)
        result.append(child)
    return result


def _settings(ctx: _Ctx, root: StdET.Element) -> tuple[int, int]:
    settings = _only_child(ctx, root, ("settings",))
    if settings is None:
        raise ctx.error("the <settings> element is missing", root)
    balance = ctx.number(settings, "balance")
    start = ctx.opt_number(settings, "start")
    go = ctx.opt_number(settings, "go")
    if start is None and go is None:
        raise ctx.error("required attribute is missing (or 'go')", settings, "start")
    if start is not None and go is not None and start != go:
        raise ctx.error(f"'start' ({start}) and 'go' ({go}) disagree", settings, "go")
    salary = start if start is not None else go
    assert salary is not None
    return balance, salary


def _areas(ctx: _Ctx, root: StdET.Element) -> dict[str, tuple[str, int | None]]:
    container = _only_child(ctx, root, ("areas",))
    areas: dict[str, tuple[str, int | None]] = {}
    if container is None:
        return areas
    for elem in _children(ctx, container, "area"):
        area_id = ctx.text(elem, "id")
        if area_id in areas:
            raise ctx.error(f"duplicate area id {area_id!r}", elem, "id")
        color = ctx.text(elem, "color")
        if not _COLOR.fullmatch(color):
            raise ctx.error(f"not a colour: {color[:40]!r}", elem, "color")
        areas[area_id] = (color, ctx.opt_number(elem, "house"))
    return areas


def _rents(ctx: _Ctx, elem: StdET.Element) -> tuple[int, ...]:
    found: dict[int, int] = {}
    for name in elem.attrib:
        match = _RENT_ATTR.fullmatch(name)
        if match is None:
            continue
        digits = match.group(1)
        if len(digits) > 3 or str(int(digits)) != digits:
            raise ctx.error("bad rent attribute name", elem, name)
        found[int(digits)] = ctx.number(elem, name)
    if 0 not in found:
        raise ctx.error("required attribute is missing", elem, "rent0")
    for index in range(len(found)):
        if index not in found:
            raise ctx.error(
                f"rent attributes must be contiguous from rent0 (rent{index} is missing)",
                elem,
                f"rent{index}",
            )
    return tuple(found[i] for i in range(len(found)))


def _railway_rents(ctx: _Ctx, elem: StdET.Element) -> tuple[int, ...]:
    base = ctx.opt_number(elem, "rent")
    raw = elem.get("rents")
    if raw is None:
        if base is None:
            raise ctx.error("required attribute is missing (or 'rents')", elem, "rent")
        return (base,)
    items = raw.split(",")
    if len(items) > 100:
        raise ctx.error("too many rents", elem, "rents")
    rents: list[int] = []
    for item in items:
        probe = StdET.Element(str(elem.tag), {"rents": item})
        try:
            rents.append(ctx.number(probe, "rents"))
        except BoardError as exc:
            raise ctx.error(f"{exc.message} (in {raw[:60]!r})", elem, "rents") from None
    if base is not None and base != rents[0]:
        raise ctx.error(f"'rent' ({base}) disagrees with the first of 'rents'", elem, "rent")
    return tuple(rents)


def _tile(ctx: _Ctx, elem: StdET.Element, areas: Mapping[str, object]) -> Tile:
    kind = ctx.choice(elem, "type", TileKind, "tile type")
    position = ctx.number(elem, "position")
    tile_id = ctx.text(elem, "id")
    if kind is TileKind.STREET:
        cost = ctx.number(elem, "cost")
        rents = _rents(ctx, elem)
        area = ctx.opt_text(elem, "area")
        if area is not None and area not in areas:
            raise ctx.error(f"unknown area {area[:40]!r}", elem, "area")
        mortgage = ctx.opt_number(elem, "mortgage")
        return Tile(
            position=position,
            kind=kind,
            id=tile_id,
            area=area,
            cost=cost,
            rents=rents,
            mortgage=cost // 2 if mortgage is None else mortgage,
            house_price=ctx.opt_number(elem, "house"),
        )
    if kind in (TileKind.RAILWAY, TileKind.UTILITY):
        cost = ctx.number(elem, "cost")
        rents = _railway_rents(ctx, elem) if kind is TileKind.RAILWAY else ()
        mortgage = ctx.opt_number(elem, "mortgage")
        return Tile(
            position=position,
            kind=kind,
            id=tile_id,
            cost=cost,
            rents=rents,
            mortgage=cost // 2 if mortgage is None else mortgage,
        )
    if kind is TileKind.TAX:
        amount = ctx.number(elem, "amount")
        percent = ctx.opt_number(elem, "percent")
        if percent is not None and percent > 100:
            raise ctx.error(f"percent must be 0..100, got {percent}", elem, "percent")
        return Tile(position=position, kind=kind, id=tile_id, amount=amount, percent=percent)
    return Tile(position=position, kind=kind, id=tile_id)


def _tiles(ctx: _Ctx, root: StdET.Element, areas: Mapping[str, object]) -> tuple[Tile, ...]:
    container = _only_child(ctx, root, ("tiles", "tileViews"))
    if container is None:
        raise ctx.error("the <tiles> element is missing", root)
    elems = _children(ctx, container, "tile")
    size = len(elems)
    if size < MIN_TILES:
        raise ctx.error(f"a board needs at least {MIN_TILES} tiles, found {size}", container)
    by_position: dict[int, Tile] = {}
    elem_at: dict[int, StdET.Element] = {}
    for elem in elems:
        tile = _tile(ctx, elem, areas)
        if tile.position >= size:
            raise ctx.error(
                f"position {tile.position} is out of range 0..{size - 1}", elem, "position"
            )
        if tile.position in by_position:
            raise ctx.error(f"duplicate position {tile.position}", elem, "position")
        by_position[tile.position] = tile
        elem_at[tile.position] = elem
    tiles = tuple(by_position[p] for p in range(size))  # no gaps: size distinct in 0..size-1
    if tiles[0].kind is not TileKind.START:
        raise ctx.error("the tile at position 0 must be the START tile", elem_at[0], "type")
    for tile in tiles[1:]:
        if tile.kind is TileKind.START:
            raise ctx.error("more than one START tile", elem_at[tile.position], "type")
    _check_ids(ctx, tiles, elem_at)
    jails = [t.position for t in tiles if t.kind is TileKind.JAIL]
    if len(jails) > 1:
        raise ctx.error("more than one JAIL tile", elem_at[jails[1]], "type")
    go_to_jail = [t.position for t in tiles if t.kind is TileKind.GO_TO_JAIL]
    if go_to_jail and not jails:
        raise ctx.error("a GO_TO_JAIL tile needs a JAIL tile", elem_at[go_to_jail[0]], "type")
    return tiles


def _check_ids(
    ctx: _Ctx, tiles: tuple[Tile, ...], elem_at: Mapping[int, StdET.Element]
) -> None:
    """A tile id is the key of its display name. Tiles of one kind that are not properties may
    share one (the course file has three CHANCE tiles called "tile.chance"); a property may
    not: its name must say which one is meant, in the log and on the board."""
    first: dict[str, Tile] = {}
    for tile in tiles:
        other = first.setdefault(tile.id, tile)
        if other is tile:
            continue
        if other.kind is not tile.kind or tile.kind in PROPERTY_KINDS:
            raise ctx.error(
                f"duplicate tile id {tile.id[:40]!r} at positions {other.position} and "
                f"{tile.position}: every property needs its own id (only tiles of one kind "
                f"that are not properties, such as CHANCE tiles, may share one)",
                elem_at[tile.position],
                "id",
            )


def _card(
    ctx: _Ctx, elem: StdET.Element, deck: str, tiles: tuple[Tile, ...], kinds: set[TileKind]
) -> Card:
    kind = ctx.choice(elem, "type", CardKind, "card type")
    card_id = ctx.text(elem, "id")
    if kind is CardKind.MOVE:
        position = ctx.number(elem, "position")
        if position >= len(tiles):
            raise ctx.error(
                f"position {position} is out of range 0..{len(tiles) - 1}", elem, "position"
            )
        return Card(card_id, kind, deck, position=position, collect=ctx.boolean(elem, "collect"))
    if kind is CardKind.MOVEREL:
        return Card(card_id, kind, deck, relative=ctx.number(elem, "relative", negative=True))
    if kind in (CardKind.MONEY, CardKind.PLAYERS_MONEY):
        return Card(card_id, kind, deck, amount=ctx.number(elem, "amount", negative=True))
    if kind is CardKind.GO_TO_JAIL:
        if TileKind.JAIL not in kinds:
            raise ctx.error("a GO_TO_JAIL card needs a JAIL tile", elem, "type")
        return Card(card_id, kind, deck)
    if kind is CardKind.NEAREST:
        target = ctx.choice(elem, "kind", TileKind, "tile kind")
        if target not in (TileKind.RAILWAY, TileKind.UTILITY):
            raise ctx.error("kind must be RAILWAY or UTILITY", elem, "kind")
        if target not in kinds:
            raise ctx.error(f"the board has no {target.value} tile", elem, "kind")
        rent_multiplier = ctx.opt_number(elem, "rentMultiplier")
        dice_multiplier = ctx.opt_number(elem, "diceMultiplier")
        if rent_multiplier == 0:
            raise ctx.error("must be at least 1", elem, "rentMultiplier")
        if dice_multiplier == 0:
            raise ctx.error("must be at least 1", elem, "diceMultiplier")
        return Card(
            card_id,
            kind,
            deck,
            collect=ctx.boolean(elem, "collect"),
            target=target,
            rent_multiplier=1 if rent_multiplier is None else rent_multiplier,
            dice_multiplier=dice_multiplier,
        )
    if kind is CardKind.REPAIRS:
        return Card(
            card_id, kind, deck, house=ctx.number(elem, "house"), hotel=ctx.number(elem, "hotel")
        )
    if kind is CardKind.JAIL and TileKind.JAIL not in kinds:
        raise ctx.error("a JAIL card (get out of jail free) needs a JAIL tile", elem, "type")
    return Card(card_id, kind, deck)  # JAIL (get out of jail free), ROLL_AGAIN


def _decks(ctx: _Ctx, root: StdET.Element, tiles: tuple[Tile, ...]) -> dict[str, Deck]:
    decks: dict[str, Deck] = {}
    seen_ids: set[str] = set()
    kinds = {t.kind for t in tiles}
    for elem in root:
        if elem.tag != "deck":
            continue
        kind = ctx.text(elem, "type")
        if kind not in ("CHANCE", "CHEST"):
            raise ctx.error(f"unknown deck type {kind[:40]!r}", elem, "type")
        if kind in decks:
            raise ctx.error(f"more than one {kind} deck", elem, "type")
        draw = ctx.opt_text(elem, "draw") or "cycle"
        if draw not in ("cycle", "random"):
            raise ctx.error(f"draw must be 'cycle' or 'random', got {draw[:40]!r}", elem, "draw")
        cards = []
        for card_elem in _children(ctx, elem, "card"):
            card = _card(ctx, card_elem, kind, tiles, kinds)
            if card.id in seen_ids:
                raise ctx.error(f"duplicate card id {card.id!r}", card_elem, "id")
            seen_ids.add(card.id)
            cards.append(card)
        if not cards:
            raise ctx.error(f"the {kind} deck has no cards", elem)
        decks[kind] = Deck(kind=kind, cards=tuple(cards), draw=draw)
    return decks


def _build(
    root: StdET.Element,
    lines: Mapping[int, int],
    *,
    file: str,
    xml_text: str,
    names: Mapping[str, Mapping[str, str]],
    source: str,
) -> Board:
    ctx = _Ctx(file, lines)
    if root.tag != "board":
        raise ctx.error("the root element must be <board>", root)
    profile = ctx.opt_text(root, "profile")
    balance, salary = _settings(ctx, root)
    area_specs = _areas(ctx, root)
    tiles = _tiles(ctx, root, area_specs)
    lots: dict[str, list[int]] = {}  # one pass over the tiles: linear in areas + tiles
    for t in tiles:
        if t.kind is TileKind.STREET and t.area is not None:
            lots.setdefault(t.area, []).append(t.position)
    areas = {
        area_id: Area(
            id=area_id, color=color, house_price=house, positions=tuple(lots.get(area_id, ()))
        )
        for area_id, (color, house) in area_specs.items()
    }
    decks = _decks(ctx, root, tiles)
    return Board(
        name=PurePath(file).stem,
        source=source,
        balance=balance,
        salary=salary,
        tiles=tiles,
        areas=areas,
        decks=decks,
        names={str(lang): dict(table) for lang, table in names.items()},
        profile=profile,
        xml_text=xml_text,
    )


def _guard(file: str, action: Callable[[], T]) -> T:
    """Run ``action``; anything but a BoardError becomes one."""
    try:
        return action()
    except BoardError:
        raise
    except RecursionError:
        raise BoardError("the file is nested too deeply", file=file) from None
    except Exception as exc:  # noqa: BLE001 - the contract: only BoardError escapes
        raise BoardError(f"cannot load board: {type(exc).__name__}: {exc}", file=file) from None


# --------------------------------------------------------------------------- public API


def parse_board(
    xml_text: str,
    *,
    file: str = "<string>",
    names: Mapping[str, Mapping[str, str]] | None = None,
    source: str | None = None,
) -> Board:
    """Build a board from XML text. ``names`` maps language -> id -> display text."""

    def run() -> Board:
        if not isinstance(xml_text, str):
            raise BoardError("the board text must be a string", file=file)
        _check_names(names or {}, file)
        root, lines = _parse_xml(xml_text, file)
        return _build(
            root,
            lines,
            file=file,
            xml_text=xml_text,
            names=names or {},
            source=source or file,
        )

    return _guard(file, run)


def _check_names(names: Mapping[str, Mapping[str, str]], file: str) -> None:
    """Display names are text keyed by text, per language (they may come from a save file)."""
    if not isinstance(names, Mapping):
        raise BoardError("names must map a language to a table of display names", file=file)
    for lang, table in names.items():
        if not isinstance(lang, str) or not isinstance(table, Mapping):
            raise BoardError(f"names[{lang!r}] must be a table of display names", file=file)
        for key, value in table.items():
            if not isinstance(key, str) or not isinstance(value, str):
                raise BoardError(
                    f"names[{lang!r}][{key!r}] must be text, not {type(value).__name__}",
                    file=file,
                )


def _decode_xml(data: bytes, file: str) -> str:
    if data.startswith(codecs.BOM_UTF8):
        encoding = "utf-8-sig"
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        encoding = "utf-16"
    else:
        match = _XML_DECL_ENCODING.match(data[:300])
        encoding = match.group(1).decode("ascii") if match else "utf-8"
        try:
            codecs.lookup(encoding)
        except LookupError:
            raise BoardError(f"unknown encoding {encoding!r}", file=file, line=1) from None
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise BoardError(f"not valid {encoding}: {exc.reason}", file=file, line=line) from None


def _stem(xml_path: Path) -> str:
    return xml_path.name[: -len(".xml")] if xml_path.name.endswith(".xml") else xml_path.stem


def _discover_names(xml_path: Path, encoding: str | None) -> dict[str, dict[str, str]]:
    stem = _stem(xml_path)
    names: dict[str, dict[str, str]] = {}
    try:
        candidates = sorted(xml_path.parent.iterdir())
    except OSError:
        return names
    for candidate in candidates:
        lang = _properties_language(candidate.name, stem)
        if lang is not None and candidate.is_file():
            names[lang] = read_properties(candidate, encoding)
    return names


def _properties_language(filename: str, stem: str) -> str | None:
    """ "" for ``stem.properties``, the language for ``stem.<lang>.properties``, else None."""
    if not filename.startswith(stem + ".") or not filename.endswith(".properties"):
        return None
    middle = filename[len(stem) + 1 : -len(".properties")]
    if middle == "":
        return ""
    if _LANG.fullmatch(middle):
        return middle
    return None


def load_board(
    source: str | os.PathLike[str],
    *,
    names: Mapping[str, str | os.PathLike[str]] | None = None,
    encoding: str | None = None,
) -> Board:
    """Load a board file, with display names from ``.properties`` files.

    ``names`` maps a language ("" = unknown) to a properties file; when it is None, files beside
    the board are used: ``foo.properties`` (language "") and ``foo.<lang>.properties``. They
    are read as UTF-8, or as ISO-8859-1 when not valid UTF-8 (as Java 9+ reads them), unless
    a byte order mark or `encoding` says otherwise.
    """
    try:
        file = os.fspath(source)
    except TypeError:
        raise BoardError(f"not a file path: {type(source).__name__}") from None
    if not isinstance(file, str):
        raise BoardError("not a text file path", file=repr(file))

    def run() -> Board:
        path = Path(file)
        if path.suffix.lower() == ".properties":
            raise BoardError(
                "this is a .properties file (display names and card texts), not a board: "
                "pass the .xml; the .properties beside it is found automatically",
                file=file,
            )
        try:
            data = read_capped(path, MAX_BOARD_BYTES)
        except FileRefused as exc:
            raise BoardError(str(exc), file=file) from None
        xml_text = _decode_xml(data, file)
        if names is None:
            tables = _discover_names(path, encoding)
        else:
            tables = {str(lang): read_properties(p, encoding) for lang, p in names.items()}
        return parse_board(xml_text, file=file, names=tables, source=file)

    board = _guard(file, run)
    if names is None and not board.names:
        stem = _stem(Path(file))
        warnings.warn(
            f"{file}: no display names: looked for {stem}.properties and "
            f"{stem}.<lang>.properties in {Path(file).parent}; tiles and cards are "
            f"shown by their ids (copy the .properties file beside the board)",
            BoardWarning,
            stacklevel=2,
        )
    return board


def _boards_dir() -> Any:
    return resources.files("ugentopoly_widget").joinpath("boards")


def bundled_boards() -> list[str]:
    """Names of the boards shipped in ``ugentopoly_widget/boards`` (sorted)."""
    try:
        entries = [entry.name for entry in _boards_dir().iterdir()]
    except (OSError, ModuleNotFoundError, TypeError, ValueError):
        return []
    return sorted(
        name[: -len(".xml")]
        for name in entries
        if isinstance(name, str) and name.endswith(".xml") and len(name) > len(".xml")
    )


def load_bundled(name: str) -> Board:
    """Load a board shipped with the package, e.g. ``load_bundled("ugentopoly")``.

    Boards are immutable, so each bundled one is parsed once per process and shared: a
    simulation creating thousands of games pays for the XML only once."""
    board = _BUNDLED_CACHE.get(name) if isinstance(name, str) else None
    if board is None:
        board = _load_bundled(name)
        _BUNDLED_CACHE[name] = board
    return board


_BUNDLED_CACHE: dict[str, Board] = {}


def _load_bundled(name: str) -> Board:
    file = f"{name}.xml" if isinstance(name, str) else repr(name)
    source = f"bundled:{name}"

    def run() -> Board:
        if not isinstance(name, str) or not _BUNDLED_NAME.fullmatch(name) or ".." in name:
            raise BoardError(f"not a bundled board name: {name!r}", file=source)
        if name not in bundled_boards():
            known = ", ".join(bundled_boards()) or "none"
            raise BoardError(f"no bundled board {name!r} (known: {known})", file=source)
        directory = _boards_dir()
        xml_text = _decode_xml(directory.joinpath(file).read_bytes(), source)
        tables: dict[str, dict[str, str]] = {}
        for entry in sorted(directory.iterdir(), key=lambda e: str(e.name)):
            lang = _properties_language(str(entry.name), name)
            if lang is None:
                continue
            try:
                text = decode_properties(entry.read_bytes(), file=f"bundled:{entry.name}")
            except OSError as exc:
                raise BoardError(f"cannot read file: {exc}", file=str(entry.name)) from None
            tables[lang] = parse_properties(text, file=f"bundled:{entry.name}")
        return parse_board(xml_text, file=file, names=tables, source=source)

    return _guard(source, run)
