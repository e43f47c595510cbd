"""Troika (Kaiser) AI: the ``hard`` player, determinized search over the ``normal`` policy.

- ``hard``: for each move it deals the unseen cards at random (consistent with the cards seen
  in ``played_tricks``, the voids they show, 5H / 3S already taken -- read from the hand points --
  and the declarer's own discards). With six tricks left or fewer each deal is solved
  double-dummy (``solver``: exact hand points for every legal card); earlier, each legal
  card is played out with the ``normal`` policy for all four seats. The card with the best
  average score change (our team's minus theirs) wins. Bidding (``bidding``) values every
  call by the score it brings on deals fitting the calls made so far, the rest of the auction
  and the contract reached played out; trumps are the suit whose simulated contract scores best.
  Counts bound the work (deals, playouts, solver nodes: the same seed gives the same move); a
  time budget per decision is only a safety net for a loaded machine.
  Measured (bench/ai.py --no-budget, fresh seeds 5000-5029, two chunks of 15): against the
  hard player it replaced (frozen in ``bench/baseline_troika.py``) 63% +- 10 of games (38 of 60),
  +4.1 points a game; against ``normal`` 85% +- 10 (51 of 60), +16.6 points a game. Before the
  sampled bidding it was 57% (seeds 0-29) and 47.5% (seeds 2000-2019, the same bidding as the
  old player, which both then shared: their games differed in the card play only). Decision
  time (one process, load average ~2.5 on 2 cores, budget on): p50 26 ms, p99 451 ms.
"""

from __future__ import annotations

import time

from engine.ai.common import View, sample_loop
from engine.troika import bids as B
from engine.troika.ai.bidding import hard_bid
from engine.troika.ai.normal import (
    PlayInfo,
    TroikaNormal,
    card_ints,
    play_policy,
    rollout,
    sample_hands,
    score_change,
)
from engine.troika.ai.solver import Solver, mask_of
from engine.troika.cards import CARD, PLAY_ACTION, POINTS, SUIT, SUITS, deck_for


