"""Every refusal the engine can give, as a key and an English template: the table translators use.

This module holds the shared keys and the machinery; each game's package registers its own
templates (``engine/<game>/refusals.py``, through ``add_templates``) and the words its values are
written with (``add_words``: Troggu's suits, TroiKuntza's contracts): it names no game.

An ``IllegalAction`` carries a key of ``TEMPLATES`` and the values of its fields
(``error.key``, ``error.params``); ``str(error)`` is the English sentence, rendered here. To say
a refusal in another language, render ``TEMPLATES_<lang>[error.key]`` with the same params:
the key and its params are all a translation needs. Keys are stable: change a key only with its
translations. Shared keys (``card``, ``seat``, ``turn``, ``game``, ``options``, ``players``,
``deck``, ``action``, ``trick``) serve several games; the others are namespaced by game (each in
its package's ``refusals``).

Templates are ``str.format`` strings with named fields. Param values are JSON-safe: strings,
ints, and lists of strings or ints. A field may carry a style after a colon saying how the
English rendering writes the value; a translation picks its own words for the same value:

- ``{x:list}``: a list, items joined with ``, ``; ``{x:code}``: each item in backticks (what the
  player types), joined with ``, ``; ``{x:code_or}``: in backticks, joined with `` or ``;
  ``{x:space}``: joined with spaces (the cards of one meld).
- ``{x:seats}``: a list of seat numbers, each written ``seat N``, joined with ``, ``.
- ``{x:suit}``: a suit code (``S H D C``; Troggu ``CU CO SW BA``) written as its English name.
- ``{x:contract}``: a TroiKuntza contract code (``TT``, ``TR``, ``RRT``: ``T`` a Troika of 3+
  cards of one rank, ``R`` a Run of 4+ in one suit), written ``2 Troikas and 1 Run``.
- ``{x:etc}``: an int, the number of further choices not listed; ``, ...`` when above 0.

What the fields hold, wherever they occur:

- ``card``: a card code as the game shows it (``5H``, ``JK``; Troggu in lower case, ``k-cu``,
  ``t12``, ``fool``); ``cards``: a list of such codes (the cards the player may choose, or the
  cards of a meld).
- ``text``, ``kind``, ``meld``: what the player typed, quoted back as he typed it.
- ``actions``, ``bids``: lists of complete actions as the player types them (``bid 7 no``,
  ``pass``, ``play 5h``); ``example``: one such action or card.
- ``bid``, ``high``, ``next``, ``lowest``: Troika bids in their typed form (``7``, ``7 no``,
  ``7 no low``): the bid refused, the high bid, the lowest bid that is enough, the lowest bid.
- ``suit`` (a suit led or held), ``trump`` (the trump suit): suit codes (style ``suit``).
- ``contract``: a TroiKuntza contract code (style ``contract``); ``count``: a number of cards,
  melds or players as the sentence says; ``number``: a meld's number (1 = the first meld laid).
- ``seat``: a seat number (0 = the first seat; anything else the caller passed, as text);
  ``seats``: a list of seat numbers; ``players``: a player count; ``last``: the highest seat
  number at the table.
- ``game``: a game's title (``Troika``, ``2-Player Troeven``, ``Troggu``, ``TroiKuntza``);
  ``games``: game names as typed in commands; ``option``, ``options``, ``preset``, ``presets``:
  option and preset names as typed; ``value``: an option value as typed (``on``, ``off``,
  ``random``, a number or a word); ``allowed``: the values an option takes (``on/off``, a range
  ``1-50``, or words and numbers).
- ``low``, ``high`` (in ``players.range`` and ``troika.bid_range``): the bounds of a range;
  ``decks``: a number of card decks; ``limit``: May Is a player may complete per round;
  ``taken``: the card the player took from the discard pile this turn; ``missing``, ``twice``:
  the cards missing from a stacked deck, and those in it more than once; ``more``: see ``etc``.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from typing import Any

#: A param value: JSON-safe, so the bot can store and translate a refusal.
Param = str | int | list[str] | list[int]

#: The English text of every refusal the engine gives, by key.
TEMPLATES: dict[str, str] = {
    # -- shared: starting a game ---------------------------------------------------------------
    "game.unknown": "There is no game `{text}`. Games: {games:list}.",
    "options.bad_value": "{value} is not a value of option `{option}`: allowed: {allowed:list}.",
    "options.unknown": "{game} has no option `{option}`. Its options: {options:list}.",
    "options.unknown_preset": "{game} has no preset `{preset}`. Presets: {presets:list}.",
    "options.no_presets": "{game} has no preset `{preset}`. Presets: none.",
    "players.exact": "{game} is played by {count} players, not {players}.",
    "players.range": "{game} is played by {low} to {high} players, not {players}.",
    "deck.stacked_missing": (
        "A stacked {game} deck must hold each of the {count} cards once; missing: {missing:list}."
    ),
    "deck.stacked_twice": (
        "A stacked {game} deck must hold each of the {count} cards once; twice: {twice:list}."
    ),
    "deck.stacked_missing_twice": (
        "A stacked {game} deck must hold each of the {count} cards once; missing: {missing:list}; "
        "twice: {twice:list}."
    ),
    # -- shared: any move ----------------------------------------------------------------------
    "action.not_text": "An action is a few words, such as `pass` or `play 5H`.",
    "seat.unknown": "There is no seat {seat} at this table.",
    "game.over": "The game is over.",
    "turn.not_yours": "It is not your turn: waiting for {seats:seats}.",
    "turn.nobody": "It is not your turn: waiting for nobody.",
    "card.not_a_suit": "`{text}` is not a suit. Suits: S (spades), H (hearts), D, C.",
    "card.not_a_card": (
        "`{text}` is not a card. Type rank then suit, for example `AS`, `10H`, `5H`, `3S`."
    ),
    "trick.follow_suit": "You must follow suit: you hold {suit:suit}. Play one of: {cards:list}.",
}


#: The words the ``suit`` and ``contract`` styles write for each value (style -> value -> English).
#: The French suits are shared (``engine`` registers them); games add theirs (``add_words``).
WORDS: dict[str, dict[str, str]] = {"suit": {}, "contract": {}}


def add_words(style: str, words: Mapping[str, str]) -> None:
    """Say how style ``style`` (``suit``, ``contract``) writes each of ``words``' values in
    English. The same words again are harmless; other words for a known value are refused."""
    known = WORDS.setdefault(style, {})
    for value, text in words.items():
        if known.get(value, text) != text:
            raise ValueError(f"{style} {value!r} already reads {known[value]!r}")
    known.update(words)


class _English(string.Formatter):
    """``str.format`` with the styles of the module docstring."""

    def format_field(self, value: Any, format_spec: str) -> Any:
        if format_spec == "list":
            return ", ".join(str(v) for v in value)
        if format_spec == "code":
            return ", ".join(f"`{v}`" for v in value)
        if format_spec == "code_or":
            return " or ".join(f"`{v}`" for v in value)
        if format_spec == "space":
            return " ".join(str(v) for v in value)
        if format_spec == "seats":
            return ", ".join(f"seat {v}" for v in value)
        if format_spec in WORDS:
            return WORDS[format_spec][value]
        if format_spec == "etc":
            return ", ..." if value else ""
        return super().format_field(value, format_spec)


_ENGLISH = _English()


def styled(value: Any, style: str) -> str:
    """``value`` written in ``style`` (a style of the module docstring) as the English refusals
    write it: what a translation of that value starts from."""
    return str(_ENGLISH.format_field(value, style))


def named_values() -> dict[str, tuple[str, ...]]:
    """Every value the ``suit`` and ``contract`` styles write as words (suit codes, contract
    codes): so that each one's words can be translated ahead of use."""
    return {style: tuple(words) for style, words in WORDS.items()}


