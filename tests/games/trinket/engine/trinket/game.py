"""The Trinket state machine: 2 or 3 players, four cards each from A K Q J 10 9 of spades and
hearts; follow suit, the highest card of the suit led wins the trick and leads the next; one
point a trick; after four tricks the most points win."""

from __future__ import annotations

from typing import Any

from engine.errors import IllegalAction
from engine.game import Event, Game, check_stacked_deck
from engine.options import TIMER, GameSpec
from engine.trinket.views import TrinketView
from engine.verbs import Arg, Verb

RANKS = ("A", "K", "Q", "J", "10", "9")
DECK = [rank + suit for suit in "SH" for rank in RANKS]
TRICKS = 4


def beats(card: str, best: str) -> bool:
    """``card`` beats the trick's ``best`` card so far (which is of the suit led)."""
    return card[-1] == best[-1] and RANKS.index(card[:-1]) < RANKS.index(best[:-1])


def trick_winner(plays: list[dict[str, Any]]) -> int:
    """The seat whose card wins ``plays`` (``seat``, ``card`` in play order)."""
    best = plays[0]
    for play in plays[1:]:
        if beats(play["card"], best["card"]):
            best = play
    return int(best["seat"])


def playable(hand: list[str], trick: list[dict[str, Any]]) -> list[str]:
    """The cards of ``hand`` that may go on ``trick``: the suit led if held, else any."""
    led = [c for c in hand if trick and c[-1] == trick[0]["card"][-1]]
    return led or list(hand)


class TrinketGame(Game):
    spec = GameSpec(
        name="trinket",
        title="Trinket",
        min_players=2,
        max_players=3,
        options=(TIMER,),
        summary="Four tricks; follow suit; the highest card of the suit led wins.",
        default_players=2,
        verbs=(Verb("play", "Play a card", (Arg("card", "The card to play, e.g. AH, 10S"),)),),
    )

    @classmethod
    def new(
        cls, players: int, options: dict[str, Any], seed: int, deck: list[str] | None = None
    ) -> TrinketGame:
        game = cls({"players": players, "options": dict(options), "seed": seed})
        if deck is not None:
            # The whole deck, each card once (the first ``TRICKS`` cards to seat 0, and so on).
            indexes = [DECK.index(c) if c in DECK else -1 for c in deck]
            check_stacked_deck(indexes, range(len(DECK)), cls.spec.title, DECK)
            cards = list(deck)
        else:
            cards = list(DECK)
            game.rng().shuffle(cards)
        game.state.update(
            hands=[sorted(cards[TRICKS * s : TRICKS * s + TRICKS]) for s in range(players)],
            trick=[],
            turn=0,
            scores=[0] * players,
            tricks=0,
        )
        return game

    def to_act(self) -> list[int]:
        return [] if self.is_over() else [self.state["turn"]]

    def legal_actions(self, seat: int) -> list[str]:
        if seat not in self.to_act():
            return []
        cards = playable(self.state["hands"][seat], self.state["trick"])
        return [f"play {c.lower()}" for c in cards]

    def _refusal(self, seat: int, action: str) -> IllegalAction:
        hand, legal = self.state["hands"][seat], self.legal_actions(seat)
        cards = [a.split(" ")[1].upper() for a in legal]
        words = action.split(" ")
        if len(words) != 2 or words[0] != "play":
            return IllegalAction("trinket.play_how", example=cards[0])
        card = words[1].upper()
        if card not in hand:
            return IllegalAction("trinket.not_held", card=card, cards=cards)
        return IllegalAction("trinket.follow_suit", suit=cards[0][-1], cards=cards)

    def _apply(self, seat: int, action: str) -> list[Event]:
        if action not in self.legal_actions(seat):
            raise self._refusal(seat, action)
        st = self.state
        card = action.split(" ")[1].upper()
        st["hands"][seat].remove(card)
        st["trick"].append({"seat": seat, "card": card})
        events: list[Event] = [{"type": "play", "seat": seat, "card": card}]
        if len(st["trick"]) < self.players:
            st["turn"] = (seat + 1) % self.players
            return events
        winner = trick_winner(st["trick"])
        st["scores"][winner] += 1
        st["tricks"] += 1
        events.append({"type": "trick", "seat": winner, "cards": [p["card"] for p in st["trick"]]})
        st["trick"], st["turn"] = [], winner
        if self.is_over():
            events.append({"type": "hand_over", "hand_number": 1, "scores": list(st["scores"])})
            events.append({"type": "game_over", **self.result()})
        return events

    def view(self, seat: int | None) -> TrinketView:
        st = self.state
        view: TrinketView = {
            "game": self.name,
            "players": self.players,
            "seat": seat,
            "phase": "over" if self.is_over() else "play",
            "dealer": 0,
            "to_act": self.to_act(),
            "trick": [{"seat": p["seat"], "card": p["card"]} for p in st["trick"]],
            "scores": list(st["scores"]),
            "tricks": st["tricks"],
            "hand_sizes": [len(h) for h in st["hands"]],
            "hand_number": 1,
        }
        if seat is not None:
            view["hand"] = list(st["hands"][seat])
        return view

    def is_over(self) -> bool:
        return bool(self.state["tricks"] == TRICKS)

    def result(self) -> dict[str, Any]:
        scores = self.state["scores"]
        best = max(scores)
        winners = [s for s, v in enumerate(scores) if v == best] if self.is_over() else []
        return {"scores": list(scores), "winners": winners}
