"""Pictures of cards, drawn with Pillow by this code (no image files).

``table_png`` draws the cards on the table (the current trick, or a rummy table's discard pile)
with each card placed at its player's side; ``hand_png`` draws a hand in a fan-less row. Both
return PNG bytes ready for a ``discord.File``.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.render.cards import Face, face

CARD_W, CARD_H = 84, 120
RADIUS = 9
FELT = (22, 94, 58)
WHITE = (250, 250, 245)
RED = (200, 30, 40)
BLACK = (25, 25, 30)
GOLD = (200, 160, 40)
BACK = (45, 70, 150)
LABEL = (235, 235, 225)

Point = tuple[float, float]


@lru_cache(maxsize=8)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


# -- suit symbols as shapes (no font needs to hold ♠♥♦♣) -----------------------------------------
def _heart(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill: tuple) -> None:
    r = s * 0.27
    draw.ellipse((cx - 2 * r, cy - r * 1.2, cx, cy + r * 0.8), fill=fill)
    draw.ellipse((cx, cy - r * 1.2, cx + 2 * r, cy + r * 0.8), fill=fill)
    draw.polygon([(cx - 2 * r + 1, cy), (cx + 2 * r - 1, cy), (cx, cy + s * 0.55)], fill=fill)


def _spade(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill: tuple) -> None:
    r = s * 0.27
    draw.ellipse((cx - 2 * r, cy - r * 0.6, cx, cy + r * 1.4), fill=fill)
    draw.ellipse((cx, cy - r * 0.6, cx + 2 * r, cy + r * 1.4), fill=fill)
    draw.polygon([(cx - 2 * r + 1, cy + r * 0.3), (cx + 2 * r - 1, cy + r * 0.3),
                  (cx, cy - s * 0.55)], fill=fill)  # fmt: skip
    draw.polygon([(cx, cy + r), (cx - r, cy + s * 0.55), (cx + r, cy + s * 0.55)], fill=fill)


def _diamond(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill: tuple) -> None:
    h, w = s * 0.55, s * 0.4
    draw.polygon([(cx, cy - h), (cx + w, cy), (cx, cy + h), (cx - w, cy)], fill=fill)


def _club(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill: tuple) -> None:
    r = s * 0.21
    for dx, dy in ((0, -r * 1.3), (-r * 1.15, r * 0.4), (r * 1.15, r * 0.4)):
        draw.ellipse((cx + dx - r, cy + dy - r, cx + dx + r, cy + dy + r), fill=fill)
    draw.polygon([(cx, cy), (cx - r, cy + s * 0.55), (cx + r, cy + s * 0.55)], fill=fill)


def _cup(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill: tuple) -> None:
    w = s * 0.4
    draw.pieslice((cx - w, cy - s * 0.55, cx + w, cy + s * 0.1), 0, 180, fill=fill)
    draw.rectangle((cx - s * 0.06, cy, cx + s * 0.06, cy + s * 0.4), fill=fill)
    draw.rectangle((cx - w * 0.7, cy + s * 0.38, cx + w * 0.7, cy + s * 0.5), fill=fill)


def _coin(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill: tuple) -> None:
    r = s * 0.42
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)
    draw.ellipse(
        (cx - r * 0.55, cy - r * 0.55, cx + r * 0.55, cy + r * 0.55), outline=WHITE, width=2
    )


def _sword(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill: tuple) -> None:
    draw.polygon([(cx, cy - s * 0.6), (cx + s * 0.07, cy + s * 0.2), (cx - s * 0.07, cy + s * 0.2)],
                 fill=fill)  # fmt: skip
    draw.rectangle((cx - s * 0.28, cy + s * 0.2, cx + s * 0.28, cy + s * 0.28), fill=fill)
    draw.rectangle((cx - s * 0.05, cy + s * 0.28, cx + s * 0.05, cy + s * 0.55), fill=fill)


def _baton(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill: tuple) -> None:
    draw.line(
        (cx - s * 0.3, cy + s * 0.5, cx + s * 0.3, cy - s * 0.5),
        fill=fill,
        width=max(3, int(s * 0.16)),
    )
    r = s * 0.13
    draw.ellipse(
        (cx + s * 0.3 - r, cy - s * 0.5 - r, cx + s * 0.3 + r, cy - s * 0.5 + r), fill=fill
    )


_SHAPES = {
    "H": _heart, "S": _spade, "D": _diamond, "C": _club,
    "CU": _cup, "CO": _coin, "SW": _sword, "BA": _baton,
}  # fmt: skip


def _color(f: Face) -> tuple[int, int, int]:
    if f.family in {"trump", "fool"}:
        return GOLD if f.family == "fool" else BLACK
    return RED if f.red else BLACK


def draw_card(img: Image.Image, x: int, y: int, code: str | None) -> None:
    """Draw one card with its top-left corner at (x, y); ``None`` draws a card back."""
    draw = ImageDraw.Draw(img)
    box = (x, y, x + CARD_W, y + CARD_H)
    if code is None or face(code).family == "hidden":
        draw.rounded_rectangle(box, RADIUS, fill=BACK, outline=WHITE, width=3)
        for i in range(8, CARD_W - 4, 12):
            draw.line((x + i, y + 6, x + 6, y + i), fill=(80, 110, 190), width=2)
        return
    f = face(code)
    color = _color(f)
    draw.rounded_rectangle(box, RADIUS, fill=WHITE, outline=(90, 90, 90), width=2)
    corner = {"trump": f.rank, "fool": "Fool", "joker": "JK"}.get(f.family, f.rank)
    draw.text((x + 7, y + 5), corner, fill=color, font=_font(22 if len(corner) < 4 else 17))
    shape = _SHAPES.get(f.suit)
    if shape is not None:
        shape(draw, x + 15, y + 42, 16, color)
        shape(draw, x + CARD_W / 2, y + CARD_H / 2 + 12, 40, color)
    elif f.family == "trump":
        draw.rounded_rectangle((x + 12, y + 36, x + CARD_W - 12, y + CARD_H - 12), 6, outline=GOLD,
                               width=3)  # fmt: skip
        numeral = _roman(int(f.rank))
        size = 20 if len(numeral) <= 3 else 15
        _centered(draw, x + CARD_W / 2, y + CARD_H / 2 + 12, numeral, color, size)
    elif f.family in {"fool", "joker"}:
        star = _star(x + CARD_W / 2, y + CARD_H / 2 + 10, 26)
        draw.polygon(star, fill=GOLD if f.family == "fool" else RED)
    else:
        _centered(draw, x + CARD_W / 2, y + CARD_H / 2 + 10, f.code, color, 18)


def _roman(n: int) -> str:
    out = ""
    for value, numeral in ((10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while n >= value:
            out += numeral
            n -= value
    return out


def _star(cx: float, cy: float, r: float) -> list[Point]:
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points


def _centered(draw: ImageDraw.ImageDraw, cx: float, cy: float, text: str, fill: tuple,
              size: int) -> None:  # fmt: skip
    font = _font(size)
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
    draw.text((cx - (right - left) / 2, cy - (bottom - top) / 2 - top), text, fill=fill, font=font)


def _png(img: Image.Image) -> bytes:
    buffer = io.BytesIO()
    img.save(buffer, format="PNG", compress_level=3)
    return buffer.getvalue()


def seat_positions(count: int, viewer: int | None, width: int, height: int) -> list[Point]:
    """Card centres around an ellipse; the viewer's seat (or seat 0) at the bottom."""
    bottom = viewer if viewer is not None else 0
    rx, ry = width / 2 - CARD_W * 0.9, height / 2 - CARD_H * 0.75
    out = []
    for seat in range(count):
        angle = math.pi / 2 + 2 * math.pi * ((seat - bottom) % count) / count
        out.append((width / 2 + rx * math.cos(angle), height / 2 + ry * math.sin(angle)))
    return out


