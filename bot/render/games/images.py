"""Pictures of cards, drawn with Pillow by this code (no image files but the bundled font).

Generic on purpose: the functions take names, cards and rows, and the per-game presenters
decide what to draw. Each returns PNG bytes ready for a ``discord.File`` (and each has an
``*_image`` twin returning the Pillow image, to combine pictures):

- ``table_png``: the cards on the table (a trick), each at its player's side;
- ``hand_png``: a hand in overlapping rows of at most ``HAND_PER_ROW`` cards;
- ``layouts_png``: per player, places that each hold a face-up card or nothing, with the count
  of face-down cards under it;
- ``melds_pngs``: melds grouped by player with their numbers, as pages of at most
  ``max_height`` pixels (nothing is cut: more melds make more pages);
- ``rows_png`` / ``row_png``: labelled rows of cards (piles).

Sizes are chosen for a phone (~360 px wide): Discord scales a picture down to the screen width,
so the card indices are large in proportion to the picture. Every function takes
``colours="two"`` (♥♦ red, ♠♣ black) or ``"four"`` (♠ black, ♥ red, ♦ blue, ♣ green; Tarot
cups red, coins amber, swords blue, batons green).

Words and letters come translated: pictures are drawn in worker processes, which do not know the
reader's language, so captions and names arrive as the text to draw, and ``letters`` (the
reader's rank letters, ``cards.picture_letters``) is an argument of every function that draws
cards, and so part of the picture's cache key.

Each card face is drawn once per (code, width, colours) and reused (``card_face``), cut once
into an opaque middle that is copied and edges that are blended (``_pieces``: most of a card is
copied, not blended, with the same pixels), and a picture whose inputs did not change is not
drawn or encoded again (``bot.render.cache``). The picture workers start with the usual faces
drawn (``bot.render.ready_faces``). A layouts picture is written from bands (a row's name, its
places) kept deflated, those that did not change neither drawn nor deflated again. Every
picture is encoded on one palette made once (``_palette``): small files, quick to encode. To
draw off the event loop, ``await bot.render.pool.render(images.table_png, ...)``.
"""

from __future__ import annotations

import functools
import math
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Sequence
from functools import lru_cache
from itertools import starmap
from typing import Any, ParamSpec

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from bot.render.cache import LruBytes, hashable, png_cache
from bot.render.fonts import draw_text, font
from bot.render.games.faces import (
    BLACK,
    FELT,
    FELT_LINE,
    GOLD,
    LABEL,
    WHITE,
    Letters,
    Point,
    Rgb,
    card_face,
    card_height,
    card_index,
    fitted_size,
    index_height,
    index_width,
    scheme,
)
from bot.render.png import Band, deflate_band, encode_bands, encode_framed, encode_indexed

P = ParamSpec("P")

#: The size of a card on the table picture (``seat_positions`` places them).
CARD_W, CARD_H = 110, 154
HAND_W = 100
HAND_PER_ROW = 9
LAYOUT_W = 96
MELD_W = 66


#: The shadow's margin around a card: a card's tile is this much larger on every side.
_SHADOW_PAD = 6


@lru_cache(maxsize=16)
def _shadow(width: int) -> Image.Image:
    height = card_height(width)
    pad = _SHADOW_PAD
    img = Image.new("RGBA", (width + 2 * pad, height + 2 * pad), (0, 0, 0, 0))
    ImageDraw.Draw(img).rounded_rectangle(
        (pad, pad, pad + width, pad + height), width * 0.09, fill=(0, 0, 0, 110)
    )
    return img.filter(ImageFilter.GaussianBlur(3))


#: Where a card sits on its shadow (``_shadowed``): the shadow falls 2 px right and 3 px down.
_SHADOW_AT = (_SHADOW_PAD - 2, _SHADOW_PAD - 3)


def _shadowed(code: str | None, width: int, colours: str, letters: Letters = ()) -> Image.Image:
    """A card on its soft shadow, as one RGBA image: one paste per card instead of two (a hand
    is drawn at nearly every move, and pasting was half of its cost). Not kept: only its
    pieces are (``_pieces``)."""
    tile = _shadow(width).copy()
    tile.alpha_composite(card_face(code, width, colours, letters), _SHADOW_AT)
    return tile


#: A piece of a card's tile: where it sits in the tile, its pixels, and whether it is pasted
#: through its own alpha (an edge, a corner, the shadow) or copied (the opaque middle).
Piece = tuple[int, int, Image.Image, bool]
#: A box of pixels: left, top, right, bottom (right and bottom excluded).
Box = tuple[int, int, int, int]


@lru_cache(maxsize=512)
def _pieces(code: str | None, width: int, colours: str, letters: Letters) -> tuple[Piece, ...]:
    """``_shadowed`` cut into its opaque middle, copied as it is, and the four bands around it,
    blended through their alpha. Blending a pixel whose alpha is 255 gives the card's pixel
    exactly, so the picture is the same; copying most of the card instead of blending it made
    pasting a card 2-4 times faster (a hand pastes one per card at nearly every move)."""
    tile = _shadowed(code, width, colours, letters)
    return _cut(tile, _core(tile, width))


def _cut(tile: Image.Image, core: tuple[int, int, int, int] | None) -> tuple[Piece, ...]:
    """``tile`` (RGBA) as pieces: ``core``, opaque, copied; the bands around it blended (the
    whole tile blended if there is no opaque ``core``)."""
    if core is None:
        return ((0, 0, tile, True),)
    alpha = tile.getchannel("A")
    pieces: list[Piece] = []
    for band in _bands(tile, core):
        # A band's own opaque middle (the face's rows above and below the corners' curve) is
        # copied too: blending a pixel costs ten times copying it.
        inner = _opaque_middle(alpha, band)
        for box in _around(band, inner) if inner is not None else [band]:
            pieces.append((box[0], box[1], tile.crop(box), True))
        if inner is not None:
            pieces.append((inner[0], inner[1], tile.crop(inner).convert("RGB"), False))
    return (*pieces, (core[0], core[1], tile.crop(core).convert("RGB"), False))


#: The fewest pixels of a band's opaque middle worth a paste of its own (``_opaque_middle``).
_WORTH_COPYING = 512


