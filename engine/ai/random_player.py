"""The `easy` AI: a uniformly random legal action."""

from __future__ import annotations

import random
from typing import Any

# In rummy a random player that never melds never ends a round: when it can meld or lay off,
# it does (uniformly among those actions).
_PREFERRED: dict[str, tuple[str, ...]] = {"troikuntza": ("meld", "layoff")}


class RandomPlayer:
    def __init__(self, game: str, seed: int = 0) -> None:
        self.game = game
        self.rng = random.Random(seed)
        self.preferred = _PREFERRED.get(game, ())

    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        if not legal:
            raise ValueError("no legal action to choose from")
        if self.preferred:
            best = [a for a in legal if a.split(" ", 1)[0] in self.preferred]
            if best:
                return self.rng.choice(best)
        return self.rng.choice(legal)
