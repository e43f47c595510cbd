"""Troggu ``hard`` bidding: the chance that a Tapp played by ``hard`` is won, from the hand.

``normal`` bids by one strength figure (``troggu.hand_strength``) against thresholds measured
for ``normal`` declarers. A ``hard`` declarer makes contracts a ``normal`` one fails, so it
should bid lower; and the strength figure predicts badly with many players, where the Tapp and
the called partner decide much (Kings barely help: the plain suits are trumped early).

The model is a logistic regression on a few counts of the hand, fitted on forced Tapps played
by a ``hard`` declarer (the first seat after the dealer, every other seat ``normal``, the
``normal`` discard), seeds 0-799 of ``TrogguGame.new``. Outcome: the contract won (more than 57
card points). On a held-out quarter the win rates by predicted chance followed the prediction
within the sampling error (predicted 0.5-0.55: 53% won, 0.55-0.6: 62%, 0.7 and more: 84%).
Measured the same way at 8 players the model predicted badly (the Tapp and the called partner
decide most there): in duplicate games it passed hands whose Tapp ``normal`` wins, so 8 players
(and the sizes not measured) bid as ``normal`` does.

A bid is worth it in issue 19's duplicate measure when it wins more often than not: the
declarer's payment (+-4 or 5 units) outweighs whatever the seat gets as a defender (+-1 unit)
or a called partner (+-2), so a won Tapp beats the all-``normal`` game's seat and a lost one
loses to it. ``TAPP_CHANCE`` adds a margin for the model's error.
"""

from __future__ import annotations

import math

from engine.troggu.cards import FOOL, POINTS, STRENGTH, SUIT, T21, TRUMP

#: players -> weights of (1, trumps, trumps XV-XX, the Fool, XXI, Kings, void suits).
#: Fitted as the module docstring says; the table sizes not listed bid as ``normal`` does.
TAPP_WIN_MODEL: dict[int, tuple[float, ...]] = {
    6: (-2.464, 0.524, 0.251, 0.991, 0.833, 0.167, 0.161),
}

#: ``hard`` bids a Tapp from this predicted chance of winning it.
TAPP_CHANCE = 0.55


def bid_features(hand: list[int]) -> tuple[float, ...]:
    """The counts the model weighs (see ``TAPP_WIN_MODEL``), the constant first."""
    trumps = [c for c in hand if SUIT[c] == TRUMP and c != FOOL]
    return (
        1.0,
        float(len(trumps)),
        float(sum(1 for c in trumps if 15 <= STRENGTH[c] <= 20)),
        float(FOOL in hand),
        float(T21 in hand),
        float(sum(1 for c in hand if SUIT[c] != TRUMP and POINTS[c] == 5)),
        float(sum(1 for s in range(4) if not any(SUIT[c] == s for c in hand))),
    )


def tapp_win_chance(hand: list[int], players: int) -> float | None:
    """The chance a ``hard`` declarer wins a Tapp with ``hand`` (before the Tapp), or None
    for a table size without a model."""
    weights = TAPP_WIN_MODEL.get(players)
    if weights is None:
        return None
    z = sum(w * x for w, x in zip(weights, bid_features(hand), strict=True))
    return 1.0 / (1.0 + math.exp(-z))


__all__ = ["TAPP_CHANCE", "TAPP_WIN_MODEL", "bid_features", "tapp_win_chance"]
