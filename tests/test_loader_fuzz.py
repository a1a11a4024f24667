"""Garbled board files: only BoardError may escape, and harmless changes still load."""

from __future__ import annotations

import functools
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

from conftest import fixtures_dir
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ugentopoly_widget.engine.boards.board import Board
from ugentopoly_widget.engine.boards.loader import load_board, parse_board
from ugentopoly_widget.engine.boards.properties import parse_properties
from ugentopoly_widget.engine.errors import BoardError

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@functools.cache
def course_text(name: str = "ugentopoly.xml") -> str:
    text: str = (fixtures_dir() / name).read_text("utf-8")
    return text


def course_tree() -> ET.Element:
    return ET.fromstring(course_text())


def all_elements(root: ET.Element) -> list[tuple[ET.Element | None, ET.Element]]:
    """(parent, element) for every element, the root with parent None."""
    result: list[tuple[ET.Element | None, ET.Element]] = [(None, root)]
    for parent in root.iter():
        result.extend((parent, child) for child in parent)
    return result


def attributes(root: ET.Element) -> list[tuple[ET.Element, str]]:
    return [(elem, name) for _, elem in all_elements(root) for name in elem.attrib]


def load(text: str) -> Board | None:
    """The board, or None when the loader refused it with a BoardError."""
    try:
        board = parse_board(text, file="fuzz.xml")
    except BoardError as exc:
        assert exc.file == "fuzz.xml"
        assert str(exc)
        return None
    assert isinstance(board, Board)
    return board


def _optional(elem: ET.Element, name: str) -> bool:
    if elem.tag == "area" and name == "house":
        return True
    if elem.tag == "tile" and elem.get("type") == "STREET":
        if name == "area":
            return True
        rents = [int(n[4:]) for n in elem.attrib if re.fullmatch(r"rent\d+", n)]
        return name == f"rent{max(rents)}" and max(rents) > 0
    return False


@FUZZ
@given(st.data())
def test_drop_attribute(data: st.DataObject) -> None:
    root = course_tree()
    elem, name = data.draw(st.sampled_from(attributes(root)))
    optional = _optional(elem, name)
    del elem.attrib[name]
    board = load(ET.tostring(root, encoding="unicode"))
    if optional:
        assert board is not None, (elem.tag, name)
    else:
        assert board is None, (elem.tag, dict(elem.attrib), name)


JUNK = st.one_of(
    st.text(max_size=20),
    st.sampled_from(["", " ", "-1", "1.5", "1e9", "0x10", "99999999999", "+", "--1", "NaN"]),
    st.integers(min_value=-(10**12), max_value=10**12).map(str),
)


@FUZZ
@given(st.data(), JUNK)
def test_replace_value_with_junk(data: st.DataObject, junk: str) -> None:
    root = course_tree()
    elem, name = data.draw(st.sampled_from(attributes(root)))
    elem.set(name, junk)
    load(ET.tostring(root, encoding="unicode"))


AMOUNT_ATTRS = re.compile(r"cost|rent\d*|amount|balance|start|house")


@FUZZ
@given(
    st.data(),
    st.integers(min_value=0, max_value=10**9),
    st.sampled_from(["{}", " {} ", "+{}", "\t{}\n", "000{}"]),
)
def test_valid_numbers_still_load(data: st.DataObject, value: int, form: str) -> None:
    root = course_tree()
    choices = [
        (elem, name)
        for elem, name in attributes(root)
        if AMOUNT_ATTRS.fullmatch(name) and elem.tag in ("tile", "area", "settings")
    ]
    elem, name = data.draw(st.sampled_from(choices))
    elem.set(name, form.format(value))
    board = load(ET.tostring(root, encoding="unicode"))
    assert board is not None
    if elem.tag == "settings":
        assert value in (board.balance, board.salary)


@FUZZ
@given(st.data())
def test_delete_element(data: st.DataObject) -> None:
    root = course_tree()
    parent, elem = data.draw(st.sampled_from(all_elements(root)[1:]))
    assert parent is not None
    parent.remove(elem)
    board = load(ET.tostring(root, encoding="unicode"))
    if elem.tag in ("card", "deck"):
        assert board is not None  # decks are optional; no deck here has only one card
    elif elem.tag in ("tile", "settings", "tiles"):
        assert board is None
    if elem.tag == "area" and board is not None:
        assert elem.get("id") not in board.areas


@FUZZ
@given(st.data())
def test_duplicate_element(data: st.DataObject) -> None:
    root = course_tree()
    parent, elem = data.draw(st.sampled_from(all_elements(root)[1:]))
    assert parent is not None
    parent.insert(list(parent).index(elem), elem)
    board = load(ET.tostring(root, encoding="unicode"))
    if elem.tag in ("tile", "card", "area", "settings", "deck", "tiles", "areas"):
        assert board is None


@FUZZ
@given(st.data(), st.binary(min_size=1, max_size=30))
def test_insert_random_bytes(data: st.DataObject, junk: bytes) -> None:
    raw = course_text().encode("utf-8")
    offset = data.draw(st.integers(min_value=0, max_value=len(raw)))
    garbled = raw[:offset] + junk + raw[offset:]
    load(garbled.decode("latin-1"))
    load(garbled.decode("utf-8", "replace"))


@FUZZ
@given(st.data(), st.text(max_size=15))
def test_replace_text_span(data: st.DataObject, junk: str) -> None:
    text = course_text("ugentopoly.deel1.xml")
    start = data.draw(st.integers(min_value=0, max_value=len(text)))
    end = data.draw(st.integers(min_value=start, max_value=min(len(text), start + 20)))
    load(text[:start] + junk + text[end:])


@FUZZ
@given(st.text(max_size=200))
def test_random_properties_text(text: str) -> None:
    try:
        result = parse_properties(text)
    except BoardError:
        return
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in result.items())


def test_random_bytes_files(tmp_path: Path) -> None:
    @settings(max_examples=60, deadline=None)
    @given(st.binary(max_size=300))
    def check(data: bytes) -> None:
        path = tmp_path / "random.xml"
        path.write_bytes(data)
        try:
            load_board(path)
        except BoardError as exc:
            assert exc.file == str(path)

    check()


def test_mutated_files_on_disk(tmp_path: Path) -> None:
    raw = (fixtures_dir() / "ugentopoly.xml").read_bytes()
    shutil.copy(fixtures_dir() / "ugentopoly.properties", tmp_path)

    @settings(max_examples=60, deadline=None)
    @given(st.integers(min_value=0, max_value=len(raw) - 1), st.integers(0, 255))
    def check(offset: int, byte: int) -> None:
        path = tmp_path / "ugentopoly.xml"
        path.write_bytes(raw[:offset] + bytes([byte]) + raw[offset + 1 :])
        try:
            board = load_board(path)
        except BoardError:
            return
        assert board.size == 40
        assert board.text("tile.street01") == "S22"

    check()
