"""Draw a presenter's ``Picture`` into PNG bytes with ``bot.render.images``."""

from __future__ import annotations

from functools import lru_cache

from bot.render import images
from bot.render.presenter import Picture

#: Pictures kept drawn (a PNG is 5-15 KB: at most ~25 MB). A live hand panel is redrawn after
#: every move at its table while the hand itself rarely changed (bench/load.py: drawing and
#: encoding the same hand again was most of the bot's CPU); 2,048 covers the hands of 1,000
#: tables with two humans each.
CACHED = 2048


def png(picture: Picture) -> bytes:
    """The picture's PNG bytes: ``picture.draw`` names a drawing function of ``images``.
    The same picture (``Picture`` is hashable plain data) is drawn once."""
    draw = getattr(images, picture.draw, None)
    if draw is None or picture.draw.startswith("_"):
        raise LookupError(f"no drawing function {picture.draw!r}")
    try:
        hash(picture)
    except TypeError:  # an argument that is not plain data: draw it, do not keep it
        return bytes(draw(**picture.kwargs()))
    return _drawn(picture)


@lru_cache(maxsize=CACHED)
def _drawn(picture: Picture) -> bytes:
    return bytes(getattr(images, picture.draw)(**picture.kwargs()))
