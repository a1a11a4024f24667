"""Generated board files (extra areas, missing tile kinds, duplicate ids, odd decks), played: a
board is refused with a named error, or it plays a few seeded turns under every profile whose
rules it satisfies with no other exception and every invariant intact."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from invariants import check_state

from ugentopoly_widget import Game
from ugentopoly_widget.engine.boards.loader import parse_board
from ugentopoly_widget.engine.bots import HeuristicBot, RandomBot
from ugentopoly_widget.engine.errors import BoardError, SetupError

KINDS = ["STREET"] * 6 + ["RAILWAY", "RAILWAY", "UTILITY", "TAX", "CHANCE", "CHEST", "JAIL",
                          "GO_TO_JAIL", "FREE_PARKING"]
CARD_KINDS = ["MONEY", "MOVE", "MOVEREL", "PLAYERS_MONEY", "JAIL", "GO_TO_JAIL", "NEAREST",
              "REPAIRS", "ROLL_AGAIN"]


@st.composite
def board_files(draw: st.DrawFn) -> str:
    size = draw(st.integers(8, 24))
    # most boards are tidy (one jail, a free parking, every street in an area, own ids) and
    # so get played; the others are anything at all
    tidy = draw(st.integers(0, 9)) < 7
    used_areas = draw(st.integers(1 if tidy else 0, 4))
    extra_areas = draw(st.integers(0, 3))  # declared, used by no street
    special = draw(st.lists(st.integers(1, size - 1), min_size=2, max_size=2, unique=True))
    areas = "".join(
        f'<area id="a{k}" color="#{k}{k}{k}"'
        + (f' house="{draw(st.integers(0, 200))}"' if draw(st.booleans()) else "") + "/>"
        for k in range(used_areas + extra_areas))
    duplicate_ids = not tidy and draw(st.booleans())
    tiles = []
    for pos in range(size):
        if pos == 0 and (tidy or draw(st.integers(0, 9))):
            kind = "START"
        elif tidy and pos in special:
            kind = "JAIL" if pos == special[0] else "FREE_PARKING"
        elif tidy:
            kind = draw(st.sampled_from([k for k in KINDS if k != "JAIL"]))
        else:
            kind = draw(st.sampled_from(KINDS))
        if kind in ("STREET", "RAILWAY", "UTILITY"):
            tid = f"t.p{draw(st.integers(0, 3)) if duplicate_ids else pos}"
        else:
            tid = f"t.{kind.lower()}"  # same-kind tiles may share an id, as in the course file
        attrs = f'type="{kind}" position="{pos}" id="{tid}"'
        cost = draw(st.integers(0, 400))
        if kind == "STREET":
            attrs += f' cost="{cost}" rent0="{draw(st.integers(0, 60))}"'
            if draw(st.booleans()):
                attrs += f' rent1="{draw(st.integers(0, 200))}" rent2="{draw(st.integers(0, 400))}"'
            if used_areas and (tidy or draw(st.integers(0, 4))):
                attrs += f' area="a{draw(st.integers(0, used_areas - 1))}"'
        elif kind == "RAILWAY":
            attrs += f' cost="{cost}" rent="{draw(st.integers(0, 50))}"'
        elif kind == "UTILITY":
            attrs += f' cost="{cost}"'
        elif kind == "TAX":
            attrs += f' amount="{draw(st.integers(0, 300))}"'
            if draw(st.booleans()):
                attrs += f' percent="{draw(st.integers(0, 100))}"'
        tiles.append(f"<tile {attrs}/>")
    decks = ""
    for deck in ("CHANCE", "CHEST"):
        if not draw(st.booleans()):
            continue
        draw_mode = draw(st.sampled_from(["cycle", "random"]))
        cards = []
        for k in range(draw(st.integers(1, 4))):
            kind = draw(st.sampled_from(CARD_KINDS))
            attrs = f'type="{kind}" id="c.{deck.lower()}.{k}"'
            if kind in ("MONEY", "PLAYERS_MONEY"):
                attrs += f' amount="{draw(st.integers(-300, 300))}"'
            elif kind == "MOVE":
                attrs += (f' position="{draw(st.integers(0, size - 1))}"'
                          f' collect="{draw(st.sampled_from(["true", "false"]))}"')
            elif kind == "MOVEREL":
                attrs += f' relative="{draw(st.integers(-size, size))}"'
            elif kind == "NEAREST":
                attrs += (f' kind="{draw(st.sampled_from(["RAILWAY", "UTILITY"]))}"'
                          f' collect="true" rentMultiplier="2"')
            elif kind == "REPAIRS":
                attrs += f' house="{draw(st.integers(0, 50))}" hotel="{draw(st.integers(0, 150))}"'
            cards.append(f"<card {attrs}/>")
        decks += f'<deck type="{deck}" draw="{draw_mode}">{"".join(cards)}</deck>'
    balance = draw(st.integers(50, 3000))
    salary = draw(st.integers(0, 300))
    return (f'<board><settings balance="{balance}" start="{salary}"/><areas>{areas}</areas>'
            f'<tiles>{"".join(tiles)}</tiles>{decks}</board>')


def play(game: Game, actions: int, seed: int) -> None:
    bots: list[Any] = [HeuristicBot(seed=seed), RandomBot(seed=seed + 1), RandomBot(seed=seed + 2)]
    for _ in range(actions):
        if game.is_over:
            return
        game.apply(bots[game.decision.player or 0].choose(game))
        check_state(game)


@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(text=board_files(), seed=st.integers(0, 2**16))
def test_generated_boards_load_or_are_refused_by_name_and_then_play(text: str, seed: int) -> None:
    try:
        board = parse_board(text, file="generated.xml")
    except BoardError as exc:
        assert exc.file == "generated.xml" and str(exc)
        event("refused by the loader")
        return
    for profile in ("ugentopoly", "classic", "cell22"):
        try:
            game = Game(profile, board=board, players=3, seed=seed,
                        options={"turn_limit": 40})
        except SetupError as exc:
            assert "generated.xml" in str(exc)
            event(f"{profile}: refused at set-up")
            continue
        event(f"{profile}: played")
        play(game, 150, seed)
        str(game)
        game._repr_svg_()
        game.log("nl")
        assert Game.from_json(game.to_json()).digest() == game.digest()
