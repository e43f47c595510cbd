"""2-Player Troeven's AI players (``players``)."""

from __future__ import annotations

from engine.ai import PlayerFactory
from engine.ai.random_player import RandomPlayer
from engine.troeven.ai.players import TroevenHard, TroevenNormal

#: Level -> factory ``seed -> player``, registered by ``engine.troeven``.
PLAYERS: dict[str, PlayerFactory] = {
    "easy": lambda seed: RandomPlayer("troeven", seed),
    "normal": TroevenNormal,
    "hard": TroevenHard,
}

__all__ = ["PLAYERS", "TroevenHard", "TroevenNormal"]
