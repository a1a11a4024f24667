"""The documentation site (mkdocs.yml, scripts/docs): built with --strict, it shows every public
name with its docstring, the example notebooks with their outputs, the screenshots and the way
to the browser site; and --strict does fail on a broken reference in a docstring.

The site is built once per session by scripts/docs itself (the Pages workflow runs the same
script). Needs the ``docs`` extra (``pip install -e '.[dev]'`` has it).
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
# The packages whose __all__ is public API: the top level and each room.
PACKAGES = ("ugentopoly_widget", "ugentopoly_widget.engine", "ugentopoly_widget.widget",
            "ugentopoly_widget.probability", "ugentopoly_widget.simulation",
            "ugentopoly_widget.rollouts", "ugentopoly_widget.rl", "ugentopoly_widget.classroom")
# Where each package's names are shown (docs/api/*.md).
PAGES = {"ugentopoly_widget": "api/index.html",
         **{p: f"api/{p.rsplit('.', 1)[1]}/index.html" for p in PACKAGES[1:]}}


def _need_mkdocs() -> None:
    if importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("griffe") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("the docs extra is not installed (pip install -e '.[dev]')")
        pytest.skip("the docs extra is not installed")


def _load() -> Any:
    """The package under REPO as the site's reader (griffe) sees it: by path, not as installed,
    from the sources (a compiled engine's extension modules carry no class docstrings)."""
    import griffe

    return griffe.load(str(REPO / "ugentopoly_widget"), resolve_aliases=True,
                       resolve_external=False, allow_inspection=False)


def _exports() -> dict[str, list[str]]:
    """Each package's __all__, read statically (griffe: what the site reads)."""
    root = _load()
    out = {}
    for name in PACKAGES:
        module = root if name == "ugentopoly_widget" else root[name.split(".", 1)[1]]
        out[name] = [getattr(e, "name", str(e)) for e in module.exports or ()]
    return out


def undocumented() -> dict[str, list[str]]:
    """Per package, the names of its __all__ without a docstring (or not found at all)."""
    import griffe

    root = _load()
    missing: dict[str, list[str]] = {}
    for name in PACKAGES:
        module = root if name == "ugentopoly_widget" else root[name.split(".", 1)[1]]
        for export in module.exports or ():
            member = getattr(export, "name", str(export))
            try:
                obj = module[member]
                target = obj.final_target if obj.is_alias else obj
                doc = target.docstring.value.strip() if target.docstring else ""
            except (KeyError, griffe.AliasResolutionError, griffe.CyclicAliasError) as exc:
                doc, member = "", f"{member} (not found: {type(exc).__name__})"
            if not doc:
                missing.setdefault(name, []).append(member)
    return missing


def test_every_public_name_has_a_docstring() -> None:
    _need_mkdocs()
    exports = _exports()
    assert len(exports["ugentopoly_widget"]) >= 15 and all(exports.values()), exports
    # the lazy top-level names (widget, analysis layer) are visible to the static reader too
    assert {"UgentopolyWidget", "simulate", "landing_distribution"} <= set(
        exports["ugentopoly_widget"])
    assert undocumented() == {}


def test_a_name_without_a_docstring_is_reported(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above can fail: a copy of the package with one docstring removed."""
    _need_mkdocs()
    import shutil

    copy = tmp_path / "ugentopoly_widget"
    shutil.copytree(REPO / "ugentopoly_widget", copy,
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__", "static"))
    rules = copy / "engine" / "rules.py"
    text = rules.read_text()
    docstring = '    """The profile called ``name``'
    assert docstring in text
    start = text.index(docstring)
    end = text.index('"""', start + 8) + 3
    rules.write_text(text[:start] + "    pass" + text[end:])
    monkeypatch.setattr(sys.modules[__name__], "REPO", tmp_path)
    assert undocumented() == {"ugentopoly_widget.engine": ["get_profile"]}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    _need_mkdocs()
    out = tmp_path_factory.mktemp("site")
    res = subprocess.run(["bash", str(REPO / "scripts" / "docs"), str(out)], cwd=REPO,
                         env={**os.environ, "PYTHON": sys.executable}, capture_output=True,
                         text=True, timeout=600)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-6000:]
    return out


def test_site_shows_every_public_name_with_its_docstring(site: Path) -> None:
    for package, names in _exports().items():
        html = (site / PAGES[package]).read_text(encoding="utf-8")
        absent = [n for n in names if f'id="{package}.{n}"' not in html]
        assert not absent, f"{PAGES[package]} lacks {absent}"
    # a docstring's text and a doctest rendered as code (not as a broken link)
    html = (site / "api/engine/index.html").read_text(encoding="utf-8")
    assert "One game of Ugentopoly, classic Monopoly or the 22-cell variant." in html
    assert 'class="language-pycon' in html or "highlight" in html


def test_site_has_guides_examples_screenshots_and_the_browser_site(site: Path) -> None:
    import yaml

    config = yaml.safe_load((REPO / "mkdocs.yml").read_text())
    for guide in ("rules", "engine", "probability", "simulation", "rollouts", "rl", "lite"):
        assert (site / guide / "index.html").is_file(), guide
    notebooks = sorted((REPO / "examples").glob("*.ipynb"))
    assert notebooks
    for nb in notebooks:
        page = site / "examples" / nb.stem / "index.html"
        assert page.is_file(), page
    # stored outputs: the board's picture and printed text of play.ipynb
    play = (site / "examples/play/index.html").read_text(encoding="utf-8")
    assert "<svg" in play and "UgentopolyWidget(ugentopoly, 2 players" in play
    index = (site / "index.html").read_text(encoding="utf-8")
    lite = config["extra"]["lite_url"]
    assert f'href="{lite}"' in index and "Try it in your browser" in index
    assert "pip install ugentopoly_widget" in (REPO / "docs" / "index.md").read_text()
    shots = sorted(p.name for p in (REPO / "docs").glob("screen-*.png"))
    for shot in ("screen-ugentopoly.png", "screen-classic-dark.png", "screen-probability.png"):
        assert shot in shots and f'src="{shot}"' in index
    assert all((site / s).is_file() for s in shots)
    assert (site / "changelog/index.html").is_file()


def _tiny_site(tmp: Path, docstring: str) -> subprocess.CompletedProcess[str]:
    """The site's own plugins and strictness on one page of a one-module package."""
    import yaml

    config: dict[str, Any] = yaml.safe_load((REPO / "mkdocs.yml").read_text())
    (tmp / "docs").mkdir(parents=True)
    (tmp / "docs" / "index.md").write_text("# API\n\n::: tinypkg\n")
    (tmp / "tinypkg.py").write_text(
        '"""A package for the test."""\n\n\ndef play() -> None:\n'
        + textwrap.indent(f'"""{docstring}"""\n', "    "))
    handler = config["plugins"][2]["mkdocstrings"]["handlers"]["python"]
    handler["paths"] = [str(tmp)]
    handler["options"]["extensions"] = [str(REPO / "scripts" / "griffe_doctests.py")
                                        + ":DoctestFences"]
    config.update(docs_dir="docs", nav=["index.md"], hooks=[],
                  plugins=["search", config["plugins"][2]])
    (tmp / "mkdocs.yml").write_text(yaml.safe_dump(config))
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict"], cwd=tmp,
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})


def test_strict_build_fails_on_a_broken_docstring_reference(tmp_path: Path) -> None:
    _need_mkdocs()
    good = _tiny_site(tmp_path / "good", "Play; see [play][tinypkg.play].\n\n>>> [1, 2][:1]\n[1]")
    assert good.returncode == 0, good.stderr[-3000:]
    bad = _tiny_site(tmp_path / "bad", "Play; see [the rules][tinypkg.no_such_thing].")
    assert bad.returncode != 0
    assert "tinypkg.no_such_thing" in bad.stderr and "strict" in bad.stderr, bad.stderr[-3000:]


def test_docs_hooks_title_the_notebooks() -> None:
    _need_mkdocs()
    sys.path.insert(0, str(REPO / "scripts"))
    try:
        import docs_hooks
    finally:
        sys.path.remove(str(REPO / "scripts"))
    nb = REPO / "examples" / "play.ipynb"
    first = json.loads(nb.read_text())["cells"][0]["source"][0]
    assert docs_hooks._title(nb) == first.lstrip("#").strip()
