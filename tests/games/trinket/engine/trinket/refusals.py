"""Trinket's refusals: the English template of each key under ``trinket.``."""

from __future__ import annotations

TEMPLATES: dict[str, str] = {
    "trinket.play_how": "Play a card with `play <card>`, for example `play {example}`.",
    "trinket.not_held": "{card} is not among your trinket cards. Play one of: {cards:list}.",
    "trinket.follow_suit": "Follow suit: you hold {suit:suit}. Play one of: {cards:list}.",
}