def table_png(
    players: Sequence[str],
    played: Sequence[tuple[int, str]],
    viewer: int | None = None,
    caption: str = "",
    highlight: int | None = None,
) -> bytes:
    """The cards on the table: ``played`` is (seat, card) in play order, by each seat's name."""
    count = max(len(players), 2)
    width, height = (560, 400) if count <= 4 else (680, 460)
    img = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(img)
    centres = seat_positions(count, viewer, width, height)
    for seat, (cx, cy) in enumerate(centres):
        name = players[seat] if seat < len(players) else f"Seat {seat + 1}"
        label_y = cy + CARD_H / 2 + 12 if cy >= height / 2 else cy - CARD_H / 2 - 12
        color = GOLD if seat == highlight else LABEL
        _centered(draw, cx, min(max(label_y, 10), height - 10), name[:18], color, 16)
    for seat, card in played:
        if not 0 <= seat < count:
            continue
        cx, cy = centres[seat]
        draw_card(img, int(cx - CARD_W / 2), int(cy - CARD_H / 2), card)
    if caption:
        _centered(draw, width / 2, height / 2, caption[:60], LABEL, 18)
    return _png(img)


def row_png(cards: Sequence[str | None], caption: str = "", overlap: int = 0) -> bytes:
    """Cards side by side (a hand, a meld, a discard pile)."""
    step = CARD_W + 6 - overlap
    n = max(len(cards), 1)
    top = 30 if caption else 8
    img = Image.new("RGB", (16 + step * (n - 1) + CARD_W, top + CARD_H + 10), FELT)
    if caption:
        ImageDraw.Draw(img).text((10, 6), caption[:80], fill=LABEL, font=_font(16))
    for i, card in enumerate(cards):
        draw_card(img, 8 + i * step, top, card)
    return _png(img)


def hand_png(cards: Sequence[str]) -> bytes:
    overlap = 0 if len(cards) <= 8 else 34 if len(cards) <= 14 else 52
    return row_png(list(cards), overlap=overlap)


def rows_png(rows: Sequence[tuple[str, Sequence[str | None]]], max_rows: int = 8) -> bytes:
    """Labelled rows of cards (a rummy table: the discard pile, then each meld)."""
    rows = list(rows)[:max_rows]
    step = CARD_W - 38
    label_w = 150
    row_h = CARD_H + 12
    widest = max((len(cards) for _, cards in rows), default=1)
    width = label_w + 16 + step * (widest - 1) + CARD_W
    img = Image.new("RGB", (max(width, 300), 10 + row_h * max(len(rows), 1)), FELT)
    draw = ImageDraw.Draw(img)
    for r, (label, cards) in enumerate(rows):
        top = 8 + r * row_h
        draw.text((10, top + CARD_H / 2 - 10), label[:18], fill=LABEL, font=_font(16))
        for i, card in enumerate(cards):
            draw_card(img, label_w + i * step, top, card)
    return _png(img)
