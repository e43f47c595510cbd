"""Troggu (Swiss Tarot) AI: ``normal`` heuristics and ``hard`` determinized search.

- Bidding (``normal``; ``hard`` too but for a Tapp at 6 players, see below): hand strength per
  card (trumps by rank, the Fool, XXI, Kings and Queens, voids) against the average hand; Solo
  for a very strong hand, Tapp for a strong one, else pass; the thresholds per table size were
  measured (``BID_THRESHOLDS``). Forced or not,
  the Tappist discards plain cards from his shortest suits, points first (discards count for
  him), never trumps. At 7-8 players he calls the highest trump from XX down that he does not
  hold.
- Sides: the contract side is the Tappist / Soloist and his partner once known; every other seat
  plays against them. In a Misère each plays alone and avoids points.
- ``normal`` play: cash masters; second and later, win a trick with points as cheaply as is safe,
  smear points (Kings, I) on a partner's safe trick, else throw the cheapest card. The Fool (the
  top trump) is spent only on a trick worth 3 points more than its card count (a Queen, a
  King); when it is the only trump and a trump is required it is held back otherwise (the
  engine's hold-back). Misère: duck under the
  winning card, throw high cards when void.
- ``hard``: samples the unseen cards (voids shown in the tricks it sees respected) and plays
  each legal card out to the end of the deal with the ``normal`` policy for every seat, using the
  engine's own trick rules (``engine.troggu.tricks``). A playout is worth the payment step of
  the contract side's total (57, 84, 30) and then its margin, or in a Misere the points avoided;
  the card with the best mean gain over ``normal``'s card, paired deal by deal, is played.
- ``hard`` bidding at 6 players: a Tapp when the chance that a ``hard`` declarer wins it,
  predicted from the hand by a model fitted on measured Tapps (``bidding``), is 55% or more
  -- lower than ``normal``'s threshold: a ``hard`` declarer makes Tapps a ``normal`` one fails.
  At 8 players the same kind of model passed hands whose Tapp ``normal`` wins (14 duplicate
  losses to 9 wins over 40 seeds) and is not used; other sizes were not measured.
- Measured (``bench/ai.py --games troggu --pairs hard:normal --seeds 40 --first-seed 5000
  --no-budget``, whole games of the default length: as many deals as players; tuned on seeds
  0-39), hard's seat beats normal's in the same seat with the same cards: 3 players 67.9% +- 5.7
  (160 games), 4 players 64.4% +- 5.4 (200), 5 players 65.0% +- 5.3 (240), 6 players 65.6% +-
  5.5 (280), 7 players 63.0% +- 5.3 (320), 8 players 60.3% +- 5.0 (360) and on seeds 5040-5079
  62.5% +- 4.1 (360). Games cut to 2 deals at 8 players tie more (66%) and gave 55.2% +- 2.8:
  a defender pays the same whatever he plays unless the contract's outcome changes (about 85%
  of his deals at 8 players), so hard's edge shows over a whole game. Hard decisions with the
  budget on: p50 4 ms, p99 193 ms, max 316 ms (one process, load average 1-2).
"""

from __future__ import annotations

import random
import time

from engine.ai.common import (
    SeededPlayer,
    View,
    completed_tricks,
    confident_gain,
    current_trick,
    sample_loop,
)
from engine.troggu import tricks
from engine.troggu.ai.bidding import TAPP_CHANCE, tapp_win_chance
from engine.troggu.cards import (
    CALLABLE,
    CODES,
    DECK,
    FOOL,
    LOWER,
    POINTS,
    STRENGTH,
    SUIT,
    T21,
    TRUMP,
    parse_card,
)

_CARD = {code: i for i, code in enumerate(CODES)}


def _value(card: int) -> float:
    """Hand-strength of one card for bidding."""
    if card == FOOL:
        return 3.0
    if SUIT[card] == TRUMP:
        return 0.6 + STRENGTH[card] / 14 + (1.0 if card == T21 else 0.0)
    return {5: 1.4, 4: 0.7, 3: 0.35}.get(POINTS[card], 0.0)


_MEAN = sum(_value(c) for c in DECK) / len(DECK)


def hand_strength(hand: list[int]) -> float:
    """Strength relative to an average hand of the same size (1.0 = average)."""
    base = sum(_value(c) for c in hand)
    voids = sum(1 for s in range(4) if not any(SUIT[c] == s for c in hand))
    return (base + 0.5 * voids) / (_MEAN * len(hand))


