"""One presenter package per game (``bot/render/games/<game>/``) beside the helpers they share
(``cards``, ``faces``, ``images``, ``_tricks``, ``_words``): every module and package here is
imported, and each ``Presenter`` subclass a game's package imports registers itself by its
``game`` (see ``bot.render.presenter``), so a new game adds only its own folder."""

from __future__ import annotations

import importlib
import pkgutil

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")
