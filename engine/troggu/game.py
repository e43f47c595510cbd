"""Troggu (Swiss Tarot, 3-8 players): the game as a state machine.

Rules: docs/rules/troggu.md. Seats are numbered in the direction of play (anticlockwise
at the table), so "the next seat" is ``seat + 1``. Phases of a deal: ``bidding`` -> (``discard``
-> ``call`` at 7-8 players) -> ``play``; the game ends in phase ``over``.

Choices where the rules are silent (what players expect):
- The Tapp is seen only by the Tappist (it goes into his hand); his discards stay hidden from
  everyone else. A Solo Tapp and a Misère Tapp are seen by no one.
- Holding the Fool back is not announced: the other seats see only the card played. The Fool is
  shown when it is played to the last trick.
- The card the Fool's holder gives in exchange is chosen automatically: the lowest card-point
  value in his pile, preferring a card played in a trick over a discard or Tapp card, then the
  lowest card; the event names its value, not the card (it may be a hidden discard).
- The partner called at 7-8 players is known to the Tappist only when the called card is
  played; a Tappist who holds or discarded the called card knows he is alone, the others learn
  it when he plays the card (or at the end of the deal). ``call none`` is public.
- Misère: the Tapp stays aside and counts for nobody; card points per seat plus the Tapp's
  make 114.
- ``deals`` "auto" = one deal per player. ``first_dealer`` None = drawn from the seed.
"""

from __future__ import annotations

from typing import Any

from engine.errors import IllegalAction
from engine.game import Event, Game, check_stacked_deck, shuffle
from engine.troggu import scoring, tricks
from engine.troggu.cards import (
    CALL_ACTION,
    CALLABLE,
    CODES,
    DECK,
    DISCARD_ACTION,
    FOOL,
    KINGS,
    LOWER,
    NEVER_DISCARD,
    PLAY_ACTION,
    POINTS,
    T1,
    codes,
    lower_codes,
    parse_card,
)
from engine.troggu.spec import DEAL_SIZES, PARTNER_PLAYERS, SPEC, deals_for
from engine.troggu.summary import summary
from engine.troggu.views import TrogguView, build_view

BIDS = ("pass", "tapp", "solo")
_CARD_OF_PLAY = {action: card for card, action in enumerate(PLAY_ACTION)}


