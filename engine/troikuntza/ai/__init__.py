"""TroiKuntza's AI players (``players``): the hand's shortfall and each card's usefulness
(``evaluation``), deals rebuilt from a view for playouts (``simulate``)."""

from __future__ import annotations

from engine.ai import PlayerFactory
from engine.ai.random_player import RandomPlayer
from engine.troikuntza.ai.players import TroiKuntzaHard, TroiKuntzaNormal

# A random player that never melds never ends a round: ``easy`` melds and lays off when it can.
_EASY_PREFERS = ("meld", "layoff")

#: Level -> factory ``seed -> player``, registered by ``engine.troikuntza``.
PLAYERS: dict[str, PlayerFactory] = {
    "easy": lambda seed: RandomPlayer("troikuntza", seed, prefer=_EASY_PREFERS),
    "normal": TroiKuntzaNormal,
    "hard": TroiKuntzaHard,
}

__all__ = ["PLAYERS", "TroiKuntzaHard", "TroiKuntzaNormal"]
