"""Card faces drawn by code: suit shapes, indices, Tarot trumps and the Fool, card backs.

Every face is drawn once per (code, width, colours) at three times its size, scaled down (smooth
edges on every shape without anti-aliased drawing primitives), and then reused from a cache:
callers paste the RGBA images and never draw on them. Suit symbols are shapes, so no font needs
to hold ♠♥♦♣ or the Tarot suits.

``letters``: the reader's rank letters (``(("K", "R"), ("Q", "D"), ("J", "V"))`` in French, see
``cards.picture_letters``), given by the caller since pictures are drawn in worker processes that
do not know the reader's language; empty for the English ones.

``colours``: ``"two"`` (♥♦ red, ♠♣ black; Tarot cups and coins red) or ``"four"`` (♠ black,
♥ red, ♦ blue, ♣ green; Tarot cups red, coins amber, swords blue, batons green).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render.fonts import font
from bot.render.games.cards import Face, face

COLOUR_SCHEMES: tuple[str, ...] = ("two", "four")

FELT = (22, 94, 58)
FELT_LINE = (70, 150, 105)
WHITE = (250, 250, 245)
RED = (200, 30, 40)
BLACK = (25, 25, 30)
BLUE = (25, 80, 205)
GREEN = (15, 125, 45)
AMBER = (190, 120, 0)
GOLD = (230, 185, 60)
BACK = (45, 70, 150)
BACK_LINE = (95, 120, 200)
LABEL = (240, 240, 230)
PARCHMENT = (250, 236, 196)
TRUMP_INK = (95, 35, 135)
NUMERAL_INK = (150, 100, 10)
FOOL_BAND = (110, 40, 150)
EDGE = (110, 110, 110)

SUIT_INK: dict[str, dict[str, tuple[int, int, int]]] = {
    "two": {"S": BLACK, "C": BLACK, "H": RED, "D": RED,
            "CU": RED, "CO": RED, "SW": BLACK, "BA": BLACK},
    "four": {"S": BLACK, "H": RED, "D": BLUE, "C": GREEN,
             "CU": RED, "CO": AMBER, "SW": BLUE, "BA": GREEN},
}  # fmt: skip

Point = tuple[float, float]
#: Rank letters as the reader reads them: (engine rank, shown letter) pairs, plain and hashable.
Letters = tuple[tuple[str, str], ...]
Rgb = tuple[int, int, int]
#: Faces are drawn this many times larger, then scaled down: smooth edges on every shape.
_SUPER = 3


def scheme(colours: str) -> str:
    if colours not in SUIT_INK:
        raise ValueError(f"colours must be one of {', '.join(COLOUR_SCHEMES)}, not {colours!r}")
    return colours


# -- suit symbols as shapes (no font needs to hold ♠♥♦♣ or 🏆) -----------------------------------
Shape = Callable[[ImageDraw.ImageDraw, float, float, float, Rgb], None]


def _heart(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill: Rgb) -> None:
    r = s * 0.27
    draw.ellipse((cx - 2 * r, cy - r * 1.3, cx + r * 0.05, cy + r * 0.75), fill=fill)
    draw.ellipse((cx - r * 0.05, cy - r * 1.3, cx + 2 * r, cy + r * 0.75), fill=fill)
    draw.polygon([(cx - 1.93 * r, cy - r * 0.05), (cx + 1.93 * r, cy - r * 0.05),
                  (cx, cy + s * 0.55)], fill=fill)  # fmt: skip


def _spade(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill: Rgb) -> None:
    r = s * 0.27
    draw.ellipse((cx - 2 * r, cy - r * 0.55, cx + r * 0.05, cy + r * 1.45), fill=fill)
    draw.ellipse((cx - r * 0.05, cy - r * 0.55, cx + 2 * r, cy + r * 1.45), fill=fill)
    draw.polygon([(cx - 1.93 * r, cy + r * 0.35), (cx + 1.93 * r, cy + r * 0.35),
                  (cx, cy - s * 0.55)], fill=fill)  # fmt: skip
    draw.polygon([(cx, cy + r * 0.6), (cx - r * 0.9, cy + s * 0.55), (cx + r * 0.9, cy + s * 0.55)],
                 fill=fill)  # fmt: skip


def _diamond(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill: Rgb) -> None:
    h, w = s * 0.55, s * 0.42
    draw.polygon([(cx, cy - h), (cx + w, cy), (cx, cy + h), (cx - w, cy)], fill=fill)


def _club(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill: Rgb) -> None:
    r = s * 0.22
    for dx, dy in ((0, -r * 1.25), (-r * 1.15, r * 0.45), (r * 1.15, r * 0.45)):
        draw.ellipse((cx + dx - r, cy + dy - r, cx + dx + r, cy + dy + r), fill=fill)
    draw.polygon([(cx, cy - r * 0.2), (cx - r * 0.9, cy + s * 0.55), (cx + r * 0.9, cy + s * 0.55)],
                 fill=fill)  # fmt: skip


def _cup(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill: Rgb) -> None:
    """A goblet: a wide bowl, a stem and a foot."""
    w = s * 0.45
    draw.rectangle((cx - w, cy - s * 0.52, cx + w, cy - s * 0.42), fill=fill)
    draw.chord((cx - w, cy - s * 0.85, cx + w, cy + s * 0.12), 0, 180, fill=fill)
    draw.rectangle((cx - s * 0.07, cy, cx + s * 0.07, cy + s * 0.4), fill=fill)
    draw.ellipse((cx - w * 0.75, cy + s * 0.34, cx + w * 0.75, cy + s * 0.55), fill=fill)


def _coin(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill: Rgb) -> None:
    """A coin: a disc with a ring and a centre."""
    r = s * 0.48
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)
    ring = r * 0.66
    draw.ellipse(
        (cx - ring, cy - ring, cx + ring, cy + ring), outline=WHITE, width=max(2, int(s * 0.07))
    )
    dot = r * 0.22
    draw.ellipse((cx - dot, cy - dot, cx + dot, cy + dot), fill=WHITE)


def _sword(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill: Rgb) -> None:
    """A sword point up: blade, cross guard, grip and pommel."""
    b = s * 0.14
    draw.polygon([(cx, cy - s * 0.62), (cx + b, cy - s * 0.42), (cx + b, cy + s * 0.18),
                  (cx - b, cy + s * 0.18), (cx - b, cy - s * 0.42)], fill=fill)  # fmt: skip
    draw.rounded_rectangle((cx - s * 0.4, cy + s * 0.14, cx + s * 0.4, cy + s * 0.29), s * 0.05,
                           fill=fill)  # fmt: skip
    draw.rectangle((cx - s * 0.08, cy + s * 0.28, cx + s * 0.08, cy + s * 0.5), fill=fill)
    p = s * 0.11
    draw.ellipse((cx - p, cy + s * 0.5 - p, cx + p, cy + s * 0.5 + p), fill=fill)


def _baton(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill: Rgb) -> None:
    """A baton (a cudgel) slanted: a thick staff with a knob at each end."""
    x0, y0, x1, y1 = cx - s * 0.3, cy + s * 0.5, cx + s * 0.3, cy - s * 0.5
    draw.line((x0, y0, x1, y1), fill=fill, width=max(3, int(s * 0.26)))
    for x, y, r in ((x1, y1, s * 0.2), (x0, y0, s * 0.15)):
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill)
    # Cut-off twigs on the staff make it read as wood, not a stroke.
    for t in (0.35, 0.62):
        x, y = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
        draw.line((x, y, x - s * 0.24, y - s * 0.1), fill=fill, width=max(2, int(s * 0.12)))


def _star_points(cx: float, cy: float, r: float, inner: float = 0.45) -> list[Point]:
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * inner
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points


def _star(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill: Rgb) -> None:
    draw.polygon(_star_points(cx, cy + s * 0.05, s * 0.55), fill=fill)


_SHAPES: dict[str, Shape] = {
    "H": _heart, "S": _spade, "D": _diamond, "C": _club,
    "CU": _cup, "CO": _coin, "SW": _sword, "BA": _baton,
}  # fmt: skip
_COURTS = {"K", "Q", "J", "N", "C"}


def roman(n: int) -> str:
    out = ""
    for value, numeral in ((10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while n >= value:
            out += numeral
            n -= value
    return out


@lru_cache(maxsize=1024)
def fitted_size(text: str, start: float, width: float) -> int:
    """The largest font size from ``start`` down (not under 8) at which ``text`` fits in
    ``width`` pixels. Kept: a layout's count badges ask for the same few at every picture, and
    measuring text was 3% of the pictures' CPU."""
    size = int(start)
    while size > 8 and font(size).getlength(text) > width:
        size -= 1
    return size


