"""A release as PyPI gets it (issue 35): the sdist, the wheels' metadata, one version source,
the cibuildwheel configuration and the workflows.

The sdist and wheels are the session's (tests/test_wheel.py: scripts/build-dist on a checkout
copy, wheels built from that sdist); nothing is built twice. The workflows are checked
against GitHub's workflow schema (check-jsonschema's vendored copy: offline) and their commands
must be the scripts the tests run.
"""

from __future__ import annotations

import email.parser
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path
from typing import Any

import pytest
from test_wheel import Dist, WheelEnv, build_dist, build_wheel_env

import ugentopoly_widget

tomllib = pytest.importorskip("tomllib")  # Python 3.11+
REPO = Path(__file__).resolve().parents[1]
WORKFLOWS = REPO / ".github" / "workflows"
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text())
PYTHONS = ("3.10", "3.11", "3.12", "3.13")  # what the compiled wheels are built for


@pytest.fixture(scope="session")
def release(tmp_path_factory: pytest.TempPathFactory) -> Dist:
    """The session's sdist + pure wheel (shared with tests/test_wheel.py: built once)."""
    return build_dist(tmp_path_factory.getbasetemp() / "ugw-dist")


@pytest.fixture(scope="session")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> WheelEnv:
    """The session's compiled wheel, built from the sdist (shared with tests/test_wheel.py)."""
    return build_wheel_env(tmp_path_factory.getbasetemp() / "ugw-wheel")


def _metadata(wheel: Path) -> email.message.Message:
    with zipfile.ZipFile(wheel) as zf:
        name = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
        return email.parser.Parser().parsestr(zf.read(name).decode())


def _yaml(path: Path) -> Any:
    import yaml

    return yaml.safe_load(path.read_text())


# ------------------------------------------------------------------------------------ sdist
def test_sdist_carries_the_built_front_end_and_no_build_debris(release: Dist) -> None:
    with tarfile.open(release.sdist) as tf:
        names = tf.getnames()
    top = names[0].split("/")[0]
    assert top == f"ugentopoly_widget-{ugentopoly_widget.__version__}"
    rel = {n.split("/", 1)[1] for n in names if "/" in n}
    for needed in ("pyproject.toml", "hatch_build.py", "README.md", "LICENSE", "CHANGELOG.md",
                   "PKG-INFO", "ugentopoly_widget/static/widget.js",
                   "ugentopoly_widget/static/widget.css", "ugentopoly_widget/engine/core.py",
                   "js/package-lock.json", "tests/test_golden_games.py"):
        assert needed in rel, needed
    debris = [n for n in rel
              if n.startswith((".venv/", "js/node_modules/", "tests/vscode/node_modules/",
                               "test-artifacts/", ".docs-build/", "site/", ".cache/"))
              or n.endswith((".so", ".pyd", "_build_info.json"))]
    assert debris == []


