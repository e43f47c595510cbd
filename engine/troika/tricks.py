"""Troika's trick rules: what may be played, which card wins, what a trick is worth.

The engine and the AI (its rollouts play thousands of tricks a move) both use these, so they
work on the card ints of ``engine.troika.cards`` and stay small.
"""

from __future__ import annotations

from engine.troika.cards import HIGH, LOW, POINTS, SUIT

SEATS = 4


def strength(card: int, low: bool) -> int:
    """Rank of ``card`` within its suit (higher is better); ``low`` contracts reverse A..7."""
    return LOW[card] if low else HIGH[card]


def card_key(card: int, led: int, trump: int | None, low: bool) -> int:
    """How strongly ``card`` stands in a trick led in suit ``led`` (0: it cannot win)."""
    suit = SUIT[card]
    if suit == trump:
        return 200 + (LOW[card] if low else HIGH[card])
    if suit == led:
        return 100 + (LOW[card] if low else HIGH[card])
    return 0


def _keys(trump: int | None, low: bool, led: int) -> tuple[int, ...]:
    return tuple(card_key(card, led, trump, low) for card in range(len(SUIT)))


#: ``KEYS[trump][low][led][card]`` is ``card_key(card, led, trump, low)`` (index 4: no trumps):
#: a finished trick's winner is found by four lookups instead of a call per card.
KEYS: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...] = tuple(
    tuple(tuple(_keys(trump, low, led) for led in range(4)) for low in (False, True))
    for trump in (0, 1, 2, 3, None)
)


def winning_index(trick: list[int], trump: int | None, low: bool) -> int:
    """Position in ``trick`` (leader first) of the card that wins it so far: the highest trump,
    else the highest card of the suit led."""
    strengths = LOW if low else HIGH
    led = SUIT[trick[0]]
    best, best_key = 0, -1
    for i, card in enumerate(trick):
        suit = SUIT[card]
        if suit == trump:
            key = 200 + strengths[card]
        elif suit == led:
            key = 100 + strengths[card]
        else:
            continue
        if key > best_key:
            best, best_key = i, key
    return best


def trick_winner(trick: list[int], leader: int, trump: int | None, low: bool) -> int:
    """Seat that wins a full trick led by ``leader``."""
    return (leader + winning_index(trick, trump, low)) % SEATS


def playable(hand: list[int], trick: list[int]) -> list[int]:
    """The cards of ``hand`` that may be played to ``trick``: follow suit if you can."""
    if trick:
        led = SUIT[trick[0]]
        follow = [c for c in hand if SUIT[c] == led]
        if follow:
            return follow
    return list(hand)


def trick_points(trick: list[int]) -> int:
    """Hand points of a full trick: 1, plus 5 for 5H and -3 for 3S."""
    return 1 + POINTS[trick[0]] + POINTS[trick[1]] + POINTS[trick[2]] + POINTS[trick[3]]
