"""Java .properties semantics."""

from __future__ import annotations

from pathlib import Path

import pytest

from ugentopoly_widget.engine.boards.properties import parse_properties, read_properties
from ugentopoly_widget.engine.errors import BoardError


def test_separators_and_whitespace() -> None:
    text = "a=1\nb:2\nc 3\n  d  =  4  \ne\t:\t5\nf  =\n g\n h = = x\ni  :=y\n"
    assert parse_properties(text) == {
        "a": "1",
        "b": "2",
        "c": "3",
        "d": "4  ",
        "e": "5",
        "f": "",
        "g": "",
        "h": "= x",
        "i": "=y",
    }


def test_comments_and_blank_lines() -> None:
    text = "# comment\n! also\n   # indented comment\n\n   \nkey=value # not a comment\n"
    assert parse_properties(text) == {"key": "value # not a comment"}


def test_comment_does_not_continue() -> None:
    assert parse_properties("# comment \\\nkey=value\n") == {"key": "value"}


def test_escapes() -> None:
    text = r"a=tab\there\nnew\rcr\fff\\back\q" + "\n" + r"b=\u00e9\u00C9\u20ac"
    assert parse_properties(text) == {
        "a": "tab\there\nnew\rcr\fff\\backq",
        "b": "éÉ€",
    }


def test_escaped_separators_in_key() -> None:
    text = r"a\=b\:c\ d=value" + "\n" + r"\#notcomment=1" + "\n"
    assert parse_properties(text) == {"a=b:c d": "value", "#notcomment": "1"}


def test_continuation() -> None:
    text = "key = first \\\n      second\\\n\tthird\nnext=1\n"
    assert parse_properties(text) == {"key": "first secondthird", "next": "1"}


def test_even_backslashes_do_not_continue() -> None:
    assert parse_properties("a=x\\\\\nb=y\n") == {"a": "x\\", "b": "y"}
    assert parse_properties("a=x\\\\\\\nb=y\n") == {"a": "x\\b=y"}


def test_continuation_line_starting_with_hash_is_not_a_comment() -> None:
    assert parse_properties("a=1\\\n  #2\n") == {"a": "1#2"}


def test_continuation_onto_empty_line_ends_value() -> None:
    assert parse_properties("a=1\\\n\nb=2") == {"a": "1", "b": "2"}


def test_continuation_at_end_of_file() -> None:
    assert parse_properties("a=1\\") == {"a": "1"}


def test_line_endings() -> None:
    assert parse_properties("a=1\r\nb=2\rc=3\n") == {"a": "1", "b": "2", "c": "3"}


def test_only_java_line_terminators() -> None:
    # \x85 and \u2028 are not line breaks for Java.
    assert parse_properties("a=1\x852\u20283\n") == {"a": "1\x852\u20283"}


def test_later_keys_override() -> None:
    assert parse_properties("a=1\na=2\n") == {"a": "2"}


def test_key_only() -> None:
    assert parse_properties("lonely\n") == {"lonely": ""}


def test_surrogate_pair() -> None:
    assert parse_properties(r"a=\ud83d\ude00") == {"a": "\U0001f600"}


@pytest.mark.parametrize("bad", [r"a=\u12", r"a=\u12G4", r"a=\uXYZW", "a=\\u"])
def test_malformed_unicode_escape(bad: str) -> None:
    with pytest.raises(BoardError) as info:
        parse_properties("ok=1\n" + bad + "\n", file="x.properties")
    assert info.value.file == "x.properties"
    assert info.value.line == 2


def test_read_iso_8859_1(tmp_path: Path) -> None:
    path = tmp_path / "names.properties"
    path.write_bytes("caf\u00e9=Caf\u00e9 \\u00e9t\\u00E9\n".encode("iso-8859-1"))
    assert read_properties(path) == {"café": "Café été"}
    assert read_properties(str(path)) == {"café": "Café été"}


def test_read_utf8(tmp_path: Path) -> None:
    path = tmp_path / "names.properties"
    path.write_bytes("\ufeffa=\u00e9\n".encode())
    assert read_properties(path, encoding="utf-8") == {"a": "é"}


def test_read_bad_encoding(tmp_path: Path) -> None:
    path = tmp_path / "names.properties"
    path.write_bytes(b"a=1\nb=\xff\n")
    with pytest.raises(BoardError) as info:
        read_properties(path, encoding="utf-8")
    assert info.value.line == 2
    with pytest.raises(BoardError):
        read_properties(path, encoding="no-such-codec")


def test_read_missing_file(tmp_path: Path) -> None:
    with pytest.raises(BoardError) as info:
        read_properties(tmp_path / "absent.properties")
    assert "absent.properties" in str(info.value)


def test_malformed_escape_in_file_names_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.properties"
    path.write_bytes(b"# c\n\na=\\uZZZZ\n")
    with pytest.raises(BoardError) as info:
        read_properties(path)
    assert info.value.file == str(path)
    assert info.value.line == 3
