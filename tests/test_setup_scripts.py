"""The README's two commands set a machine with only Python up: Node.js and npm come from
Debian's packages when missing (issue 6, item 19). Run against fake apt-get / sudo / id."""

from __future__ import annotations

import os
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
    assert text.index("\nensure_npm") < text.index("\nnpm ci --prefix js")


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
