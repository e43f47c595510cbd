"""The Troika state machine: deal, auction, trumps, kitty, eight tricks, scoring, next deal.

Interpretations of the rules are listed in the package docstring (``engine/troika/__init__.py``).
Speed matters (the bench plays thousands of deals a second, against OpenSpiel's Oh Hell): cards
are ints, per-card facts come from the tables in ``cards.py``, and the state is mutated in place
only after an action has been fully validated. Beside the state (never in it) the game keeps
each hand as bits and one listing, for the seat it awaits: a tuple looked up in
``listing.py``'s tables (plays by suit, kitty discards, the auction per kind of options), made
by the move that hands the turn on, since every driver asks for it next. ``apply`` plays a
listed card itself: on this path a Python call costs as much as the move.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Any

from engine.cards import parse_suit
from engine.errors import IllegalAction
from engine.game import Event, Game, check_stacked_deck, shuffle
from engine.troika import bids as B
from engine.troika.cards import (
    CODES,
    DISCARD_ACTION,
    FIVE_HEARTS,
    HONOUR,
    PLAY_ACTION,
    POINTS,
    RANK,
    SUIT,
    SUIT_INDEX,
    SUITS,
    THREE_SPADES,
    card_of,
    codes,
    deck_for,
)
from engine.troika.listing import (
    BIT,
    FOLLOW,
    HELD,
    HONOURS,
    SHIFT,
    Auction,
    auction_for,
    discard_listing,
    hand_of,
    mask_of,
    play_listing,
)
from engine.troika.scoring import points_winner, rounds_winner, score_hand
from engine.troika.spec import SPEC
from engine.troika.summary import summary
from engine.troika.tricks import KEYS, SEATS, playable
from engine.troika.views import TroikaView, build_view

HAND_SIZE = 8
TRICKS = 8
TRUMP_ACTIONS = ("trump s", "trump h", "trump d", "trump c")
_PLAY_LOOKUP = {action: card for card, action in enumerate(PLAY_ACTION)}
_DISCARD_LOOKUP = {action: card for card, action in enumerate(DISCARD_ACTION)}
_NEXT_SEAT = (1, 2, 3, 0)
#: ``TroikaGame._lseat`` when nothing is listed: no seat a caller passes is this object.
_NOBODY = object()
#: ``_PLAY_EVENT[seat][card]``: the ``play`` event, copied (a fresh dict each move, cheaper
#: than building it).
_PLAY_EVENT: tuple[tuple[Event, ...], ...] = tuple(
    tuple({"type": "play", "seat": seat, "card": code} for code in CODES) for seat in range(SEATS)
)


def misdeal_hand(hand: list[int]) -> bool:
    """No ace, no K/Q/J, neither 5H nor 3S: the holder may throw the hand in."""
    return not any(map(HONOUR.__getitem__, hand))


class TroikaGame(Game):
    spec = SPEC

    def __init__(self, state: dict[str, Any]) -> None:
        super().__init__(state)
        # Kept beside the state like the legal cache (``to_json`` and ``==`` do not see them):
        # each seat's hand as bits, which the listings (``engine.troika.listing``) are looked up
        # by. ``_masks`` stand for the hands of ``state["hands"]`` while ``_hands`` is that very
        # list (a deal makes a new one); the kitty exchange, which changes a hand in place,
        # drops them. ``_auction``: the table's auction listings, by its options.
        self._hands: list[list[int]] | None = None
        self._masks = [0] * SEATS
        self._auction: Auction | None = None
        # The legal cache of ``Game``, for the one seat a Troika state awaits: ``_listed`` is
        # the listing of seat ``_lseat`` (``_NOBODY``: nothing listed), emptied by every move.
        # Asked with ``seat is self._lseat``: seats are small ints, one object each, and an
        # equal seat that is not that object (or True for 1) takes the plain path, which
        # answers the same.
        self._lseat: object = _NOBODY
        self._listed: tuple[str, ...] = ()

    def state_changed(self) -> None:
        super().state_changed()
        self._hands = None
        self._auction = None
        self._lseat = _NOBODY

    def _hand_masks(self) -> list[int]:
        """Each seat's hand as bits (made again if the hands are not the ones they were made
        from)."""
        hands = self.state["hands"]
        if self._hands is not hands:
            self._hands = hands
            self._masks = [mask_of(hand) for hand in hands]
        return self._masks

    def _auction_listings(self) -> Auction:
        auction = self._auction = auction_for(self.state["options"])
        return auction

    # -- construction ---------------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        players: int,
        options: dict[str, Any],
        seed: int,
        deck: list[str] | None = None,
    ) -> TroikaGame:
        full = deck_for(bool(options["kitty"]))
        stacked = None
        if deck is not None:
            cards = [card_of(str(code).strip().lower(), full) for code in deck]
            stacked = check_stacked_deck(cards, full, "Troika", CODES)
        target = int(options["target"])
        game = cls(
            {
                "players": players,
                "options": dict(options),
                "seed": seed,
                "rng_counter": 0,
                "phase": "bidding",
                "dealer": 0,
                "turn": None,
                "hands_played": 0,
                "scores": [0, 0],
                "target": target,
                "cut_off": options["max_non_bid"],
                "increased": False,
                "winner_team": None,
                "dealer_draw": [],
            }
        )
        dealer = options["first_dealer"]
        if dealer is None:
            dealer = game._first_jack(full)
        game._deal(int(dealer), stacked)
        return game

    def _first_jack(self, full: tuple[int, ...]) -> int:
        """Deal face up from a shuffled deck, left of a random seat, until a Jack shows."""
        rng = self.rng()
        cards = list(full)
        shuffle(rng, cards)
        seat = rng.randrange(SEATS)
        draw = self.state["dealer_draw"]
        for card in cards:
            seat = (seat + 1) % SEATS
            draw.append([seat, CODES[card]])
            if RANK[card] == "J":
                return seat
        raise AssertionError("the deck has four Jacks")  # pragma: no cover

    def _deal(self, dealer: int, order: list[int] | None = None) -> Event:
        """Deal a hand one card at a time from the player after the dealer; rest to the kitty."""
        st = self.state
        if order is None:
            order = list(deck_for(bool(st["options"]["kitty"])))
            shuffle(self.rng(), order)
        hands: list[list[int]] = [[], [], [], []]
        masks = self._masks
        dealt = SEATS * HAND_SIZE
        for j in range(SEATS):
            mask = 0
            for card in order[j:dealt:SEATS]:
                mask |= BIT[card]
            seat = (dealer + 1 + j) % SEATS
            masks[seat] = mask
            hands[seat] = hand_of(mask)  # sorted for display, by its bits: no sort
        self._hands = hands
        # One store a key (not ``st.update(**...)``, which builds a dict of them first).
        st["phase"] = "bidding"
        st["dealer"] = dealer
        st["turn"] = _NEXT_SEAT[dealer]
        st["hands"] = hands
        st["kitty"] = order[dealt:]
        st["kitty_taken"] = []
        st["discards"] = []
        st["bids"] = []
        st["passed"] = [False, False, False, False]
        st["high"] = B.PASS
        st["high_seat"] = None
        st["declarer"] = None
        st["contract"] = None
        st["trump"] = None
        st["low"] = False
        st["trick"] = []
        st["leader"] = None
        st["last_trick"] = None
        st["played_tricks"] = []
        st["won"] = [[], []]
        st["tricks"] = [0, 0]
        st["points"] = [0, 0]
        hand_number = st["hands_played"] + 1
        # The first bidder's listing, made here (every driver asks for it next).
        self._listed = self._bidding_actions(st["turn"])
        self._lseat = st["turn"]
        return {"type": "deal", "seat": dealer, "dealer": dealer, "hand_number": hand_number}

    # -- queries --------------------------------------------------------------------------------
    def to_act(self) -> list[int]:
        turn = self.state["turn"]
        return [] if turn is None else [turn]

    def is_over(self) -> bool:
        return self.state["phase"] == "over"

    def result(self) -> dict[str, Any]:
        st = self.state
        scores = st["scores"]
        team = st["winner_team"]
        return {
            "scores": [scores[0], scores[1], scores[0], scores[1]],
            "team_scores": list(scores),
            "teams": [[0, 2], [1, 3]],
            "winners": [] if team is None else [team, team + 2],
            "hands": st["hands_played"],
        }

    def legal_actions(self, seat: int) -> list[str]:
        # ``Game.legal_actions`` with the cache of the awaited seat only (see ``__init__``) and
        # the listing a tuple looked up, never built: the same answer.
        if seat is self._lseat:
            return [*self._listed]  # a display, not a call of list(): a tenth cheaper
        return [*self.cached_legal_actions(seat)]

    def cached_legal_actions(self, seat: int) -> tuple[str, ...]:
        if seat is self._lseat:
            return self._listed
        legal = self._listing(seat)
        turn = self.state["turn"]
        if legal and type(seat) is int and seat == turn:  # 1.0 == 1 and True == 1 would alias
            self._lseat, self._listed = turn, legal
        return legal

    def _legal_actions(self, seat: int) -> list[str]:
        return list(self._listing(seat))

    def _listing(self, seat: int) -> tuple[str, ...]:
        """``seat``'s legal actions now, a tuple that is never changed (often a shared one)."""
        st = self.state
        if seat != st["turn"]:
            return ()
        phase = st["phase"]
        if phase == "play":
            trick = st["trick"]
            return play_listing(self._hand_masks()[seat], SUIT[trick[0]] if trick else None)
        if phase == "bidding":
            return self._bidding_actions(seat)
        if phase == "trump":
            return TRUMP_ACTIONS
        if phase == "kitty":
            return discard_listing(self._hand_masks()[seat])
        return ()

    def _bidding_actions(self, seat: int) -> tuple[str, ...]:
        # _must_bid, _may_misdeal and _may_equal by the table's ``Auction``: the auction lists
        # at every bid.
        st = self.state
        auction = self._auction or self._auction_listings()
        high = st["high"]
        dealer = seat == st["dealer"]
        may_misdeal = (
            auction.misdeal
            and not (self._masks if self._hands is st["hands"] else self._hand_masks())[seat]
            & HONOURS
            and not any(entry[0] == seat for entry in st["bids"])
        )
        # ``Auction.listing``, its lookup inlined.
        if dealer and high != B.PASS:
            key = (high + 1) * 8 + 1 + 2 * may_misdeal + 4 * auction.single
        else:
            key = (high + 1) * 8 + (not (dealer and auction.stick_dealer)) + 2 * may_misdeal
        return auction.listings.get(key) or auction.listing(key)

    def _must_bid(self, seat: int) -> bool:
        """Stick the dealer: everyone else passed and nobody bid."""
        st = self.state
        return st["high"] == B.PASS and seat == st["dealer"] and bool(st["options"]["stick_dealer"])

    def _may_equal(self, seat: int) -> bool:
        """The dealer's privilege in a single auction: equal the high bid to take it."""
        st = self.state
        return (
            seat == st["dealer"] and st["options"]["auction"] == "single" and st["high"] != B.PASS
        )

    def _may_misdeal(self, seat: int) -> bool:
        st = self.state
        return (
            bool(st["options"]["misdeal"])
            and misdeal_hand(st["hands"][seat])
            and not any(entry[0] == seat for entry in st["bids"])
        )

    # -- actions --------------------------------------------------------------------------------
    def apply(self, seat: int, action: str) -> list[Event]:
        # ``Game.apply`` for the awaited seat's listed moves: nothing is left to check. A
        # listed play (32 of a deal's ~37 moves) is played right here: a Python call costs
        # as much as the move itself.
        if seat is self._lseat and action in self._listed:
            self._lseat = _NOBODY  # each path below lists the next seat's moves, or leaves it
            card = _PLAY_LOOKUP.get(action)
            if card is None:  # a bid, pass, trump, discard or misdeal
                return self._apply_legal(seat, action)
            # A held card that follows suit, by the seat awaited.
            st = self.state
            hands = st["hands"]
            hands[seat].remove(card)
            if hands is self._hands:
                masks = self._masks
                masks[seat] ^= BIT[card]
            else:
                masks = self._hand_masks()  # from the hands as they are now: the card is out
            trick = st["trick"]
            trick.append(card)
            events = [_PLAY_EVENT[seat][card].copy()]
            played = len(trick)
            if played < SEATS:
                led = SUIT[trick[0]]
                if (
                    played == 1
                    and st["trump"] is None
                    and st["options"]["trump_lead"]
                    and st["contract"] & 3 < B.NO
                ):
                    # trump_lead: the declarer's first lead fixes trumps.
                    st["trump"] = led
                    events.insert(0, {"type": "trump", "seat": seat, "suit": SUITS[led]})
                nxt = st["turn"] = _NEXT_SEAT[seat]
                # The next seat's listing (``play_listing`` inlined): it follows suit if it can.
                mask = masks[nxt]
                self._listed = FOLLOW[led][mask >> SHIFT[led] & HELD[led]] or (
                    FOLLOW[0][mask & 511]
                    + FOLLOW[1][mask >> 9 & 511]
                    + FOLLOW[3][mask >> 26 & 255]
                    + FOLLOW[2][mask >> 18 & 255]
                )
                self._lseat = nxt
                return events
            # The trick is full: its winner takes it (``trick_winner`` and ``trick_points``
            # inlined, the winner by four table lookups).
            leader = st["leader"]
            trump = st["trump"]
            a, b, c, d = trick
            keys = KEYS[4 if trump is None else trump][st["low"]][SUIT[a]]
            best, index = keys[a], 0
            if keys[b] > best:
                best, index = keys[b], 1
            if keys[c] > best:
                best, index = keys[c], 2
            if keys[d] > best:
                index = 3
            winner = (leader + index) % SEATS
            team = winner & 1
            value = 1 + POINTS[a] + POINTS[b] + POINTS[c] + POINTS[d]
            st["won"][team].extend(trick)
            tricks = st["tricks"]
            tricks[team] += 1
            st["points"][team] += value
            # The last trick is the record just added to the played ones (the same JSON
            # twice: nothing changes a finished trick).
            record = st["last_trick"] = {"leader": leader, "cards": trick, "winner": winner}
            try:
                st["played_tricks"].append(record)
            except KeyError:  # a state saved before the key existed
                st["played_tricks"] = [record]
            st["trick"] = []
            st["leader"] = st["turn"] = winner
            events.append(
                {
                    "type": "trick",
                    "seat": winner,
                    "cards": [CODES[a], CODES[b], CODES[c], CODES[d]],
                    "points": value,
                }
            )
            if tricks[0] + tricks[1] == TRICKS:
                return self._score(events)
            # The winner's lead, listed here (``play_listing`` inlined).
            mask = masks[winner]
            self._listed = (
                FOLLOW[0][mask & 511]
                + FOLLOW[1][mask >> 9 & 511]
                + FOLLOW[3][mask >> 26 & 255]
                + FOLLOW[2][mask >> 18 & 255]
            )
            self._lseat = winner
            return events
        # Game.apply checks all (a refusal changes nothing; the listing is made again).
        self._lseat = _NOBODY
        return Game.apply(self, seat, action)

    def _play_listed(self, seat: int, card: int) -> list[Event]:
        """``seat`` plays ``card``, known to be held and to follow suit: ``apply``'s listed
        play, for the paths that checked it themselves."""
        action = PLAY_ACTION[card]
        self._lseat, self._listed = seat, (action,)
        return self.apply(seat, action)

    def _apply_legal(self, seat: int, action: str) -> list[Event]:
        # A listed bid (listed only in the auction) is allowed and high enough; a listed pass
        # is allowed (the dealer is not stuck). ``apply`` plays listed cards itself.
        bid = B.BID_OF_ACTION.get(action)
        if bid is not None:
            return self._bid(seat, bid)
        if action == "pass":
            return self._pass(seat)
        card = _DISCARD_LOOKUP.get(action)
        if card is not None:  # a listed discard: _discard's checks are cheap
            return self._discard(seat, card)
        card = _PLAY_LOOKUP.get(action)
        if card is not None:
            return self._play_listed(seat, card)
        return self._apply(seat, action)

    def _apply(self, seat: int, action: str) -> list[Event]:
        phase = self.state["phase"]
        if phase == "play":
            card = _PLAY_LOOKUP.get(action)
            if card is None:
                card = self._card_argument(seat, action, "play")
            return self._play(seat, card)
        if phase == "bidding":
            return self._bidding(seat, action)
        if phase == "trump":
            return self._name_trump(seat, action)
        if phase == "kitty":
            card = _DISCARD_LOOKUP.get(action)
            if card is None:
                card = self._card_argument(seat, action, "discard")
            return self._discard(seat, card)
        raise IllegalAction("game.over")  # pragma: no cover - apply checks is_over

    def _card_argument(self, seat: int, action: str, verb: str) -> int:
        words = action.split(" ")
        if words[0] != verb or len(words) < 2:
            raise self._expected(seat)
        return card_of("".join(words[1:]), deck_for(bool(self.state["options"]["kitty"])))

    def _may(self, seat: int) -> dict[str, Any]:
        """The params listing what ``seat`` may do: the first 12 actions, and how many more."""
        legal = self.legal_actions(seat)
        return {"actions": legal[:12], "more": max(0, len(legal) - 12)}

    def _expected(self, seat: int) -> IllegalAction:
        """What ``seat`` must do now and may type (the answer to an action that is not one).

        Not asked while trumps are named: that phase has its own refusal."""
        phase = self.state["phase"]
        if phase == "play":
            return IllegalAction("troika.now_play", **self._may(seat))
        if phase == "bidding":
            return IllegalAction("troika.now_bid", **self._may(seat))
        return IllegalAction("troika.now_kitty", **self._may(seat))

    # bidding ---------------------------------------------------------------------------------
    def _bidding(self, seat: int, action: str) -> list[Event]:
        st = self.state
        words = action.split(" ")
        verb = words[0]
        if verb == "pass":
            if len(words) > 1:
                raise IllegalAction("troika.just_pass")
            if self._must_bid(seat):
                lowest = B.text(B.all_bids(st["options"])[0])
                raise IllegalAction("troika.dealer_must_bid", lowest=lowest)
            return self._pass(seat)
        if verb == "bid":
            bid = B.parse(words[1:], st["options"])
            high = st["high"]
            if bid < high or (bid == high and not self._may_equal(seat)):
                raise self._too_low(seat, bid)
            return self._bid(seat, bid)
        if verb == "misdeal":
            if len(words) > 1:  # "misdeal" alone: extra words are a typing mistake
                raise self._expected(seat)
            if not self._may_misdeal(seat):
                raise self._no_misdeal(seat)
            shown = codes(st["hands"][seat])
            events = [{"type": "misdeal", "seat": seat, "cards": shown}]
            events.append(self._deal(st["dealer"]))
            return events
        raise self._expected(seat)

    def _pass(self, seat: int) -> list[Event]:
        """``seat`` passes, known to be allowed to."""
        st = self.state
        st["bids"].append([seat, B.PASS])
        st["passed"][seat] = True
        return self._next_bidder(seat, [{"type": "pass", "seat": seat}])

    def _bid(self, seat: int, bid: int) -> list[Event]:
        """``seat`` bids ``bid``, known to be allowed and high enough."""
        st = self.state
        st["bids"].append([seat, bid])
        st["high"] = bid
        st["high_seat"] = seat
        return self._next_bidder(seat, [{"type": "bid", "seat": seat, "bid": B.TEXT[bid]}])

    def _too_low(self, seat: int, bid: int) -> IllegalAction:
        st = self.state
        said = {"bid": B.text(bid), "high": B.text(st["high"])}
        equal = self._may_equal(seat)
        bids = B.all_bids(st["options"])
        index = bisect_left(bids, st["high"]) if equal else bisect_right(bids, st["high"])
        if index >= len(bids):
            key = "troika.bid_below_top" if equal else "troika.bid_too_low_top"
            return IllegalAction(key, **said)
        key = "troika.bid_below" if equal else "troika.bid_too_low"
        return IllegalAction(key, next=B.text(bids[index]), **said)

    def _no_misdeal(self, seat: int) -> IllegalAction:
        st = self.state
        if not st["options"]["misdeal"]:
            return IllegalAction("troika.misdeal_off")
        if not misdeal_hand(st["hands"][seat]):
            return IllegalAction("troika.misdeal_hand")
        return IllegalAction("troika.misdeal_late")

    def _next_bidder(self, seat: int, events: list[Event]) -> list[Event]:
        st = self.state
        if (self._auction or self._auction_listings()).single:
            if seat == st["dealer"]:
                return self._end_auction(events)
            nxt = st["turn"] = _NEXT_SEAT[seat]
        else:
            # The next seat (this one last) still in and not the high bidder; none: the end.
            passed = st["passed"]
            high_seat = st["high_seat"]
            nxt = _NEXT_SEAT[seat]
            while passed[nxt] or nxt == high_seat:
                if nxt == seat:
                    return self._end_auction(events)
                nxt = _NEXT_SEAT[nxt]
            st["turn"] = nxt
        # The next bidder's listing, made here (every driver asks for it next).
        self._listed = self._bidding_actions(nxt)
        self._lseat = nxt
        return events

    def _end_auction(self, events: list[Event]) -> list[Event]:
        st = self.state
        high = st["high"]
        if high == B.PASS:  # everyone passed and the dealer is not stuck
            events.append({"type": "thrown_in", "seat": st["dealer"], "reason": "all passed"})
            events.append(self._deal((st["dealer"] + 1) % SEATS))
            return events
        declarer = st["high_seat"]
        st["declarer"] = declarer
        st["contract"] = high
        # B.text, number_of, kind_of, is_low and is_no_trump inlined (bids are ints).
        low = st["low"] = high & 1 == 1
        text = B.TEXT[high]
        events.append(
            {
                "type": "contract",
                "seat": declarer,
                "contract": text,
                "bid": text,
                "number": high >> 2,
                "kind": B.KIND_NAMES[high & 3],
                "low": low,
            }
        )
        st["turn"] = declarer
        if high & 3 < B.NO and not st["options"]["trump_lead"]:
            st["phase"] = "trump"
            return events
        return self._after_trump(events)

    def _after_trump(self, events: list[Event]) -> list[Event]:
        """Take the kitty (if played), else start the play with the declarer's lead."""
        st = self.state
        declarer = st["declarer"]
        if st["options"]["kitty"]:
            kitty = st["kitty"]
            masks = self._hand_masks()
            mask = masks[declarer]
            for card in kitty:
                mask |= BIT[card]
            masks[declarer] = mask
            # The same list, the kitty in, sorted for display by its bits (the masks stand).
            st["hands"][declarer][:] = hand_of(mask)
            self._listed = discard_listing(mask)  # made here: every driver asks for it next
            self._lseat = declarer
            st["kitty_taken"] = kitty
            st["kitty"] = []
            st["phase"] = "kitty"
            events.append({"type": "kitty", "seat": declarer, "count": len(kitty)})
            taken = codes(kitty)
            events.append(
                {"type": "kitty_cards", "seat": declarer, "cards": taken, "private_to": declarer}
            )
            return events
        return self._start_play(events)

    def _start_play(self, events: list[Event]) -> list[Event]:
        st = self.state
        st["phase"] = "play"
        st["leader"] = st["declarer"]
        st["turn"] = st["declarer"]
        return events

    # trumps and kitty ------------------------------------------------------------------------
    def _name_trump(self, seat: int, action: str) -> list[Event]:
        verb, _, rest = action.partition(" ")
        if verb != "trump" or not rest:
            raise IllegalAction("troika.name_trumps")
        suit = SUIT_INDEX[parse_suit(rest)]
        self.state["trump"] = suit
        events: list[Event] = [{"type": "trump", "seat": seat, "suit": SUITS[suit]}]
        return self._after_trump(events)

    def _discard(self, seat: int, card: int) -> list[Event]:
        st = self.state
        hand = st["hands"][seat]
        if card not in hand:
            raise IllegalAction("troika.not_held_kitty", card=CODES[card], **self._may(seat))
        if card in (FIVE_HEARTS, THREE_SPADES):
            raise IllegalAction("troika.kitty_keeps_5h_3s", card=CODES[card], **self._may(seat))
        masks = self._hand_masks()
        hand.remove(card)
        masks[seat] ^= BIT[card]
        st["discards"].append(card)
        left = 2 - len(st["discards"])
        events: list[Event] = [
            {"type": "discard", "seat": seat, "card": CODES[card], "private_to": seat},
            {"type": "discarded", "seat": seat, "count": len(st["discards"]), "left": left},
        ]
        if left == 0:
            return self._start_play(events)
        self._listed = discard_listing(masks[seat])  # made here: every driver asks for it next
        self._lseat = seat
        return events

    # play ------------------------------------------------------------------------------------
    def _play(self, seat: int, card: int) -> list[Event]:
        st = self.state
        hand = st["hands"][seat]
        if card not in hand:
            raise IllegalAction("troika.not_held_play", card=CODES[card], **self._may(seat))
        trick = st["trick"]
        allowed = playable(hand, trick)
        if card not in allowed:
            raise IllegalAction(
                "trick.follow_suit", suit=SUITS[SUIT[trick[0]]], cards=codes(allowed)
            )
        return self._play_listed(seat, card)

    # scoring ---------------------------------------------------------------------------------
    def _score(self, events: list[Event]) -> list[Event]:
        st = self.state
        options = st["options"]
        declarer = st["declarer"]
        contract = st["contract"]
        team = declarer & 1
        scores = st["scores"]
        outcome = score_hand(
            declarer_team=team,
            bid_number=contract >> 2,  # B.number_of and B.is_no_trump inlined
            no_trump=contract & 3 >= B.NO,
            points=st["points"],
            scores=scores,
            target=st["target"],
            cut_off=st["cut_off"],
            increased=st["increased"],
            options=options,
        )
        scores[0] += outcome.changes[0]
        scores[1] += outcome.changes[1]
        st["hands_played"] += 1
        if outcome.raised:
            st["increased"] = True
            st["target"] = outcome.target
            st["cut_off"] = outcome.cut_off
            events.append(
                {"type": "target_raised", "target": outcome.target, "cut_off": outcome.cut_off}
            )
        events.append(
            {
                "type": "hand_over",
                "hand_number": st["hands_played"],
                "seat": declarer,
                "declarer_team": team,
                "bid": B.TEXT[contract],
                "made": outcome.made,
                "hand_points": list(st["points"]),
                "tricks": list(st["tricks"]),
                "changes": list(outcome.changes),
                "scores": list(scores),
                "target": st["target"],
                "cut_off": st["cut_off"],
                "raised": outcome.raised,
            }
        )
        over = events[-1]  # its row on the score sheet (``view["history"]``), lists copied
        st.setdefault("history", []).append(
            {
                "hand_number": over["hand_number"],
                "seat": declarer,
                "bid": over["bid"],
                "made": over["made"],
                "hand_points": list(over["hand_points"]),
                "changes": list(over["changes"]),
                "scores": list(over["scores"]),
            }
        )
        if options["end"] == "points":
            winner = points_winner(team, scores, st["target"])
        else:
            winner = rounds_winner(scores, st["hands_played"], options["rounds"])
        if winner is None:
            events.append(self._deal((st["dealer"] + 1) % SEATS))
            return events
        st["phase"] = "over"
        st["turn"] = None
        st["winner_team"] = winner
        events.append(
            {
                "type": "game_over",
                "scores": [scores[0], scores[1], scores[0], scores[1]],
                "team_scores": list(scores),
                "winners": [winner, winner + 2],
            }
        )
        return events

    # views -----------------------------------------------------------------------------------
    def view(self, seat: int | None) -> TroikaView:
        return build_view(self, seat)

    @classmethod
    def rules_summary(cls, options: dict[str, Any] | None = None) -> str:
        return summary(options)
