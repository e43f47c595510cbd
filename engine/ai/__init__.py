"""AI players. An AI sees only ``view(seat)`` and ``legal_actions(seat)``: never the game."""

from __future__ import annotations

from typing import Any, Protocol

from engine.ai.random_player import RandomPlayer

LEVELS = ("easy",)


class Player(Protocol):
    def choose(self, view: dict[str, Any], legal: list[str]) -> str: ...


def make_player(game: str, level: str = "easy", seed: int = 0) -> Player:
    """An AI for ``game`` at ``level``; the same seed, view and legal list give the same move."""
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}; levels: {', '.join(LEVELS)}")
    return RandomPlayer(game, seed)