def _opaque_middle(alpha: Image.Image, band: Box) -> Box | None:
    """The opaque box across the middle column of ``band`` (``alpha``: the tile's alpha): its
    rows that are opaque there, as wide as all of them are opaque around it; None if it is
    smaller than ``_WORTH_COPYING`` pixels."""
    x0, y0, x1, y1 = band
    width, middle = x1 - x0, (x1 - x0) // 2
    values = alpha.crop(band).tobytes()
    best: Box | None = None
    left, right, first = 0, width, None
    for i in range(y1 - y0 + 1):
        row = values[i * width : (i + 1) * width] if i < y1 - y0 else b""
        if row and row[middle] == 255:
            a, b = middle, middle + 1
            while a > 0 and row[a - 1] == 255:
                a -= 1
            while b < width and row[b] == 255:
                b += 1
            left, right = (a, b) if first is None else (max(left, a), min(right, b))
            first = i if first is None else first
            continue
        if first is not None:
            box = (x0 + left, y0 + first, x0 + right, y0 + i)
            if best is None or _area(box) > _area(best):
                best = box
        left, right, first = 0, width, None
    return best if best is not None and _area(best) >= _WORTH_COPYING else None


def _area(box: Box) -> int:
    return (box[2] - box[0]) * (box[3] - box[1])


def _around(outer: Box, inner: Box) -> list[Box]:
    """The parts of ``outer`` around ``inner`` (inside it): above, below, left and right of it,
    those not empty."""
    (x0, y0, x1, y1), (left, top, right, bottom) = outer, inner
    boxes = [
        (x0, y0, x1, top),
        (x0, bottom, x1, y1),
        (x0, top, left, bottom),
        (right, top, x1, bottom),
    ]
    return [box for box in boxes if box[0] < box[2] and box[1] < box[3]]


def _core(tile: Image.Image, width: int) -> tuple[int, int, int, int] | None:
    """The box of the tile's face inside its rounded corners, if every pixel there is opaque."""
    left, top = _SHADOW_AT
    inset = math.ceil(width * 0.09) + 2  # past the corners' radius and their smoothed edge
    box = (left + 2, top + inset, left + width - 2, top + card_height(width) - inset)
    return box if tile.getchannel("A").crop(box).getextrema() == (255, 255) else None


def _bands(tile: Image.Image, core: tuple[int, int, int, int]) -> list[tuple[int, int, int, int]]:
    """The parts of the tile around ``core``: above, below, left and right of it."""
    return _around((0, 0, *tile.size), core)


@lru_cache(maxsize=256)
def _dimmed_pieces(
    code: str | None, width: int, colours: str, letters: Letters
) -> tuple[tuple[Piece, ...], tuple[tuple[int, int, Image.Image, Image.Image], ...]]:
    """A faded card (``DIM``), cut as ``_pieces``: its pieces with the veil already blended
    over every pixel of the face that is opaque (the middle, and the bands' opaque pixels: a
    band pastes those as they are, so the veil over them is the same over any picture), and
    the veil's own pieces (the grey and its mask) over the face's smoothed edge only, where
    the band blends with what is under it, blended after the bands. Blending the veil over
    whole bands was a third of the cost of putting a faded card."""
    pieces = _pieces(code, width, colours, letters)
    face = card_face(code, width, colours, letters)
    alpha = Image.new("L", _shadow(width).size, 0)
    alpha.paste(face.getchannel("A"), _SHADOW_AT)
    mask = alpha.point(lambda a: int(a * DIM))
    opaque = alpha.point(lambda a: 255 if a == 255 else 0)
    edge = ImageChops.subtract(mask, opaque)  # the mask where the face is not opaque (0 there)
    veil = Image.new("RGB", mask.size, DIM_VEIL)
    dimmed: list[Piece] = []
    veils = []
    for dx, dy, image, blended in pieces:
        box = (dx, dy, dx + image.width, dy + image.height)
        veiled = image.convert("RGB")
        veiled.paste(veil.crop(box), (0, 0), mask.crop(box))
        if not blended:
            dimmed.append((dx, dy, veiled, False))
            continue
        veiled.putalpha(image.getchannel("A"))
        dimmed.append((dx, dy, Image.composite(veiled, image, opaque.crop(box)), True))
        rim = edge.crop(box)
        inside = rim.getbbox()
        if inside is not None:
            at = (dx + inside[0], dy + inside[1], dx + inside[2], dy + inside[3])
            veils.append((at[0], at[1], veil.crop(at), rim.crop(inside)))
    return tuple(dimmed), tuple(veils)


def _put(
    img: Image.Image,
    x: float,
    y: float,
    code: str | None,
    width: int,
    colours: str,
    letters: Letters = (),
    dim: bool = False,
    hidden: Sequence[Box] = (),
    drawn: Sequence[Box] | None = None,
) -> None:
    """Paste a card (with a soft shadow that separates overlapping cards) at (x, y); ``dim``
    fades it under a grey veil (``DIM``): the player may not play it now. A piece of it inside
    one of the ``hidden`` boxes (opaque pieces pasted later cover them: ``_cover``) is not
    pasted. ``drawn``, if given: the boxes of ``img`` that may have been drawn on; outside them
    it is the felt (``FELT``), and a piece blended there is copied, blended over felt ahead."""
    x, y = int(round(x)) - _SHADOW_AT[0], int(round(y)) - _SHADOW_AT[1]
    on = None if drawn is None else tuple(drawn)
    _paste_all(img, _placed(code, width, colours, tuple(letters), dim, x, y, tuple(hidden), on))


def _paste_all(img: Image.Image, pastes: Iterable[tuple[Any, ...]]) -> None:
    """Paste each of ``pastes`` (the imaging core's paste's arguments: pixels, box and, if
    blended, a mask) in order, in one loop of C (``starmap``): a hand makes ~70 pastes, and a
    loop of Python calling each was a fifth of its drawing."""
    deque(starmap(img.im.paste, pastes), maxlen=0)


@lru_cache(maxsize=8192)
def _placed(
    code: str | None,
    width: int,
    colours: str,
    letters: Letters,
    dim: bool,
    x: int,
    y: int,
    hidden: tuple[Box, ...],
    drawn: tuple[Box, ...] | None,
) -> tuple[tuple[Any, ...], ...]:
    """``_put``'s pastes for the tile at (x, y) (its top-left corner, shadow included), as the
    imaging core's paste takes them. Kept: a hand's cards sit at a few places, with the same
    few boxes hidden at each, so a card at a place is worked out once, not at every picture."""
    # The hidden boxes as the tile sees them, cut to the tile: the cards of a hand see the
    # same few (the next card's middle, the next row's), so which pieces to paste is worked
    # out once for each (``_pastes``).
    on = None if drawn is None else _in_tile(drawn, x, y, width)
    out: list[tuple[Any, ...]] = []
    for left, top, right, bottom, pixels, mask in _pastes(
        code, width, colours, letters, dim, _in_tile(hidden, x, y, width), on
    ):
        box = (x + left, y + top, x + right, y + bottom)
        out.append((pixels, box) if mask is None else (pixels, box, mask))
    return tuple(out)