#: players -> (Tapp, Solo) hand strength from which ``normal`` bids. Measured: the strength at
#: which a forced Tapp / Solo played out by ``normal`` seats scores above zero on average (a
#: pass leads to a Misère, worth about zero), rounded up for safety. More players: more
#: opponents to beat alone, but a partner at 7-8.
BID_THRESHOLDS: dict[int, tuple[float, float]] = {
    3: (0.8, 1.35),
    4: (0.8, 1.4),
    5: (1.15, 1.8),
    6: (1.3, 2.1),
    7: (1.1, 2.3),
    8: (1.1, 2.4),
}


def _key(card: int, lead: int | None) -> int:
    if SUIT[card] == TRUMP:
        return 100 + STRENGTH[card]
    return STRENGTH[card] if SUIT[card] == lead else 0


def play_policy(
    hand: list[int],
    legal: list[int],
    trick: list[list[int]],
    seat: int,
    held: int | None,
    friends: set[int],
    misere: bool,
    outstanding: set[int] | frozenset[int],
    players: int,
) -> int:
    """The card ``normal`` plays from ``legal``."""
    if len(legal) == 1:
        return legal[0]
    lead = tricks.lead_suit(trick, held)
    later = players - len(trick) - 1
    if misere:
        return _misere(legal, trick, held, lead)
    if lead is None:
        return _lead(hand, legal, outstanding, friends)
    w_seat = tricks.winner(trick, held)
    w_card = next(c for s, c in trick if s == w_seat)
    w_key = _key(w_card, lead)
    points_in = sum(POINTS[c] for s, c in trick if not (c == FOOL and s == held))

    def safe(key: int) -> bool:
        if later == 0:
            return True
        lead_left = 0
        higher_trump = False
        for c in outstanding:
            if SUIT[c] == lead:
                lead_left += 1
                if _key(c, lead) > key:
                    return False
            elif SUIT[c] == TRUMP and _key(c, lead) > key:
                higher_trump = True
        return not (higher_trump and (lead == TRUMP or lead_left < 2 * later))

    if w_seat in friends and safe(w_key):
        # Smear points on the partner's trick, keeping the Fool and XXI for winning.
        pool = [c for c in legal if c not in (FOOL, T21)] or legal
        return max(pool, key=lambda c: (POINTS[c], -_key(c, lead)))
    winners = [c for c in legal if _key(c, lead) > w_key]
    # Every card is worth at least 1: only points above that make a trick worth the Fool.
    if points_in - len(trick) < 3:
        winners = [c for c in winners if c != FOOL]
    good = [c for c in winners if safe(_key(c, lead))]
    if good and (points_in >= 2 or later == 0 or any(POINTS[c] >= 4 for c in good)):
        return min(good, key=lambda c: (_key(c, lead) - POINTS[c] * 2, c))
    pool = [c for c in legal if c != FOOL] or legal
    return min(pool, key=lambda c: (POINTS[c], SUIT[c] == TRUMP, _key(c, lead)))


def _lead(
    hand: list[int], legal: list[int], outstanding: set[int] | frozenset[int], friends: set[int]
) -> int:
    trumps_out = sum(1 for c in outstanding if SUIT[c] == TRUMP)
    best: tuple[float, int] | None = None
    for card in legal:
        suit = SUIT[card]
        higher = any(SUIT[c] == suit and STRENGTH[c] > STRENGTH[card] for c in outstanding)
        if card == FOOL:
            score = -5.0  # the Fool is kept for a trick worth winning
        elif not higher and suit == TRUMP:
            score = 3.0 + POINTS[card]
        elif not higher:
            left = sum(1 for c in outstanding if SUIT[c] == suit)
            score = 2.0 + POINTS[card] if left >= 3 or trumps_out == 0 else -1.0
        else:
            score = -POINTS[card] - (1.0 if suit == TRUMP else 0.0)
            # Low cards of long plain suits.
            score += 0.2 * sum(1 for c in hand if SUIT[c] == suit)
        if best is None or score > best[0]:
            best = (score, card)
    assert best is not None
    return best[1]


