"""Refusals in plain words for the people at the board (en/nl).

The engine's messages are written for programmers ("0:propose_trade 1 give - 0 ... refused: an
empty trade. Decision: Ann's 'post_roll'; legal now: ..."): exact, but not what a player should
read. The view shows ``plain_error(message)`` instead and keeps the full message in ``w.errors``.
A stale request (a double click raced the previous answer) is marked ``quiet``: nothing went
wrong, the view drops it.
"""

from __future__ import annotations

import re
from typing import Any

# (pattern on the engine's reason, English, Dutch); groups fill {0}, {1}, ...
_REASONS: tuple[tuple[str, str, str], ...] = (
    (r"an empty trade",
     "Choose something to give or to get before you send the offer.",
     "Kies iets om te geven of te krijgen voor je het voorstel verstuurt."),
    (r"(.+) has only (\d+)",
     "{0} has only {1} in cash.",
     "{0} heeft maar {1} aan geld."),
    (r"a property is named twice",
     "A property is on both sides of the offer.",
     "Een eigendom staat aan beide kanten van het voorstel."),
    (r"(.+) does not own a property at (\d+)",
     "{0} does not own that property (any more).",
     "{0} bezit dat eigendom niet (meer)."),
    (r"the group of (\d+) has buildings: sell them first",
     "Sell the buildings of that colour group before trading it.",
     "Verkoop eerst de gebouwen van die kleurgroep voor je ze ruilt."),
    (r"(.+) has no card",
     "{0} does not have that card.",
     "{0} heeft die kaart niet."),
    (r"the partner must be another player",
     "Choose another player to trade with.",
     "Kies een andere speler om mee te ruilen."),
    (r"the partner is out of the game",
     "That player is out of the game.",
     "Die speler is uit het spel."),
    (r"a trade can be offered only in your own turn",
     "You can offer a trade only in your own turn.",
     "Je kunt alleen in je eigen beurt een ruil voorstellen."),
    (r"trading is not part of these rules",
     "These rules have no trading.",
     "Deze regels kennen geen ruilen."),
    (r"a bid must be between (\d+) and (\d+)",
     "A bid must be between {0} and {1}.",
     "Een bod ligt tussen {0} en {1}."),
    (r"it is not this player's decision",
     "It is not your move right now.",
     "Je bent nu niet aan zet."),
    (r"a bot plays this seat",
     "A bot plays this seat.",
     "Een bot speelt deze plaats."),
    (r"nothing to undo",
     "There is nothing to undo.",
     "Er is niets om ongedaan te maken."),
    (r"it rolled dice, drew a card or was the clock",
     "A dice roll or a card cannot be taken back.",
     "Een worp of een kaart kan niet ongedaan gemaakt worden."),
    (r"the name '(.+)' is taken",
     "The name {0} is taken: every player needs a name of their own.",
     "De naam {0} is al gekozen: elke speler heeft een eigen naam nodig."),
    (r"the token '(.+)' is already taken by (.+?):",
     "The {0} token is already taken by {1}: choose another token.",
     "De pion {0} is al gekozen door {1}: kies een andere pion."),
    (r"cannot show the probabilities|probability panels turned off",
     "The odds cannot be worked out for this board (w.errors says why).",
     "De kansen kunnen voor dit bord niet berekend worden (w.errors zegt waarom)."),
    (r"no game has started",
     "No game has started yet.",
     "Er is nog geen spel gestart."),
)
_COMPILED = tuple((re.compile(p), en, nl) for p, en, nl in _REASONS)
_REASON = re.compile(r"refused: (.*?)(?:\. Decision: |$)", re.S)
_GENERIC = ("That is not possible right now.", "Dat kan nu niet.")


def plain_error(message: str) -> dict[str, Any]:
    """``{"text": {"en", "nl"}, "quiet": bool}`` for an engine or request refusal."""
    if "stale request" in message:
        return {"text": {"en": "", "nl": ""}, "quiet": True}
    # the engine's reason sits between "refused: " and ". Decision: ..."
    found = _REASON.search(message)
    reason = found.group(1) if found else message
    for pattern, en, nl in _COMPILED:
        m = pattern.search(reason)
        if m:
            groups = [g for g in m.groups() if g is not None]
            return {"text": {"en": en.format(*groups), "nl": nl.format(*groups)},
                    "quiet": False}
    if "refused" in message:
        return {"text": {"en": _GENERIC[0], "nl": _GENERIC[1]}, "quiet": False}
    # not a refusal (a bot's or a callback's error, say): the message itself is the news
    return {"text": {"en": message, "nl": message}, "quiet": False}
