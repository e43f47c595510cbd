"""The contract every game in ``engine.GAMES`` keeps, whatever its rules: one suite for all.

Parametrised over ``engine.GAMES`` and every player count it allows. It reads only
``engine.GAMES`` (names, player ranges, option schemas), ``engine.new_game`` / ``engine.load`` and
the ``Game`` API, never a game's name or its state, so a fifth game registered in ``GAMES`` is
checked with no change here. Random options and seeds come from hypothesis (few examples per
player count: a few seconds per game); games are walked by random legal moves.

What it checks:
- every listed action is accepted, only seats in ``to_act()`` have any, and a refusal (garbage,
  an unknown seat, a seat out of turn, an action listed earlier but not now) leaves ``to_json()``
  unchanged;
- views carry the keys their game's ``<Name>View`` TypedDict documents, and no other;
- no hidden card: a card in a seat's hand shows in no other seat's view unless the spectator sees
  it too, and the spectator sees nothing a seat does not see outside its own hand;
- events are JSON, and an event ``private_to`` a seat shows its cards in no other seat's view;
- every event is of a kind its game documents (``EVENTS`` of ``engine/<game>/events.py``, a
  ``TypedDict`` per kind), with the keys and value types it documents, and no other key;
- a game loaded from JSON mid-game continues identically; the same seed gives the same game.
"""

from __future__ import annotations

import functools
import importlib
import json
import random
import types
import typing
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import engine
from engine import Game, IllegalAction
from engine.ai import make_player
from engine.registry import CLASSES
from engine.views import CommonView, HandKeys

CASES = [
    (name, players)
    for name, spec in engine.GAMES.items()
    for players in range(spec.min_players, spec.max_players + 1)
]
IDS = [f"{name}-{players}" for name, players in CASES]
#: Actions per walk: a few deals of the trick games, most of a TroiKuntza round.
STEPS = 120
#: Refused whatever the game: not actions at all.
GARBAGE = ["", "xyzzy", "frobnicate the deck", "play", "zz9 play", "!!!"]
#: Random games per game, spread over its player counts (at least 2 per count): a game with
#: one count still meets several option sets (Troeven's two versions, Troika's kitty).
GAMES_PER_GAME = 8


