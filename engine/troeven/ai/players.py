"""2-Player Troeven AI: ``normal`` heuristics and ``hard`` determinized search.

The deal is won on card points (A 4, K 3, Q 2, J 1; 40 in all), so every choice weighs points.

- Trumps (``normal`` and ``hard``): the suit scoring best among the caller's four cards, by count
  and high cards (a suit he does not hold only if nothing else is there).
- ``normal`` play: second to a trick, it wins when the points won outweigh what the winning card
  is worth later (a trump, an ace), else it throws its cheapest card; leading, in the layout
  version it looks at the opponent's face-up answers (one ply), elsewhere it cashes masters and
  leads cheap cards. It prefers playing a card that sits on a face-down card (uncovering gives it
  one more card to choose from). While the stock lasts it keeps trumps for points.
- ``hard``: samples the unseen cards (face-down cards in the layout version; the opponent's hand
  and the stock order in the stock version) and plays each legal card out to the end of the deal
  with the ``normal`` policy for both seats; the card with the best mean point margin wins.
"""

from __future__ import annotations

import random
import time

from engine.ai.common import SeededPlayer, View, completed_tricks, current_trick, sample_loop
from engine.troeven.cards import (
    ALL_CARDS,
    CARD_OF_CODE,
    PLAY_ACTION,
    POINTS,
    SUIT,
    SUIT_INDEX,
    SUIT_LETTER,
)
from engine.troeven.tricks import beats, legal_cards


def _rank(card: int) -> int:
    """0 = ace ... 7 = seven (lower is higher)."""
    return card % 8


def _future(card: int, trump: int) -> float:
    """What a card is worth kept for later tricks (beyond its own points)."""
    if SUIT[card] == trump:
        return 2.0 + (8 - _rank(card)) * 0.25
    return 0.6 if _rank(card) == 0 else 0.0


def follow_choice(legal: list[int], led: int, trump: int, uncover: frozenset[int]) -> int:
    """Second to the trick: win when it pays, else throw the cheapest card."""
    value = POINTS[led]

    def score(c: int) -> float:
        gain = value + POINTS[c]
        bonus = 0.3 if c in uncover else 0.0
        if beats(c, led, trump):
            return gain - _future(c, trump) + bonus
        return -gain - _future(c, trump) * 0.5 + bonus

    return max(legal, key=lambda c: (score(c), c))  # ties: the lower card


def lead_choice(
    legal: list[int],
    trump: int,
    outstanding: set[int],
    opp_cards: list[int] | None,
    uncover: frozenset[int],
    strict: bool,
    trump_if_void: bool,
    free: bool,
) -> int:
    """Leading: one ply against known answers (layout), else masters and cheap cards."""

    def score(c: int) -> float:
        bonus = 0.3 if c in uncover else 0.0
        if opp_cards is not None:
            answers = opp_cards if free else legal_cards(opp_cards, c, trump, strict, trump_if_void)
            reply = follow_choice(answers, c, trump, frozenset())
            pts = POINTS[c] + POINTS[reply]
            won = not beats(reply, c, trump)
            return (pts if won else -pts) - _future(c, trump) * 0.5 + bonus
        higher = [o for o in outstanding if SUIT[o] == SUIT[c] and o < c]
        trumps_out = any(SUIT[o] == trump for o in outstanding)
        if not higher and (SUIT[c] == trump or not trumps_out):
            return POINTS[c] + 1.0 - _future(c, trump) * 0.3 + bonus
        if not higher:
            return POINTS[c] * 0.3 - _future(c, trump) * 0.5 + bonus
        return -POINTS[c] - _future(c, trump) + bonus

    return max(legal, key=lambda c: (score(c), c))  # ties: the lower card