def _in_tile(boxes: tuple[Box, ...], x: int, y: int, width: int) -> tuple[Box, ...]:
    """``boxes`` (of a picture) as the tile at (x, y) sees them: cut to it, those not empty."""
    seen = []
    tile_w, tile_h = width + 2 * _SHADOW_PAD, card_height(width) + 2 * _SHADOW_PAD
    for left, top, right, bottom in boxes:
        box = (max(left - x, 0), max(top - y, 0), min(right - x, tile_w), min(bottom - y, tile_h))
        if box[0] < box[2] and box[1] < box[3]:
            seen.append(box)
    return tuple(seen)


#: One paste of ``_put``: the box in the tile, the pixels (the imaging core's image) and the
#: mask they are blended through, or None to copy them.
Paste = tuple[int, int, int, int, Any, Any]


@lru_cache(maxsize=4096)
def _pastes(
    code: str | None,
    width: int,
    colours: str,
    letters: Letters,
    dim: bool,
    hidden: tuple[Box, ...],
    drawn: tuple[Box, ...] | None = None,
) -> tuple[Paste, ...]:
    """The pastes that put a card's tile (faded if ``dim``) at (0, 0), in order: its pieces
    (``_pieces``, ``_dimmed_pieces``), then the veil's, those inside a ``hidden`` box left
    out (covered later by an opaque piece: not pasting them leaves the same pixels). A
    piece blended outside every ``drawn`` box (given: the picture is felt outside them) is
    copied blended over felt ahead (``_over_felt``): the same pixels, a copy costs a fifth."""
    key = (code, width, colours, letters)
    layers: list[tuple[int, int, Image.Image, Image.Image | None]] = []
    pieces, veils = _dimmed_pieces(*key) if dim else (_pieces(*key), ())
    felt = _over_felt(*key, dim) if drawn is not None else (None,) * len(pieces)
    for (dx, dy, image, blended), over_felt in zip(pieces, felt, strict=True):
        box = (dx, dy, dx + image.width, dy + image.height)
        if over_felt is not None and drawn is not None and not _meets(box, drawn):
            layers.append((dx, dy, over_felt, None))
        else:
            layers.append((dx, dy, image, image if blended else None))
    layers += veils
    out: list[Paste] = []
    for dx, dy, image, mask in layers:
        box = (dx, dy, dx + image.width, dy + image.height)
        if not _hidden(box, hidden):
            out.append((*box, image.im, None if mask is None else mask.im))
    return tuple(out)


@lru_cache(maxsize=512)
def _over_felt(
    code: str | None, width: int, colours: str, letters: Letters, dim: bool
) -> tuple[Image.Image | None, ...]:
    """A card's pieces (``_pieces``, or ``_dimmed_pieces`` if ``dim``), each blended one over
    the felt, as the picture's felt would blend it (None: a piece copied anyway)."""
    key = (code, width, colours, letters)
    pieces = _dimmed_pieces(*key)[0] if dim else _pieces(*key)
    out: list[Image.Image | None] = []
    for _dx, _dy, image, blended in pieces:
        if not blended:
            out.append(None)
            continue
        felt = Image.new("RGB", image.size, FELT)
        felt.im.paste(image.im, (0, 0, *image.size), image.im)  # as ``_put`` blends it
        out.append(felt)
    return tuple(out)


def _meets(box: Box, boxes: Sequence[Box]) -> bool:
    """Whether ``box`` overlaps one of ``boxes``."""
    return any(
        box[0] < other[2] and other[0] < box[2] and box[1] < other[3] and other[1] < box[3]
        for other in boxes
    )


def _inside(box: Box, outer: Box) -> bool:
    return outer[0] <= box[0] and outer[1] <= box[1] and box[2] <= outer[2] and box[3] <= outer[3]


def _hidden(box: Box, hidden: Sequence[Box]) -> bool:
    """Whether ``box`` is inside one of the ``hidden`` boxes."""
    return any(_inside(box, outer) for outer in hidden)


def _paste(img: Image.Image, pieces: Sequence[Piece], x: int, y: int) -> None:
    """Paste ``pieces`` with their tile's top-left corner at (x, y): blended through their
    alpha or copied."""
    # The imaging core's paste, not ``Image.paste``: its checks cost as much as pasting a band.
    core = img.im
    for dx, dy, piece, blended in pieces:
        box = (x + dx, y + dy, x + dx + piece.width, y + dy + piece.height)
        if blended:
            core.paste(piece.im, box, piece.im)
        else:
            core.paste(piece.im, box)


def _cover(
    x: float, y: float, code: str | None, width: int, colours: str, letters: Letters = ()
) -> Box | None:
    """The box of the opaque middle a card put at (x, y) (``_put``, faded or not: the same box)
    copies over whatever is under it, or None if it has none."""
    box = _middle(code, width, colours, tuple(letters))
    if box is None:
        return None
    x, y = int(round(x)) - _SHADOW_AT[0], int(round(y)) - _SHADOW_AT[1]
    return (x + box[0], y + box[1], x + box[2], y + box[3])


@lru_cache(maxsize=1024)
def _middle(code: str | None, width: int, colours: str, letters: Letters) -> Box | None:
    """The box of a card's opaque middle in its tile (``_cover``), or None if it has none."""
    dx, dy, middle, blended = _pieces(code, width, colours, letters)[-1]
    return None if blended else (dx, dy, dx + middle.width, dy + middle.height)


def draw_ahead(codes: Sequence[str]) -> None:
    """Draw these cards now, as the pictures use them most (two colours, no letters): cut for
    pasting at the widths of a hand and of a four-seat table, and as indexes at the widths of a
    layout and of a row; and make the shared palette (``bot.render.ready_faces``)."""
    _palette()
    for code in codes:
        for width in (HAND_W, CARD_W):
            _pieces(code, width, "two", ())
        for width in (LAYOUT_W, MELD_W):
            _chip_pieces(code, width, "two", ())


def _chip(img: Image.Image, code: str, width: int, colours: str, letters: Letters,
          x: int, y: int) -> None:  # fmt: skip
    """The card's index (``card_index``) blended at (x, y), in pieces (``_chip_pieces``), by
    the imaging core's paste rather than ``Image.paste``, whose checks cost as much as pasting
    (a layout pastes a dozen card indexes)."""
    _paste(img, _chip_pieces(code, width, colours, tuple(letters)), x, y)


@lru_cache(maxsize=512)
def _chip_pieces(code: str, width: int, colours: str, letters: Letters) -> tuple[Piece, ...]:
    """A card's index cut as ``_pieces`` cuts a card: its opaque middle copied, the bands
    around it (the rounded, smoothed edge) blended. Blending the whole chip was most of the
    cost of drawing a layout (a dozen chips or more)."""
    chip = card_index(code, width, colours, letters)
    w, h = chip.size
    inset = math.ceil(w * 0.09) + 2  # past the corners' radius and their smoothed edge
    box = (2, inset, w - 2, h - inset)
    opaque = w > 4 and h > 2 * inset and chip.getchannel("A").crop(box).getextrema() == (255, 255)
    return _cut(chip, box if opaque else None)