def contract(test: Callable[[str, int, st.DataObject], None]) -> Callable[[str, int], None]:
    """Run ``test(name, players, data)`` as a hypothesis test with this game's example count."""

    @pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
    def run(name: str, players: int) -> None:
        spec = engine.GAMES[name]
        counts = spec.max_players - spec.min_players + 1
        examples = max(2, GAMES_PER_GAME // counts)
        settings(
            max_examples=examples,
            deadline=None,
            suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
        )(given(data=st.data())(lambda data: test(name, players, data)))()

    run.__name__, run.__doc__ = test.__name__, test.__doc__
    return run


@st.composite
def new_games(draw: st.DrawFn, name: str, players: int) -> tuple[dict[str, Any], int]:
    """Random options from the game's schema and a seed, that the game accepts for this player
    count (some values do not fit every count: a first dealer past the last seat, say)."""
    spec = engine.GAMES[name]
    schema = {o.name: st.sampled_from(o.values()) for o in spec.options}
    options, seed = draw(st.fixed_dictionaries(schema)), draw(st.integers(0, 2**40))
    try:
        engine.new_game(name, players, options=options, seed=seed)
    except IllegalAction:
        assume(False)
    return options, seed


def strings(value: Any) -> set[str]:
    """Every string value inside a view or an event (dict keys are field names: left out)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return {s for v in value.values() for s in strings(v)}
    if isinstance(value, list | tuple):
        return {s for v in value for s in strings(v)}
    return set()


def documented_view(cls: type[Game]) -> type:
    """The ``TypedDict`` a game's ``view`` returns (its ``<Name>View``)."""
    documented = typing.get_type_hints(cls.view).get("return")
    assert typing.is_typeddict(documented), (
        f"{cls.__name__}.view must return its <Name>View TypedDict, not {documented}"
    )
    return documented


def documented_events(cls: type[Game]) -> dict[str, type]:
    """The ``TypedDict`` of each kind of event a game gives: ``EVENTS`` of the ``events``
    module beside its game class (``engine/<game>/events.py``)."""
    package = cls.__module__.rpartition(".")[0]
    return importlib.import_module(f"{package}.events").EVENTS  # type: ignore[no-any-return]


def fits(value: Any, hint: Any) -> bool:
    """Whether JSON ``value`` is of the type ``hint`` of an events module says (the few forms
    they use: plain types, ``X | None``, ``Literal``, ``list[X]`` and nested ``TypedDict``s)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any:
        return True
    if hint is type(None):
        return value is None
    if origin is typing.Literal:
        return value in args
    if origin in (types.UnionType, typing.Union):
        return any(fits(value, h) for h in args)
    if origin is list:
        return isinstance(value, list) and all(fits(v, args[0]) for v in value)
    if typing.is_typeddict(hint):
        return isinstance(value, dict) and not mismatches(value, hint)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, hint)


def mismatches(value: dict[str, Any], documented: Any) -> list[str]:
    """How ``value`` differs from the ``TypedDict`` ``documented``: missing, extra or ill-typed
    keys (empty when it fits)."""
    hints = typing.get_type_hints(documented)
    found = [f"lacks {k!r}" for k in sorted(documented.__required_keys__ - set(value))]
    found += [f"has undocumented {k!r}" for k in sorted(set(value) - set(hints))]
    found += [f"{k!r} is {v!r}" for k, v in value.items() if k in hints and not fits(v, hints[k])]
    return found


def check_events(game: Game, events: list[dict[str, Any]]) -> None:
    """Every event is of a documented kind and fits that kind's ``TypedDict``."""
    documented = documented_events(type(game))
    for event in events:
        json.dumps(event)
        kind = event.get("type")
        assert kind in documented, f"undocumented event kind {kind!r}: {event}"
        wrong = mismatches(event, documented[kind])
        assert not wrong, f"{kind} event {event}: {'; '.join(wrong)}"


def random_move(game: Game, rng: random.Random) -> tuple[int, str]:
    seat = rng.choice(game.to_act())
    return seat, rng.choice(game.legal_actions(seat))


def check_refused(game: Game, seat: Any, action: Any) -> None:
    """``action`` by ``seat`` is refused and changes nothing."""
    before = game.to_json()
    with pytest.raises(IllegalAction):
        game.apply(seat, action)
    assert game.to_json() == before, f"refused {action!r} by seat {seat!r} changed the game"


def check_actions(game: Game, pool: set[str]) -> None:
    """Listed actions are accepted (each changes the game), everything else is refused and
    leaves the game as it was."""
    snapshot = game.to_json()
    waiting = game.to_act()
    assert waiting and len(set(waiting)) == len(waiting), f"to_act {waiting} while not over"
    listed: dict[int, list[str]] = {}
    for seat in range(game.players):
        legal = game.legal_actions(seat)
        if seat not in waiting:
            assert legal == [], f"seat {seat} is not to act but may {legal}"
            continue
        assert legal, f"seat {seat} is to act but has no listed action"
        assert len(set(legal)) == len(legal), f"seat {seat} has duplicates in {legal}"
        listed[seat] = legal
        for action in legal:
            copy = engine.load(snapshot)
            events = copy.apply(seat, action)
            assert copy.to_json() != snapshot, f"{action!r} by seat {seat} changed nothing"
            for event in events:
                assert isinstance(event, dict) and isinstance(event.get("type"), str), event
                json.dumps(event)
        pool.update(legal)
    seat = waiting[0]
    some_listed = listed[seat][0]
    for action in GARBAGE:
        check_refused(game, seat, action)
    check_refused(game, seat, None)
    for verb in sorted({action.split(" ")[0] for action in listed[seat]}):
        check_refused(game, seat, f"{verb} zz9 zz9")
    for bad_seat in (-1, game.players, "0", None):
        check_refused(game, bad_seat, some_listed)
    for other in range(game.players):
        if other not in waiting:
            check_refused(game, other, some_listed)
    # Actions listed earlier in this game (other phases, other seats' cards) but not now: a
    # game may list only examples of some actions (TroiKuntza's melds), so these may be
    # accepted; when refused they must change nothing.
    unlisted = sorted(pool - set(listed[seat]))
    for action in random.Random(snapshot).sample(unlisted, min(4, len(unlisted))):
        copy = engine.load(snapshot)
        try:
            copy.apply(seat, action)
        except IllegalAction:
            assert copy.to_json() == snapshot, f"refused {action!r} changed the game"
    assert game.to_json() == snapshot


def check_views(game: Game, name: str) -> tuple[list[dict[str, Any]], set[str]]:
    """Every view carries its documented keys and no hidden card; returns the seats' views and
    the strings the spectator sees."""
    documented = documented_view(type(game))
    required = set(CommonView.__required_keys__) | set(documented.__required_keys__)
    allowed = required | set(documented.__optional_keys__)
    assert set(HandKeys.__optional_keys__) <= allowed
    spectator = game.view(None)
    views = [game.view(seat) for seat in range(game.players)]
    for seat, view in zip([None, *range(game.players)], [spectator, *views], strict=True):
        json.dumps(view)
        keys = set(view)
        assert required <= keys, f"view of {seat} lacks {sorted(required - keys)}"
        assert keys <= allowed, f"view of {seat} has undocumented {sorted(keys - allowed)}"
        assert (view["game"], view["seat"], view["players"]) == (name, seat, game.players)
        assert view["to_act"] == game.to_act()
        assert ("hand" in view) == (seat is not None), f"hand in the view of {seat}"
    public = strings(spectator)
    hands = [set(view["hand"]) for view in views]
    for seat, view in enumerate(views):
        outside_hand = strings({k: v for k, v in view.items() if k != "hand"})
        assert public <= outside_hand, f"the spectator sees {public - outside_hand}, {seat} not"
        seen = strings(view)
        for other, hand in enumerate(hands):
            if other != seat:
                leaked = seen & (hand - hands[seat] - public)
                assert not leaked, f"seat {seat} sees {sorted(leaked)} in the hand of {other}"
    return views, public


def check_private_events(
    events: list[dict[str, Any]], views: list[dict[str, Any]], public: set[str]
) -> None:
    """A private event's cards show in no other seat's view (unless the spectator sees them or
    that seat holds the same card: doubled decks)."""
    for event in events:
        owner = event.get("private_to")
        if owner is None:
            continue
        assert owner in range(len(views)), event
        secret = strings({k: v for k, v in event.items() if k != "type"}) - public
        for seat, view in enumerate(views):
            if seat != owner:
                leaked = (strings(view) & secret) - set(view["hand"])
                assert not leaked, f"seat {seat} sees {sorted(leaked)} of {event}"


@contract
def test_every_step_keeps_the_contract(name: str, players: int, data: st.DataObject) -> None:
    options, seed = data.draw(new_games(name, players))
    game = engine.new_game(name, players, options=options, seed=seed)
    rng = random.Random(seed)
    pool: set[str] = set()
    views, public = check_views(game, name)
    check_private_events([], views, public)
    for _ in range(STEPS):
        if game.is_over():
            assert game.to_act() == [] and game.result()["winners"]
            break
        check_actions(game, pool)
        events = game.apply(*random_move(game, rng))
        check_events(game, events)
        views, public = check_views(game, name)
        check_private_events(events, views, public)


@contract
def test_a_game_loaded_from_json_continues_identically(
    name: str, players: int, data: st.DataObject
) -> None:
    options, seed = data.draw(new_games(name, players))
    cut = data.draw(st.integers(0, STEPS))
    game = engine.new_game(name, players, options=options, seed=seed)
    rng = random.Random(seed)
    for _ in range(cut):
        if game.is_over():
            break
        game.apply(*random_move(game, rng))
    copy = engine.load(game.to_json())
    assert copy == game and copy.to_json() == game.to_json()
    for _ in range(STEPS):
        if game.is_over():
            break
        seat, action = random_move(game, rng)
        assert copy.apply(seat, action) == game.apply(seat, action)
        assert copy.to_json() == game.to_json()
        assert all(copy.view(s) == game.view(s) for s in [None, *range(players)])
    assert copy.is_over() == game.is_over()


@contract
def test_the_same_seed_gives_the_same_game(name: str, players: int, data: st.DataObject) -> None:
    options, seed = data.draw(new_games(name, players))
    first = engine.new_game(name, players, options=options, seed=seed)
    second = engine.new_game(name, players, options=options, seed=seed)
    assert first.to_json() == second.to_json()
    rng = random.Random(seed)
    for _ in range(STEPS):
        if first.is_over():
            break
        seat, action = random_move(first, rng)
        assert first.apply(seat, action) == second.apply(seat, action)
    assert first.to_json() == second.to_json()
    # Without a seed one is drawn and stored: the game is still replayable from its JSON.
    unseeded = engine.new_game(name, players, options=options)
    assert engine.new_game(name, players, options=options, seed=unseeded.seed) == unseeded


def test_every_game_is_checked() -> None:
    """Each registered game takes part with each of its player counts; its class is named
    ``<Name>Game`` and its view is documented by a TypedDict."""
    assert {name for name, _ in CASES} == set(engine.GAMES)
    for name, spec in engine.GAMES.items():
        counts = [players for game, players in CASES if game == name]
        assert counts == list(range(spec.min_players, spec.max_players + 1))
        cls = CLASSES[name]
        assert cls.__name__.endswith("Game") and cls.spec is spec
        documented_view(cls)
        for kind, documented in documented_events(cls).items():
            assert typing.is_typeddict(documented), f"{name} event {kind}: not a TypedDict"
            assert typing.get_type_hints(documented)["type"] == typing.Literal[kind]


@pytest.mark.parametrize("name", sorted(engine.GAMES))
def test_whole_games_give_only_documented_events(name: str) -> None:
    """Whole games played by the ``normal`` AI at every table size (the random walks above
    stop early, and random players may never end a game): the kinds of the end of a deal and
    of a game are checked too, and most kinds are met."""
    spec = engine.GAMES[name]
    low, high = spec.min_players, spec.max_players
    if spec.player_range is not None:  # (the sizes its default options allow)
        low, high = spec.player_range(spec.defaults())
    met: set[str] = set()
    for players in range(low, high + 1):
        game = engine.new_game(name, players, seed=players)
        bots = [make_player(name, "normal", players * 10 + s) for s in range(players)]
        for _ in range(20_000):
            if game.is_over():
                break
            seat = game.to_act()[0]
            action = bots[seat].choose(game.view(seat), game.legal_actions(seat))
            events = game.apply(seat, action)
            check_events(game, events)
            met.update(e["type"] for e in events)
    assert {"hand_over", "game_over"} <= met
    assert len(met) >= len(documented_events(CLASSES[name])) // 2, sorted(met)


def test_the_event_check_catches_an_undocumented_key_or_type() -> None:
    game = engine.new_game("troika", 4, seed=1)
    check_events(game, [{"type": "pass", "seat": 1}])
    for bad in (
        {"type": "pass", "seat": 1, "extra": 2},
        {"type": "pass"},
        {"type": "pass", "seat": "1"},
        {"type": "pass", "seat": True},
        {"type": "bid", "seat": 1, "bid": ["7"]},
        {"type": "no_such_kind"},
    ):
        with pytest.raises(AssertionError):
            check_events(game, [bad])


def hidden_hands_case() -> tuple[str, int, Game]:
    """The first game whose seat 1's hand is hidden from the spectator at the start (in some
    games a hand lies face up on the table)."""
    for name, players in CASES:
        game = engine.new_game(name, players, seed=7)
        if set(game.view(0).get("hand") or []) - strings(game.view(None)):
            return name, players, game
    raise AssertionError("no game hides its hands")


@pytest.mark.parametrize("to_spectator", [False, True], ids=["to-seats", "to-spectator"])
def test_the_view_check_catches_a_hand_shown_to_others(to_spectator: bool) -> None:
    """A view that shows the seats' hands to the other seats, or to the spectator, fails."""
    name, players, game = hidden_hands_case()
    cls = type(game)
    plain_view = cls.view

    @functools.wraps(plain_view)
    def leaky_view(self: Game, seat: int | None) -> Any:
        view = dict(plain_view(self, seat))
        if (seat is None) == to_spectator:
            view["hand_sizes"] = [plain_view(self, s)["hand"] for s in range(self.players)]
        return view

    check_views(game, name)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cls, "view", leaky_view)
        with pytest.raises(AssertionError, match="sees"):
            check_views(game, name)


def test_the_refusal_check_catches_a_refusal_that_changes_the_game() -> None:
    name, players = CASES[0]
    game = engine.new_game(name, players, seed=7)
    check_refused(game, 0, "xyzzy")

    def careless_apply(self: Game, seat: Any, action: Any) -> Any:
        self.state["rng_counter"] = self.state.get("rng_counter", 0) + 1
        raise IllegalAction("game.over")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(type(game), "apply", careless_apply)
        with pytest.raises(AssertionError, match="changed the game"):
            check_refused(game, 0, "xyzzy")
