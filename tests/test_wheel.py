"""The sdist and the wheels work without a source checkout and without npm.

A copy of the checkout *without* the built front end (``ugentopoly_widget/static/``) goes
through ``scripts/build-dist`` (what the release workflow runs): the sdist's build hook
(hatch-jupyter-builder) runs npm and the sdist carries the bundle; the pure wheel
(``UGENTOPOLY_PURE=1``) is built from that sdist, and ``twine check`` passes on both. The wheels
under test are built from the sdist as ``pip install`` of the sdist (and cibuildwheel) would,
with an ``npm`` on PATH that fails if called: the sdist needs none. A wheel is installed with its
dependencies (from the package index, through pip) into a clean virtual environment and checked
from a directory outside the checkout.

The sdist, the wheels and venvs are built once per test session (``build_dist``,
``wheel_env``); ``tests/test_release.py`` checks their metadata and the browser test
``tests/browser/test_widget_wheel.py`` renders the board with the wheel venv's kernel.
Set ``UGW_SKIP_WHEEL=1`` to skip (offline machines without the build requirements cached).

Two wheels from the one sdist: the default build compiles the engine with mypyc (a platform
wheel); a build with ``CC=/bin/false`` stands for a machine without a C compiler and must fall
back to a pure wheel (``py3-none-any``) that plays the very same games.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
# What is not part of a source checkout as shipped (and the built JS, which the hook must make).
_IGNORE_NAMES = shutil.ignore_patterns(
    ".git", ".venv", "test-artifacts", "static", "__pycache__", "*.pyc", ".pytest_cache",
    ".mypy_cache", ".ruff_cache", ".hypothesis", ".benchmarks", "build", "dist", "*.egg-info",
    ".ipynb_checkpoints", ".lite", ".docs-build", "site", ".cache",
)


def _ignore(folder: str, names: list[str]) -> set[str]:
    ignored = set(_IGNORE_NAMES(folder, names))
    if Path(folder).name == "vscode":  # the VS Code harness's packages (js/node_modules stays)
        ignored |= {"node_modules"} & set(names)
    return ignored


@dataclass(frozen=True)
class WheelEnv:
    wheel: Path
    venv: Path
    python: Path
    outside: Path  # a working directory with no checkout in sight
    build_seconds: float
    install_seconds: float


def _run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None,
         timeout: float = 600) -> subprocess.CompletedProcess[str]:
    res = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    if res.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)} failed ({res.returncode}):\n"
                             f"{res.stdout[-4000:]}\n{res.stderr[-4000:]}")
    return res


def _clean_env(extra_path: Path | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME"}}
    if extra_path is not None:
        env["PATH"] = str(extra_path) + os.pathsep + env.get("PATH", "")
    return env


def no_npm_env(venv: Path) -> dict[str, str]:
    """The environment for the installed venv: its bin only on PATH (no node, no npm)."""
    env = _clean_env()
    env["PATH"] = str(venv / "bin")
    env.pop("npm_config_prefix", None)
    return env


@dataclass(frozen=True)
class Dist:
    sdist: Path
    pure_wheel: Path  # UGENTOPOLY_PURE=1, from the sdist
    log: str  # scripts/build-dist's output (twine's verdicts)
    seconds: float


def _skip_or_fail(reason: str) -> None:
    ci = os.environ.get("CI") == "true"  # under CI a skip would count as a pass: fail instead
    (pytest.fail if ci else pytest.skip)(reason)


def build_dist(base: Path) -> Dist:
    """Run scripts/build-dist (once: cached in ``base``) on a checkout copy without the built
    front end: the sdist and the pure wheel, twine-checked."""
    marker = base / "dist.json"
    if marker.exists():
        data = json.loads(marker.read_text())
        return Dist(Path(data["sdist"]), Path(data["pure_wheel"]), data["log"], data["seconds"])
    if os.environ.get("UGW_SKIP_WHEEL") == "1":
        _skip_or_fail("UGW_SKIP_WHEEL=1")
    if shutil.which("npm") is None:
        _skip_or_fail("npm is needed to build the sdist from a checkout")
    base.mkdir(parents=True, exist_ok=True)
    # A checkout copy without the built JS; js/node_modules is kept (npm install is then quick
    # and offline), the bundle must be produced by the build hook.
    src = base / "src"
    shutil.copytree(REPO_ROOT, src, ignore=_ignore, symlinks=True)
    assert not (src / "ugentopoly_widget" / "static").exists()
    t0 = time.monotonic()
    out = base / "dist"
    res = _run(["bash", str(src / "scripts" / "build-dist"), str(out)], cwd=base,
               env={**_clean_env(), "PYTHON": sys.executable}, timeout=900)
    sdists = sorted(out.glob("ugentopoly_widget-*.tar.gz"))
    pure = sorted(out.glob("ugentopoly_widget-*-py3-none-any.whl"))
    assert len(sdists) == 1 and len(pure) == 1, sorted(out.iterdir())
    result = Dist(sdists[0], pure[0], res.stdout + res.stderr, time.monotonic() - t0)
    marker.write_text(json.dumps({"sdist": str(result.sdist), "pure_wheel": str(result.pure_wheel),
                                  "log": result.log, "seconds": result.seconds}))
    return result


def _failing_npm(base: Path) -> Path:
    """A folder whose ``npm`` fails loudly: put first on PATH, any npm call breaks the build."""
    folder = base / "no-npm"
    folder.mkdir(parents=True, exist_ok=True)
    npm = folder / "npm"
    npm.write_text("#!/bin/sh\necho 'npm must not be needed to build from the sdist' >&2\nexit 3\n")
    npm.chmod(0o755)
    return folder


def build_wheel_env(base: Path, build_env: dict[str, str] | None = None) -> WheelEnv:
    """Build (once: cached in ``base``) a wheel from the session's sdist, with no usable npm,
    and a clean venv that has it installed. ``build_env`` adds variables to the build's
    environment (``CC=/bin/false``: no compiler)."""
    marker = base / "wheel-env.json"
    if marker.exists():
        data = json.loads(marker.read_text())
        return WheelEnv(**{k: Path(v) if k in {"wheel", "venv", "python", "outside"} else v
                           for k, v in data.items()})
    dist = build_dist(base.parent / "ugw-dist")
    base.mkdir(parents=True, exist_ok=True)

    # 1. The wheel from the sdist, as `pip install <sdist>` would build it.
    t0 = time.monotonic()
    wheels_dir = base / "dist"
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(wheels_dir),
          str(dist.sdist)], cwd=base,
         env={**_clean_env(_failing_npm(base)), **(build_env or {})},
         timeout=1800)  # mypyc on 2 busy cores
    wheels = sorted(wheels_dir.glob("ugentopoly_widget-*.whl"))
    assert len(wheels) == 1, wheels
    build_seconds = time.monotonic() - t0

    # 2. A clean venv (no system site packages), the wheel + its dependencies through pip.
    venv = base / "venv"
    t1 = time.monotonic()
    _run([sys.executable, "-m", "venv", str(venv)], cwd=base, env=_clean_env())
    python = venv / "bin" / "python"
    env = no_npm_env(venv)  # no npm from here on
    _run([str(python), "-m", "pip", "install", "-q", str(wheels[0]), "ipykernel"],
         cwd=base, env=env)
    install_seconds = time.monotonic() - t1
    outside = base / "outside"
    outside.mkdir(exist_ok=True)
    result = WheelEnv(wheels[0], venv, python, outside, build_seconds, install_seconds)
    marker.write_text(json.dumps({k: str(v) if isinstance(v, Path) else v
                                  for k, v in result.__dict__.items()}))
    return result


@pytest.fixture(scope="session")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Dist:
    return build_dist(tmp_path_factory.getbasetemp() / "ugw-dist")


@pytest.fixture(scope="session")
def wheel_env(tmp_path_factory: pytest.TempPathFactory) -> WheelEnv:
    return build_wheel_env(tmp_path_factory.getbasetemp() / "ugw-wheel")


@pytest.fixture(scope="session")
def pure_wheel_env(tmp_path_factory: pytest.TempPathFactory) -> WheelEnv:
    """Built where no C compiler works: the hook must fall back to the pure-Python engine."""
    return build_wheel_env(tmp_path_factory.getbasetemp() / "ugw-wheel-pure",
                           {"CC": "/bin/false", "CXX": "/bin/false"})


PLAY = r"""
import json
import ugentopoly_widget.engine as engine
from ugentopoly_widget import Game
from ugentopoly_widget.engine.bots import HeuristicBot, play_game
digests = []
for profile in ("ugentopoly", "classic", "cell22"):
    game = Game(profile, players=4, seed=11, options={"turn_limit": 300})
    play_game(game, [HeuristicBot(seed=k) for k in range(4)])
    digests.append(game.digest())
