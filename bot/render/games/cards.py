"""Card codes as players read them: ``10H`` -> ``10♥``, ``K-CU`` -> ``K🏆``.

Display only: parsing and every rule stay in ``engine``. French codes reuse ``engine.cards``;
Troggu's Tarot codes (``K-CU``, ``T21``, ``FOOL``) are formatted here.

Languages: suit names and the court letters are the reader's (``rank_letters``: French R D V,
German K D B, Dutch H V B, from the catalogs); the suit symbols and the numbers stay. A card a
player types in his letters becomes the engine's code with ``typed_card`` (the suit letters stay
English ``S H D C``, or a symbol: ``D`` is both the French Dame and diamonds, ``H`` the Dutch Heer
and hearts, so only the rank is read in the reader's letters). Pictures are drawn in worker
threads, which do not know the reader's language: presenters hand them the letters
(``picture_letters``) as a plain argument, part of the picture's cache key.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from bot.i18n import DEFAULT, N_, _, _p, current
from bot.i18n.core import Memo, language_memo
from bot.render.presenter import Picture
from engine import cards as french
from engine.errors import IllegalAction

#: Tarot suits: code -> (name, symbol for text); the names are translated where shown.
TAROT_SUITS = {
    "CU": (N_("cups"), "🏆"),
    "CO": (N_("coins"), "🪙"),
    "SW": (N_("swords"), "⚔️"),  # as an emoji (U+FE0F), the size of the other three
    "BA": (N_("batons"), "🪄"),
}
#: French suits by name (``engine.cards.SUIT_NAMES``, marked here to be translated where shown).
SUIT_NAMES = {"S": N_("spades"), "H": N_("hearts"), "D": N_("diamonds"), "C": N_("clubs")}
#: The rank letters a language may change: the courts (the Tarot's Knight N too) and the ace
#: (numbers stay).
LETTER_RANKS = ("K", "Q", "N", "J", "A")
#: French suits in message text: the four filled symbols, each asking for its text form (U+FE0E).
#: As emoji, ♠ and ♣ are black, nearly invisible on the dark theme; the outline ♤ ♧ that replaced
#: them looked thin beside the red emoji ♥️ ♦️. As text all four take the theme's text colour
#: (light on dark, dark on light) and one weight: a set that reads alike on both themes.
TEXT_FORM = "\ufe0e"
TEXT_SUITS = {suit: symbol + TEXT_FORM for suit, symbol in french.SUIT_SYMBOLS.items()}
#: What joins a symbol to ask for its text or emoji form: never part of what a player means.
_VARIATIONS = str.maketrans("", "", "\ufe0e\ufe0f")
_TAROT_SUIT_CARD = re.compile(r"^([A-Z0-9]+)-?(CU|CO|SW|BA)$")
_TRUMP = re.compile(r"^T(\d{1,2})$")


@dataclass(frozen=True)
class Face:
    """What a card shows, for text and pictures.

    ``family`` is ``french``, ``tarot`` (a suited Tarot card), ``trump``, ``fool``, ``joker``
    or ``hidden``/``unknown``; ``red`` says whether it prints in red.
    """

    code: str
    rank: str
    suit: str
    family: str
    red: bool


@lru_cache(maxsize=4096)
def face(code: str) -> Face:
    """What ``code`` shows (remembered: a panel asks for a few dozen faces, a busy bot for
    thousands a second, always among the same few hundred codes)."""
    text = str(code).strip().upper()
    if text == french.JOKER:
        return Face(text, "JK", "", "joker", True)
    if text == "FOOL":
        return Face(text, "Fool", "", "fool", False)
    if text in {"??", "XX", "BACK", "HIDDEN"}:
        return Face(text, "", "", "hidden", False)
    trump = _TRUMP.match(text)
    if trump:
        return Face(text, trump.group(1), "", "trump", False)
    tarot = _TAROT_SUIT_CARD.match(text)
    if tarot and ("-" in text or tarot.group(2) in TAROT_SUITS):
        rank, suit = tarot.group(1), tarot.group(2)
        return Face(text, rank, suit, "tarot", suit in {"CU", "CO"})
    if len(text) >= 2 and text[-1] in french.SUITS and text[:-1] in french.RANKS:
        suit = text[-1]
        return Face(text, text[:-1], suit, "french", suit in {"H", "D"})
    return Face(text, text, "", "unknown", False)


#: Each language's letters (``language_memo``: read again if its catalog changed).
_LETTERS: Memo = {}


def rank_letters() -> dict[str, str]:
    """The engine's court and ace letters -> the reader's (``{"K": "R", "Q": "D", "J": "V"}`` in
    French); only the letters his language changes. A catalog's letters are used only when each
    is one or two letters and no two are the same (else the English ones: a card must never read
    as another). Read once per language: every card of every panel asks."""
    language = current()
    if language == DEFAULT:
        return {}
    known = language_memo(_LETTERS, language)
    letters = known.get("letters")
    if letters is None:
        letters = known["letters"] = _read_letters()
    return dict(letters)


def _read_letters() -> dict[str, str]:
    letters = {
        # i18n: the letter of a King on a card (French R, German K, Dutch H): 1-2 letters
        "K": _p("rank letter", "K"),
        # i18n: the letter of a Queen on a card (French D, German D, Dutch V): 1-2 letters
        "Q": _p("rank letter", "Q"),
        # i18n: the letter of a Tarot Knight on a card (French C, German R, Dutch R): 1-2 letters
        "N": _p("rank letter", "N"),
        # i18n: the letter of a Jack on a card (French V, German B, Dutch B): 1-2 letters
        "J": _p("rank letter", "J"),
        # i18n: the letter of an Ace on a card (A in French, German and Dutch): 1-2 letters
        "A": _p("rank letter", "A"),
    }
    shown = list(letters.values())
    if len(set(shown)) != len(shown) or not all(
        1 <= len(t) <= 2 and t.isalpha() and t.isupper() for t in shown
    ):
        return {}
    return {rank: text for rank, text in letters.items() if text != rank}


def fool_word() -> str:
    """The Tarot's Fool in the reader's word (``EXCUSE`` in French): on its picture, and typed."""
    # i18n: the word across the Tarot's Fool in a picture (capitals, short: EXCUSE, SKÜS...)
    return _p("card word", "FOOL")


def _typed_fool() -> str | None:
    """The reader's word for the Fool when he types one of his own (one word, not ``FOOL``)."""
    word = fool_word()
    return word if word.isalpha() and word != "FOOL" else None


