"""MkDocs hooks (mkdocs.yml): pages that live outside docs/ join the site.

The site is built from a copy of docs/ (``.docs-build/``, remade on every build) into which
go the example notebooks (``examples/*.ipynb``, shown with their stored outputs by
mkdocs-jupyter) and ``CHANGELOG.md``. The notebooks are listed under "Examples" in the order
of their file names, titled by their first heading: a new notebook appears without a change
here.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
STAGING = ROOT / ".docs-build"


def _notebooks() -> list[Path]:
    return sorted(EXAMPLES.glob("*.ipynb"))


def _title(path: Path) -> str:
    """The notebook's first markdown heading, else its file name."""
    cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
    for cell in cells:
        if cell.get("cell_type") != "markdown":
            continue
        for line in "".join(cell.get("source", "")).splitlines():
            if line.startswith("#"):
                return line.lstrip("#").strip()
    return path.stem.replace("_", " ")


def on_config(config: Any) -> Any:
    docs = Path(config["docs_dir"])
    shutil.rmtree(STAGING, ignore_errors=True)
    shutil.copytree(docs, STAGING)
    (STAGING / "examples").mkdir()
    for path in _notebooks():
        shutil.copy2(path, STAGING / "examples" / path.name)
    shutil.copy2(ROOT / "CHANGELOG.md", STAGING / "changelog.md")
    config["docs_dir"] = str(STAGING)
    nav = config.nav or []
    for i, entry in enumerate(nav):
        if isinstance(entry, dict) and "Examples" in entry:
            nav[i] = {"Examples": [{_title(p): f"examples/{p.name}"} for p in _notebooks()]}
    return config
