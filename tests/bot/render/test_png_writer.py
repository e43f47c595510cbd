"""bot.render.png: a palette picture written as PNG decodes to the same indices and palette."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.render.png import encode_indexed


def _picture(width: int, height: int, seed: int) -> Image.Image:
    rng = random.Random(seed)
    img = Image.new("P", (width, height))
    img.putdata([rng.randrange(256) for _ in range(width * height)])
    img.putpalette(bytes(rng.randrange(256) for _ in range(768)))
    return img


@pytest.mark.parametrize(("width", "height", "seed"), [(1, 1, 0), (37, 5, 1), (380, 241, 2)])
def test_decodes_to_the_same_indices_and_palette(width: int, height: int, seed: int) -> None:
    img = _picture(width, height, seed)
    data = encode_indexed(img)
    Image.open(io.BytesIO(data)).verify()  # every chunk's CRC, the stream's end
    back = Image.open(io.BytesIO(data))
    assert back.mode == "P" and back.size == (width, height)
    assert back.tobytes() == img.tobytes()
    assert back.getpalette() == img.getpalette()
    assert back.convert("RGB").tobytes() == img.convert("RGB").tobytes()


def test_refuses_a_picture_without_a_palette() -> None:
    with pytest.raises(ValueError, match="palette"):
        encode_indexed(Image.new("RGB", (4, 4)))
