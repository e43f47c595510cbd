"""TroiKuntza hand evaluation for ``hard``: how many cards a hand lacks to make its contract.

``shortfall(hand, contract)`` is the fewest cards that, added to ``hand``, would let it lay the
contract down: each Troika a rank wanting 3 cards, each Run a window of 4 positions in one
suit, jokers filling any gap. It is what a rummy player counts ("two away"), and a far better
guide than a card-by-card usefulness score: it knows which cards already serve the best plan,
that a card can serve one meld only, and that two runs of a suit must not overlap.

The search takes the few most advanced targets of each kind and tries their combinations
(the contract has at most three melds), runs first since they want particular cards, Troikas
then counting what the runs left of their rank. A few hundred small sums: under a millisecond.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable

from engine.cards import JOKER
from engine.troikuntza.melds import RUN_MIN, TROIKA_MIN, card_at

SUIT_LETTERS = ("C", "D", "H", "S")
#: Run windows: every 4 consecutive positions inside Ace low (1) .. Ace high (14).
WINDOWS: tuple[tuple[int, ...], ...] = tuple(
    tuple(range(start, start + RUN_MIN)) for start in range(1, 15 - RUN_MIN + 1)
)
#: How many of the most advanced targets of each kind the combination search tries.
TOP_TROIKAS = 6
TOP_RUNS = 9

Target = tuple[str, str, tuple[int, ...]]  # ("T", rank, ()) or ("R", suit, window)


def _run_cards(suit: str, window: tuple[int, ...]) -> list[str]:
    return [card_at(p, suit) for p in window]


def _targets(counts: Counter[str], kind: str) -> list[tuple[int, Target]]:
    """Every target of ``kind`` with the cards it still lacks, the most advanced first."""
    found: list[tuple[int, Target]] = []
    if kind == "T":
        ranks: Counter[str] = Counter()
        for code, n in counts.items():
            ranks[code[:-1]] += n
        for rank, have in ranks.items():
            found.append((max(0, TROIKA_MIN - have), ("T", rank, ())))
        return sorted(found, key=lambda t: (t[0], t[1]))[:TOP_TROIKAS]
    for suit in SUIT_LETTERS:
        for window in WINDOWS:
            have = sum(1 for code in _run_cards(suit, window) if counts[code] > 0)
            if have:
                found.append((RUN_MIN - have, ("R", suit, window)))
    return sorted(found, key=lambda t: (t[0], t[1]))[:TOP_RUNS]


def _combo_missing(counts: Counter[str], combo: tuple[Target, ...]) -> int | None:
    """Cards the targets of ``combo`` still lack together (None: two runs overlap)."""
    left = counts.copy()
    missing = 0
    runs = [t for t in combo if t[0] == "R"]
    for i, a in enumerate(runs):
        for b in runs[i + 1 :]:
            if a[1] == b[1] and a[2][0] <= b[2][-1] and b[2][0] <= a[2][-1]:
                return None
    for _, suit, window in runs:
        for code in _run_cards(suit, window):
            if left[code] > 0:
                left[code] -= 1
            else:
                missing += 1
    for _, rank, _ in (t for t in combo if t[0] == "T"):
        have = sum(n for code, n in left.items() if code[:-1] == rank and n > 0)
        missing += max(0, TROIKA_MIN - have)
    return missing


def shortfall(hand: Iterable[str], contract: str) -> int:
    """The fewest cards ``hand`` lacks to lay ``contract`` down (0: it can come out)."""
    counts = Counter(hand)
    jokers = counts.pop(JOKER, 0)
    troikas = contract.count("T")
    runs = contract.count("R")
    t_targets = [t for _, t in _targets(counts, "T")] if troikas else []
    r_targets = [t for _, t in _targets(counts, "R")] if runs else []
    # Not enough targets (a hand of few cards): each missing meld lacks all its cards.
    bare = max(0, troikas - len(t_targets)) * TROIKA_MIN + max(0, runs - len(r_targets)) * RUN_MIN
    best: int | None = None
    t_choices = list(itertools.combinations(t_targets, min(troikas, len(t_targets))))
    r_choices = list(itertools.combinations(r_targets, min(runs, len(r_targets))))
    for ts in t_choices:
        for rs in r_choices:
            missing = _combo_missing(counts, (*rs, *ts))
            if missing is not None and (best is None or missing < best):
                best = missing
    if best is None:  # only overlapping runs of one suit: count the contract's cards
        best = sum(TROIKA_MIN if k == "T" else RUN_MIN for k in contract)
    return max(0, best + bare - jokers)


# -- a card-by-card score (``normal``, and ``hard``'s tie-breaks and sampled hands) ------------

_RUN_VALUE = {"A": (1, 14), "J": (11,), "Q": (12,), "K": (13,)}


def positions(code: str) -> tuple[int, ...]:
    """Where a card stands in a run: 1-14 (an Ace both 1 and 14)."""
    rank = code[:-1]
    return _RUN_VALUE.get(rank) or (int(rank),)


def usefulness(card: str, hand: list[str], contract: str) -> float:
    """How much ``card`` helps ``hand`` towards ``contract`` (``hand`` without ``card``)."""
    if card == JOKER:
        return 100.0
    score = 0.0
    rank, suit = card[:-1], card[-1]
    if "T" in contract:
        same = sum(1 for c in hand if c != JOKER and c[:-1] == rank)
        score += (0, 2.0, 3.5, 4.0)[min(same, 3)]
    if "R" in contract:
        mine = positions(card)
        near: set[int] = set()
        for c in hand:
            if c in (JOKER, card) or c[-1] != suit:
                continue
            for p in positions(c):
                for q in mine:
                    if 0 < abs(p - q) <= 3:
                        near.add(p)
        score += 1.2 * len(near)
    return score