def _misere(legal: list[int], trick: list[list[int]], held: int | None, lead: int | None) -> int:
    if lead is None:
        return min(legal, key=lambda c: (_key(c, SUIT[c]) if c != FOOL else 99, POINTS[c]))
    w_seat = tricks.winner(trick, held)
    w_card = next(c for s, c in trick if s == w_seat)
    w_key = _key(w_card, lead)
    under = [c for c in legal if _key(c, lead) < w_key]
    if under:
        # The highest card that still loses; void: the most points handed away.
        return max(under, key=lambda c: (POINTS[c], _key(c, lead)))
    return max(legal, key=lambda c: (_key(c, lead), -POINTS[c]))


class Info:
    def __init__(self, view: View) -> None:
        self.seat: int = view["seat"]
        self.players: int = view["players"]
        self.hand = [_CARD[c] for c in view["hand"]]
        self.trick = [[s, _CARD[c]] for s, c in current_trick(view)]
        self.contract: str | None = view.get("contract")
        self.declarer: int | None = view.get("declarer")
        self.misere = self.contract == "misere"
        self.held: int | None = self.seat if view.get("fool_held_back") else None
        self.voids: list[set[int]] = [set() for _ in range(self.players)]
        seen = set(self.hand)
        seen.update(c for _, c in self.trick)
        tricks_seen = [self.trick]
        history, self.full_history = completed_tricks(view)
        if not self.full_history and view.get("trick_number", 1) <= 1:
            history = []  # the last trick shown is the previous deal's
        for done_codes in history:
            done = [[s, _CARD[code]] for s, code in done_codes]
            seen.update(c for _, c in done)
            tricks_seen.append(done)
        # Every card played this deal is known while the last trick shown is the only one.
        self.complete = self.full_history or view.get("trick_number", 1) <= 2
        for t in tricks_seen:
            if not t:
                continue
            lead = SUIT[t[0][1]] if t[0][1] != FOOL else None
            for s, c in t[1:]:
                if lead is not None and SUIT[c] != lead:
                    self.voids[s].add(lead)
                    if SUIT[c] != TRUMP and c != FOOL:
                        self.voids[s].add(TRUMP)
        seen.update(_CARD[c] for c in view.get("tapp") or [])
        seen.update(_CARD[c] for c in view.get("discards") or [])
        self.outstanding = {c for c in DECK if c not in seen}
        self.hand_sizes: list[int] = list(view["hand_sizes"])
        self.called: int | None = _CARD[view["called"]] if view.get("called") else None
        self.partner: int | None = view.get("partner")
        self.partner_known = bool(view.get("partner_known"))
        self.friends = self.side(self.partner)
        self.pile_points: int = int(view.get("pile_points") or 0)
        # Card points each seat took in the finished tricks (the view's public history).
        self.won_points: list[int] | None = None
        if isinstance(view.get("played_tricks"), list):
            self.won_points = [0] * self.players
            for t in view["played_tricks"]:
                self.won_points[t["winner"]] += sum(POINTS[_CARD[c["card"]]] for c in t["cards"])
        # A Tappist / Soloist alone knows his side's card points exactly: his own pile.
        self.alone_declarer = (
            self.declarer == self.seat
            and self.contract in ("tapp", "solo")
            and (self.called is None or self.partner_known and self.partner is None)
        )

    def side(self, partner: int | None) -> set[int]:
        """The seats playing with ``self.seat`` given who the partner is."""
        me = self.seat
        if self.misere or self.declarer is None:
            return {me}
        contract_side = {self.declarer}
        if partner is not None:
            contract_side.add(partner)
        if me in contract_side:
            return contract_side
        if self.called is not None and self.called in self.hand:
            return {me, self.declarer}
        return {s for s in range(self.players) if s not in contract_side}


