"""The examples in the engine's docstrings run and give what they show."""

from __future__ import annotations

import ast
import doctest
import importlib
from pathlib import Path
from types import ModuleType

import pytest

MODULES = [
    "ugentopoly_widget.engine.game",
    "ugentopoly_widget.engine.bots",
    "ugentopoly_widget.engine.strong.words",
    "ugentopoly_widget.engine.records.landings",
]


def _run(module: ModuleType) -> doctest.TestResults:
    result = doctest.testmod(module)
    path = Path(module.__file__ or "")
    if result.attempted or path.suffix == ".py":
        return result
    # A compiled module (mypyc) hides its docstrings from doctest: run the module docstring of
    # its .py source against the compiled module's namespace.
    text = ast.get_docstring(ast.parse(path.with_name(module.__name__.rpartition(".")[2]
                                                      + ".py").read_text())) or ""
    test = doctest.DocTestParser().get_doctest(text, dict(vars(module)), module.__name__,
                                               str(path), 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    return runner.summarize(verbose=False)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = _run(importlib.import_module(name))
    assert result.attempted > 0
    assert result.failed == 0
