"""The examples in the probability layer's docstrings run and give what they show."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "ugentopoly_widget.probability",
    "ugentopoly_widget.probability.api",
    "ugentopoly_widget.probability.dice",
    "ugentopoly_widget.probability.money",
    "ugentopoly_widget.probability.montecarlo",
    "ugentopoly_widget.probability.sampling",
    "ugentopoly_widget.probability.timing",
    "ugentopoly_widget.probability.covering",
    "ugentopoly_widget.probability.games",
    "ugentopoly_widget.probability.lessons",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0
    assert result.failed == 0
