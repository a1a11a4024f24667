"""The examples in the engine's docstrings run and give what they show."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "ugentopoly_widget.engine.game",
    "ugentopoly_widget.engine.bots",
    "ugentopoly_widget.engine.landings",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0
    assert result.failed == 0
