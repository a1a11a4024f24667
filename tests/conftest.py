"""Shared test helpers."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]


def fixtures_dir() -> Path:
    """The course board files in ``../shared/fixtures/ugentopoly-course`` (skip if absent)."""
    path = REPO_ROOT.parent / "shared" / "fixtures" / "ugentopoly-course"
    if not (path / "ugentopoly.xml").is_file():
        message = f"shared fixtures not found at {path}"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path