def test_twine_check_passes(release: Dist, compiled: WheelEnv) -> None:
    """scripts/build-dist checked the sdist and the pure wheel; the compiled wheel too."""
    # twine's report, without its colours and its line breaks
    report = re.sub(r"\s+", "", re.sub(r"\x1b\[[0-9;]*m", "", release.log))
    assert re.search(r"Checking[^:]*\.tar\.gz:PASSED", report), release.log[-2000:]
    assert re.search(r"Checking[^:]*-py3-none-any\.whl:PASSED", report), release.log[-2000:]
    res = subprocess.run([sys.executable, "-m", "twine", "check", "--strict",
                          str(compiled.wheel)],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0 and "PASSED" in res.stdout, res.stdout + res.stderr


# ------------------------------------------------------------------------------------ metadata
def test_wheel_metadata(compiled: WheelEnv, release: Dist) -> None:
    meta = _metadata(compiled.wheel)
    assert meta["Name"] == "ugentopoly_widget"
    assert meta["Version"] == ugentopoly_widget.__version__
    assert meta["Requires-Python"] == ">=3.10"
    assert meta["License-Expression"] == "MIT"
    assert meta.get_all("License-File") == ["LICENSE"]
    assert meta["Description-Content-Type"] == "text/markdown"
    assert "pip install ugentopoly_widget" in meta.get_payload()
    # extras and their markers
    extras = set(meta.get_all("Provides-Extra"))
    assert {"plot", "dask", "parquet", "play", "sparse", "rl", "docs", "release", "dev"} <= extras
    requires = [r.replace("'", '"') for r in meta.get_all("Requires-Dist")]  # one quote style
    assert "anywidget>=0.9" in requires and "defusedxml>=0.7" in requires
    assert 'numpy>=1.24; sys_platform != "emscripten"' in requires  # not in the browser site
    assert 'matplotlib>=3.7; extra == "plot"' in requires
    assert 'jupyterlab>=4.2; extra == "play"' in requires
    assert any(r.startswith("pettingzoo") and 'extra == "rl"' in r for r in requires)
    # URLs: one owner everywhere (pyproject, mkdocs.yml, README, the docs' browser link)
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL"))
    assert set(urls) >= {"Homepage", "Documentation", "Source", "Issues", "Changelog",
                         "Try it in your browser"}
    mkdocs = _yaml(REPO / "mkdocs.yml")
    assert urls["Documentation"] == mkdocs["site_url"]
    assert urls["Source"] == mkdocs["repo_url"]
    assert urls["Homepage"] == mkdocs["extra"]["lite_url"]
    assert urls["Try it in your browser"].startswith(urls["Homepage"])
    assert urls["Issues"] == urls["Source"] + "/issues"
    assert urls["Changelog"] == urls["Source"] + "/blob/main/CHANGELOG.md"
    assert all(u.startswith("https://") for u in urls.values())
    readme = (REPO / "README.md").read_text()
    assert urls["Documentation"] in readme and urls["Homepage"] in readme
    # classifiers: the Python versions are the ones compiled for
    classifiers = meta.get_all("Classifier")
    versions = sorted(c.rsplit(" ", 1)[1] for c in classifiers
                      if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c))
    assert tuple(versions) == PYTHONS
    assert "Framework :: Jupyter :: JupyterLab" in classifiers
    assert "Typing :: Typed" in classifiers
    # the pure wheel says the same
    pure = _metadata(release.pure_wheel)
    for key in ("Version", "Requires-Python", "License-Expression"):
        assert pure[key] == meta[key]
    assert [r.replace("'", '"') for r in pure.get_all("Requires-Dist")] == requires


def test_one_version_source() -> None:
    """__version__ in ugentopoly_widget/__init__.py; pyproject reads it; the CHANGELOG's
    newest entry names it."""
    assert "version" not in PYPROJECT["project"]
    assert PYPROJECT["project"]["dynamic"] == ["version"]
    assert PYPROJECT["tool"]["hatch"]["version"]["path"] == "ugentopoly_widget/__init__.py"
    text = (REPO / "ugentopoly_widget" / "__init__.py").read_text()
    assert len(re.findall(r"^__version__ = ", text, re.M)) == 1
    changelog = (REPO / "CHANGELOG.md").read_text()
    newest = re.search(r"^## \[(\d+\.\d+\.\d+[^\]]*)\]", changelog, re.M)
    assert newest and newest.group(1) == ugentopoly_widget.__version__


# ------------------------------------------------------------------------------------ wheels
def test_cibuildwheel_builds_the_compiled_wheels_we_mean() -> None:
    """The identifiers cibuildwheel would build, from this pyproject (no Docker needed)."""
    if importlib.util.find_spec("cibuildwheel") is None:
        pytest.fail("cibuildwheel is not installed (the release extra; pip install -e '.[dev]')")
    found: dict[str, set[str]] = {}
    for platform, archs in (("linux", "x86_64"), ("macos", "x86_64,arm64"),
                            ("windows", "AMD64")):
        res = subprocess.run(
            [sys.executable, "-m", "cibuildwheel", "--print-build-identifiers",
             "--platform", platform, "--archs", archs, str(REPO)],
            capture_output=True, text=True, timeout=120,
            env={k: v for k, v in os.environ.items() if not k.startswith("CIBW_")})
        assert res.returncode == 0, res.stderr[-2000:]
        found[platform] = set(res.stdout.split())
    tags = {f"cp{v.replace('.', '')}" for v in PYTHONS}
    expected = {
        "linux": {f"{t}-{libc}_x86_64" for t in tags for libc in ("manylinux", "musllinux")},
        "macos": {f"{t}-macosx_{a}" for t in tags for a in ("x86_64", "arm64")},
        "windows": {f"{t}-win_amd64" for t in tags},
    }
    assert found == expected
    from importlib.metadata import version

    pin = re.search(r"cibuildwheel==([\d.]+)", (WORKFLOWS / "release.yml").read_text())
    assert pin and pin.group(1) == version("cibuildwheel"), "the workflow's pin is the one tested"
    config = PYPROJECT["tool"]["cibuildwheel"]
    assert config["environment"] == {"UGENTOPOLY_REQUIRE_COMPILED": "1"}
    assert any("e.compiled" in c for c in config["test-command"])


