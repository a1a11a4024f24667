"""Pictures and words of a game: the SVG picture, the text form, log lines and narration (en/nl)."""
