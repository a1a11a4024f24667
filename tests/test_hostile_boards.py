"""Hostile and careless board files: empty areas, missing tile kinds, unbounded or special files,
duplicate ids, odd encodings, and the mistakes a newcomer makes first (issue 6, items 3-8)."""

from __future__ import annotations

import os
import shutil
import threading
import tracemalloc
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import fixtures_dir
from helpers import custom_board

from ugentopoly_widget import Game
from ugentopoly_widget.engine import actions as A
from ugentopoly_widget.engine.boards.loader import load_board, parse_board
from ugentopoly_widget.engine.boards.properties import read_properties
from ugentopoly_widget.engine.bots import RandomBot
from ugentopoly_widget.engine.errors import BoardError, SaveFileError, SetupError

MB = 1_000_000


def play(game: Game, actions: int = 300, seed: int = 1) -> None:
    bot = RandomBot(seed=seed)
    for _ in range(actions):
        if game.is_over:
            return
        game.apply(bot.choose(game))


# ---------------------------------------------------------------- item 3: an area without streets


def test_an_area_no_street_uses_does_not_break_a_classic_game() -> None:
    board = custom_board("classic", ('<area id="brown"', '<area id="ghost" color="#123456" '
                                     'house="50"/>\n        <area id="brown"'))
    assert board.areas["ghost"].positions == ()
    game = Game("classic", players=3, seed=2, board=board)
    p = game.current_player
    game.testing.place(p, 0)
    game.testing.script_dice((1, 2))  # Baltic Avenue
    game.apply(A.Roll(p))
    game.apply(A.Buy(p))
    assert game.owner(3) == p
    assert A.Mortgage(p, 3) in game.legal_actions()  # listing the legal actions works
    assert not game.is_legal(A.SellDown(p, "ghost", 0))
    play(game, 400)


# ---------------------------------------------------------------- item 4: tile kinds a rule needs


NO_JAIL = """<board>
  <settings balance="1500" start="200"/>
  <areas><area id="a1" color="#8b4513" house="50"/></areas>
  <tiles>
    <tile type="START" position="0" id="t.start"/>
    <tile type="STREET" position="1" id="t.s1" area="a1" cost="60" rent0="2" rent1="10"/>
    <tile type="STREET" position="2" id="t.s2" area="a1" cost="60" rent0="4" rent1="20"/>
    <tile type="CHANCE" position="3" id="t.chance"/>
    <tile type="RAILWAY" position="4" id="t.r1" cost="200" rent="25"/>
    <tile type="FREE_PARKING" position="5" id="t.park"/>
    <tile type="UTILITY" position="6" id="t.u1" cost="150"/>
    <tile type="TAX" position="7" id="t.tax" amount="100"/>
  </tiles>
</board>"""


@pytest.mark.parametrize("profile", ["classic", "ugentopoly"])
def test_three_doubles_rule_needs_a_jail_tile(profile: str) -> None:
    board = parse_board(NO_JAIL, file="nojail.xml")
    with pytest.raises(SetupError) as info:
        Game(profile, players=2, seed=1, board=board)
    text = str(info.value)
    assert "nojail.xml" in text and "JAIL" in text and "doubles" in text
    assert "max_doubles" in text  # how to play the board anyway
    game = Game(profile, players=2, seed=1, board=board, options={"max_doubles": None})
    play(game)


def test_the_22_cell_rules_need_no_jail_without_jail_tiles_or_cards() -> None:
    game = Game("cell22", players=2, seed=1, board=parse_board(NO_JAIL, file="nojail.xml"))
    play(game)


def test_a_get_out_of_jail_card_needs_a_jail_tile() -> None:
    deck = '<deck type="CHANCE"><card type="JAIL" id="c.free"/></deck></board>'
    with pytest.raises(BoardError) as info:
        parse_board(NO_JAIL.replace("</board>", deck), file="nojail.xml")
    assert info.value.element == "card" and "JAIL tile" in str(info.value)


@pytest.mark.parametrize("profile,options,rule", [
    ("ugentopoly", {}, "free_parking_pot"),
    ("classic", {"free_parking_pot": True}, "free_parking_pot"),
    ("cell22", {}, "car park"),
])
def test_pot_and_car_park_rules_need_a_free_parking_tile(
    profile: str, options: dict[str, Any], rule: str
) -> None:
    text = NO_JAIL.replace('<tile type="FREE_PARKING" position="5" id="t.park"/>',
                           '<tile type="JAIL" position="5" id="t.jail"/>')
    board = parse_board(text, file="nopark.xml")
    with pytest.raises(SetupError) as info:
        Game(profile, players=2, seed=1, board=board, options=options)
    text = str(info.value)
    assert "FREE_PARKING" in text and rule in text and "nopark.xml" in text


