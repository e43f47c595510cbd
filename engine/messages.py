"""Every refusal the engine can give, as a key and an English template: the table translators use.

An ``IllegalAction`` carries a key of ``TEMPLATES`` and the values of its fields
(``error.key``, ``error.params``); ``str(error)`` is the English sentence, rendered here. To say
a refusal in another language, render ``TEMPLATES_<lang>[error.key]`` with the same params:
the key and its params are all a translation needs. Keys are stable: change a key only with its
translations. Shared keys (``card``, ``seat``, ``turn``, ``game``, ``options``, ``players``,
``deck``, ``action``, ``trick``) serve several games; the others are namespaced by game.

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
    # -- Troika --------------------------------------------------------------------------------
    "troika.not_in_deck": "{card} is not in the Troika deck.",
    "troika.now_bid": "Now you must bid or pass. You may: {actions:code}{more:etc}.",
    "troika.now_play": "Now you must play a card. You may: {actions:code}{more:etc}.",
    "troika.now_kitty": (
        "Now you must discard a card from the kitty exchange. You may: {actions:code}{more:etc}."
    ),
    "troika.not_held_play": (
        "You do not hold {card}. Now you must play a card. You may: {actions:code}{more:etc}."
    ),
    "troika.not_held_kitty": (
        "You do not hold {card}. Now you must discard a card from the kitty exchange. "
        "You may: {actions:code}{more:etc}."
    ),
    "troika.kitty_keeps_5h_3s": (
        "You may not discard {card}: 5H and 3S stay in play. Now you must discard a card from "
        "the kitty exchange. You may: {actions:code}{more:etc}."
    ),
    "troika.just_pass": "Just say `pass`.",
    "troika.dealer_must_bid": (
        "Everyone else passed, so the dealer must bid: bid at least `bid {lowest}` (any kind)."
    ),
    "troika.bid_too_low": (
        "`bid {bid}` does not beat the high bid, {high}. You must beat it (`bid {next}` or "
        "higher) or pass."
    ),
    "troika.bid_too_low_top": (
        "`bid {bid}` does not beat the high bid, {high}. Nothing beats it: pass."
    ),
    "troika.bid_below": (
        "`bid {bid}` is below the high bid, {high}. You must equal or beat it (`bid {next}` or "
        "higher) or pass."
    ),
    "troika.bid_below_top": "`bid {bid}` is below the high bid, {high}. Nothing beats it: pass.",
    "troika.misdeal_off": "This table does not allow misdeals.",
    "troika.misdeal_hand": (
        "Only a hand with no ace, no K/Q/J and neither 5H nor 3S may call a misdeal."
    ),
    "troika.misdeal_late": "A misdeal may only be called the first time you are asked to bid.",
    "troika.name_trumps": "Name trumps: `trump s`, `trump h`, `trump d` or `trump c`.",
    "troika.bid_number": "Say the number you bid, for example `bid 7` or `bid 7 no`.",
    "troika.bid_kind_unknown": (
        "`{kind}` is not a kind of bid. Say `bid 7` (trumps), `bid 7 no` (no trumps) or "
        "`bid 7 no low`."
    ),
    "troika.bid_range": "A bid is a number from {low} to {high}.",
    "troika.bid_kind_off": "This table does not play that kind of bid. You may say {bids:code}.",
    # -- 2-Player Troeven ----------------------------------------------------------------------
    "troeven.not_in_deck": "{card} is not in Troeven's deck: it has only A K Q J 10 9 8 7.",
    "troeven.trumps_named": (
        "Trumps are already named: {trump:suit}. Play a card, for example `{example}`."
    ),
    "troeven.play_how": (
        "Play a card with `play <card>`, for example `play 10h`. You may play: {cards:list}."
    ),
    "troeven.name_trumps_first": (
        "First name trumps: type `trump s`, `trump h`, `trump d` or `trump c`."
    ),
    "troeven.not_held": "{card} is not in your hand. Play one of: {cards:list}.",
    "troeven.not_face_up": "{card} is not one of your face-up cards. Play one of: {cards:list}.",
    "troeven.follow_suit_face_up": (
        "You must follow suit: you hold {suit:suit} face up. Play one of: {cards:list}."
    ),
    "troeven.follow_or_trump": (
        "You must follow suit or play a trump ({trump:suit}): you hold {suit:suit}. "
        "Play one of: {cards:list}."
    ),
    "troeven.follow_or_trump_face_up": (
        "You must follow suit or play a trump ({trump:suit}): you hold {suit:suit} face up. "
        "Play one of: {cards:list}."
    ),
    "troeven.must_trump": (
        "You have no {suit:suit}, so you must play a trump ({trump:suit}). "
        "Play one of: {cards:list}."
    ),
    # -- Troggu --------------------------------------------------------------------------------
    "troggu.not_a_card": (
        "`{text}` is not a Troggu card. Type rank then suit, such as `K-CU`, `1-CO`, `10-BA` "
        "(suits CU, CO, SW, BA; ranks K Q N J and pips), a trump `T1`..`T21` (or `XXI`), "
        "or `FOOL`."
    ),
    "troggu.first_dealer": "first_dealer must be a seat from 0 to {last} at a table of {players}.",
    "troggu.now_play": (
        "Now you play a card, for example `play {example}`. You may play: {cards:list}."
    ),
    "troggu.now_discard": (
        "Now you discard a card, for example `discard {example}`. You may discard: {cards:list}."
    ),
    "troggu.bid_choices": "You may bid: {bids:list}.",
    "troggu.bid_after_tapp": "You may bid (after a Tapp only Pass or Solo): {bids:list}.",
    "troggu.discard_not_held": "You do not hold {card}. You may discard: {cards:list}.",
    "troggu.discard_kept": (
        "You may not discard {card}: the Fool, XXI, I and Kings stay in your hand. "
        "You may discard: {cards:list}."
    ),
    "troggu.discard_kept_kings": (
        "You may not discard {card}: the Fool, XXI, I and Kings stay in your hand (Kings only "
        "if you hold all four). You may discard: {cards:list}."
    ),
    "troggu.call_how": (
        "Now call a partner's trump or play alone: `call none` to play alone, or `call t2` .. "
        "`call t20`."
    ),
    "troggu.not_callable": (
        "You may not call {card}: call a trump other than the Fool, XXI and I (`call none` to "
        "play alone, or `call t2` .. `call t20`)."
    ),
    "troggu.not_held": "You do not hold {card}. Play one of: {cards:list}.",
    "troggu.fool_held": (
        "You held the Fool back: it stays in your hand until the last trick. "
        "Play one of: {cards:list}."
    ),
    "troggu.must_trump": (
        "You have no {suit:suit}, so you must play a trump. Play one of: {cards:list}."
    ),
    "troggu.trumps_led": (
        "Trumps were led and you hold trumps: you must play one. Play one of: {cards:list}."
    ),
    # -- TroiKuntza ----------------------------------------------------------------------------
    "troikuntza.decks_too_few": (
        "{decks} decks are too few for {players} players: use `decks` auto or more."
    ),
    "troikuntza.first_dealer": "`first_dealer` must be a seat from 0 to {last}.",
    "troikuntza.stacked_foreign": "The stacked deck holds cards that are not in the decks.",
    "troikuntza.your_turn": "It is your turn: `take` the discard or `draw` from the stock.",
    "troikuntza.start_turn": "Start your turn: {actions:code_or}.",
    "troikuntza.window_open": "The May I window is open: say `mayi` for the discard, or `pass`.",
    "troikuntza.now_layoff": "Now `layoff <card> <meld number>` or `discard <card>`.",
    "troikuntza.now_discard": "Now `discard <card>` (you came out this turn).",
    "troikuntza.now_meld": "Now `meld` your contract ({contract:contract}) or `discard <card>`.",
    "troikuntza.discard_empty": "The discard pile is empty: `draw` from the stock.",
    "troikuntza.no_window": "No May I window is open.",
    "troikuntza.already_out": (
        "You have already come out this round: lay off with `layoff <card> <meld>`."
    ),
    "troikuntza.meld_how": (
        "Type your whole contract ({contract:contract}) with `|` between melds, e.g. "
        "`meld 7h 7s 7c | qh qd jk`."
    ),
    "troikuntza.not_held_enough": "You don't hold {cards:list} (enough times).",
    "troikuntza.meld_count": (
        "This round's contract is {contract:contract}: exactly {count} melds separated by `|`."
    ),
    "troikuntza.not_a_meld": (
        "`{cards:space}` is not a meld: a Troika is 3+ cards of one rank, a Run 4+ cards in "
        "sequence in one suit (jokers wild, at least one natural card)."
    ),
    "troikuntza.melds_wrong_majority": (
        "These melds don't make {contract:contract} with at least as many natural cards as "
        "jokers in each (two runs of one suit must not overlap)."
    ),
    "troikuntza.melds_wrong": (
        "These melds don't make {contract:contract} (two runs of one suit must not overlap)."
    ),
    "troikuntza.keep_discard": (
        "After coming out you must still discard a card (not the one you just took): keep one back."
    ),
    "troikuntza.come_out_first": (
        "You must come out first: `meld` your contract ({contract:contract})."
    ),
    "troikuntza.layoff_next_turn": (
        "You came out this turn: lay-offs wait for your next turn. Discard."
    ),
    "troikuntza.layoff_how": "Type `layoff <card> <meld number>`, e.g. `layoff 9h 2`.",
    "troikuntza.no_such_meld": "There is no meld {meld}: melds are 1 to {count}.",
    "troikuntza.not_held": "You don't hold {card}.",
    "troikuntza.low_high": "`low`/`high` only says where a joker goes on a run.",
    "troikuntza.layoff_no_fit": "{card} does not fit meld {number} ({cards:space}).",
    "troikuntza.layoff_final_discard": (
        "You can't lay off {card}: you must keep a card to discard (going out needs a final "
        "discard)."
    ),
    "troikuntza.layoff_no_discard": (
        "You can't lay off {card}: you would keep no card you may discard."
    ),
    "troikuntza.layoff_only_taken": (
        "You can't lay off {card}: you would keep only {taken}, which you took this turn: "
        "it may not be discarded and fits no meld."
    ),
    "troikuntza.discard_how": "Type `discard <card>`, e.g. `discard 5c`.",
    "troikuntza.discard_taken": (
        "You took {card} from the discard pile this turn: discard another card."
    ),
    "troikuntza.mayi_off": "May I is off at this table.",
    "troikuntza.mayi_used_one": "You have used your {limit} May I this round.",
    "troikuntza.mayi_used": "You have used your {limit} May Is this round.",
    "troikuntza.mayi_after_out": (
        "You have come out this round: at this table May I is then over for you."
    ),
    "troikuntza.mayi_own_discard": "Nobody may May I his own discard.",
}


def _suit_name(code: str) -> str:
    # Imported here: the card modules import the errors, which import this table.
    from engine.cards import SUIT_NAMES
    from engine.troggu.cards import SUIT_NAMES as TAROT_NAMES
    from engine.troggu.cards import SUITS as TAROT_SUITS

    return {**SUIT_NAMES, **dict(zip(TAROT_SUITS, TAROT_NAMES, strict=False))}[code]


def _contract_text(code: str) -> str:
    from engine.troikuntza.melds import describe_contract  # a game module: imported when used

    return describe_contract(code)


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
        if format_spec == "suit":
            return _suit_name(value)
        if format_spec == "contract":
            return _contract_text(value)
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
    from engine.cards import SUIT_NAMES
    from engine.troggu.cards import SUITS as TAROT_SUITS
    from engine.troikuntza.melds import CONTRACTS

    return {"suit": (*SUIT_NAMES, *TAROT_SUITS), "contract": tuple(CONTRACTS)}


def _fields(template: str) -> frozenset[str]:
    return frozenset(name for _, name, _, _ in _ENGLISH.parse(template) if name)


#: The fields of each template (what a raise site must pass).
FIELDS: dict[str, frozenset[str]] = {key: _fields(t) for key, t in TEMPLATES.items()}


def add_templates(templates: Mapping[str, str]) -> None:
    """Add the refusals of a game defined outside ``engine/`` (keys prefixed by its name).

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