class Info:
    """The play-phase facts a seat reads from its view."""

    def __init__(self, view: View) -> None:
        self.seat: int = view["seat"]
        self.trump: int = SUIT_INDEX[view["trump"]]
        self.layout = view.get("version") == "layout"
        self.strict = bool(view.get("strict_follow"))
        self.hand = [CARD_OF_CODE[c] for c in view["hand"]]
        self.trick = [CARD_OF_CODE[c] for _, c in current_trick(view)]
        self.stock: int = int(view.get("stock_size") or 0)
        self.points: list[int] = list(view["hand_points"])
        self.hand_sizes: list[int] = list(view["hand_sizes"])
        seen = set(self.hand) | set(self.trick)
        history, _ = completed_tricks(view)
        for trick in history:
            seen.update(CARD_OF_CODE[c] for _, c in trick)
        self.opp_up: list[int] | None = None
        self.up: list[list[int | None]] = [[], []]
        self.down: list[list[bool]] = [[], []]
        self.uncover: frozenset[int] = frozenset()
        if self.layout:
            for s in (0, 1):
                for slot in view["layout"][s]:
                    code = slot["up"]
                    self.up[s].append(None if code is None else CARD_OF_CODE[code])
                    self.down[s].append(bool(slot["face_down"]))
                    if code is not None:
                        seen.add(CARD_OF_CODE[code])
            opp = 1 - self.seat
            self.opp_up = [c for c in self.up[opp] if c is not None]
            self.uncover = frozenset(
                c
                for c, d in zip(self.up[self.seat], self.down[self.seat], strict=True)
                if c is not None and d
            )
        self.outstanding = {c for c in ALL_CARDS if c not in seen}

    @property
    def free(self) -> bool:
        """No obligation at all (stock version while the stock lasts)."""
        return not self.layout and self.stock > 0


def normal_card(info: Info, legal: list[int]) -> int:
    if info.trick:
        return follow_choice(legal, info.trick[0], info.trump, info.uncover)
    trump_if_void = not info.layout and info.stock == 0
    return lead_choice(
        legal,
        info.trump,
        info.outstanding,
        info.opp_up,
        info.uncover,
        info.strict,
        trump_if_void,
        info.free,
    )


def trump_choice(hand: list[int]) -> str:
    def value(suit: int) -> float:
        mine = [c for c in hand if SUIT[c] == suit]
        return len(mine) * 2 + sum(POINTS[c] for c in mine) * 0.5

    suit = max(range(4), key=lambda s: (value(s), -s))
    return f"trump {SUIT_LETTER[suit].lower()}"


class TroevenNormal(SeededPlayer):
    def __init__(self, seed: int = 0) -> None:
        super().__init__("troeven", seed)

    def decide(self, view: View, legal: list[str]) -> str:
        if view["phase"] == "trump":
            return trump_choice([CARD_OF_CODE[c] for c in view["hand"]])
        info = Info(view)
        cards = [CARD_OF_CODE[a.split()[1].upper()] for a in legal]
        return PLAY_ACTION[self.card(info, cards)]

    def card(self, info: Info, legal: list[int]) -> int:
        return normal_card(info, legal)


# -- hard: a light simulator of the rest of the deal ---------------------------------------------


