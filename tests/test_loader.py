"""Loading and validating board files."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import fixtures_dir

from ugentopoly_widget.engine.boards.board import CardKind, TileKind
from ugentopoly_widget.engine.boards.loader import (
    bundled_boards,
    load_board,
    load_bundled,
    parse_board,
)
from ugentopoly_widget.engine.errors import BoardError, BoardWarning

# --------------------------------------------------------------------------- the course files


def test_course_board_loads() -> None:
    board = load_board(fixtures_dir() / "ugentopoly.xml")
    assert board.name == "ugentopoly"
    assert board.source.endswith("ugentopoly.xml")
    assert board.size == 40
    assert board.balance == 1500
    assert board.salary == 200
    assert board.profile is None
    assert board.tiles[0].kind is TileKind.START
    assert [t.position for t in board.tiles] == list(range(40))
    assert board.jail_position == 10
    assert len(board.areas) == 8
    assert board.areas["area1"].color == "#8b4513"
    assert board.areas["area1"].house_price == 50
    assert board.areas["area1"].positions == (1, 3)
    assert board.areas["area8"].positions == (37, 39)
    street = board.tiles[1]
    assert street.kind is TileKind.STREET
    assert street.area == "area1"
    assert street.cost == 60
    assert street.rents == (2, 10, 30, 90, 160, 250)
    assert street.mortgage == 30
    assert street.house_price is None
    railway = board.tiles[5]
    assert railway.kind is TileKind.RAILWAY
    assert railway.rents == (50,)
    assert railway.mortgage == 100
    assert board.tiles[4].amount == 200
    assert board.tiles[38].amount == 75
    assert board.tiles[12].kind is TileKind.UTILITY
    assert len(board.decks["CHANCE"].cards) == 8
    assert len(board.decks["CHEST"].cards) == 7
    assert board.decks["CHANCE"].draw == "cycle"
    chance = board.decks["CHANCE"].cards
    assert chance[0].kind is CardKind.JAIL
    assert (chance[1].kind, chance[1].position, chance[1].collect) == (CardKind.MOVE, 10, False)
    assert (chance[2].position, chance[2].collect) == (19, True)
    assert chance[4].relative == -3
    assert chance[6].amount == -50
    assert chance[7].kind is CardKind.PLAYERS_MONEY
    assert all(c.deck == "CHANCE" for c in chance)
    assert board.xml_text == (fixtures_dir() / "ugentopoly.xml").read_text("utf-8")


def test_course_names() -> None:
    board = load_board(fixtures_dir() / "ugentopoly.xml")
    assert set(board.names) == {""}
    assert board.text("tile.street01") == "S22"
    assert board.text("tile.street01", "nl") == "S22"
    assert board.text("tile.gotojail") == "Ga direct naar\nDe Overpoort"
    assert board.tile_name(39) == "Boekentoren"
    assert board.text("card.chance.08").startswith("Je gaat in discussie")


def test_course_part_one_loads_with_empty_decks() -> None:
    board = load_board(fixtures_dir() / "ugentopoly.deel1.xml")
    assert board.name == "ugentopoly.deel1"
    assert board.size == 40
    assert dict(board.decks) == {}
    assert board.text("tile.gotojail") == "Ga direct naar De Overpoort"


def test_explicit_names(tmp_path: Path) -> None:
    en = tmp_path / "english.txt"
    en.write_text("tile.start=Go\n", encoding="iso-8859-1")
    board = load_board(str(fixtures_dir() / "ugentopoly.xml"), names={"en": en})
    assert set(board.names) == {"en"}
    assert board.text("tile.start", "en") == "Go"


def test_discovers_language_files(tmp_path: Path) -> None:
    shutil.copy(fixtures_dir() / "ugentopoly.xml", tmp_path / "mine.xml")
    (tmp_path / "mine.properties").write_text("tile.start=Fallback\n", encoding="iso-8859-1")
    (tmp_path / "mine.nl.properties").write_bytes("tile.start=D\u00e9part\n".encode("latin-1"))
    (tmp_path / "mine.en.properties").write_text("tile.start=Go\n", encoding="iso-8859-1")
    (tmp_path / "mine.deel1.properties").write_text("tile.start=No\n", encoding="iso-8859-1")
    (tmp_path / "other.de.properties").write_text("tile.start=Los\n", encoding="iso-8859-1")
    board = load_board(tmp_path / "mine.xml")
    assert set(board.names) == {"", "nl", "en"}
    assert board.languages() == ("en", "nl") or set(board.languages()) == {"en", "nl"}
    assert board.text("tile.start", "nl") == "Départ"
    assert board.text("tile.start", "en") == "Go"
    assert board.text("tile.start", "fr") == "Fallback"


def test_utf8_properties(tmp_path: Path) -> None:
    shutil.copy(fixtures_dir() / "ugentopoly.xml", tmp_path / "b.xml")
    (tmp_path / "b.nl.properties").write_text("tile.start=D\u00e9part\n", encoding="utf-8")
    board = load_board(tmp_path / "b.xml", encoding="utf-8")
    assert board.text("tile.start", "nl") == "Départ"


def test_parse_board_round_trip() -> None:
    text = (fixtures_dir() / "ugentopoly.xml").read_text("utf-8")
    board = parse_board(text, file="saved.xml", names={"nl": {"tile.start": "Start"}})
    assert board.name == "saved"
    assert board.source == "saved.xml"
    assert board.text("tile.start", "nl") == "Start"
    again = parse_board(board.xml_text, source="save:1")
    assert again.source == "save:1"
    assert again.tiles == board.tiles
    assert again.name == "<string>"


# --------------------------------------------------------------------------- bundled boards


def test_bundled_boards() -> None:
    names = bundled_boards()
    assert names == sorted(names)
    for name in names:
        board = load_bundled(name)
        assert board.source == f"bundled:{name}"
        assert board.name == name
        assert board.size >= 8


def test_unknown_bundled_board() -> None:
    with pytest.raises(BoardError):
        load_bundled("no-such-board")
    with pytest.raises(BoardError):
        load_bundled("../etc/passwd")


# --------------------------------------------------------------------------- a small board


def board_xml(
    tiles: str | None = None,
    *,
    settings: str = '<settings balance="1000" start="100"/>',
    areas: str = '<area id="a1" color="#ff0000" house="50"/>',
    decks: str = "",
    root: str = "<board>",
) -> str:
    if tiles is None:
        tiles = """
        <tile type="START" position="0" id="t.start"/>
        <tile type="STREET" position="1" id="t.s1" area="a1" cost="60" rent0="2" rent1="10"/>
        <tile type="CHANCE" position="2" id="t.chance"/>
        <tile type="RAILWAY" position="3" id="t.r1" cost="200" rent="25"/>
        <tile type="JAIL" position="4" id="t.jail"/>
        <tile type="UTILITY" position="5" id="t.u1" cost="150"/>
        <tile type="TAX" position="6" id="t.tax" amount="100"/>
        <tile type="GO_TO_JAIL" position="7" id="t.gtj"/>
        """
    return f"{root}{settings}<areas>{areas}</areas><tiles>{tiles}</tiles>{decks}</board>"


def error_of(text: str) -> BoardError:
    with pytest.raises(BoardError) as info:
        parse_board(text, file="test.xml")
    assert info.value.file == "test.xml"
    return info.value


def test_small_board() -> None:
    board = parse_board(board_xml())
    assert board.size == 8
    assert board.areas["a1"].positions == (1,)
    assert board.tiles[1].rents == (2, 10)
    assert board.decks == {}


def test_extensions() -> None:
    tiles = """
        <tile type="START" position="0" id="t.start"/>
        <tile type="STREET" position="1" id="t.s1" area="a1" cost="61" rent0="2"
              mortgage="40" house="75" colour="ignored"/>
        <tile type="CHANCE" position="2" id="t.chance"/>
        <tile type="RAILWAY" position="3" id="t.r1" cost="200" rent="25" rents="25,50,100"/>
        <tile type="JAIL" position="4" id="t.jail"/>
        <tile type="RAILWAY" position="5" id="t.r2" cost="200" rents=" 10 , 20 "/>
        <tile type="TAX" position="6" id="t.tax" amount="100" percent="10"/>
        <tile type="FREE_PARKING" position="7" id="t.fp"/>
    """
    decks = """
    <deck type="CHANCE" draw="random">
      <card type="GO_TO_JAIL" id="c1"/>
      <card type="NEAREST" kind="RAILWAY" collect="true" rentMultiplier="2" id="c2"/>
      <card type="REPAIRS" house="25" hotel="100" id="c3"/>
      <card type="ROLL_AGAIN" id="c4"/>
      <card type="MOVE" position=" +7 " collect="FALSE" id="c5"/>
      <card type="MOVEREL" relative="-3" id="c6"/>
    </deck>
    """
    board = parse_board(
        board_xml(tiles, decks=decks, root='<board profile="classic">'),
    )
    assert board.profile == "classic"
    street = board.tiles[1]
    assert (street.mortgage, street.house_price) == (40, 75)
    assert board.tiles[3].rents == (25, 50, 100)
    assert board.tiles[5].rents == (10, 20)
    assert board.tiles[6].percent == 10
    deck = board.decks["CHANCE"]
    assert deck.draw == "random"
    kinds = [c.kind for c in deck.cards]
    assert kinds[:4] == [
        CardKind.GO_TO_JAIL,
        CardKind.NEAREST,
        CardKind.REPAIRS,
        CardKind.ROLL_AGAIN,
    ]
    nearest = deck.cards[1]
    assert (nearest.target, nearest.collect, nearest.rent_multiplier) == (
        TileKind.RAILWAY,
        True,
        2,
    )
    assert nearest.dice_multiplier is None
    assert (deck.cards[2].house, deck.cards[2].hotel) == (25, 100)
    assert (deck.cards[4].position, deck.cards[4].collect) == (7, False)


def test_go_accepted_for_start() -> None:
    assert parse_board(board_xml(settings='<settings balance="1" go="7"/>')).salary == 7
    assert parse_board(board_xml(settings='<settings balance="1" go="7" start="7"/>')).salary == 7
    err = error_of(board_xml(settings='<settings balance="1" go="7" start="8"/>'))
    assert err.element == "settings"


@pytest.mark.parametrize(
    ("settings", "attribute"),
    [
        ('<settings start="100"/>', "balance"),
        ('<settings balance="1000"/>', "start"),
        ('<settings balance="-1" start="100"/>', "balance"),
        ('<settings balance="1.5" start="100"/>', "balance"),
        ('<settings balance="" start="100"/>', "balance"),
        ('<settings balance="10000000000" start="100"/>', "balance"),
        ('<settings balance="1e3" start="100"/>', "balance"),
        ('<settings balance="1_000" start="100"/>', "balance"),
        ('<settings balance="\u0661\u0662" start="100"/>', "balance"),
        ('<settings balance="1000" start="abc"/>', "start"),
    ],
)
def test_bad_settings(settings: str, attribute: str) -> None:
    err = error_of(board_xml(settings=settings))
    assert err.element == "settings"
    assert err.attribute == attribute
    assert err.line == 1


def test_missing_settings() -> None:
    assert error_of(board_xml(settings="")).element == "board"


def _replace(old: str, new: str) -> str:
    text = board_xml()
    assert old in text
    return text.replace(old, new, 1)


@pytest.mark.parametrize(
    ("old", "new", "element", "attribute"),
    [
        ('position="1"', 'position="3"', "tile", "position"),  # duplicate
        ('position="7"', 'position="8"', "tile", "position"),  # out of range
        ('position="1"', 'position="-1"', "tile", "position"),
        ('position="1"', 'position="x"', "tile", "position"),
        ('position="1"', "", "tile", "position"),
        ('type="STREET"', 'type="HOTEL"', "tile", "type"),
        ('type="STREET"', 'type="street"', "tile", "type"),
        ('id="t.s1"', 'id=""', "tile", "id"),
        ('area="a1"', 'area="nowhere"', "tile", "area"),
        ('cost="60"', 'cost="-60"', "tile", "cost"),
        ('cost="60"', "", "tile", "cost"),
        ('rent0="2"', "", "tile", "rent0"),
        ('rent1="10"', 'rent2="10"', "tile", "rent1"),
        ('rent1="10"', 'rent1="-10"', "tile", "rent1"),
        ('rent1="10"', 'rent01="10"', "tile", "rent01"),
        ('rent="25"', "", "tile", "rent"),
        ('rent="25"', 'rent="25" rents="30,60"', "tile", "rent"),
        ('rent="25"', 'rents="25,,50"', "tile", "rents"),
        ('cost="150"', "", "tile", "cost"),
        ('amount="100"', "", "tile", "amount"),
        ('amount="100"', 'amount="100" percent="101"', "tile", "percent"),
        ('type="START"', 'type="FREE_PARKING"', "tile", "type"),  # no START
        ('type="CHANCE"', 'type="START"', "tile", "type"),  # two STARTs
        ('type="CHANCE"', 'type="JAIL"', "tile", "type"),  # two JAILs
        ('type="JAIL"', 'type="FREE_PARKING"', "tile", "type"),  # GO_TO_JAIL without JAIL
        ('color="#ff0000"', "", "area", "color"),
        ('color="#ff0000"', 'color="red;x:url(y)"', "area", "color"),
        ('house="50"', 'house="cheap"', "area", "house"),
    ],
)
def test_bad_tiles(old: str, new: str, element: str, attribute: str) -> None:
    err = error_of(_replace(old, new))
    assert (err.element, err.attribute) == (element, attribute)
    assert err.line is not None
    assert f"test.xml:{err.line}: <{element}>" in str(err)


def test_position_gap_and_too_few_tiles() -> None:
    text = board_xml().replace('<tile type="GO_TO_JAIL" position="7" id="t.gtj"/>', "")
    err = error_of(text)  # 7 tiles
    assert err.element == "tiles"
    tiles = "".join(
        f'<tile type="{"START" if i == 0 else "FREE_PARKING"}" position="{i}" id="t{i}"/>'
        for i in (0, 1, 2, 3, 4, 5, 6, 8)
    )
    err = error_of(board_xml(tiles))
    assert (err.element, err.attribute) == ("tile", "position")


def test_tiles_missing_or_doubled() -> None:
    assert error_of("<board><settings balance='1' start='1'/></board>").element == "board"
    text = board_xml().replace("</tiles>", "</tiles><tileViews/>")
    assert error_of(text).element == "tileViews"


def test_unknown_child_in_tiles() -> None:
    assert error_of(_replace('<tile type="JAIL"', '<tlie type="JAIL"')).element == "tlie"


def test_duplicate_area() -> None:
    areas = '<area id="a1" color="red"/><area id="a1" color="blue"/>'
    err = error_of(board_xml(areas=areas))
    assert (err.element, err.attribute) == ("area", "id")


def test_root_must_be_board() -> None:
    assert error_of(board_xml(root="<plank>").replace("</board>", "</plank>")).element == "plank"


def deck(cards: str, attrs: str = 'type="CHANCE"') -> str:
    return f"<deck {attrs}>{cards}</deck>"


@pytest.mark.parametrize(
    ("decks", "element", "attribute"),
    [
        (deck('<card type="JAIL" id="c1"/>', 'type="LUCK"'), "deck", "type"),
        (deck('<card type="JAIL" id="c1"/>', ""), "deck", "type"),
        (deck('<card type="JAIL" id="c1"/>', 'type="CHANCE" draw="often"'), "deck", "draw"),
        (deck(""), "deck", None),
        (deck('<card type="JAIL" id="c1"/>') * 2, "deck", "type"),
        (deck('<card type="WIN" id="c1"/>'), "card", "type"),
        (deck('<card type="JAIL"/>'), "card", "id"),
        (deck('<card type="JAIL" id="c1"/><card type="JAIL" id="c1"/>'), "card", "id"),
        (
            deck('<card type="JAIL" id="c1"/>')
            + deck('<card type="JAIL" id="c1"/>', 'type="CHEST"'),
            "card",
            "id",
        ),
        (deck('<card type="MOVE" position="8" collect="true" id="c"/>'), "card", "position"),
        (deck('<card type="MOVE" position="-1" collect="true" id="c"/>'), "card", "position"),
        (deck('<card type="MOVE" collect="true" id="c"/>'), "card", "position"),
        (deck('<card type="MOVE" position="1" collect="yes" id="c"/>'), "card", "collect"),
        (deck('<card type="MOVE" position="1" id="c"/>'), "card", "collect"),
        (deck('<card type="MOVEREL" id="c"/>'), "card", "relative"),
        (deck('<card type="MOVEREL" relative="1.0" id="c"/>'), "card", "relative"),
        (deck('<card type="MONEY" id="c"/>'), "card", "amount"),
        (deck('<card type="PLAYERS_MONEY" amount="--5" id="c"/>'), "card", "amount"),
        (deck('<card type="NEAREST" kind="CHANCE" collect="true" id="c"/>'), "card", "kind"),
        (deck('<card type="NEAREST" collect="true" id="c"/>'), "card", "kind"),
        (
            deck('<card type="NEAREST" kind="UTILITY" collect="true" diceMultiplier="0" id="c"/>'),
            "card",
            "diceMultiplier",
        ),
        (deck('<card type="REPAIRS" house="25" id="c"/>'), "card", "hotel"),
    ],
)
def test_bad_decks(decks: str, element: str, attribute: str | None) -> None:
    err = error_of(board_xml(decks=decks))
    assert (err.element, err.attribute) == (element, attribute)


def test_nearest_needs_target_kind_on_board() -> None:
    text = _replace('<tile type="UTILITY" position="5" id="t.u1" cost="150"/>', "")
    text = text.replace("</tiles>", '<tile type="FREE_PARKING" position="5" id="t.fp"/></tiles>')
    assert parse_board(text).size == 8
    card = '<card type="NEAREST" kind="UTILITY" collect="true" diceMultiplier="10" id="c"/>'
    err = error_of(text.replace("</board>", deck(card) + "</board>"))
    assert (err.element, err.attribute) == ("card", "kind")


def test_go_to_jail_card_needs_jail() -> None:
    text = _replace('type="JAIL"', 'type="FREE_PARKING"').replace(
        'type="GO_TO_JAIL"', 'type="TAX" amount="1"'
    )
    assert parse_board(text).jail_position is None
    err = error_of(text.replace("</board>", deck('<card type="GO_TO_JAIL" id="c"/>') + "</board>"))
    assert (err.element, err.attribute) == ("card", "type")


def test_numbers_with_whitespace_and_sign() -> None:
    board = parse_board(_replace('cost="60"', 'cost=" +60 "'))
    assert board.tiles[1].cost == 60
    board = parse_board(board_xml(decks=deck('<card type="MONEY" amount=" -0050" id="c"/>')))
    assert board.decks["CHANCE"].cards[0].amount == -50


def test_error_line_numbers() -> None:
    text = board_xml().replace("><", ">\n<").replace('cost="150"', 'cost="free"')
    err = error_of(text)
    assert err.line is not None
    assert 'cost="free"' in text.splitlines()[err.line - 1]


# --------------------------------------------------------------------------- hostile XML


BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE lolz [
  <!ENTITY lol "lol">
  <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
  <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<board><settings balance="&lol4;" start="1"/></board>
"""

