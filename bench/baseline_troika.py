"""Frozen baseline: Troika's ``hard`` player as it was before double-dummy search (issue 19).

Only ``bench/ai.py`` uses it (level ``oldhard``), to measure the present ``hard`` against it; do
not improve it. It is a verbatim copy of ``engine.ai.troika`` (now ``engine.troika.ai``) at
that time, so it keeps its own ``normal`` policy for its rollouts even when the live one changes.
"""

from __future__ import annotations

import math
import random
from typing import Any

from engine.ai.common import SeededPlayer, View, completed_tricks, current_trick
from engine.troika import bids as B
from engine.troika.cards import (
    CARD,
    DISCARD_ACTION,
    FIVE_HEARTS,
    HIGH,
    LOW,
    PLAY_ACTION,
    POINTS,
    SUIT,
    SUIT_INDEX,
    SUITS,
    THREE_SPADES,
    deck_for,
)

# -- card helpers -----------------------------------------------------------------------------


def _key(card: int, led: int, trump: int | None, low: bool) -> int:
    """How strongly ``card`` stands in a trick led in suit ``led`` (0: it cannot win)."""
    suit = SUIT[card]
    strength = LOW[card] if low else HIGH[card]
    if suit == trump:
        return 200 + strength
    if suit == led:
        return 100 + strength
    return 0


def _winner_index(trick: list[int], trump: int | None, low: bool) -> int:
    led = SUIT[trick[0]]
    best, best_key = 0, -1
    for i, card in enumerate(trick):
        k = _key(card, led, trump, low)
        if k > best_key:
            best, best_key = i, k
    return best


def _legal_cards(hand: list[int], trick: list[int]) -> list[int]:
    if trick:
        led = SUIT[trick[0]]
        follow = [c for c in hand if SUIT[c] == led]
        if follow:
            return follow
    return list(hand)


def _strength(card: int, low: bool) -> int:
    return LOW[card] if low else HIGH[card]


# -- the normal play policy (also the rollout policy of ``hard``) ------------------------------


def play_policy(
    hand: list[int],
    trick: list[int],
    seat: int,
    trump: int | None,
    low: bool,
    outstanding: set[int] | frozenset[int],
    declarer_team: int | None,
) -> int:
    """The card ``normal`` plays. ``outstanding``: cards that may still be in other hands."""
    legal = _legal_cards(hand, trick)
    if len(legal) == 1:
        return legal[0]
    if not trick:
        return _lead(hand, seat, trump, low, outstanding, declarer_team)
    led = SUIT[trick[0]]
    position = len(trick)  # 1..3: how many played before me
    leader = (seat - position) % 4
    w = _winner_index(trick, trump, low)
    w_seat = (leader + w) % 4
    w_key = _key(trick[w], led, trump, low)
    later = 3 - position
    partner_winning = (w_seat - seat) % 4 == 2
    points_in = sum(POINTS[c] for c in trick)

    def safe(key: int) -> bool:
        """No later player can beat a card standing at ``key`` (a guess without voids)."""
        if later == 0:
            return True
        led_left = 0
        higher_trump = False
        for c in outstanding:
            suit = SUIT[c]
            if suit == led:
                led_left += 1
                if _key(c, led, trump, low) > key:
                    return False  # a higher card of the led suit is out
            elif suit == trump and _key(c, led, trump, low) > key:
                higher_trump = True
        # A player void in the led suit may ruff: likely when few cards of it are left.
        return not (higher_trump and led_left < 2 * later)

    if partner_winning and safe(w_key):
        return _sluff(legal, trump, low, to_partner=True)
    winners = [c for c in legal if _key(c, led, trump, low) > w_key]
    if THREE_SPADES in trick and FIVE_HEARTS not in trick and FIVE_HEARTS not in legal:
        # A trick holding 3S (and not 5H) is worth -2: let whoever wins it keep it, play low.
        return _sluff(legal, trump, low, to_partner=partner_winning)
    good = [c for c in winners if c != THREE_SPADES and safe(_key(c, led, trump, low))]
    if good:
        if FIVE_HEARTS in good:
            return FIVE_HEARTS
        return min(good, key=lambda c: _key(c, led, trump, low))
    if partner_winning:
        return _sluff(legal, trump, low, to_partner=False)
    if THREE_SPADES in legal and (later == 0 or safe(w_key)) and points_in < 5:
        return THREE_SPADES
    return _sluff(legal, trump, low, to_partner=False)


