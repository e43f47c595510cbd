"""The card faces of every game, drawn in the fork server before it forks the picture workers
(``bot.workers`` preloads this module): each worker starts with them.

A worker's faces are its own (``bot.render.games.faces``, ``images``' pieces of a card): each
worker drew every card again for itself in its first minute, about a second of CPU each, just
when a restarted bot redraws every table at once, and again in a worker that replaces a dead
one. Drawn once here, they are shared by every worker the server forks. Only the defaults are
drawn (two colours, English letters, the widths of a hand, a table of four and a layout); others
are drawn when first asked for, as before.
"""

from __future__ import annotations

import bot.render.games  # noqa: F401 (registers the presenters)
from bot.render.games import images
from bot.render.presenter import PRESENTERS


def codes() -> tuple[str, ...]:
    """Every card code of every game's pictures, once, and a card back."""
    every = (code for presenter in PRESENTERS.values() for code in presenter.cards)
    return tuple(dict.fromkeys([*every, "??"]))


images.draw_ahead(codes())
