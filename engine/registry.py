"""Which games exist: every package under ``engine/`` that names its ``GAME_CLASS``.

A game is found, not listed: adding ``engine/<game>/`` (its ``__init__`` setting ``GAME_CLASS``)
is all it takes. ``register`` adds a game defined elsewhere (a test's toy game).
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from engine.ai import unregister_players
from engine.game import Game
from engine.options import GameSpec

CLASSES: dict[str, type[Game]] = {}

#: For each game: name, player range, option schema, presets and the facts the bot needs.
GAMES: dict[str, GameSpec] = {}


def register(cls: type[Game]) -> type[Game]:
    """Make ``cls`` a game of ``engine.GAMES`` (its ``spec.name`` must be new)."""
    name = cls.spec.name
    if CLASSES.get(name, cls) is not cls:
        raise ValueError(f"two games are named {name!r}")
    CLASSES[name] = cls
    GAMES[name] = cls.spec
    return cls


def unregister(name: str) -> None:
    """Forget a game added by ``register``, and its AI players (tests)."""
    CLASSES.pop(name, None)
    GAMES.pop(name, None)
    unregister_players(name)


def _discover() -> None:
    here = Path(__file__).parent
    for module in sorted(pkgutil.iter_modules([str(here)]), key=lambda m: m.name):
        if not module.ispkg or module.name == "ai":
            continue
        package = importlib.import_module(f"engine.{module.name}")
        cls = getattr(package, "GAME_CLASS", None)
        if cls is not None:
            register(cls)


_discover()
