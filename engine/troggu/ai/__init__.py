"""Troggu's AI players (``players``), with the fitted model of a Tapp's chance (``bidding``)."""

from __future__ import annotations

from engine.ai import PlayerFactory
from engine.ai.random_player import RandomPlayer
from engine.troggu.ai.players import TrogguHard, TrogguNormal

#: Level -> factory ``seed -> player``, registered by ``engine.troggu``.
PLAYERS: dict[str, PlayerFactory] = {
    "easy": lambda seed: RandomPlayer("troggu", seed),
    "normal": TrogguNormal,
    "hard": TrogguHard,
}

__all__ = ["PLAYERS", "TrogguHard", "TrogguNormal"]
