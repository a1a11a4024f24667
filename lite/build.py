"""Build the browser site (JupyterLite + the Pyodide kernel) from the repository: scripts/lite.

Run by the site's build environment (``.lite/venv``, from lite/build-requirements.txt), after
scripts/lite has built the package's pure wheel and packed Pyodide from npm. Nothing here
reaches anything but PyPI (``pip download``); the site it writes reaches nothing at all:

- ``static/pyodide/``: the four runtime files of the npm ``pyodide`` package at the version the
  kernel expects, and a ``pyodide-lock.json`` cut down to micropip, served from PyPI's wheel
  (the npm lock names Pyodide's own rebuild, whose sha256 differs, and every other package
  in it would point at a CDN);
- ``pypi/``: the pinned pure wheels of lite/wheels.txt and the package's own, with the
  closure checked here (markers evaluated as in Pyodide), and ``disablePyPIFallback``;
- ``files/``: the notebooks of lite/notebooks.txt, each starting with the one install line.

Then ``jupyter lite build`` (lab, notebooks and tree apps, no source maps), and a size report.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from email.parser import Parser
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

HERE = Path(__file__).resolve().parent
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
# What the kernel installs at start (jupyterlite_pyodide_kernel's worker, initKernel).
KERNEL_START = ("ipykernel", "comm", "pyodide-kernel", "jedi", "ipython")
INSTALL_LINE = "%pip install ugentopoly_widget"
APPS = ("lab", "notebooks", "tree")


def say(message: str) -> None:
    print(f"[lite] {message}", flush=True)


def kernel_pyodide_version() -> str:
    from jupyterlite_pyodide_kernel.constants import PYODIDE_VERSION

    return str(PYODIDE_VERSION)


def browser_environment(python: str) -> dict[str, str]:
    """PEP 508 marker values inside Pyodide (``python`` is its full version, e.g. 3.14.2)."""
    env = dict(default_environment())
    env.update(sys_platform="emscripten", platform_system="Emscripten", os_name="posix",
               platform_machine="wasm32", implementation_name="cpython",
               platform_python_implementation="CPython", python_full_version=python,
               python_version=".".join(python.split(".")[:2]), platform_release="",
               platform_version="", implementation_version=python)
    return env


# --------------------------------------------------------------------------- Pyodide
def unpack_pyodide(tgz: Path, dest: Path) -> dict[str, object]:
    """The runtime files of the npm package into ``dest``; returns the npm lock's ``info``
    and its micropip entry."""
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(tgz) as tar:
        for name in PYODIDE_FILES:
            member = tar.extractfile(f"package/{name}")
            if member is None:
                raise SystemExit(f"{tgz}: no package/{name}")
            (dest / name).write_bytes(member.read())
        lock_file = tar.extractfile("package/pyodide-lock.json")
        if lock_file is None:
            raise SystemExit(f"{tgz}: no package/pyodide-lock.json")
        lock = json.load(lock_file)
    return {"info": lock["info"], "micropip": lock["packages"]["micropip"]}


def write_lock(npm: dict[str, object], micropip_wheel: Path, dest: Path) -> None:
    """A lock listing micropip alone, with the sha256 of the wheel we serve."""
    entry = dict(npm["micropip"])  # type: ignore[call-overload]
    entry["file_name"] = micropip_wheel.name
    entry["sha256"] = hashlib.sha256(micropip_wheel.read_bytes()).hexdigest()
    entry["depends"] = []
    shutil.copy2(micropip_wheel, dest / micropip_wheel.name)
    lock = {"info": npm["info"], "packages": {"micropip": entry}}
    (dest / "pyodide-lock.json").write_text(json.dumps(lock, indent=1) + "\n")


# --------------------------------------------------------------------------- wheels
def pip_download(specs: list[str], dest: Path, python: str) -> None:
    """Pure wheels for the browser's Python, exactly the pinned versions, no dependencies."""
    dest.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
         "--platform", "any", "--implementation", "py", "--abi", "none",
         "--python-version", ".".join(python.split(".")[:2]), "--dest", str(dest), *specs],
        check=True)


def read_pins(path: Path) -> list[str]:
    lines = (line.split("#", 1)[0].strip() for line in path.read_text().splitlines())
    return [line for line in lines if line]


