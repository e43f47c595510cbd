"""Trinket's ``normal`` and ``hard`` players: each sees only its view and its legal moves."""

from __future__ import annotations

from typing import Any

from engine.trinket.game import RANKS, beats


def _card(action: str) -> str:
    return action.split(" ")[1].upper()


def _strength(action: str) -> int:
    """Higher for a higher card (A highest)."""
    return len(RANKS) - RANKS.index(_card(action)[:-1])


class HighestCard:
    """Plays its highest playable card, always."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        return max(legal, key=_strength)


class TrickSearch:
    """A tiny search of the trick on the table: of the cards that win it against every card
    still unseen, the lowest; when none is sure to win, the lowest card (saving the high ones).
    Leading, it leads a card no unseen card beats, else its lowest."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        seen = {str(p["card"]) for p in view.get("trick") or []} | set(view.get("hand") or [])
        unseen = [r + s for s in "SH" for r in RANKS if r + s not in seen]
        trick = view.get("trick") or []
        best_so_far = None
        for play in trick:
            card = str(play["card"])
            if best_so_far is None or beats(card, best_so_far):
                best_so_far = card
        sure = []
        for action in legal:
            card = _card(action)
            if best_so_far is not None and not beats(card, best_so_far):
                continue
            # Later players may still beat it with an unseen card of the suit led.
            if not any(beats(other, card) for other in unseen):
                sure.append(action)
        pool = sure or legal
        return min(pool, key=_strength)