# -- one card face -------------------------------------------------------------------------------
def card_height(width: int) -> int:
    return round(width * 1.4)


def _index(
    draw: ImageDraw.ImageDraw, f: Face, w: float, ink: Rgb, mark: Shape | None, cx: float = 0.0
) -> None:
    """The top-left index: the rank (or a mark) large, the suit under it.

    It stays inside the left half of the card, which is what an overlapping hand row shows;
    ``cx`` moves its centre (default: a quarter of the card in).
    """
    cx, top = cx or w * 0.23, w * 0.06
    rank = {"trump": f.rank, "fool": "", "joker": ""}.get(f.family, f.rank)
    pip_y = top + w * 0.2
    if rank:
        size = w * (0.4 if len(rank) == 1 else 0.31)
        size = fitted_size(rank, size, w * 0.42)
        cap = -font(size).getbbox("H", anchor="ls")[1]
        draw.text((cx, top + cap), rank, font=font(size), fill=ink, anchor="ms")
        pip_y = top + cap + w * 0.2
    if mark is not None:
        mark(draw, cx, pip_y, w * 0.26, ink)


def lettered(f: Face, letters: Letters) -> Face:
    """The face with its rank in the reader's letters (a French or Tarot suited card)."""
    if not letters or f.family not in {"french", "tarot"}:
        return f
    return replace(f, rank=dict(letters).get(f.rank, f.rank))


