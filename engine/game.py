"""The interface every game implements, and the plumbing they share.

A game is a deterministic state machine. Its whole state is plain JSON data, ``self.state`` (a
dict), so that ``to_json`` / ``engine.load`` round-trip exactly and two games are equal when
their states are equal. A game may keep its live state otherwise and build ``state`` when asked
(Troika: attributes); an edit of the dict it handed out then counts from its next move.
Randomness comes only from ``self.rng(purpose)``, derived from the game's seed and a counter
stored in the state, so replays are identical.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.errors import IllegalAction
from engine.options import GameSpec

try:  # CPython's own SHA-512, as random.Random.seed takes it: for a few bytes it is cheaper
    # than OpenSSL's (hashlib), which sets up its algorithm again for every new hash object
    from _sha512 import sha512
except ImportError:  # pragma: no cover - another Python
    from hashlib import sha512

Event = dict[str, Any]
#: A view as the generic code reads it; each game documents its own as a ``TypedDict``
#: (``<Name>View`` in ``engine.<game>.views``, built on ``engine.views.CommonView``).
View = Mapping[str, Any]

#: Bumped when the JSON layout of any game changes incompatibly (the table service stores it).
SNAPSHOT_VERSION = 1


@dataclass(frozen=True)
class TimedWindow:
    """A window open now that closes by itself (TroiKuntza's May I): the engine has no clock, so
    after ``seconds`` the table service applies ``action`` for the first seat in ``to_act()``.
    ``key`` tells windows apart: a new key is a new window, with a fresh deadline."""

    seconds: float
    action: str
    key: str


def check_stacked_deck(
    cards: list[int], full: Sequence[int], title: str, codes: Sequence[str]
) -> list[int]:
    """A stacked deck (``new(deck=...)``: tests, a known deal) must be the whole deck, each card
    once; ``codes`` names the cards in the refusal. Returns ``cards``."""
    if sorted(cards) == sorted(full):
        return cards
    missing = [codes[c] for c in sorted(set(full) - set(cards))]
    twice = [codes[c] for c in sorted({c for c in cards if cards.count(c) > 1})]
    if missing and twice:
        raise IllegalAction(
            "deck.stacked_missing_twice", game=title, count=len(full), missing=missing, twice=twice
        )
    if twice:
        raise IllegalAction("deck.stacked_twice", game=title, count=len(full), twice=twice)
    raise IllegalAction("deck.stacked_missing", game=title, count=len(full), missing=missing)


_new_random = random.Random.__new__
_seed_state = random.Random.__mro__[1].seed  # the C generator's own seed(), of an int


def seeded_rng(text: str) -> random.Random:
    """``random.Random(text)``: the very same generator, made without ``Random.__init__`` and
    ``Random.seed`` (Python code that checks the seed's type in six calls before it hashes the
    text and seeds the C state with the text and its SHA-512, as done here): a deal makes a
    generator for its shuffle."""
    return reseed(_new_random(random.Random), text)


def reseed(rng: random.Random, text: str) -> random.Random:
    """``rng``, seeded again as ``random.Random(text)`` is: then the very same generator. A game
    that shuffles every deal with a generator of its own seeds it again each time, instead of
    allocating and freeing one (2.5 KB of Mersenne Twister state, zeroed when allocated)."""
    data = text.encode()
    _seed_state(rng, int.from_bytes(data + sha512(data).digest(), "big"))
    rng.gauss_next = None  # what Random.__init__ sets beside the seed
    return rng


#: Per list size: the shuffle's steps, ``(i, bits of i + 1)`` from the end, made once.
_PLANS: dict[int, tuple[tuple[int, int], ...]] = {}


def shuffle(rng: random.Random, cards: list[Any]) -> None:
    """``rng.shuffle(cards)``: the very same draws and result (Fisher-Yates from the end, each
    index drawn with ``getrandbits`` and rejection, as ``random.Random.shuffle`` does), without
    two method calls per card, the bit counts of each step read from a plan made once per size:
    a deal's shuffle was a tenth of a random Troika deal."""
    n = len(cards)
    plan = _PLANS.get(n)
    if plan is None:
        plan = _PLANS[n] = tuple((i, (i + 1).bit_length()) for i in range(n - 1, 0, -1))
    getrandbits = rng.getrandbits
    for i, k in plan:
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def snapshot_json(name: str, state: dict[str, Any]) -> str:
    """``Game.to_json()`` of game ``name`` in ``state``."""
    return json.dumps(
        {"game": name, "version": SNAPSHOT_VERSION, "state": state},
        separators=(",", ":"),
        sort_keys=True,
    )


def normalize_action(action: str) -> str:
    """Actions are the words a player types: case-insensitive, spaces folded."""
    if not isinstance(action, str):
        raise IllegalAction("action.not_text")
    return " ".join(action.lower().split())


class Game(ABC):
    """Base class of the four games.

    Subclasses set ``spec`` and implement the abstract methods. Seats are ``0..players-1``.
    ``apply`` must validate completely before it changes anything: a raised ``IllegalAction``
    leaves the game exactly as it was.

    Legal actions are computed once per state (OpenSpiel's state API is the model). A game
    implements ``_legal_actions`` (or, as before the cache, overrides ``legal_actions``).
    ``cached_legal_actions(seat)`` keeps the answer as a tuple, the same object until ``apply``
    changes the state: the accessor for callers that ask several times per move (the table
    service). ``legal_actions(seat)`` hands out a fresh list copy of it. ``apply`` of an action
    found in that tuple skips the checks the listing already made (see ``_apply_legal``). The
    cache lives beside the state, never in it (``to_json`` and ``==`` do not see it); code that
    edits ``state`` in place instead of through ``apply`` (a test setting up a position) must
    call ``state_changed()`` afterwards.
    """

    spec: ClassVar[GameSpec]

    def __init__(self, state: dict[str, Any]) -> None:
        self.state = state
        #: ``seat -> its legal actions`` in the current state; emptied by every ``apply``.
        self._legal: dict[int, tuple[str, ...]] = {}

    # -- construction -------------------------------------------------------------------------
    @classmethod
    @abstractmethod
    def new(
        cls,
        players: int,
        options: dict[str, Any],
        seed: int,
        deck: list[str] | None = None,
    ) -> Game:
        """A fresh game; ``options`` are already resolved and validated against ``spec``."""

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> Game:
        return cls(state)

    @classmethod
    def rules_summary(cls, options: dict[str, Any] | None = None) -> str:
        """A readable summary of the rules with these options (the bot's `/rules`)."""
        return cls.spec.summary or cls.spec.title

    # -- the API ------------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def players(self) -> int:
        return int(self.state["players"])

    @property
    def options(self) -> dict[str, Any]:
        return self.state["options"]

    @property
    def seed(self) -> int:
        return int(self.state["seed"])

    @abstractmethod
    def to_act(self) -> list[int]:
        """The seats whose move is awaited now (several at once during a May I window)."""

    def legal_actions(self, seat: int) -> list[str]:
        """Every complete legal action of ``seat`` now, as the words a player would type.

        A new list each call (the caller may change it); see ``cached_legal_actions``."""
        if type(seat) is not int:
            return list(self._legal_actions(seat))
        legal = self._legal.get(seat)  # cached_legal_actions inlined: asked at every move
        if legal is not None:
            return list(legal)
        actions = self._legal_actions(seat)
        self._legal[seat] = tuple(actions)
        # A game builds its listing afresh at each call: the first caller may have that list.
        return actions if type(actions) is list else list(actions)

    def cached_legal_actions(self, seat: int) -> tuple[str, ...]:
        """``legal_actions(seat)`` as a tuple computed once per state: the same object until
        ``apply`` (or ``state_changed``) moves the game on. For callers that ask several times
        per move (the table service: the acting player, the panels, the AI)."""
        if type(seat) is not int:  # not a cache key: 1.0 == 1 and True == 1 would alias
            return tuple(self._legal_actions(seat))
        legal = self._legal.get(seat)
        if legal is None:
            legal = self._legal[seat] = tuple(self._legal_actions(seat))
        return legal

    def state_changed(self) -> None:
        """Forget what was computed from the state (its legal actions): for code that edits
        ``state`` in place instead of through ``apply``."""
        self._legal = {}

    def _legal_actions(self, seat: int) -> Sequence[str]:
        """Every legal action of ``seat`` now (empty unless ``seat`` is in ``to_act()``), a list
        built for this call (never one the game keeps): what a game implements. A game written
        before the cache overrides ``legal_actions`` instead; it still works (its own
        ``legal_actions`` is then not cached, the accessor is)."""
        if type(self).legal_actions is Game.legal_actions:
            raise NotImplementedError(f"{type(self).__name__} implements no _legal_actions")
        return self.legal_actions(seat)

    @abstractmethod
    def _apply(self, seat: int, action: str) -> list[Event]:
        """Apply a normalized action by a seat that is in ``to_act()``."""

    def _apply_legal(self, seat: int, action: str) -> list[Event]:
        """Apply an action found in ``cached_legal_actions(seat)``, so normalized, by an awaited
        seat and legal: a game may skip the checks its listing already made (the hot path of
        random and AI play). Must do exactly what ``_apply`` does; by default it is ``_apply``."""
        return self._apply(seat, action)

    @abstractmethod
    def view(self, seat: int | None) -> View:
        """What ``seat`` may see (``None``: a spectator). Never another seat's hidden cards."""

    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def result(self) -> dict[str, Any]:
        """``{"scores": [...per seat], "winners": [seats], ...}`` once the game is over."""

    def apply(self, seat: int, action: str) -> list[Event]:
        """Apply ``action`` for ``seat``; returns JSON-safe events saying what happened."""
        # An action among the listed legal ones of this state is normalized, by an awaited seat
        # (only those have any) of a game not over, and legal: nothing is left to check.
        legal = self._legal.get(seat) if type(seat) is int else None
        if legal and action in legal:
            # Emptied before and after: a game may list legal actions while it changes the state
            # (a refusal lists them), and no listing of an earlier or half-changed state may stay.
            self._legal = {}
            try:
                return self._apply_legal(seat, action)
            finally:
                self._legal = {}
        text = normalize_action(action)
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalAction("seat.unknown", seat=seat if isinstance(seat, int) else str(seat))
        if self.is_over():
            raise IllegalAction("game.over")
        if seat not in self.to_act():
            raise self.out_of_turn_refusal(seat, text) or self.not_your_turn(seat)
        self._legal = {}
        try:
            return self._apply(seat, text)
        finally:
            self._legal = {}

    def timed_window(self) -> TimedWindow | None:
        """The window open now that closes after some seconds, if any (default: none)."""
        return None

    def out_of_turn_refusal(self, seat: int, action: str) -> IllegalAction | None:
        """A better refusal than "not your turn" for ``seat``, not awaited now, making the
        normalized ``action`` (a game may say why the move is not his now); None: none."""
        return None

    def not_your_turn(self, seat: int) -> IllegalAction:
        waiting = self.to_act()
        if not waiting:
            return IllegalAction("turn.nobody")
        return IllegalAction("turn.not_yours", seats=list(waiting))

    # -- persistence --------------------------------------------------------------------------
    def to_json(self) -> str:
        return snapshot_json(self.name, self.state)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Game)
            and other.name == self.name
            and json.dumps(other.state, sort_keys=True) == json.dumps(self.state, sort_keys=True)
        )

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"<{type(self).__name__} players={self.players} seed={self.seed}>"

    # -- shared helpers -----------------------------------------------------------------------
    def rng(self) -> random.Random:
        """A fresh generator for the next random step (a shuffle, a first-dealer draw).

        Derived from the seed and a counter kept in the state, so a game loaded from JSON
        makes the same random choices as the original.
        """
        counter = self.state.get("rng_counter", 0)
        self.state["rng_counter"] = counter + 1
        return seeded_rng(f"{self.seed}/{counter}")