def _sluff(legal: list[int], trump: int | None, low: bool, *, to_partner: bool) -> int:
    """A card given away: 5H to a partner's safe trick, else the least useful card."""
    if to_partner and FIVE_HEARTS in legal:
        return FIVE_HEARTS
    pool = [c for c in legal if c != FIVE_HEARTS and (to_partner is False or c != THREE_SPADES)]
    if not pool:
        pool = [c for c in legal if c != FIVE_HEARTS] or legal
    if not to_partner and THREE_SPADES in pool and len(pool) > 1:
        # 3S on a trick we may lose is fine, but on a trick nobody is sure of keep it back.
        pool = [c for c in pool if c != THREE_SPADES]
    return min(pool, key=lambda c: (SUIT[c] == trump, _strength(c, low)))


def _lead(
    hand: list[int],
    seat: int,
    trump: int | None,
    low: bool,
    outstanding: set[int] | frozenset[int],
    declarer_team: int | None,
) -> int:
    by_suit: dict[int, list[int]] = {}
    for c in hand:
        by_suit.setdefault(SUIT[c], []).append(c)
    out_by_suit: dict[int, list[int]] = {}
    for c in outstanding:
        out_by_suit.setdefault(SUIT[c], []).append(c)
    declaring = declarer_team is not None and seat & 1 == declarer_team
    # Pull trumps as declarers while we hold as many as the others.
    if trump is not None and trump in by_suit and declaring:
        mine = by_suit[trump]
        theirs = out_by_suit.get(trump, [])
        if theirs and len(mine) >= len(theirs):
            top = max(mine, key=lambda c: _strength(c, low))
            master = all(_strength(top, low) > _strength(c, low) for c in theirs)
            if master and top not in (FIVE_HEARTS, THREE_SPADES):
                return top
            low_trumps = [c for c in mine if c not in (FIVE_HEARTS, THREE_SPADES)]
            if len(mine) >= 3 and low_trumps:
                return min(low_trumps, key=lambda c: _strength(c, low))
    # Cash a master in a side suit (most cards of it out first: less risk of a ruff).
    best: tuple[int, int] | None = None
    for suit, cards in by_suit.items():
        top = max(cards, key=lambda c: _strength(c, low))
        if top in (FIVE_HEARTS, THREE_SPADES):
            continue
        theirs = out_by_suit.get(suit, [])
        master = all(_strength(top, low) > _strength(c, low) for c in theirs)
        if master and suit != trump and theirs and (best is None or len(theirs) > best[0]):
            best = (len(theirs), top)
    if best is not None:
        return best[1]
    # Otherwise low from the longest side suit without giving away 5H or leading 3S.
    choices = [c for c in hand if c not in (FIVE_HEARTS, THREE_SPADES) and SUIT[c] != trump]
    if not choices:
        choices = [c for c in hand if c not in (FIVE_HEARTS, THREE_SPADES)] or list(hand)
    return min(choices, key=lambda c: (-len(by_suit[SUIT[c]]), SUIT[c] == trump, _strength(c, low)))


# -- hand evaluation (normal bidding and trumps) -----------------------------------------------


def _suit_tricks(
    mine: list[int], others: list[int], low: bool, is_trump: bool, ruffable: bool = False
) -> float:
    """Expected tricks from one suit: masters, guarded honours, long trumps."""
    mine = sorted(mine, key=lambda c: -_strength(c, low))
    total = 0.0
    for i, card in enumerate(mine):
        higher = sum(1 for c in others if _strength(c, low) > _strength(card, low))
        # A card with k higher cards out needs k smaller cards of its own to guard it.
        guards = len(mine) - 1 - i
        value = 0.0
        if higher == 0:
            value = 1.0
        elif higher <= guards:
            value = (0.7, 0.45, 0.25)[min(higher, 3) - 1]
        if ruffable:
            # The third and later rounds of a side suit are likely ruffed.
            value *= (1.0, 0.85, 0.55, 0.35, 0.25)[min(i, 4)]
        total += value
    if is_trump and len(mine) > 3:
        total += 0.6 * (len(mine) - 3)
    elif not is_trump and len(mine) >= 5 and total >= 1:
        total += 0.4 * (len(mine) - 4)
    return total