def _place(
    draw: ImageDraw.ImageDraw, x: float, y: float, width: int, color: Rgb = FELT_LINE
) -> None:
    """An empty place where a card will go (or went)."""
    box = (x, y, x + width, y + card_height(width))
    draw.rounded_rectangle(box, width * 0.09, outline=color, width=3)


def draw_card(
    img: Image.Image,
    x: int,
    y: int,
    code: str | None,
    width: int = CARD_W,
    colours: str = "two",
) -> None:
    """Draw one card with its top-left corner at (x, y); ``None`` draws a card back."""
    _put(img, x, y, code, width, colours)


def _on_palette(img: Image.Image) -> Image.Image:
    """The picture on the shared palette (``_palette``), undithered: each colour always maps
    to the same index, wherever it is (what lets bands and cells be quantized apart)."""
    return img.quantize(palette=_palette(), dither=Image.Dither.NONE)


def _png(img: Image.Image) -> bytes:
    """PNG bytes of the picture on the shared palette (``_palette``), deflated by zlib-ng
    (``bot.render.png``: most of a picture's cost was Pillow's deflate)."""
    return encode_indexed(_on_palette(img))


# -- the table -----------------------------------------------------------------------------------
def table_layout(count: int) -> tuple[int, int, int]:
    """(width, height, card width) of the table picture for ``count`` seats."""
    if count <= 4:
        return 560, 400, CARD_W
    if count <= 6:
        return 680, 540, 100
    return 720, 620, 92


def seat_positions(
    count: int, viewer: int | None, width: int, height: int, card_w: int = CARD_W
) -> list[Point]:
    """Card centres around an ellipse; the viewer's seat (or seat 0) at the bottom."""
    bottom = viewer if viewer is not None else 0
    card_h = card_height(card_w)
    # Room above the top card and under the bottom one for a name.
    rx, ry = width / 2 - card_w * 0.9, height / 2 - card_h / 2 - 32
    out = []
    for seat in range(count):
        angle = math.pi / 2 + 2 * math.pi * ((seat - bottom) % count) / count
        out.append((width / 2 + rx * math.cos(angle), height / 2 + ry * math.sin(angle)))
    return out


def table_image(
    players: Sequence[str],
    played: Sequence[tuple[int, str]],
    viewer: int | None = None,
    caption: str = "",
    highlight: int | None = None,
    colours: str = "two",
    winner: int | None = None,
    letters: Letters = (),
) -> Image.Image:
    """The cards on the table: ``played`` is (seat, card) in play order, by each seat's name.

    A seat that has not played shows an empty place; ``highlight`` (whose turn) has its name and
    place in gold; ``winner`` (a seat) has its card framed in gold.
    """
    scheme(colours)
    count = max(len(players), 2)
    width, height, card_w = table_layout(count)
    card_h = card_height(card_w)
    img = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(img)
    centres = seat_positions(count, viewer, width, height, card_w)
    cards = {seat: card for seat, card in played if 0 <= seat < count}
    label_size = 24 if count <= 4 else 22
    for seat, (cx, cy) in enumerate(centres):
        left, top = cx - card_w / 2, cy - card_h / 2
        gold = seat == highlight
        if seat not in cards:
            _place(draw, left, top, card_w, GOLD if gold else FELT_LINE)
        name = players[seat] if seat < len(players) else f"#{seat + 1}"
        below = cy >= height / 2 - 1
        label_y = top + card_h + 7 if below else top - 7 - label_size * 0.75
        draw_text(draw, (cx, label_y), name, label_size, GOLD if gold else LABEL, anchor="mt",
                  max_width=min(card_w * 1.9, 2 * cx - 4, 2 * (width - cx) - 4))  # fmt: skip
    for seat, card in played:
        if seat in cards and cards[seat] == card:
            cx, cy = centres[seat]
            if seat == winner:
                draw.rounded_rectangle((cx - card_w / 2 - 5, cy - card_h / 2 - 5,
                                        cx + card_w / 2 + 5, cy + card_h / 2 + 5),
                                       card_w * 0.12, fill=GOLD)  # fmt: skip
            _put(img, cx - card_w / 2, cy - card_h / 2, card, card_w, colours, letters)
    if caption:
        # In the top-left corner, which no seat uses: the middle is too narrow for large cards.
        draw_text(draw, (12, 12), caption, 22, LABEL, max_width=width / 2 - card_w * 0.8)
    return img


# -- hands and rows ------------------------------------------------------------------------------
def row_counts(n: int, per_row: int = HAND_PER_ROW) -> list[int]:
    """``n`` cards as balanced rows of at most ``per_row`` (13 -> 7 + 6, 18 -> 9 + 9)."""
    if n <= 0:
        return []
    rows = math.ceil(n / per_row)
    base, extra = divmod(n, rows)
    return [base + 1 if r < extra else base for r in range(rows)]


def hand_image(
    cards: Sequence[str | None],
    colours: str = "two",
    per_row: int = HAND_PER_ROW,
    width: int = HAND_W,
    letters: Letters = (),
    dim: Sequence[int] = (),
    *,
    left: int = 0,
) -> Image.Image:
    """A hand in overlapping rows, in reading order; each card's index stays in view. The cards
    at the positions ``dim`` are faded: the player may not play them now. ``left``: columns of
    felt more on its left (``hand_png``: room for the PNG rows' filter bytes).

    Up to 5 cards sit side by side; more overlap (half a card apart) and wrap onto balanced rows
    of at most ``per_row``; each row covers the lower part of the row above, never an index.
    """
    scheme(colours)
    if per_row < 1:
        raise ValueError("per_row must be at least 1")
    cards = list(cards)
    counts = row_counts(max(len(cards), 1), per_row)
    height = card_height(width)
    step = width + 10 if len(cards) <= 5 else round(width * 0.52)
    row_step = round(height * 0.58)
    margin = 10
    widest = max(counts)
    img = Image.new(
        "RGB",
        (
            left + 2 * margin + step * (widest - 1) + width,
            2 * margin + row_step * (len(counts) - 1) + height,
        ),
        FELT,
    )
    dimmed = set(dim)
    # Each row's cards: (x, y, card, its index in the hand).
    rows: list[list[tuple[int, int, str | None, int]]] = []
    i = 0
    for r, k in enumerate(counts):
        y = margin + r * row_step
        rows.append(
            [
                (left + margin + j * step, y, cards[i + j], i + j)
                for j in range(k)
                if i + j < len(cards)
            ]
        )
        i += k
    # The box of each row's tiles put so far: outside them the picture is still felt, and a
    # card's piece blended there is copied blended over felt ahead (``_put``'s ``drawn``).
    above: list[Box] = []
    for r, row in enumerate(rows):
        # The next row, put after this one, covers its lower part (its shadow, its corners).
        below = _row_cover(rows[r + 1], width, colours, letters) if r + 1 < len(rows) else None
        for j, (x, y, card, n) in enumerate(row):
            # The next card of the row, put after this one, covers its right edge.
            right = _cover(*row[j + 1][:3], width, colours, letters) if j + 1 < len(row) else None
            hidden = tuple(box for box in (right, below) if box is not None)
            drawn = (*above, _tiles(row[0][0], row[j - 1][0], y, width)) if j else above
            _put(img, x, y, card, width, colours, letters, n in dimmed, hidden, drawn)
        if row:
            above.append(_tiles(row[0][0], row[-1][0], row[0][1], width))
    return img


