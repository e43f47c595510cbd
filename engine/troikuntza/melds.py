"""TroiKuntza melds: Troikas and Runs, their layouts, lay-offs, and the contract search.

A meld on the table is a JSON dict:

- Troika: ``{"kind": "troika", "owner": seat, "rank": "7", "cards": ["7H", "7S", "JK"]}``
- Run: ``{"kind": "run", "owner": seat, "suit": "H", "start": 3, "cards": ["JK", "4H", ...]}``
  where ``cards`` are in sequence order and ``start`` is the position of the first card.

Run positions: Ace low = 1, 2..10, J = 11, Q = 12, K = 13, Ace high = 14. A run lies inside
1..14 and is at most 12 cards long: so it never wraps (no K-A-2), never holds both Aces, and a
run with a low Ace never holds a King (nor a high-Ace run a 2), as the rules say.

Choices where the rules are silent (written down here, as the project asks):

- Every meld holds at least one natural card, so that what a joker stands for is defined.
- Two Troikas of the same rank are allowed in one contract (several decks make it possible).
- A written group is a Run if any reading of it is one, whatever order the cards are typed in
  (as the rules say; ``run_layouts``): the Ace low or high, jokers filling the gaps, and the
  spare jokers split between the two ends in every way that fits. Coming out
  (``match_contract``) tries every reading of every group, so two runs of one suit are accepted
  when some readings do not overlap (``as jk jk jk`` beside ``as 2s 3s 4s`` is J-Q-K-A).
- Which reading is laid down: the first that makes the contract, in this order: the cards as
  written if they form the sequence (ascending or descending, each joker standing where it is
  written: ``jk 4h 5h 6h`` puts the joker on 3H); then the naturals sorted, Ace low before Ace
  high, spare jokers at the high end first, then one by one moved to the low end.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from functools import lru_cache
from typing import Any

from engine.cards import JOKER, SUITS

Meld = dict[str, Any]

CONTRACTS: tuple[str, ...] = ("TT", "TR", "RR", "TTT", "TTR", "RRT", "RRR")
CONTRACT_NAMES = {"T": "Troika", "R": "Run"}
TROIKA_MIN = 3
RUN_MIN = 4
RUN_MAX = 12
LOW_ACE = 1
HIGH_ACE = 14

_RANK_VALUE = {"J": 11, "Q": 12, "K": 13, **{str(v): v for v in range(2, 11)}}
_VALUE_RANK = {v: r for r, v in _RANK_VALUE.items()} | {LOW_ACE: "A", HIGH_ACE: "A"}


def card_points(code: str) -> int:
    """Joker 50, Ace 20, K/Q/J/10 10, 2-9 5."""
    if code == JOKER:
        return 50
    rank = code[:-1]
    if rank == "A":
        return 20
    if rank in ("K", "Q", "J", "10"):
        return 10
    return 5


def hand_points(hand: Iterable[str]) -> int:
    return sum(card_points(c) for c in hand)


def contract_min_cards(contract: str) -> int:
    return sum(TROIKA_MIN if k == "T" else RUN_MIN for k in contract)


def describe_contract(contract: str) -> str:
    """``TTR`` -> ``2 Troikas and 1 Run``."""
    parts = []
    for kind in dict.fromkeys(contract):  # in the contract's order: RRT = 2 Runs and 1 Troika
        n = contract.count(kind)
        if n:
            name = CONTRACT_NAMES[kind] + ("s" if n > 1 else "")
            parts.append(f"{n} {name}")
    return " and ".join(parts)


def values_of(code: str) -> tuple[int, ...]:
    """The run positions a natural card can stand at (an Ace has two)."""
    rank = code[:-1]
    if rank == "A":
        return (LOW_ACE, HIGH_ACE)
    return (_RANK_VALUE[rank],)


def card_at(position: int, suit: str) -> str:
    return _VALUE_RANK[position] + suit


def _rank_value(rank: str) -> int:
    return 14 if rank == "A" else _RANK_VALUE[rank]


# -- building and checking melds ------------------------------------------------------------------


def troika_rank(cards: list[str]) -> str | None:
    """The rank of a valid Troika made of ``cards``, else None."""
    naturals = [c for c in cards if c != JOKER]
    if len(cards) < TROIKA_MIN or not naturals:
        return None
    ranks = {c[:-1] for c in naturals}
    return ranks.pop() if len(ranks) == 1 else None


def _run_as_written(seq: list[str]) -> tuple[int, list[str]] | None:
    first = next(i for i, c in enumerate(seq) if c != JOKER)
    for value in values_of(seq[first]):
        start = value - first
        if start < LOW_ACE or start + len(seq) - 1 > HIGH_ACE:
            continue
        if all(c == JOKER or start + k in values_of(c) for k, c in enumerate(seq)):
            return start, list(seq)
    return None


def _run_placements(naturals: list[str], jokers: int) -> Iterator[tuple[int, list[str]]]:
    """Every placement of the naturals (one suit) with ``jokers`` filling gaps and ends."""
    suit = naturals[0][-1]
    aces = [c for c in naturals if c[:-1] == "A"]
    if len(aces) > 1:
        return  # a run of at most 12 cards inside 1..14 never holds both Aces
    others = [v for c in naturals if c[:-1] != "A" for v in values_of(c)]
    for ace in (LOW_ACE, HIGH_ACE) if aces else (None,):
        vals = sorted(others + ([ace] if ace is not None else []))
        if len(set(vals)) != len(vals):
            return  # two naturals on one position, whatever the Ace does
        extra = jokers - (vals[-1] - vals[0] + 1 - len(vals))
        if extra < 0:
            continue
        present = set(vals)
        for high in range(min(extra, HIGH_ACE - vals[-1]), -1, -1):
            start = vals[0] - (extra - high)
            if start < LOW_ACE:
                break  # fewer jokers high only puts more below
            end = vals[-1] + high
            cards = [card_at(p, suit) if p in present else JOKER for p in range(start, end + 1)]
            yield start, cards


def run_layouts(cards: list[str]) -> list[tuple[int, list[str]]]:
    """Every reading of ``cards`` as a Run, ``(start, cards in sequence order)``; [] if none.

    The cards as written come first (see the module docstring), then the other placements. A
    start fixes a reading (a run is too short to hold both Ace positions), so each start once.
    """
    naturals = [c for c in cards if c != JOKER]
    if not naturals or not RUN_MIN <= len(cards) <= RUN_MAX:
        return []
    suit = naturals[0][-1]
    if any(c[-1] != suit for c in naturals):
        return []
    found: dict[int, list[str]] = {}
    for seq in (cards, cards[::-1]):
        layout = _run_as_written(list(seq))
        if layout is not None:
            found.setdefault(*layout)
    for start, ordered in _run_placements(naturals, len(cards) - len(naturals)):
        found.setdefault(start, ordered)
    return list(found.items())


def run_layout(cards: list[str]) -> tuple[int, list[str]] | None:
    """The first reading of ``cards`` as a Run (``run_layouts``), else None."""
    layouts = run_layouts(cards)
    return layouts[0] if layouts else None


def make_troika(cards: list[str], owner: int) -> Meld | None:
    rank = troika_rank(cards)
    if rank is None:
        return None
    return {"kind": "troika", "owner": owner, "rank": rank, "cards": list(cards)}


def _run_meld(start: int, ordered: list[str], owner: int) -> Meld:
    suit = next(c for c in ordered if c != JOKER)[-1]
    return {"kind": "run", "owner": owner, "suit": suit, "start": start, "cards": ordered}


def make_run(cards: list[str], owner: int) -> Meld | None:
    """The Run of ``cards`` in its first reading (``run_layout``), else None."""
    layout = run_layout(cards)
    return None if layout is None else _run_meld(*layout, owner)


def run_end(meld: Meld) -> int:
    return int(meld["start"]) + len(meld["cards"]) - 1


def stands_for(meld: Meld) -> list[str]:
    """What each card of the meld stands for (a joker takes its run position or the rank)."""
    if meld["kind"] == "troika":
        return [c if c != JOKER else meld["rank"] + "*" for c in meld["cards"]]
    start, suit = int(meld["start"]), meld["suit"]
    return [card_at(start + i, suit) for i in range(len(meld["cards"]))]


def is_valid_meld(meld: Meld) -> bool:
    """Structural check of a meld on the table (used by the property tests and on load)."""
    cards = meld["cards"]
    naturals = [c for c in cards if c != JOKER]
    if not naturals:
        return False
    if meld["kind"] == "troika":
        return len(cards) >= TROIKA_MIN and all(c[:-1] == meld["rank"] for c in naturals)
    start = int(meld["start"])
    if not RUN_MIN <= len(cards) <= RUN_MAX or start < LOW_ACE or run_end(meld) > HIGH_ACE:
        return False
    return all(
        c == JOKER or (c[-1] == meld["suit"] and start + i in values_of(c))
        for i, c in enumerate(cards)
    )


def natural_majority_ok(cards: list[str]) -> bool:
    jokers = cards.count(JOKER)
    return len(cards) - jokers >= jokers


def runs_overlap(a: Meld, b: Meld) -> bool:
    if a["kind"] != "run" or b["kind"] != "run" or a["suit"] != b["suit"]:
        return False
    return not (run_end(a) < int(b["start"]) or run_end(b) < int(a["start"]))


def readings(cards: list[str], owner: int) -> list[Meld]:
    """Every way a written group can be read as a meld: a Troika first, then each Run reading."""
    troika = make_troika(cards, owner)
    runs = [_run_meld(start, ordered, owner) for start, ordered in run_layouts(cards)]
    return ([troika] if troika is not None else []) + runs


def match_contract(
    groups: list[list[str]], contract: str, owner: int, natural_majority: bool
) -> list[Meld] | None:
    """Read each group as a meld so that together they are exactly the contract, else None."""
    if len(groups) != len(contract):
        return None
    options = [readings(g, owner) for g in groups]
    if natural_majority:
        options = [[m for m in opts if natural_majority_ok(m["cards"])] for opts in options]
    need = Counter(contract)

    def pick(i: int, chosen: list[Meld]) -> list[Meld] | None:
        if i == len(groups):
            return chosen
        for meld in options[i]:
            kind = "T" if meld["kind"] == "troika" else "R"
            used = sum(1 for m in chosen if m["kind"] == meld["kind"])
            if used >= need[kind] or any(runs_overlap(meld, m) for m in chosen):
                continue
            done = pick(i + 1, [*chosen, meld])
            if done is not None:
                return done
        return None

    return pick(0, [])


# -- lay-offs --------------------------------------------------------------------------------------


def layoff_result(meld: Meld, card: str, end: str | None = None) -> tuple[Meld, bool] | None:
    """The meld after laying ``card`` on it and whether a joker was bumped; None if it can't go.

    ``end`` ("low"/"high") says where a joker goes on a run; without it, high when possible.
    """
    cards = meld["cards"]
    if meld["kind"] == "troika":
        if card == JOKER or card[:-1] == meld["rank"]:
            return {**meld, "cards": [*cards, card]}, False
        return None
    if len(cards) + 1 > RUN_MAX:
        return None
    start, last = int(meld["start"]), run_end(meld)
    can_low, can_high = start - 1 >= LOW_ACE, last + 1 <= HIGH_ACE
    if card == JOKER:
        ends = [end] if end else ["high", "low"]
        for side in ends:
            if side == "high" and can_high:
                return {**meld, "cards": [*cards, JOKER]}, False
            if side == "low" and can_low:
                return {**meld, "start": start - 1, "cards": [JOKER, *cards]}, False
        return None
    if end is not None or card[-1] != meld["suit"]:
        return None
    for value in values_of(card):
        if value == start - 1 and can_low:
            return {**meld, "start": start - 1, "cards": [card, *cards]}, False
        if value == last + 1 and can_high:
            return {**meld, "cards": [*cards, card]}, False
        if value == start and cards[0] == JOKER and can_low:
            return {**meld, "start": start - 1, "cards": [JOKER, card, *cards[1:]]}, True
        if value == last and cards[-1] == JOKER and can_high:
            return {**meld, "cards": [*cards[:-1], card, JOKER]}, True
    return None


# -- the contract search ---------------------------------------------------------------------------


def _troika_candidates(
    counts: Counter[str], natural_majority: bool, care_suits: bool
) -> Iterator[tuple[str, ...]]:
    jokers = counts[JOKER]
    by_rank: dict[str, list[str]] = {}
    for code, n in counts.items():
        if code != JOKER and n > 0:
            by_rank.setdefault(code[:-1], []).append(code)
    least = 2 if natural_majority else 1
    for rank in sorted(by_rank, key=_rank_value):
        codes = sorted(by_rank[rank])
        pool = [c for c in codes for _ in range(min(counts[c], TROIKA_MIN))]
        for k in range(max(least, TROIKA_MIN - jokers), min(TROIKA_MIN, len(pool)) + 1):
            choices = sorted(set(itertools.combinations(pool, k)))
            if not care_suits:
                choices = choices[:1]
            for combo in choices:
                yield (*combo, *([JOKER] * (TROIKA_MIN - k)))


_CODE_AT: dict[str, list[str]] = {
    suit: [""] + [card_at(p, suit) for p in range(LOW_ACE, HIGH_ACE + 1)] for suit in SUITS
}


_CODE_POSITIONS: dict[str, tuple[str, tuple[int, ...]]] = {
    card_at(p, suit): (suit, values_of(card_at(p, suit)))
    for suit in SUITS
    for p in range(LOW_ACE, HIGH_ACE + 1)
}


def _run_candidates(counts: Counter[str], natural_majority: bool) -> Iterator[tuple[str, ...]]:
    jokers = counts[JOKER]
    need = max(2 if natural_majority else 1, RUN_MIN - jokers)  # naturals a window needs
    held: dict[str, list[int]] = {}
    for code, n in counts.items():
        if n > 0 and code != JOKER:
            suit, positions = _CODE_POSITIONS[code]
            have = held.setdefault(suit, [0] * (HIGH_ACE + 1))
            for p in positions:
                have[p] = 1
    for suit, have in held.items():
        codes = _CODE_AT[suit]
        upto = list(itertools.accumulate(have, initial=0))  # upto[p] = held positions < p
        if upto[-1] < need:
            continue
        for start in range(LOW_ACE, HIGH_ACE - RUN_MIN + 2):
            if upto[start + RUN_MIN] - upto[start] < need:
                continue
            positions = range(start, start + RUN_MIN)
            if not (natural_majority and jokers):
                yield tuple(codes[p] if have[p] else JOKER for p in positions)
                continue
            # Under natural_majority a joker may have to stand in for a held card.
            slots = [(codes[p], JOKER) if have[p] else (JOKER,) for p in positions]
            for combo in itertools.product(*slots):
                used = combo.count(JOKER)
                if used <= jokers and RUN_MIN - used >= 2:
                    yield combo


def _key(kind: str, cards: tuple[str, ...]) -> tuple[str, ...]:
    return (kind, *cards)


def _discardable(counts: Counter[str], taken: str | None) -> bool:
    return any(n > (1 if code == taken else 0) for code, n in counts.items())


@lru_cache(maxsize=4096)
def _search(
    hand: tuple[str, ...],
    contract: str,
    natural_majority: bool,
    limit: int,
    taken: str | None,
    must_discard: bool,
) -> tuple[tuple[tuple[str, ...], ...], ...]:
    slots = sorted(contract, key=lambda k: k != "R")  # runs first: fewer candidates
    care_suits = "R" in contract
    results: list[tuple[tuple[str, ...], ...]] = []
    need_after = [contract_min_cards("".join(slots[i:])) for i in range(len(slots) + 1)]

    def dfs(i: int, counts: Counter[str], chosen: list[tuple[str, ...]], last: tuple) -> None:
        if len(results) >= limit:
            return
        left = sum(counts.values())
        if left < need_after[i] + (1 if must_discard else 0):
            return
        if i == len(slots):
            # A melded copy of the taken card uses it up (as the game counts it).
            keep = taken if taken is not None and counts[taken] == original[taken] else None
            if not must_discard or _discardable(counts, keep):
                results.append(tuple(chosen))
            return
        kind = slots[i]
        if kind == "R":
            cands: Iterable[tuple[str, ...]] = _run_candidates(counts, natural_majority)
        else:
            cands = _troika_candidates(counts, natural_majority, care_suits)
        prev = last if i > 0 and slots[i - 1] == kind else ()
        for cand in cands:
            key = _key(kind, cand)
            if prev and key < prev:
                continue  # same-kind melds in canonical order: no permuted duplicates
            if kind == "R" and any(_windows_overlap(cand, other) for other in chosen):
                continue
            counts.subtract(cand)
            if all(counts[c] >= 0 for c in cand):
                dfs(i + 1, counts, [*chosen, cand], key)
            counts.update(cand)
            if len(results) >= limit:
                return

    original = Counter(hand)
    dfs(0, Counter(hand), [], ())
    return tuple(results)


def _window(cards: tuple[str, ...] | list[str]) -> tuple[str, int] | None:
    """Suit and start of a run written in sequence order."""
    if all(c == JOKER for c in cards):
        return None
    layout = _run_as_written(list(cards))
    if layout is None:
        return None
    return next(c for c in cards if c != JOKER)[-1], layout[0]


def _windows_overlap(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    wa, wb = _window(a), _window(b)
    if wa is None or wb is None or wa[0] != wb[0]:
        return False
    return abs(wa[1] - wb[1]) < RUN_MIN


def _extend(way: list[list[str]], kinds: list[str], counts: Counter[str]) -> None:
    """Add the held natural cards that fit to each meld (never jokers: they are kept)."""
    spans: dict[int, tuple[str, int, int]] = {}
    for i, (meld, kind) in enumerate(zip(way, kinds, strict=True)):
        if kind == "R":
            window = _window(meld)
            assert window is not None
            spans[i] = (window[0], window[1], window[1] + len(meld) - 1)

    def free(i: int, pos: int) -> bool:
        suit = spans[i][0]
        return all(
            not (s == suit and lo <= pos <= hi) for j, (s, lo, hi) in spans.items() if j != i
        )

    for i, (meld, kind) in enumerate(zip(way, kinds, strict=True)):
        if kind == "T":
            rank = troika_rank(meld)
            for code in sorted(counts):
                if code != JOKER and code[:-1] == rank and counts[code] > 0:
                    meld.extend([code] * counts[code])
                    counts[code] = 0
            continue
        suit, lo, hi = spans[i]
        while hi + 1 <= HIGH_ACE and hi - lo + 2 <= RUN_MAX and free(i, hi + 1):
            code = card_at(hi + 1, suit)
            if counts[code] <= 0:
                break
            meld.append(code)
            counts[code] -= 1
            hi += 1
            spans[i] = (suit, lo, hi)
        while lo - 1 >= LOW_ACE and hi - lo + 2 <= RUN_MAX and free(i, lo - 1):
            code = card_at(lo - 1, suit)
            if counts[code] <= 0:
                break
            meld.insert(0, code)
            counts[code] -= 1
            lo -= 1
            spans[i] = (suit, lo, hi)


def find_contracts(
    hand: Iterable[str],
    contract: str,
    options: Mapping[str, Any] | bool | None = None,
    limit: int = 20,
    taken: str | None = None,
    must_discard: bool = True,
    extend: bool = True,
) -> list[list[list[str]]]:
    """Ways ``hand`` can come out with ``contract`` (at most ``limit``; each a list of melds).

    The search finds every combination of minimal melds (Troikas of 3, Runs of 4) in canonical
    order; with ``extend`` each way is also offered with the held natural cards that fit added.
    ``must_discard``: leave a card that may be discarded (not the card ``taken`` from the pile).
    Each meld's cards are in sequence order, ready for ``meld a b c | d e f g``.
    ``options``: the table's options (only ``natural_majority`` matters) or that flag itself.
    """
    if isinstance(options, Mapping):
        natural_majority = bool(options.get("natural_majority"))
    else:
        natural_majority = bool(options)
    hand = list(hand)
    base = _search(tuple(sorted(hand)), contract, natural_majority, limit, taken, must_discard)
    kinds = sorted(contract, key=lambda k: k != "R")
    ways: list[list[list[str]]] = []
    seen: set[tuple[tuple[str, ...], ...]] = set()
    counts_all = Counter(hand)
    for found in base:
        minimal = [list(m) for m in found]
        candidates = [minimal]
        if extend:
            counts = counts_all.copy()
            for m in minimal:
                counts.subtract(m)
            longer = [list(m) for m in minimal]
            _extend(longer, kinds, counts)
            keep = taken if taken is not None and counts[taken] == counts_all[taken] else None
            if not must_discard or _discardable(+counts, keep):
                candidates.insert(0, longer)
        for way in candidates:
            key = tuple(tuple(m) for m in way)
            if key not in seen:
                seen.add(key)
                ways.append(way)
    return ways[:limit]


def format_meld_action(way: list[list[str]]) -> str:
    return "meld " + " | ".join(" ".join(c.lower() for c in meld) for meld in way)
