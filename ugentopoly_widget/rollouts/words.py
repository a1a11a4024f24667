"""The words of the rollouts, in English and Dutch: a choice named (``"buy Boardwalk"``), a
choice made (``"Ann declined Boardwalk"``), a swing in points (``"-6 ± 2 points"``).

>>> from ugentopoly_widget import Game
>>> from ugentopoly_widget.engine.actions import Decline
>>> game = Game("classic", players=["Ann", "Bob"])
>>> made(game, Decline(0), {"position": 39}, "en")
'Ann declined Boardwalk'
>>> swing_line(game, Decline(0), {"position": 39}, -0.061, 0.018, "nl")
'Ann kocht Boardwalk niet: −6 ± 2 punten'
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ..engine import actions as A
from ..engine.actions import Action
from ..engine.game import Game

LANGS = ("en", "nl")

# kind -> (lang -> (a choice named, a choice made)); {p} the player, {tile}, {amount} ...
PHRASES: dict[str, dict[str, tuple[str, str]]] = {
    "roll": {"en": ("roll", "{p} rolled"), "nl": ("gooien", "{p} gooide")},
    "buy": {"en": ("buy {tile}", "{p} bought {tile}"),
            "nl": ("{tile} kopen", "{p} kocht {tile}")},
    "decline": {"en": ("decline {tile}", "{p} declined {tile}"),
                "nl": ("{tile} niet kopen", "{p} kocht {tile} niet")},
    "bid": {"en": ("bid {amount} on {tile}", "{p} bid {amount} on {tile}"),
            "nl": ("{amount} bieden op {tile}", "{p} bood {amount} op {tile}")},
    "pass": {"en": ("drop out of the auction for {tile}", "{p} dropped out of the auction "
                    "for {tile}"),
             "nl": ("uit de veiling voor {tile} stappen", "{p} stapte uit de veiling voor "
                    "{tile}")},
    "end_turn": {"en": ("end the turn", "{p} ended the turn"),
                 "nl": ("de beurt beëindigen", "{p} beëindigde de beurt")},
    "pay_fine": {"en": ("pay the jail fine", "{p} paid the jail fine"),
                 "nl": ("de boete betalen", "{p} betaalde de boete")},
    "use_card": {"en": ("use the get-out-of-jail card", "{p} used the get-out-of-jail card"),
                 "nl": ("de kaart 'verlaat de gevangenis' gebruiken",
                        "{p} gebruikte de kaart 'verlaat de gevangenis'")},
    "tax_flat": {"en": ("pay the fixed tax", "{p} paid the fixed tax"),
                 "nl": ("het vaste bedrag betalen", "{p} betaalde het vaste bedrag")},
    "tax_percent": {"en": ("pay the percentage", "{p} paid the percentage"),
                    "nl": ("het percentage betalen", "{p} betaalde het percentage")},
    "build": {"en": ("build on {tile}", "{p} built on {tile}"),
              "nl": ("bouwen op {tile}", "{p} bouwde op {tile}")},
    "sell": {"en": ("sell a building on {tile}", "{p} sold a building on {tile}"),
             "nl": ("een gebouw op {tile} verkopen", "{p} verkocht een gebouw op {tile}")},
    "sell_down": {"en": ("sell the {area} group down to level {level}",
                         "{p} sold the {area} group down to level {level}"),
                  "nl": ("de groep {area} afbouwen tot niveau {level}",
                         "{p} bouwde de groep {area} af tot niveau {level}")},
    "mortgage": {"en": ("mortgage {tile}", "{p} mortgaged {tile}"),
                 "nl": ("een hypotheek nemen op {tile}", "{p} nam een hypotheek op {tile}")},
    "unmortgage": {"en": ("lift the mortgage on {tile}", "{p} lifted the mortgage on {tile}"),
                   "nl": ("de hypotheek op {tile} aflossen",
                          "{p} loste de hypotheek op {tile} af")},
    "lift": {"en": ("lift the mortgage on {tile} now", "{p} lifted the mortgage on {tile}"),
             "nl": ("de hypotheek op {tile} nu aflossen", "{p} loste de hypotheek op {tile} af")},
    "keep": {"en": ("keep {tile} mortgaged (pay 10 %)", "{p} kept {tile} mortgaged"),
             "nl": ("de hypotheek op {tile} houden (10 % betalen)",
                    "{p} hield de hypotheek op {tile}")},
    "place": {"en": ("put the house on {tile}", "{p} put the house on {tile}"),
              "nl": ("het huis op {tile} zetten", "{p} zette het huis op {tile}")},
    "propose_trade": {"en": ("offer {partner} a trade", "{p} offered {partner} a trade"),
                      "nl": ("{partner} een ruil voorstellen", "{p} stelde {partner} een ruil "
                             "voor")},
    "accept": {"en": ("accept the trade", "{p} accepted the trade"),
               "nl": ("de ruil aanvaarden", "{p} aanvaardde de ruil")},
    "reject": {"en": ("reject the trade", "{p} rejected the trade"),
               "nl": ("de ruil weigeren", "{p} weigerde de ruil")},
    "bankrupt": {"en": ("declare bankruptcy", "{p} declared bankruptcy"),
                 "nl": ("failliet gaan", "{p} ging failliet")},
}
POINTS = {"en": "points", "nl": "punten"}
NO_WINNER = {"en": "no winner yet", "nl": "nog geen winnaar"}


def _lang(lang: str) -> str:
    return lang if lang in LANGS else "en"


def _fields(game: Game, action: Action, context: Mapping[str, Any] | None, lang: str
            ) -> tuple[str, dict[str, Any]]:
    kind = action.type
    if isinstance(action, A.ChooseTax):
        kind = f"tax_{action.choice}"
    data = dict(context if context is not None else game.decision.data)
    pos = getattr(action, "position", None)
    if pos is None:
        pos = data.get("position")
    board = game.board
    tile = board.tile_name(pos, lang) if isinstance(pos, int) and 0 <= pos < board.size \
        else ("een huis" if lang == "nl" else "a house")
    fields: dict[str, Any] = {"p": _name(game, action.player), "tile": tile,
                              "amount": getattr(action, "amount", ""),
                              "area": getattr(action, "area", ""),
                              "level": getattr(action, "level", "")}
    if isinstance(action, A.ProposeTrade):
        fields["partner"] = _name(game, action.partner)
    return kind, fields


def _name(game: Game, player: int) -> str:
    return game.players[player].name if 0 <= player < len(game.players) else str(player)


def describe_action(game: Game, action: Action, lang: str = "en",
                    context: Mapping[str, Any] | None = None) -> str:
    """A choice named: ``"buy Boardwalk"`` / ``"Boardwalk kopen"`` (`context`: the decision's
    data when the action was taken, default the current decision's)."""
    lang = _lang(lang)
    kind, fields = _fields(game, action, context, lang)
    phrase = PHRASES.get(kind)
    return phrase[lang][0].format(**fields) if phrase else str(action)


def made(game: Game, action: Action, context: Mapping[str, Any] | None = None,
         lang: str = "en") -> str:
    """A choice made: ``"Ann declined Boardwalk"``."""
    lang = _lang(lang)
    kind, fields = _fields(game, action, context, lang)
    phrase = PHRASES.get(kind)
    return phrase[lang][1].format(**fields) if phrase else str(action)


def points(delta: float, se: float, lang: str = "en") -> str:
    """``"−6 ± 2 points"``: a change of a probability in percentage points (a true minus)."""
    value = round(100 * delta)
    sign = "+" if value > 0 else "−" if value < 0 else "±"
    spread = "?" if not math.isfinite(se) else f"{max(round(100 * se), 0)}"
    body = f"{sign}{abs(value)}" if value else "0"
    return f"{body} ± {spread} {POINTS[_lang(lang)]}"


def swing_line(game: Game, action: Action, context: Mapping[str, Any] | None, delta: float,
               se: float, lang: str = "en") -> str:
    """The log's swing line: ``"Ann declined Boardwalk: −6 ± 2 points"``."""
    return f"{made(game, action, context, lang)}: {points(delta, se, lang)}"


__all__ = ["describe_action", "made", "points", "swing_line", "PHRASES", "NO_WINNER"]
