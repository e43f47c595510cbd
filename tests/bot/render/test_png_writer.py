"""bot.render.png: a palette picture written as PNG (whole, or from bands deflated apart) decodes
to the same indices and palette."""

from __future__ import annotations

import io
import random
import zlib

import pytest
from PIL import Image

from bot.render.png import (
    _adler_combine,
    deflate_band,
    encode_bands,
    encode_framed,
    encode_indexed,
)


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


@pytest.mark.parametrize("seed", range(6))
def test_a_picture_written_framed_decodes_to_its_indices_but_its_first_column(seed: int) -> None:
    """``encode_framed``: a picture's first column is left for the rows' filter bytes; the PNG
    is the rest of it, whatever that column held."""
    rng = random.Random(seed)
    width, height = rng.randrange(2, 400), rng.randrange(1, 300)
    img = _picture(width, height, seed)
    rest = img.crop((1, 0, width, height))
    data = encode_framed(img)
    Image.open(io.BytesIO(data)).verify()
    back = Image.open(io.BytesIO(data))
    assert back.mode == "P" and back.size == (width - 1, height)
    assert back.tobytes() == rest.tobytes()
    assert back.getpalette() == img.getpalette()
    assert data == encode_indexed(rest)  # the same rows deflated: the same bytes


def test_refuses_a_picture_without_a_palette() -> None:
    with pytest.raises(ValueError, match="palette"):
        encode_indexed(Image.new("RGB", (4, 4)))
    with pytest.raises(ValueError, match="palette"):
        encode_framed(Image.new("RGB", (4, 4)))


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_a_picture_written_from_bands_decodes_to_its_indices(seed: int) -> None:
    """``encode_bands``: bands deflated apart, joined into one stream (its checksum combined
    from theirs), decode to the whole picture; zlib checks the stream's Adler-32."""
    rng = random.Random(seed)
    width = rng.randrange(1, 400)
    heights = [rng.randrange(1, 60) for _ in range(rng.randrange(1, 6))]
    img = _picture(width, sum(heights), seed)
    bands, top = [], 0
    for height in heights:
        bands.append(deflate_band(img.crop((0, top, width, top + height))))
        top += height
    data = encode_bands(width, bytes(img.getpalette() or ()), bands)
    Image.open(io.BytesIO(data)).verify()
    back = Image.open(io.BytesIO(data))
    assert back.size == img.size
    assert back.tobytes() == img.tobytes()
    assert back.getpalette() == img.getpalette()


def test_the_checksum_of_two_strings_is_combined_from_theirs() -> None:
    rng = random.Random(6)
    for _ in range(200):
        first = rng.randbytes(rng.randrange(70000))
        second = rng.choice([rng.randbytes, bytes])(rng.randrange(70000))
        combined = _adler_combine(zlib.adler32(first), zlib.adler32(second), len(second))
        assert combined == zlib.adler32(first + second)
