"""Helpers shared by the engine tests of every game (``tests.engine.play_helpers``).

They only use the public engine API (``to_act``, ``legal_actions``, ``apply``, ``to_json``,
``engine.load``), so any game can use them.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import engine
from engine import Game

Step = Callable[[Game, int, str, list[dict[str, Any]]], None]


def act(game: Game, *actions: str) -> list[dict[str, Any]]:
    """Apply each action for the (single) seat whose turn it is; returns all the events."""
    events: list[dict[str, Any]] = []
    for action in actions:
        waiting = game.to_act()
        assert waiting, f"nobody is to act, cannot apply {action!r}"
        events += game.apply(waiting[0], action)
    return events


def random_step(game: Game, rng: random.Random) -> tuple[int, str, list[dict[str, Any]]]:
    """One uniformly random legal action by a random seat among those to act."""
    seat = rng.choice(game.to_act())
    action = rng.choice(game.legal_actions(seat))
    return seat, action, game.apply(seat, action)


def play_random(
    game: Game,
    rng: random.Random,
    max_actions: int = 20_000,
    on_step: Step | None = None,
) -> list[tuple[int, str]]:
    """Play random legal actions until the game ends (or ``max_actions``); returns the moves.

    ``on_step(game, seat, action, events)`` runs after every action (for invariant checks).
    """
    moves: list[tuple[int, str]] = []
    while not game.is_over() and len(moves) < max_actions:
        seat, action, events = random_step(game, rng)
        moves.append((seat, action))
        if on_step is not None:
            on_step(game, seat, action, events)
    return moves


def play_until(
    game: Game, rng: random.Random, event_type: str, max_actions: int = 20_000
) -> list[dict[str, Any]]:
    """Random legal actions until an event of ``event_type`` (e.g. ``hand_over``); its events."""
    events: list[dict[str, Any]] = []
    for _ in range(max_actions):
        events += random_step(game, rng)[2]
        if any(e["type"] == event_type for e in events) or game.is_over():
            return events
    raise AssertionError(f"no {event_type} event after {max_actions} actions")


def assert_card_conservation(zones: Iterable[Iterable[Any]], deck: Iterable[Any]) -> None:
    """Every card of ``deck`` is in exactly one of ``zones`` (a multiset, for doubled decks)."""
    held: Counter[Any] = Counter()
    for zone in zones:
        held.update(zone)
    expected = Counter(deck)
    missing = expected - held
    extra = held - expected
    assert not missing and not extra, f"missing {dict(missing)}, extra {dict(extra)}"


def stack_deck(
    deck: Sequence[str],
    players: int,
    hand_size: int,
    dealer: int,
    hands: dict[int, Sequence[str]],
    tail: Sequence[str] = (),
) -> list[str]:
    """The ``deck=`` order that deals ``hands`` (seat -> codes) one card at a time from the
    player after the dealer; seats not given get the remaining cards, and ``tail`` (the
    undealt cards: a kitty, a stock) comes last, in order.
    """
    fixed = [c for cards in hands.values() for c in cards] + list(tail)
    assert len(set(fixed)) == len(fixed), "a card is given twice"
    assert all(c in deck for c in fixed), "a card is not in the deck"
    spare = [c for c in deck if c not in fixed]
    full: dict[int, list[str]] = {}
    for seat in range(players):
        cards = list(hands.get(seat, ()))
        while len(cards) < hand_size:
            cards.append(spare.pop(0))
        full[seat] = cards
    rest = spare + list(tail)
    order: list[str] = []
    for k in range(hand_size):
        for j in range(players):
            order.append(full[(dealer + 1 + j) % players][k])
    return order + rest


def stacked_game(
    name: str,
    players: int,
    full_deck: Sequence[str],
    hand_size: int,
    dealer: int,
    hands: dict[int, Sequence[str]] | None = None,
    tail: Sequence[str] = (),
    seed: int = 1,
    preset: str | None = None,
    **options: Any,
) -> Game:
    """A game whose first deal gives ``hands`` (see ``stack_deck``), with ``first_dealer`` set."""
    deck = stack_deck(full_deck, players, hand_size, dealer, hands or {}, tail)
    options = {"first_dealer": dealer, **options}
    return engine.new_game(name, players, options=options, seed=seed, deck=deck, preset=preset)
