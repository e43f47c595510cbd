"""2-Player Troeven's refusals: the English template of each key under ``troeven.``.

Registered by ``engine.troeven`` with ``engine.messages.add_templates``; ``engine.messages``
says what the fields and styles mean.
"""

from __future__ import annotations

TEMPLATES: dict[str, str] = {
    "troeven.not_in_deck": "{card} is not in Troeven's deck: it has only A K Q J 10 9 8 7.",
    "troeven.trumps_named": (
        "Trumps are already named: {trump:suit}. Play a card, for example `{example}`."
    ),
    "troeven.play_how": (
        "Play a card with `play <card>`, for example `play 10h`. You may play: {cards:list}."
    ),
    "troeven.name_trumps_first": (
        "First name trumps: type `trump s`, `trump h`, `trump d` or `trump c`."
    ),
    "troeven.not_held": "{card} is not in your hand. Play one of: {cards:list}.",
    "troeven.not_face_up": "{card} is not one of your face-up cards. Play one of: {cards:list}.",
    "troeven.follow_suit_face_up": (
        "You must follow suit: you hold {suit:suit} face up. Play one of: {cards:list}."
    ),
    "troeven.follow_or_trump": (
        "You must follow suit or play a trump ({trump:suit}): you hold {suit:suit}. "
        "Play one of: {cards:list}."
    ),
    "troeven.follow_or_trump_face_up": (
        "You must follow suit or play a trump ({trump:suit}): you hold {suit:suit} face up. "
        "Play one of: {cards:list}."
    ),
    "troeven.must_trump": (
        "You have no {suit:suit}, so you must play a trump ({trump:suit}). "
        "Play one of: {cards:list}."
    ),
}
