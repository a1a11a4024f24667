"""Pictures of an environment's game: the text form (``"ansi"``) and the SVG board picture
rasterised to an RGB array (``"rgb_array"``).

The rasteriser is resvg (through ``resvg-py``): a Rust SVG renderer shipped inside its wheels
for Linux, macOS and Windows, so ``pip install ugentopoly_widget[rl]`` needs no system library
(CairoSVG needs the cairo C library installed beside it). Pillow decodes its PNG.
"""

from __future__ import annotations

import importlib
import io
from types import ModuleType
from typing import TYPE_CHECKING

import numpy as np

from ..engine.errors import SetupError
from ..engine.render.svg import board_svg
from .errors import MissingExtraError

if TYPE_CHECKING:
    from ..engine.game import Game

RENDER_MODES = ("ansi", "rgb_array")


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
                              "with render_mode='ansi' or 'rgb_array'")
        return None
    if render_mode == "ansi":
        return ansi(game)
    return rgb_array(game, size)


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


__all__ = ["RENDER_MODES", "ansi", "rgb_array", "render", "check_mode", "require"]
