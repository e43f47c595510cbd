"""Fingerprints of seeded games: the same games before and after a change of structure.

``python -m tests.golden.fingerprint`` prints one line per (game, players) cell: how many seeded
random games were played and the SHA-256 of their event streams, views and final ``to_json()``,
plus the AI's moves at each level from positions along the way. ``golden.json`` beside this file
holds those lines as computed on main before the package-per-game and service-split work; the
test compares against it, so a refactor that changes one event, one view or one AI move fails.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import sys
from pathlib import Path
from typing import Any

import engine
from engine.ai import make_player

GOLDEN = Path(__file__).with_name("golden.json")

#: Seeded random games per (game, players) cell: 4 games, every player count, 660+ in all.
GAMES_PER_CELL = {"troika": 80, "troeven": 120, "troggu": 45, "troikuntza": 28}
#: A random game of Troika to its target score runs to thousands of moves: each game is cut here.
MAX_MOVES = 700
#: Positions per cell where each AI level is asked for a move (hard is slow: fewer).
AI_POSITIONS = {"easy": 6, "normal": 6, "hard": 1}


def _dump(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str).encode()


def play(name: str, players: int, seed: int, digest: Any, ai_at: dict[str, set[int]]) -> int:
    """Play one seeded random game into ``digest``; returns the number of moves."""
    game = engine.new_game(name, players, seed=seed)
    rng = random.Random(seed * 7919 + players)
    moves = 0
    while not game.is_over() and moves < MAX_MOVES:
        seats = game.to_act()
        seat = seats[rng.randrange(len(seats))]
        legal = game.legal_actions(seat)
        digest.update(_dump([seat, legal]))
        for level, steps in ai_at.items():
            if moves in steps:
                view = game.view(seat)
                digest.update(_dump(view))
                player = make_player(name, level, seed=seed + moves)
                if hasattr(player, "budget"):
                    # Counts only: the wall-clock safety net cuts where the machine's load decides.
                    player.budget = math.inf
                move = player.choose(view, list(legal))
                digest.update(_dump([level, move]))
        action = legal[rng.randrange(len(legal))]
        events = game.apply(seat, action)
        digest.update(_dump(events))
        moves += 1
        if moves % 17 == 0:
            digest.update(_dump(game.view(None)))
    digest.update(game.to_json().encode())
    digest.update(_dump(game.result()))
    return moves


def cells() -> list[tuple[str, int]]:
    out = []
    for name in ("troika", "troeven", "troggu", "troikuntza"):
        spec = engine.GAMES[name]
        for n in range(spec.min_players, spec.max_players + 1):
            try:
                spec.check_players(n, spec.resolve(None, None))
            except engine.IllegalAction:
                continue  # a count only an option allows (TroiKuntza at 3)
            out.append((name, n))
    return out


def fingerprint(name: str, players: int, hard: bool = True) -> dict[str, Any]:
    digest = hashlib.sha256()
    total = 0
    count = GAMES_PER_CELL[name]
    for i in range(count):
        seed = 1000 * players + i
        ai_at: dict[str, set[int]] = {}
        if i < AI_POSITIONS["easy"]:
            ai_at["easy"] = {3, 11}
        if i < AI_POSITIONS["normal"]:
            ai_at["normal"] = {1, 4, 9, 23}
        if hard and i < AI_POSITIONS["hard"]:
            ai_at["hard"] = {2}
        total += play(name, players, seed, digest, ai_at)
    return {"games": count, "moves": total, "sha256": digest.hexdigest()}


def main() -> None:
    result = {f"{name}/{players}": fingerprint(name, players) for name, players in cells()}
    text = json.dumps(result, indent=1, sort_keys=True) + "\n"
    if "--write" in sys.argv:
        GOLDEN.write_text(text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
