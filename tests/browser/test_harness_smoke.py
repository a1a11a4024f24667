"""End-to-end proof of the browser harness: an inline anywidget in real JupyterLab + chromium.

Python defines a counter widget, chromium clicks its button twice, and the kernel sees n == 2.
"""

from __future__ import annotations

import sys
import time

import pytest

from .conftest import Kernel, OpenNotebook

COUNTER_CELLS = [
    '''\
import anywidget
import traitlets


class Counter(anywidget.AnyWidget):
    _esm = """
export default {
  render({ model, el }) {
    const b = document.createElement('button');
    b.className = 'smoke-btn';
    b.textContent = String(model.get('n'));
    b.onclick = () => { model.set('n', model.get('n') + 1); model.save_changes(); };
    model.on('change:n', () => { b.textContent = String(model.get('n')); });
    el.appendChild(b);
  }
}
"""
    n = traitlets.Int(0).tag(sync=True)


c = Counter()
c''',
]


def test_harness_smoke_counter(
    open_notebook: OpenNotebook, kernel: Kernel, capsys: pytest.CaptureFixture[str]
) -> None:
    t0 = time.monotonic()
    page = open_notebook(COUNTER_CELLS, "smoke_counter.ipynb")
    t_open = time.monotonic()

    button = page.locator("button.smoke-btn")
    button.wait_for(state="visible", timeout=30_000)
    assert button.inner_text() == "0"
    t_render = time.monotonic()

    button.click()
    button.click()
    # The view updates itself, and Python receives both changes.
    page.wait_for_function(
        "() => document.querySelector('button.smoke-btn').textContent === '2'"
    )
    assert kernel.wait_for("c.n", "2") == "2"

    # Python -> browser: a change made in the kernel shows up in the view.
    kernel.run("c.n = 40")
    page.wait_for_function(
        "() => document.querySelector('button.smoke-btn').textContent === '40'"
    )

    # The kernel is this test run's interpreter (the venv), not some other kernelspec.
    assert kernel.eval("__import__('sys').prefix") == sys.prefix
    t_end = time.monotonic()

    with capsys.disabled():
        print(
            f"\n[harness smoke] open+run notebook {t_open - t0:.1f}s, "
            f"widget render {t_render - t_open:.1f}s, clicks+checks {t_end - t_render:.1f}s, "
            f"total {t_end - t0:.1f}s"
        )


def test_harness_smoke_kernel_error_is_reported(
    open_notebook: OpenNotebook, kernel: Kernel
) -> None:
    open_notebook(["x = 1"], "smoke_error.ipynb")
    assert kernel.eval("x + 1") == "2"
    with pytest.raises(AssertionError, match="ZeroDivisionError"):
        kernel.run("1 / 0")