def test_a_release_build_refuses_to_fall_back_to_pure(monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path: Path) -> None:
    """UGENTOPOLY_REQUIRE_COMPILED=1 (cibuildwheel's environment): a failed compile is an
    error, not a quiet pure wheel; without it the build falls back (tests/test_wheel.py)."""
    if importlib.util.find_spec("hatchling") is None:
        pytest.fail("hatchling is not installed (the release extra; pip install -e '.[dev]')")
    sys.path.insert(0, str(REPO))
    try:
        import hatch_build
    finally:
        sys.path.remove(str(REPO))

    def broken(root: Path, out: Path) -> list[Path]:
        raise RuntimeError("no compiler")

    monkeypatch.setattr(hatch_build, "compile_engine", broken)
    hook: Any = hatch_build.MypycBuildHook.__new__(hatch_build.MypycBuildHook)
    monkeypatch.setattr(type(hook), "target_name", property(lambda self: "wheel"))
    monkeypatch.setattr(type(hook), "root", property(lambda self: str(REPO)))
    data: dict[str, Any] = {"force_include": {}}
    monkeypatch.delenv("UGENTOPOLY_PURE", raising=False)
    monkeypatch.setenv("UGENTOPOLY_REQUIRE_COMPILED", "1")
    with pytest.raises(RuntimeError, match="REQUIRE_COMPILED=1 and the engine did not compile"):
        hook.initialize("standard", data)
    monkeypatch.delenv("UGENTOPOLY_REQUIRE_COMPILED")
    hook.initialize("standard", data)  # the fallback: a pure wheel, no error
    assert data == {"force_include": {}}


# ------------------------------------------------------------------------------------ workflows
def _check_workflows(*files: Path) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("check-jsonschema", path=os.pathsep.join(
        [str(Path(sys.executable).parent), os.environ.get("PATH", "")]))
    if exe is None:
        pytest.fail("check-jsonschema is not installed (the release extra)")
    return subprocess.run([exe, "--builtin-schema", "vendor.github-workflows",
                           *map(str, files)], capture_output=True, text=True, timeout=120)


def test_workflows_follow_githubs_schema() -> None:
    files = sorted(WORKFLOWS.glob("*.yml"))
    assert {f.name for f in files} >= {"tests.yml", "release.yml", "lite.yml"}
    res = _check_workflows(*files)
    assert res.returncode == 0, res.stdout + res.stderr


def test_the_schema_check_catches_a_broken_workflow(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yml"
    bad.write_text("on: push\njobs:\n  x:\n    runs-on: ubuntu-latest\n    stepz:\n"
                   "      - run: echo\n")
    res = _check_workflows(bad)
    assert res.returncode != 0 and "stepz" in res.stdout


def _runs(workflow: str) -> list[str]:
    jobs = _yaml(WORKFLOWS / workflow)["jobs"]
    return [step["run"] for job in jobs.values() for step in job.get("steps", []) if "run" in step]


def test_workflows_run_the_scripts_the_tests_run() -> None:
    tests = _runs("tests.yml")
    assert any(r.strip() == "bash .ci/run" for r in tests)  # Linux: scripts/test, all of it
    assert any(r.strip() == "bash scripts/test-engine" for r in tests)  # macOS, Windows
    release = "\n".join(_runs("release.yml"))
    assert "bash scripts/build-dist dist" in release
    assert "cibuildwheel" in release and ".tar.gz" in release  # the wheels from the sdist
    pages = "\n".join(_runs("lite.yml"))
    assert "bash scripts/lite" in pages and "bash scripts/docs dist/lite/docs" in pages
    on = _yaml(WORKFLOWS / "tests.yml")[True]  # YAML reads the key `on` as True
    assert "push" in on and "pull_request" in on
    release_doc = _yaml(WORKFLOWS / "release.yml")
    assert release_doc[True]["push"]["tags"] == ["v*"]
    publish = release_doc["jobs"]["publish"]
    assert publish["permissions"] == {"id-token": "write"}  # trusted publishing, no token
    assert any(s.get("uses", "").startswith("pypa/gh-action-pypi-publish@")
               for s in publish["steps"])
    # the engine suites of macOS and Windows are the list scripts/test runs on the pure engine
    test_script = (REPO / "scripts" / "test").read_text()
    engine_script = (REPO / "scripts" / "test-engine").read_text()
    assert '"${ENGINE_SUITES[@]}"' in test_script and '"${ENGINE_SUITES[@]}"' in engine_script
