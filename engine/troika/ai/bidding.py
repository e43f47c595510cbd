"""Troika ``hard`` bidding: every call valued by playing the auction and the hand out on
sampled deals.

For one bid decision the unseen cards are dealt at random, and a deal is kept only when the
calls made before ours fit it: each earlier caller, asked again with ``normal``'s quick count
on the hand the deal gives him, passes where he passed and bids where he bid (when too few
deals fit, unconditioned ones fill up to half the count). On each kept deal, every call we may
make (pass and each legal bid) is followed by the rest of the auction, the later seats calling
as ``normal`` does (a stuck dealer included), and the contract reached is played out with the
``normal`` play policy: one playout per distinct contract and deal, shared by every call that
reaches it. Our own trumps are the suit with the best average over the deals (never the best
suit of each deal: that would be hindsight). A deal's worth is the exact hand score
(``score_hand``): our change minus theirs; on the last hand of a game by rounds, whether we end
ahead. The call with the best average wins; a bid must beat passing by ``MARGIN``.

This sees what the fixed-threshold bidding of ``normal`` (and the old ``hard``) cannot: a
stuck opposing dealer who is likely to fail, a partner likely to bid anyway, an opponent's
contract worth pushing, the no-trump bids' double score, and the match score on the last hand.
Deal counts bound the work (a seed gives the same call); the time budget is a safety net.
Measured against the old hard player (``bench/ai.py``, tuned on seeds 2000-2019 and 3000-3015):
the same player bidding this way went from 47.5% to 61% of its games on the first seeds; on
fresh seeds 5000-5029 the whole ``hard`` player wins 63% +- 10 (see ``engine.troika.ai.hard``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from engine.ai.common import View, sample_loop
from engine.troika import bids as B
from engine.troika.ai.normal import (
    best_trump,
    choose_bid,
    evaluate,
    play_policy,
    rollout,
    static_kind_values,
)
from engine.troika.cards import CARD, deck_for
from engine.troika.scoring import score_hand

#: A bid must beat passing by this much (average score difference a hand): the playouts
#: flatter the declarer a little (both sides play the same heuristics, the defenders know no
#: more than he does) and a failed bid costs more than a made one brings.
MARGIN = 0.5
#: On the last hand of a game by rounds a deal's worth is the match: this many points for
#: ending ahead (half for a tie), the score difference only breaking ties.
WIN_WORTH = 20.0

#: Hand points the playouts give a no-trump declarer beyond what he takes at the table (the
#: ``normal`` defenders let long suits run): measured over hard's own no-trump contracts
#: against the old hard player (bench seeds 3000-3015: 6.7 expected, 5.8 taken).
NO_TRUMP_BIAS = 0.9

#: A contract as played out: (declarer seat, trumps or None, low ranking).
Contract = tuple[int, int | None, bool]


class Auction:
    """The auction's facts from a view: who calls in which order, what was called so far."""

    def __init__(self, view: View) -> None:
        self.options: dict[str, Any] = view["options"]
        self.seat: int = view["seat"]
        self.dealer: int = view["dealer"]
        self.single = self.options.get("auction", "single") == "single"
        self.stick = bool(self.options.get("stick_dealer", True))
        self.all_bids = B.all_bids(self.options)
        self.kinds = set(B.kinds_allowed(self.options))
        #: The calls so far: (seat, bid or ``B.PASS``, the high bid it faced and its holder).
        self.calls: list[tuple[int, int, int, int | None]] = []
        high, high_seat = B.PASS, None
        for entry in view.get("bids") or []:
            text = entry["bid"]
            bid = B.PASS if text == "pass" else B.parse(text.split(), self.options)
            self.calls.append((entry["seat"], bid, high, high_seat))
            if bid != B.PASS:
                high, high_seat = bid, entry["seat"]
        self.high = high
        self.high_seat: int | None = high_seat
        self.passed = {s for s, bid, _, _ in self.calls if bid == B.PASS}

    def legal(self, seat: int, high: int) -> tuple[list[int], bool]:
        """The bids ``seat`` may make over ``high`` and whether it may pass."""
        may_equal = self.single and seat == self.dealer and high != B.PASS
        bids = [b for b in self.all_bids if b > high or (may_equal and b == high)]
        must = high == B.PASS and seat == self.dealer and self.stick
        return bids, not must

    def finish(
        self, call: int, decide: Callable[[int, int, bool, bool], int | None]
    ) -> tuple[int, int] | None:
        """The contract (declarer, bid) once we make ``call`` and the others call as
        ``decide(seat, high, partner_high, may_pass)`` does (None: thrown in)."""
        high, high_seat = self.high, self.high_seat
        if call != B.PASS:
            high, high_seat = call, self.seat
        passed = set(self.passed)
        if call == B.PASS:
            passed.add(self.seat)
        if self.single:
            # Each seat calls once, the dealer last.
            later = (self.dealer - self.seat) % 4
            rounds = [[(self.seat + i) % 4 for i in range(1, later + 1)]]
        else:
            # Open auction: rounds until nobody outbids (we stand on our call meanwhile).
            rounds = [[(self.seat + i) % 4 for i in (1, 2, 3)]] * 4
        for order in rounds:
            moved = False
            for s in order:
                if s in passed or s == high_seat:
                    continue
                bids, may_pass = self.legal(s, high)
                partner_high = high_seat is not None and (high_seat - s) % 4 == 2
                bid = decide(s, high, partner_high, may_pass) if bids else None
                if bid is None and not may_pass:
                    bid = bids[0]  # a stuck dealer's model always bids; this is a safety net
                if bid is None:
                    passed.add(s)
                    continue
                high, high_seat, moved = bid, s, True
            if not moved:
                break
        if high_seat is None:
            return None
        return high_seat, high