def wheel_metadata(wheel: Path) -> tuple[str, str, list[str]]:
    """(canonical name, version, Requires-Dist) of a wheel."""
    with zipfile.ZipFile(wheel) as zf:
        meta = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
        msg = Parser().parsestr(zf.read(meta).decode("utf-8"))
    return (canonicalize_name(msg["Name"]), msg["Version"], msg.get_all("Requires-Dist") or [])


def check_closure(wheels: list[Path], bundled: set[str], env: dict[str, str]) -> None:
    """Every dependency the browser would install is served, at a version it accepts."""
    served = {}
    for w in wheels:
        if not w.name.endswith("py3-none-any.whl"):
            raise SystemExit(f"{w.name}: not a pure wheel; the browser cannot install it")
        name, version, requires = wheel_metadata(w)
        served[name] = (version, requires)
    problems = []
    todo = [canonicalize_name(n) for n in (*KERNEL_START, "ugentopoly_widget")]
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen or name in bundled:
            continue
        seen.add(name)
        if name not in served:
            problems.append(f"{name} is needed but not served (add it to lite/wheels.txt)")
            continue
        for text in served[name][1]:
            req = Requirement(text)
            if req.marker is not None and not req.marker.evaluate({**env, "extra": ""}):
                continue
            dep = canonicalize_name(req.name)
            if dep in served and not req.specifier.contains(served[dep][0], prereleases=True):
                problems.append(f"{name} needs {req}, lite/wheels.txt serves {served[dep][0]}")
            todo.append(dep)
    if problems:
        raise SystemExit("the browser's install would fail:\n  " + "\n  ".join(problems) +
                         "\n(a dependency with no pure wheel needs `; sys_platform != "
                         "'emscripten'` in pyproject.toml)")
    unused = sorted(set(served) - seen)
    if unused:
        raise SystemExit(f"lite/wheels.txt serves what nothing needs: {unused}")


def kernel_bundled_names() -> set[str]:
    """The packages the Pyodide kernel's own wheel index serves (ipykernel, piplite ...)."""
    import jupyterlite_pyodide_kernel

    roots = [Path(sys.prefix) / "share/jupyter/labextensions/@jupyterlite/pyodide-kernel-extension",
             Path(jupyterlite_pyodide_kernel.__file__).parent / "labextension"]
    for root in roots:
        index = root / "static" / "pypi" / "all.json"
        if index.is_file():
            return {canonicalize_name(n) for n in json.loads(index.read_text())}
    raise SystemExit("the Pyodide kernel's pypi/all.json was not found")


# --------------------------------------------------------------------------- notebooks
def site_notebook(source: Path) -> dict[str, object]:
    """An example notebook as the site carries it: the install line first, no outputs."""
    nb = json.loads(source.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
    nb["metadata"].pop("widgets", None)
    nb["metadata"]["kernelspec"] = {"name": "python", "display_name": "Python (Pyodide)",
                                    "language": "python"}
    install = {"cell_type": "code", "id": "lite-install", "metadata": {"tags": ["lite-install"]},
               "execution_count": None, "outputs": [], "source": INSTALL_LINE}
    nb["cells"].insert(0, install)
    return nb


def write_contents(repo: Path, dest: Path) -> list[str]:
    dest.mkdir(parents=True, exist_ok=True)
    names = read_pins(HERE / "notebooks.txt")
    for name in names:
        nb = site_notebook(repo / "examples" / name)
        (dest / name).write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n",
                                 encoding="utf-8")
    return names


# --------------------------------------------------------------------------- report
def folder_sizes(site: Path) -> dict[str, int]:
    sizes: dict[str, int] = {}
    for path in site.rglob("*"):
        if path.is_file():
            top = path.relative_to(site).parts[0] if len(path.relative_to(site).parts) > 1 \
                else "(top)"
            sizes[top] = sizes.get(top, 0) + path.stat().st_size
    return dict(sorted(sizes.items(), key=lambda kv: -kv[1]))


def check_offline(site: Path) -> None:
    """The site's configuration points nowhere but itself (no CDN, no PyPI)."""
    for config in site.rglob("jupyter-lite.json"):
        text = config.read_text()
        for url in re.findall(r"https?://[^\"'\s]+", text):
            raise SystemExit(f"{config.relative_to(site)} names {url}: the site must be offline")
    maps = [p for p in site.rglob("*.map")]
    if maps:
        raise SystemExit(f"source maps left in the site: {maps[:3]} ...")


