"""Trick play: which cards a player may play, the Fool's hold-back, who wins a trick.

A trick is a list of ``[seat, card]`` pairs in play order. ``held`` is the seat that has held
the Fool back this deal (or None). A held Fool is not a trump any more: it cannot be played
before the last trick, never wins, and when it is led to the last trick the next card played
sets the suit.
"""

from __future__ import annotations

from engine.errors import IllegalAction
from engine.troggu.cards import FOOL, LOWER, STRENGTH, SUIT, SUITS, TRUMP, lower_codes


def lead_suit(trick: list[list[int]], held: int | None) -> int | None:
    """The suit to follow, or None when the player leads (a led held Fool sets nothing)."""
    for seat, card in trick:
        if not (card == FOOL and seat == held):
            return SUIT[card]
    return None


def playable(hand: list[int], trick: list[list[int]], holds_fool_back: bool) -> list[int]:
    """The cards of ``hand`` that may be played to ``trick``, in hand order."""
    if len(hand) == 1:  # the last trick: the one card left, a held Fool included
        return list(hand)
    cards = [c for c in hand if c != FOOL] if holds_fool_back else hand
    # Past the early return no held Fool can be in the trick (it waits for the last trick).
    lead = lead_suit(trick, None)
    if lead is None:
        return list(cards)
    if lead != TRUMP:
        follow = [c for c in hand if SUIT[c] == lead]
        if follow:
            return follow
    trumps = [c for c in cards if SUIT[c] == TRUMP]
    if not trumps or trumps == [FOOL]:
        # No trump, or only the Fool: he may play it or hold it back and play anything.
        return list(cards)
    return trumps


def is_hold_back(hand: list[int], trick: list[list[int]], card: int, held: int | None) -> bool:
    """True when playing ``card`` holds the Fool back: the Fool is the player's only trump,
    a trump is required (void in the led suit, or trumps led) and he plays another card."""
    if held is not None or card == FOOL or FOOL not in hand or len(hand) == 1:
        return False
    lead = lead_suit(trick, held)
    if lead is None:
        return False
    if lead != TRUMP and any(SUIT[c] == lead for c in hand):
        return False
    return not any(SUIT[c] == TRUMP and c != FOOL for c in hand)


def winner(trick: list[list[int]], held: int | None) -> int:
    """The seat that wins a complete trick: highest trump, else highest card of the suit led."""
    lead = lead_suit(trick, held)
    best_seat, best_key = -1, -1
    for seat, card in trick:
        if card == FOOL and seat == held:
            continue  # a held Fool never wins
        suit = SUIT[card]
        key = 100 + STRENGTH[card] if suit == TRUMP else STRENGTH[card] if suit == lead else 0
        if key > best_key:
            best_seat, best_key = seat, key
    return best_seat


def refusal(
    hand: list[int], trick: list[list[int]], card: int, allowed: list[int], holds_fool_back: bool
) -> IllegalAction:
    """Why ``card`` may not be played now, and what the player may play."""
    cards = lower_codes(allowed)
    if card not in hand:
        return IllegalAction("troggu.not_held", card=LOWER[card], cards=cards)
    if card == FOOL and holds_fool_back:
        return IllegalAction("troggu.fool_held", cards=cards)
    lead = lead_suit(trick, None)
    if lead is not None and lead != TRUMP and SUIT[allowed[0]] == lead:
        return IllegalAction("trick.follow_suit", suit=SUITS[lead], cards=cards)
    if lead is not None and lead != TRUMP:
        return IllegalAction("troggu.must_trump", suit=SUITS[lead], cards=cards)
    return IllegalAction("troggu.trumps_led", cards=cards)
