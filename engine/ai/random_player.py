"""The `easy` AI: a uniformly random legal action."""

from __future__ import annotations

import random
from typing import Any


class RandomPlayer:
    """A random legal action; among the actions whose verb is in ``prefer`` when there are any
    (a game's package says which: in rummy a random player that never melds never ends a
    round, so TroiKuntza's melds and lay-offs whenever it can)."""

    def __init__(self, game: str, seed: int = 0, prefer: tuple[str, ...] = ()) -> None:
        self.game = game
        self.rng = random.Random(seed)
        self.preferred = prefer

    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        if not legal:
            raise ValueError("no legal action to choose from")
        if self.preferred:
            best = [a for a in legal if a.split(" ", 1)[0] in self.preferred]
            if best:
                return self.rng.choice(best)
        return self.rng.choice(legal)
