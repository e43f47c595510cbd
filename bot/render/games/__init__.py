"""One presenter package per game (``bot/render/games/<game>/``) beside the helpers they share
(``cards``, ``faces``, ``images``, ``_tricks``, ``_words``): every module and package here is
imported, and each ``Presenter`` subclass a game's package imports registers itself by its
``game`` (see ``bot.render.presenter``), so a new game adds only its own folder. Every folder
of this package's ``__path__`` is walked, so a game's package kept elsewhere (the fifth game of
``tests/games/``) is found the same way once its folder is added there and ``discover()`` runs.
"""

from __future__ import annotations

import importlib
import pkgutil


def discover() -> list[str]:
    """Import every module and package found on ``__path__`` (again: harmless); returns their
    names."""
    names = sorted(module.name for module in pkgutil.iter_modules(__path__))
    for name in names:
        importlib.import_module(f"{__name__}.{name}")
    return names


discover()
