"""Which games exist: their specs (``GAMES``) and their classes."""

from __future__ import annotations

from engine import troeven, troggu, troika, troikuntza
from engine.game import Game
from engine.options import GameSpec

CLASSES: dict[str, type[Game]] = {
    module.GAME_CLASS.spec.name: module.GAME_CLASS
    for module in (troika, troeven, troggu, troikuntza)
}

#: For each game: name, player range, option schema and presets.
GAMES: dict[str, GameSpec] = {name: cls.spec for name, cls in CLASSES.items()}
