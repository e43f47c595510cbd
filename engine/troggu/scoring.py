"""Scoring a deal: game-point payments (zero-sum) from the card points each seat took."""

from __future__ import annotations

from engine.troggu.cards import POINTS

#: Game points per opponent for a contract won or lost at the single rate.
BASE = {"tapp": 10, "solo": 20}
HALF = 57  # of 114: more wins, fewer loses, exactly 57 pays nothing
BIG = 84  # more than 84 (the others fewer than 30): double
MISERE_RATE = 10


def card_points(cards: list[int]) -> int:
    return sum(POINTS[c] for c in cards)


def multiplier(side_points: int, side_tricks: int, tricks: int) -> int:
    """Signed multiple of the base rate the contract side wins (negative: it pays)."""
    if side_points > HALF:
        return 3 if side_tricks == tricks else 2 if side_points > BIG else 1
    if side_points < HALF:
        return -3 if side_tricks == 0 else -2 if side_points < 114 - BIG else -1
    return 0


def contract_payments(
    players: int, contract: str, declarer: int, partner: int | None, unit_multiple: int
) -> list[int]:
    """Each opponent pays ``unit`` (or receives it when negative) to the contract side.

    With a partner (7-8 players) the partner takes the shares of two opponents and the
    declarer the rest.
    """
    unit = BASE[contract] * unit_multiple
    payments = [-unit] * players
    opponents = players - 1 - (partner is not None)
    if partner is None:
        payments[declarer] = opponents * unit
    else:
        payments[partner] = 2 * unit
        payments[declarer] = (opponents - 2) * unit
    return payments


def misere_payments(points: list[int]) -> list[int]:
    """The seat(s) with the most card points pay 10 to each seat with fewer."""
    top = max(points)
    losers = [s for s, p in enumerate(points) if p == top]
    others = len(points) - len(losers)
    losers_count = len(losers)
    return [-MISERE_RATE * others if p == top else MISERE_RATE * losers_count for p in points]