#: Each language's ``picture_letters`` (``language_memo``).
_PICTURE_LETTERS: Memo = {}


def picture_letters() -> dict[str, tuple[tuple[str, str], ...]]:
    """The reader's rank letters as a drawing function's ``letters`` argument (nothing when they
    are the English ones: the same picture, the same cache key as before). Read once per
    language (every hand picture's key asks)."""
    known = language_memo(_PICTURE_LETTERS, current())
    letters = known.get("letters")
    if letters is None:
        letters = known["letters"] = _picture_letters()
    return dict(letters)


def hand_picture_of(view: Mapping[str, Any]) -> Picture | None:
    """The picture of the view's ``hand`` (``Picture.of("hand_png", cards=hand,
    **picture_letters())``, the same picture), made without sorting and freezing its arguments
    at every panel: the letters are frozen once per language."""
    hand = view.get("hand")
    if not hand:
        return None
    # ("cards" sorts before "letters", the one other argument: the order ``Picture.of`` gives.)
    return Picture.of_pairs("hand_png", (("cards", tuple(map(str, hand))), *frozen_letters()))


def frozen_letters() -> tuple[tuple[str, Any], ...]:
    """``picture_letters()`` as a ``Picture``'s arguments (``Picture.of`` sorts and freezes
    them), frozen once per language: one ``("letters", ...)`` pair, or none in English."""
    known = language_memo(_PICTURE_LETTERS, current())
    letters: tuple[tuple[str, Any], ...] | None = known.get("frozen")
    if letters is None:
        letters = known["frozen"] = Picture.of("hand_png", **picture_letters()).args
    return letters


def _picture_letters() -> dict[str, tuple[tuple[str, str], ...]]:
    letters = rank_letters()
    # i18n: the word on a Joker in a picture (capitals, short)
    joker = _p("card word", "JOKER")
    for word, shown in (("FOOL", fool_word()), ("JOKER", joker)):
        if shown != word and 0 < len(shown) <= 8:
            letters[word] = shown
    return {"letters": tuple(sorted(letters.items()))} if letters else {}


def shown_rank(rank: str, letters: dict[str, str] | None = None) -> str:
    """A rank as the reader reads it (``letters``: ``rank_letters()``, looked up when None)."""
    if rank not in LETTER_RANKS:
        return rank
    return (rank_letters() if letters is None else letters).get(rank, rank)


def typed_card(word: str) -> str:
    """A card typed in the reader's letters -> the engine's code (Dutch ``vh`` -> ``QH``); any
    other word as it was. The rank is read in his letters, the suit stays ``S H D C`` or a
    symbol (a Tarot suit ``CU CO SW BA``); English codes (and ``T`` for 10) keep working as the
    engine reads them. A letter of his that is also an English rank (``K``) means his rank: he
    types in his language. His word for the Fool (``excuse``) is the Fool."""
    text = word.strip()
    upper = text.upper()
    if upper == _typed_fool():
        return "FOOL"
    letters = rank_letters()
    if not letters:
        return word
    for rank, mine in letters.items():
        if upper.startswith(mine) and len(upper) > len(mine):
            suit = text[len(mine) :]
            tarot = suit.upper().lstrip("-_")
            if tarot in TAROT_SUITS:  # the Tarot's suits (French C for the Knight: ``ccu``)
                return rank + suit.upper()
            try:
                return rank + french.parse_suit(suit)
            except IllegalAction:
                return word
    return word