EXTERNAL_ENTITY = """<?xml version="1.0"?>
<!DOCTYPE board [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<board><settings balance="1" start="1"/><x>&xxe;</x></board>
"""

EXTERNAL_DTD = """<?xml version="1.0"?>
<!DOCTYPE board SYSTEM "http://example.invalid/board.dtd">
<board/>
"""


@pytest.mark.parametrize("text", [BILLION_LAUGHS, EXTERNAL_ENTITY, EXTERNAL_DTD])
def test_hostile_xml_refused(text: str, tmp_path: Path) -> None:
    with pytest.raises(BoardError):
        parse_board(text)
    path = tmp_path / "evil.xml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BoardError) as info:
        load_board(path)
    assert info.value.file == str(path)


@pytest.mark.parametrize(
    "text",
    ["", "not xml", "<board>", "<board></board", "<?xml version='1.0'?>", "<a/><b/>", "\x00"],
)
def test_malformed_xml(text: str) -> None:
    err = error_of(text)
    assert err.file == "test.xml"


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(BoardError) as info:
        load_board(tmp_path / "absent.xml")
    assert "absent.xml" in str(info.value)
    with pytest.raises(BoardError):
        load_board(tmp_path)  # a directory


def test_bad_file_encoding(tmp_path: Path) -> None:
    path = tmp_path / "b.xml"
    path.write_bytes(board_xml().replace("t.start", "t.st\u00e9rt").encode("latin-1"))
    with pytest.raises(BoardError):
        load_board(path)
    declared = '<?xml version="1.0" encoding="ISO-8859-1"?>\n' + board_xml().replace(
        "t.start", "t.st\u00e9rt"
    )
    path.write_bytes(declared.encode("latin-1"))
    with pytest.warns(BoardWarning):  # no .properties beside it
        assert load_board(path).tiles[0].id == "t.stért"
    path.write_bytes(b'<?xml version="1.0" encoding="klingon"?><board/>')
    with pytest.raises(BoardError):
        load_board(path)


def test_unreadable_names_file(tmp_path: Path) -> None:
    with pytest.raises(BoardError) as info:
        load_board(fixtures_dir() / "ugentopoly.xml", names={"en": tmp_path / "absent"})
    assert "absent" in str(info.value)
    with pytest.raises(BoardError):
        load_board(fixtures_dir() / "ugentopoly.xml", encoding="no-such-codec")


def test_wrong_argument_types() -> None:
    with pytest.raises(BoardError):
        parse_board(b"<board/>")  # type: ignore[arg-type]
    with pytest.raises(BoardError):
        load_board(42)  # type: ignore[arg-type]
    with pytest.raises(BoardError):
        load_bundled(None)  # type: ignore[arg-type]
