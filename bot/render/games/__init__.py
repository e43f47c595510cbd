"""One presenter per game: every module of this package is imported, and each ``Presenter``
subclass in it registers itself by its ``game`` (see ``bot.render.presenter``)."""

from __future__ import annotations

import importlib
import pkgutil

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")
