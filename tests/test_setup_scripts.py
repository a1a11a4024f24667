"""The README's two commands set a machine with only Python up: Node.js and npm come from
Debian's packages when missing (issue 6, item 19). Run against fake apt-get / sudo / id."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest
from conftest import REPO_ROOT

LIB = REPO_ROOT / "scripts" / "system-packages.sh"
BASH = "/bin/bash"


def _tool(folder: Path, name: str, body: str) -> None:
    path = folder / name
    path.write_text("#!/bin/bash\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def _fake_machine(tmp_path: Path, uid: int, with_npm: bool = False) -> tuple[Path, Path]:
    """A PATH with nothing but fakes: apt-get installs fake node/npm, sudo runs its command."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "calls.log"
    os.symlink("/usr/bin/env", bin_dir / "env")
    _tool(bin_dir, "id", f'echo {uid}\n')
    _tool(bin_dir, "sudo", f'echo "sudo $*" >> {log}\nexec "$@"\n')
    node = "#!/bin/bash\n[[ $1 == --version ]] && echo v18.19.0 || exit 0\n"
    npm = "#!/bin/bash\necho 9.2.0\n"
    _tool(bin_dir, "apt-get", (
        f'echo "apt-get $*" >> {log}\n'
        f'if [[ $1 == install ]]; then\n'
        f"  printf '%s' '{node}' > {bin_dir}/node; /bin/chmod +x {bin_dir}/node\n"
        f"  printf '%s' '{npm}' > {bin_dir}/npm; /bin/chmod +x {bin_dir}/npm\n"
        f'fi\n'))
    if with_npm:
        _tool(bin_dir, "node", node.split("\n", 1)[1])
        _tool(bin_dir, "npm", npm.split("\n", 1)[1])
    return bin_dir, log


def _ensure_npm(bin_dir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [BASH, "-c", f"set -euo pipefail; source {LIB}; ensure_npm"],
        env={"PATH": str(bin_dir), "HOME": str(bin_dir)}, capture_output=True, text=True,
        timeout=60,
    )


@pytest.mark.skipif(not Path(BASH).exists() or not Path("/usr/bin/env").exists(),
                    reason="needs bash and env")
@pytest.mark.parametrize("uid,prefix", [(1000, "sudo env DEBIAN_FRONTEND=noninteractive "),
                                        (0, "")])
def test_missing_npm_is_installed_from_debian(tmp_path: Path, uid: int, prefix: str) -> None:
    bin_dir, log = _fake_machine(tmp_path, uid)
    result = _ensure_npm(bin_dir)
    assert result.returncode == 0, result.stderr
    calls = log.read_text().splitlines()
    assert f"{prefix}apt-get update -qq" in calls
    assert f"{prefix}apt-get install -y -qq nodejs npm" in calls
    assert "apt-get install -y -qq nodejs npm" in calls
    assert "npm 9.2.0" in result.stdout


@pytest.mark.skipif(not Path(BASH).exists(), reason="needs bash")
def test_present_npm_installs_nothing(tmp_path: Path) -> None:
    bin_dir, log = _fake_machine(tmp_path, 1000, with_npm=True)
    result = _ensure_npm(bin_dir)
    assert result.returncode == 0, result.stderr
    assert not log.exists()


@pytest.mark.parametrize("script", ["test", "play"])
def test_both_commands_ensure_npm_before_using_it(script: str) -> None:
    text = (REPO_ROOT / "scripts" / script).read_text()
    assert 'source "$ROOT/scripts/system-packages.sh"' in text
    assert text.index("ensure_npm\n") < text.index("npm ci --prefix js")


@pytest.mark.skipif(not Path(BASH).exists() or not Path("/usr/bin/env").exists(),
                    reason="needs bash and env")
