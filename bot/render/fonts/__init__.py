"""The bundled font and text that never shows a missing-glyph box.

Pictures draw every word with DejaVu Sans Bold (shipped here, licence in ``LICENSE``): it covers
Latin with every accent, Greek, Cyrillic, the card suits and many symbols. What it lacks is
handled per character, so that a name never comes out as ``J□rgen``:

- Chinese, Japanese and Korean come from the bundled subset of Noto Sans CJK Bold
  (``BUNDLED_CJK``, 2.7 MB for about 13,000 common characters, licence in
  ``LICENSE-NotoSansCJK``; ``subset_cjk.py`` makes it again);
- a rarer character: if the host has a font for it installed (``SYSTEM_FALLBACKS``: the full
  Noto CJK, Droid Sans Fallback, WenQuanYi...), that font draws it;
- otherwise a letter or digit becomes a small neutral dot (``MISSING_LETTER``), so ``王小明``
  reads as ``•••``: a name is still there and keeps its length; an emoji or other symbol the
  font lacks is left out (``🤖 Easy AI`` reads ``Easy AI``); a text left empty becomes ``?``;
- invisible joiners, variation selectors and skin-tone modifiers (parts of emoji) are dropped.

Whether a font has a glyph is decided by drawing it: a character the font lacks renders as its
``.notdef`` glyph, the very box this module exists to avoid.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Hashable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import ImageDraw, ImageFont

FONT_DIR = Path(__file__).resolve().parent
BUNDLED = FONT_DIR / "DejaVuSans-Bold.ttf"
BUNDLED_CJK = FONT_DIR / "NotoSansCJKsc-Bold-subset.otf"

#: Fonts a host may have installed for scripts DejaVu lacks; used when present, never required.
SYSTEM_FALLBACKS: tuple[str, ...] = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
)

MISSING_LETTER = "•"
#: A code point no font maps: it always renders as the font's missing-glyph box.
NOTDEF_PROBE = "\U0010ffff"
_PROBE_SIZE = 24

Font = ImageFont.FreeTypeFont


#: Rendered texts kept per font (``_KeptMasks``).
KEPT_MASKS = 2048


class _KeptMasks(ImageFont.FreeTypeFont):
    """A font that keeps the masks it rendered: pictures draw the same short texts again and
    again (a face-down count on every stack of a layout, the players' names, captions), and
    rendering them was the largest part of a layout picture's time in the render workers. The
    mask depends only on the arguments (the text, its anchor, the fraction of a pixel it starts
    at...), so a kept one draws exactly the same pixels."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._masks: dict[Hashable, Any] = {}

    def getmask2(self, text: str | bytes, *args: Any, **kwargs: Any) -> Any:
        try:
            key: Hashable = (text, args, tuple(sorted(kwargs.items())))
            hash(key)
        except TypeError:  # a list of features: not kept
            return super().getmask2(text, *args, **kwargs)
        found = self._masks.get(key)
        if found is None:
            if len(self._masks) >= KEPT_MASKS:
                self._masks.clear()
            found = self._masks[key] = super().getmask2(text, *args, **kwargs)
        return found


def _truetype(path: str, size: int) -> Font:
    return _KeptMasks(path, size)


@lru_cache(maxsize=64)
def font(size: int) -> Font:
    """The bundled font at ``size`` pixels."""
    return _truetype(str(BUNDLED), max(1, int(size)))


@lru_cache(maxsize=1)
def fallback_paths() -> tuple[str, ...]:
    """The fonts tried, in order, for a character DejaVu lacks: the bundled CJK subset first
    (the same drawing on every host), then the host's own."""
    return (str(BUNDLED_CJK), *(p for p in SYSTEM_FALLBACKS if Path(p).is_file()))


@lru_cache(maxsize=64)
def _chain(size: int) -> tuple[Font, ...]:
    size = max(1, int(size))
    return (font(size), *(_truetype(p, size) for p in fallback_paths()))


@lru_cache(maxsize=16)
def _probe_font(path: str) -> Font:
    return ImageFont.truetype(path, _PROBE_SIZE)


@lru_cache(maxsize=16)
def _notdef(path: str) -> tuple[tuple[int, int], bytes]:
    mask = _probe_font(path).getmask(NOTDEF_PROBE)
    return mask.size, bytes(mask)


@lru_cache(maxsize=16384)
def has_glyph(path: str, char: str) -> bool:
    """Whether the font file at ``path`` draws ``char`` as itself, not as its missing-glyph box."""
    mask = _probe_font(path).getmask(char)
    return (mask.size, bytes(mask)) != _notdef(path)


def _ignorable(char: str) -> bool:
    """Parts of emoji sequences and other invisible format characters."""
    code = ord(char)
    return (
        0xFE00 <= code <= 0xFE0F  # variation selectors
        or 0xE0000 <= code <= 0xE01EF  # tags, supplementary variation selectors
        or 0x1F3FB <= code <= 0x1F3FF  # skin tones
        or unicodedata.category(char) == "Cf"  # joiners, direction marks, BOM
    )


@dataclass(frozen=True)
class Run:
    """A piece of text that one font draws completely."""

    text: str
    font: Font


def runs(text: str, size: int) -> list[Run]:
    """``text`` as pieces, each with a font holding every glyph in it (see the module doc)."""
    return list(_runs(str(text), max(1, int(size))))


# Pictures draw the same few texts again and again (names, counts, captions), and each drawing
# measures them several times (``fit`` shortens one letter at a time): the pieces, widths and
# fitted texts are pure functions of their arguments, so they are kept (a picture's CPU in the
# render workers was a third font work before).
@lru_cache(maxsize=4096)
def _runs(text: str, size: int) -> tuple[Run, ...]:
    chain = _chain(size)
    paths = (str(BUNDLED), *fallback_paths())
    pieces: list[tuple[str, int]] = []
    for char in str(text):
        if _ignorable(char):
            continue
        if unicodedata.category(char) in {"Cc", "Zl", "Zp"}:
            char = " "
        which = next((i for i, p in enumerate(paths) if has_glyph(p, char)), None)
        if which is None:
            if unicodedata.category(char)[0] not in "LN":
                continue  # an emoji or symbol no font has: left out
            char, which = MISSING_LETTER, 0
        if pieces and pieces[-1][1] == which:
            pieces[-1] = (pieces[-1][0] + char, which)
        else:
            pieces.append((char, which))
    if not "".join(p for p, _ in pieces).strip():
        return (Run("?", chain[0]),)
    return tuple(Run(piece, chain[i]) for piece, i in pieces)


@lru_cache(maxsize=4096)
def _advances(text: str, size: int) -> tuple[float, ...]:
    """Each piece's width (``_runs``), in order."""
    return tuple(run.font.getlength(run.text) for run in _runs(text, size))


def text_width(text: str, size: int) -> float:
    return sum(_advances(str(text), max(1, int(size))))


@lru_cache(maxsize=4096)
def fit(text: str, size: int, width: float) -> str:
    """``text`` shortened with ``…`` until it is at most ``width`` pixels wide at ``size``."""
    text = " ".join(str(text).split())
    if text_width(text, size) <= width:
        return text
    while len(text) > 1 and text_width(text + "…", size) > width:
        text = text[:-1].rstrip()
    return text + "…"


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: tuple[int, ...],
    anchor: str = "lt",
    max_width: float | None = None,
) -> float:
    """Draw ``text`` with fallbacks; returns its width.

    ``anchor``: horizontal ``l``/``m``/``r`` then vertical ``t`` (top of the tallest letters),
    ``m`` (middle) or ``s`` (baseline), like Pillow's text anchors.
    """
    if max_width is not None:
        text = fit(text, size, max_width)
    text, size = str(text), max(1, int(size))
    pieces, advances = _runs(text, size), _advances(text, size)
    width = sum(advances)
    ascent, descent, cap = _metrics(size)
    x, y = xy
    x -= {"l": 0.0, "m": width / 2, "r": width}[anchor[0]]
    # The bundled font's metrics place the baseline, so that every run shares it.
    baseline = {"t": y - cap, "m": y - cap / 2, "s": y}.get(anchor[1], y + ascent - descent)
    for run, advance in zip(pieces, advances, strict=True):
        draw.text((x, baseline), run.text, font=run.font, fill=fill, anchor="ls")
        x += advance
    return width


@lru_cache(maxsize=64)
def _metrics(size: int) -> tuple[int, int, float]:
    """The bundled font's ascent, descent and cap height (negative: above the baseline)."""
    ascent, descent = font(size).getmetrics()
    return ascent, descent, font(size).getbbox("H", anchor="ls")[1]
