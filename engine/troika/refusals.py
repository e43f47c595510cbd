"""Troika's refusals: the English template of each key under ``troika.``.

Registered by ``engine.troika`` with ``engine.messages.add_templates``; ``engine.messages``
says what the fields and styles mean.
"""

from __future__ import annotations

TEMPLATES: dict[str, str] = {
    "troika.not_in_deck": "{card} is not in the Troika deck.",
    "troika.now_bid": "Now you must bid or pass. You may: {actions:code}{more:etc}.",
    "troika.now_play": "Now you must play a card. You may: {actions:code}{more:etc}.",
    "troika.now_kitty": (
        "Now you must discard a card from the kitty exchange. You may: {actions:code}{more:etc}."
    ),
    "troika.not_held_play": (
        "You do not hold {card}. Now you must play a card. You may: {actions:code}{more:etc}."
    ),
    "troika.not_held_kitty": (
        "You do not hold {card}. Now you must discard a card from the kitty exchange. "
        "You may: {actions:code}{more:etc}."
    ),
    "troika.kitty_keeps_5h_3s": (
        "You may not discard {card}: 5H and 3S stay in play. Now you must discard a card from "
        "the kitty exchange. You may: {actions:code}{more:etc}."
    ),
    "troika.just_pass": "Just say `pass`.",
    "troika.dealer_must_bid": (
        "Everyone else passed, so the dealer must bid: bid at least `bid {lowest}` (any kind)."
    ),
    "troika.bid_too_low": (
        "`bid {bid}` does not beat the high bid, {high}. You must beat it (`bid {next}` or "
        "higher) or pass."
    ),
    "troika.bid_too_low_top": (
        "`bid {bid}` does not beat the high bid, {high}. Nothing beats it: pass."
    ),
    "troika.bid_below": (
        "`bid {bid}` is below the high bid, {high}. You must equal or beat it (`bid {next}` or "
        "higher) or pass."
    ),
    "troika.bid_below_top": "`bid {bid}` is below the high bid, {high}. Nothing beats it: pass.",
    "troika.misdeal_off": "This table does not allow misdeals.",
    "troika.misdeal_hand": (
        "Only a hand with no ace, no K/Q/J and neither 5H nor 3S may call a misdeal."
    ),
    "troika.misdeal_late": "A misdeal may only be called the first time you are asked to bid.",
    "troika.name_trumps": "Name trumps: `trump s`, `trump h`, `trump d` or `trump c`.",
    "troika.bid_number": "Say the number you bid, for example `bid 7` or `bid 7 no`.",
    "troika.bid_kind_unknown": (
        "`{kind}` is not a kind of bid. Say `bid 7` (trumps), `bid 7 no` (no trumps) or "
        "`bid 7 no low`."
    ),
    "troika.bid_range": "A bid is a number from {low} to {high}.",
    "troika.bid_kind_off": "This table does not play that kind of bid. You may say {bids:code}.",
}
