"""A Griffe extension for the API reference (mkdocs.yml): docstrings read as Markdown.

- Doctest examples (bare ``>>>`` lines; tests/test_doctests.py runs them) become ``pycon``
  code blocks: as plain Markdown ``[...][:2]`` in them reads as a link to nothing.
- Sphinx roles (``:class:`Game```, ``:meth:`step```) become code.
"""

from __future__ import annotations

import re
from typing import Any

import griffe


def fence_doctests(text: str) -> str:
    """Wrap each run of ``>>>`` lines and their output (up to a blank line) in a pycon fence,
    unless it is fenced already."""
    out: list[str] = []
    fenced = False
    inside = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("```"):
            fenced = not fenced
        if not fenced and not inside and stripped.startswith(">>>"):
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{indent}```pycon")
            inside = True
        elif inside and not stripped:
            out.append(f"{indent}```")
            inside = False
        out.append(line)
    if inside:
        out.append(f"{indent}```")
    return "\n".join(out)


_ROLE = re.compile(r":(?:class|meth|func|mod|attr|data|exc|obj):`~?([^`]+)`")


class DoctestFences(griffe.Extension):
    def on_object(self, *, obj: griffe.Object, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        if obj.docstring is None:
            return
        text = _ROLE.sub(r"`\1`", obj.docstring.value)
        obj.docstring.value = fence_doctests(text) if ">>>" in text else text
