"""Which games exist: their specs (``GAMES``) and their classes."""

from __future__ import annotations

from importlib import import_module

from engine.game import Game
from engine.options import GameSpec

_MODULES = ("troika", "troeven", "troggu", "troikuntza")

CLASSES: dict[str, type[Game]] = {}
for _name in _MODULES:
    try:
        _module = import_module(f"engine.{_name}")
    except ModuleNotFoundError as exc:  # a game not written yet; temporary while they land
        if exc.name != f"engine.{_name}":
            raise
        continue
    CLASSES[_name] = _module.GAME_CLASS

#: For each game: name, player range, option schema and presets.
GAMES: dict[str, GameSpec] = {name: cls.spec for name, cls in CLASSES.items()}
