"""Draw a presenter's ``Picture`` into PNG bytes with ``bot.render.games.images``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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


def _key(picture: Picture) -> tuple[str, tuple[tuple[str, Any], ...]]:
    """The render pool's cache key of ``picture``: its fields as a plain tuple (equal pictures,
    equal keys). Not the ``Picture`` itself: the cache keeps 4,096 keys, and a tuple of strings
    and numbers leaves the garbage collector's scans while an object is scanned at every
    generation-1 collection for as long as it is kept."""
    return (picture.draw, picture.args)


async def render(picture: Picture) -> bytes:
    """The same, drawn in the render pool (the event loop keeps serving other tables), and
    answered from its cache when the same picture was drawn before."""
    return await pool.default_pool().render_keyed(
        _key(picture), _drawing(picture), **picture.kwargs()
    )


def ready(picture: Picture) -> bytes | None:
    """The picture's PNG bytes if the render pool has them already, else None (nothing drawn)."""
    return pool.default_pool().cache.peek(_key(picture))
