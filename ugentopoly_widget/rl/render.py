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


__all__ = ["RENDER_MODES", "ansi", "rgb_array", "require"]
