"""Pictures of an environment's game: the text form (``"ansi"``), the SVG board picture
rasterised to an RGB array (``"rgb_array"``), and ``"human"``: shown as it plays, the board
picture in a notebook (one output, updated in place), the text form printed elsewhere.

The rasteriser is resvg (through ``resvg-py``): a Rust SVG renderer shipped inside its wheels
for Linux, macOS and Windows, so ``pip install ugentopoly_widget[rl]`` needs no system library
(CairoSVG needs the cairo C library installed beside it). Pillow decodes its PNG.
"""

from __future__ import annotations

import importlib
import io
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np

from ..engine.errors import SetupError
from ..engine.render.svg import board_svg
from .errors import MissingExtraError

if TYPE_CHECKING:
    from ..engine.game import Game

RENDER_MODES = ("human", "ansi", "rgb_array")


def require(module: str, feature: str) -> ModuleType:
    """Import `module`, or raise MissingExtraError naming the pip command."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingExtraError(
            f"{feature} needs {module}: pip install 'ugentopoly_widget[rl]' ({exc})") from exc


def check_mode(render_mode: str | None, size: int) -> None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise SetupError(f"render_mode is None or one of {RENDER_MODES}, not {render_mode!r}")
    if not isinstance(size, int) or isinstance(size, bool) or not 64 <= size <= 4096:
        raise SetupError("render_size is a whole number of pixels from 64 to 4096")


def render(game: Game, render_mode: str | None, size: int) -> str | np.ndarray | None:
    """What an environment's render() returns in `render_mode` (None, with a warning, when
    it has none: the Gymnasium and PettingZoo convention)."""
    if render_mode is None:
        import gymnasium

        gymnasium.logger.warn("render() called without a render_mode: create the environment "
                              "with render_mode='human', 'ansi' or 'rgb_array'")
        return None
    if render_mode == "ansi":
        return ansi(game)
    return rgb_array(game, size)


class Renderer:
    """An environment's pictures in its render mode; in ``"human"`` mode it shows the game
    itself after every reset and step (the Gymnasium and PettingZoo convention: ``render()``
    then returns None), without waiting between pictures."""

    def __init__(self, mode: str | None, size: int) -> None:
        check_mode(mode, size)
        self.mode = mode
        self.size = size
        self._handle: Any = None  # the notebook output shown in human mode

    def render(self, game: Game) -> str | np.ndarray | None:
        if self.mode == "human":
            self.show(game)
            return None
        return render(game, self.mode, self.size)

    def show(self, game: Game, new: bool = False) -> None:
        """In human mode, show `game` now (`new`: a new episode, in a new notebook output)."""
        if self.mode != "human":
            return
        kernel = _notebook_display()
        if kernel is None:
            print(ansi(game), flush=True)
            return
        svg = kernel.SVG(board_svg(game, width=self.size))
        if self._handle is None or new:
            self._handle = kernel.display(svg, display_id=True)
        else:
            self._handle.update(svg)

    def close(self) -> None:
        self._handle = None

    def __getstate__(self) -> dict[str, Any]:
        return {"mode": self.mode, "size": self.size, "_handle": None}


def _notebook_display() -> Any:
    """IPython.display when running in a notebook kernel, else None (a terminal prints)."""
    try:
        from IPython import display as kernel
        from IPython import get_ipython
    except ImportError:
        return None
    shell = get_ipython()
    return kernel if shell is not None and getattr(shell, "kernel", None) is not None else None


def ansi(game: Game) -> str:
    """The text form of the game (``print(game)``)."""
    return str(game)


def rgb_array(game: Game, size: int = 640) -> np.ndarray:
    """The board picture as a (size, size, 3) uint8 array."""
    resvg = require("resvg_py", "render_mode='rgb_array'")
    image = require("PIL.Image", "render_mode='rgb_array'")
    svg = board_svg(game, width=size)
    png: bytes = resvg.svg_to_bytes(svg_string=svg, width=size, height=size,
                                    background="white")
    with image.open(io.BytesIO(png)) as picture:
        return np.asarray(picture.convert("RGB"), dtype=np.uint8)


__all__ = ["RENDER_MODES", "Renderer", "ansi", "rgb_array", "render", "check_mode", "require"]
