"""Build hook: compile the rules engine's hot modules with mypyc, or fall back to pure Python.

Why a local hook (and not hatch-mypyc or setuptools + mypycify): the package is built by
hatchling with the JS build hook, and the compiled build must be optional. Here a missing
compiler, a missing mypyc or ``UGENTOPOLY_PURE=1`` gives a pure wheel (``py3-none-any``) with a
warning instead of a failed install (``UGENTOPOLY_REQUIRE_COMPILED=1``, set by the release's
cibuildwheel, makes a failed compile an error instead); a successful compile gives a platform
wheel. Editable installs (``pip install -e .``) get the extension modules next to the sources,
so the checkout runs compiled too; ``ugentopoly_widget/engine/__init__.py`` falls back to the .py
files when those are newer than the build (edited since) or under ``UGENTOPOLY_PURE=1`` at run
time.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

ENGINE = Path("ugentopoly_widget") / "engine"
# The modules of the hot path (logtext: the log lines' filling); the rest (loader, i18n, svg,
# game ...) stays interpreted.
# Module paths relative to the engine package (records.events: engine/records/events.py).
# Keep in step with COMPILED in ugentopoly_widget/engine/_build.py.
COMPILED = ("state", "records.events", "core", "legal", "turns", "landing", "deals", "endgame",
            "bots", "records.checkpoints", "render.logtext", "strong.why", "strong.odds",
            "strong.worth", "strong.building", "strong.cash", "strong.trading", "strong.bot")
# Beside the engine, in the same group (its classes are then native to them): the step of the
# RL environments (rl.tables: ugentopoly_widget/rl/tables.py). Keep in step with _build.py.
COMPILED_BESIDE = ("rl.tables", "rl.actions", "rl.observation", "rl.match")
GROUP = "ugentopoly_widget.engine._native"  # the shared library: _native__mypyc.*.so
BUILD_INFO = ENGINE / "_build_info.json"


def _say(message: str) -> None:
    print(f"[ugentopoly_widget build] {message}", file=sys.stderr, flush=True)


def source_file(name: str) -> Path:
    """``records.events`` -> ``ugentopoly_widget/engine/records/events.py`` (relative);
    ``rl.tables`` (COMPILED_BESIDE) -> ``ugentopoly_widget/rl/tables.py``."""
    root = ENGINE.parent if name in COMPILED_BESIDE else ENGINE
    return root.joinpath(*name.split(".")).with_suffix(".py")


def source_digests(root: Path) -> dict[str, str]:
    return {name: hashlib.sha256((root / source_file(name)).read_bytes()).hexdigest()
            for name in COMPILED + COMPILED_BESIDE}


def compile_engine(root: Path, out: Path) -> list[Path]:
    """mypyc + the C compiler; returns the built files relative to `out`. Raises on failure."""
    from mypyc.build import mypycify
    from setuptools import Distribution

    with tempfile.TemporaryDirectory(prefix="ugw-mypyc-") as tmp:
        old = os.getcwd()
        os.chdir(root)
        try:
            extensions = mypycify(
                # The compiled modules are type-checked strictly by scripts/test; here only
                # their own errors may stop the build, not those of modules they pull in (the
                # build environment lacks the development stubs, e.g. pandas-stubs).
                # The build environment has no NumPy either (rl/ uses it): its values are
                # plain Python objects to mypyc all the same.
                ["--follow-imports=silent", "--ignore-missing-imports"]
                + [str(source_file(name)) for name in COMPILED + COMPILED_BESIDE],
                opt_level="3",
                group_name=GROUP,
                target_dir=str(Path(tmp) / "c"),
            )
            dist = Distribution({"name": "ugentopoly_widget", "ext_modules": extensions})
            cmd: Any = dist.get_command_obj("build_ext")
            cmd.build_lib = str(out)
            cmd.build_temp = str(Path(tmp) / "temp")
            cmd.inplace = False
            cmd.ensure_finalized()
            cmd.run()
        finally:
            os.chdir(old)
    built = sorted(p.relative_to(out) for p in out.rglob("*") if p.suffix in (".so", ".pyd"))
    if not built:
        raise RuntimeError("mypyc produced no extension modules")
    return built


class MypycBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        root = Path(self.root)
        editable = version == "editable"
        if editable:
            self._clean_inplace(root)
        if os.environ.get("UGENTOPOLY_PURE") == "1":
            _say("UGENTOPOLY_PURE=1: pure-Python engine, nothing compiled")
            return
        sources = source_digests(root)  # before compiling: what the machine code is built from
        out = Path(tempfile.mkdtemp(prefix="ugw-build-"))
        try:
            built = compile_engine(root, out)
        except BaseException as exc:  # noqa: BLE001 - distutils raises SystemExit subclasses too
            if isinstance(exc, KeyboardInterrupt):
                raise
            reason = f"{type(exc).__name__}: {exc}"
            if os.environ.get("UGENTOPOLY_REQUIRE_COMPILED") == "1":  # release builds
                raise RuntimeError(f"UGENTOPOLY_REQUIRE_COMPILED=1 and the engine did not "
                                   f"compile: {reason}") from exc
            _say(f"compiling the engine failed ({reason}); "
                 "installing the pure-Python engine (same games, slower)")
            shutil.rmtree(out, ignore_errors=True)
            if editable:  # say why, where scripts/test and a developer can read it
                (root / BUILD_INFO).write_text(json.dumps({"compiled": [], "error": reason}))
            return
        info = {"compiled": [str(p) for p in built], "sources": sources}
        if editable:  # next to the sources: the checkout imports them from there
            for rel in built:
                shutil.copy2(out / rel, root / rel)
            (root / BUILD_INFO).write_text(json.dumps(info, indent=1) + "\n")
            shutil.rmtree(out, ignore_errors=True)
        else:
            for rel in built:
                build_data["force_include"][str(out / rel)] = str(rel)
            info_file = out / "_build_info.json"
            info_file.write_text(json.dumps(info, indent=1) + "\n")
            build_data["force_include"][str(info_file)] = str(BUILD_INFO)
            build_data["pure_python"] = False
            build_data["infer_tag"] = True
        _say(f"compiled with mypyc: {', '.join(str(p.name) for p in built)}")

    @staticmethod
    def _clean_inplace(root: Path) -> None:
        """Drop extension modules of an earlier editable build (they would shadow the .py)."""
        for pattern in ("*.so", "*.pyd"):  # the engine's subpackages hold some too
            for folder in {(root / source_file(name)).parent for name in COMPILED_BESIDE}:
                for path in folder.glob(pattern):
                    path.unlink()
            for path in (root / ENGINE).rglob(pattern):
                path.unlink()
        (root / BUILD_INFO).unlink(missing_ok=True)
