"""Helpers for the presenter tests: a seeded random game driver, what is hidden at a moment,
the cards a text names, and Discord's limits on a message.

Import as ``from random_game_checks import ...`` (pytest puts this folder on the path).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

import engine
from bot.render.games.cards import pretty
from bot.render.presenter import Presenter, Seating, Section

NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo")

#: ``on_step(game, seat, action, events, hidden)``: ``hidden`` is what was hidden before the
#: action and what is hidden after it (``hidden_codes``).
Step = Callable[[engine.Game, int, str, list[dict[str, Any]], "Hidden"], None]


def seating(players: int, viewer: int | None = None, **extra: Any) -> Seating:
    return Seating(NAMES[:players], viewer, **extra)


class Hidden:
    """The cards hidden just before and just after one action."""

    def __init__(self, before: set[str], after: set[str]) -> None:
        self.before, self.after = before, after


def strings(value: Any) -> Iterable[str]:
    """Every string inside a view (keys' values, nested)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings(item)


def hidden_codes(game: engine.Game) -> set[str]:
    """Card codes held in some seat's hand that the spectator view does not show anywhere."""
    visible = {s.upper() for s in strings(game.view(None))}
    held = {str(c).upper() for seat in range(game.players) for c in game.view(seat)["hand"]}
    return held - visible


def hidden_from(game: engine.Game, seat: int) -> set[str]:
    """Card codes in other seats' hands that ``seat``'s own view does not show."""
    visible = {s.upper() for s in strings(game.view(seat))}
    held = {
        str(c).upper() for other in range(game.players) if other != seat
        for c in game.view(other)["hand"]
    }  # fmt: skip
    return held - visible


def action_codes(action: str) -> set[str]:
    """The words of an action, as codes (the cards it names)."""
    return {word.upper() for word in action.replace("|", " ").split()}


@lru_cache(maxsize=512)
def _printed(code: str) -> tuple[str, re.Pattern[str]]:
    shown = pretty(code)
    return shown, re.compile(rf"(?<![\w]){re.escape(shown)}(?![\w])")


def named_cards(text: str, codes: Iterable[str]) -> set[str]:
    """Which of ``codes`` the text names in their printed form (``K🏆``, ``10♥️``, ``T2``)."""
    found = set()
    for code in codes:
        shown, pattern = _printed(code)
        if shown in text and pattern.search(text):  # the plain test first: it is cheap
            found.add(code)
    return found


def section_text(sections: Sequence[Section]) -> str:
    return "\n".join(f"{s.title}\n{s.text}" for s in sections)


def check_limits(sections: Sequence[Section]) -> None:
    """Discord's limits as the presenters promise them for one message."""
    assert len(sections) <= 20, f"{len(sections)} sections"
    for s in sections:
        assert len(s.title) <= 256, s.title
        assert len(s.text) <= 1024, (s.title, len(s.text))
    total = sum(len(s.title) + len(s.text) for s in sections)
    assert total <= 5000, total


def drive(game: engine.Game, rng: random.Random, on_step: Step, max_actions: int = 30_000) -> None:
    """Random legal actions by random seats to the end of the game. When nobody to act has a
    legal action a timed window is pending (TroiKuntza's May I): its action closes it.
    ``on_step`` runs after each action."""
    hidden = hidden_codes(game)
    for _ in range(max_actions):
        if game.is_over():
            return
        waiting = game.to_act()
        moves = [(s, a) for s in waiting for a in game.legal_actions(s)]
        if moves:
            seat, action = rng.choice(moves)
        else:
            window = game.timed_window()
            assert window is not None, "nobody can act and no window is pending"
            seat, action = waiting[0], window.action
        events = game.apply(seat, action)
        after = hidden_codes(game)
        on_step(game, seat, action, events, Hidden(hidden, after))
        hidden = after
    raise AssertionError(f"the game did not end in {max_actions} actions")


def check_narration(
    presenter: Presenter,
    game: engine.Game,
    action: str,
    events: list[dict[str, Any]],
    hidden: Hidden,
    kinds: set[str],
    revealed_by_rules: frozenset[str] = frozenset(),
) -> None:
    """Every event is narrated for the public and for each private owner (no UnknownEvent);
    a private event says nothing in public or to another seat; public lines never name a card
    hidden both before and after the action (other than the cards the action itself names)."""
    players = game.players
    public = seating(players)
    secret = (hidden.before & hidden.after) - action_codes(action)
    for event in events:
        kinds.add(str(event["type"]))
        owner = event.get("private_to")
        line = presenter.narrate(event, public)
        if owner is not None:
            assert line is None, event
            other = (owner + 1) % players
            assert presenter.narrate(event, seating(players, other)) is None, event
            mine = presenter.narrate(event, seating(players, owner))
            assert mine is None or "You" in mine or "you" in mine, mine
            continue
        for viewer in range(players):
            presenter.narrate(event, seating(players, viewer))
        if line is not None and event["type"] not in revealed_by_rules:
            assert not named_cards(line, secret), (line, named_cards(line, secret))
