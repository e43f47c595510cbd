"""How a 32-card deck becomes a Troeven deal (the same mapping for a shuffle and a stacked deck).

The deck is dealt one card at a time alternately, starting with the non-dealer: the non-dealer's
cards are ``deck[0], deck[2], ..., deck[30]`` and the dealer's ``deck[1], deck[3], ..., deck[31]``
(in the stock version only the first 16 cards are dealt this way). Then, for each player, in the
order he received them:

- ``layout``: his cards 1-8 are his face-down cards at positions 1-8, his cards 9-16 the face-up
  cards covering positions 1-8. Positions 1-4 are the first row. The non-dealer's face-up cards
  on positions 1-4 (``deck[16], deck[18], deck[20], deck[22]``) are the 4 he sees before naming
  trumps; the remaining face-up cards are put down after trumps are named.
- ``stock``: his cards 1-8 are his hand; ``deck[16:32]`` is the stock, ``deck[16]`` drawn first.
  The non-dealer's first 4 cards (``deck[0], deck[2], deck[4], deck[6]``) are the ones he sees
  before naming trumps; the rest of both hands is given after trumps are named.

Only what a player could see is placed before trumps; the rest waits in ``undealt`` (hidden).
"""

from __future__ import annotations

from typing import Any

from engine.troeven.cards import NO_CARD

FIRST_SIGHT = 4  # cards the non-dealer sees before naming trumps


def deal_before_trump(deck: list[int], dealer: int, version: str) -> dict[str, Any]:
    """The state keys of a deal up to the naming of trumps (see the module docstring)."""
    caller = 1 - dealer
    by_seat: list[list[int]] = [[], []]
    by_seat[caller] = deck[0::2]
    by_seat[dealer] = deck[1::2]
    if version == "layout":
        up = [[NO_CARD] * 8, [NO_CARD] * 8]
        up[caller][:FIRST_SIGHT] = by_seat[caller][8 : 8 + FIRST_SIGHT]
        return {
            "down": [by_seat[0][:8], by_seat[1][:8]],
            "up": up,
            "undealt": by_seat[caller][8 + FIRST_SIGHT :] + by_seat[dealer][8:],
        }
    hands: list[list[int]] = [[], []]
    hands[caller] = by_seat[caller][:FIRST_SIGHT]
    return {
        "hands": hands,
        "stock": [],
        "undealt": by_seat[caller][FIRST_SIGHT:8] + by_seat[dealer][:8] + deck[16:],
    }


def complete_deal(state: dict[str, Any]) -> list[list[int]]:
    """Put the ``undealt`` cards where ``deal_before_trump`` said; returns each seat's new cards.

    Mutates ``state`` (only called once trumps are named and the action is validated).
    """
    caller = 1 - state["dealer"]
    dealer = state["dealer"]
    rest = state["undealt"]
    state["undealt"] = []
    new: list[list[int]] = [[], []]
    if "up" in state:
        rest_caller, rest_dealer = rest[: 8 - FIRST_SIGHT], rest[8 - FIRST_SIGHT :]
        state["up"][caller][FIRST_SIGHT:] = rest_caller
        state["up"][dealer] = rest_dealer
        new[caller], new[dealer] = rest_caller, rest_dealer
        return new
    more = 8 - FIRST_SIGHT
    new[caller], new[dealer] = rest[:more], rest[more : more + 8]
    state["hands"][caller].extend(new[caller])
    state["hands"][dealer] = list(new[dealer])
    state["stock"] = rest[more + 8 :]
    return new