class TrogguGame(Game):
    spec = SPEC

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        players: int,
        options: dict[str, Any],
        seed: int,
        deck: list[str] | None = None,
    ) -> TrogguGame:
        first = options.get("first_dealer")
        if first is not None and not 0 <= first < players:
            raise IllegalAction("troggu.first_dealer", last=players - 1, players=players)
        order = None
        if deck is not None:
            cards = [parse_card(code) for code in deck]
            order = check_stacked_deck(cards, DECK, "Troggu", CODES)
        state: dict[str, Any] = {
            "players": players,
            "options": dict(options),
            "seed": seed,
            "rng_counter": 0,
            "deals": deals_for(options, players),
            "hand_number": 0,
            "scores": [0] * players,
            "last_hand": None,
            "phase": "bidding",
        }
        game = cls(state)
        if first is None:
            first = game.rng().randrange(players)
        game._deal(first, order)
        return game

    @classmethod
    def rules_summary(cls, options: dict[str, Any] | None = None) -> str:
        return summary(options if options is not None else SPEC.defaults())

    def _deal(self, dealer: int, order: list[int] | None = None) -> Event:
        """Deal one card at a time from the player after the dealer; the rest is the Tapp."""
        st, n = self.state, self.players
        if order is None:
            order = list(DECK)
            shuffle(self.rng(), order)
        size, _ = DEAL_SIZES[n]
        hands: list[list[int]] = [[] for _ in range(n)]
        for i in range(n * size):
            hands[(dealer + 1 + i) % n].append(order[i])
        st.update(
            {
                "phase": "bidding",
                "dealer": dealer,
                "hand_number": st["hand_number"] + 1,
                "hands": [sorted(h) for h in hands],
                "tapp": order[n * size :],
                "piles": [[] for _ in range(n)],
                "tricks_won": [0] * n,
                "bids": [None] * n,
                "turn": (dealer + 1) % n,
                "contract": None,
                "declarer": None,
                "forced": False,
                "taken_tapp": [],
                "discards": [],
                "kings_discardable": False,
                "called": None,
                "partner": None,
                "partner_revealed": False,
                "trick": [],
                "trick_number": 1,
                "last_trick": None,
                "played": [],
                "played_tricks": [],
                "fool_held": None,
            }
        )
        return {"type": "deal", "dealer": dealer, "hand_number": st["hand_number"]}

    # -- the API ------------------------------------------------------------------------------
    def to_act(self) -> list[int]:
        st = self.state
        phase = st["phase"]
        if phase == "over":
            return []
        if phase in ("discard", "call"):
            return [st["declarer"]]
        return [st["turn"]]

    def is_over(self) -> bool:
        return self.state["phase"] == "over"

    def _legal_actions(self, seat: int) -> list[str]:
        if seat not in self.to_act():
            return []
        st = self.state
        phase = st["phase"]
        if phase == "play":
            return [PLAY_ACTION[c] for c in self._playable(seat)]
        if phase == "bidding":
            return ["pass", "solo"] if st["declarer"] is not None else list(BIDS)
        if phase == "discard":
            return [DISCARD_ACTION[c] for c in self._discardable()]
        return ["call none", *(CALL_ACTION[c] for c in CALLABLE)]

    def _apply_legal(self, seat: int, action: str) -> list[Event]:
        card = _CARD_OF_PLAY.get(action)  # a listed play is a playable card, in the play phase
        if card is not None:
            return self._play_card(seat, card)
        return self._apply(seat, action)

    def _apply(self, seat: int, action: str) -> list[Event]:
        phase = self.state["phase"]
        verb, _, rest = action.partition(" ")
        if phase == "bidding":
            return self._bid(seat, action)
        if phase == "play":
            return self._play(seat, self._card_argument("play", verb, rest, self._playable(seat)))
        if phase == "discard":
            card = self._card_argument("discard", verb, rest, self._discardable())
            return self._discard(seat, card)
        return self._call(seat, verb, rest)

    def _card_argument(self, expected: str, verb: str, rest: str, allowed: list[int]) -> int:
        if verb != expected or not rest:
            key = "troggu.now_play" if expected == "play" else "troggu.now_discard"
            raise IllegalAction(key, example=LOWER[allowed[0]], cards=lower_codes(allowed))
        return parse_card(rest)

    # -- bidding ------------------------------------------------------------------------------
    def _bid(self, seat: int, action: str) -> list[Event]:
        st, n = self.state, self.players
        allowed = self.legal_actions(seat)
        if action not in allowed:
            key = "troggu.bid_after_tapp" if action == "tapp" else "troggu.bid_choices"
            raise IllegalAction(key, bids=allowed)
        st["bids"][seat] = action
        events: list[Event] = [{"type": "bid", "seat": seat, "bid": action}]
        if action == "solo":
            st["declarer"] = seat
            return events + self._start_contract("solo", seat)
        if action == "tapp":
            st["declarer"] = seat
        st["turn"] = (seat + 1) % n
        if st["turn"] != (st["dealer"] + 1) % n:
            return events
        if st["declarer"] is not None:
            return events + self._start_contract("tapp", st["declarer"])
        return events + self._all_passed()

    def _all_passed(self) -> list[Event]:
        st = self.state
        if self.players >= PARTNER_PLAYERS:
            for card, reason in ((FOOL, "fool"), (T1, "t1")):
                holder = self._holder(card)
                if holder is not None:
                    st["forced"] = True
                    st["declarer"] = holder
                    forced: Event = {"type": "forced_tapp", "seat": holder, "reason": reason}
                    return [forced, *self._start_contract("tapp", holder)]
        return self._start_contract("misere", None)

    def _holder(self, card: int) -> int | None:
        for seat, hand in enumerate(self.state["hands"]):
            if card in hand:
                return seat
        return None

    def _start_contract(self, contract: str, declarer: int | None) -> list[Event]:
        st = self.state
        st["contract"] = contract
        st["declarer"] = declarer
        event: Event = {"type": "contract", "contract": contract, "seat": declarer}
        event["forced"] = st["forced"]
        events = [event]
        if contract == "misere":
            self._start_play((st["dealer"] + 1) % self.players)
            return events
        assert declarer is not None
        tapp = st["tapp"]
        st["tapp"] = []
        st["taken_tapp"] = sorted(tapp)
        if contract == "solo":
            st["piles"][declarer].extend(tapp)
            events.append({"type": "tapp_to_pile", "seat": declarer, "count": len(tapp)})
            self._start_play(declarer)
            return events
        hand = sorted(st["hands"][declarer] + tapp)
        st["hands"][declarer] = hand
        st["kings_discardable"] = all(k in hand for k in KINGS)
        st["phase"] = "discard"
        events.append({"type": "take_tapp", "seat": declarer, "count": len(tapp)})
        events.append(
            {
                "type": "tapp_cards",
                "seat": declarer,
                "cards": codes(sorted(tapp)),
                "private_to": declarer,
            }
        )
        return events

    # -- Tapp: discards and the partner call --------------------------------------------------
    def _discardable(self) -> list[int]:
        st = self.state
        hand = st["hands"][st["declarer"]]
        kings_ok = st["kings_discardable"]
        return [
            c
            for c in hand
            if c not in NEVER_DISCARD and (POINTS[c] < 5 or (kings_ok and c in KINGS))
        ]

    def _discard(self, seat: int, card: int) -> list[Event]:
        st = self.state
        hand = st["hands"][seat]
        allowed = self._discardable()
        if card not in hand:
            raise IllegalAction(
                "troggu.discard_not_held", card=LOWER[card], cards=lower_codes(allowed)
            )
        if card not in allowed:
            key = "troggu.discard_kept" if st["kings_discardable"] else "troggu.discard_kept_kings"
            raise IllegalAction(key, card=LOWER[card], cards=lower_codes(allowed))
        hand.remove(card)
        st["piles"][seat].append(card)
        st["discards"].append(card)
        left = len(st["taken_tapp"]) - len(st["discards"])
        events: list[Event] = [
            {"type": "discard", "seat": seat, "left": left},
            {"type": "discard_card", "seat": seat, "card": CODES[card], "private_to": seat},
        ]
        if left == 0:
            if self.players >= PARTNER_PLAYERS:
                st["phase"] = "call"
            else:
                self._start_play(seat)
        return events

    def _call(self, seat: int, verb: str, rest: str) -> list[Event]:
        st = self.state
        if verb != "call" or not rest:
            raise IllegalAction("troggu.call_how")
        if rest == "none":
            card = None
        else:
            card = parse_card(rest)
            if card not in CALLABLE:
                raise IllegalAction("troggu.not_callable", card=LOWER[card])
        st["called"] = card
        events: list[Event] = [
            {"type": "call", "seat": seat, "card": None if card is None else CODES[card]}
        ]
        partner = None if card is None else self._holder(card)
        if partner == seat:
            partner = None
        st["partner"] = partner
        if partner is not None:
            events.append({"type": "partner", "seat": partner, "private_to": partner})
        elif card is not None:
            # He holds or discarded the called card: he knows he is alone, nobody else does.
            events.append({"type": "alone", "seat": seat, "private_to": seat})
        self._start_play(seat)
        return events

    # -- play ---------------------------------------------------------------------------------
    def _start_play(self, leader: int) -> None:
        st = self.state
        st["phase"] = "play"
        st["turn"] = leader

    def _playable(self, seat: int) -> list[int]:
        st = self.state
        return tricks.playable(st["hands"][seat], st["trick"], st["fool_held"] == seat)

    def _play(self, seat: int, card: int) -> list[Event]:
        st = self.state
        hand = st["hands"][seat]
        allowed = self._playable(seat)
        if card not in allowed:
            held = st["fool_held"] == seat
            raise tricks.refusal(hand, st["trick"], card, allowed, held)
        return self._play_card(seat, card)

    def _play_card(self, seat: int, card: int) -> list[Event]:
        """Play ``card``, known to be playable by ``seat``: the state changes."""
        st, n = self.state, self.players
        hand = st["hands"][seat]
        events: list[Event] = []
        if tricks.is_hold_back(hand, st["trick"], card, st["fool_held"]):
            st["fool_held"] = seat
            events.append({"type": "fool_held", "seat": seat, "private_to": seat})
        hand.remove(card)
        st["trick"].append([seat, card])
        play: Event = {"type": "play", "seat": seat, "card": CODES[card]}
        events.insert(0, play)
        if card == st["called"] and not st["partner_revealed"]:
            st["partner_revealed"] = True
            tappist = st["declarer"]
            partner = None if seat == tappist else seat
            events.append({"type": "partner_revealed", "seat": partner, "tappist": tappist})
        if len(st["trick"]) < n:
            st["turn"] = (seat + 1) % n
            return events
        return events + self._finish_trick()

    def _finish_trick(self) -> list[Event]:
        st = self.state
        trick, held = st["trick"], st["fool_held"]
        win = tricks.winner(trick, held)
        cards = [card for _, card in trick]
        last = not st["hands"][win]
        events: list[Event] = []
        exchange: Event | None = None
        if held is not None and [held, FOOL] in trick:
            cards.remove(FOOL)
            exchange = self._fool_exchange(held, win)
        st["piles"][win].extend(cards)
        st["tricks_won"][win] += 1
        events.append(
            {
                "type": "trick",
                "seat": win,
                "trick_number": st["trick_number"],
                "cards": [{"seat": s, "card": CODES[c]} for s, c in trick],
                "points": sum(POINTS[c] for c in cards),
            }
        )
        if exchange is not None:
            events.append(exchange)
        st["last_trick"] = {"cards": [list(pair) for pair in trick], "winner": win}
        st["played"].extend(c for _, c in trick)
        st.setdefault("played_tricks", []).append(dict(st["last_trick"]))
        st["trick"] = []
        if last:
            return events + self._score_deal()
        st["trick_number"] += 1
        st["turn"] = win
        return events

    def _fool_exchange(self, holder: int, win: int) -> Event:
        """The held Fool goes to its holder's pile; he gives the winner his lowest card."""
        st = self.state
        pile = st["piles"][holder]
        # Discards and a Solo Tapp were never seen: give those last among equal values.
        hidden = set(st["discards"])
        if st["contract"] == "solo" and holder == st["declarer"]:
            hidden.update(st["taken_tapp"])
        given = None
        if pile:
            given = min(pile, key=lambda c: (POINTS[c], c in hidden, c))
            pile.remove(given)
            st["piles"][win].append(given)
        pile.append(FOOL)
        return {
            "type": "fool_exchange",
            "seat": holder,
            "to": win,
            "points": None if given is None else POINTS[given],
        }

    # -- scoring ------------------------------------------------------------------------------
    def _score_deal(self) -> list[Event]:
        st, n = self.state, self.players
        points = [scoring.card_points(p) for p in st["piles"]]
        contract, declarer, partner = st["contract"], st["declarer"], st["partner"]
        side_points = others_points = multiple = None
        if contract == "misere":
            payments = scoring.misere_payments(points)
        else:
            side = [declarer] if partner is None else [declarer, partner]
            side_points = sum(points[s] for s in side)
            others_points = sum(points) - side_points
            side_tricks = sum(st["tricks_won"][s] for s in side)
            multiple = scoring.multiplier(side_points, side_tricks, st["trick_number"])
            payments = scoring.contract_payments(n, contract, declarer, partner, multiple)
        for seat in range(n):
            st["scores"][seat] += payments[seat]
        called = st["called"]
        details: dict[str, Any] = {
            "hand_number": st["hand_number"],
            "dealer": st["dealer"],
            "contract": contract,
            "declarer": declarer,
            "forced": st["forced"],
            "called": None if called is None else CODES[called],
            "partner": partner,
            "card_points": points,
            "tapp_points": scoring.card_points(st["tapp"]),
            "contract_points": side_points,
            "others_points": others_points,
            "tricks": list(st["tricks_won"]),
            "multiple": multiple,
            "payments": payments,
            "scores": list(st["scores"]),
        }
        st["last_hand"] = details
        st.setdefault("history", []).append(dict(details))  # the score sheet (``/score``)
        events: list[Event] = [{"type": "hand_over", **details}]
        if st["hand_number"] >= st["deals"]:
            st["phase"] = "over"
            events.append(
                {"type": "game_over", "scores": list(st["scores"]), "winners": self._winners()}
            )
            return events
        events.append(self._deal((st["dealer"] + 1) % n))
        return events

    def _winners(self) -> list[int]:
        scores = self.state["scores"]
        top = max(scores)
        return [s for s, v in enumerate(scores) if v == top]

    def result(self) -> dict[str, Any]:
        st = self.state
        return {
            "scores": list(st["scores"]),
            "winners": self._winners() if self.is_over() else [],
            "deals": st["hand_number"] if self.is_over() else st["hand_number"] - 1,
            "last_hand": st["last_hand"],
        }

    # -- views --------------------------------------------------------------------------------
    def view(self, seat: int | None) -> TrogguView:
        return build_view(self, seat)