def test_classic_without_the_pot_needs_no_free_parking() -> None:
    text = NO_JAIL.replace('<tile type="FREE_PARKING" position="5" id="t.park"/>',
                           '<tile type="JAIL" position="5" id="t.jail"/>')
    play(Game("classic", players=2, seed=1, board=parse_board(text, file="nopark.xml")))


# ---------------------------------------------------------------- item 5: bounded reading


def _sparse(path: Path, size: int) -> Path:
    with open(path, "wb") as handle:
        handle.truncate(size)  # no disk blocks: a hole of `size` zero bytes
    return path


def _peak_during(action: Callable[[], Any]) -> int:
    tracemalloc.start()
    try:
        action()
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak


def _raises_quickly(action: Callable[[], Any], error: type[Exception],
                    unblock: Callable[[], None]) -> Exception:
    """Run `action` in a thread: it must raise `error`, not hang (60 s: a bound on a hang, not
    a speed; it raises at once)."""
    outcome: list[BaseException | None] = []

    def run() -> None:
        try:
            action()
            outcome.append(None)
        except BaseException as exc:  # noqa: BLE001 - handed to the test thread
            outcome.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(timeout=60)
    if worker.is_alive():
        unblock()  # let the blocked reader finish, then fail
        worker.join(timeout=10)
        pytest.fail("reading hung (a FIFO was opened and read)")
    exc = outcome[0]
    assert isinstance(exc, error), exc
    return exc


def _unblock_fifo(path: Path) -> Callable[[], None]:
    def unblock() -> None:
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)
    return unblock


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_fifo_board_file_is_refused_not_read(tmp_path: Path) -> None:
    fifo = tmp_path / "board.xml"
    os.mkfifo(fifo)
    exc = _raises_quickly(lambda: load_board(fifo), BoardError, _unblock_fifo(fifo))
    assert "not a regular file" in str(exc) and "board.xml" in str(exc)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_fifo_properties_file_is_refused_not_read(tmp_path: Path) -> None:
    fifo = tmp_path / "names.properties"
    os.mkfifo(fifo)
    exc = _raises_quickly(
        lambda: load_board(fixtures_dir() / "ugentopoly.xml", names={"en": fifo}),
        BoardError, _unblock_fifo(fifo))
    assert "not a regular file" in str(exc) and "names.properties" in str(exc)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_fifo_save_file_is_refused_not_read(tmp_path: Path) -> None:
    fifo = tmp_path / "game.json"
    os.mkfifo(fifo)
    exc = _raises_quickly(lambda: Game.load(fifo), SaveFileError, _unblock_fifo(fifo))
    assert "not a regular file" in str(exc)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_devices_are_refused_not_read() -> None:
    # not run against the old loader: it read /dev/zero until memory ran out
    with pytest.raises(BoardError, match="not a regular file"):
        load_board("/dev/zero")
    with pytest.raises(BoardError, match="not a regular file"):
        read_properties("/dev/zero")
    with pytest.raises(SaveFileError, match="not a regular file"):
        Game.load("/dev/zero")


def test_a_huge_board_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = _sparse(tmp_path / "huge.xml", 120 * MB)
    with pytest.raises(BoardError, match="too large"):
        load_board(path)
    peak = _peak_during(lambda: pytest.raises(BoardError, load_board, path))
    assert peak < 5 * MB


def test_a_huge_properties_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    shutil.copy(fixtures_dir() / "ugentopoly.xml", tmp_path)
    _sparse(tmp_path / "ugentopoly.properties", 60 * MB)
    with pytest.raises(BoardError) as info:
        load_board(tmp_path / "ugentopoly.xml")
    assert "too large" in str(info.value) and "ugentopoly.properties" in str(info.value)
    peak = _peak_during(lambda: pytest.raises(BoardError, load_board,
                                              tmp_path / "ugentopoly.xml"))
    assert peak < 10 * MB


def test_a_huge_save_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = _sparse(tmp_path / "game.json", 300 * MB)
    with pytest.raises(SaveFileError, match="too large"):
        Game.load(path)
    peak = _peak_during(lambda: pytest.raises(SaveFileError, Game.load, path))
    assert peak < 5 * MB
    with pytest.raises(SaveFileError, match="too large"):
        Game.from_json(" " * (200 * MB))


# ---------------------------------------------------------------- item 7: ids and encodings


def test_duplicate_property_ids_are_refused_naming_both_positions() -> None:
    text = NO_JAIL.replace('id="t.s2"', 'id="t.s1"')
    with pytest.raises(BoardError) as info:
        parse_board(text, file="dup.xml")
    message = str(info.value)
    assert "duplicate tile id 't.s1'" in message and "1" in message and "2" in message
    assert info.value.attribute == "id"
    mixed = NO_JAIL.replace('id="t.tax"', 'id="t.chance"')  # a TAX and a CHANCE share an id
    with pytest.raises(BoardError, match="duplicate tile id 't.chance'"):
        parse_board(mixed, file="dup.xml")