def _fields(template: str) -> frozenset[str]:
    return frozenset(name for _, name, _, _ in _ENGLISH.parse(template) if name)


#: The fields of each template (what a raise site must pass).
FIELDS: dict[str, frozenset[str]] = {key: _fields(t) for key, t in TEMPLATES.items()}


def add_templates(templates: Mapping[str, str]) -> None:
    """Add the refusals of a game (keys prefixed by its name): each game's package adds its own.

    Adding the same template again is harmless; another template under a known key is refused.
    """
    for key, template in templates.items():
        if TEMPLATES.get(key, template) != template:
            raise ValueError(f"refusal {key!r} already has another template")
    for key, template in templates.items():
        TEMPLATES[key] = template
        FIELDS[key] = _fields(template)


def _json_safe(value: Any) -> bool:
    if isinstance(value, list):
        return all(isinstance(v, str | int) for v in value)
    return isinstance(value, str | int)


def check(key: str, params: Mapping[str, Any]) -> None:
    """Raise ``ValueError`` unless ``key`` is in the table and ``params`` fill exactly its fields
    with JSON-safe values (a mistake of the engine's code, never of a player)."""
    if key not in TEMPLATES:
        raise ValueError(f"no refusal template {key!r}")
    if set(params) != FIELDS[key]:
        raise ValueError(f"refusal {key!r} takes {sorted(FIELDS[key])}, not {sorted(params)}")
    bad = [name for name, value in params.items() if not _json_safe(value)]
    if bad:
        raise ValueError(f"refusal {key!r}: {bad} are not strings, ints or lists of them")


def render(key: str, params: Mapping[str, Any]) -> str:
    """The English sentence of refusal ``key`` with ``params``."""
    return _ENGLISH.vformat(TEMPLATES[key], (), params)