def _tiles(first: int, last: int, y: int, width: int) -> Box:
    """The box of the tiles of cards put at ``first`` to ``last`` (x) at ``y`` (``_put``)."""
    left, top = first - _SHADOW_AT[0], y - _SHADOW_AT[1]
    return (
        left,
        top,
        last - _SHADOW_AT[0] + width + 2 * _SHADOW_PAD,
        top + card_height(width) + 2 * _SHADOW_PAD,
    )


def _row_cover(
    row: Sequence[tuple[int, int, str | None, int]], width: int, colours: str, letters: Letters
) -> Box | None:
    """The box the opaque middles of a row of cards (``_cover``) copy over together, if they
    make one box (side by side with no gap, as in a hand's overlapping rows); None if not."""
    boxes = [_cover(x, y, card, width, colours, letters) for x, y, card, _ in row]
    if not boxes or any(box is None for box in boxes):
        return None
    union = boxes[0]
    assert union is not None
    for box in boxes[1:]:
        assert box is not None
        if box[1] != union[1] or box[3] != union[3] or not box[0] <= union[2]:
            return None
        union = (union[0], union[1], max(union[2], box[2]), union[3])
    return union


#: How far a card that may not be played now fades under a grey veil (0: not at all, 1: gone),
#: after it is put and before the next card is (``_dimmed_pieces``): only what shows of it fades.
#: Grey, not the felt's green: faded into the felt, a black or green suit (a Jack of swords, a
#: club in four colours) became green on green; under grey every ink keeps its hue and stands
#: out from the paper, while the card reads as set aside against the bright playable ones.
DIM = 0.55
DIM_VEIL = (118, 120, 124)


def row_image(
    cards: Sequence[str | None],
    caption: str = "",
    overlap: int = 0,
    colours: str = "two",
    letters: Letters = (),
) -> Image.Image:
    """Cards side by side in one row (a meld, a discard pile), with an optional caption."""
    scheme(colours)
    step = max(CARD_W + 8 - overlap, CARD_W // 2)
    n = max(len(cards), 1)
    top = 36 if caption else 10
    img = Image.new("RGB", (20 + step * (n - 1) + CARD_W, top + CARD_H + 12), FELT)
    if caption:
        draw_text(ImageDraw.Draw(img), (10, 10), caption, 20, LABEL, max_width=img.width - 20)
    for i, card in enumerate(cards):
        _put(img, 10 + i * step, top, card, CARD_W, colours, letters)
    return img


def rows_image(
    rows: Sequence[tuple[str, Sequence[str | None]]],
    max_rows: int | None = None,
    colours: str = "two",
    letters: Letters = (),
) -> Image.Image:
    """Labelled rows of cards (a discard pile, melds...), every row shown unless ``max_rows``
    is given, and then a last line says how many rows were left out."""
    scheme(colours)
    rows = list(rows)
    left_out = 0
    if max_rows is not None and len(rows) > max_rows:
        left_out = len(rows) - max_rows
        rows = rows[:max_rows]
    # A row: its label on the left, then the cards' indices side by side (compact: a rummy
    # table has a row per meld).
    chip_w, chip_h = index_width(MELD_W), index_height(MELD_W)
    # As wide as the longest label needs (a language's "Last trick" may be longer), within
    # bounds: the wider the labels, the smaller the cards on a phone.
    longest = max((font(20).getlength(label) for label, _ in rows), default=0)
    label_w = int(min(max(150, longest + 26), 240))
    row_h = chip_h + 10
    widest = max((len(cards) for _, cards in rows), default=1)
    width = max(label_w + 10 + (chip_w + 2) * max(widest, 1), 360)
    height = 10 + row_h * max(len(rows), 1) + (30 if left_out else 0)
    img = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(img)
    for r, (label, cards) in enumerate(rows):
        top = 10 + r * row_h
        draw_text(draw, (10, top + chip_h / 2), label, 20, LABEL, anchor="lm",
                  max_width=label_w - 16)  # fmt: skip
        for i, card in enumerate(cards):
            code = card if card is not None else "??"
            _chip(img, code, MELD_W, colours, letters, label_w + i * (chip_w + 2), top)
    if left_out:
        more = f"+ {left_out} …"  # no words in a picture: they are drawn off the reader's task
        draw_text(draw, (10, height - 28), more, 18, LABEL)
    return img


# -- layouts: places holding a face-up card over face-down ones ------------------------------------
Place = tuple[str | None, int]


#: A layout picture's rows (``layouts_image``): a name's band, then its places' band below.
LAYOUT_TOP = 8
LAYOUT_LABEL_H = 32
LAYOUT_PEEK = 24


def _layout_size(rows: Sequence[tuple[str, Sequence[Place]]]) -> tuple[int, int, int]:
    """(width, height, one row's height) of the layouts picture of ``rows``."""
    w, h = index_width(LAYOUT_W), index_height(LAYOUT_W)
    row_h = LAYOUT_LABEL_H + h + LAYOUT_PEEK + 12
    widest = max((len(places) for _, places in rows), default=1)
    width = max(20 + (w + 8) * max(widest, 1) - 8, 360)
    return width, LAYOUT_TOP + row_h * max(len(rows), 1), row_h


def layouts_image(
    rows: Sequence[tuple[str, Sequence[Place]]],
    colours: str = "two",
    highlight: int | None = None,
    letters: Letters = (),
) -> Image.Image:
    """Per player (a name and its places), each place a (face-up card or None, face-down count).

    Places sit side by side as cards showing their index (all a player needs to choose a play);
    face-down cards peek out under a place as a card back with their count on it; a place with
    neither is an empty outline. ``highlight`` (a row index, whose turn) has its name in gold.
    """
    scheme(colours)
    width, height, row_h = _layout_size(rows)
    img = Image.new("RGB", (width, height), FELT)
    for r, (name, places) in enumerate(rows):
        top = LAYOUT_TOP + r * row_h
        _layout_name(img, top, name, r == highlight)
        _layout_places(img, top + LAYOUT_LABEL_H, places, colours, letters)
    return img


def _layout_name(img: Image.Image, top: int, name: str, gold: bool) -> None:
    """A layout's name, its band's top at ``top`` (gold: whose turn)."""
    draw_text(ImageDraw.Draw(img), (10, top + 4), name, 22, GOLD if gold else LABEL,
              max_width=img.width - 20)  # fmt: skip


def _layout_places(
    img: Image.Image, y: int, places: Sequence[Place], colours: str, letters: Letters
) -> None:
    """A layout's places side by side, their top at ``y``."""
    for i, (up, down) in enumerate(places):
        _layout_place(img, _place_x(i), y, up, down, colours, letters)


def _place_x(i: int) -> int:
    """The left of a layout's place ``i``."""
    return 10 + i * (index_width(LAYOUT_W) + _PLACE_GAP)


#: Pixels of felt between two places of a layout.
_PLACE_GAP = 8


def _layout_place(
    img: Image.Image,
    x: int,
    y: int,
    up: str | None,
    down: int,
    colours: str,
    letters: Letters,
) -> None:
    """A layout's place, its top-left corner at (x, y): its face-up card's index over the
    face-down cards' (their count on it), or an empty outline."""
    w, h = index_width(LAYOUT_W), index_height(LAYOUT_W)
    peek = LAYOUT_PEEK
    if up is None and down <= 0:
        ImageDraw.Draw(img).rounded_rectangle(
            (x, y, x + w, y + h), w * 0.12, outline=FELT_LINE, width=3
        )
        return
    if down > 0 and up is not None:
        _chip(img, "??", LAYOUT_W, colours, (), x, y + peek)
        _count_badge(img, x + w / 2, y + h + peek / 2 - 1, down)
    if up is not None:
        _chip(img, up, LAYOUT_W, colours, letters, x, y)
    else:
        _chip(img, "??", LAYOUT_W, colours, (), x, y)
        _count_badge(img, x + w / 2, y + h / 2, down)


def _count_badge(img: Image.Image, cx: float, cy: float, count: int) -> None:
    """A white disc with ``count`` in it, centred on (cx, cy): pasted ready (``_badge``), as
    it would be drawn there."""
    x, y = math.floor(cx), math.floor(cy)
    ready = _badge(count, cx - x, cy - y)
    if ready is None:
        _draw_badge(ImageDraw.Draw(img), cx, cy, count)
        return
    pixels, mask = ready
    img.paste(pixels, (x - _BADGE_PAD, y - _BADGE_PAD), mask)


_BADGE_R = 10
_BADGE_PAD = _BADGE_R + 4


def _draw_badge(draw: ImageDraw.ImageDraw, cx: float, cy: float, count: int) -> None:
    r = _BADGE_R
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=WHITE, outline=BLACK, width=2)
    draw.text((cx, cy), str(count), font=font(fitted_size(str(count), 15, 2 * r - 4)), fill=BLACK,
              anchor="mm")  # fmt: skip


