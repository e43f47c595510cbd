"""Seeded scenarios that provoke as many different engine refusals as we can think of.

``provoke(seeds, steps)`` walks random games of every game and player count (random options too)
and, at each state, tries garbage, other seats' legal actions, the to-act seat's verbs with cards
it may or may not play, and out-of-range seats; it also starts games with bad options, presets,
player counts and stacked decks. It returns ``(label, outcome)`` pairs, the outcome being the
``IllegalAction`` raised (or ``None`` when the attempt was accepted).

It uses only the public engine API, so the same scenarios run against an older engine: that is
how the refusal texts were checked to be unchanged when refusals became keyed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import engine
from engine import Game, GameSpec, IllegalAction

Outcome = IllegalAction | None

#: Refused whatever the game, or refused in some phase of some game.
GARBAGE = [
    "xyzzy",
    "pass",
    "pass now",
    "bid",
    "bid 7",
    "bid 7 no",
    "bid 13",
    "bid 12 no low",
    "bid 7 nope",
    "bid x",
    "misdeal",
    "trump",
    "trump q",
    "trump h",
    "play",
    "play zz",
    "play 5h",
    "play t5",
    "discard",
    "discard zz",
    "discard 5h",
    "discard 3s",
    "call",
    "call none",
    "call t21",
    "call t5",
    "call k-cu",
    "solo",
    "tapp",
    "take",
    "draw",
    "mayi",
    "may i",
    "close",
    "meld",
    "meld | 7h",
    "meld zz",
    "meld 7h 7s 7c",
    "meld 7h 7s 7c | qh qd jk",
    "meld 7h 7s 7c | 8h 9h 10h jh",
    "layoff",
    "layoff 9h",
    "layoff 9h 1",
    "layoff 9h 99",
    "layoff jk 1 low",
    "layoff 9h 1 high",
    "discard jk",
]

_RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
_STANDARD = [rank + suit for rank in _RANKS for suit in "SHDC"]
_TROGGU = (
    [f"T{n}" for n in range(1, 22)]
    + ["FOOL", "XXI"]
    + [
        f"{r}-{s}"
        for r in ["K", "Q", "N", "J", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
        for s in ("CU", "CO", "SW", "BA")
    ]
)
#: Option sets walked besides random ones: they reach phases random options seldom reach.
_OPTION_SETS: dict[str, list[dict[str, Any]]] = {
    "troika": [
        {"kitty": True, "misdeal": True, "auction": "open", "stick_dealer": True},
        {"misdeal": False, "auction": "single", "stick_dealer": True, "low": "always"},
    ],
    "troikuntza": [
        {"mayi_limit": 0},
        {"mayi_limit": 1, "mayi_after_out": False, "natural_majority": True},
        {"discard_to_go_out": True},
    ],
}


def _cards(name: str) -> list[str]:
    return _TROGGU if name == "troggu" else [*_STANDARD, "JK"]


def _attempt(run: Callable[..., Any], *args: Any, **kwargs: Any) -> Outcome:
    try:
        run(*args, **kwargs)
    except IllegalAction as error:
        return error
    return None


def _random_options(spec: Any, rng: random.Random) -> dict[str, Any]:
    return {o.name: rng.choice(o.values()) for o in spec.options if rng.random() < 0.5}


def _whole_deck(game: Game) -> list[str]:
    """Every card of the first deal's deck, read from the views (hands, kitty left out)."""
    cards: list[str] = []
    for seat in range(game.players):
        cards += [str(c) for c in game.view(seat).get("hand", [])]
    return cards


def _construction(seed: int) -> Iterator[tuple[str, Outcome]]:
    rng = random.Random(seed)
    new = engine.new_game
    yield "unknown game", _attempt(new, "nope", 4, seed=seed)
    bare = GameSpec(name="bare", title="Bare", min_players=2, max_players=2, options=())
    yield "no presets", _attempt(bare.resolve, "x")
    for name, spec in sorted(engine.GAMES.items()):
        for players in (0, 1, 3, 11):
            yield f"{name} players {players}", _attempt(new, name, players, seed=seed)
        yield f"{name} preset", _attempt(new, name, 4, seed=seed, preset="x")
        yield f"{name} option", _attempt(new, name, 4, seed=seed, options={"nope": 1})
        players = spec.default_players or spec.min_players
        for option in spec.options:
            for value in ("garbage", -7, 9999, None, True):
                yield (
                    f"{name} {option.name}={value!r}",
                    _attempt(new, name, players, seed=seed, options={option.name: value}),
                )
        dealt = _whole_deck(new(name, players, seed=seed))
        for label, deck in (
            ("one card", ["AS"]),
            ("garbage", ["zz", "AS"]),
            ("twice", _cards(name)[:10] * 9),
            ("shuffled", rng.sample(_cards(name), len(_cards(name)))),
            ("one more", [*dealt, dealt[0]]),
            ("one less", dealt[1:]),
            ("one swapped", [*dealt[1:], dealt[2]]),
        ):
            yield f"{name} deck {label}", _attempt(new, name, players, seed=seed, deck=deck)
        for first in (-1, players, 99):
            yield (
                f"{name} first_dealer {first}",
                _attempt(new, name, players, seed=seed, options={"first_dealer": first}),
            )
    yield (
        "troikuntza decks too few",
        _attempt(new, "troikuntza", 10, seed=seed, options={"decks": 2}),
    )


