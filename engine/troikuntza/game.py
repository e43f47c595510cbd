"""The TroiKuntza state machine (rules: docs/rules/troikuntza.md).

Actions (lower-case in ``legal_actions``; card codes case-insensitive on input):

- current player, start of turn: ``take`` (the top discard) or ``draw`` (the stock);
- other players while the May I window is open: ``mayi`` or ``pass``;
- ``close``: the table service closes the May I window (see below);
- current player after taking/drawing: ``meld 7h 7s 7c | qh qd jk`` (the whole contract,
  groups separated by ``|``), ``layoff 9h 2`` (onto meld number 2 as shown in every view;
  ``layoff jk 2 low`` / ``high`` picks the end of a run for a joker, high by default),
  ``discard 5c``.

The May I state machine (``state["mayi"]``):

- ``open``: a window opens with each discard and with the first upcard. Eligible: every seat
  but the current player and the player who made the discard, with May Is left
  (``mayi_limit``) and, unless ``mayi_after_out``, not yet out. While it is open,
  ``to_act()`` is the current player (first, unless he is waiting) followed by every eligible
  seat that has not answered, in turn order from the current player's left. Each of those
  answers ``mayi`` or ``pass``; when all have answered the window closes by itself.
- ``close``: the engine has no clock. When the ``mayi_window`` timer runs out the table service
  sends ``close`` for any seat in ``to_act()`` (convention: ``to_act()[0]``). It is a service
  action: never listed in ``legal_actions``. With ``mayi_window`` 0 the service need not send it:
  calls are then accepted until the current player takes or draws, and a draw does not wait.
- The current player may ``take`` at any moment: every call is void. A ``draw`` while the
  window is open and someone has not answered (and ``mayi_window`` > 0) only declines the
  discard: ``waiting`` is set, the current player leaves ``to_act()`` and the stock card is not
  drawn until the window closes (``close`` or the last answer).
- Resolution (a ``draw`` once the window is closed or everyone answered): if anyone called, the
  caller nearest the current player's left takes the discard and a penalty card from the stock
  (the others' calls are void and don't count); the current player then chooses again between
  ``take`` (the newly exposed discard, which nobody else can May I) and ``draw``. With no
  calls the current player draws. Calls made before the window closed stand until then.

Choices where the rules are silent:

- Nobody may May I his own discard. A May I needs no free stock card: when no stock card can
  be had (stock and discards under the top empty, or ``reshuffles`` used up) the penalty card
  is simply not given (the rules say both). A seat that may not call is told why (his May Is
  used up, his own discard) rather than "not your turn" (``out_of_turn_refusal``).
- Stock: when a card is needed and the stock is empty, the discard pile except its top card
  is shuffled (seeded) into a new stock; a draw that still finds nothing ends the round, and
  everyone scores his hand (event ``hand_over`` with ``reason`` ``"stock"``). A round can
  otherwise stall for ever (in round 1 once every Troika rank is used up, nobody can lay off
  or go out), so option ``reshuffles`` (D 2; ``unlimited`` for the rule without a cap) caps the
  new stocks per round: a draw from an empty stock after that ends the round the same way.
- The card taken from the discard pile: a card with the same code may be discarded this turn
  only while the hand holds another copy; once a copy of it is melded or laid off the taken card
  counts as used. Coming out must leave a card that can be discarded. A lay-off must leave one
  too, or (with ``discard_to_go_out`` off) no card at all: going out; or only the taken card
  when it can then be laid off in turn, since a player who is out may go out by laying off all
  his cards in any order, the taken card included. That is the only way a lay-off can strand a
  hand (every other card may be discarded), so one look at the melds after the lay-off decides
  it: no search.
- The discard pile shows only its top card and its size.
- ``deck=`` may list the whole deck or only its top; the rest follows in a seeded shuffle.
- Views number melds from 1 in the order they were laid down; ``layoff`` uses those numbers.

Views: ``TroiKuntzaView`` in ``engine.troikuntza.views`` documents every key.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from engine.cards import JOKER, parse_card
from engine.errors import IllegalAction
from engine.game import Event, Game, TimedWindow, shuffle
from engine.troikuntza import melds as M
from engine.troikuntza.cards import full_deck, sort_hand
from engine.troikuntza.spec import CARDS_PER_DECK, HAND_SIZE, ROUNDS, SPEC, deck_count
from engine.troikuntza.summary import summary
from engine.troikuntza.views import TroiKuntzaView, build_view

MELD_EXAMPLES = 3


def _discardable(hand: list[str], taken: str | None) -> bool:
    """Whether the hand holds a card that may be discarded (not the card just taken)."""
    return any(c != taken for c in hand) or hand.count(taken) >= 2


def _may_discard(hand: list[str], card: str, taken: str | None) -> bool:
    return card in hand and (card != taken or hand.count(card) >= 2)


class TroiKuntzaGame(Game):
    spec = SPEC

    # -- construction -----------------------------------------------------------------------
    @classmethod
    def new(
        cls, players: int, options: dict[str, Any], seed: int, deck: list[str] | None = None
    ) -> TroiKuntzaGame:
        decks = deck_count(players, options)
        if decks * CARDS_PER_DECK < players * HAND_SIZE + 2:
            raise IllegalAction("troikuntza.decks_too_few", decks=decks, players=players)
        first = options.get("first_dealer")
        if first is not None and not 0 <= int(first) < players:
            raise IllegalAction("troikuntza.first_dealer", last=players - 1)
        state: dict[str, Any] = {
            "players": players,
            "options": dict(options),
            "seed": seed,
            "rng_counter": 0,
            "decks": decks,
            "round": 0,
            "dealer": 0,
            "scores": [0] * players,
            "history": [],
            "phase": "deal",
        }
        game = cls(state)
        if first is None:
            state["dealer"] = game.rng().randrange(players)
        else:
            state["dealer"] = int(first)
        stacked = None
        if deck is not None:
            stacked = [parse_card(c) for c in deck]
            rest = Counter(full_deck(decks))
            rest.subtract(stacked)
            if any(n < 0 for n in rest.values()):
                raise IllegalAction("troikuntza.stacked_foreign")
        game._deal(stacked)
        return game

    def _deal(self, stacked: list[str] | None = None) -> list[Event]:
        st = self.state
        n = self.players
        cards = full_deck(st["decks"])
        shuffle(self.rng(), cards)
        if stacked is not None:
            # The stacked cards on top, then the rest of the decks in the seeded order.
            rest = Counter(cards)
            rest.subtract(stacked)
            tail = []
            for c in cards:
                if rest[c] > 0:
                    rest[c] -= 1
                    tail.append(c)
            cards = stacked + tail
        hands: list[list[str]] = [[] for _ in range(n)]
        pos = 0
        for _ in range(HAND_SIZE):
            for k in range(1, n + 1):
                hands[(st["dealer"] + k) % n].append(cards[pos])
                pos += 1
        upcard = cards[pos]
        stock = cards[pos + 1 :]
        stock.reverse()  # the top of the stock is the end of the list
        st["round"] += 1
        st.update(
            {
                "phase": "draw",
                "hands": hands,
                "stock": stock,
                "discard": [upcard],
                "melds": [],
                "out": [False] * n,
                "mayi_used": [0] * n,
                "current": (st["dealer"] + 1) % n,
                "taken": None,
                "melded_now": False,
                "discarder": None,
                "reshuffles": 0,
            }
        )
        self._open_window(None)
        events: list[Event] = [
            {
                "type": "deal",
                "round": st["round"],
                "contract": self.contract,
                "dealer": st["dealer"],
                "upcard": upcard,
            }
        ]
        events += [
            {"type": "hand", "seat": s, "cards": sort_hand(h), "private_to": s}
            for s, h in enumerate(hands)
        ]
        return events

    # -- small accessors --------------------------------------------------------------------
    @property
    def contract(self) -> str:
        return M.CONTRACTS[min(self.state["round"], ROUNDS) - 1]

    def _order_from(self, seat: int) -> list[int]:
        """Every other seat in turn order, starting left of ``seat``."""
        n = self.players
        return [(seat + k) % n for k in range(1, n)]

    def _eligible(self, seat: int) -> bool:
        st = self.state
        if seat == st["current"] or seat == st["discarder"]:
            return False
        if st["mayi_used"][seat] >= int(self.options["mayi_limit"]):
            return False
        return bool(self.options["mayi_after_out"]) or not st["out"][seat]

    def _open_window(self, discarder: int | None) -> None:
        st = self.state
        st["discarder"] = discarder
        eligible = [s for s in self._order_from(st["current"]) if self._eligible(s)]
        st["mayi"] = {
            "open": bool(eligible),
            "eligible": eligible,
            "calls": [],
            "passed": [],
            "waiting": False,
            "exposed": False,
        }

    def _unanswered(self) -> list[int]:
        m = self.state["mayi"]
        if not m["open"]:
            return []
        return [s for s in m["eligible"] if s not in m["calls"] and s not in m["passed"]]

    # -- the API ------------------------------------------------------------------------------
    def is_over(self) -> bool:
        return self.state["phase"] == "over"

    def timed_window(self) -> TimedWindow | None:
        """The May I window closes by itself after ``mayi_window`` seconds (0: it stays open
        until the current player takes or draws)."""
        st, seconds = self.state, int(self.options.get("mayi_window") or 0)
        if st["phase"] == "over" or not st["mayi"]["open"] or seconds <= 0:
            return None
        key = f"{st['round']}/{st['discarder']}/{len(st['discard'])}/{len(st['stock'])}"
        return TimedWindow(float(seconds), "close", key)

    def to_act(self) -> list[int]:
        st = self.state
        if st["phase"] == "over":
            return []
        if st["phase"] == "play":
            return [st["current"]]
        waiting = self._unanswered()
        if st["mayi"]["waiting"]:
            return waiting
        return [st["current"], *waiting]

    def _legal_actions(self, seat: int) -> list[str]:
        st = self.state
        if seat not in self.to_act():
            return []
        if st["phase"] == "draw":
            if seat != st["current"]:
                return ["mayi", "pass"]
            return (["take"] if st["discard"] else []) + ["draw"]
        return self._play_actions(seat)

    def out_of_turn_refusal(self, seat: int, action: str) -> IllegalAction | None:
        """Why a seat that is not awaited may not call May I, when it is not only the turn."""
        st = self.state
        if action not in ("mayi", "may i") or seat == st["current"] or self.is_over():
            return None
        limit = int(self.options["mayi_limit"])
        if limit == 0:
            return IllegalAction("troikuntza.mayi_off")
        if st["mayi_used"][seat] >= limit:
            key = "troikuntza.mayi_used" if limit > 1 else "troikuntza.mayi_used_one"
            return IllegalAction(key, limit=limit)
        if not self.options["mayi_after_out"] and st["out"][seat]:
            return IllegalAction("troikuntza.mayi_after_out")
        if st["phase"] == "draw" and seat == st["discarder"] and not st["mayi"]["exposed"]:
            return IllegalAction("troikuntza.mayi_own_discard")
        return None

    def _play_actions(self, seat: int) -> list[str]:
        st = self.state
        hand = st["hands"][seat]
        taken = st["taken"]
        actions: list[str] = []
        if not st["out"][seat]:
            actions += self.meld_suggestions(seat, MELD_EXAMPLES)
        elif not st["melded_now"]:
            for card in sort_hand(list(set(hand))):
                for number, meld in enumerate(st["melds"], start=1):
                    ends: list[str | None] = [None]
                    if card == JOKER and meld["kind"] == "run":
                        ends = ["low", "high"]
                    for end in ends:
                        if self._layoff_refusal(seat, card, number, end) is None:
                            word = f" {end}" if end else ""
                            actions.append(f"layoff {card.lower()} {number}{word}")
        for card in sorted(set(hand)):
            if _may_discard(hand, card, taken):
                actions.append(f"discard {card.lower()}")
        return actions

    def meld_suggestions(self, seat: int, limit: int = 10) -> list[str]:
        """Complete ``meld ...`` actions with which ``seat`` may come out now (for autocomplete).

        Empty unless it is his turn after the draw and he has not come out this round.
        """
        st = self.state
        if st["phase"] != "play" or seat != st["current"] or st["out"][seat]:
            return []
        ways = M.find_contracts(
            st["hands"][seat], self.contract, self.options, limit=limit, taken=st["taken"]
        )
        return [M.format_meld_action(w) for w in ways]

    def _layoff_error(
        self, seat: int, card: str, number: int, end: str | None
    ) -> IllegalAction | None:
        """Why ``seat`` may not lay ``card`` on meld ``number`` now (None: he may)."""
        refusal = self._layoff_refusal(seat, card, number, end)
        return None if refusal is None else refusal()

    def _layoff_refusal(
        self, seat: int, card: str, number: int, end: str | None
    ) -> Callable[[], IllegalAction] | None:
        """``_layoff_error``, the refusal built only when called: the listing tries every card
        on every meld, and building (and checking) a refusal for each misfit was a third of a
        random game."""
        st = self.state
        meld = st["melds"][number - 1]
        result = M.layoff_result(meld, card, end)
        if result is None:
            return lambda: IllegalAction(
                "troikuntza.layoff_no_fit", card=card, number=number, cards=list(meld["cards"])
            )
        hand = list(st["hands"][seat])
        hand.remove(card)
        taken = None if card == st["taken"] else st["taken"]
        if hand and _discardable(hand, taken):
            return None
        if self.options["discard_to_go_out"]:
            if not hand:
                return lambda: IllegalAction("troikuntza.layoff_final_discard", card=card)
            return lambda: IllegalAction("troikuntza.layoff_no_discard", card=card)
        if not hand:
            return None
        # Only the card taken this turn is left: he may not discard it, so the lay-off stands
        # only if that card can follow onto the melds as they will be (going out).
        assert taken is not None and hand == [taken]
        melds = list(st["melds"])
        melds[number - 1] = result[0]
        if any(M.layoff_result(meld, taken) is not None for meld in melds):
            return None
        return lambda: IllegalAction("troikuntza.layoff_only_taken", card=card, taken=taken)

    # -- applying -----------------------------------------------------------------------------
    def _apply(self, seat: int, action: str) -> list[Event]:
        if action == "may i":
            action = "mayi"
        word, _, rest = action.partition(" ")
        st = self.state
        if word == "close":
            return self._close()
        if st["phase"] == "draw":
            if seat == st["current"] and not st["mayi"]["waiting"]:
                if word == "take" and not rest:
                    return self._take(seat)
                if word == "draw" and not rest:
                    return self._draw(seat)
                if word in ("mayi", "pass"):
                    raise IllegalAction("troikuntza.your_turn")
                raise IllegalAction("troikuntza.start_turn", actions=self.legal_actions(seat))
            if word == "mayi" and not rest:
                return self._call(seat)
            if word == "pass" and not rest:
                return self._pass(seat)
            raise IllegalAction("troikuntza.window_open")
        if word == "meld":
            return self._meld(seat, rest)
        if word == "layoff":
            return self._layoff(seat, rest)
        if word == "discard":
            return self._discard(seat, rest)
        raise self._play_hint(seat)

    def _play_hint(self, seat: int) -> IllegalAction:
        st = self.state
        if st["out"][seat] and not st["melded_now"]:
            return IllegalAction("troikuntza.now_layoff")
        if st["out"][seat]:
            return IllegalAction("troikuntza.now_discard")
        return IllegalAction("troikuntza.now_meld", contract=self.contract)

    # start of turn ---------------------------------------------------------------------------
    def _take(self, seat: int) -> list[Event]:
        st = self.state
        if not st["discard"]:
            raise IllegalAction("troikuntza.discard_empty")
        events: list[Event] = []
        m = st["mayi"]
        if m["calls"]:
            events.append({"type": "mayi_void", "seats": list(m["calls"]), "by": seat})
        card = st["discard"].pop()
        st["hands"][seat].append(card)
        st["taken"] = card
        self._close_window()
        st["phase"] = "play"
        events.append({"type": "take", "seat": seat, "card": card})
        return events

    def _draw(self, seat: int) -> list[Event]:
        st = self.state
        m = st["mayi"]
        if self._unanswered() and int(self.options["mayi_window"]) > 0:
            m["waiting"] = True
            top = st["discard"][-1] if st["discard"] else None
            return [{"type": "decline", "seat": seat, "card": top, "waiting": True}]
        declined: list[Event] = []
        if st["discard"] and not m["exposed"]:
            declined = [{"type": "decline", "seat": seat, "card": st["discard"][-1]}]
        return declined + self._resolve()

    def _close_window(self) -> None:
        m = self.state["mayi"]
        m.update({"open": False, "calls": [], "waiting": False})

    def _resolve(self) -> list[Event]:
        """The current player has declined the discard and the window is over."""
        st = self.state
        m = st["mayi"]
        current = st["current"]
        calls = list(m["calls"])
        m.update({"open": False, "calls": [], "waiting": False})
        if calls and st["discard"]:
            order = self._order_from(current)
            winner = min(calls, key=order.index)
            card = st["discard"].pop()
            st["hands"][winner].append(card)
            st["mayi_used"][winner] += 1
            m["exposed"] = True
            events: list[Event] = [
                {
                    "type": "mayi",
                    "seat": winner,
                    "card": card,
                    "void": [s for s in calls if s != winner],
                    "used": st["mayi_used"][winner],
                }
            ]
            penalty = self._stock_card()
            if penalty is not None:
                events += penalty[1]
                st["hands"][winner].append(penalty[0])
                events.append({"type": "penalty", "seat": winner})
                events.append(
                    {
                        "type": "penalty_card",
                        "seat": winner,
                        "card": penalty[0],
                        "private_to": winner,
                    }
                )
            exposed = st["discard"][-1] if st["discard"] else None
            events.append({"type": "exposed", "seat": current, "card": exposed})
            return events
        drawn = self._stock_card()
        if drawn is None:
            return self._end_round(None, "stock")
        card, events = drawn
        st["hands"][current].append(card)
        st["phase"] = "play"
        events.append({"type": "draw", "seat": current})
        events.append({"type": "drawn", "seat": current, "card": card, "private_to": current})
        return events

    def _stock_card(self) -> tuple[str, list[Event]] | None:
        """The top stock card, reshuffling the discards under the top first when needed."""
        st = self.state
        events: list[Event] = []
        if not st["stock"]:
            under = st["discard"][:-1]
            cap = self.options.get("reshuffles", 2)
            if not under or (cap != "unlimited" and st["reshuffles"] >= int(cap)):
                return None
            st["reshuffles"] += 1
            st["discard"] = st["discard"][-1:]
            shuffle(self.rng(), under)
            st["stock"] = under
            events.append({"type": "reshuffle", "cards": len(under)})
        return st["stock"].pop(), events

    def _call(self, seat: int) -> list[Event]:
        self.state["mayi"]["calls"].append(seat)
        events: list[Event] = [{"type": "mayi_call", "seat": seat}]
        return events + self._after_answer()

    def _pass(self, seat: int) -> list[Event]:
        self.state["mayi"]["passed"].append(seat)
        events: list[Event] = [{"type": "mayi_pass", "seat": seat}]
        return events + self._after_answer()

    def _after_answer(self) -> list[Event]:
        m = self.state["mayi"]
        if self._unanswered():
            return []
        m["open"] = False
        events: list[Event] = [{"type": "window_closed", "calls": list(m["calls"])}]
        if m["waiting"]:
            events += self._resolve()
        return events

    def _close(self) -> list[Event]:
        m = self.state["mayi"]
        if self.state["phase"] != "draw" or not m["open"]:
            raise IllegalAction("troikuntza.no_window")
        m["open"] = False
        events: list[Event] = [{"type": "window_closed", "calls": list(m["calls"])}]
        if m["waiting"]:
            events += self._resolve()
        return events

    # after the draw --------------------------------------------------------------------------
    def _parse_cards(self, words: list[str]) -> list[str]:
        return [parse_card(w) for w in words]

    def _meld(self, seat: int, rest: str) -> list[Event]:
        st = self.state
        if st["out"][seat]:
            raise IllegalAction("troikuntza.already_out")
        groups = [g.split() for g in rest.split("|")]
        if not rest.strip() or any(not g for g in groups):
            raise IllegalAction("troikuntza.meld_how", contract=self.contract)
        cards_groups = [self._parse_cards(g) for g in groups]
        hand = st["hands"][seat]
        need = Counter(c for g in cards_groups for c in g)
        have = Counter(hand)
        missing = [c for c, n in need.items() if have[c] < n]
        if missing:
            raise IllegalAction("troikuntza.not_held_enough", cards=sorted(missing))
        nm = bool(self.options["natural_majority"])
        melds = M.match_contract(cards_groups, self.contract, seat, nm)
        if melds is None:
            raise self._meld_hint(cards_groups, seat)
        left = list(hand)
        for c in need.elements():
            left.remove(c)
        taken = None if st["taken"] in need else st["taken"]
        if not _discardable(left, taken):
            raise IllegalAction("troikuntza.keep_discard")
        st["hands"][seat] = left
        st["taken"] = taken
        first = len(st["melds"]) + 1
        st["melds"].extend(melds)
        st["out"][seat] = True
        st["melded_now"] = True
        return [
            {
                "type": "meld",
                "seat": seat,
                "contract": self.contract,
                "melds": [
                    {"number": first + i, "kind": m["kind"], "cards": list(m["cards"])}
                    for i, m in enumerate(melds)
                ],
            }
        ]

    def _meld_hint(self, groups: list[list[str]], seat: int) -> IllegalAction:
        contract = self.contract
        if len(groups) != len(contract):
            return IllegalAction("troikuntza.meld_count", contract=contract, count=len(contract))
        for g in groups:
            if not M.readings(g, seat):
                return IllegalAction("troikuntza.not_a_meld", cards=list(g))
        if self.options["natural_majority"]:
            return IllegalAction("troikuntza.melds_wrong_majority", contract=contract)
        return IllegalAction("troikuntza.melds_wrong", contract=contract)

    def _layoff(self, seat: int, rest: str) -> list[Event]:
        st = self.state
        if not st["out"][seat]:
            raise IllegalAction("troikuntza.come_out_first", contract=self.contract)
        if st["melded_now"]:
            raise IllegalAction("troikuntza.layoff_next_turn")
        words = rest.split()
        end = None
        if words and words[-1] in ("low", "high"):
            end = words.pop()
        if len(words) != 2:
            raise IllegalAction("troikuntza.layoff_how")
        card = parse_card(words[0])
        number_text = words[1].lstrip("#")
        if not number_text.isdigit() or not 1 <= int(number_text) <= len(st["melds"]):
            raise IllegalAction("troikuntza.no_such_meld", meld=words[1], count=len(st["melds"]))
        number = int(number_text)
        hand = st["hands"][seat]
        if card not in hand:
            raise IllegalAction("troikuntza.not_held", card=card)
        meld = st["melds"][number - 1]
        if end is not None and (card != JOKER or meld["kind"] != "run"):
            raise IllegalAction("troikuntza.low_high")
        error = self._layoff_error(seat, card, number, end)
        if error is not None:
            raise error
        result = M.layoff_result(meld, card, end)
        assert result is not None
        new_meld, bumped = result
        st["melds"][number - 1] = new_meld
        hand.remove(card)
        if card == st["taken"]:
            st["taken"] = None
        events: list[Event] = [
            {
                "type": "layoff",
                "seat": seat,
                "card": card,
                "meld": number,
                "bumped": bumped,
                "cards": list(new_meld["cards"]),
            }
        ]
        if not hand:
            events += self._end_round(seat, "out")
        return events

    def _discard(self, seat: int, rest: str) -> list[Event]:
        st = self.state
        words = rest.split()
        if len(words) != 1:
            raise IllegalAction("troikuntza.discard_how")
        card = parse_card(words[0])
        hand = st["hands"][seat]
        if card not in hand:
            raise IllegalAction("troikuntza.not_held", card=card)
        if not _may_discard(hand, card, st["taken"]):
            raise IllegalAction("troikuntza.discard_taken", card=card)
        hand.remove(card)
        st["discard"].append(card)
        events: list[Event] = [{"type": "discard", "seat": seat, "card": card}]
        if not hand:
            return events + self._end_round(seat, "out")
        st["current"] = (seat + 1) % self.players
        st["phase"] = "draw"
        st["taken"] = None
        st["melded_now"] = False
        self._open_window(seat)
        return events

    # end of round ---------------------------------------------------------------------------
    def _end_round(self, out_seat: int | None, reason: str) -> list[Event]:
        st = self.state
        points = [M.hand_points(h) for h in st["hands"]]
        st["scores"] = [a + b for a, b in zip(st["scores"], points, strict=True)]
        st["history"].append(points)
        events: list[Event] = []
        if out_seat is not None:
            events.append({"type": "out", "seat": out_seat})
        events.append(
            {
                "type": "hand_over",
                "round": st["round"],
                "contract": self.contract,
                "reason": reason,
                "went_out": out_seat,
                "points": points,
                "hands": [sort_hand(h) for h in st["hands"]],
                "scores": list(st["scores"]),
            }
        )
        if st["round"] >= ROUNDS:
            st["phase"] = "over"
            st["mayi"] = {**st["mayi"], "open": False, "calls": [], "waiting": False}
            events.append(
                {"type": "game_over", "scores": list(st["scores"]), "winners": self._winners()}
            )
            return events
        st["dealer"] = (st["dealer"] + 1) % self.players
        return events + self._deal()

    def _winners(self) -> list[int]:
        best = min(self.state["scores"])
        return [s for s, v in enumerate(self.state["scores"]) if v == best]

    def result(self) -> dict[str, Any]:
        return {
            "scores": list(self.state["scores"]),
            "winners": self._winners() if self.is_over() else [],
            "rounds": [list(r) for r in self.state["history"]],
        }

    # -- views --------------------------------------------------------------------------------
    def view(self, seat: int | None) -> TroiKuntzaView:
        return build_view(self, seat)

    # -- rules text -----------------------------------------------------------------------------
    @classmethod
    def rules_summary(cls, options: dict[str, Any] | None = None) -> str:
        return summary({**cls.spec.defaults(), **(options or {})})
