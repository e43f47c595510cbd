"""The 62-card Swiss Tarot deck as small ints, with every per-card fact precomputed in tables.

Card ints are in display order: Cups, Coins, Swords, Batons (each high to low), then the Fool,
then the trumps XXI down to I. The state stores ints; views and events show the codes
(``K-CU``, ``1-CO``, ``10-BA``, ``T21``, ``FOOL``); actions use the codes in lower case.

Input (``parse_card``) is case-insensitive and tolerant: the hyphen and spaces may be left out,
suits and courts may be written out (``kcu``, ``K-cups``, ``king cups``), trumps may be ``T12``,
``12`` or roman ``XII``, the Fool ``FOOL`` or ``EXCUSE``.
"""

from __future__ import annotations

from engine.errors import IllegalAction

#: Plain suits by suit index; trumps (and the Fool) are suit ``TRUMP``.
SUITS = ("CU", "CO", "SW", "BA")
SUIT_NAMES = ("cups", "coins", "swords", "batons", "trumps")
TRUMP = 4

_COURTS = ("K", "Q", "N", "J")
# Cups and Coins: the 1 ranks just below the Jack; Swords and Batons: the 10 does.
_PIPS = {
    "CU": ("1", "2", "3", "4", "5", "6"),
    "CO": ("1", "2", "3", "4", "5", "6"),
    "SW": ("10", "9", "8", "7", "6", "5"),
    "BA": ("10", "9", "8", "7", "6", "5"),
}

FOOL = 40


def trump(number: int) -> int:
    """The card int of trump ``number`` (1..21)."""
    return 62 - number


T1 = trump(1)
T21 = trump(21)

#: Every card code, by card int.
CODES: tuple[str, ...] = (
    *(f"{rank}-{suit}" for suit in SUITS for rank in (*_COURTS, *_PIPS[suit])),
    "FOOL",
    *(f"T{n}" for n in range(21, 0, -1)),
)
DECK: tuple[int, ...] = tuple(range(len(CODES)))
assert len(CODES) == 62 and CODES[FOOL] == "FOOL" and CODES[T1] == "T1"

SUIT: tuple[int, ...] = tuple(c // 10 if c < FOOL else TRUMP for c in DECK)

#: Strength within the suit (higher wins). Trumps I..XXI are 1..21; the Fool is 22, the
#: highest trump unless held back (the game handles a held Fool, which never wins).
STRENGTH: tuple[int, ...] = tuple(
    10 - c % 10 if c < FOOL else 22 if c == FOOL else 62 - c for c in DECK
)


def _points(code: str) -> int:
    if code in ("FOOL", "T21", "T1") or code.startswith("K-"):
        return 5
    return {"Q": 4, "N": 3, "J": 2}.get(code.split("-")[0], 1)


#: Card points; 114 in the whole deck.
POINTS: tuple[int, ...] = tuple(_points(code) for code in CODES)
assert sum(POINTS) == 114

KINGS: tuple[int, ...] = tuple(s * 10 for s in range(4))
#: The cards a Tappist may never discard (Kings only when he holds all four).
NEVER_DISCARD = frozenset((FOOL, T21, T1))

#: Trumps a Tappist may call at 7-8 players: II..XX.
CALLABLE: tuple[int, ...] = tuple(trump(n) for n in range(2, 21))

#: Actions precomputed so legal_actions only looks them up.
LOWER: tuple[str, ...] = tuple(code.lower() for code in CODES)
PLAY_ACTION: tuple[str, ...] = tuple("play " + code for code in LOWER)
DISCARD_ACTION: tuple[str, ...] = tuple("discard " + code for code in LOWER)
CALL_ACTION: dict[int, str] = {c: "call " + LOWER[c] for c in CALLABLE}


def _roman(n: int) -> str:
    tens, units = divmod(n, 10)
    ones = ("", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX")
    return "X" * tens + ones[units]


def _aliases() -> dict[str, int]:
    suit_words = {
        "CU": ("CU", "CUP", "CUPS"),
        "CO": ("CO", "COIN", "COINS"),
        "SW": ("SW", "SWORD", "SWORDS"),
        "BA": ("BA", "BATON", "BATONS"),
    }
    court_words = {"K": ("K", "KING"), "Q": ("Q", "QUEEN"), "N": ("N", "KN", "KNIGHT")}
    court_words["J"] = ("J", "JACK")
    table: dict[str, int] = {}
    for card, code in enumerate(CODES[:FOOL]):
        rank, suit = code.split("-")
        for rank_word in court_words.get(rank, (rank,)):
            for suit_word in suit_words[suit]:
                table[rank_word + suit_word] = card
    for n in range(1, 22):
        for word in (f"T{n}", str(n), _roman(n), "T" + _roman(n)):
            table[word] = trump(n)
    for word in ("FOOL", "THEFOOL", "EXCUSE", "F"):
        table[word] = FOOL
    return table


_ALIASES = _aliases()


def parse_card(text: str) -> int:
    """A typed card -> its int; raises ``IllegalAction`` for anything that is not a card."""
    key = text.upper().replace("-", "").replace(" ", "").replace("_", "")
    card = _ALIASES.get(key)
    if card is None:
        raise IllegalAction("troggu.not_a_card", text=text)
    return card


def codes(cards: list[int]) -> list[str]:
    return [CODES[c] for c in cards]


def lower_codes(cards: list[int]) -> list[str]:
    """``["k-cu", "2-cu"]``: codes as typed, for refusals listing the cards a player may choose."""
    return [LOWER[c] for c in cards]