class BidSearch:
    """One bid decision of ``hard`` (see the module docstring)."""

    def __init__(self, view: View, rng: random.Random, deals: int, deadline: float) -> None:
        self.view = view
        self.rng = rng
        self.deals = deals
        self.deadline = deadline
        self.auction = Auction(view)
        self.seat = self.auction.seat
        self.team = self.seat & 1
        self.hand = [CARD[c] for c in view["hand"]]
        self.deck = deck_for(bool(view["options"]["kitty"]))
        self.rest = [c for c in self.deck if c not in self.hand]
        options = view["options"]
        self.last_hand = options.get("end") == "rounds" and view.get("hand_number") == options.get(
            "rounds"
        )

    # deals ----------------------------------------------------------------------------------
    def _draw(self) -> list[list[int]]:
        self.rng.shuffle(self.rest)
        hands: list[list[int]] = [[], [], [], []]
        hands[self.seat] = list(self.hand)
        others = [s for s in range(4) if s != self.seat]
        for j, s in enumerate(others):
            hands[s] = sorted(self.rest[j * 8 : (j + 1) * 8])
        return hands

    def _values(self, hands: list[list[int]], cache: dict[int, dict[int, float]], seat: int):
        values = cache.get(seat)
        if values is None:
            values = cache[seat] = static_kind_values(hands[seat], self.deck, self.auction.kinds)
        return values

    def _fits(self, hands: list[list[int]], cache: dict[int, dict[int, float]]) -> bool:
        """The calls made before ours are what ``normal`` would call with these hands."""
        for s, bid, high, high_seat in self.auction.calls:
            if s == self.seat:
                continue
            bids, may_pass = self.auction.legal(s, high)
            if not may_pass:
                continue  # a stuck dealer tells nothing
            partner_high = high_seat is not None and (high_seat - s) % 4 == 2
            guess = choose_bid(self._values(hands, cache, s), bids, True, partner_high)
            if (guess is None) != (bid == B.PASS):
                return False
        return True

    def sample(self) -> list[tuple[list[list[int]], dict[int, dict[int, float]]]]:
        kept: list[tuple[list[list[int]], dict[int, dict[int, float]]]] = []

        def draw() -> tuple[list[list[int]], dict[int, dict[int, float]]] | None:
            hands = self._draw()
            cache: dict[int, dict[int, float]] = {}
            return (hands, cache) if self._fits(hands, cache) else None

        def use(deal: tuple[list[list[int]], dict[int, dict[int, float]]]) -> bool:
            kept.append(deal)
            return True

        sample_loop(draw, use, self.deals, self.deadline, tries=3)
        while len(kept) < self.deals // 2 and time.perf_counter() < self.deadline:
            kept.append((self._draw(), {}))
        return kept

    # playouts -------------------------------------------------------------------------------
    def _play(self, hands: list[list[int]], contract: Contract, memo: dict[Contract, int]) -> int:
        """Hand points our team takes when ``contract`` is played out on the deal."""
        got = memo.get(contract)
        if got is None:
            declarer, trump, low = contract
            dteam = declarer & 1
            out = {c for s in range(4) if s != declarer for c in hands[s]}
            card = play_policy(hands[declarer], [], declarer, trump, low, out, dteam)
            gained = rollout(hands, [], declarer, declarer, card, trump, low, dteam)
            got = memo[contract] = gained[self.team]
        return got

    def _worth(self, declarer: int, bid: int, ours: int) -> float:
        """Our score change minus theirs (or the match, on the last hand) for this result."""
        view = self.view
        dteam = declarer & 1
        points = [ours, 10 - ours] if self.team == 0 else [10 - ours, ours]
        target = view.get("target", 52)
        outcome = score_hand(
            declarer_team=dteam,
            bid_number=B.number_of(bid),
            no_trump=B.is_no_trump(bid),
            points=points,
            scores=list(view["scores"]),
            target=target,
            cut_off=view.get("cut_off", "off"),
            increased=target != view["options"].get("target", target),
            options=view["options"],
        )
        diff = outcome.changes[self.team] - outcome.changes[1 - self.team]
        if not self.last_hand:
            return float(diff)
        lead = view["scores"][self.team] - view["scores"][1 - self.team] + diff
        return WIN_WORTH * (1.0 if lead > 0 else 0.5 if lead == 0 else 0.0) + 0.01 * diff

    def _biased_worth(self, declarer: int, bid: int, ours: int) -> float:
        """``_worth`` with the declarer's playout points lowered by ``NO_TRUMP_BIAS`` (spread
        over the two whole numbers around it, so a small bias still counts)."""
        sign = -1 if declarer & 1 == self.team else 1
        whole = int(NO_TRUMP_BIAS)
        part = NO_TRUMP_BIAS - whole
        near = self._worth(declarer, bid, ours + sign * whole)
        far = self._worth(declarer, bid, ours + sign * (whole + 1))
        return (1 - part) * near + part * far

    def values(self, calls: list[int]) -> dict[int, float]:
        """Each call's average worth over the sampled deals."""
        deals = self.sample()
        # Our trumps per ranking: the best suit on average (2 candidates from the quick count).
        own: dict[bool, int | None] = {}
        lows = {B.is_low(b) for b in calls if b != B.PASS and not B.is_no_trump(b)}
        memos: list[dict[Contract, int]] = [{} for _ in deals]
        for low in sorted(lows):
            ranked = sorted(range(4), key=lambda s: -evaluate(self.hand, self.deck, s, low))
            suits = ranked[:2]
            sums = dict.fromkeys(suits, 0)
            for (hands, _), memo in zip(deals, memos, strict=True):
                for suit in suits:
                    sums[suit] += self._play(hands, (self.seat, suit, low), memo)
            own[low] = max(suits, key=lambda s: (sums[s], -s))
        totals = dict.fromkeys(calls, 0.0)
        #: Per call: the hand points our team takes on average (what the tests and the
        #: calibration read).
        self.points = dict.fromkeys(calls, 0.0)
        for (hands, cache), memo in zip(deals, memos, strict=True):

            def decide(s: int, high: int, partner_high: bool, may_pass: bool) -> int | None:
                bids, _ = self.auction.legal(s, high)
                values = self._values(hands, cache, s)  # noqa: B023 - used in this loop only
                return choose_bid(values, bids, may_pass, partner_high)

            for call in calls:
                result = self.auction.finish(call, decide)
                if result is None:
                    continue  # thrown in: nobody scores
                declarer, bid = result
                low = B.is_low(bid)
                if B.is_no_trump(bid):
                    trump = None
                elif declarer == self.seat:
                    trump = own[low]
                else:
                    trump = best_trump(hands[declarer], self.deck, low)[0]
                ours = self._play(hands, (declarer, trump, low), memo)
                if trump is None:
                    totals[call] += self._biased_worth(declarer, bid, ours)
                else:
                    totals[call] += self._worth(declarer, bid, ours)
                self.points[call] += ours
        n = max(1, len(deals))
        self.points = {c: v / n for c, v in self.points.items()}
        return {c: v / n for c, v in totals.items()}


def hard_bid(view: View, legal: list[str], rng: random.Random, deals: int, budget: float) -> str:
    """``hard``'s call (see the module docstring)."""
    if "misdeal" in legal:
        return "misdeal"
    options = view["options"]
    calls = [B.parse(a.split()[1:], options) for a in legal if a.startswith("bid ")]
    if "pass" in legal:
        calls.insert(0, B.PASS)
    if len(calls) == 1:
        return legal[0] if calls[0] == B.PASS else "bid " + B.text(calls[0])
    search = BidSearch(view, rng, deals, time.perf_counter() + budget)
    values = search.values(calls)
    floor = values[B.PASS] + MARGIN if B.PASS in values else None
    best = max(calls, key=lambda c: (values[c], -c))
    if floor is not None and (best == B.PASS or values[best] < floor):
        return "pass"
    return "bid " + B.text(best)