def evaluate(hand: list[int], deck: tuple[int, ...], trump: int | None, low: bool) -> float:
    """Expected team hand points if we declare with these trumps (None: no trumps)."""
    others = [c for c in deck if c not in hand]
    tricks = 0.0
    n_trumps = sum(1 for c in hand if SUIT[c] == trump)
    for suit in range(4):
        mine = [c for c in hand if SUIT[c] == suit]
        theirs = [c for c in others if SUIT[c] == suit]
        tricks += _suit_tricks(mine, theirs, low, suit == trump, trump not in (None, suit))
        if trump is not None and suit != trump and n_trumps >= 3:
            tricks += 0.6 if not mine else 0.3 if len(mine) == 1 else 0.0
    if trump is None and not low:
        # No trumps: a suit with nothing stopped is a danger the others run.
        unstopped = sum(1 for s in range(4) if not [c for c in hand if SUIT[c] == s])
        tricks -= 0.4 * unstopped
    # The partner adds about 1.8 tricks to an average hand, less when we hold most of them.
    tricks = min(8.0, tricks + 1.8 * max(0.0, 8.0 - tricks) / 8.0) + 0.01 * n_trumps
    five = 3.0 if FIVE_HEARTS in hand else 2.0
    three = -1.0 if THREE_SPADES in hand else -1.5
    return tricks + five + three


def best_trump(hand: list[int], deck: tuple[int, ...], low: bool) -> tuple[int, float]:
    scored = [(evaluate(hand, deck, s, low), s) for s in range(4)]
    value, suit = max(scored)
    return suit, value


# -- the players ------------------------------------------------------------------------------

#: What ``evaluate`` misses, per bid kind: measured by forcing ``normal`` seats to declare
#: (bench-style, 300 deals each) and comparing the estimate with the points taken; the
#: declarer's lead and choice of trumps are worth about a point more than the static count.
CALIBRATION = {B.TRUMP: 1.2, B.TRUMP_LOW: 0.8, B.NO: 0.4, B.NO_LOW: 0.7}
#: Spread of the points a declaring team takes around its expectation (same measurement).
SPREAD = 1.7
#: The chance of making it from which ``normal`` bids a contract.
BID_CONFIDENCE = 0.95


def make_chance(expected: float, number: int) -> float:
    """Chance of taking at least ``number`` points when ``expected`` are expected."""
    return 0.5 * (1.0 + math.erf((expected - number + 0.5) / (SPREAD * math.sqrt(2.0))))


def _cards(codes: list[str]) -> list[int]:
    return [CARD[c] for c in codes]


class TroikaNormal(SeededPlayer):
    bid_confidence = BID_CONFIDENCE

    def __init__(self, seed: int = 0) -> None:
        super().__init__("troika", seed)

    def decide(self, view: View, legal: list[str]) -> str:
        phase = view["phase"]
        if phase == "bidding":
            return self.bid(view, legal)
        if phase == "trump":
            return self.trump(view, legal)
        if phase == "kitty":
            return self.discard(view, legal)
        return self.play(view, legal)

    # bidding -------------------------------------------------------------------------------
    def kind_values(self, view: View, kinds: set[int]) -> dict[int, float]:
        """Expected team hand points declaring each kind of bid."""
        hand = _cards(view["hand"])
        deck = deck_for(bool(view["options"]["kitty"]))
        values: dict[int, float] = {}
        if B.TRUMP in kinds:
            values[B.TRUMP] = best_trump(hand, deck, False)[1]
        if B.TRUMP_LOW in kinds:
            values[B.TRUMP_LOW] = best_trump(hand, deck, True)[1]
        if B.NO in kinds:
            values[B.NO] = evaluate(hand, deck, None, False)
        if B.NO_LOW in kinds:
            values[B.NO_LOW] = evaluate(hand, deck, None, True)
        return {k: v + CALIBRATION[k] for k, v in values.items()}

    def bid(self, view: View, legal: list[str]) -> str:
        if "misdeal" in legal:
            return "misdeal"
        bids = [(B.parse(a.split()[1:], view["options"]), a) for a in legal if a != "pass"]
        if not bids:
            return "pass"
        values = self.kind_values(view, {B.kind_of(b) for b, _ in bids})
        partner = (view["seat"] + 2) % 4
        # A failed contract costs the whole bid while the defenders score their points anyway:
        # duplicate matches of ``normal`` against itself showed bidding only near-sure
        # contracts wins most (0.5: 41%, 0.85: 55%, 0.95+: 59% against bidding at 0.85).
        # Outbid the partner only when surer still: his contract is ours too.
        needed = self.bid_confidence + (0.04 if view.get("high_bidder") == partner else 0.0)
        best: tuple[float, str] | None = None
        for bid, action in bids:
            number, kind = B.number_of(bid), B.kind_of(bid)
            chance = make_chance(values[kind], number)
            if chance < needed and "pass" in legal:
                continue
            factor = 2 if B.is_no_trump(bid) else 1
            gain = factor * (chance * max(values[kind], number) - (1 - chance) * number)
            # The cheapest number first (a higher one only adds risk); then the best kind.
            score = -number * 1000 + gain
            if best is None or score > best[0]:
                best = (score, action)
        return best[1] if best is not None else "pass"

    # trumps and kitty ----------------------------------------------------------------------
    def trump(self, view: View, legal: list[str]) -> str:
        hand = _cards(view["hand"])
        deck = deck_for(bool(view["options"]["kitty"]))
        low = bool(view["contract"] and view["contract"]["low"])
        suit, _ = best_trump(hand, deck, low)
        return f"trump {SUITS[suit].lower()}"

    def discard(self, view: View, legal: list[str]) -> str:
        return discard_choice(view, legal)

    # card play ----------------------------------------------------------------------------
    def play(self, view: View, legal: list[str]) -> str:
        info = PlayInfo(view)
        if info.trump_from_lead:
            # trump_lead: this lead names trumps; lead the top of the best trump suit.
            deck = deck_for(bool(view["options"]["kitty"]))
            suit, _ = best_trump(info.hand, deck, info.low)
            mine = [
                c for c in info.hand if SUIT[c] == suit and c not in (FIVE_HEARTS, THREE_SPADES)
            ]
            if mine:
                return PLAY_ACTION[max(mine, key=lambda c: _strength(c, info.low))]
        card = play_policy(
            info.hand,
            info.trick,
            info.seat,
            info.trump,
            info.low,
            info.outstanding,
            info.declarer_team,
        )
        return PLAY_ACTION[card]


