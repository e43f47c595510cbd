"""Engine events told in plain words: ``{"type": "play", "seat": 1, "card": "5H"}`` ->
``Bob plays 5♥``.

Only public events are narrated here: the caller drops every event that carries a
``private_to`` seat before it reaches a public message (``narrate`` refuses them too).
Unknown event types are told generically, so a new engine event never breaks the table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.render.cards import pretty, pretty_action, pretty_list, pretty_suit
from bot.service import seat_label

Names = Sequence[str]

#: Event types that only repeat what the table message already shows.
QUIET = frozenset({"turn", "deal_complete", "phase"})


def seat_name(names: Names, seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return "someone" if seat is None else seat_label(seat)


def scores_text(scores: Sequence[Any], labels: Sequence[str]) -> str:
    return ", ".join(f"{label} {score}" for label, score in zip(labels, scores, strict=False))


def score_labels(
    view: Mapping[str, Any] | None, names: Names, count: int | None = None
) -> list[str]:
    """Per-seat names, or team names when the scores are per team (Troika).

    ``count`` is the number of scores when there is no view to read it from (game over).
    """
    scores = list((view or {}).get("scores") or [])
    size = len(scores) or count or len(names)
    teams = (view or {}).get("teams")
    if teams and size == len(teams):
        return [" & ".join(seat_name(names, s) for s in team) for team in teams]
    if size == len(names):
        return list(names)
    if size == 2 and len(names) == 4:  # two scores at four seats: partners sit opposite
        return [f"{names[0]} & {names[2]}", f"{names[1]} & {names[3]}"]
    return [f"#{i + 1}" for i in range(size)]


def _cards(value: Any) -> str:
    if isinstance(value, str):
        return pretty(value)
    if isinstance(value, list):
        parts = []
        for item in value:
            if isinstance(item, Mapping) and "card" in item:
                parts.append(pretty(str(item["card"])))
            elif isinstance(item, Mapping) and isinstance(item.get("cards"), list):
                parts.append(pretty_list([str(c) for c in item["cards"]]) + " |")
            elif isinstance(item, list):
                parts.append(pretty_list([str(c) for c in item]))
            else:
                parts.append(pretty(str(item)))
        return " ".join(parts)
    return str(value)


def _bid(e: Mapping[str, Any], who: str) -> str:
    bid = e.get("bid") if e.get("bid") is not None else e.get("action", "")
    return f"{who} passes" if bid == "pass" else f"{who} bids {bid}"


def _mayi(e: Mapping[str, Any], who: str) -> str:
    card = f" {_cards(e['card'])}" if e.get("card") else " the discard"
    return f"{who} gets{card} by May I"


def _decline(e: Mapping[str, Any], who: str) -> str:
    card = f" {_cards(e['card'])}" if e.get("card") else " the discard"
    tail = "; the May I window stays open" if e.get("waiting") else ""
    return f"{who} declines{card}{tail}"


def _call(e: Mapping[str, Any], who: str) -> str:
    if e.get("card") is None:
        return f"{who} plays alone"
    return f"{who} calls {_cards(e['card'])} as partner"


def _trick(e: Mapping[str, Any], names: Names) -> str:
    winner = e.get("winner", e.get("seat"))
    text = f"{seat_name(names, winner)} wins the trick"
    if e.get("cards"):
        text += f" ({_cards(e['cards'])})"
    return text


def _hand_over(e: Mapping[str, Any], names: Names, labels: Sequence[str]) -> str:
    number = e.get("hand_number")
    head = f"Hand {number} over" if number else "Hand over"
    scores = e.get("scores")
    if isinstance(scores, list) and scores:
        return f"**{head}.** Scores: {scores_text(scores, labels)}"
    return f"**{head}.**"


def _game_over(e: Mapping[str, Any], names: Names, labels: Sequence[str]) -> str:
    winners = e.get("winners") or []
    who = ", ".join(seat_name(names, w) for w in winners) or "nobody"
    scores = e.get("scores")
    tail = f" Final scores: {scores_text(scores, labels)}" if isinstance(scores, list) else ""
    return f"🏆 **Game over: {who} won.**{tail}"


_SIMPLE: dict[str, Callable[[Mapping[str, Any], str], str]] = {
    "bid": _bid,
    "pass": lambda e, who: f"{who} passes",
    "play": lambda e, who: f"{who} plays {_cards(e.get('card', ''))}",
    "trump": lambda e, who: f"{who} names trumps: {pretty_suit(str(e.get('suit', '')))}",
    "discard": lambda e, who: f"{who} discards" + (f" {_cards(e['card'])}" if "card" in e else ""),
    "call": _call,
    "take": lambda e, who: f"{who} takes" + (f" {_cards(e['card'])}" if "card" in e else ""),
    "draw": lambda e, who: f"{who} draws from the stock",
    "mayi": _mayi,
    "mayi_call": lambda e, who: f"{who} calls May I",
    "mayi_pass": lambda e, who: f"{who} lets the discard go",
    "mayi_void": lambda e, who: "The May I calls are void: the discard was taken",
    "decline": _decline,
    "exposed": lambda e, who: f"{_cards(e.get('card', ''))} is now on the discard pile",
    "penalty": lambda e, who: f"{who} also takes a penalty card",
    "window_closed": lambda e, who: "The May I window closes",
    "out": lambda e, who: f"**{who} goes out!**",
    "reshuffle": lambda e, who: "The discard pile is shuffled into a new stock",
    "meld": lambda e, who: f"{who} lays down {_cards(e.get('melds', e.get('cards', [])))}".rstrip(
        " |"
    ),
    "layoff": lambda e, who: f"{who} lays off {_cards(e.get('card', ''))}"
    + (f" on meld {e['meld']}" if e.get("meld") is not None else ""),
    "kitty": lambda e, who: f"{who} takes the kitty",
    "discarded": lambda e, who: f"{who} discards a card face down",
    "thrown_in": lambda e, who: "Everybody passed: the hand is thrown in",
    "forced_tapp": lambda e, who: f"{who} must play a Tapp",
    "take_tapp": lambda e, who: f"{who} takes the Tapp",
    "tapp_to_pile": lambda e, who: f"The Tapp goes face down to {who}'s pile",
    "partner_revealed": lambda e, who: f"{who} is the partner!",
    "misdeal": lambda e, who: f"{who} throws the hand in (misdeal)",
    "turn_up": lambda e, who: f"{who}'s card under it turns up: {_cards(e.get('card', ''))}",
    "deal": lambda e, who: f"{who} deals" if who != "someone" else "New deal",
    "contract": lambda e, who: f"{who} takes the contract" + (
        f": {e.get('bid', e['contract'])}" if isinstance(e.get("contract"), str | int) else ""
    ),
}  # fmt: skip


def narrate(
    event: Mapping[str, Any],
    names: Names,
    labels: Sequence[str] | None = None,
) -> str | None:
    """One line for a public event, or None when it says nothing the table does not show."""
    if event.get("private_to") is not None:
        return None
    kind = str(event.get("type", ""))
    if kind in QUIET:
        return None
    labels = list(labels or names)
    seat = event.get("seat", event.get("dealer") if kind == "deal" else None)
    who = seat_name(names, seat)
    if kind == "trick":
        return _trick(event, names)
    if kind == "hand_over":
        return _hand_over(event, names, labels)
    if kind == "game_over":
        return _game_over(event, names, labels)
    if kind in _SIMPLE:
        return _SIMPLE[kind](event, who)
    return _generic(kind, event, who)


def _generic(kind: str, event: Mapping[str, Any], who: str) -> str:
    details = []
    for key, value in event.items():
        if key in {"type", "seat", "private_to"}:
            continue
        if isinstance(value, str | int | bool) or value is None:
            details.append(f"{key} {pretty_action(str(value))}")
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            details.append(f"{key} {_cards(value)}")
    words = kind.replace("_", " ")
    text = f"{who}: {words}" if event.get("seat") is not None else words.capitalize()
    return text + (f" ({', '.join(details)})" if details else "")


def narrate_action(action: str, who: str, source: str) -> str:
    """The move itself, when the engine's events do not tell it (fallback)."""
    tail = " (timed out: the AI moved)" if source == "timeout" else ""
    return f"{who}: {pretty_action(action)}{tail}"