def code_as_typed(word: str) -> str:
    """A card's code as the reader types it (French ``QH`` -> ``DH``, ``N-CU`` -> ``C-CU``,
    ``fool`` -> ``excuse``): the
    inverse of ``typed_card``; any other word as it is."""
    shown = face(word)
    fool = _typed_fool() if shown.family == "fool" else None
    if fool is not None:
        return fool if word.strip()[:1].isupper() else fool.lower()
    letters = rank_letters()
    if not letters:
        return word
    mine = letters.get(shown.rank) if shown.family in {"french", "tarot"} else None
    if mine is None:
        return word
    text = word.strip()
    return (mine if text[0].isupper() else mine.lower()) + text[len(shown.rank) :]


def typed_words(arguments: list[str], words: Mapping[str, str] | None = None) -> list[str]:
    """A move's typed arguments with each card in the reader's letters read as the engine's code
    (``["vh"]`` -> ``["QH"]``) and each of the game's move words in his language as the
    engine's (``words``: ``Presenter.move_words``, French ``{"no": "sans"}``: ``7 sans`` ->
    ``7 no``); every other word as typed, less the marks that ask for a symbol's text or emoji
    form (a card copied from a message: ``10♥︎``, ``K♠️``)."""
    engine_word = {his.lower(): mine for mine, his in (words or {}).items() if his != mine}

    def read(word: str) -> str:
        return engine_word.get(word.lower()) or typed_card(word)

    return [" ".join(read(w) for w in a.translate(_VARIATIONS).split(" ")) for a in arguments]


#: Each language's cards as written so far (``language_memo``): every card of every panel and
#: table message is written, 14 a panel. A card code is one of a deck's few dozen; more means a
#: caller passes other words: start over.
_PRETTY: Memo = {}
PRETTY_KEPT = 4096


def pretty(code: str) -> str:
    """A card for a message: ``10♥``, ``K🏆``, ``XXI``-style trumps as ``T21``, ``Fool``."""
    known = language_memo(_PRETTY, current(), PRETTY_KEPT)
    text = known.get(code)
    if text is None:
        text = known[code] = _pretty(code)
    return text


def _pretty(code: str) -> str:
    f = face(code)
    if f.family == "french":
        return shown_rank(f.rank) + TEXT_SUITS[f.suit]
    if f.family == "joker":
        # i18n: a Joker in a message, after its emoji (the emoji alone is tiny beside the text)
        return "🃏" + _p("card", "Joker")
    if f.family == "tarot":
        return shown_rank(f.rank) + TAROT_SUITS[f.suit][1]
    if f.family == "trump":
        return f"T{f.rank}"
    if f.family == "fool":
        return _("Fool")
    if f.family == "hidden":
        return "🂠"
    return f.code


#: Hands as written so far, by language and (how, cards) (``language_memo``): a seat's hand is
#: written at every change of its table, and changes only when he plays.
_HANDS: Memo = {}
HANDS_KEPT = 8192


def hand_words(cards: Sequence[Any], write: Callable[[Sequence[str]], str]) -> str:
    """``write(cards)`` (a hand as text: ``write`` depends on the cards and the language
    only), made once per hand and language."""
    known = language_memo(_HANDS, current(), HANDS_KEPT)
    key = (write, tuple(str(card) for card in cards))
    text = known.get(key)
    if text is None:
        text = known[key] = write(key[1])
    return text


def pretty_list(codes: list[str] | tuple[str, ...], empty: str = "—") -> str:
    if not codes:
        return empty
    # ``pretty`` of each card, the language's memo looked up once for the list.
    known = language_memo(_PRETTY, current(), PRETTY_KEPT)
    shown = []
    for code in codes:
        text = known.get(code)
        if text is None:
            text = known[code] = _pretty(code)
        shown.append(text)
    return " ".join(shown)


def suit_name(code: str) -> str:
    """``H`` -> ``hearts``; Tarot ``CU`` -> ``cups``, in the reader's language; anything else
    as given."""
    key = str(code).strip().upper()
    if key in SUIT_NAMES:
        return _(SUIT_NAMES[key])
    if key in TAROT_SUITS:
        return _(TAROT_SUITS[key][0])
    return str(code)


def pretty_suit(code: str) -> str:
    """``♥️ hearts``: the symbol and the name."""
    key = str(code).strip().upper()
    if key in TEXT_SUITS:
        return f"{TEXT_SUITS[key]} {suit_name(key)}"
    if key in TAROT_SUITS:
        return f"{TAROT_SUITS[key][1]} {suit_name(key)}"
    return str(code)


def pretty_action(action: str) -> str:
    """An engine action word list, with card codes prettified (``play 5h`` -> ``play 5♥``)."""
    words = action.split()
    out = []
    for word in words:
        f = face(word)
        out.append(pretty(word) if f.family not in {"unknown"} and len(word) >= 2 else word)
    return " ".join(out)