def discard_choice(view: View, legal: list[str]) -> str:
    """Kitty discard: never a trump or an ace; empty a short side suit, else the lowest card."""
    hand = _cards(view["hand"])
    trump = SUIT_INDEX[view["trump"]] if view.get("trump") else None
    low = bool(view["contract"] and view["contract"]["low"])
    allowed = [CARD[a.split()[1].upper()] for a in legal]
    counts = {s: sum(1 for c in hand if SUIT[c] == s) for s in range(4)}

    def cost(c: int) -> tuple[int, int, int]:
        strength = _strength(c, low)
        master = strength >= (20 if low else 14)
        return (SUIT[c] == trump, master, counts[SUIT[c]] * 10 + strength)

    return DISCARD_ACTION[min(allowed, key=cost)]


class PlayInfo:
    """The facts of the play phase a seat can read from its view."""

    def __init__(self, view: View) -> None:
        self.seat: int = view["seat"]
        self.hand = _cards(view["hand"])
        self.trick_seated = [(s, CARD[c]) for s, c in current_trick(view)]
        self.trick = [c for _, c in self.trick_seated]
        self.leader: int = view["leader"] if view.get("leader") is not None else self.seat
        self.trump: int | None = SUIT_INDEX[view["trump"]] if view.get("trump") else None
        contract = view.get("contract") or {}
        self.low = bool(contract.get("low"))
        self.no_trump = contract.get("kind") == "no"
        # trump_lead: the declarer's first lead will fix trumps (trump bids only).
        self.trump_from_lead = (
            self.trump is None
            and bool(contract)
            and not self.no_trump
            and bool(view["options"].get("trump_lead"))
            and not view.get("trick")
        )
        self.declarer_team: int | None = contract.get("team")
        self.declarer: int | None = contract.get("declarer")
        self.number: int = contract.get("number", 0)
        deck = deck_for(bool(view["options"]["kitty"]))
        history, self.full_history = completed_tricks(view)
        seen = set(self.hand) | set(self.trick)
        self.voids: list[set[int]] = [set(), set(), set(), set()]
        for trick in history:
            cards = [(s, CARD[c]) for s, c in trick]
            seen.update(c for _, c in cards)
            led = SUIT[cards[0][1]]
            for s, c in cards[1:]:
                if SUIT[c] != led:
                    self.voids[s].add(led)
        if self.trick_seated:
            led = SUIT[self.trick_seated[0][1]]
            for s, c in self.trick_seated[1:]:
                if SUIT[c] != led:
                    self.voids[s].add(led)
        seen.update(CARD[c] for c in view.get("discards") or [])
        # Hand points minus tricks tell whether 5H (+5) and 3S (-3) were already taken.
        gone: set[int] = set()
        for t in (0, 1):
            extra = view["hand_points"][t] - view["tricks_won"][t]
            if extra in (5, 2):
                gone.add(FIVE_HEARTS)
            if extra in (-3, 2):
                gone.add(THREE_SPADES)
        self.outstanding = {c for c in deck if c not in seen and c not in gone}
        self.gone = gone
        self.hand_sizes: list[int] = list(view["hand_sizes"])
        self.points: list[int] = list(view["hand_points"])
        self.scores: list[int] = list(view["scores"])
        self.options: dict[str, Any] = view["options"]
        # Cards no one can hold any more although we did not see them played: the kitty's
        # discards of another declarer and, without the full history, earlier tricks.
        self.must_hold = {c for c in (FIVE_HEARTS, THREE_SPADES) if c in self.outstanding}