def report(site: Path, wheel_dir: Path) -> dict[str, object]:
    sizes = folder_sizes(site)
    total = sum(sizes.values())
    files = sum(1 for p in site.rglob("*") if p.is_file())
    say(f"site: {site} — {total / 1e6:.1f} MB in {files} files")
    for top, size in sizes.items():
        say(f"  {top:<14} {size / 1e6:7.2f} MB")
    pyodide = site / "static" / "pyodide"
    for name in sorted(p.name for p in pyodide.iterdir()):
        say(f"  static/pyodide/{name:<34} {(pyodide / name).stat().st_size / 1e6:6.2f} MB")
    ours = sorted(wheel_dir.glob("ugentopoly_widget-*.whl"))
    summary = {"bytes": total, "files": files, "folders": sizes,
               "wheel": {p.name: p.stat().st_size for p in ours}}
    (site / "lite-build.json").write_text(json.dumps(summary, indent=1) + "\n")
    say("what one visit downloads: tests/browser/test_lite_site.py measures it "
        "(docs/lite.md)")
    return summary


# --------------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repo", type=Path, required=True)
    ap.add_argument("--work", type=Path, required=True, help="scratch folder (kept: a cache)")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--wheel", type=Path, required=True, help="the package's pure wheel")
    ap.add_argument("--pyodide-tgz", type=Path, required=True, help="npm pack pyodide@VERSION")
    args = ap.parse_args(argv)
    repo, work, out = args.repo.resolve(), args.work.resolve(), args.out.resolve()

    npm = unpack_pyodide(args.pyodide_tgz, work / "pyodide")
    python = str(npm["info"]["python"])  # type: ignore[index]
    env = browser_environment(python)
    say(f"Pyodide {kernel_pyodide_version()}: Python {python}, "
        f"abi {npm['info']['abi_version']}")  # type: ignore[index]

    stage = work / "stage"  # the --lite-dir, made afresh from lite/ each time
    if stage.exists():
        shutil.rmtree(stage)
    (stage / "static" / "pyodide").mkdir(parents=True)
    shutil.copy2(HERE / "jupyter-lite.json", stage / "jupyter-lite.json")
    for name in PYODIDE_FILES:
        shutil.copy2(work / "pyodide" / name, stage / "static" / "pyodide" / name)

    micropip = f"micropip=={npm['micropip']['version']}"  # type: ignore[index]
    cache = work / "wheels"
    pip_download([micropip, *read_pins(HERE / "wheels.txt")], cache, python)
    wanted = {canonicalize_name(Requirement(s).name): s
              for s in [micropip, *read_pins(HERE / "wheels.txt")]}
    chosen: dict[str, Path] = {}
    for w in sorted(cache.glob("*.whl")):
        name, version, _ = wheel_metadata(w)
        if name in wanted and Requirement(wanted[name]).specifier.contains(version):
            chosen[name] = w
    missing = sorted(set(wanted) - set(chosen))
    if missing:
        raise SystemExit(f"no pure wheel downloaded for {missing}")
    write_lock(npm, chosen.pop("micropip"), stage / "static" / "pyodide")

    pypi = stage / "pypi"
    pypi.mkdir()
    for w in [*chosen.values(), args.wheel]:
        shutil.copy2(w, pypi / w.name)
    check_closure(sorted(pypi.glob("*.whl")), kernel_bundled_names(), env)
    say(f"pypi/: {len(chosen) + 1} wheels, the closure checked for {env['sys_platform']} "
        f"Python {env['python_version']}")

    contents = work / "contents"
    if contents.exists():
        shutil.rmtree(contents)
    names = write_contents(repo, contents)
    say(f"notebooks: {', '.join(names)}")

    if out.exists():
        shutil.rmtree(out)
    cmd = [str(Path(sys.executable).parent / "jupyter"), "lite", "build",
           "--lite-dir", str(stage), "--contents", str(contents), "--output-dir", str(out),
           "--no-sourcemaps", "--no-unused-shared-packages",
           *(f"--apps={a}" for a in APPS)]
    subprocess.run(cmd, check=True, cwd=stage, env={**os.environ, "PYTHONWARNINGS": "ignore"})
    for stale in out.rglob("*.map"):  # whatever --no-sourcemaps missed
        stale.unlink()
    check_offline(out)
    report(out, pypi)
    return 0


if __name__ == "__main__":
    sys.exit(main())
