"""The Troeven state machine: naming trumps, playing tricks, drawing, scoring, dealing again.

State (JSON-native; cards are the ints of ``engine.troeven.cards``):

- ``phase``: ``"trump"`` (the non-dealer names trumps), ``"play"`` or ``"over"``;
  ``turn`` the seat to act; ``dealer``; ``hand_number`` (1 = first deal); ``scores``.
- ``trump`` (suit index 0-3 S H D C, or None before it is named); ``leader`` of the current
  trick; ``trick`` (cards in play order, leader first); ``last_trick``; ``played_tricks`` (every
  finished trick of the deal, shaped like ``last_trick``); ``tricks_played``;
  ``tricks_won`` and ``hand_points`` per seat; ``won`` (the cards each seat took this deal).
- layout version: ``up`` and ``down``, per seat 8 positions holding a card or -1.
  stock version: ``hands`` per seat and ``stock`` (next card to draw first).
- ``undealt``: cards not yet put down because trumps are not named yet (see ``deal``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from engine.cards import parse_suit
from engine.errors import IllegalAction
from engine.game import Event, Game, check_stacked_deck, shuffle
from engine.options import GameSpec
from engine.troeven.cards import (
    ALL_CARDS,
    CARD_OF_PLAY_ACTION,
    CODE,
    NO_CARD,
    PLAY_ACTION,
    POINTS,
    SUIT_INDEX,
    SUIT_LETTER,
    SUIT_NAME,
    TRUMP_ACTIONS,
    card_of,
    code_or_none,
    codes,
)
from engine.troeven.deal import complete_deal, deal_before_trump
from engine.troeven.spec import SPEC
from engine.troeven.summary import summary
from engine.troeven.tricks import legal_cards, refusal, trick_winner
from engine.troeven.views import TroevenView, build_view

START_SCORE = 7
TRICKS_PER_DEAL = 16


class TroevenGame(Game):
    spec: ClassVar[GameSpec] = SPEC

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        players: int,
        options: dict[str, Any],
        seed: int,
        deck: list[str] | None = None,
    ) -> TroevenGame:
        if players != 2:
            raise IllegalAction("players.exact", game=SPEC.title, count=2, players=players)
        stacked = None
        if deck is not None:
            cards = [card_of(code) for code in deck]
            stacked = check_stacked_deck(cards, ALL_CARDS, "Troeven", CODE)
        game = cls(
            {
                "players": 2,
                "options": {**cls.spec.defaults(), **options},
                "seed": seed,
                "rng_counter": 0,
                "scores": [START_SCORE, START_SCORE],
                "hand_number": 0,
                "dealer": 0,
                "last_hand": None,
                "winners": [],
            }
        )
        first = options.get("first_dealer")
        game.state["dealer"] = game.rng().randrange(2) if first is None else int(first)
        game._start_deal(stacked)
        return game

    @classmethod
    def rules_summary(cls, options: Mapping[str, Any] | None = None) -> str:
        return summary(cls.spec.defaults() if options is None else options)

    # -- queries ------------------------------------------------------------------------------
    def to_act(self) -> list[int]:
        if self.state["phase"] == "over":
            return []
        return [self.state["turn"]]

    def is_over(self) -> bool:
        return self.state["phase"] == "over"

    def result(self) -> dict[str, Any]:
        return {
            "scores": list(self.state["scores"]),
            "winners": list(self.state["winners"]),
            "hands_played": self.state["hand_number"] - (0 if self.is_over() else 1),
        }

    def playable(self, seat: int) -> list[int]:
        """The cards ``seat`` could play if there were no obligation (hand, or face-up cards)."""
        if "up" in self.state:
            return [c for c in self.state["up"][seat] if c >= 0]
        return self.state["hands"][seat]

    def _legal_cards(self, seat: int) -> list[int]:
        state = self.state
        cards = self.playable(seat)
        trick = state["trick"]
        if not trick:
            return cards
        strict = state["options"]["strict_follow"]
        if "up" in state:
            return legal_cards(cards, trick[0], state["trump"], strict, False)
        if state["stock"]:
            return cards  # no obligation at all while the stock lasts
        return legal_cards(cards, trick[0], state["trump"], strict, True)

    def _legal_actions(self, seat: int) -> list[str]:
        state = self.state
        if state["phase"] == "over" or seat != state["turn"]:
            return []
        if state["phase"] == "trump":
            return list(TRUMP_ACTIONS)
        return [PLAY_ACTION[c] for c in sorted(self._legal_cards(seat))]

    # -- actions ------------------------------------------------------------------------------
    def _apply_legal(self, seat: int, action: str) -> list[Event]:
        card = CARD_OF_PLAY_ACTION.get(action)  # a listed play is one of the legal cards
        if card is not None:
            return self._play_card(seat, card)
        return self._apply(seat, action)

    def _apply(self, seat: int, action: str) -> list[Event]:
        if self.state["phase"] == "trump":
            return self._name_trump(seat, action)
        card = CARD_OF_PLAY_ACTION.get(action)
        if card is None:
            card = self._parse_play(action)
        return self._play(seat, card)

    def _parse_play(self, action: str) -> int:
        verb, _, rest = action.partition(" ")
        if verb == "play" and rest:
            return card_of(rest)
        if verb == "trump":
            raise IllegalAction(
                "troeven.trumps_named",
                trump=SUIT_LETTER[self.state["trump"]],
                example=self.legal_actions(self.state["turn"])[0],
            )
        legal = [CODE[c] for c in sorted(self._legal_cards(self.state["turn"]))]
        raise IllegalAction("troeven.play_how", cards=legal)

    def _name_trump(self, seat: int, action: str) -> list[Event]:
        verb, _, rest = action.partition(" ")
        if verb != "trump" or not rest:
            raise IllegalAction("troeven.name_trumps_first")
        suit = SUIT_INDEX[parse_suit(rest)]
        state = self.state
        state["trump"] = suit
        new = complete_deal(state)
        state["phase"] = "play"
        state["turn"] = state["leader"] = seat
        events: list[Event] = [
            {"type": "trump", "seat": seat, "suit": SUIT_LETTER[suit], "name": SUIT_NAME[suit]}
        ]
        if "up" in state:
            events.append(
                {
                    "type": "deal_complete",
                    "face_up": [[code_or_none(c) for c in state["up"][s]] for s in (0, 1)],
                }
            )
        else:
            events.append({"type": "deal_complete", "stock_size": len(state["stock"])})
            for s in (0, 1):
                events.append({"type": "cards", "seat": s, "cards": codes(new[s]), "private_to": s})
        return events

    def _play(self, seat: int, card: int) -> list[Event]:
        if card not in self._legal_cards(seat):
            raise self._why_not(seat, card)
        return self._play_card(seat, card)

    def _play_card(self, seat: int, card: int) -> list[Event]:
        """Play ``card``, known to be one of ``seat``'s legal cards: the state changes."""
        state = self.state
        layout = "up" in state
        trick = state["trick"]
        events: list[Event] = []
        if layout:
            up, down = state["up"][seat], state["down"][seat]
            position = up.index(card)
            under = down[position]
            up[position] = under
            down[position] = NO_CARD
            events.append(
                {"type": "play", "seat": seat, "card": CODE[card], "position": position + 1}
            )
            if under >= 0:
                events.append(
                    {"type": "turn_up", "seat": seat, "position": position + 1, "card": CODE[under]}
                )
        else:
            state["hands"][seat].remove(card)
            events.append({"type": "play", "seat": seat, "card": CODE[card]})
        trick.append(card)
        if len(trick) == 1:
            state["turn"] = 1 - seat
            return events
        return events + self._finish_trick()

    def _why_not(self, seat: int, card: int) -> IllegalAction:
        """The refusal of ``card`` (not among the legal cards of ``seat``)."""
        state = self.state
        layout = "up" in state
        cards = self.playable(seat)
        if card not in cards:
            key = "troeven.not_face_up" if layout else "troeven.not_held"
            choices = [CODE[c] for c in sorted(self._legal_cards(seat))]
            return IllegalAction(key, card=CODE[card], cards=choices)
        trump_if_void = not layout and not state["stock"]
        strict = state["options"]["strict_follow"]
        return refusal(cards, state["trick"][0], state["trump"], strict, trump_if_void, layout)

    def _finish_trick(self) -> list[Event]:
        state = self.state
        trick = state["trick"]
        leader = state["leader"]
        winner = trick_winner(trick, leader, state["trump"])
        points = POINTS[trick[0]] + POINTS[trick[1]]
        state["won"][winner].extend(trick)
        state["hand_points"][winner] += points
        state["tricks_won"][winner] += 1
        state["tricks_played"] += 1
        state["last_trick"] = {"leader": leader, "cards": trick, "winner": winner}
        played = state.get("played_tricks")
        if played is None:  # a state saved before the key existed
            played = state["played_tricks"] = []
        played.append({"leader": leader, "cards": list(trick), "winner": winner})
        state["trick"] = []
        state["turn"] = state["leader"] = winner
        events: list[Event] = [
            {
                "type": "trick",
                "seat": winner,
                "winner": winner,
                "cards": [CODE[c] for c in trick],
                "leader": leader,
                "points": points,
            }
        ]
        stock = state.get("stock")
        if stock:
            for seat in (winner, 1 - winner):
                drawn = stock.pop(0)
                state["hands"][seat].append(drawn)
                events.append(
                    {"type": "draw", "seat": seat, "card": CODE[drawn], "private_to": seat}
                )
                events.append({"type": "draw", "seat": seat, "stock_size": len(stock)})
        if state["tricks_played"] == TRICKS_PER_DEAL:
            events += self._score_deal()
        return events

    def _score_deal(self) -> list[Event]:
        state = self.state
        points = state["hand_points"]
        dealer = state["dealer"]
        caller = 1 - dealer
        changes = [0, 0]
        winner: int | None = None
        if points[0] != points[1]:
            winner = 0 if points[0] > points[1] else 1
            changes[winner] -= 1
            if winner == dealer:
                changes[caller] += 1
        scores = state["scores"]
        scores[0] += changes[0]
        scores[1] += changes[1]
        details = {
            "hand_number": state["hand_number"],
            "dealer": dealer,
            "caller": caller,
            "trump": SUIT_LETTER[state["trump"]],
            "points": list(points),
            "tricks": list(state["tricks_won"]),
            "winner": winner,
            "changes": changes,
            "scores": list(scores),
        }
        state["last_hand"] = details
        state.setdefault("history", []).append(dict(details))  # the score sheet
        events: list[Event] = [{"type": "hand_over", "seat": winner, **details}]
        if winner is not None and scores[winner] <= 0:
            state["phase"] = "over"
            state["winners"] = [winner]
            events.append({"type": "game_over", "scores": list(scores), "winners": [winner]})
            return events
        state["dealer"] = caller
        events += self._start_deal(None)
        return events

    def _start_deal(self, deck: list[int] | None) -> list[Event]:
        """Deal (a shuffle from the seed unless ``deck`` is stacked); trumps are to be named."""
        state = self.state
        if deck is None:
            deck = list(ALL_CARDS)
            shuffle(self.rng(), deck)
        dealer = state["dealer"]
        caller = 1 - dealer
        version = state["options"]["version"]
        state.pop("up", None)
        state.pop("down", None)
        state.pop("hands", None)
        state.pop("stock", None)
        state.update(deal_before_trump(deck, dealer, version))
        state["hand_number"] += 1
        state["phase"] = "trump"
        state["turn"] = state["leader"] = caller
        state["trump"] = None
        state["trick"] = []
        state["last_trick"] = None
        state["played_tricks"] = []
        state["tricks_played"] = 0
        state["tricks_won"] = [0, 0]
        state["hand_points"] = [0, 0]
        state["won"] = [[], []]
        event: Event = {
            "type": "deal",
            "seat": dealer,
            "dealer": dealer,
            "caller": caller,
            "hand_number": state["hand_number"],
        }
        if version == "layout":
            event["face_up"] = [CODE[c] for c in state["up"][caller] if c >= 0]
            return [event]
        private = {
            "type": "cards",
            "seat": caller,
            "cards": codes(state["hands"][caller]),
            "private_to": caller,
        }
        return [event, private]

    # -- views --------------------------------------------------------------------------------
    def view(self, seat: int | None) -> TroevenView:
        return build_view(self, seat)
