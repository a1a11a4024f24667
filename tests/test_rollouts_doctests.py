"""The examples in the docstrings of the rollouts, the scenario builder, the position copies
and the widget's live win chances run and give what they show."""

from __future__ import annotations

import doctest
import importlib

import pytest

from ugentopoly_widget.widget import UgentopolyWidget

MODULES = [
    "ugentopoly_widget.engine.scenario",
    "ugentopoly_widget.engine.records.positions",
    "ugentopoly_widget.rollouts.streams",
    "ugentopoly_widget.rollouts.stats",
    "ugentopoly_widget.rollouts.words",
    "ugentopoly_widget.rollouts.chances",
    "ugentopoly_widget.rollouts.values",
    "ugentopoly_widget.rollouts.trades",
    "ugentopoly_widget.rollouts.bot",
    "ugentopoly_widget.rollouts.live",
    "ugentopoly_widget.widget.win_chances",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name),
                             extraglobs={"UgentopolyWidget": UgentopolyWidget})
    assert result.attempted > 0
    assert result.failed == 0
