"""Troika's AI players: ``normal`` heuristics (``normal``), ``hard`` search (``hard``, with its
sampled bidding in ``bidding`` and the double-dummy ``solver`` of the last tricks)."""

from __future__ import annotations

from engine.ai import PlayerFactory
from engine.ai.random_player import RandomPlayer
from engine.troika.ai.hard import TroikaHard
from engine.troika.ai.normal import TroikaNormal

#: Level -> factory ``seed -> player``, registered by ``engine.troika``.
PLAYERS: dict[str, PlayerFactory] = {
    "easy": lambda seed: RandomPlayer("troika", seed),
    "normal": TroikaNormal,
    "hard": TroikaHard,
}

__all__ = ["PLAYERS", "TroikaHard", "TroikaNormal"]
