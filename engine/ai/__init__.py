"""AI players. An AI sees only ``view(seat)`` and ``legal_actions(seat)``: never the game.

Levels: ``easy`` (a random legal move), ``normal`` (per-game heuristics, a few ms a move) and
``hard`` (search over deals of the hidden cards: double-dummy solving of Troika's last tricks,
playouts in the other trick games, all through ``common.sample_loop``; TroiKuntza counts the
cards its hand lacks instead), bounded by sample counts so the same seed always gives the same
move, with a wall-clock budget only as a safety net. ``make_player`` builds a
fresh player; the service makes one per decision.
"""

from __future__ import annotations

from typing import Any, Protocol

from engine.ai.random_player import RandomPlayer

LEVELS = ("easy", "normal", "hard")


class Player(Protocol):
    def choose(self, view: dict[str, Any], legal: list[str]) -> str: ...


def make_player(game: str, level: str = "easy", seed: int = 0) -> Player:
    """An AI for ``game`` at ``level``; the same seed, view and legal list give the same move.

    Each game declares its AI players per level (``GameSpec.ai_players``): a registry, so a new
    game brings its own."""
    from engine.registry import GAMES

    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}; levels: {', '.join(LEVELS)}")
    spec = GAMES.get(game)
    players = spec.ai_players() if spec is not None and spec.ai_players is not None else {}
    factory = players.get(level)
    if factory is None:
        return RandomPlayer(game, seed)
    return factory(seed)
