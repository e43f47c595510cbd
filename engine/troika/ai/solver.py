"""Troika double-dummy solver: the exact hand points a team takes when every hand is known.

``hard`` deals the hidden cards many times and solves each deal with this: alpha-beta over the
remaining cards (8 tricks at most) with a transposition table at trick boundaries, equal cards
played once (neighbours in rank held by one seat score alike) and winning cards tried first.
Hands are bitmasks of the engine's card ints; the value is the hand points (+1 a trick, +5 for
the 5H trick, -3 for the 3S trick) the solving team takes from the position on.
"""

from __future__ import annotations

import time

from engine.troika.cards import DECK_34, HIGH, LOW, POINTS, SUIT

#: Bitmask of every card of a suit, by suit index.
SUIT_MASK: tuple[int, ...] = tuple(sum(1 << c for c in DECK_34 if SUIT[c] == s) for s in range(4))
_INF = 1000
POINTS_FLAG: tuple[int, ...] = tuple(1 if POINTS[c] else 0 for c in DECK_34)


def cards_of(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(cards: list[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


class Solver:
    """Solves positions of one hand (fixed trumps and ranking) for ``team`` (0 or 1).

    One solver is reused for every candidate move of a sampled deal, so the transposition table
    carries over between them. ``node_limit`` (or ``deadline``, a safety net for a loaded
    machine) stops a search gone too long: ``exhausted`` turns True and the values are then
    meaningless, which the caller treats as a failed sample."""

    def __init__(
        self,
        trump: int | None,
        low: bool,
        team: int,
        node_limit: int = 400_000,
        deadline: float | None = None,
    ) -> None:
        self.trump = trump
        self.team = team
        strength = LOW if low else HIGH
        # Rank order per suit, strongest first (5H and 3S are the lowest of their suits).
        self.order: list[list[int]] = [
            sorted((c for c in DECK_34 if SUIT[c] == s), key=lambda c: -strength[c])
            for s in range(4)
        ]
        # key[led][card]: how strongly card stands in a trick led in suit led (0: cannot win).
        self.key: list[list[int]] = [
            [
                (200 + strength[c])
                if SUIT[c] == trump
                else (100 + strength[c])
                if SUIT[c] == led
                else 0
                for c in range(len(DECK_34))
            ]
            for led in range(4)
        ]
        self.order_bits: list[list[tuple[int, int]]] = [
            [(c, 1 << c) for c in o] for o in self.order
        ]
        self.lead_key: list[int] = [-self.key[SUIT[c]][c] for c in range(len(DECK_34))]
        self.tt: dict[tuple[int, int, int, int, int], tuple[int, int]] = {}
        self.nodes = 0
        self.node_limit = node_limit
        #: ``time.perf_counter()`` past which the search gives up (checked every 2048 nodes or so).
        self.deadline = deadline
        self.next_check = 0
        self.exhausted = False

    # ------------------------------------------------------------------------------------------
    def value(self, hands: list[int], trick: list[int], leader: int) -> int:
        """Hand points ``team`` takes from here (the current trick included), both sides
        playing perfectly; ``trick`` holds the cards played so far from ``leader`` on."""
        return self._search(list(hands), list(trick), leader, -_INF, _INF)

    def move_values(
        self, hands: list[int], trick: list[int], leader: int, moves: list[int]
    ) -> dict[int, int]:
        """The value of each of ``moves`` for the seat to play (it must hold them)."""
        seat = (leader + len(trick)) % 4
        out: dict[int, int] = {}
        for card in moves:
            h = list(hands)
            h[seat] &= ~(1 << card)
            out[card] = self._after(h, trick, leader, card, -_INF, _INF)
        return out

    # ------------------------------------------------------------------------------------------
    def _after(
        self, hands: list[int], trick: list[int], leader: int, card: int, alpha: int, beta: int
    ) -> int:
        """Value once ``card`` is added to the trick (already removed from its hand)."""
        if len(trick) < 3:
            return self._search(hands, [*trick, card], leader, alpha, beta)
        cards = [*trick, card]
        key = self.key[SUIT[cards[0]]]
        w = 0
        best = key[cards[0]]
        for i in (1, 2, 3):
            k = key[cards[i]]
            if k > best:
                best, w = k, i
        winner = (leader + w) % 4
        pts = 1 + POINTS[cards[0]] + POINTS[cards[1]] + POINTS[cards[2]] + POINTS[cards[3]]
        gained = pts if winner & 1 == self.team else 0
        return gained + self._search(hands, [], winner, alpha - gained, beta - gained)

    def _search(
        self, hands: list[int], trick: list[int], leader: int, alpha: int, beta: int
    ) -> int:
        self.nodes += 1
        n = len(trick)
        tt_key = None
        if n == 0:
            if not hands[leader]:
                return 0
            if self.nodes > self.node_limit or self.exhausted:
                self.exhausted = True
                return 0
            if self.deadline is not None and self.nodes >= self.next_check:
                self.next_check = self.nodes + 2048
                if time.perf_counter() > self.deadline:
                    self.exhausted = True
                    return 0
            if hands[0] & (hands[0] - 1) == 0:  # one card each: the last trick is forced
                last = [cards_of(hands[(leader + i) % 4])[0] for i in range(4)]
                return self._after([0, 0, 0, 0], last[:3], leader, last[3], alpha, beta)
            tt_key = self._shape(hands, leader)
            entry = self.tt.get(tt_key)
            if entry is not None:
                lo, hi = entry
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo == hi:
                    return lo
                alpha = max(alpha, lo)
                beta = min(beta, hi)
        a0, b0 = alpha, beta
        seat = (leader + n) % 4
        hand = hands[seat]
        moves = self._moves(hands, hand, trick, seat)
        maximize = seat & 1 == self.team
        best = -_INF if maximize else _INF
        key = self.key[SUIT[trick[0]]] if n else None
        for card in moves:
            hands[seat] = hand & ~(1 << card)
            if n < 3:
                v = self._search(hands, [*trick, card], leader, alpha, beta)
            else:
                # The trick is complete (the body of ``_after``, inlined: this runs most).
                w, top = 3, key[card]
                for i in (0, 1, 2):
                    if key[trick[i]] > top:
                        w, top = i, key[trick[i]]
                winner = (leader + w) % 4
                gained = 0
                if winner & 1 == self.team:
                    gained = 1 + POINTS[trick[0]] + POINTS[trick[1]] + POINTS[trick[2]]
                    gained += POINTS[card]
                v = gained + self._search(hands, [], winner, alpha - gained, beta - gained)
            if maximize:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
            elif v < best:
                best = v
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        hands[seat] = hand
        if tt_key is not None and not self.exhausted:
            lo, hi = self.tt.get(tt_key, (-_INF, _INF))
            if best <= a0:
                hi = min(hi, best)
            elif best >= b0:
                lo = max(lo, best)
            else:
                lo = hi = best
            self.tt[tt_key] = (lo, hi)
        return best

    def _shape(self, hands: list[int], leader: int) -> tuple[int, ...]:
        """The position up to equal cards: per suit, who holds the remaining cards in rank
        order (the played ones squeezed out), so positions reached by playing different but
        equivalent cards share an entry. Point cards keep their own mark."""
        h0, h1, h2, h3 = hands
        out = [leader]
        for s in range(4):
            code = 1
            for c, bit in self.order_bits[s]:
                # One base-8 digit a card still in play: its holder, and whether it scores.
                if h0 & bit:
                    code = code * 8 + POINTS_FLAG[c]
                elif h1 & bit:
                    code = code * 8 + 2 + POINTS_FLAG[c]
                elif h2 & bit:
                    code = code * 8 + 4 + POINTS_FLAG[c]
                elif h3 & bit:
                    code = code * 8 + 6 + POINTS_FLAG[c]
            out.append(code)
        return tuple(out)

    def _moves(self, hands: list[int], hand: int, trick: list[int], seat: int) -> list[int]:
        """The cards worth trying, one of each run of equal cards, best guesses first."""
        if trick:
            follow = hand & SUIT_MASK[SUIT[trick[0]]]
            if follow:
                hand = follow
        if hand & (hand - 1) == 0:
            return [hand.bit_length() - 1]
        # Cards still in play elsewhere (other hands and the current trick) split runs.
        elsewhere = (hands[0] | hands[1] | hands[2] | hands[3]) & ~hands[seat]
        for c in trick:
            elsewhere |= 1 << c
        moves: list[int] = []
        for s in range(4):
            mine = hand & SUIT_MASK[s]
            if not mine:
                continue
            if mine & (mine - 1) == 0:
                moves.append(mine.bit_length() - 1)
                continue
            prev_mine = False
            for c, bit in self.order_bits[s]:
                if mine & bit:
                    # A card next to one of ours already kept (no card between them in play)
                    # changes nothing, unless it carries points.
                    if not (prev_mine and POINTS[c] == 0 and POINTS[moves[-1]] == 0):
                        moves.append(c)
                    mine ^= bit
                    if not mine:
                        break
                    prev_mine = True
                elif elsewhere & bit:
                    prev_mine = False
        if len(moves) < 2:
            return moves
        if not trick:
            # Leading: strong cards first (they win or draw out the opponents' strength).
            return sorted(moves, key=self.lead_key.__getitem__)
        key = self.key[SUIT[trick[0]]]
        n = len(trick)
        w = 0
        best = key[trick[0]]
        for i in range(1, n):
            if key[trick[i]] > best:
                best, w = key[trick[i]], i
        if (w - n) % 4 == 2:
            # Partner ahead: the 5H and low cards first.
            return sorted(moves, key=lambda c: (-POINTS[c], key[c]))
        # Win as cheaply as possible first, else throw the lowest.
        return sorted(moves, key=lambda c: (key[c] <= best, key[c]))
