"""TroiKuntza AI: ``normal`` heuristics and ``hard`` playouts over sampled deals.

- Usefulness of a card for the round's contract: a joker always; for Troikas the other cards of
  its rank held; for Runs the cards of its suit held within three steps of it.
- Take or draw: take the top discard when it lets the hand come out, is a joker, or is useful
  (pairs a rank for Troikas, joins two neighbours for Runs); once out, when it can be laid off.
- May I: only for a joker, a card that lets the hand come out, or a very useful card, while
  May Is are left and the hand is not too big already (each May I costs a penalty card).
- Come out as soon as the contract is there (the longest way the engine offers), then lay off
  everything that fits on later turns, then discard the least useful card, the highest in points
  among equals (it would cost the most if the round ends); never a joker while another card goes.
- ``hard``: which card to discard is tried over several deals of the unseen cards
  (``troikuntza_sim``; the hands of players not yet out dealt as developed hands, for they kept
  what helps them): each of ``normal``'s few best discards is played and the round played out
  with ``normal`` in every seat; the discard leaving the fewest points in our hand at the round's
  end wins, when it beats ``normal``'s choice by more than the noise. So it weighs what
  ``normal`` guesses at: a card the next player can use, a discard that breaks a meld, points
  kept too long. Take / draw and May I can be searched the same way (``searched``), but
  measured so they did worse than ``normal``'s rules (the sampled opponents are slower than
  real ones, so a playout undervalues the May I's penalty card), so ``hard`` keeps those rules.
  Coming out and laying off follow ``normal`` (doing them at once is nearly always right).
  Measured (bench/ai.py, 5 seeds at 4 players): level with ``normal``, not better yet.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from typing import Any

from engine.ai.common import SeededPlayer, View
from engine.cards import JOKER
from engine.troikuntza import melds as M
from engine.troikuntza.game import TroiKuntzaGame

_VALUE = {"A": (1, 14), "J": (11,), "Q": (12,), "K": (13,)}


def _positions(code: str) -> tuple[int, ...]:
    rank = code[:-1]
    return _VALUE.get(rank) or (int(rank),)


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
        mine = _positions(card)
        near: set[int] = set()
        for c in hand:
            if c in (JOKER, card) or c[-1] != suit:
                continue
            for p in _positions(c):
                for q in mine:
                    if 0 < abs(p - q) <= 3:
                        near.add(p)
        score += 1.2 * len(near)
    return score


def _table_meld(item: dict[str, Any]) -> M.Meld:
    """A view's meld as ``engine.troikuntza.melds`` wants it (a run's ``start`` rebuilt)."""
    meld: M.Meld = {"kind": item["kind"], "owner": item["owner"], "cards": list(item["cards"])}
    if item["kind"] == "run":
        meld["suit"] = item["suit"]
        first = item["stands_for"][0]
        meld["start"] = 1 if first[:-1] == "A" else _positions(first)[0]
    else:
        meld["rank"] = item["rank"]
    return meld


def fits_table(card: str, view: View) -> bool:
    for item in view.get("melds") or []:
        try:
            if M.layoff_result(_table_meld(item), card) is not None:
                return True
        except (KeyError, ValueError, IndexError):  # a view shape this AI does not know
            continue
    return False


def comes_out_with(hand: list[str], card: str, view: View) -> bool:
    ways = M.find_contracts(
        [*hand, card],
        view["contract"],
        bool(view.get("options", {}).get("natural_majority")),
        limit=1,
        taken=card,
    )
    return bool(ways)


class TroiKuntzaNormal(SeededPlayer):
    def __init__(self, seed: int = 0) -> None:
        super().__init__("troikuntza", seed)

    def decide(self, view: View, legal: list[str]) -> str:
        seat = view["seat"]
        hand: list[str] = list(view["hand"])
        out = bool(view["out"][seat])
        if "mayi" in legal:
            return self.mayi(view, hand, out)
        if "take" in legal or "draw" in legal:
            return self.take_or_draw(view, hand, out, legal)
        melds = [a for a in legal if a.startswith("meld ")]
        if melds:
            # The engine lists the longest way first: it sheds the most cards.
            return max(melds, key=lambda a: (len(a.split()), -melds.index(a)))
        layoffs = [a for a in legal if a.startswith("layoff ")]
        if layoffs:
            # Naturals before jokers (a joker might be worth more elsewhere).
            return min(layoffs, key=lambda a: (a.split()[1] == "jk", layoffs.index(a)))
        return self.discard(view, hand, out, legal)

    def take_or_draw(self, view: View, hand: list[str], out: bool, legal: list[str]) -> str:
        top = view.get("discard_top")
        if "take" not in legal or not top:
            return "draw"
        if top == JOKER:
            return "take"
        if out:
            return "take" if fits_table(top, view) else "draw"
        if comes_out_with(hand, top, view):
            return "take"
        return "take" if usefulness(top, hand, view["contract"]) >= 2.4 else "draw"

    def mayi(self, view: View, hand: list[str], out: bool) -> str:
        card = view["mayi"].get("card") or view.get("discard_top")
        if not card:
            return "pass"
        if len(hand) >= 15:
            return "pass"
        if out:
            return "mayi" if card == JOKER or fits_table(card, view) and len(hand) <= 2 else "pass"
        if card == JOKER:
            return "mayi"
        if comes_out_with(hand, card, view):
            return "mayi"
        return "mayi" if usefulness(card, hand, view["contract"]) >= 3.5 else "pass"

    def discard(self, view: View, hand: list[str], out: bool, legal: list[str]) -> str:
        choices = [a for a in legal if a.startswith("discard ")]
        if not choices:
            return legal[0]
        contract = view["contract"]
        counts = Counter(hand)

        def cost(action: str) -> tuple[float, int]:
            card = action.split()[1].upper()
            rest = list(hand)
            rest.remove(card)
            if out:
                keep = 50.0 if card == JOKER else 5.0 if fits_table(card, view) else 0.0
            else:
                keep = usefulness(card, rest, contract)
                if counts[card] > 1:
                    keep += 0.5  # a duplicate is a pair for Troikas already counted; keep one
            return (keep, -M.card_points(card))

        return min(choices, key=cost)

    def discard_order(self, view: View, legal: list[str]) -> list[str]:
        """The legal discards, the one ``normal`` throws first."""
        hand: list[str] = list(view["hand"])
        choices = [a for a in legal if a.startswith("discard ")]
        ordered: list[str] = []
        while choices:
            pick = self.discard(view, hand, bool(view["out"][view["seat"]]), choices)
            ordered.append(pick)
            choices.remove(pick)
        return ordered


class TroiKuntzaHard(TroiKuntzaNormal):
    """Playouts over sampled deals (see the module docstring). ``samples`` deals bound the work,
    so a seed always gives the same move; ``budget`` seconds is only a safety net."""

    def __init__(
        self,
        seed: int = 0,
        samples: int = 10,
        discards: int = 3,
        budget: float = 0.25,
        caution: float = 1.0,
        searched: tuple[str, ...] = ("discard",),
        develop: int = 3,
    ) -> None:
        super().__init__(seed)
        self.develop = develop
        self.caution = caution
        self.searched = searched
        self.samples = samples
        self.discards = discards
        self.budget = budget

    def candidates(self, view: View, legal: list[str]) -> list[str]:
        """The actions worth a search, ``normal``'s choice first (it wins ties)."""
        first = super().decide(view, legal)
        if "mayi" in legal and "mayi" not in self.searched:
            return [first]
        if "take" in legal and "draw" not in self.searched:
            return [first]
        if first.startswith("discard ") and "discard" not in self.searched:
            return [first]
        if "mayi" in legal or "take" in legal:
            rest = [a for a in ("mayi", "pass", "take", "draw") if a in legal and a != first]
            return [first, *rest]
        if first.startswith("discard "):
            return self.discard_order(view, legal)[: self.discards]
        return [first]

    def decide(self, view: View, legal: list[str]) -> str:
        from engine.ai.troikuntza_sim import copy_game, determinize

        options = self.candidates(view, legal)
        if len(options) == 1:
            return options[0]
        seat: int = view["seat"]
        deadline = time.perf_counter() + self.budget
        # Each deal's result minus that of ``normal``'s choice on the same deal (same cards, same
        # seeds): round points vary by a hundred from one deal to the next, the differences far
        # less.
        diffs: dict[str, list[float]] = {a: [] for a in options[1:]}
        for done in range(self.samples):
            if done and time.perf_counter() > deadline:
                break
            base = determinize(view, self.rng, self.develop)
            seed = self.rng.randrange(1 << 30)
            first = playout(copy_game(base), seat, options[0], seed)
            for action in options[1:]:
                diffs[action].append(playout(copy_game(base), seat, action, seed) - first)
        return min(
            options,
            key=lambda a: (0.0 if a == options[0] else self.margin(diffs[a]), options.index(a)),
        )

    def margin(self, diffs: list[float]) -> float:
        """How much better than ``normal``'s choice an action is, believed only past one
        standard error (picking the best of a few noisy means otherwise picks noise)."""
        n = len(diffs)
        mean = sum(diffs) / n
        if n < 2:
            return 0.0
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        return min(0.0, mean + self.caution * math.sqrt(var / n))


#: A playout longer than this many actions is cut off (the hand's points then count as is).
PLAYOUT_ACTIONS = 600


def playout(game: TroiKuntzaGame, seat: int, action: str, seed: int) -> float:
    """``seat``'s points at the end of the round once ``action`` is played, ``normal`` playing
    every seat from then on."""
    events = game.apply(seat, action)
    for step in range(PLAYOUT_ACTIONS):
        for event in events:
            if event["type"] == "hand_over":
                return float(event["points"][seat])
        waiting = game.to_act()
        actor = waiting[0]
        legal = game.legal_actions(actor)
        if not legal:  # a May I window only the service can close
            events = game.apply(actor, "close")
            continue
        choice = TroiKuntzaNormal(seed + step).choose(game.view(actor), legal)
        events = game.apply(actor, choice)
    return float(M.hand_points(game.state["hands"][seat]))