class Sim:
    """Both seats' cards after a sampled deal: layout slots (up, down) or hands and the stock."""

    def __init__(
        self,
        info: Info,
        up: list[list[int]],
        down: list[list[int]],
        hands: list[list[int]],
        stock: list[int],
    ) -> None:
        self.info = info
        self.up = up  # layout: card per slot or -1
        self.down = down
        self.hands = hands  # stock version
        self.stock = stock

    def playable(self, seat: int) -> list[int]:
        if self.info.layout:
            return [c for c in self.up[seat] if c >= 0]
        return self.hands[seat]

    def remove(self, seat: int, card: int) -> None:
        if self.info.layout:
            pos = self.up[seat].index(card)
            self.up[seat][pos] = self.down[seat][pos]
            self.down[seat][pos] = -1
        else:
            self.hands[seat].remove(card)

    def uncover(self, seat: int) -> frozenset[int]:
        if not self.info.layout:
            return frozenset()
        return frozenset(
            c for c, d in zip(self.up[seat], self.down[seat], strict=True) if c >= 0 and d >= 0
        )

    def legal(self, seat: int, trick: list[int]) -> list[int]:
        cards = self.playable(seat)
        if not trick:
            return list(cards)
        if not self.info.layout and self.stock:
            return list(cards)
        trump_if_void = not self.info.layout and not self.stock
        return legal_cards(cards, trick[0], self.info.trump, self.info.strict, trump_if_void)

    def policy(self, seat: int, trick: list[int], outstanding: set[int]) -> int:
        legal = self.legal(seat, trick)
        if len(legal) == 1:
            return legal[0]
        trump = self.info.trump
        if trick:
            return follow_choice(legal, trick[0], trump, self.uncover(seat))
        opp = [c for c in self.up[1 - seat] if c >= 0] if self.info.layout else None
        trump_if_void = not self.info.layout and not self.stock
        free = not self.info.layout and bool(self.stock)
        return lead_choice(
            legal,
            trump,
            outstanding,
            opp,
            self.uncover(seat),
            self.info.strict,
            trump_if_void,
            free,
        )

    def run(self, seat: int, first: int) -> list[int]:
        """Play ``first`` for ``seat``, then the deal out; the points each seat takes."""
        info = self.info
        trick = list(info.trick)
        leader = seat if not trick else 1 - seat
        points = [0, 0]
        alive: set[int] = set()
        for s in (0, 1):
            alive.update(self.playable(s))
            if info.layout:
                alive.update(c for c in self.down[s] if c >= 0)
            else:
                alive.update(self.stock)
        card = first
        while True:
            self.remove(seat, card)
            alive.discard(card)
            trick.append(card)
            if len(trick) == 2:
                winner = 1 - leader if beats(trick[1], trick[0], info.trump) else leader
                points[winner] += POINTS[trick[0]] + POINTS[trick[1]]
                trick = []
                leader = seat = winner
                if self.stock:
                    self.hands[winner].append(self.stock.pop(0))
                    if self.stock:
                        self.hands[1 - winner].append(self.stock.pop(0))
                if not self.playable(seat):
                    return points
            else:
                seat = 1 - seat
            card = self.policy(seat, trick, alive.difference(self.playable(seat)))


def sample_sim(info: Info, rng: random.Random) -> Sim:
    pool = list(info.outstanding)
    rng.shuffle(pool)
    me, opp = info.seat, 1 - info.seat
    if info.layout:
        up: list[list[int]] = [[], []]
        down: list[list[int]] = [[], []]
        for s in (0, 1):
            up[s] = [-1 if c is None else c for c in info.up[s]]
            down[s] = [pool.pop() if d and pool else -1 for d in info.down[s]]
        return Sim(info, up, down, [[], []], [])
    hands: list[list[int]] = [[], []]
    hands[me] = list(info.hand)
    hands[opp] = [pool.pop() for _ in range(min(info.hand_sizes[opp], len(pool)))]
    stock = [pool.pop() for _ in range(min(info.stock, len(pool)))]
    return Sim(info, [], [], hands, stock)


class TroevenHard(TroevenNormal):
    """Playouts over sampled deals; ``samples`` and ``rollouts`` (playouts a move) bound the
    work, so a seed always gives the same move; ``budget`` seconds is only a safety net."""

    def __init__(
        self, seed: int = 0, samples: int = 30, rollouts: int = 160, budget: float = 0.4
    ) -> None:
        super().__init__(seed)
        self.samples = samples
        self.rollouts = rollouts
        self.budget = budget

    def card(self, info: Info, legal: list[int]) -> int:
        totals = dict.fromkeys(legal, 0.0)
        me = info.seat
        # At most ``rollouts`` playouts a move: fewer deals when there are many cards to try.
        samples = min(self.samples, max(10, self.rollouts // len(legal)))

        def use(base: Sim) -> bool:
            for card in legal:
                sim = Sim(
                    info,
                    [list(x) for x in base.up],
                    [list(x) for x in base.down],
                    [list(x) for x in base.hands],
                    list(base.stock),
                )
                pts = sim.run(me, card)
                mine = info.points[me] + pts[me]
                theirs = info.points[1 - me] + pts[1 - me]
                # The deal is won on more points: reward the margin, and the win itself.
                totals[card] += (mine - theirs) * 0.1 + (
                    1 if mine > theirs else -1 if mine < theirs else 0
                )
            return True

        deadline = time.perf_counter() + self.budget
        sample_loop(lambda: sample_sim(info, self.rng), use, samples, deadline)
        return max(legal, key=lambda c: (totals[c], -c))
