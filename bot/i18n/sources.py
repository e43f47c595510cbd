"""Strings that live in declarations rather than in ``_()`` calls, registered with
``catalogs.SOURCES`` (each source yields ``(context or None, text)``)."""

from __future__ import annotations

from collections.abc import Iterator

from bot.i18n.catalogs import SOURCES


def option_descriptions() -> Iterator[tuple[str | None, str]]:
    """Every game's option descriptions (``engine.GAMES``), shown by ``/options`` and the lobby
    (``bot.render.embeds.option_lines`` translates them with ``_()``)."""
    import engine

    for spec in engine.GAMES.values():
        for option in spec.options:
            yield None, option.description


SOURCES.append(option_descriptions)