def _meld_tries(game: Game, seat: int, hand: list[str]) -> Iterator[str]:
    """TroiKuntza: melds made of the seat's own cards, in as many groups as the contract."""
    contract = getattr(game, "contract", "") if game.name == "troikuntza" else ""
    if not contract or len(hand) < 3:
        return
    n = len(contract)
    yield "meld " + " | ".join(" ".join(hand[i * 3 : i * 3 + 3]) for i in range(n))
    yield "meld " + " ".join(hand)
    by_rank: dict[str, list[str]] = {}
    for card in hand:
        by_rank.setdefault(card[:-1], []).append(card)
    sets = [cards for cards in by_rank.values() if len(cards) >= 3]
    if sets:
        yield "meld " + " | ".join(" ".join(cards) for cards in (sets * n)[:n])
        yield "meld " + " ".join(sets[0])
    for suggestion in game.legal_actions(seat):
        if suggestion.startswith("meld "):
            groups = suggestion[5:].split(" | ")
            yield "meld " + " | ".join(groups[::-1])
            yield "meld " + " | ".join(groups[:-1])
            yield "meld " + " | ".join(g.rsplit(" ", 1)[0] for g in groups)
            break


def _tries(game: Game, rng: random.Random) -> Iterator[tuple[int, Any]]:
    """The seats and actions to try in this state."""
    seats = list(range(game.players))
    waiting = game.to_act()
    for seat in seats:
        for action in GARBAGE:
            yield seat, action
    legal = {seat: game.legal_actions(seat) for seat in seats}
    for seat in seats:
        others = sorted({a for s, acts in legal.items() if s != seat for a in acts})
        for action in rng.sample(others, min(6, len(others))):
            yield seat, action
    cards = _cards(game.name)
    for seat in waiting[:2]:  # a May I window awaits many seats: two of them are enough
        hand = [str(c).lower() for c in game.view(seat).get("hand", [])]
        verbs = sorted({a.split(" ")[0] for a in legal[seat]} | {"discard"})
        for verb in verbs:
            for card in rng.sample(cards, 6) + hand:
                yield seat, f"{verb} {card.lower()}"
        for card in hand:
            for number in (1, 2, 3):
                yield seat, f"layoff {card} {number}"
            yield seat, f"call {card}"
        for action in _meld_tries(game, seat, hand):
            yield seat, action
    yield -1, "pass"
    yield game.players, "pass"
    yield 0, None


def _walk(
    name: str, players: int, seed: int, steps: int, options: dict[str, Any] | None
) -> Iterator[tuple[str, Outcome]]:
    """A random game; attempts at each of its first ``steps`` states, then at every tenth."""
    rng = random.Random(f"{name}/{players}/{seed}/{options}")
    spec = engine.GAMES[name]
    game = None
    for _ in range(20):
        chosen = options if options is not None else _random_options(spec, rng)
        try:
            game = engine.new_game(name, players, options=chosen, seed=seed)
            break
        except IllegalAction:
            continue
    if game is None:
        return
    label = f"{name}/{players}/{seed}/{options}"
    for step in range(steps * 10):
        if game.is_over():
            break
        if step < steps or step % 10 == 0:
            snapshot = game.to_json()
            for seat, action in _tries(game, rng):
                outcome = _attempt(game.apply, seat, action)
                if outcome is None:
                    game = engine.load(snapshot)
                yield f"{label} step {step} seat {seat} {action!r}", outcome
            if name == "troika":  # the only game that refuses a view of a seat it lacks
                yield f"{label} view", _attempt(game.view, players)
        seat = rng.choice(game.to_act())
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    if players != (spec.default_players or spec.min_players):
        return
    for _ in range(20_000):  # to the end (one player count: it takes long), for a finished game
        if game.is_over():
            break
        seat = rng.choice(game.to_act())
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    yield f"{label} over", _attempt(game.apply, 0, "pass")


def provoke(seeds: range, steps: int) -> Iterator[tuple[str, Outcome]]:
    """Every attempt and its outcome, in a fixed order for given seeds and steps."""
    for seed in seeds:
        yield from _construction(seed)
        for name, spec in sorted(engine.GAMES.items()):
            for players in range(spec.min_players, spec.max_players + 1):
                yield from _walk(name, players, seed, steps, None)
            for options in _OPTION_SETS.get(name, []):
                players = spec.default_players or spec.min_players
                yield from _walk(name, players, seed, steps, options)
