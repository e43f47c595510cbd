"""Draw a presenter's ``Picture`` into PNG bytes with ``bot.render.games.images``."""

from __future__ import annotations

from collections.abc import Callable, Hashable

import orjson

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


def _key(picture: Picture) -> Hashable:
    """The render pool's cache key of ``picture``: its fields as JSON bytes (equal pictures,
    equal keys; a string, a number, a bool, None and a tuple each encode apart). Not the
    ``Picture``, nor a tuple of its fields: the cache keeps 4,096 keys, nearly all made in the
    last seconds at 1,000 tables, and the garbage collector scans each object of them in the
    next generation-1 collection (a tuple nested n deep leaves its scans only after n
    collections: 12,000 objects); bytes are never scanned."""
    try:
        return orjson.dumps((picture.draw, picture.flat))
    except TypeError:  # an argument JSON cannot hold (none so far): the picture's own fields
        return (picture.draw, picture.flat)


async def render(picture: Picture) -> bytes:
    """The same, drawn in the render pool (the event loop keeps serving other tables), and
    answered from its cache when the same picture was drawn before."""
    return await pool.default_pool().render_keyed(
        _key(picture), _drawing(picture), **picture.kwargs()
    )


def ready(picture: Picture) -> bytes | None:
    """The picture's PNG bytes if the render pool has them already, else None (nothing drawn)."""
    return pool.default_pool().cache.peek(_key(picture))