@lru_cache(maxsize=64)
def _badge(count: int, fx: float, fy: float) -> tuple[Image.Image, Image.Image] | None:
    """The badge's pixels and the mask of those it sets, for a centre ``fx, fy`` past a whole
    pixel; None if a pixel it sets depends on what is under it. Its disc is drawn opaque and its
    number blended onto the disc: drawn over two backgrounds, every pixel it sets comes out
    the same, and the mask is where they agree. Drawing it at every face-down stack was a
    quarter of the cost of drawing the layouts."""
    size = 2 * _BADGE_PAD + 2
    backgrounds = ((1, 2, 3), (250, 240, 230))
    drawn = []
    for background in backgrounds:
        canvas = Image.new("RGB", (size, size), background)
        _draw_badge(ImageDraw.Draw(canvas), _BADGE_PAD + fx, _BADGE_PAD + fy, count)
        drawn.append(canvas)
    red, green, blue = ImageChops.difference(*drawn).point(lambda d: 255 if d else 0).split()
    differ = ImageChops.lighter(ImageChops.lighter(red, green), blue)  # any channel
    for canvas, background in zip(drawn, backgrounds, strict=True):
        changed = ImageChops.difference(canvas, Image.new("RGB", (size, size), background))
        # Where the two differ, each must be its own background: nothing blended into it.
        where = Image.merge("RGB", (differ, differ, differ))
        if ImageChops.multiply(changed, where).getbbox() is not None:
            return None
    return drawn[0], ImageChops.invert(differ)


# -- melds grouped by player, as pages -------------------------------------------------------------
MeldGroup = tuple[str, Sequence[tuple[int, Sequence[str]]]]


def _meld_width(n: int, w: int) -> int:
    return 40 + (index_width(w) + 2) * max(n, 1)


def melds_images(
    groups: Sequence[MeldGroup],
    colours: str = "two",
    width: int = 600,
    max_height: int | None = 900,
) -> list[Image.Image]:
    """Melds by player: a name, then that player's melds as numbered overlapping cards.

    Nothing is cut: melds flow onto more lines and, past ``max_height`` pixels, onto more pages
    (each page says ``1/2``; a player carried over repeats his name with ``…``).
    ``max_height=None`` gives one picture that grows as tall as needed.
    """
    scheme(colours)
    frozen = tuple(
        (str(name), tuple((int(n), tuple(str(c) for c in cards)) for n, cards in melds))
        for name, melds in groups
    )
    return _melds_pages(frozen, colours, int(width), max_height)