class TroikaHard(TroikaNormal):
    """Determinized search. From ``exact_tricks`` tricks left each sampled deal is solved
    double-dummy (``solver``); earlier the solver is too slow in Python, and each legal
    card is played out with the ``normal`` policy instead. Counts bound the work, so a seed
    always gives the same move: ``samples`` deals (at most ``rollouts`` playouts) a card
    decision, ``exact_samples`` deals or ``exact_nodes`` solver nodes in the last tricks,
    ``bid_samples`` deals a call or a choice of trumps (``bidding``). ``budget`` seconds
    is only a safety net (a decision stops sampling there, never before its first deal): the
    counts fit well within it on a quiet machine."""

    def __init__(
        self,
        seed: int = 0,
        samples: int = 40,
        bid_samples: int = 96,
        rollouts: int = 280,
        exact_samples: int = 24,
        exact_tricks: int = 6,
        exact_nodes: int = 70_000,
        budget: float = 0.45,
    ) -> None:
        super().__init__(seed)
        self.samples = samples
        self.bid_samples = bid_samples
        self.rollouts = rollouts
        self.exact_samples = exact_samples
        self.exact_tricks = exact_tricks
        self.exact_nodes = exact_nodes
        self.budget = budget

    def play(self, view: View, legal: list[str]) -> str:
        info = PlayInfo(view)
        options = [CARD[a.split()[1].upper()] for a in legal]
        if info.trump_from_lead or len(info.hand) > self.exact_tricks:
            totals = self.rollout_totals(info, options)
        else:
            totals = self.exact_totals(info, options)
        if totals is None:
            return super().play(view, legal)
        best = max(options, key=lambda c: (totals[c], -options.index(c)))
        return PLAY_ACTION[best]

    def _score(self, info: PlayInfo, gained: list[int]) -> float:
        """Our score change minus theirs once the hand ends with ``gained`` more points."""
        team = info.seat & 1
        final = [info.points[0] + gained[0], info.points[1] + gained[1]]
        if team == 1:
            final = [final[1], final[0]]
        dteam = None
        if info.declarer_team is not None:
            dteam = 0 if info.declarer_team == team else 1
        return score_change(final, dteam, info.number, info.no_trump, info.options)

    def exact_totals(self, info: PlayInfo, options: list[int]) -> dict[int, float] | None:
        """Each card's summed score over sampled deals, every deal solved double-dummy."""
        deadline = time.perf_counter() + self.budget
        team = info.seat & 1
        totals = dict.fromkeys(options, 0.0)
        # Deals are solved until ``exact_samples`` or ``exact_nodes`` searched nodes (a count,
        # so the same seed gives the same move): a long hand's solves cost many more nodes.
        spent = [0]

        def draw() -> list[list[int]] | None:
            if spent[0] >= self.exact_nodes:
                return None
            return sample_hands(info, self.rng)

        def use(hands: list[list[int]]) -> bool:
            solver = Solver(info.trump, info.low, team, deadline=deadline)
            masks = [mask_of(h) for h in hands]
            values = solver.move_values(masks, info.trick, info.leader, options)
            spent[0] += solver.nodes
            if solver.exhausted:
                return False
            left = len(info.hand) + sum(POINTS[c] for h in hands for c in h)
            left += sum(POINTS[c] for c in info.trick)
            for card, mine in values.items():
                gained = [mine, left - mine] if team == 0 else [left - mine, mine]
                totals[card] += self._score(info, gained)
            return True

        done = sample_loop(draw, use, self.exact_samples, deadline, tries=4)
        return totals if done else None

    def rollout_totals(self, info: PlayInfo, options: list[int]) -> dict[int, float] | None:
        """Each card's summed score over sampled deals played out with the normal policy."""
        deadline = time.perf_counter() + self.budget
        totals = dict.fromkeys(options, 0.0)
        # At most ``rollouts`` playouts a move: fewer deals when there are many cards to try.
        samples = min(self.samples, max(12, self.rollouts // len(options)))

        def use(hands: list[list[int]]) -> bool:
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
                totals[card] += self._score(info, gained)
            return True

        done = sample_loop(lambda: sample_hands(info, self.rng), use, samples, deadline, tries=4)
        return totals if done else None

    # bidding and trumps by simulated deals ---------------------------------------------------
    def bid(self, view: View, legal: list[str]) -> str:
        return hard_bid(view, legal, self.rng, self.bid_samples, self.budget)

    def contract_values(
        self,
        hand: list[int],
        seat: int,
        deck: tuple[int, ...],
        contracts: list[tuple[int | None, bool]],
        deals: list[list[list[int]]],
    ) -> dict[tuple[int | None, bool], float]:
        """Average points our team takes declaring each ``(trumps, low)`` over the sampled
        deals, played out with the ``normal`` policy. Deal by deal for every contract, so the
        time budget (a safety net) cuts every contract's average at the same deals."""
        deadline = time.perf_counter() + self.budget
        team = seat & 1
        outstanding = set(deck) - set(hand)
        totals = dict.fromkeys(contracts, 0.0)

        def use(hands: list[list[int]]) -> bool:
            for trump, low in contracts:
                card = play_policy(hands[seat], [], seat, trump, low, outstanding, team)
                gained = rollout(hands, [], seat, seat, card, trump, low, team)
                totals[(trump, low)] += gained[team]
            return True

        queue = iter(deals)
        done = sample_loop(lambda: next(queue, None), use, len(deals), deadline)
        return {c: v / max(1, done) for c, v in totals.items()}

    def _deals(self, view: View) -> tuple[list[int], tuple[int, ...], list[list[list[int]]]]:
        seat = view["seat"]
        hand = card_ints(view["hand"])
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
        wanted = {
            B.TRUMP: [(t, False) for t in range(4)],
            B.TRUMP_LOW: [(t, True) for t in range(4)],
            B.NO: [(None, False)],
            B.NO_LOW: [(None, True)],
        }
        contracts = [c for k in sorted(kinds) for c in wanted[k]]
        values = self.contract_values(hand, view["seat"], deck, contracts, deals)
        # Simulated partners play no better than the heuristics: keep a small safety margin.
        return {k: max(values[c] for c in wanted[k]) - 0.2 for k in kinds}

    def trump(self, view: View, legal: list[str]) -> str:
        hand, deck, deals = self._deals(view)
        if len(hand) > 8:  # trump_lead / kitty shapes: fall back to the evaluation
            return super().trump(view, legal)
        low = bool(view["contract"] and view["contract"]["low"])
        values = self.contract_values(hand, view["seat"], deck, [(s, low) for s in range(4)], deals)
        best = max(range(4), key=lambda s: (values[(s, low)], -s))
        return f"trump {SUITS[best].lower()}"