print(json.dumps({"compiled": engine.compiled, "digests": digests,
                  "core": engine.core.__file__}))
"""


def _play(env: WheelEnv, **extra: str) -> dict[str, object]:
    res = _run([str(env.python), "-I", "-c", PLAY], cwd=env.outside,
               env={**no_npm_env(env.venv), **extra})
    result: dict[str, object] = json.loads(res.stdout.strip().splitlines()[-1])
    return result


def _local_digests() -> list[str]:
    from ugentopoly_widget import Game
    from ugentopoly_widget.engine.bots import HeuristicBot, play_game

    digests = []
    for profile in ("ugentopoly", "classic", "cell22"):
        game = Game(profile, players=4, seed=11, options={"turn_limit": 300})
        play_game(game, [HeuristicBot(seed=k) for k in range(4)])
        digests.append(game.digest())
    return digests


def test_default_wheel_is_compiled(wheel_env: WheelEnv) -> None:
    """A C compiler is there (scripts/test installs one): a platform wheel with the engine's
    extension modules, which the installed package runs, and the .py sources for the fallback."""
    assert not wheel_env.wheel.name.endswith("-py3-none-any.whl"), wheel_env.wheel.name
    with zipfile.ZipFile(wheel_env.wheel) as zf:
        names = set(zf.namelist())
    engine = "ugentopoly_widget/engine/"
    assert any(n.startswith(engine + "core.") and n.endswith(".so") for n in names)
    assert any(n.startswith(engine + "_native__mypyc") for n in names)
    assert engine + "core.py" in names and engine + "_build_info.json" in names
    info = _play(wheel_env)
    assert info["compiled"] is True and str(info["core"]).endswith(".so")
    pure = _play(wheel_env, UGENTOPOLY_PURE="1")  # the run-time switch, with .so files present
    assert pure["compiled"] is False and str(pure["core"]).endswith("core.py")
    assert info["digests"] == pure["digests"] == _local_digests()


def test_wheel_without_a_compiler_is_pure(pure_wheel_env: WheelEnv) -> None:
    """CC=/bin/false at build time: the build still succeeds, with a pure wheel."""
    assert pure_wheel_env.wheel.name.endswith("-py3-none-any.whl"), pure_wheel_env.wheel.name
    with zipfile.ZipFile(pure_wheel_env.wheel) as zf:
        names = set(zf.namelist())
    assert not any(n.endswith((".so", ".pyd")) for n in names), "a pure wheel with binaries"
    assert "ugentopoly_widget/static/widget.js" in names
    info = _play(pure_wheel_env)
    assert info["compiled"] is False
    assert info["digests"] == _local_digests()


def test_wheel_contains_the_built_front_end(wheel_env: WheelEnv) -> None:
    with zipfile.ZipFile(wheel_env.wheel) as zf:
        names = set(zf.namelist())
        js = zf.read("ugentopoly_widget/static/widget.js")
        css = zf.read("ugentopoly_widget/static/widget.css")
        room_js = zf.read("ugentopoly_widget/static/classroom.js")  # the classroom's view
        room_css = zf.read("ugentopoly_widget/static/classroom.css")
    assert len(js) > 5_000 and b"export" in js, "widget.js is not a bundled ES module"
    assert b".ugw-root" in css
    assert b"export" in room_js and b".ugc-root" in room_css
    assert "ugentopoly_widget/py.typed" in names
    assert any(n.startswith("ugentopoly_widget/boards/") and n.endswith(".xml") for n in names)
    assert not any(n.startswith(("js/", "tests/")) for n in names), "sources leaked into the wheel"


CHECK = r"""
import json, pathlib, sys
import ugentopoly_widget
from ugentopoly_widget import UgentopolyWidget
pkg = pathlib.Path(ugentopoly_widget.__file__).parent
w = UgentopolyWidget("ugentopoly", players=2, seed=1)
esm = w._esm if isinstance(w._esm, str) else pathlib.Path(w._esm).read_text()
print(json.dumps({
    "pkg": str(pkg), "prefix": sys.prefix, "path": sys.path,
    "js": (pkg / "static" / "widget.js").is_file(),
    "css": (pkg / "static" / "widget.css").is_file(),
    "esm": len(esm), "css_len": len(w._css if isinstance(w._css, str) else ""),
    "tiles": len(w.board_data["tiles"]), "seq": w.state["seq"],
}))
"""


def test_installed_wheel_works_outside_the_checkout(wheel_env: WheelEnv,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    env = no_npm_env(wheel_env.venv)
    res = _run([str(wheel_env.python), "-I", "-c", CHECK], cwd=wheel_env.outside, env=env)
    info = json.loads(res.stdout.strip().splitlines()[-1])
    assert Path(info["pkg"]).is_relative_to(wheel_env.venv), info["pkg"]
    assert Path(info["prefix"]) == wheel_env.venv
    assert not any(p.startswith(str(REPO_ROOT)) for p in info["path"]), info["path"]
    assert info["js"] and info["css"]
    assert info["esm"] > 5_000
    assert info["tiles"] == 40 and info["seq"] >= 1
    assert shutil.which("npm", path=env["PATH"]) is None
    with capsys.disabled():
        print(f"\n[wheel] {wheel_env.wheel.name}: build {wheel_env.build_seconds:.1f}s, "
              f"venv+install {wheel_env.install_seconds:.1f}s")


def test_pure_build_switch(dist: Dist, pure_wheel_env: WheelEnv) -> None:
    """UGENTOPOLY_PURE=1 (scripts/build-dist's pure wheel, the one a release uploads): nothing
    compiled, a pure wheel with the same files as the build that found no compiler."""
    assert dist.pure_wheel.name.endswith("-py3-none-any.whl"), dist.pure_wheel.name
    with zipfile.ZipFile(dist.pure_wheel) as a, zipfile.ZipFile(pure_wheel_env.wheel) as b:
        names, fallback = set(a.namelist()), set(b.namelist())
    assert not any(n.endswith((".so", ".pyd")) for n in names)
    assert "ugentopoly_widget/static/widget.js" in names
    assert names == fallback