def _melds_pages(
    groups: tuple[tuple[str, tuple[tuple[int, tuple[str, ...]], ...]], ...],
    colours: str,
    width: int,
    max_height: int | None,
) -> list[Image.Image]:
    w = MELD_W
    chip_h = index_height(w)
    header_h, line_h, margin = 34, chip_h + 12, 10
    # Lines: ("name", text) or ("melds", [(number, cards, x)]).
    lines: list[tuple[str, object]] = []
    for name, melds in groups:
        lines.append(("name", name))
        x, line = margin, []
        per_line = max(1, (width - 2 * margin - 40) // (index_width(w) + 2))
        for number, cards in melds:
            # A meld longer than a line goes on over the next ones (without its number again).
            chunks = [cards[i : i + per_line] for i in range(0, len(cards), per_line)] or [()]
            for c, chunk in enumerate(chunks):
                need = _meld_width(len(chunk), w)
                if line and x + need > width - margin:
                    lines.append(("melds", line))
                    x, line = margin, []
                line.append((number if c == 0 else None, chunk, x))
                x += need + 16
        if line:
            lines.append(("melds", line))
        if not melds:
            lines.append(("none", "—"))
    heights = {"name": header_h, "melds": line_h, "none": 30}
    pages: list[list[tuple[str, object]]] = [[]]
    used = margin
    current = ""
    limit = max_height if max_height is not None else 10**9
    for i, (kind, value) in enumerate(lines):
        if kind == "name":
            current = str(value)
        # A name never ends a page: it moves on with its first line of melds.
        need = heights[kind] + (
            heights[lines[i + 1][0]] if kind == "name" and i + 1 < len(lines) else 0
        )
        if pages[-1] and used + need > limit - 30:
            pages.append([])
            used = margin
            if kind != "name":
                pages[-1].append(("name", f"{current} …"))
                used += header_h
        pages[-1].append((kind, value))
        used += heights[kind]
    out = []
    for p, page in enumerate(pages):
        height = margin + sum(heights[k] for k, _ in page) + (30 if len(pages) > 1 else 0)
        img = Image.new("RGB", (width, max(height, 60)), FELT)
        draw = ImageDraw.Draw(img)
        y = margin
        for kind, value in page:
            if kind == "name":
                draw_text(
                    draw, (margin, y + 6), str(value), 22, LABEL, max_width=width - 2 * margin
                )
                draw.line(
                    (margin, y + header_h - 3, width - margin, y + header_h - 3),
                    fill=FELT_LINE,
                    width=2,
                )
            elif kind == "none":
                draw_text(draw, (margin + 8, y + 4), str(value), 18, FELT_LINE)
            else:
                for number, cards, x in value:  # type: ignore[attr-defined]
                    _meld(img, draw, x, y + 4, number, cards, w, colours)
            y += heights[kind]
        if len(pages) > 1:
            draw_text(
                draw,
                (width - margin, height - 8),
                f"{p + 1}/{len(pages)}",
                18,
                LABEL,
                anchor="rs",
            )
        out.append(img)
    return out


def _meld(img: Image.Image, draw: ImageDraw.ImageDraw, x: int, y: int, number: int | None,
          cards: Sequence[str], w: int, colours: str) -> None:  # fmt: skip
    """A numbered meld: a gold disc with the number, then the cards' indices side by side."""
    chip_h = index_height(w)
    r = 16
    cy = y + chip_h / 2
    if number is not None:
        draw.ellipse((x, cy - r, x + 2 * r, cy + r), fill=GOLD)
        size = fitted_size(str(number), 20, 2 * r - 6)
        draw.text((x + r, cy), str(number), font=font(size), fill=BLACK, anchor="mm")
    step = index_width(w) + 2
    for i, card in enumerate(cards):
        _chip(img, card, w, colours, (), x + 40 + i * step, y)


@lru_cache(maxsize=32)
def _melds_encoded(
    groups: tuple[tuple[str, tuple[tuple[int, tuple[str, ...]], ...]], ...],
    colours: str,
    width: int,
    max_height: int | None,
) -> tuple[bytes, ...]:
    return tuple(_png(page) for page in _melds_pages(groups, colours, width, max_height))


def melds_pngs(
    groups: Sequence[MeldGroup],
    colours: str = "two",
    width: int = 600,
    max_height: int | None = 900,
) -> list[bytes]:
    """``melds_images`` as PNG pages (an unchanged set of melds is not drawn again)."""
    scheme(colours)
    frozen = tuple(
        (str(name), tuple((int(n), tuple(str(c) for c in cards)) for n, cards in melds))
        for name, melds in groups
    )
    return list(_melds_encoded(frozen, colours, int(width), max_height))


def melds_png(groups: Sequence[MeldGroup], colours: str = "two", width: int = 600) -> bytes:
    """All melds in one picture that grows as tall as needed (see ``melds_pngs`` for pages)."""
    return melds_pngs(groups, colours, width, max_height=None)[0]


# -- PNG bytes -------------------------------------------------------------------------------------
#: Hand pictures kept encoded (10-14 KB each: at most ~25 MB). Every player's last panel is
#: redrawn after each move at his table (cogs/live_panels.py) while his hand rarely changed: the
#: cache must hold every live hand, two per table at 1,000 tables, or each redraw draws and
#: encodes again (bench/load.py at 1,000 tables: with 64, 42% of the bot's CPU went to drawing
#: hands that were cached a moment before). Now the render pool's cache, in the bot's process,
#: answers first, and a picture worker keeps nothing here (``bot.render.cache.keep_nothing``).
HAND_CACHE = 2048


def _encoded(
    image_fn: Callable[P, Image.Image], name: str, cached: int = 64, framed: bool = False
) -> Callable[P, bytes]:
    """``name``: the picture of ``image_fn`` as PNG bytes, the last ``cached`` kept by their
    inputs. ``framed``: ``image_fn`` draws it one column to the right (``left=1``) of a
    column left for the PNG rows' filter bytes (``encode_framed``), rather than it be copied
    one column over to make room for them (a hand's 100 KB: 15 us, a third of it that copy)."""

    def png(*args: P.args, **kwargs: P.kwargs) -> bytes:
        if not framed:
            return _png(image_fn(*args, **kwargs))
        img = image_fn(*args, **kwargs, left=1)  # type: ignore[call-arg]
        return encode_framed(_on_palette(img))

    png.__name__ = png.__qualname__ = name  # what pickle (a process pool) looks the function up by
    png.__doc__ = f"``{image_fn.__name__}`` as PNG bytes.\n\n{image_fn.__doc__ or ''}"
    return png_cache(cached)(png)


table_png = _encoded(table_image, "table_png")
hand_png = _encoded(hand_image, "hand_png", cached=HAND_CACHE, framed=True)
row_png = _encoded(row_image, "row_png")
rows_png = _encoded(rows_image, "rows_png")


#: Bands of layouts pictures kept deflated (``_band``, 1-6 KB each), per worker process: a move
#: changes one player's places and the trick; his opponent's places, the names and the
#: margin are the same bands as in the pictures drawn before (at that table, and in the
#: public picture and the players' panels, which show the same rows in another order).
BAND_CACHE = 4096
_bands_kept = LruBytes(BAND_CACHE)

#: Rows of felt drawn above and below a band: if anything of it falls there, it is not drawn
#: as a band (its pixels would not be those of the whole picture).
_BAND_SPARE = 32


def _band(
    key: Hashable,
    width: int,
    height: int,
    draw: Callable[[Image.Image, int], None],
    quantized: Callable[[], Image.Image | None] | None = None,
) -> Band | None:
    """A band of a picture (all of its ``width``, ``height`` rows) deflated on its own
    (``bot.render.png.deflate_band``), kept by ``key`` (all that ``draw`` draws it from);
    ``draw(image, top)`` draws it with its top row at ``top``; ``quantized()``, if given, makes
    it on the shared palette without drawing (or None: it is drawn). None if it draws outside
    its rows: the picture must be drawn whole."""
    kept = _bands_kept.get(key)
    if kept is not None:
        return kept
    ready = quantized() if quantized is not None else None
    if ready is not None:
        value = deflate_band(ready)
        _bands_kept.put(key, value)
        return value
    spare = _BAND_SPARE
    canvas = Image.new("RGB", (width, height + 2 * spare), FELT)
    draw(canvas, spare)
    for box in ((0, 0, width, spare), (0, spare + height, width, height + 2 * spare)):
        if canvas.crop(box).getcolors(1) != [(width * spare, FELT)]:
            return None
    band = canvas.crop((0, spare, width, spare + height))
    value = deflate_band(_on_palette(band))
    _bands_kept.put(key, value)
    return value


def _places_band(
    places: Sequence[Place], width: int, height: int, colours: str, letters: Letters
) -> Image.Image | None:
    """A layout's places band (``_layout_places``) on the shared palette, put together from
    each place's cell, quantized once and kept (``_place_cell``): the band drawn and
    quantized whole has the same pixels, since a place draws only inside its cell, over felt
    (a colour maps to the same palette index wherever it is). None if a place draws outside
    its cell: the band must be drawn."""
    band = Image.new("P", (width, height), _felt_index())
    core = band.im
    for i, (up, down) in enumerate(places):
        cell = _place_cell(up, down, colours, tuple(letters), height)
        if cell is None:
            return None
        left = _place_x(i) - _PLACE_GAP // 2
        core.paste(cell.im, (left, 0, left + cell.width, height))
    return band


@lru_cache(maxsize=1024)
def _place_cell(
    up: str | None, down: int, colours: str, letters: Letters, height: int
) -> Image.Image | None:
    """A layout's place (``_layout_place``) and half the felt between it and its neighbours,
    ``height`` rows, quantized on the shared palette; None if the place draws outside it. A
    band's places recur (the same card over a face-down one, a move's other pictures), and
    drawing and quantizing its band whole was most of a new band's cost."""
    spare, half = _BAND_SPARE, _PLACE_GAP // 2
    w = index_width(LAYOUT_W) + 2 * half
    canvas = Image.new("RGB", (w + 2 * spare, height + 2 * spare), FELT)
    _layout_place(canvas, spare + half, spare, up, down, colours, letters)
    box = (spare, spare, spare + w, spare + height)
    cell = canvas.crop(box)
    canvas.paste(FELT, box)
    if canvas.getcolors(1) != [(canvas.width * canvas.height, FELT)]:  # drawn around it
        return None
    return _on_palette(cell)


@lru_cache(maxsize=1)
def _felt_index() -> int:
    """The felt's index in the shared palette."""
    felt = _on_palette(Image.new("RGB", (1, 1), FELT))
    return int(felt.getpixel((0, 0)))  # type: ignore[arg-type]


def _felt(image: Image.Image, top: int) -> None:
    """Nothing to draw: the felt's band (a picture's margin)."""


@png_cache(64)
def layouts_png(
    rows: Sequence[tuple[str, Sequence[Place]]],
    colours: str = "two",
    highlight: int | None = None,
    letters: Letters = (),
) -> bytes:
    """``layouts_image`` as PNG bytes, written from its bands (the margin above, then each
    row's name and places: ``_band``), those drawn before not drawn nor deflated again.

    Measured on a two-player game's moves (each move's public picture and the mover's panel,
    one player's places and the trick changed at each), CPU per picture, means of 960: drawn
    whole 0.66-0.70 ms, from bands 0.29 ms; the files 0.5% larger."""
    scheme(colours)
    width, _height, row_h = _layout_size(rows)
    bands = [_band(("top", width), width, LAYOUT_TOP, _felt)]
    for r, (name, places) in enumerate(rows):
        gold = r == highlight
        named = functools.partial(_layout_name, name=name, gold=gold)
        bands.append(_band(("name", name, gold, width), width, LAYOUT_LABEL_H, named))
        placed = functools.partial(_layout_places, places=places, colours=colours, letters=letters)
        key = ("places", hashable(places), width, colours, hashable(letters))
        height = row_h - LAYOUT_LABEL_H
        cells = functools.partial(_places_band, places, width, height, colours, letters)
        bands.append(_band(key, width, height, placed, cells))
    whole = [band for band in bands if band is not None]
    if not rows or len(whole) < len(bands):
        return _png(layouts_image(rows, colours, highlight, letters))
    return encode_bands(width, _palette_bytes(), whole)


@lru_cache(maxsize=1)
def _palette_bytes() -> bytes:
    """The shared palette's colours, as a picture quantized on it (``_png``) carries them."""
    palette = _palette().palette
    assert palette is not None
    return bytes(palette.tobytes())


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """One palette for every picture, made once from samples of every kind of picture.

    Mapping a picture onto a ready palette takes a fraction of a millisecond, where finding a
    palette per picture took several and encoding the 24-bit picture far more (and made files
    3-4 times larger). Every colour the pictures use is known in advance: felt, card faces in
    both colour schemes, inks, gold, labels, and the smoothed edges between them.
    """
    names = ["Ann", "Bob", "Cy", "Di"]
    tarot = ["K-CU", "1-CO", "7-SW", "5-BA", "T21", "FOOL", "JK", "??"]
    samples = [
        table_image(
            names, [(0, "AS"), (1, "KH"), (2, "10D")], highlight=3, winner=1, caption="last trick"
        ),  # fmt: skip
        table_image(names, [(0, "QC"), (1, "JD"), (2, "2H"), (3, "9S")], colours="four", winner=0),
        hand_image(tarot),
        hand_image(tarot[:4], colours="four"),
        layouts_image([("Ann", [("AS", 1), (None, 0), (None, 1), ("KD", 0)])], highlight=0),
        *melds_images(
            [("Ann", [(1, ["10C", "10D", "JK"]), (2, ["5H", "6H", "7H"])])],
            colours="four",
            width=360,
        ),  # fmt: skip
        *melds_images([("Bob", [(3, ["QS", "QC", "QH", "QD"])])], width=360),
    ]
    sheet = Image.new("RGB", (max(i.width for i in samples), sum(i.height for i in samples)))
    y = 0
    for sample in samples:
        sheet.paste(sample, (0, y))
        y += sample.height
    return sheet.quantize(256, method=Image.Quantize.FASTOCTREE)
