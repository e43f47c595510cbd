"""A palette picture as PNG bytes, written here rather than by Pillow's PNG plugin.

Deflating a picture's pixels was most of its cost (a hand: ~0.4 ms of ~0.6 ms in Pillow's
writer, which links the zlib its wheel ships). The same rows deflated by zlib-ng at its level 1
take a third of that, for files 15-20% larger (a hand 12 KB -> 14.5 KB). Measured per picture,
CPU, medians of 7 runs: a hand of 11 cards 626 -> 242 us, a 4-seat table 1,074 -> 301 us, a
two-player layout 540 -> 170 us. Decoded, the pixels are the same (tests/bot/render/
test_picture_pixels.py decodes every kind of picture).

Rows are left unfiltered (filter byte 0), as Pillow writes a palette picture: the deflate
finds the runs of the felt and the card faces by itself. The filter bytes are put in by
pasting the picture one column to the right of a column of zeros, in the imaging core.
"""

from __future__ import annotations

import struct
from functools import lru_cache

from PIL import Image
from zlib_ng import zlib_ng

#: zlib-ng's fastest level (its "quick" strategy): see the module docstring for the trade.
LEVEL = 1

_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(tag: bytes, data: bytes) -> bytes:
    # zlib-ng's CRC-32 (the same checksum): the standard library's took 21 us over a hand's
    # 16 KB of IDAT, zlib-ng's 1 us.
    crc = zlib_ng.crc32(data, zlib_ng.crc32(tag))
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", crc)


@lru_cache(maxsize=8)
def _palette_chunk(palette: bytes) -> bytes:
    """The PLTE chunk: every picture shares one palette, so it is written once."""
    return _chunk(b"PLTE", palette)


_END = _chunk(b"IEND", b"")


def _palette_of(img: Image.Image) -> bytes:
    """The colours of a picture in mode ``P`` (refused in any other mode)."""
    palette = img.palette
    if img.mode != "P" or palette is None:
        raise ValueError(f"a palette picture is needed, not mode {img.mode}")
    return bytes(palette.tobytes())


def _rows(img: Image.Image) -> bytes:
    """The picture's rows as a PNG holds them, before deflating: each a filter byte, then the
    row's palette indices."""
    _palette_of(img)
    width, height = img.size
    framed = Image.new("P", (width + 1, height), 0)
    framed.paste(img, (1, 0))  # each row starts with its filter byte: 0, none
    return framed.tobytes()


def _png(width: int, height: int, palette: bytes, idat: bytes) -> bytes:
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8 bits, palette colour
    return b"".join(
        (_SIGNATURE, _chunk(b"IHDR", header), _palette_chunk(palette), _chunk(b"IDAT", idat), _END)
    )


def encode_indexed(img: Image.Image) -> bytes:
    """PNG bytes of a picture in mode ``P`` (8-bit indices into its palette)."""
    return _png(*img.size, _palette_of(img), zlib_ng.compress(_rows(img), LEVEL))


def encode_framed(img: Image.Image) -> bytes:
    """PNG bytes of a picture in mode ``P`` but its first column, left for the rows' filter
    bytes (set here to 0, none): its rows as they are, not copied one column over (``_rows``)."""
    palette = _palette_of(img)
    width, height = img.size
    img.im.paste(0, (0, 0, 1, height))  # each row starts with its filter byte: 0, none
    return _png(width - 1, height, palette, zlib_ng.compress(img.tobytes(), LEVEL))


# -- a picture encoded from bands deflated apart ----------------------------------------------
# A picture whose horizontal bands recur from picture to picture (a row of it unchanged while
# another changed) can be written from each band deflated on its own and kept: deflate blocks
# flushed to a byte boundary (``Z_SYNC_FLUSH``) follow one another in one stream, and the
# stream's Adler-32 checksum is combined from the bands' own. The pixels are the same; the file
# is a little larger (no match reaches back across a band).

#: A band's PNG rows deflated alone: its deflate blocks, then the Adler-32 and the length of
#: the rows (8 bytes, big-endian), as one bytes object (kept in a ``LruBytes``).
Band = bytes

_ADLER_BASE = 65521
#: A zlib stream's header (deflate, 32 KB window, the fastest level) and a last, empty block.
_ZLIB_HEADER = b"\x78\x01"
_LAST_BLOCK = b"\x03\x00"


def deflate_band(img: Image.Image) -> Band:
    """A band of a picture (mode ``P``, the picture's width) deflated on its own."""
    rows = _rows(img)
    deflate = zlib_ng.compressobj(LEVEL, zlib_ng.DEFLATED, -15)  # raw deflate: no header
    blocks = deflate.compress(rows) + deflate.flush(zlib_ng.Z_SYNC_FLUSH)
    return blocks + struct.pack(">II", zlib_ng.adler32(rows), len(rows))


def _adler_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings one after the other, from each one's (zlib's
    ``adler32_combine``)."""
    base = _ADLER_BASE
    rem = second_length % base
    low = first & 0xFFFF
    high = (rem * low) % base
    low = (low + (second & 0xFFFF) + base - 1) % base
    high = (high + (first >> 16) + (second >> 16) + base - rem) % base
    return low | (high << 16)


def encode_bands(width: int, palette: bytes, bands: list[Band]) -> bytes:
    """PNG bytes of the picture made of ``bands`` (``deflate_band``) from top to bottom, each
    ``width`` wide, on ``palette`` (768 bytes: 256 RGB colours)."""
    adler, height, blocks = 1, 0, []
    for band in bands:
        checksum, length = struct.unpack_from(">II", band, len(band) - 8)
        adler = _adler_combine(adler, checksum, length)
        height += length // (width + 1)
        blocks.append(memoryview(band)[:-8])
    idat = b"".join((_ZLIB_HEADER, *blocks, _LAST_BLOCK, struct.pack(">I", adler)))
    return _png(width, height, palette, idat)
