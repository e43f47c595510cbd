"""Troeven's trick rules: which card wins, which cards a player may play, why another is refused.

The rules file's obligations (D), for the second card of a trick:

- holding cards of the suit led: play one of them or a trump;
- void in the suit led: any card, except that in the stock version once the stock is gone
  a trump is required if the player holds one;
- stock version while the stock lasts: no obligation at all.

``strict_follow`` replaces the first line by "must follow suit" (a trump is then allowed only when
void). In the layout version "holding" means holding *face up*: face-down cards do not count.
"""

from __future__ import annotations

from engine.errors import IllegalAction
from engine.troeven.cards import CODE, SUIT, SUIT_LETTER


def beats(card: int, best: int, trump: int) -> bool:
    """Whether ``card`` played later in a trick beats ``best``, the card winning it so far."""
    suit = SUIT[card]
    best_suit = SUIT[best]
    if suit == best_suit:
        return card < best
    return suit == trump


def trick_winner(trick: list[int], leader: int, trump: int) -> int:
    """The seat that wins a full trick (two cards, ``leader``'s first)."""
    return 1 - leader if beats(trick[1], trick[0], trump) else leader


def legal_cards(
    cards: list[int], led: int, trump: int, strict: bool, trump_if_void: bool
) -> list[int]:
    """The cards of ``cards`` that may be played to a trick led with ``led`` (-1: leading).

    ``trump_if_void`` is on in the stock version once the stock is gone. The caller handles the
    "no obligation while the stock lasts" case by passing ``led=-1``.
    """
    if led < 0:
        return cards
    led_suit = SUIT[led]
    follow = [c for c in cards if SUIT[c] == led_suit]
    if follow:
        if strict or led_suit == trump:
            return follow
        return [c for c in cards if SUIT[c] == led_suit or SUIT[c] == trump]
    if trump_if_void:
        trumps = [c for c in cards if SUIT[c] == trump]
        if trumps:
            return trumps
    return cards


def refusal(
    cards: list[int], led: int, trump: int, strict: bool, trump_if_void: bool, face_up: bool
) -> IllegalAction:
    """Why a held card outside ``legal_cards`` is refused, and what the player may play.

    ``face_up``: the layout version, where only face-up cards count as held.
    """
    allowed = legal_cards(cards, led, trump, strict, trump_if_void)
    listing = [CODE[c] for c in sorted(allowed)]
    suit, trumps = SUIT_LETTER[SUIT[led]], SUIT_LETTER[trump]
    if any(SUIT[c] == SUIT[led] for c in cards):
        if strict or SUIT[led] == trump:
            key = "troeven.follow_suit_face_up" if face_up else "trick.follow_suit"
            return IllegalAction(key, suit=suit, cards=listing)
        key = "troeven.follow_or_trump_face_up" if face_up else "troeven.follow_or_trump"
        return IllegalAction(key, suit=suit, trump=trumps, cards=listing)
    return IllegalAction("troeven.must_trump", suit=suit, trump=trumps, cards=listing)
