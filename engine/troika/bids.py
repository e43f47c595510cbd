"""Bids as ints: ``number * 4 + kind``, so a higher int is always a higher bid.

Kinds, lowest first at the same number: trump, trump low (only with ``low`` = always), no
(no trumps), no low. With ``low`` = always the rules order ``N < N low < N no < N no low``; in
the other modes the missing kinds are simply never offered, so one encoding serves all modes.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from engine.errors import IllegalAction

TRUMP, TRUMP_LOW, NO, NO_LOW = 0, 1, 2, 3
MAX_NUMBER = 12
PASS = -1

_KIND_TEXT = ("", " low", " no", " no low")
#: What views and events call each kind (``contract["kind"]``).
KIND_NAMES = ("trump", "trump", "no", "no")
_KIND_WORDS: dict[str, int] = {
    "": TRUMP,
    "trump": TRUMP,
    "trumps": TRUMP,
    "low": TRUMP_LOW,
    "trump low": TRUMP_LOW,
    "low trump": TRUMP_LOW,
    "no": NO,
    "nt": NO,
    "no trump": NO,
    "no trumps": NO,
    "notrump": NO,
    "no low": NO_LOW,
    "low no": NO_LOW,
    "nt low": NO_LOW,
    "low nt": NO_LOW,
    "no trump low": NO_LOW,
    "no trumps low": NO_LOW,
    "low no trump": NO_LOW,
    "low no trumps": NO_LOW,
    "nolow": NO_LOW,
}


def value(number: int, kind: int) -> int:
    return number * 4 + kind


def text(bid: int) -> str:
    """``30`` -> ``"7 no"``; the words after ``bid`` in an action."""
    return f"{bid >> 2}{_KIND_TEXT[bid & 3]}"


#: ``TEXT[bid]`` is ``text(bid)`` for every bid int.
TEXT: tuple[str, ...] = tuple(text(bid) for bid in range((MAX_NUMBER + 1) * 4))

#: ``"bid 7 no"`` -> its int, for every bid of any options: a listed bid is only looked up.
BID_OF_ACTION: dict[str, int] = {
    "bid " + text(value(n, k)): value(n, k)
    for n in range(MAX_NUMBER + 1)
    for k in (TRUMP, TRUMP_LOW, NO, NO_LOW)
}


def number_of(bid: int) -> int:
    return bid >> 2


def kind_of(bid: int) -> int:
    return bid & 3


def is_no_trump(bid: int) -> bool:
    return bid & 3 >= NO


def is_low(bid: int) -> bool:
    return bid & 1 == 1


def kinds_allowed(options: dict[str, Any]) -> tuple[int, ...]:
    low = options["low"]
    kinds = [TRUMP]
    if low == "always":
        kinds.append(TRUMP_LOW)
    if options["no_trump"]:
        kinds.append(NO)
        if low in ("no_trump", "always"):
            kinds.append(NO_LOW)
    return tuple(kinds)


@lru_cache(maxsize=64)
def _all_bids(min_bid: int, kinds: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(value(n, k) for n in range(min_bid, MAX_NUMBER + 1) for k in kinds)


@lru_cache(maxsize=64)
def _actions(bids: tuple[int, ...]) -> tuple[str, ...]:
    return tuple("bid " + text(b) for b in bids)


def all_bids(options: dict[str, Any]) -> tuple[int, ...]:
    """Every bid the table's options allow, lowest first."""
    return _all_bids(options["min_bid"], kinds_allowed(options))


@lru_cache(maxsize=64)
def _bid_actions(min_bid: int, low: str, no_trump: bool) -> tuple[tuple[int, ...], tuple[str, ...]]:
    bids = all_bids({"min_bid": min_bid, "low": low, "no_trump": no_trump})
    return bids, _actions(bids)


def bid_actions(options: dict[str, Any]) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """Every allowed bid and its action text (``"bid 7 no"``), lowest first, cached (the
    auction lists them at every bid: one lookup)."""
    return _bid_actions(options["min_bid"], options["low"], bool(options["no_trump"]))


def parse(words: list[str], options: dict[str, Any]) -> int:
    """``["7", "no", "low"]`` -> the bid int; refuses bids the options do not allow."""
    if not words or not words[0].isdigit():
        raise IllegalAction("troika.bid_number")
    number = int(words[0])
    kind = _KIND_WORDS.get(" ".join(words[1:]))
    if kind is None:
        raise IllegalAction("troika.bid_kind_unknown", kind=" ".join(words[1:]))
    if not options["min_bid"] <= number <= MAX_NUMBER:
        raise IllegalAction("troika.bid_range", low=options["min_bid"], high=MAX_NUMBER)
    if kind not in kinds_allowed(options):
        allowed = [f"bid {number}{_KIND_TEXT[k]}" for k in kinds_allowed(options)]
        raise IllegalAction("troika.bid_kind_off", bids=allowed)
    return value(number, kind)
