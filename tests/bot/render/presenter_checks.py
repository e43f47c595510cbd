"""What every presenter test checks, for any game: random complete games narrated for every
reader (two drivers: ``random_games`` yields each step, ``drive`` calls back and closes timed
windows), public text free of hidden cards, messages inside Discord's limits.

Import it as ``from presenter_checks import ...`` (pytest puts this folder on the path).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import engine
from bot.render.games.cards import face, pretty
from bot.render.presenter import Presenter, Seating, Section

NAMES = ("Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo")
#: Discord: 1,024 characters a field, 256 a field title; our own budget for one message.
FIELD_TEXT, FIELD_TITLE, MESSAGE_TEXT, MESSAGE_SECTIONS = 1024, 256, 5000, 20
#: Spectator view keys whose cards are not on the table now (the first-dealer draw comes from
#: its own shuffle): a card named there may be in a hand.
NOT_ON_TABLE = frozenset({"dealer_draw"})


def seating(
    players: int,
    viewer: int | None = None,
    options: Mapping[str, Any] | None = None,
    **extra: Any,
) -> Seating:
    return Seating(NAMES[:players], viewer, options=dict(options or {}), **extra)


def is_card(text: Any) -> bool:
    return (
        isinstance(text, str)
        and len(text) >= 2
        and face(text).family
        not in {
            "unknown",
            "hidden",
        }
    )


def cards_in(value: Any, skip: frozenset[str] = frozenset()) -> set[str]:
    """Every card code anywhere in a view or event (JSON data)."""
    found: set[str] = set()
    if isinstance(value, Mapping):
        for key, item in value.items():
            if key not in skip:
                found |= cards_in(item, skip)
    elif isinstance(value, list | tuple):
        for item in value:
            found |= cards_in(item, skip)
    elif is_card(value):
        found.add(str(value).upper())
    return found


def hidden_cards(game: engine.Game) -> set[str]:
    """Cards in some seat's hand that the spectator view does not show."""
    held: set[str] = set()
    for seat in range(game.players):
        held |= {str(c).upper() for c in game.view(seat).get("hand") or []}
    return held - cards_in(game.view(None), NOT_ON_TABLE)


def hidden_from(game: engine.Game, seat: int) -> set[str]:
    """Cards in another seat's hand that ``seat``'s own view does not show."""
    held: set[str] = set()
    for other in range(game.players):
        if other != seat:
            held |= {str(c).upper() for c in game.view(other).get("hand") or []}
    return held - cards_in(game.view(seat), NOT_ON_TABLE)


@lru_cache(maxsize=512)
def _printed(code: str) -> tuple[str, re.Pattern[str]]:
    shown = pretty(code)
    return shown, re.compile(rf"(?<![\w]){re.escape(shown)}(?![\w])")


def named_cards(text: str, codes: Iterable[str]) -> set[str]:
    """Which of ``codes`` the text names in their printed form (``K🏆``, ``10♥︎``, ``T2``): not
    inside a longer word (``0♥︎`` in ``10♥︎`` is not the card 0, ``T1`` in ``T12`` not T1)."""
    found = set()
    for code in codes:
        shown, pattern = _printed(code)
        if shown in text and pattern.search(text):  # the plain test first: it is cheap
            found.add(code)
    return found


def text_of(sections: Sequence[Section]) -> str:
    return "\n".join(f"{s.title}\n{s.text}" for s in sections)


def check_limits(sections: Sequence[Section]) -> None:
    assert len(sections) <= MESSAGE_SECTIONS, f"{len(sections)} sections"
    for s in sections:
        assert len(s.text) <= FIELD_TEXT, f"{s.title!r}: {len(s.text)} characters"
        assert len(s.title) <= FIELD_TITLE
    total = sum(len(s.title) + len(s.text) for s in sections)
    assert total <= MESSAGE_TEXT, f"{total} characters in one message"


@dataclass
class Step:
    """One action of a random game: the events it made and the hidden cards around it."""

    game: engine.Game
    seat: int
    action: str
    events: list[dict[str, Any]]
    hidden_before: set[str]
    hidden_after: set[str]
    legal: dict[int, list[str]] = field(default_factory=dict)


def random_games(
    name: str,
    players: int,
    options: Mapping[str, Any],
    seeds: Iterable[int],
    max_actions: int = 5000,
    choose: Callable[[engine.Game, int, list[str], random.Random], str] | None = None,
) -> Iterator[Step]:
    """Seeded random legal actions over ``engine.new_game`` until each game ends."""
    for seed in seeds:
        game = engine.new_game(name, players, options=dict(options), seed=seed)
        rng = random.Random(seed)
        for _ in range(max_actions):
            if game.is_over():
                break
            seat = rng.choice(game.to_act())
            legal = game.legal_actions(seat)
            action = choose(game, seat, legal, rng) if choose else rng.choice(legal)
            before = hidden_cards(game)
            events = game.apply(seat, action)
            yield Step(game, seat, action, events, before, hidden_cards(game))
        assert game.is_over(), f"{name} seed {seed} did not end in {max_actions} actions"


def public_moments(step: Step) -> Iterator[tuple[dict[str, Any], set[str]]]:
    """Each public event of a step with the cards hidden when it happened: before the action,
    less the cards played face up so far in it; after a new deal, the new deal's hidden cards."""
    hidden = set(step.hidden_before)
    for event in step.events:
        if event.get("type") == "deal":
            hidden = set(step.hidden_after)
        if event.get("private_to") is not None:
            continue
        if event.get("type") == "play" and is_card(event.get("card")):
            hidden.discard(str(event["card"]).upper())
        yield event, hidden


def narrate_everyone(
    presenter: Presenter, event: Mapping[str, Any], table: Seating
) -> dict[int | None, str | None]:
    """The event told to the public and to each seat (UnknownEvent propagates)."""
    told: dict[int | None, str | None] = {None: presenter.narrate(event, table)}
    for seat in range(len(table.names)):
        told[seat] = presenter.narrate(event, table.for_seat(seat))
    return told


#: ``on_step(game, seat, action, events, hidden)``: ``hidden`` is what was hidden before the
#: action and what is hidden after it (``hidden_cards``).
OnStep = Callable[[engine.Game, int, str, list[dict[str, Any]], "Hidden"], None]


class Hidden:
    """The cards hidden just before and just after one action."""

    def __init__(self, before: set[str], after: set[str]) -> None:
        self.before, self.after = before, after


def action_codes(action: str) -> set[str]:
    """The words of an action, as codes (the cards it names)."""
    return {word.upper() for word in action.replace("|", " ").split()}


def drive(
    game: engine.Game, rng: random.Random, on_step: OnStep, max_actions: int = 30_000
) -> None:
    """Random legal actions by random seats to the end of the game. When nobody to act has a
    legal action a timed window is pending (TroiKuntza's May I): its action closes it.
    ``on_step`` runs after each action."""
    hidden = hidden_cards(game)
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
        after = hidden_cards(game)
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
