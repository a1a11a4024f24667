"""Board texts as Java 9 and later read resource bundles (issue 25, item 10): strict UTF-8
first, ISO-8859-1 when the bytes are not valid UTF-8; a byte order mark or an explicit encoding
still decides; the course's files load as before."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import fixtures_dir

from ugentopoly_widget.engine import load_board
from ugentopoly_widget.engine.boards.properties import decode_properties, read_properties
from ugentopoly_widget.engine.errors import BoardError


def write(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "names.properties"
    path.write_bytes(data)
    return path


def test_utf8_without_a_byte_order_mark_is_read_as_utf8(tmp_path: Path) -> None:
    """Before: "Genté" saved as UTF-8 showed as "GentÃ©"."""
    path = write(tmp_path, "tile.start=Gent\u00e9 \u20ac\ncaf\u00e9=\u00fcber\n".encode())
    assert read_properties(path) == {"tile.start": "Genté €", "café": "über"}


def test_bytes_that_are_not_utf8_are_read_as_iso_8859_1(tmp_path: Path) -> None:
    path = write(tmp_path, "tile.start=Gent\u00e9\nb=\\u00e9t\u00e9\n".encode("iso-8859-1"))
    assert read_properties(path) == {"tile.start": "Genté", "b": "été"}


def test_a_byte_order_mark_and_an_explicit_encoding_still_decide(tmp_path: Path) -> None:
    utf8 = "a=Gent\u00e9\n".encode()
    assert read_properties(write(tmp_path, utf8), encoding="iso-8859-1") == {"a": "GentÃ©"}
    assert read_properties(write(tmp_path, "a=\u00e9\n".encode("utf-16")))["a"] == "é"
    assert read_properties(write(tmp_path, b"\xef\xbb\xbfa=\xc3\xa9\n")) == {"a": "é"}
    with pytest.raises(BoardError, match="not valid utf-8"):
        read_properties(write(tmp_path, b"a=\xe9\n"), encoding="utf-8")
    with pytest.raises(BoardError, match="NUL bytes"):
        read_properties(write(tmp_path, "a=1\n".encode("utf-16-le")))
    with pytest.raises(BoardError, match="unknown encoding"):
        decode_properties(b"a=1", "no-such-codec", file="x")


def test_a_board_beside_a_utf8_properties_file_shows_its_names(tmp_path: Path) -> None:
    source = fixtures_dir()
    shutil.copy(source / "ugentopoly.xml", tmp_path / "mine.xml")
    text = (source / "ugentopoly.properties").read_text("ascii")
    key = next(line.split("=", 1)[0].strip() for line in text.splitlines()
               if line.startswith("tile.start"))
    (tmp_path / "mine.properties").write_bytes(f"{text}\n{key}=Gent\u00e9\n".encode())
    board = load_board(tmp_path / "mine.xml")
    assert board.tile_name(0) == "Genté"
    latin = load_board(tmp_path / "mine.xml", encoding="iso-8859-1")
    assert latin.tile_name(0) == "GentÃ©"  # the caller's encoding decides


@pytest.mark.parametrize("name", ["ugentopoly.xml", "ugentopoly.deel1.xml"])
def test_the_course_files_load_unchanged(name: str) -> None:
    path = fixtures_dir() / name
    board = load_board(path)
    as_before = load_board(path, encoding="iso-8859-1")  # what every version read
    assert board.names == as_before.names and board.names
    properties = path.with_name(path.name.replace(".xml", ".properties"))
    assert board.names[""] == read_properties(properties, encoding="iso-8859-1")
