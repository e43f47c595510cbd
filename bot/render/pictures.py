"""Draw a presenter's ``Picture`` into PNG bytes with ``bot.render.games.images``."""

from __future__ import annotations

from collections.abc import Callable

from bot.render import pool
from bot.render.games import images
from bot.render.presenter import Picture


def _drawing(picture: Picture) -> Callable[..., bytes]:
    draw = getattr(images, picture.draw, None)
    if draw is None or picture.draw.startswith("_"):
        raise LookupError(f"no drawing function {picture.draw!r}")
    return draw  # type: ignore[no-any-return]


def png(picture: Picture) -> bytes:
    """The picture's PNG bytes: ``picture.draw`` names a drawing function of ``images``."""
    return bytes(_drawing(picture)(**picture.kwargs()))


async def render(picture: Picture) -> bytes:
    """The same, drawn in the render pool (the event loop keeps serving other tables), and
    answered from its cache when the same picture was drawn before."""
    return await pool.default_pool().render_keyed(picture, _drawing(picture), **picture.kwargs())


def ready(picture: Picture) -> bytes | None:
    """The picture's PNG bytes if the render pool has them already, else None (nothing drawn)."""
    return pool.default_pool().cache.peek(picture)
