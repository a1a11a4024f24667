"""The SVG picture of a board (engine/render/svg.py)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from ugentopoly_widget.engine.boards.loader import parse_board
from ugentopoly_widget.engine.game import Game
from ugentopoly_widget.engine.render.svg import board_svg

NS = "{http://www.w3.org/2000/svg}"

SMALL_BOARD = """<board>
  <settings balance="1500" start="200"/>
  <areas><area id="a1" color="#8b4513" house="50"/></areas>
  <tiles>
    <tile type="START" position="0" id="tile.start"/>
    <tile type="STREET" position="1" id="tile.s1" area="a1" cost="60" rent0="2"/>
    <tile type="STREET" position="2" id="tile.s2" area="a1" cost="70" rent0="4"/>
    <tile type="CHEST" position="3" id="tile.chest"/>
    <tile type="JAIL" position="4" id="tile.jail"/>
    <tile type="RAILWAY" position="5" id="tile.rail" cost="200" rent="25"/>
    <tile type="UTILITY" position="6" id="tile.util" cost="150"/>
    <tile type="TAX" position="7" id="tile.tax" amount="100"/>
  </tiles>
</board>"""


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def with_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def tile(root: ET.Element, pos: int) -> ET.Element:
    (found,) = [e for e in with_class(root, "tile") if e.get("data-pos") == str(pos)]
    return found


def text_of(elem: ET.Element) -> str:
    return " ".join(
        "".join(t.itertext()) for t in elem.iter() if t.tag in (f"{NS}text", f"{NS}tspan")
    )


def do(game: Game, kind: str, position: int | None = None) -> None:
    """Apply the legal action of this type (and position)."""
    for action in game.legal_actions():
        if action.type == kind and (position is None or getattr(action, "position", None) ==
                                    position):
            game.apply(action)
            return
    raise AssertionError(f"no legal {kind} {position}: {game.legal_actions()}")


def small_game(name: str = "A & <B>") -> Game:
    board = parse_board(SMALL_BOARD, names={"en": {"tile.s1": name, "board.name": "Mini"}})
    # the small board has no free parking: its taxes go to the bank
    return Game("ugentopoly", board=board, players=2, seed=3,
                options={"free_parking_pot": False})


@pytest.mark.parametrize(
    ("profile", "players", "size"), [("ugentopoly", 2, 40), ("classic", 4, 40), ("cell22", 3, 22)]
)
def test_parses_with_one_group_per_tile(profile: str, players: int, size: int) -> None:
    game = Game(profile, players=players, seed=1)
    svg = board_svg(game)
    root = parse(svg)
    assert root.tag == f"{NS}svg"
    assert root.get("width") == "640"
    tiles = with_class(root, "tile")
    assert len(tiles) == size == game.board.size
    assert sorted(int(t.get("data-pos", "-1")) for t in tiles) == list(range(size))
    # Self-contained: no scripts, no links, no external references, no ids to clash.
    assert not any(e.tag in (f"{NS}script", f"{NS}image", f"{NS}a") for e in root.iter())
    assert "href" not in svg and "url(" not in svg and " id=" not in svg
    # Everyone starts on position 0.
    tokens = with_class(tile(root, 0), "token")
    assert len(tokens) == players
    assert game._repr_svg_() == svg


def test_ring_sizes_from_8_up() -> None:
    for n in (8, 9, 10, 11, 13, 22, 40, 61):
        tiles = "".join(
            f'<tile type="CHANCE" position="{k}" id="tile.c{k}"/>' for k in range(1, n)
        )
        text = (
            '<board><settings balance="100" start="10"/><tiles>'
            f'<tile type="START" position="0" id="tile.start"/>{tiles}</tiles></board>'
        )
        game = Game("ugentopoly", board=parse_board(text), players=2, seed=1,
                    options={"max_doubles": None})  # no jail on these rings
        root = parse(board_svg(game))
        tiles_found = with_class(root, "tile")
        assert len(tiles_found) == n
        # The tiles do not overlap and stay inside the picture.
        rects = []
        for g in tiles_found:
            bg = next(e for e in g if e.get("class") == "bg")
            x, y = float(bg.get("x", 0)), float(bg.get("y", 0))
            w, h = float(bg.get("width", 0)), float(bg.get("height", 0))
            assert x >= 0 and x + w <= 1000.01 and y >= 0 and y + h <= 1000.01
            rects.append((x, y, w, h))
        for i, (x1, y1, w1, h1) in enumerate(rects):
            for x2, y2, w2, h2 in rects[i + 1:]:
                overlap_x = min(x1 + w1, x2 + w2) - max(x1, x2)
                overlap_y = min(y1 + h1, y2 + h2) - max(y1, y2)
                assert overlap_x < 0.2 or overlap_y < 0.2


def test_names_are_escaped() -> None:
    game = small_game()
    svg = board_svg(game)
    assert "A &amp; &lt;B&gt;" in svg
    assert "<B>" not in svg
    root = parse(svg)
    assert "A & <B>" in text_of(tile(root, 1))
    assert "Mini" in text_of(root)


def test_player_names_and_colours_are_safe() -> None:
    game = Game(
        "classic",
        players=[{"name": "<Eve & co>", "colour": 'url(http://x/"y")'}, "Bob"],
        seed=2,
    )
    svg = board_svg(game)
    root = parse(svg)
    assert "&lt;Eve &amp; co&gt;" in svg
    assert "http://x" not in svg
    assert len(with_class(root, "tile")) == 40


def test_long_names_wrap_and_line_breaks() -> None:
    long_name = "Averyveryverylongwordthatcannotfit and then many more words to shorten"
    game = small_game(long_name)
    root = parse(board_svg(game))
    name = next(e for e in tile(root, 1).iter(f"{NS}text") if e.get("class") == "name")
    assert len(list(name)) >= 2  # several lines
    # The full name stays in the tooltip.
    assert long_name in "".join(tile(root, 1).find(f"{NS}title").itertext())  # type: ignore
    game = Game("ugentopoly", players=2, seed=1, lang="nl")  # "Ga direct naar\nhet Blokkot"
    go_to_jail = tile(parse(board_svg(game)), 30)
    lines = [
        "".join(t.itertext()) for t in go_to_jail.iter(f"{NS}tspan")
    ]
    assert lines[-1] == "het Blokkot"
    assert "\n" not in "".join(lines)


def test_owners_houses_tokens_after_play() -> None:
    game = Game("classic", players=3, seed=1)
    p = game.current_player
    game.testing.script_dice((1, 2))
    game.apply(game.legal_actions()[0])  # roll: to position 3
    assert game.players[p].position == 3
    root = parse(board_svg(game))
    assert [int(t.get("data-player", -1)) for t in with_class(tile(root, 3), "token")] == [p]
    # Unowned: the price shows.
    assert "$60" in text_of(tile(root, 3))
    do(game, "buy")
    game.testing.give_property(p, 1)
    game.testing.set_cash(p, 3000)
    for _ in range(4):
        do(game, "build", 1)
        do(game, "build", 3)
    do(game, "build", 1)  # hotel
    game.testing.give_property(p, 5)
    do(game, "mortgage", 5)
    root = parse(board_svg(game))
    for pos in (1, 3, 5):
        (marker,) = with_class(tile(root, pos), "owner")
        assert marker.get("data-owner") == str(p)
        assert "$" not in text_of(tile(root, pos))  # owned: no price
    colour = game.players[p].colour
    assert any(e.get("fill") == colour for e in with_class(tile(root, 1), "owner")[0].iter())
    assert len(with_class(tile(root, 1), "hotel")) == 1
    assert len(with_class(tile(root, 1), "house")) == 0
    assert len(with_class(tile(root, 3), "house")) == 4
    assert len(with_class(tile(root, 5), "mortgaged")) == 1
    assert not with_class(tile(root, 3), "mortgaged")
    token = with_class(tile(root, 3), "token")[0]
    assert token.find(f"{NS}circle").get("fill") == colour  # type: ignore[union-attr]
    letter = game.players[p].token[0].upper()
    assert "".join(token.find(f"{NS}text").itertext()) == letter  # type: ignore[union-attr]


def test_tokens_on_one_tile_are_spread() -> None:
    game = Game("classic", players=8, seed=1)
    root = parse(board_svg(game))
    circles = [
        (float(c.get("cx", 0)), float(c.get("cy", 0)))
        for t in with_class(tile(root, 0), "token")
        for c in t.iter(f"{NS}circle")
    ]
    assert len(circles) == 8
    assert len(set(circles)) == 8


def test_jail_tokens_and_cell22_houses() -> None:
    game = Game("cell22", players=3, seed=1)
    game.testing.send_to_jail(1)
    root = parse(board_svg(game))
    jail = game.board.jail_position
    assert jail is not None
    assert [t.get("data-player") for t in with_class(tile(root, jail), "token")] == ["1"]
    assert "Campus 22" in text_of(root)


def test_centre_shows_turn_pot_and_dice() -> None:
    game = Game("ugentopoly", players=["Ann", "Bob"], seed=7)
    game.testing.script_dice((2, 5))
    who = game.players[game.current_player].name
    game.apply(game.legal_actions()[0])
    root = parse(board_svg(game))
    text = text_of(root)
    assert "Ugentopoly" in text
    assert f"Pot: \u20ac{game.pot}" in text
    dice = with_class(root, "dice")
    assert len(dice) == 1
    assert len(with_class(dice[0], "die")) == 2
    # 2 + 5 pips
    assert len([c for c in dice[0].iter(f"{NS}circle")]) == 7
    current = game.players[game.current_player].name
    assert f"Turn: {current}" in text
    assert who in text


def test_heat_overlay() -> None:
    game = Game("classic", players=2, seed=1)
    heat = [float(k % 7) for k in range(40)]
    root = parse(board_svg(game, heat=heat))
    overlays = with_class(root, "heat")
    assert len(overlays) == 40
    assert {o.get("fill") for o in overlays} >= {"#ffffb2", "#bd0026"}
    assert with_class(root, "heat-legend")
    assert not with_class(parse(board_svg(game)), "heat")
    with pytest.raises(ValueError):
        board_svg(game, heat=[1.0, 2.0])
    flat = parse(board_svg(game, heat=[3.0] * 40))
    assert len(with_class(flat, "heat")) == 40


def test_language_and_width() -> None:
    game = Game("ugentopoly", players=2, seed=1)
    english = text_of(parse(board_svg(game)))
    dutch_root = parse(board_svg(game, lang="nl", width=300))
    dutch = text_of(dutch_root)
    assert "Blokkot" in dutch and "Blokkot" not in english
    assert "Aan de beurt" in dutch
    assert dutch_root.get("width") == "300"
    assert "Start academiejaar" in text_of(tile(dutch_root, 0))
    assert "Blokkot" in text_of(parse(board_svg(Game("ugentopoly", players=2, seed=1,
                                                        lang="nl"))))


def test_game_over_and_bankrupt() -> None:
    game = Game("cell22", players=2, seed=4)
    for _ in range(3000):
        if game.is_over:
            break
        game.apply(game.legal_actions()[0])
    root = parse(board_svg(game))
    assert len(with_class(root, "tile")) == 22
    if game.is_over:
        assert "Game over" in text_of(root)

