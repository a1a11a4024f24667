"""Board files: the course XML + ``.properties`` format, read, checked and written (and the
immutable :class:`~.board.Board` they load into). Imports nothing from the rest of the engine but
its errors."""
