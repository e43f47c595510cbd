"""Draw a presenter's ``Picture`` into PNG bytes with ``bot.render.games.images``."""

from __future__ import annotations

from bot.render.games import images
from bot.render.presenter import Picture


def png(picture: Picture) -> bytes:
    """The picture's PNG bytes: ``picture.draw`` names a drawing function of ``images``."""
    draw = getattr(images, picture.draw, None)
    if draw is None or picture.draw.startswith("_"):
        raise LookupError(f"no drawing function {picture.draw!r}")
    return bytes(draw(**picture.kwargs()))