# -- hard: determinized rollouts --------------------------------------------------------------


def sample_hands(
    info: PlayInfo, rng: random.Random, extra_pool: list[int] | None = None
) -> list[list[int]] | None:
    """Deal the unseen cards to the other seats, respecting the voids shown and the cards that
    must still be in a hand (5H / 3S not yet taken). None if this try broke a constraint."""
    seat = info.seat
    others = [s for s in range(4) if s != seat]
    need = {s: info.hand_sizes[s] for s in others}
    pool = list(info.outstanding) if extra_pool is None else list(extra_pool)
    rng.shuffle(pool)
    # Forced cards first, so they are never left over.
    pool.sort(key=lambda c: c not in info.must_hold)
    hands: dict[int, list[int]] = {s: [] for s in others}
    for card in pool:
        fits = [s for s in others if len(hands[s]) < need[s] and SUIT[card] not in info.voids[s]]
        if not fits:
            if card in info.must_hold:
                return None
            continue
        # Weighted by free room, so hands fill evenly.
        total = sum(need[s] - len(hands[s]) for s in fits)
        pick = rng.randrange(total)
        for s in fits:
            pick -= need[s] - len(hands[s])
            if pick < 0:
                hands[s].append(card)
                break
    if any(len(hands[s]) < need[s] for s in others):
        return None
    result = [[], [], [], []]
    for s in others:
        result[s] = hands[s]
    result[seat] = list(info.hand)
    return result


def rollout(
    hands: list[list[int]],
    trick: list[int],
    leader: int,
    to_play: int,
    first: int,
    trump: int | None,
    low: bool,
    declarer_team: int | None,
) -> list[int]:
    """Play ``first`` for ``to_play`` then everything out with the normal policy; returns the
    hand points each team takes from here on."""
    hands = [list(h) for h in hands]
    trick = list(trick)
    alive: set[int] = set()
    for h in hands:
        alive.update(h)
    points = [0, 0]
    seat = to_play
    card = first
    while True:
        hands[seat].remove(card)
        alive.discard(card)
        trick.append(card)
        if len(trick) == 4:
            w = (leader + _winner_index(trick, trump, low)) % 4
            points[w & 1] += (
                1 + POINTS[trick[0]] + POINTS[trick[1]] + POINTS[trick[2]] + POINTS[trick[3]]
            )
            trick = []
            leader = w
            seat = w
            if not hands[seat]:
                return points
        else:
            seat = (seat + 1) % 4
        hand = hands[seat]
        out = alive.difference(hand)
        card = play_policy(hand, trick, seat, trump, low, out, declarer_team)


def score_change(
    team_points: list[int],
    declarer_team: int | None,
    number: int,
    no_trump: bool,
    options: dict[str, Any],
) -> float:
    """Our (team 0 of ``team_points``) score change minus theirs, roughly as the hand scores."""
    if declarer_team is None:
        return team_points[0] - team_points[1]
    factor = 2 if no_trump else 1
    taken = team_points[declarer_team]
    if taken >= number:
        dec = taken * factor
    elif options.get("set_penalty") == "points":
        dec = -abs(taken) * factor
    else:
        dec = -number * factor
    defence = team_points[1 - declarer_team]
    ours = dec if declarer_team == 0 else defence
    theirs = defence if declarer_team == 0 else dec
    return ours - theirs


