"""Python side of the board UX (issue 9): what the view narrates, whether undo is possible,
refusals in plain words, net worth over the game, the static picture in the display bundle and
in an HTML export. No browser: the comm is a dummy outside a kernel."""

from __future__ import annotations

import base64
import json
import re

import pytest
import traitlets

from ugentopoly_widget import UgentopolyWidget
from ugentopoly_widget.widget.errors import plain_error


def _ugentopoly(**kwargs: object) -> UgentopolyWidget:
    return UgentopolyWidget("ugentopoly", players=["Ann", "Bob"], seed=3, **kwargs)  # type: ignore[arg-type]


def test_last_action_is_narrated_compactly() -> None:
    w = _ugentopoly()
    assert "last" not in w.state  # a new game: nothing to narrate
    g = w.game
    p = g.decision.player
    g.testing.script_dice((3, 4))
    g.testing.stack_deck("CHANCE", ["card.chance.06"])  # collect 20
    w.roll()
    last = w.state["last"]
    assert last["actor"] == p
    assert last["dice"] == [3, 4]
    assert last["moves"] == [[p, 0, 7, 7, "dice"]]
    assert last["money"] == [[p, 20]]
    assert last["card"]["id"] == "card.chance.06" and last["card"]["deck"] == "CHANCE"
    assert "course notes" in last["card"]["text"]
    assert last["turn_passed"] is True  # Ugentopoly ends the turn by itself
    w.lang = "nl"  # a new state without a new action narrates nothing
    assert "last" not in w.state


def test_explicit_end_turn_is_not_a_turn_that_passed_by_itself() -> None:
    w = UgentopolyWidget("classic", players=["Ann", "Bob"], seed=1)
    w.game.testing.script_dice((1, 2))
    w.roll()
    w.decline()
    while w.game.decision.kind == "auction":
        w.pass_()
    w.end_turn()
    assert "turn_passed" not in w.state["last"]


def test_undo_state_and_game_can_undo() -> None:
    w = UgentopolyWidget("classic", players=["Ann", "Bob"], seed=1)
    g = w.game
    assert g.can_undo() is False and w.state["can_undo"] is False
    g.testing.script_dice((1, 2))
    w.roll()
    assert g.can_undo() is False and w.state["can_undo"] is False  # a roll is never undone
    w.buy()
    assert g.can_undo() is True and w.state["can_undo"] is True
    w.undo()
    assert "last" not in w.state  # undo is not narrated as a new action
    assert g.can_undo() is False and w.state["can_undo"] is False
    with pytest.raises(Exception, match="cannot undo"):
        g.undo()


def test_refusals_in_plain_words_both_languages() -> None:
    w = UgentopolyWidget("classic", players=["Ann", "Bob"], seed=1)
    me = w.game.decision.player
    w._on_msg(
        w,
        {
            "type": "act",
            "seq": w.state["seq"],
            "action": {
                "type": "propose_trade",
                "player": me,
                "partner": 1 - me,
                "give": {"properties": [], "cash": 0, "cards": []},
                "get": {"properties": [], "cash": 0, "cards": []},
            },
        },
    )
    err = w.error
    assert "refused" in err["message"]  # the full message stays for programmers (w.errors)
    assert err["text"]["en"] == "Choose something to give or to get before you send the offer."
    assert err["text"]["nl"].startswith("Kies iets")
    assert err["quiet"] is False
    w._on_msg(
        w, {"type": "act", "seq": w.state["seq"] - 1, "action": {"type": "roll", "player": me}}
    )
    assert w.error["quiet"] is True  # a double click's second request: dropped quietly
    generic = plain_error("0:roll refused: something nobody foresaw. Decision: ...")
    assert generic["text"]["en"] == "That is not possible right now."
    assert plain_error("bot error: KeyError: 3")["text"]["en"] == "bot error: KeyError: 3"


def test_net_worth_history_only_when_over_and_per_turn() -> None:
    w = UgentopolyWidget("cell22", players=["Ann", "Bob"], seed=4)
    w.play_bots(5, everyone="heuristic")
    assert "history" not in w.state  # not sent on every action
    w.play_bots(None, everyone="heuristic")
    assert w.game.is_over
    rows = w.state["history"]
    turns = [r[0] for r in rows]
    assert turns == sorted(set(turns)) and len(rows) > 10
    assert all(len(r) == 3 for r in rows)
    final = rows[-1]
    assert final[1:] == [w.game.valuation(i) for i in range(2)]  # the ranking figure
    assert len(json.dumps(rows)) < 20_000


def test_state_bytes_per_action_stay_small() -> None:
    w = _ugentopoly()
    w.play_bots(20, everyone="heuristic")
    sizes = []
    for _ in range(20):
        if w.game.is_over:
            break
        action = w._bot_action("heuristic")
        assert action is not None
        w.game.apply(action)
        sizes.append(len(json.dumps(w.state.get("last", {}))))
    assert max(sizes) < 600, sizes  # the narration adds a few hundred bytes at most


def test_display_bundle_carries_the_board_picture() -> None:
    w = _ugentopoly()
    data, _meta = w._repr_mimebundle_()
    assert data["text/plain"] == "UgentopolyWidget(ugentopoly, 2 players, turn 1, turn)"
    assert "application/vnd.jupyter.widget-view+json" in data
    svg = data["image/svg+xml"]
    assert svg.startswith("<svg") and 'class="ugentopoly-board"' in svg
    again = _ugentopoly()._repr_mimebundle_()[0]
    assert again["image/svg+xml"] == svg and again["text/plain"] == data["text/plain"]
    lobby = UgentopolyWidget.open_lobby()._repr_mimebundle_()[0]
    assert "image/svg+xml" not in lobby and lobby["text/plain"] == "UgentopolyWidget(lobby)"


def test_turn_pause_is_validated() -> None:
    w = _ugentopoly(turn_pause=0)
    assert w.turn_pause == 0
    with pytest.raises(traitlets.TraitError):
        w.turn_pause = -1


@pytest.mark.parametrize("keep_state", [False, True])
def test_html_export_shows_the_board_picture(keep_state: bool) -> None:
    """nbconvert --to html: the picture when no widget state is saved (JupyterLab's default);
    with saved state, ClearMetadataPreprocessor (documented in the README) brings it back."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nbconvert = pytest.importorskip("nbconvert")
    from traitlets.config import Config

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nb.cells = [
        nbformat.v4.new_code_cell(
            "from ugentopoly_widget import UgentopolyWidget\n"
            'w = UgentopolyWidget("ugentopoly", players=["Ann", "Bob"], seed=1)\nw'
        )
    ]
    nbclient.NotebookClient(nb, timeout=120, store_widget_state=keep_state).execute()
    assert ("widgets" in nb.metadata) == keep_state
    config = Config()
    if keep_state:
        config.ClearMetadataPreprocessor.enabled = True
    html, _ = nbconvert.HTMLExporter(config=config).from_notebook_node(nb)
    pictures = re.findall(r'src="data:image/svg\+xml;base64,([^"]+)"', html)
    boards = [p for p in pictures if b"ugentopoly-board" in base64.b64decode(p)]
    assert len(boards) == 1
