"""The named errors of the engine. Nothing else escapes the public API on bad input."""

from __future__ import annotations


class UgentopolyError(Exception):
    """Base class of every error the package raises on purpose."""


class BoardError(UgentopolyError, ValueError):
    """A board or properties file is malformed. Names the file, element and attribute."""

    def __init__(
        self,
        message: str,
        *,
        file: str = "<string>",
        element: str | None = None,
        attribute: str | None = None,
        line: int | None = None,
    ) -> None:
        self.file = file
        self.element = element
        self.attribute = attribute
        self.line = line
        where = file
        if line is not None:
            where += f":{line}"
        if element is not None:
            where += f": <{element}>"
        if attribute is not None:
            where += f" attribute '{attribute}'"
        super().__init__(f"{where}: {message}")
        self.message = message


class SetupError(UgentopolyError, ValueError):
    """A game cannot be created with these players, options or board."""


class BotError(SetupError):
    """An unknown bot name, or a bot level that cannot play here (the rollout level without
    numpy and pandas, as on the browser site): names the level and what it needs."""


class ScenarioError(SetupError):
    """A scenario (``Game.scenario``) describes a position the rules cannot reach: names the
    field and what is wrong."""


class InvalidActionError(UgentopolyError, ValueError):
    """An action is malformed: unknown type, wrong field types, out-of-range numbers."""


class IllegalActionError(UgentopolyError, ValueError):
    """A well-formed action that is not legal now. The game is left exactly as it was."""

    def __init__(self, message: str, *, action: object = None, player: str | None = None,
                 phase: str | None = None) -> None:
        self.action = action
        self.player = player
        self.phase = phase
        super().__init__(message)


class UndoError(UgentopolyError):
    """There is no decision to undo (or undoing would cross a dice roll or card draw)."""


class SaveFileError(UgentopolyError, ValueError):
    """A save file is damaged or was edited, malformed, too large, or of an unknown version.

    Its digest protects against damage and casual edits, not against a determined editor."""


class BoardWarning(UserWarning):
    """A board loads, but something a person would want is missing (its display names)."""