class TroikaHard(TroikaNormal):
    """Determinized search; ``samples`` deals per move bound the work (not the clock)."""

    def __init__(
        self, seed: int = 0, samples: int = 40, bid_samples: int = 24, rollouts: int = 280
    ) -> None:
        super().__init__(seed)
        self.samples = samples
        self.bid_samples = bid_samples
        self.rollouts = rollouts

    def play(self, view: View, legal: list[str]) -> str:
        info = PlayInfo(view)
        options = [CARD[a.split()[1].upper()] for a in legal]
        team = info.seat & 1
        totals = dict.fromkeys(options, 0.0)
        # At most ``rollouts`` playouts a move: fewer deals when there are many cards to try.
        samples = min(self.samples, max(12, self.rollouts // len(options)))
        done = 0
        tries = 0
        while done < samples and tries < samples * 4:
            tries += 1
            hands = sample_hands(info, self.rng)
            if hands is None:
                continue
            done += 1
            for card in options:
                gained = rollout(
                    hands,
                    info.trick,
                    info.leader,
                    info.seat,
                    card,
                    SUIT[card] if info.trump_from_lead else info.trump,
                    info.low,
                    info.declarer_team,
                )
                final = [info.points[0] + gained[0], info.points[1] + gained[1]]
                if team == 1:
                    final = [final[1], final[0]]
                dteam = None
                if info.declarer_team is not None:
                    dteam = 0 if info.declarer_team == team else 1
                totals[card] += score_change(final, dteam, info.number, info.no_trump, info.options)
        if done == 0:
            return super().play(view, legal)
        best = max(options, key=lambda c: (totals[c], -options.index(c)))
        return PLAY_ACTION[best]

    # simulated contracts --------------------------------------------------------------------
    def simulate_contract(
        self,
        hand: list[int],
        seat: int,
        deck: tuple[int, ...],
        trump: int | None,
        low: bool,
        deals: list[list[list[int]]],
    ) -> float:
        """Average points our team takes declaring with ``trump`` over the sampled deals."""
        total = 0.0
        team = seat & 1
        for hands in deals:
            card = play_policy(hands[seat], [], seat, trump, low, set(deck) - set(hand), team)
            gained = rollout(hands, [], seat, seat, card, trump, low, team)
            total += gained[team]
        return total / max(1, len(deals))

    def _deals(self, view: View) -> tuple[list[int], tuple[int, ...], list[list[list[int]]]]:
        seat = view["seat"]
        hand = _cards(view["hand"])
        deck = deck_for(bool(view["options"]["kitty"]))
        rest = [c for c in deck if c not in hand]
        deals = []
        for _ in range(self.bid_samples):
            self.rng.shuffle(rest)
            hands: list[list[int]] = [[], [], [], []]
            hands[seat] = list(hand)
            others = [s for s in range(4) if s != seat]
            for j, s in enumerate(others):
                hands[s] = rest[j * 8 : (j + 1) * 8]
            if len(hand) > 8:  # the declarer with the kitty (not used in bidding)
                continue
            deals.append(hands)
        return hand, deck, deals

    def kind_values(self, view: View, kinds: set[int]) -> dict[int, float]:
        hand, deck, deals = self._deals(view)
        seat = view["seat"]
        values: dict[int, float] = {}
        if B.TRUMP in kinds or B.TRUMP_LOW in kinds:
            for kind, low in ((B.TRUMP, False), (B.TRUMP_LOW, True)):
                if kind in kinds:
                    values[kind] = max(
                        self.simulate_contract(hand, seat, deck, s, low, deals) for s in range(4)
                    )
        if B.NO in kinds:
            values[B.NO] = self.simulate_contract(hand, seat, deck, None, False, deals)
        if B.NO_LOW in kinds:
            values[B.NO_LOW] = self.simulate_contract(hand, seat, deck, None, True, deals)
        # Simulated partners play no better than the heuristics: keep a small safety margin.
        return {k: v - 0.2 for k, v in values.items()}

    def trump(self, view: View, legal: list[str]) -> str:
        hand, deck, deals = self._deals(view)
        if len(hand) > 8:  # trump_lead / kitty shapes: fall back to the evaluation
            return super().trump(view, legal)
        low = bool(view["contract"] and view["contract"]["low"])
        seat = view["seat"]
        scored = [(self.simulate_contract(hand, seat, deck, s, low, deals), -s) for s in range(4)]
        return f"trump {SUITS[-max(scored)[1]].lower()}"


__all__ = ["TroikaHard", "TroikaNormal", "evaluate", "play_policy"]
