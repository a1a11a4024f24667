"""The layers hold: each module's imports, read from its source, stay inside what its room may use.

The rooms (docs/engine.md, "Rooms"): the engine imports only itself; its board-file room only
itself and the engine's errors; records and render nothing from the widget; the analysis layer
(every package beside the engine, the widget and the bundled board data) the engine and itself,
never the widget. The old flat module paths still import, as the same module objects.
"""

from __future__ import annotations

import ast
import importlib
import warnings
from pathlib import Path

import pytest

import ugentopoly_widget
from ugentopoly_widget import _moved

PACKAGE = "ugentopoly_widget"
ROOT = Path(ugentopoly_widget.__file__).parent


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> set[str]:
    return imports_in(path.read_text(), module_name(path), path.name == "__init__.py")


def imports_in(source: str, name: str, is_package: bool) -> set[str]:
    """Every module of the package a source imports, at any depth (lazy imports included)."""
    package = name if is_package else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.add(target)
            # `from . import deals`: the names may be modules themselves
            found.update(f"{target}.{alias.name}" for alias in node.names)
    return {m for m in found if m == PACKAGE or m.startswith(PACKAGE + ".")}


def known(module: str) -> bool:
    """Whether a dotted name is a module or package of the checkout (not a name inside one)."""
    rel = Path(*module.split(".")[1:])
    return (ROOT / rel).with_suffix(".py").is_file() or (ROOT / rel / "__init__.py").is_file()


MODULES = {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}
TOP_ROOMS = {name.split(".")[1] for name in MODULES if name.count(".") >= 1}
NOT_ANALYSIS = {"engine", "widget", "boards", "static", "classroom"}
ANALYSIS = sorted(room for room in TOP_ROOMS
                  if room not in NOT_ANALYSIS and (ROOT / room / "__init__.py").is_file())


def room_imports(prefix: str) -> dict[str, set[str]]:
    return {name: {m for m in imports_of(path) if known(m)}
            for name, path in MODULES.items()
            if name == prefix or name.startswith(prefix + ".")}


def breaches(prefix: str, allowed: tuple[str, ...],
             imports: dict[str, set[str]] | None = None) -> list[str]:
    out = []
    for name, targets in (room_imports(prefix) if imports is None else imports).items():
        for target in sorted(targets):
            if not any(target == a or target.startswith(a + ".") for a in allowed):
                out.append(f"{name} imports {target}")
    return out


def test_the_rooms_exist() -> None:
    for room in ("engine", "engine.boards", "engine.records", "engine.render", "widget",
                 "probability", "simulation"):
        assert known(f"{PACKAGE}.{room}"), room
    assert "probability" in ANALYSIS and "simulation" in ANALYSIS


def test_each_rooms_init_says_what_it_is_for() -> None:
    for path in ROOT.rglob("__init__.py"):
        doc = ast.get_docstring(ast.parse(path.read_text()))
        assert doc and len(doc.splitlines()[0]) > 20, f"{path} opens with no purpose line"


def test_the_engine_imports_only_itself() -> None:
    assert breaches(f"{PACKAGE}.engine", (f"{PACKAGE}.engine",)) == []


def test_board_files_import_only_themselves_and_the_errors() -> None:
    allowed = (f"{PACKAGE}.engine.boards", f"{PACKAGE}.engine.errors")
    assert breaches(f"{PACKAGE}.engine.boards", allowed) == []


@pytest.mark.parametrize("room", ["engine.records", "engine.render", "engine.boards"])
def test_engine_rooms_never_import_the_widget(room: str) -> None:
    for name, targets in room_imports(f"{PACKAGE}.{room}").items():
        assert not any(t.startswith(f"{PACKAGE}.widget") for t in targets), name


@pytest.mark.parametrize("room", ANALYSIS)
def test_the_analysis_layer_imports_the_engine_never_the_widget(room: str) -> None:
    allowed = (f"{PACKAGE}.engine", *(f"{PACKAGE}.{r}" for r in ANALYSIS))
    # the package root only for its lazy names (e.g. `from ugentopoly_widget import simulate` in
    # a docstring-free __init__), never for the widget
    found = [b for b in breaches(f"{PACKAGE}.{room}", allowed) if not b.endswith(f" {PACKAGE}")]
    assert found == []


def test_nothing_but_the_command_line_imports_the_classroom() -> None:
    """The classroom (issue 34) sits above the widget: the engine, the analysis layer and the
    widget never import it (only ``python -m ugentopoly_widget classroom`` does, lazily)."""
    for room in ("engine", "widget", *ANALYSIS):
        for name, targets in room_imports(f"{PACKAGE}.{room}").items():
            assert not any(t.startswith(f"{PACKAGE}.classroom") for t in targets), name
    root = {m for m in imports_of(ROOT / "__init__.py") if known(m)}
    assert not any(m.startswith(f"{PACKAGE}.classroom") for m in root)
    assert "classroom" not in ANALYSIS and known(f"{PACKAGE}.classroom")


def test_the_checker_sees_a_breach() -> None:
    """A lazy widget import inside a records module is caught (the checks can fail)."""
    source = "def f():\n    from ...widget import game_widget\n    from .. import core\n"
    name = f"{PACKAGE}.engine.records.events"
    found = {m for m in imports_in(source, name, False) if known(m)}
    assert f"{PACKAGE}.widget.game_widget" in found and f"{PACKAGE}.engine.core" in found
    assert breaches(f"{PACKAGE}.engine", (f"{PACKAGE}.engine",), {name: found}) == [
        f"{name} imports {PACKAGE}.widget", f"{name} imports {PACKAGE}.widget.game_widget"]


@pytest.mark.parametrize("old", sorted(_moved.MOVED))
def test_the_flat_layouts_paths_still_import(old: str) -> None:
    new = importlib.import_module(_moved.MOVED[old])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        import sys

        sys.modules.pop(old, None)
        module = importlib.import_module(old)
    assert module is new
    assert any(issubclass(w.category, DeprecationWarning) and _moved.MOVED[old] in str(w.message)
               for w in caught)


def test_board_svg_at_its_documented_old_path() -> None:
    from ugentopoly_widget import Game
    from ugentopoly_widget.engine.render.svg import board_svg

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from ugentopoly_widget.engine.svg import board_svg as old_board_svg  # type: ignore
    assert old_board_svg is board_svg
    assert board_svg(Game("ugentopoly", players=2, seed=1)).startswith("<svg")
