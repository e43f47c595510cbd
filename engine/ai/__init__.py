"""AI players. An AI sees only ``view(seat)`` and ``legal_actions(seat)``: never the game.

Levels: ``easy`` (a random legal move), ``normal`` (per-game heuristics, a few ms a move) and
``hard`` (determinized search for the trick-taking games Troika, Troeven and Troggu, bounded by
sample counts so the same seed always gives the same move; TroiKuntza's ``hard`` plays
``normal``). ``make_player`` builds a fresh player; the service makes one per decision.
"""

from __future__ import annotations

from typing import Any, Protocol

from engine.ai.random_player import RandomPlayer

LEVELS = ("easy", "normal", "hard")


class Player(Protocol):
    def choose(self, view: dict[str, Any], legal: list[str]) -> str: ...


def make_player(game: str, level: str = "easy", seed: int = 0) -> Player:
    """An AI for ``game`` at ``level``; the same seed, view and legal list give the same move."""
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}; levels: {', '.join(LEVELS)}")
    if level == "easy":
        return RandomPlayer(game, seed)
    if game == "troika":
        from engine.ai import troika

        return troika.TroikaNormal(seed) if level == "normal" else troika.TroikaHard(seed)
    if game == "troeven":
        from engine.ai import troeven

        return troeven.TroevenNormal(seed) if level == "normal" else troeven.TroevenHard(seed)
    if game == "troggu":
        from engine.ai import troggu

        return troggu.TrogguNormal(seed) if level == "normal" else troggu.TrogguHard(seed)
    if game == "troikuntza":
        from engine.ai import troikuntza

        return troikuntza.TroiKuntzaNormal(seed)
    return RandomPlayer(game, seed)
