"""The widget cases of bench_engine.py, this checkout against the widget of another commit, on
the same (compiled or pure) engine, the two interleaved run by run so that ratios hold on a
shared, noisy machine.

    python benchmarks/bench_widget_ab.py --base 3cbccfe
    python benchmarks/bench_widget_ab.py --base main --cases widget-publish --runs 7

The base is this checkout's package (its compiled engine included) with the widget package
(``ugentopoly_widget/widget/``) and the log text (``engine/render/i18n.py``, ``text.py``) of the
base commit, in a temporary folder: only the widget and its text differ. A base from before the
layout of rooms (widget_*.py at the package root) is refused: compare it with
``bench_engine.py --baseline`` instead. Each figure is a
fresh subprocess; the median and the range of the runs are printed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "ugentopoly_widget"
# engine files that only render text for views (not compiled): taken from the base commit too
LOG_TEXT = ("ugentopoly_widget/engine/render/i18n.py", "ugentopoly_widget/engine/render/text.py")
CODE = """
import json, sys
sys.path.insert(0, {bench!r})
import bench_engine
import ugentopoly_widget
assert ugentopoly_widget.__file__.startswith(sys.argv[2]), ugentopoly_widget.__file__
print(json.dumps(bench_engine.worker(sys.argv[1], True)))
"""


def base_tree(commit: str, into: Path) -> Path:
    shutil.copytree(PACKAGE, into / "ugentopoly_widget",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.rmtree(into / "ugentopoly_widget" / "widget")
    names = subprocess.run(
        ["git", "ls-tree", "-r", "--name-only", commit, "ugentopoly_widget/widget/"],
        cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    if not names:
        raise SystemExit(f"{commit} has no ugentopoly_widget/widget/ package (it predates the "
                         "layout of rooms): compare it with bench_engine.py --baseline")
    (into / "ugentopoly_widget" / "widget").mkdir()
    # the log text is the widget's too (rendered for its views only)
    for name in [n for n in names if n.endswith(".py")] + list(LOG_TEXT):
        text = subprocess.run(["git", "show", f"{commit}:{name}"], cwd=ROOT,
                              capture_output=True, text=True, check=True).stdout
        (into / name).write_text(text, encoding="utf-8")
    return into


def run(case: str, path: Path, pure: bool) -> float:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "UGENTOPOLY_PURE")}
    env["PYTHONPATH"] = str(path)
    if pure:
        env["UGENTOPOLY_PURE"] = "1"
    code = CODE.format(bench=str(ROOT / "benchmarks"))
    res = subprocess.run([sys.executable, "-c", code, case, str(path)], env=env,
                         capture_output=True, text=True, cwd=tempfile.gettempdir(), check=False)
    if res.returncode:
        raise SystemExit(res.stderr[-500:])
    return float(json.loads(res.stdout.strip().splitlines()[-1])["value"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", required=True, help="the commit whose widget to compare")
    parser.add_argument("--cases", default="widget-play-bots,widget-publish,widget-open-loaded")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"base": base_tree(args.base, Path(tmp)), "this": ROOT}
        figures: dict[tuple[str, str, str], list[float]] = {}
        for _ in range(args.runs):
            for case in args.cases.split(","):
                for engine in ("compiled", "pure"):
                    for name, path in trees.items():
                        value = run(case, path, engine == "pure")
                        figures.setdefault((case, engine, name), []).append(value)
    print(f"load average {os.getloadavg()[0]:.2f}; base {args.base}; {args.runs} runs (--quick)")
    for (case, engine, name), values in figures.items():
        values.sort()
        print(f"{case:<20} {engine:<9} {name:<5} median {values[len(values) // 2]:9.3f}"
              f"   range {values[0]:.3f}-{values[-1]:.3f}")


if __name__ == "__main__":
    main()
