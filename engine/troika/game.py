"""The Troika state machine: deal, auction, trumps, kitty, eight tricks, scoring, next deal.

Interpretations of the rules are listed in the package docstring (``engine/troika/__init__.py``).
Speed matters (the bench plays thousands of deals a second, against OpenSpiel's Oh Hell): cards
are ints, per-card facts come from the tables in ``cards.py``, and the game is changed only
after an action has been fully validated.

The live state is plain attributes (``__slots__``), one per key of the JSON state, each hand as
bits (``masks``): a move reads and writes attributes, not a dict's keys, and moves no card
between lists. The JSON state (``state``, ``to_json``) is built from them when asked; a state
handed out by ``state`` is read back by the next move or view (``Game``'s contract: a state
edited in place counts). Beside it the game keeps one listing, for the seat it awaits: a tuple
looked up in ``listing.py``'s tables (plays by suit, kitty discards, the auction per kind of
options), made by the move that hands the turn on, since every driver asks for it next.
``apply`` plays a listed card itself: on this path a Python call costs as much as the move.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from operator import itemgetter
from random import Random
from typing import Any

from engine.cards import parse_suit
from engine.errors import IllegalAction
from engine.game import (
    Event,
    Game,
    check_stacked_deck,
    reseed,
    seeded_rng,
    shuffle,
    snapshot_json,
)
from engine.troika import bids as B
from engine.troika.cards import (
    CODES,
    DISCARD_ACTION,
    FIVE_HEARTS,
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
    FOLLOW_C,
    FOLLOW_D,
    FOLLOW_H,
    FOLLOW_S,
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
_TRUMP_SUIT = {action: suit for suit, action in enumerate(TRUMP_ACTIONS)}
_PLAY_LOOKUP = {action: card for card, action in enumerate(PLAY_ACTION)}
_DISCARD_LOOKUP = {action: card for card, action in enumerate(DISCARD_ACTION)}
#: Every action a listing may hold, and its card if it is a play (else None): ``apply`` looks a
#: listed action up here.
_LISTED_CARD: dict[str, int | None] = {
    **dict.fromkeys(B.BID_OF_ACTION),
    **dict.fromkeys(("pass", "misdeal", *TRUMP_ACTIONS, *DISCARD_ACTION)),
    **_PLAY_LOOKUP,
}
_NEXT_SEAT = (1, 2, 3, 0)
#: ``_DEALT_FROM[first][seat]``: where seat ``seat``'s cards start in a deal's order (one card
#: in four, from the seat ``first``, after the dealer).
_DEALT_FROM = tuple(tuple((seat - first) % 4 for seat in range(4)) for first in range(4))
_BIDDER = itemgetter(0)  # the seat of a ``bids`` entry
#: The decks' cards as bits (``_deal`` shuffles these).
_DECK_BITS_32 = tuple(BIT[card] for card in deck_for(False))
_DECK_BITS_34 = tuple(BIT[card] for card in deck_for(True))
#: ``KEYS`` by the trump suit as the state holds it (None: no trumps).
_KEYS_OF_TRUMP = {None: KEYS[4], 0: KEYS[0], 1: KEYS[1], 2: KEYS[2], 3: KEYS[3]}
#: ``TroikaGame._lseat`` when nothing is listed: no seat a caller passes is this object.
_NOBODY = object()
#: ``_PLAY_EVENT[seat][card]``: the ``play`` event, copied (a fresh dict each move, cheaper
#: than building it).
_PLAY_EVENT: tuple[tuple[Event, ...], ...] = tuple(
    tuple({"type": "play", "seat": seat, "card": code} for code in CODES) for seat in range(SEATS)
)

#: The JSON state's keys, each an attribute of the game of the same name (``hands`` are kept
#: as ``masks``). ``played_tricks`` (a state saved before it existed) and ``history`` (until a
#: hand is scored) may be missing: their attributes are then None.
_KEYS = (
    "players",
    "options",
    "seed",
    "rng_counter",
    "phase",
    "dealer",
    "turn",
    "hands_played",
    "scores",
    "target",
    "cut_off",
    "increased",
    "winner_team",
    "dealer_draw",
    "kitty",
    "kitty_taken",
    "discards",
    "bids",
    "passed",
    "high",
    "high_seat",
    "declarer",
    "contract",
    "trump",
    "low",
    "trick",
    "leader",
    "last_trick",
    "played_tricks",
    "won",
    "tricks",
    "points",
    "history",
)
_KNOWN = frozenset((*_KEYS, "hands"))


class TroikaGame(Game):
    spec = SPEC

    __slots__ = (
        *_KEYS,
        "masks",
        "_extra",
        "_won_from",
        "_snapshot",
        "_auction",
        "_lseat",
        "_listed",
        "_shuffler",
    )

    players: int
    options: dict[str, Any]
    seed: int
    rng_counter: int
    phase: str
    dealer: int
    turn: int | None
    hands_played: int
    scores: list[int]
    target: int
    cut_off: int | str
    increased: bool
    winner_team: int | None
    dealer_draw: list[list[Any]]
    kitty: list[int]
    kitty_taken: list[int]
    discards: list[int]
    bids: list[list[int]]
    passed: list[bool]
    high: int
    high_seat: int | None
    declarer: int | None
    contract: int | None
    trump: int | None
    low: bool
    trick: list[int]
    leader: int | None
    last_trick: dict[str, Any] | None
    played_tricks: list[dict[str, Any]] | None
    won: list[list[int]]
    tricks: list[int]
    points: list[int]
    history: list[dict[str, Any]] | None
    #: Each seat's hand as bits (``listing.BIT``); ``hand_of`` gives it in display order.
    masks: list[int]

    def __init__(self, state: dict[str, Any]) -> None:
        # ``_auction``: the table's auction listings, by its options. ``_lseat``, ``_listed``:
        # the legal cache of ``Game``, for the one seat a Troika state awaits: ``_listed`` is the
        # listing of seat ``_lseat`` (``_NOBODY``: nothing listed), emptied by every move. Asked
        # with ``seat is self._lseat``: seats are small ints, one object each, and an equal seat
        # that is not that object (or True for 1) takes the plain path, which answers the same.
        self._auction: Auction | None = None
        self._lseat: object = _NOBODY
        self._listed: tuple[str, ...] = ()
        # ``_shuffler``: the deals' generator, seeded again for each (``_deal``).
        self._shuffler: Random | None = None
        super().__init__(state)  # sets ``state``: its setter reads the attributes from it

    # -- the state as JSON data -----------------------------------------------------------------
    @property  # type: ignore[override]
    def state(self) -> dict[str, Any]:
        """The JSON state, built from the attributes (then kept until the next move or view,
        which read it back: a state edited in place counts, as ``Game`` says)."""
        snapshot = self._snapshot
        if snapshot is None:
            snapshot = self._snapshot = self._state_dict()
        # Nothing listed: the next move or listing reads the state back first (``_sync``).
        self._lseat = _NOBODY
        return snapshot

    @state.setter
    def state(self, state: dict[str, Any]) -> None:
        self._read(state)
        self._snapshot = state

    def _state_dict(self) -> dict[str, Any]:
        """The attributes as the JSON state (lists shared with them, not copied): a literal,
        one build, not a key at a time (``to_json`` every few moves at the table service)."""
        state = {
            "players": self.players,
            "options": self.options,
            "seed": self.seed,
            "rng_counter": self.rng_counter,
            "phase": self.phase,
            "dealer": self.dealer,
            "turn": self.turn,
            "hands_played": self.hands_played,
            "scores": self.scores,
            "target": self.target,
            "cut_off": self.cut_off,
            "increased": self.increased,
            "winner_team": self.winner_team,
            "dealer_draw": self.dealer_draw,
            "kitty": self.kitty,
            "kitty_taken": self.kitty_taken,
            "discards": self.discards,
            "bids": self.bids,
            "passed": self.passed,
            "high": self.high,
            "high_seat": self.high_seat,
            "declarer": self.declarer,
            "contract": self.contract,
            "trump": self.trump,
            "low": self.low,
            "trick": self.trick,
            "leader": self.leader,
            "last_trick": self.last_trick,
            "won": self._won_now(),
            "tricks": self.tricks,
            "points": self.points,
            "hands": [hand_of(mask) for mask in self.masks],
        }
        if self.played_tricks is not None:
            state["played_tricks"] = self.played_tricks
        if self.history is not None:
            state["history"] = self.history
        if self._extra:
            state.update(self._extra)
        return state

    def _won_now(self) -> list[list[int]]:
        """``won``: the cards each team took this hand. A trick adds none to ``won`` (kept as read
        from the state, or empty since the deal): its cards are in its record, so the won cards
        are ``won`` and those of the records ``played_tricks[_won_from:]``, added here, when
        asked (the JSON state alone reads them)."""
        won = self.won
        played = self.played_tricks
        start = self._won_from
        if not played or len(played) == start:
            return won
        ours, theirs = list(won[0]), list(won[1])
        for record in played[start:]:
            (theirs if record["winner"] & 1 else ours).extend(record["cards"])
        return [ours, theirs]

    def _read(self, state: dict[str, Any]) -> None:
        """Take the attributes from a JSON state (``hands`` as masks), one store a key."""
        self.players = state["players"]
        self.options = state["options"]
        self.seed = state["seed"]
        self.rng_counter = state["rng_counter"]
        self.phase = state["phase"]
        self.dealer = state["dealer"]
        self.turn = state["turn"]
        self.hands_played = state["hands_played"]
        self.scores = state["scores"]
        self.target = state["target"]
        self.cut_off = state["cut_off"]
        self.increased = state["increased"]
        self.winner_team = state["winner_team"]
        self.dealer_draw = state["dealer_draw"]
        self.kitty = state["kitty"]
        self.kitty_taken = state["kitty_taken"]
        self.discards = state["discards"]
        self.bids = state["bids"]
        self.passed = state["passed"]
        self.high = state["high"]
        self.high_seat = state["high_seat"]
        self.declarer = state["declarer"]
        self.contract = state["contract"]
        self.trump = state["trump"]
        self.low = state["low"]
        self.trick = state["trick"]
        self.leader = state["leader"]
        self.last_trick = state["last_trick"]
        self.played_tricks = state.get("played_tricks")
        self.won = state["won"]
        self._won_from = len(self.played_tricks or ())
        self.tricks = state["tricks"]
        self.points = state["points"]
        self.history = state.get("history")
        self.masks = [mask_of(hand) for hand in state["hands"]]
        extra = None
        if len(state) > len(_KNOWN) - (self.played_tricks is None) - (self.history is None):
            extra = {key: value for key, value in state.items() if key not in _KNOWN}
        self._extra = extra
        self._auction = None
        self._lseat = _NOBODY

    def _sync(self) -> None:
        """Read back the JSON state handed out, which its holder may have edited in place."""
        snapshot = self._snapshot
        if snapshot is not None:
            self._snapshot = None
            self._legal = {}
            self._read(snapshot)

    def state_changed(self) -> None:
        super().state_changed()
        snapshot = self._snapshot
        if snapshot is not None:
            self._read(snapshot)
        self._auction = None
        self._lseat = _NOBODY

    def to_json(self) -> str:
        state = self._snapshot
        if state is None:
            state = self._state_dict()  # not kept: nobody else holds it
        return snapshot_json(self.spec.name, state)

    def rng(self) -> Random:
        """``Game.rng`` on the attribute ``rng_counter``."""
        counter = self.rng_counter
        self.rng_counter = counter + 1
        return seeded_rng(f"{self.seed}/{counter}")

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
        game = cls.__new__(cls)
        game._legal = {}
        game._auction = None
        game._lseat = _NOBODY
        game._listed = ()
        game._shuffler = None
        game._snapshot = None
        game._extra = None
        game.players = players
        game.options = dict(options)
        game.seed = seed
        game.rng_counter = 0
        game.hands_played = 0
        game.scores = [0, 0]
        game.target = int(options["target"])
        game.cut_off = options["max_non_bid"]
        game.increased = False
        game.winner_team = None
        game.dealer_draw = []
        game.history = None
        game.masks = [0, 0, 0, 0]
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
        self._shuffler = rng  # done with: the deals seed it again
        draw = self.dealer_draw
        for card in cards:
            seat = (seat + 1) % SEATS
            draw.append([seat, CODES[card]])
            if RANK[card] == "J":
                return seat
        raise AssertionError("the deck has four Jacks")  # pragma: no cover

    def _deal(self, dealer: int, order: list[int] | None = None) -> Event:
        """Deal a hand one card at a time from the player after the dealer; rest to the kitty."""
        # The deck is shuffled as its cards' bits (``listing.BIT``; the shuffle's draws do not
        # depend on what is shuffled): a seat's mask is then the sum of a slice (one card in
        # four, from the seat after the dealer; distinct bits, so their sum is their union),
        # with no lookup of the 32 cards' bits. The kitty's cards are told by their bits.
        if order is None:
            bits = list(_DECK_BITS_34 if self.options["kitty"] else _DECK_BITS_32)
            # ``rng()``, by the game's own generator seeded again (the same draws).
            counter = self.rng_counter
            self.rng_counter = counter + 1
            text = f"{self.seed}/{counter}"
            shuffler = self._shuffler
            if shuffler is None:
                shuffler = self._shuffler = seeded_rng(text)
            else:
                reseed(shuffler, text)
            shuffle(shuffler, bits)
        else:
            bits = [BIT[card] for card in order]
        dealt = SEATS * HAND_SIZE
        first = _NEXT_SEAT[dealer]
        a, b, c, d = _DEALT_FROM[first]
        self.masks = [
            sum(bits[a:dealt:4]),
            sum(bits[b:dealt:4]),
            sum(bits[c:dealt:4]),
            sum(bits[d:dealt:4]),
        ]
        self.kitty = [bit.bit_length() - 1 for bit in bits[dealt:]] if len(bits) > dealt else []
        self.phase = "bidding"
        self.dealer = dealer
        self.turn = first
        self.kitty_taken = []
        self.discards = []
        self.bids = []
        self.passed = [False, False, False, False]
        self.high = B.PASS
        self.high_seat = None
        self.declarer = None
        self.contract = None
        self.trump = None
        self.low = False
        self.trick = []
        self.leader = None
        self.last_trick = None
        self.played_tricks = []
        self.won = [[], []]
        self._won_from = 0
        self.tricks = [0, 0]
        self.points = [0, 0]
        # The first bidder's listing, made here (every driver asks for it next).
        self._listed = self._bidding_actions(first)
        self._lseat = first
        return {
            "type": "deal",
            "seat": dealer,
            "dealer": dealer,
            "hand_number": self.hands_played + 1,
        }

    # -- queries --------------------------------------------------------------------------------
    def to_act(self) -> list[int]:
        turn = self.turn
        return [] if turn is None else [turn]

    def is_over(self) -> bool:
        return self.phase == "over"

    def result(self) -> dict[str, Any]:
        scores = self.scores
        team = self.winner_team
        return {
            "scores": [scores[0], scores[1], scores[0], scores[1]],
            "team_scores": list(scores),
            "teams": [[0, 2], [1, 3]],
            "winners": [] if team is None else [team, team + 2],
            "hands": self.hands_played,
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
        self._sync()
        legal = self._listing(seat)
        turn = self.turn
        if legal and type(seat) is int and seat == turn:  # 1.0 == 1 and True == 1 would alias
            self._lseat, self._listed = turn, legal
        return legal

    def _legal_actions(self, seat: int) -> list[str]:
        self._sync()
        return list(self._listing(seat))

    def _listing(self, seat: int) -> tuple[str, ...]:
        """``seat``'s legal actions now, a tuple that is never changed (often a shared one)."""
        if seat != self.turn:
            return ()
        phase = self.phase
        if phase == "play":
            trick = self.trick
            return play_listing(self.masks[seat], SUIT[trick[0]] if trick else None)
        if phase == "bidding":
            return self._bidding_actions(seat)
        if phase == "trump":
            return TRUMP_ACTIONS
        if phase == "kitty":
            return discard_listing(self.masks[seat])
        return ()

    def _bidding_actions(self, seat: int) -> tuple[str, ...]:
        # _must_bid, _may_misdeal and _may_equal by the table's ``Auction``, whose tables list
        # every case (the auction lists at every bid).
        auction = self._auction or self._auction_listings()
        may_misdeal = (
            auction.misdeal
            and not self.masks[seat] & HONOURS
            and seat not in map(_BIDDER, self.bids)  # a bid's seat; in C, no generator
        )
        by_high = (auction.dealer if seat == self.dealer else auction.others)[may_misdeal]
        return by_high[self.high + 1]

    def _auction_listings(self) -> Auction:
        auction = self._auction = auction_for(self.options)
        return auction

    def _must_bid(self, seat: int) -> bool:
        """Stick the dealer: everyone else passed and nobody bid."""
        return self.high == B.PASS and seat == self.dealer and bool(self.options["stick_dealer"])

    def _may_equal(self, seat: int) -> bool:
        """The dealer's privilege in a single auction: equal the high bid to take it."""
        return seat == self.dealer and self.options["auction"] == "single" and self.high != B.PASS

    def _may_misdeal(self, seat: int) -> bool:
        return (
            bool(self.options["misdeal"])
            and not self.masks[seat] & HONOURS
            and seat not in map(_BIDDER, self.bids)  # a bid's seat; in C, no generator
        )

    # -- actions --------------------------------------------------------------------------------
    def apply(self, seat: int, action: str) -> list[Event]:
        # ``Game.apply`` for the awaited seat's listed moves: nothing is left to check (a state
        # handed out lists nothing: see ``state``). A listed play (32 of a deal's ~37 moves) is
        # played right here: a Python call costs as much as the move itself. Each branch's
        # first part is kept short: a jump over more than 255 code units takes an EXTENDED_ARG,
        # which also stops CPython 3.11 from specializing the comparison before it.
        if seat is not self._lseat or action not in self._listed:
            return self._apply_unlisted(seat, action)
        card = _LISTED_CARD[action]
        if card is None:  # a bid, pass, trump, discard or misdeal
            self._lseat = _NOBODY  # each path lists the next seat's moves, or leaves it
            bid = B.BID_OF_ACTION.get(action)
            if bid is not None:  # a listed bid: allowed and high enough (most of these)
                return self._bid(seat, bid)
            return self._apply_listed(seat, action)
        # A held card that follows suit, by the seat awaited.
        masks = self.masks
        masks[seat] ^= BIT[card]
        trick = self.trick
        played = len(trick)  # the cards before this one
        trick.append(card)
        events = [_PLAY_EVENT[seat][card].copy()]
        if played != 3:
            if played:
                led = SUIT[trick[0]]
            else:  # a lead
                led = SUIT[card]
                if self.trump is None and self.options["trump_lead"]:
                    self._lead_names_trumps(seat, led, events)
            nxt = self.turn = self._lseat = _NEXT_SEAT[seat]
            # The next seat's listing (``play_listing`` inlined): it follows suit if it can.
            mask = masks[nxt]
            self._listed = FOLLOW[led][mask >> SHIFT[led] & HELD[led]] or (
                FOLLOW_S[mask & 511]
                + FOLLOW_H[mask >> 9 & 511]
                + FOLLOW_C[mask >> 26 & 255]
                + FOLLOW_D[mask >> 18 & 255]
            )
            return events
        # The trick is full: its winner takes it (``trick_winner`` and ``trick_points``
        # inlined, the winner by four table lookups).
        leader = self.leader
        a, b, c, d = trick
        keys = _KEYS_OF_TRUMP[self.trump][self.low][SUIT[a]]
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
        tricks = self.tricks
        tricks[team] += 1
        self.points[team] += value
        # The last trick is the record just added to the played ones (the same JSON
        # twice: nothing changes a finished trick).
        record = self.last_trick = {"leader": leader, "cards": trick, "winner": winner}
        played_tricks = self.played_tricks
        if played_tricks is None:  # a state saved before the key existed
            self.played_tricks = [record]
        else:
            played_tricks.append(record)
        self.trick = []
        self.leader = self.turn = winner
        events.append(
            {
                "type": "trick",
                "seat": winner,
                "cards": [CODES[a], CODES[b], CODES[c], CODES[d]],
                "points": value,
            }
        )
        mask = masks[winner]
        if not mask:  # the hands are played out: the eighth trick
            self._lseat = _NOBODY  # the next deal lists its first bidder, if any
            return self._score(events)
        # The winner's lead, listed here (``play_listing`` inlined).
        self._listed = (
            FOLLOW_S[mask & 511]
            + FOLLOW_H[mask >> 9 & 511]
            + FOLLOW_C[mask >> 26 & 255]
            + FOLLOW_D[mask >> 18 & 255]
        )
        self._lseat = winner
        return events

    def _apply_unlisted(self, seat: int, action: str) -> list[Event]:
        """``apply`` of a move not listed for the awaited seat: ``Game.apply`` checks all (a
        refusal changes nothing; the listing is made again)."""
        self._sync()
        self._lseat = _NOBODY
        return Game.apply(self, seat, action)

    def _lead_names_trumps(self, seat: int, led: int, events: list[Event]) -> None:
        """A lead with no trumps named, with trump_lead: the declarer's first lead fixes them
        (not in a no-trump contract)."""
        if self.contract & 3 < B.NO:
            self.trump = led
            events.insert(0, {"type": "trump", "seat": seat, "suit": SUITS[led]})

    def _play_listed(self, seat: int, card: int) -> list[Event]:
        """``seat`` plays ``card``, known to be held and to follow suit: ``apply``'s listed
        play, for the paths that checked it themselves."""
        action = PLAY_ACTION[card]
        self._lseat, self._listed = seat, (action,)
        return self.apply(seat, action)

    def _apply_legal(self, seat: int, action: str) -> list[Event]:
        # A listed bid (listed only in the auction) is allowed and high enough. ``apply`` plays
        # listed cards itself, and looks bids up before ``_apply_listed``.
        bid = B.BID_OF_ACTION.get(action)
        if bid is not None:
            return self._bid(seat, bid)
        card = _PLAY_LOOKUP.get(action)
        if card is not None:
            return self._play_listed(seat, card)
        return self._apply_listed(seat, action)

    def _apply_listed(self, seat: int, action: str) -> list[Event]:
        """A listed move that is neither a bid nor a play: a pass (allowed: the dealer is not
        stuck), a discard, trumps named, or a misdeal."""
        if action == "pass":
            return self._pass(seat)
        card = _DISCARD_LOOKUP.get(action)
        if card is not None:  # a listed discard: _discard's checks are cheap
            return self._discard(seat, card)
        suit = _TRUMP_SUIT.get(action)
        if suit is not None:  # listed: the declarer names trumps
            self.trump = suit
            return self._after_trump([{"type": "trump", "seat": seat, "suit": SUITS[suit]}])
        return self._apply(seat, action)

    def _apply(self, seat: int, action: str) -> list[Event]:
        phase = self.phase
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
        return card_of("".join(words[1:]), deck_for(bool(self.options["kitty"])))

    def _may(self, seat: int) -> dict[str, Any]:
        """The params listing what ``seat`` may do: the first 12 actions, and how many more."""
        legal = self.legal_actions(seat)
        return {"actions": legal[:12], "more": max(0, len(legal) - 12)}

    def _expected(self, seat: int) -> IllegalAction:
        """What ``seat`` must do now and may type (the answer to an action that is not one).

        Not asked while trumps are named: that phase has its own refusal."""
        phase = self.phase
        if phase == "play":
            return IllegalAction("troika.now_play", **self._may(seat))
        if phase == "bidding":
            return IllegalAction("troika.now_bid", **self._may(seat))
        return IllegalAction("troika.now_kitty", **self._may(seat))

    # bidding ---------------------------------------------------------------------------------
    def _bidding(self, seat: int, action: str) -> list[Event]:
        words = action.split(" ")
        verb = words[0]
        if verb == "pass":
            if len(words) > 1:
                raise IllegalAction("troika.just_pass")
            if self._must_bid(seat):
                lowest = B.text(B.all_bids(self.options)[0])
                raise IllegalAction("troika.dealer_must_bid", lowest=lowest)
            return self._pass(seat)
        if verb == "bid":
            bid = B.parse(words[1:], self.options)
            high = self.high
            if bid < high or (bid == high and not self._may_equal(seat)):
                raise self._too_low(seat, bid)
            return self._bid(seat, bid)
        if verb == "misdeal":
            if len(words) > 1:  # "misdeal" alone: extra words are a typing mistake
                raise self._expected(seat)
            if not self._may_misdeal(seat):
                raise self._no_misdeal(seat)
            shown = codes(hand_of(self.masks[seat]))
            events = [{"type": "misdeal", "seat": seat, "cards": shown}]
            events.append(self._deal(self.dealer))
            return events
        raise self._expected(seat)

    def _pass(self, seat: int) -> list[Event]:
        """``seat`` passes, known to be allowed to."""
        self.bids.append([seat, B.PASS])
        self.passed[seat] = True
        return self._next_bidder(seat, [{"type": "pass", "seat": seat}])

    def _bid(self, seat: int, bid: int) -> list[Event]:
        """``seat`` bids ``bid``, known to be allowed and high enough."""
        self.bids.append([seat, bid])
        self.high = bid
        self.high_seat = seat
        return self._next_bidder(seat, [{"type": "bid", "seat": seat, "bid": B.TEXT[bid]}])

    def _too_low(self, seat: int, bid: int) -> IllegalAction:
        high = self.high
        said = {"bid": B.text(bid), "high": B.text(high)}
        equal = self._may_equal(seat)
        bids = B.all_bids(self.options)
        index = bisect_left(bids, high) if equal else bisect_right(bids, high)
        if index >= len(bids):
            key = "troika.bid_below_top" if equal else "troika.bid_too_low_top"
            return IllegalAction(key, **said)
        key = "troika.bid_below" if equal else "troika.bid_too_low"
        return IllegalAction(key, next=B.text(bids[index]), **said)

    def _no_misdeal(self, seat: int) -> IllegalAction:
        if not self.options["misdeal"]:
            return IllegalAction("troika.misdeal_off")
        if self.masks[seat] & HONOURS:
            return IllegalAction("troika.misdeal_hand")
        return IllegalAction("troika.misdeal_late")

    def _next_bidder(self, seat: int, events: list[Event]) -> list[Event]:
        if (self._auction or self._auction_listings()).single:
            if seat == self.dealer:
                return self._end_auction(events)
            nxt = self.turn = _NEXT_SEAT[seat]
        else:
            # The next seat (this one last) still in and not the high bidder; none: the end.
            passed = self.passed
            high_seat = self.high_seat
            nxt = _NEXT_SEAT[seat]
            while passed[nxt] or nxt == high_seat:
                if nxt == seat:
                    return self._end_auction(events)
                nxt = _NEXT_SEAT[nxt]
            self.turn = nxt
        # The next bidder's listing, made here (every driver asks for it next).
        self._listed = self._bidding_actions(nxt)
        self._lseat = nxt
        return events

    def _end_auction(self, events: list[Event]) -> list[Event]:
        high = self.high
        if high == B.PASS:  # everyone passed and the dealer is not stuck
            events.append({"type": "thrown_in", "seat": self.dealer, "reason": "all passed"})
            events.append(self._deal((self.dealer + 1) % SEATS))
            return events
        declarer = self.declarer = self.high_seat
        self.contract = high
        # B.text, number_of, kind_of, is_low and is_no_trump inlined (bids are ints).
        low = self.low = high & 1 == 1
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
        self.turn = declarer
        if high & 3 < B.NO and not self.options["trump_lead"]:
            self.phase = "trump"
            self._listed = TRUMP_ACTIONS  # made here: every driver asks for it next
            self._lseat = declarer
            return events
        return self._after_trump(events)

    def _after_trump(self, events: list[Event]) -> list[Event]:
        """Take the kitty (if played), else start the play with the declarer's lead."""
        declarer = self.declarer
        if self.options["kitty"]:
            kitty = self.kitty
            masks = self.masks
            mask = masks[declarer]
            for card in kitty:
                mask |= BIT[card]
            masks[declarer] = mask
            self._listed = discard_listing(mask)  # made here: every driver asks for it next
            self._lseat = declarer
            self.kitty_taken = kitty
            self.kitty = []
            self.phase = "kitty"
            events.append({"type": "kitty", "seat": declarer, "count": len(kitty)})
            taken = codes(kitty)
            events.append(
                {"type": "kitty_cards", "seat": declarer, "cards": taken, "private_to": declarer}
            )
            return events
        return self._start_play(events)

    def _start_play(self, events: list[Event]) -> list[Event]:
        self.phase = "play"
        declarer = self.leader = self.turn = self.declarer
        # The declarer's lead, listed here (every driver asks for it next).
        self._listed = play_listing(self.masks[declarer], None)
        self._lseat = declarer
        return events

    # trumps and kitty ------------------------------------------------------------------------
    def _name_trump(self, seat: int, action: str) -> list[Event]:
        verb, _, rest = action.partition(" ")
        if verb != "trump" or not rest:
            raise IllegalAction("troika.name_trumps")
        suit = SUIT_INDEX[parse_suit(rest)]
        self.trump = suit
        events: list[Event] = [{"type": "trump", "seat": seat, "suit": SUITS[suit]}]
        return self._after_trump(events)

    def _discard(self, seat: int, card: int) -> list[Event]:
        masks = self.masks
        if not masks[seat] & BIT[card]:
            raise IllegalAction("troika.not_held_kitty", card=CODES[card], **self._may(seat))
        if card in (FIVE_HEARTS, THREE_SPADES):
            raise IllegalAction("troika.kitty_keeps_5h_3s", card=CODES[card], **self._may(seat))
        masks[seat] ^= BIT[card]
        discards = self.discards
        discards.append(card)
        left = 2 - len(discards)
        events: list[Event] = [
            {"type": "discard", "seat": seat, "card": CODES[card], "private_to": seat},
            {"type": "discarded", "seat": seat, "count": len(discards), "left": left},
        ]
        if left == 0:
            return self._start_play(events)
        self._listed = discard_listing(masks[seat])  # made here: every driver asks for it next
        self._lseat = seat
        return events

    # play ------------------------------------------------------------------------------------
    def _play(self, seat: int, card: int) -> list[Event]:
        mask = self.masks[seat]
        if not mask & BIT[card]:
            raise IllegalAction("troika.not_held_play", card=CODES[card], **self._may(seat))
        trick = self.trick
        allowed = playable(hand_of(mask), trick)
        if card not in allowed:
            raise IllegalAction(
                "trick.follow_suit", suit=SUITS[SUIT[trick[0]]], cards=codes(allowed)
            )
        return self._play_listed(seat, card)

    # scoring ---------------------------------------------------------------------------------
    def _score(self, events: list[Event]) -> list[Event]:
        options = self.options
        declarer = self.declarer
        contract = self.contract
        team = declarer & 1
        scores = self.scores
        points = self.points
        made, (change0, change1), target, cut_off, raised = score_hand(
            team,
            contract >> 2,  # B.number_of and B.is_no_trump inlined
            contract & 3 >= B.NO,
            points,
            scores,
            self.target,
            self.cut_off,
            self.increased,
            options,
        )
        score0 = scores[0] = scores[0] + change0
        score1 = scores[1] = scores[1] + change1
        hands_played = self.hands_played = self.hands_played + 1
        if raised:
            self.increased = True
            self.target = target
            self.cut_off = cut_off
            events.append({"type": "target_raised", "target": target, "cut_off": cut_off})
        bid = B.TEXT[contract]
        # The event's lists and the score sheet's are each their own (list displays).
        events.append(
            {
                "type": "hand_over",
                "hand_number": hands_played,
                "seat": declarer,
                "declarer_team": team,
                "bid": bid,
                "made": made,
                "hand_points": [*points],
                "tricks": [*self.tricks],
                "changes": [change0, change1],
                "scores": [score0, score1],
                "target": target,
                "cut_off": cut_off,
                "raised": raised,
            }
        )
        # Its row on the score sheet (``view["history"]``).
        row = {
            "hand_number": hands_played,
            "seat": declarer,
            "bid": bid,
            "made": made,
            "hand_points": [*points],
            "changes": [change0, change1],
            "scores": [score0, score1],
        }
        history = self.history
        if history is None:
            self.history = [row]
        else:
            history.append(row)
        if options["end"] == "points":
            winner = points_winner(team, scores, self.target)
        else:
            winner = rounds_winner(scores, hands_played, options["rounds"])
        if winner is None:
            events.append(self._deal((self.dealer + 1) % SEATS))
            return events
        self.phase = "over"
        self.turn = None
        self.winner_team = winner
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
        self._sync()
        return build_view(self, seat)

    @classmethod
    def rules_summary(cls, options: dict[str, Any] | None = None) -> str:
        return summary(options)
