"""Troggu's refusals: the English template of each key under ``troggu.``.

Registered by ``engine.troggu`` with ``engine.messages.add_templates``; ``engine.messages``
says what the fields and styles mean.
"""

from __future__ import annotations

TEMPLATES: dict[str, str] = {
    "troggu.not_a_card": (
        "`{text}` is not a Troggu card. Type rank then suit, such as `K-CU`, `1-CO`, `10-BA` "
        "(suits CU, CO, SW, BA; ranks K Q N J and pips), a trump `T1`..`T21` (or `XXI`), "
        "or `FOOL`."
    ),
    "troggu.first_dealer": "first_dealer must be a seat from 0 to {last} at a table of {players}.",
    "troggu.now_play": (
        "Now you play a card, for example `play {example}`. You may play: {cards:list}."
    ),
    "troggu.now_discard": (
        "Now you discard a card, for example `discard {example}`. You may discard: {cards:list}."
    ),
    "troggu.bid_choices": "You may bid: {bids:list}.",
    "troggu.bid_after_tapp": "You may bid (after a Tapp only Pass or Solo): {bids:list}.",
    "troggu.discard_not_held": "You do not hold {card}. You may discard: {cards:list}.",
    "troggu.discard_kept": (
        "You may not discard {card}: the Fool, XXI, I and Kings stay in your hand. "
        "You may discard: {cards:list}."
    ),
    "troggu.discard_kept_kings": (
        "You may not discard {card}: the Fool, XXI, I and Kings stay in your hand (Kings only "
        "if you hold all four). You may discard: {cards:list}."
    ),
    "troggu.call_how": (
        "Now call a partner's trump or play alone: `call none` to play alone, or `call t2` .. "
        "`call t20`."
    ),
    "troggu.not_callable": (
        "You may not call {card}: call a trump other than the Fool, XXI and I (`call none` to "
        "play alone, or `call t2` .. `call t20`)."
    ),
    "troggu.not_held": "You do not hold {card}. Play one of: {cards:list}.",
    "troggu.fool_held": (
        "You held the Fool back: it stays in your hand until the last trick. "
        "Play one of: {cards:list}."
    ),
    "troggu.must_trump": (
        "You have no {suit:suit}, so you must play a trump. Play one of: {cards:list}."
    ),
    "troggu.trumps_led": (
        "Trumps were led and you hold trumps: you must play one. Play one of: {cards:list}."
    ),
}
