"""Which games exist: every package of ``engine`` that names its ``GAME_CLASS``.

A game is found, not listed: adding ``engine/<game>/`` (its ``__init__`` setting ``GAME_CLASS``)
is all it takes. Discovery walks every folder of ``engine.__path__``, so a game kept elsewhere
(the fifth game of ``tests/games/``) is found the same way once its folder is added there and
``discover()`` runs again. ``register`` adds a game class by hand.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys

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


def discover() -> list[str]:
    """Register every game package found on ``engine.__path__`` (again: harmless); returns the
    names of the games found."""
    # The package's own ``__path__`` (set before its ``__init__`` runs, which runs this): read
    # from ``sys.modules``, as importing the package here would tie this module to all of it.
    paths = list(sys.modules[__package__ or "engine"].__path__)
    found = []
    for module in sorted(pkgutil.iter_modules(paths), key=lambda m: m.name):
        if not module.ispkg or module.name == "ai":
            continue
        package = importlib.import_module(f"engine.{module.name}")
        cls = getattr(package, "GAME_CLASS", None)
        if cls is not None:
            found.append(register(cls).spec.name)
    return found


discover()
