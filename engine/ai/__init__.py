"""AI players: what every game's AI shares, and the registry of each game's players.

An AI sees only ``view(seat)`` and ``legal_actions(seat)``: never the game.

Levels: ``easy`` (a random legal move), ``normal`` (per-game heuristics, a few ms a move) and
``hard`` (search over deals of the hidden cards: double-dummy solving of Troika's last tricks,
playouts in the other trick games, all through ``common.sample_loop``; TroiKuntza counts the
cards its hand lacks instead), bounded by sample counts so the same seed always gives the same
move, with a wall-clock budget only as a safety net. ``make_player`` builds a
fresh player; the service makes one per decision.

Each game's players live in its own package (``engine/<game>/ai/``) and its ``__init__``
registers them here with ``register_players``: this package names no game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from engine.ai.random_player import RandomPlayer

LEVELS = ("easy", "normal", "hard")


class Player(Protocol):
    def choose(self, view: dict[str, Any], legal: list[str]) -> str: ...


#: A factory of one level's player: ``seed -> player``.
PlayerFactory = Callable[[int], Player]

#: Each game's AI players by level, as the game's package registered them.
PLAYERS: dict[str, dict[str, PlayerFactory]] = {}


def register_players(game: str, players: Mapping[str, PlayerFactory]) -> None:
    """Give ``game`` its AI players (level -> factory); a level left out plays at random."""
    unknown = set(players) - set(LEVELS)
    if unknown:
        raise ValueError(f"unknown AI levels {sorted(unknown)}; levels: {', '.join(LEVELS)}")
    PLAYERS[game] = dict(players)


def unregister_players(game: str) -> None:
    """Forget the AI players of ``game`` (tests)."""
    PLAYERS.pop(game, None)


def make_player(game: str, level: str = "easy", seed: int = 0) -> Player:
    """An AI for ``game`` at ``level``; the same seed, view and legal list give the same move."""
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}; levels: {', '.join(LEVELS)}")
    factory = PLAYERS.get(game, {}).get(level)
    if factory is None:
        return RandomPlayer(game, seed)
    return factory(seed)