class TrogguNormal(SeededPlayer):
    def __init__(self, seed: int = 0) -> None:
        super().__init__("troggu", seed)

    def decide(self, view: View, legal: list[str]) -> str:
        phase = view["phase"]
        if phase == "bidding":
            return self.bid(view, legal)
        if phase == "discard":
            return self.discard(view, legal)
        if phase == "call":
            return self.call(view, legal)
        info = Info(view)
        cards = [parse_card(a.split(" ", 1)[1]) for a in legal]
        return "play " + LOWER[self.card(info, cards)]

    def bid(self, view: View, legal: list[str]) -> str:
        hand = [_CARD[c] for c in view["hand"]]
        strength = hand_strength(hand)
        n = view["players"]
        tapp_at, solo_at = BID_THRESHOLDS[n]
        if strength >= solo_at and "solo" in legal:
            return "solo"
        if strength >= tapp_at and "tapp" in legal:
            return "tapp"
        return "pass" if "pass" in legal else legal[0]

    def discard(self, view: View, legal: list[str]) -> str:
        hand = [_CARD[c] for c in view["hand"]]
        cards = [parse_card(a.split(" ", 1)[1]) for a in legal]
        length = {s: sum(1 for c in hand if SUIT[c] == s) for s in range(5)}
        best = min(cards, key=lambda c: (SUIT[c] == TRUMP, length[SUIT[c]], -POINTS[c], c))
        return "discard " + LOWER[best]

    def call(self, view: View, legal: list[str]) -> str:
        hand = {_CARD[c] for c in view["hand"]}
        for card in sorted(CALLABLE, key=lambda c: -STRENGTH[c]):
            action = "call " + LOWER[card]
            if card not in hand and action in legal:
                return action
        return "call none" if "call none" in legal else legal[0]

    def card(self, info: Info, legal: list[int]) -> int:
        return play_policy(
            info.hand,
            legal,
            info.trick,
            info.seat,
            info.held,
            info.friends,
            info.misere,
            info.outstanding,
            info.players,
        )


# -- hard ------------------------------------------------------------------------------------


def sample(info: Info, rng: random.Random) -> list[list[int]] | None:
    others = [s for s in range(info.players) if s != info.seat]
    need = {s: info.hand_sizes[s] for s in others}
    pool = list(info.outstanding)
    rng.shuffle(pool)
    hands: dict[int, list[int]] = {s: [] for s in others}
    for card in pool:
        fits = [s for s in others if len(hands[s]) < need[s] and SUIT[card] not in info.voids[s]]
        if not fits:
            continue
        total = sum(need[s] - len(hands[s]) for s in fits)
        pick = rng.randrange(total)
        for s in fits:
            pick -= need[s] - len(hands[s])
            if pick < 0:
                hands[s].append(card)
                break
    if any(len(hands[s]) < need[s] for s in others):
        return None
    out: list[list[int]] = [[] for _ in range(info.players)]
    for s in others:
        out[s] = hands[s]
    out[info.seat] = list(info.hand)
    return out


def rollout(info: Info, hands: list[list[int]], first: int) -> list[int]:
    """Card points each seat takes from here, ``first`` played now by ``info.seat``."""
    n = info.players
    hands = [list(h) for h in hands]
    trick = [list(p) for p in info.trick]
    held = info.held
    seat = info.seat
    partner = info.partner
    if partner is None and info.called is not None and not info.partner_known:
        partner = next((s for s in range(n) if info.called in hands[s]), None)
        if partner == info.declarer:
            partner = None
    sides = [info.side(partner) if s == info.seat else set() for s in range(n)]
    contract_side = {info.declarer} | ({partner} if partner is not None else set())
    for s in range(n):
        if s == info.seat:
            continue
        if info.misere or info.declarer is None:
            sides[s] = {s}
        elif s in contract_side:
            sides[s] = set(contract_side)
        else:
            sides[s] = {x for x in range(n) if x not in contract_side}
    alive: set[int] = set()
    for h in hands:
        alive.update(h)
    points = [0] * n
    card = first
    while True:
        hand = hands[seat]
        if held is None and tricks.is_hold_back(hand, trick, card, held):
            held = seat
        hand.remove(card)
        alive.discard(card)
        trick.append([seat, card])
        if len(trick) == n:
            win = tricks.winner(trick, held)
            points[win] += sum(POINTS[c] for s, c in trick if not (c == FOOL and s == held))
            if held is not None and [held, FOOL] in trick:
                points[held] += POINTS[FOOL]
            trick = []
            seat = win
            if not hands[seat]:
                return points
        else:
            seat = (seat + 1) % n
        hand = hands[seat]
        legal = tricks.playable(hand, trick, held == seat)
        card = play_policy(
            hand, legal, trick, seat, held, sides[seat], info.misere, alive.difference(hand), n
        )


def contract_side(info: Info, hands: list[list[int]]) -> tuple[set[int], int] | None:
    """In a Tapp or Solo seen by a seat other than a lone declarer (who counts his own pile):
    the contract side's seats in this sampled deal (the called card's holder is the partner)
    and the card points it holds already -- its tricks so far, and every card in no hand (the
    Tapp and the discards, which count for it). None without the trick history."""
    if info.misere or info.declarer is None or info.alone_declarer or info.won_points is None:
        return None
    partner = info.partner
    if partner is None and info.called is not None and not info.partner_known:
        partner = next((s for s in range(info.players) if info.called in hands[s]), None)
    seats = {info.declarer} | ({partner} if partner not in (None, info.declarer) else set())
    dealt = {c for h in hands for c in h}
    unseen = sum(POINTS[c] for c in info.outstanding if c not in dealt)
    return seats, sum(info.won_points[s] for s in seats) + unseen