def draw_face(f: Face, w: int, colours: str, letters: Letters = ()) -> Image.Image:
    """The face at ``w`` pixels wide, drawn large and scaled down (RGBA, rounded corners)."""
    big_w, big_h = w * _SUPER, card_height(w) * _SUPER
    img = Image.new("RGBA", (big_w, big_h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    box = (0, 0, big_w - 1, big_h - 1)
    radius = big_w * 0.09
    edge = max(2, _SUPER * 2)
    if f.family == "hidden":
        pattern = Image.new("RGBA", img.size, (*BACK, 255))
        lines = ImageDraw.Draw(pattern)
        for i in range(-big_h, big_w + big_h, big_w // 8):
            lines.line((i, 0, i + big_h, big_h), fill=BACK_LINE, width=_SUPER * 2)
            lines.line((i, big_h, i + big_h, 0), fill=BACK_LINE, width=_SUPER * 2)
        mask = Image.new("L", img.size, 0)
        ImageDraw.Draw(mask).rounded_rectangle(box, radius, fill=255)
        img.paste(pattern, (0, 0), mask)
        draw.rounded_rectangle(box, radius, outline=WHITE, width=edge * 2)
        return img.resize((w, card_height(w)), Image.LANCZOS)
    background = PARCHMENT if f.family == "trump" else WHITE
    draw.rounded_rectangle(box, radius, fill=background, outline=EDGE, width=edge)
    ink = _ink(f, colours)
    W, H = big_w, big_h  # noqa: N806 (the card's size, as in the geometry below)
    if f.family in {"french", "tarot"}:
        shape = _SHAPES[f.suit]
        shown = lettered(f, letters)
        _index(draw, shown, W, ink, shape)
        if f.rank in _COURTS:
            # A court: its letter large in a frame, a pip under it.
            frame = (W * 0.3, H * 0.3, W * 0.9, H * 0.93)
            draw.rounded_rectangle(frame, W * 0.05, outline=ink, width=_SUPER * 2)
            size = int(W * 0.42)
            if shown.rank != f.rank:  # a two-letter court of another language fits the frame
                size = fitted_size(shown.rank, size, W * 0.55)
            draw.text((W * 0.6, H * 0.5), shown.rank, font=font(size), fill=ink, anchor="mm")
            shape(draw, W * 0.6, H * 0.78, W * 0.26, ink)
        else:
            shape(draw, W * 0.58, H * 0.64, W * 0.58, ink)
    elif f.family == "trump":
        _index(draw, f, W, ink, _star)
        # The numeral stands upright in a panel on the right of the top half: in a hand row the
        # next card hides all of it (it starts past half the card) and the next row starts
        # below it, so a numeral is either whole or not seen (a cut XVIII reads as XV).
        panel = (W * 0.55, H * 0.06, W * 0.93, H * 0.56)
        draw.rounded_rectangle(panel, W * 0.06, fill=WHITE, outline=GOLD, width=_SUPER * 3)
        numeral = roman(int(f.rank))
        length, thick = panel[3] - panel[1], panel[2] - panel[0]
        flat = fitted_size(numeral, thick * 0.7, thick * 0.8)
        if flat >= thick * 0.55:  # short (I, II, IV, X...): upright letters read best
            centre = ((panel[0] + panel[2]) / 2, (panel[1] + panel[3]) / 2)
            draw.text(centre, numeral, font=font(flat), fill=NUMERAL_INK, anchor="mm")
        else:  # long (XVIII): along the panel, read bottom to top
            size = min(fitted_size(numeral, thick * 0.8, length * 0.84), int(thick * 0.8))
            strip = Image.new("RGBA", (int(length), int(thick)), (0, 0, 0, 0))
            ImageDraw.Draw(strip).text(
                (length / 2, thick / 2), numeral, font=font(size), fill=NUMERAL_INK, anchor="mm"
            )
            img.alpha_composite(strip.rotate(90, expand=True), (int(panel[0]), int(panel[1])))
        _star(draw, W * 0.5, H * 0.76, W * 0.36, GOLD)
    elif f.family == "fool":
        # Unmistakable: a purple band across the whole card (seen even in a hand row), a gold
        # star and the word.
        draw.rectangle((edge, H * 0.4, W - edge, H * 0.8), fill=FOOL_BAND)
        _star(draw, W * 0.23, W * 0.19, W * 0.3, FOOL_BAND)
        _star(draw, W * 0.5, H * 0.52, W * 0.3, GOLD)
        word = dict(letters).get("FOOL", "FOOL")
        size = fitted_size(word, W * 0.26, W * 0.8)
        draw.text((W / 2, H * 0.71), word, font=font(size), fill=WHITE, anchor="mm")
    elif f.family == "joker":
        _star(draw, W * 0.23, W * 0.19, W * 0.3, ink)
        _star(draw, W * 0.56, H * 0.52, W * 0.5, ink)
        word = dict(letters).get("JOKER", "JOKER")
        size = fitted_size(word, W * 0.22, W * 0.8)
        draw.text((W / 2, H * 0.83), word, font=font(size), fill=ink, anchor="mm")
    else:
        size = fitted_size(f.code, W * 0.3, W * 0.85)
        draw.text((W / 2, H / 2), f.code, font=font(size), fill=ink, anchor="mm")
    return img.resize((w, card_height(w)), Image.LANCZOS)


def _ink(f: Face, colours: str) -> Rgb:
    if f.family == "trump":
        return TRUMP_INK
    if f.family == "fool":
        return FOOL_BAND
    if f.family == "joker":
        return RED
    return SUIT_INK[colours].get(f.suit, RED if f.red else BLACK)


def card_face(
    code: str | None, width: int, colours: str = "two", letters: Letters = ()
) -> Image.Image:
    """One card as an RGBA image, drawn once per (code, width, colours, letters) and reused.

    ``None`` (or a hidden code) is a card back. Callers paste it; they never draw on it.
    """
    code = str(code if code is not None else "??").upper()
    return _card_face(code, int(width), colours, tuple(letters))


# One key per card however it is asked for (an lru_cache keys keyword and positional apart).
@lru_cache(maxsize=1024)
def _card_face(code: str, width: int, colours: str, letters: Letters) -> Image.Image:
    return draw_face(face(code), width, scheme(colours), letters)


def card_index(code: str, width: int, colours: str = "two", letters: Letters = ()) -> Image.Image:
    """A small card showing only its index (rank and suit), for compact rows such as melds.

    Its index is the size of the index of a card ``width`` wide; the chip is half as wide.
    """
    return _card_index(str(code).upper(), int(width), colours, tuple(letters))


@lru_cache(maxsize=512)
def _card_index(code: str, width: int, colours: str, letters: Letters) -> Image.Image:
    f = lettered(face(code), letters)
    w = int(width)
    big_w, big_h = index_width(w) * _SUPER, index_height(w) * _SUPER
    img = Image.new("RGBA", (big_w, big_h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    background = {"trump": PARCHMENT, "hidden": BACK}.get(f.family, WHITE)
    draw.rounded_rectangle((0, 0, big_w - 1, big_h - 1), big_w * 0.09, fill=background,
                           outline=EDGE, width=_SUPER * 2)  # fmt: skip
    if f.family == "fool":
        draw.rectangle(
            (_SUPER * 2, big_h * 0.72, big_w - _SUPER * 2, big_h - _SUPER * 6), fill=FOOL_BAND
        )
    ink = _ink(f, scheme(colours))
    mark = _SHAPES.get(f.suit) or (_star if f.family in {"trump", "fool", "joker"} else None)
    if f.family == "unknown":
        size = fitted_size(f.code, big_w * 0.3, big_w * 0.85)
        draw.text((big_w / 2, big_h / 2), f.code, font=font(size), fill=ink, anchor="mm")
    elif f.family != "hidden":
        _index(draw, f, w * _SUPER, ink, mark, cx=big_w / 2)
    return img.resize((index_width(w), index_height(w)), Image.LANCZOS)


def index_width(width: int) -> int:
    return round(width * 0.52)


def index_height(width: int) -> int:
    return round(width * 0.8)
