"""Trinket's AI players, one per level: ``easy`` plays at random, ``normal`` its highest
playable card, ``hard`` searches the trick in hand (``players``)."""

from __future__ import annotations

from engine.ai import PlayerFactory
from engine.ai.random_player import RandomPlayer
from engine.trinket.ai.players import HighestCard, TrickSearch

#: Level -> factory ``seed -> player``, registered by ``engine.trinket``.
PLAYERS: dict[str, PlayerFactory] = {
    "easy": lambda seed: RandomPlayer("trinket", seed),
    "normal": HighestCard,
    "hard": TrickSearch,
}

__all__ = ["PLAYERS", "HighestCard", "TrickSearch"]