def contract_payment(points: int) -> int:
    """The contract side's payment multiple for its final card points (all tricks ignored)."""
    if points > 84:
        return 2
    if points > 57:
        return 1
    if points == 57:
        return 0
    return -2 if points < 30 else -1


#: What a card point of the contract side's total weighs beside a payment step (10) in a
#: playout seen by a defender or by a Tappist with a partner. Measured at 8 players (duplicate
#: share, seeds 0-39): 0.05 53.4%, 0.5 54.4%, 2 56.1%, 10 55.8%; 6 players unchanged (64.0%).
#: A playout's step is noisy (a sampled deal); the margin says which card helps in most deals.
SIDE_MARGIN = 2.0


class TrogguHard(TrogguNormal):
    """Playouts over sampled deals; ``samples`` and ``rollouts`` (playouts a move) bound the
    work, so a seed always gives the same move; ``budget`` seconds is only a safety net."""

    def __init__(
        self,
        seed: int = 0,
        samples: int = 48,
        rollouts: int = 720,
        budget: float = 0.4,
        caution: float = 0.0,
    ) -> None:
        super().__init__(seed)
        self.samples = samples
        self.rollouts = rollouts
        self.budget = budget
        self.caution = caution

    def bid(self, view: View, legal: list[str]) -> str:
        """Solo as ``normal`` does; a Tapp by the chance a ``hard`` declarer wins it where a
        model was measured (``bidding``), else by ``normal``'s thresholds."""
        hand = [_CARD[c] for c in view["hand"]]
        chance = tapp_win_chance(hand, view["players"])
        action = super().bid(view, legal)
        if chance is None or action == "solo":
            return action
        if chance >= TAPP_CHANCE and "tapp" in legal:
            return "tapp"
        return "pass" if "pass" in legal else action

    def card(self, info: Info, legal: list[int]) -> int:
        # The card ``normal`` would play is the default; another card replaces it when its mean
        # gain, paired deal by deal, is past ``caution`` standard errors. Measured at 8
        # players: caution 1 keeps ``normal``'s card more often and loses as much as it saves
        # (fewer duplicate wins as declarer), 0 (the best mean) is the default.
        default = super().card(info, legal)
        values: dict[int, list[float]] = {card: [] for card in legal}
        # At most ``rollouts`` playouts a move: fewer deals when there are many cards to try.
        samples = min(self.samples, max(8, self.rollouts // len(legal)))

        def use(hands: list[list[int]]) -> bool:
            side = contract_side(info, hands)
            for card in legal:
                values[card].append(self.outcome(info, side, rollout(info, hands, card)))
            return True

        deadline = time.perf_counter() + self.budget
        done = sample_loop(lambda: sample(info, self.rng), use, samples, deadline, tries=3)
        if done < 2:
            return default
        base = values[default]
        best, best_gain = default, 0.0
        for card in legal:
            if card == default:
                continue
            gain = confident_gain(
                [v - b for v, b in zip(values[card], base, strict=True)], self.caution
            )
            if gain > best_gain:
                best, best_gain = card, gain
        return best

    @staticmethod
    def outcome(info: Info, side: tuple[set[int], int] | None, pts: list[int]) -> float:
        """What one playout is worth to ``info.seat`` (card points ``pts`` taken from here)."""
        if side is not None:
            # Everyone pays by the steps of the contract side's total (57, 84, 30): play for
            # the step, and for the margin too (``SIDE_MARGIN``).
            side_points = side[1] + sum(pts[s] for s in side[0])
            sign = 1 if info.seat in side[0] else -1
            return sign * (10 * contract_payment(side_points) + SIDE_MARGIN * side_points)
        if info.misere:
            return -pts[info.seat]
        ours = sum(pts[s] for s in info.friends)
        if info.alone_declarer:
            return 10 * contract_payment(info.pile_points + ours) + 0.05 * ours
        return ours - (sum(pts) - ours)


__all__ = ["TrogguHard", "TrogguNormal", "hand_strength", "play_policy"]
