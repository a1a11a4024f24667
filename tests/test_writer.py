"""Boards written back to XML read in again as the same board."""

from __future__ import annotations

import dataclasses

import pytest
from conftest import fixtures_dir

from ugentopoly_widget import Game
from ugentopoly_widget.engine.boards.loader import load_board, load_bundled, parse_board
from ugentopoly_widget.engine.boards.writer import board_to_xml
from ugentopoly_widget.engine.bots import RandomBot


def same_board(a: object, b: object) -> None:
    for name in ("balance", "salary", "tiles", "profile"):
        assert getattr(a, name) == getattr(b, name), name
    assert dict(a.areas) == dict(b.areas)  # type: ignore[attr-defined]
    assert dict(a.decks) == dict(b.decks)  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", ["ugentopoly", "classic", "cell22"])
def test_bundled_boards_round_trip(name: str) -> None:
    board = load_bundled(name)
    same_board(parse_board(board_to_xml(board)), board)


@pytest.mark.parametrize("file", ["ugentopoly.xml", "ugentopoly.deel1.xml"])
def test_course_boards_round_trip(file: str) -> None:
    board = load_board(fixtures_dir() / file)
    same_board(parse_board(board_to_xml(board)), board)


def test_a_board_built_in_code_can_be_saved_and_loaded() -> None:
    base = load_bundled("classic")
    tiles = tuple(
        dataclasses.replace(t, cost=t.cost + 1) if t.is_property else t for t in base.tiles
    )
    board = dataclasses.replace(base, tiles=tiles, source="<code>", xml_text="",
                                name="tweaked")
    game = Game("classic", board=board, players=2, seed=5)
    for _ in range(60):
        game.apply(RandomBot(seed=1).choose(game))
    loaded = Game.from_json(game.to_json())
    assert loaded.digest() == game.digest()
    assert loaded.board.tiles[1].cost == 61
    assert loaded.board.tile_name(39) == "Boardwalk"