def test_chance_and_chest_tiles_may_share_an_id_as_in_the_course_file() -> None:
    board = load_board(fixtures_dir() / "ugentopoly.xml")
    assert [t.position for t in board.tiles if t.id == "tile.chance"] == [7, 22, 36]


def _names_file(tmp_path: Path, data: bytes) -> Path:
    shutil.copy(fixtures_dir() / "ugentopoly.xml", tmp_path)
    path = tmp_path / "ugentopoly.properties"
    path.write_bytes(data)
    return tmp_path / "ugentopoly.xml"


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be"])
def test_utf16_properties_with_a_byte_order_mark_are_decoded(tmp_path: Path, codec: str) -> None:
    text = (fixtures_dir() / "ugentopoly.properties").read_text("iso-8859-1")
    text += "\ntile.street02 = Overpoortstra\u00dfe \u20ac\n"
    data = text.encode(codec)
    if codec != "utf-16":  # the plain codec writes its own byte order mark
        data = (b"\xff\xfe" if codec.endswith("le") else b"\xfe\xff") + data
    board = load_board(_names_file(tmp_path, data))
    assert board.text("tile.street01") == "S22"
    assert board.text("tile.street02") == "Overpoortstra\u00dfe \u20ac"


def test_utf16_properties_without_a_byte_order_mark_are_refused(tmp_path: Path) -> None:
    text = (fixtures_dir() / "ugentopoly.properties").read_text("iso-8859-1")
    with pytest.raises(BoardError) as info:
        load_board(_names_file(tmp_path, text.encode("utf-16-le")))
    assert "UTF-16" in str(info.value) and "ugentopoly.properties" in str(info.value)


def test_utf8_properties_with_a_byte_order_mark_keep_their_first_key(tmp_path: Path) -> None:
    data = b"\xef\xbb\xbftile.street01 = Caf\xc3\xa9\n"
    board = load_board(_names_file(tmp_path, data))
    assert board.text("tile.street01") == "Caf\u00e9"


# ---------------------------------------------------------------- item 8: newcomers' mistakes


def test_a_board_path_as_the_profile_suggests_the_board_keyword() -> None:
    path = str(fixtures_dir() / "ugentopoly.xml")
    with pytest.raises(SetupError) as info:
        Game(path)
    assert "did you mean Game(board=" in str(info.value)
    with pytest.raises(SetupError, match=r"Game\(board="):
        Game("my_board.xml")
    with pytest.raises(SetupError) as plain:
        Game("monopolyy")
    assert "board=" not in str(plain.value)  # a typo of a profile name gets the usual answer


def test_the_properties_file_as_the_board_says_to_pass_the_xml(tmp_path: Path) -> None:
    with pytest.raises(BoardError) as info:
        load_board(fixtures_dir() / "ugentopoly.properties")
    message = str(info.value)
    assert "pass the .xml" in message and "found" in message
    with pytest.raises(BoardError, match="pass the .xml"):
        Game(board=fixtures_dir() / "ugentopoly.properties")


def test_a_board_without_its_properties_file_warns_naming_the_file(tmp_path: Path) -> None:
    shutil.copy(fixtures_dir() / "ugentopoly.xml", tmp_path)
    with pytest.warns(UserWarning) as caught:
        board = load_board(tmp_path / "ugentopoly.xml")
    message = str(caught[0].message)
    assert "ugentopoly.properties" in message and str(tmp_path) in message
    assert board.text("tile.street01") == "tile.street01"
    shutil.copy(fixtures_dir() / "ugentopoly.properties", tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        load_board(tmp_path / "ugentopoly.xml")  # with its names: no warning


# ---------------------------------------------------------------- endless card chains


@pytest.mark.parametrize("decks", [
    '<deck type="CHANCE"><card type="MOVEREL" relative="0" id="c.stay"/></deck>',
    '<deck type="CHANCE" draw="random"><card type="MOVEREL" relative="4" id="c.on"/></deck>'
    '<deck type="CHEST"><card type="MOVE" position="3" collect="false" id="c.back"/></deck>',
])
def test_a_card_chain_a_board_makes_endless_stops(decks: str) -> None:
    """Found by the generated-boards fuzz: cards that send the token from deck tile to deck
    tile recursed until Python's stack ran out."""
    text = NO_JAIL.replace('<tile type="TAX" position="7" id="t.tax" amount="100"/>',
                           '<tile type="CHEST" position="7" id="t.chest"/>')
    board = parse_board(text.replace("</board>", decks + "</board>"), file="loop.xml")
    game = Game("cell22", players=2, seed=1, board=board)
    p = game.current_player
    game.testing.place(p, 1)
    game.testing.script_dice((1, 1))
    game.apply(A.Roll(p))  # onto the Chance tile at 3
    drawn = [e for e in game.events if e.kind == "card_drawn"]
    assert len(drawn) == 10
    assert [e.kind for e in game.events if e.kind == "card_chain_stopped"]
    assert any("draws no more cards after 10 in a row" in line for line in game.log())
    play(game, 100)