def test_missing_c_compiler_is_installed_from_debian(tmp_path: Path) -> None:
    """scripts/test installs gcc when no compiler exists, so CI compiles the engine (issue 7)."""
    bin_dir, log = _fake_machine(tmp_path, 0)
    os.symlink("/usr/bin/head", bin_dir / "head")
    spare = tmp_path / "spare"
    spare.mkdir()
    _tool(spare, "cc", "echo 'cc (Debian 12.2.0) 12.2.0'\n")
    _tool(bin_dir, "apt-get", (
        f'echo "apt-get $*" >> {log}\n'
        f'if [[ $1 == install ]]; then /bin/cp {spare}/cc {bin_dir}/cc; fi\n'))
    script = f"set -euo pipefail; source {LIB}; ensure_cc"
    result = subprocess.run([BASH, "-c", script], env={"PATH": str(bin_dir)},
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "apt-get install -y -qq gcc libc6-dev" in log.read_text().splitlines()
    again = subprocess.run([BASH, "-c", script], env={"PATH": str(bin_dir)},
                           capture_output=True, text=True, timeout=60)
    assert "C compiler present: cc (Debian 12.2.0)" in again.stdout
    assert log.read_text().count("install") == 1  # present: nothing installed the second time


# ---------------------------------------------------------------- scripts/play (issue 25, item 12)


def _play_checkout(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A checkout with the real scripts and fakes of everything they run: npm (ci makes
    node_modules, build makes widget.js), the venv's python (pip install marks an install;
    the readiness check answers from the mark) and jupyter. Returns (root, fake bin, log)."""
    root = tmp_path / "repo"
    (root / "scripts").mkdir(parents=True)
    for name in ("play", "system-packages.sh", "setup-stamps.sh"):
        shutil.copy(REPO_ROOT / "scripts" / name, root / "scripts" / name)
    (root / "js" / "src").mkdir(parents=True)
    for name, text in {"js/package.json": "{}", "js/package-lock.json": "{\"v\": 1}",
                       "js/build.mjs": "//", "js/src/index.js": "// 1",
                       "pyproject.toml": "[project]", "hatch_build.py": "#",
                       "examples/play.ipynb": "{}"}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    bin_dir, log = tmp_path / "bin", tmp_path / "calls.log"
    bin_dir.mkdir()
    _tool(bin_dir, "node", "[[ $1 == --version ]] && echo v20.0.0 || exit 0\n")
    _tool(bin_dir, "npm", (
        f'echo "npm $*" >> {log}\n'
        '[[ $1 == --version ]] && { echo 9.2.0; exit 0; }\n'
        '[[ $1 == ci ]] && mkdir -p js/node_modules\n'
        '[[ $1 == run ]] && mkdir -p ugentopoly_widget/static '
        '&& echo js > ugentopoly_widget/static/widget.js\n'
        'exit 0\n'))
    _tool(bin_dir, "jupyter", f'echo "jupyter $*" >> {log}\n')
    venv_bin = root / ".venv" / "bin"
    venv_bin.mkdir(parents=True)
    mark = root / ".venv" / "installed"
    _tool(venv_bin, "python", (
        f'if [[ $1 == - ]]; then cat > /dev/null; [[ -f {mark} ]]; exit; fi\n'
        f'echo "python $*" >> {log}\n'
        f'[[ "$*" == *"pip install"* ]] && touch {mark}\n'
        'exit 0\n'))
    return root, bin_dir, log


def _play(root: Path, bin_dir: Path, log: Path) -> list[str]:
    """Run scripts/play once; the commands it ran (npm, pip, jupyter)."""
    before = log.read_text().splitlines() if log.exists() else []
    run = subprocess.run([BASH, str(root / "scripts" / "play")], capture_output=True, text=True,
                         timeout=120, env={"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(root)})
    assert run.returncode == 0, run.stdout + run.stderr
    calls = log.read_text().splitlines()[len(before):]
    return [c for c in calls if c != "npm --version"]


@pytest.mark.skipif(not Path(BASH).exists() or not shutil.which("sha256sum"),
                    reason="needs bash and coreutils")
def test_play_sets_up_only_what_changed_and_only_what_playing_needs(tmp_path: Path) -> None:
    """Before: every start ran npm ci, the build and pip install -e .[dev] (~105 s)."""
    root, bin_dir, log = _play_checkout(tmp_path)
    jupyter = "jupyter lab examples/play.ipynb" + (" --allow-root" if os.geteuid() == 0 else "")
    first = _play(root, bin_dir, log)
    assert first == ["npm ci --prefix js --no-audit --no-fund --loglevel=error",
                     "npm run build --prefix js",
                     "python -m pip install --quiet -e .[play]", jupyter]
    assert _play(root, bin_dir, log) == [jupyter]  # nothing to set up: only the lab starts
    (root / "js" / "src" / "index.js").write_text("// 2")  # the front end's sources
    assert _play(root, bin_dir, log) == ["npm run build --prefix js", jupyter]
    (root / "js" / "src" / "new.js").write_text("// new")
    assert _play(root, bin_dir, log) == ["npm run build --prefix js", jupyter]
    (root / "js" / "package-lock.json").write_text("{\"v\": 2}")  # the lock file
    assert _play(root, bin_dir, log) == [
        "npm ci --prefix js --no-audit --no-fund --loglevel=error",
        "npm run build --prefix js", jupyter]
    (root / "pyproject.toml").write_text("[project]\n# a new dependency")
    assert _play(root, bin_dir, log) == ["python -m pip install --quiet -e .[play]", jupyter]
    (root / ".venv" / "installed").unlink()  # uninstalled (or the engine's sources edited)
    assert _play(root, bin_dir, log) == ["python -m pip install --quiet -e .[play]", jupyter]
    (root / "ugentopoly_widget" / "static" / "widget.js").unlink()
    assert _play(root, bin_dir, log) == ["npm run build --prefix js", jupyter]


def test_playing_installs_what_playing_needs_and_the_tests_install_everything() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    extras = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    play = {req.split(">")[0] for req in extras["play"]}
    assert play == {"jupyterlab", "ipykernel"}
    assert not play & {"pytest", "ruff", "mypy", "playwright", "hypothesis"}
    assert {"jupyterlab>=4.2", "ipykernel>=6.29"} <= set(extras["dev"])
    assert "-e '.[dev]'" in (REPO_ROOT / "scripts" / "test").read_text()
    assert "-e '.[play]'" in (REPO_ROOT / "scripts" / "play").read_text()
