"""What Troika and Troeven show, in every language: under the pseudo-language no English word is
left unmarked in complete games (sections, narration, summaries, score sheets, final, history,
hints, /rules) and the longer text stays inside Discord's limits; English stays as it was; card
letters follow the reader's language in text, typed cards and pictures."""

from __future__ import annotations

import gettext
import random
import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from presenter_checks import FIELD_TEXT, check_limits, random_games, seating

import engine
from bot.i18n import PSEUDO, use_locale
from bot.i18n import core as i18n_core
from bot.i18n.pseudo import strip_pseudo
from bot.i18n.refusals import refusal_text
from bot.render.games import images
from bot.render.games.cards import (
    code_as_typed,
    picture_letters,
    pretty,
    pretty_suit,
    rank_letters,
    typed_card,
    typed_words,
)
from bot.render.games.faces import card_face
from bot.render.presenter import Presenter, Section, presenter_for
from engine.errors import IllegalAction
from engine.troeven.summary import summary as troeven_summary
from engine.troggu import cards as troggu_cards
from engine.troika.summary import summary as troika_summary

#: A word of English: three ASCII letters or more (card codes and numbers are shorter).
ENGLISH_WORD = re.compile(r"[A-Za-z]{3,}")
BACKTICKED = re.compile(r"`[^`]*`")
#: Discord tokens (``<t:…:R>``) are kept by the pseudo-language.
TOKEN = re.compile(r"<[^<>\s]+>")


def _modest(game: engine.Game, seat: int, legal: list[str], rng: random.Random) -> str:
    """Random play with low bids and many passes (random bids are mostly set: a game by points
    could run below zero for ever)."""
    bids = [a for a in legal if a.startswith("bid ")]
    if not bids:
        return rng.choice(legal)
    if "pass" in legal and rng.random() < 0.6:
        return "pass"
    return bids[0]


GAMES: list[tuple[str, int, dict[str, Any]]] = [
    ("troika", 4, {"end": "rounds", "rounds": 3, "misdeal": True}),
    ("troika", 4, {"target": 32, "kitty": True, "low": "always", "auction": "open",
                   "no_trump_increase": True, "max_non_bid": 30, "stick_dealer": False}),
    ("troika", 4, {"end": "rounds", "rounds": 2, "trump_lead": True, "first_dealer": None}),
    ("troeven", 2, {"version": "layout"}),
    ("troeven", 2, {"version": "stock", "strict_follow": True}),
]  # fmt: skip


def _left_in_english(text: str, names: tuple[str, ...]) -> list[str]:
    """The English words of ``text`` rendered in the pseudo-language that nobody marked."""
    rest = TOKEN.sub(" ", BACKTICKED.sub(" ", strip_pseudo(text)))
    return [w for w in ENGLISH_WORD.findall(rest) if w not in names]


def _everything(name: str, players: int, options: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """Every text the presenter makes over a complete game: (what, text or sections)."""
    presenter = presenter_for(name)
    resolved = engine.GAMES[name].resolve(None, options)
    table = seating(players, options=resolved)
    yield "rules", presenter.rules(resolved)
    game = None
    for step in random_games(name, players, options, seeds=[5], choose=_modest):
        game = step.game
        view = game.view(None)
        yield "heading", presenter.heading(view, table)
        yield "table", presenter.table_sections(view, table)
        yield "scores", [presenter.scores(view, None, table)]
        yield "sheet", presenter.score_sheet(view, table)
        for event in step.events:
            for reader in [None, *range(players)]:
                told = presenter.narrate(event, table.for_seat(reader))
                if told is not None:
                    yield f"narration of {event['type']}", told
            if event.get("type") == "hand_over":
                yield "summary", presenter.summary(event, table)
        for seat in range(players):
            mine = table.for_seat(seat)
            own = game.view(seat)
            legal = game.legal_actions(seat)
            yield "hand", presenter.hand_sections(own, legal, mine)
            yield "history", presenter.history(own, mine)
            for action in legal[:6]:
                yield "label", presenter.action_label(action)
                yield "you did", presenter.you_did(action)
                yield "hint", presenter.hint(own, action)
            picture = presenter.table_picture(view, mine)
            if picture is not None:
                args = picture.kwargs()
                if args.get("caption"):
                    yield "picture caption", str(args["caption"])
                for label, _cards in args.get("rows") or ():
                    yield "picture label", str(label)
    assert game is not None and game.is_over()
    yield "final", presenter.final(game.result(), table)


@pytest.mark.parametrize(("name", "players", "options"), GAMES)
def test_a_complete_game_leaves_no_english_word_unmarked_and_fits(
    name: str, players: int, options: dict[str, Any]
) -> None:
    names = seating(players).names
    kinds: set[str] = set()
    with use_locale(PSEUDO):
        for what, shown in _everything(name, players, options):
            kinds.add(what.split(" of ")[0])
            if isinstance(shown, list):
                assert all(isinstance(s, Section) for s in shown)
                check_limits(shown)
                text = "\n".join(f"{s.title}\n{s.text}" for s in shown)
            else:
                text = shown
                assert len(text) <= (4096 if what == "rules" else FIELD_TEXT), (what, len(text))
            left = _left_in_english(text, names)
            assert not left, f"{name} {what}: {left} in {text!r}"
    assert {"rules", "table", "narration", "summary", "history", "final", "hand"} <= kinds


@pytest.mark.parametrize(
    "options",
    [
        None,
        {"kitty": True, "low": "always", "auction": "open", "stick_dealer": True},
        {"trump_lead": True, "misdeal": False, "max_non_bid": "off", "end": "rounds"},
        {"no_trump": False, "set_penalty": "points", "no_trump_increase": True, "low": "no_trump"},
        {"first_dealer": None, "misdeal": True, "min_bid": 5},
    ],
)
def test_troika_rules_say_in_english_what_the_engine_says(options: dict[str, Any] | None) -> None:
    resolved = engine.GAMES["troika"].resolve(None, options or {})
    assert presenter_for("troika").rules(resolved) == troika_summary(resolved)
    assert presenter_for("troika").rules(None) == troika_summary(None)


@pytest.mark.parametrize("version", ["layout", "stock"])
@pytest.mark.parametrize("strict", [False, True])
def test_troeven_rules_say_in_english_what_the_engine_says(version: str, strict: bool) -> None:
    options = engine.GAMES["troeven"].resolve(version, {"strict_follow": strict})
    assert presenter_for("troeven").rules(options) == troeven_summary(options)
    assert presenter_for("troeven").rules(None) == engine.CLASSES["troeven"].rules_summary(None)


# -- card letters ---------------------------------------------------------------------------------
class _Catalog(gettext.NullTranslations):
    """A language's catalog in a test: a few translations, the rest English."""

    def __init__(self, words: Mapping[str, str], letters: Mapping[str, str]) -> None:
        super().__init__()
        self.words, self.letters = dict(words), dict(letters)

    def gettext(self, message: str) -> str:
        return self.words.get(message, message)

    def pgettext(self, context: str, message: str) -> str:
        if context == "rank letter":
            return self.letters.get(message, message)
        return message


@pytest.fixture
def catalogs(monkeypatch: pytest.MonkeyPatch) -> None:
    """French and Dutch card words as their catalogs will hold them; German with a mistake."""
    monkeypatch.setitem(
        i18n_core._catalogs,
        "fr",
        _Catalog({"hearts": "cœur", "spades": "pique"}, {"K": "R", "Q": "D", "J": "V"}),
    )
    monkeypatch.setitem(i18n_core._catalogs, "nl", _Catalog({}, {"K": "H", "Q": "V", "J": "B"}))
    # Two ranks with one letter: a card would read as another, so the English letters stay.
    monkeypatch.setitem(i18n_core._catalogs, "de", _Catalog({}, {"K": "K", "Q": "D", "J": "D"}))


def test_english_letters_and_pictures_are_as_before() -> None:
    assert rank_letters() == {} and picture_letters() == {}
    assert pretty("KH") == "K♥︎" and pretty("10S") == "10♠︎"
    assert typed_card("qh") == "qh" and typed_words(["7 no"]) == ["7 no"]
    picture = presenter_for("troika").hand_picture({"hand": ["KH", "QS"]}, seating(4, 0))
    assert picture is not None and dict(picture.args) == {"cards": ("KH", "QS")}


def test_text_shows_the_readers_letters_and_suits(catalogs: None) -> None:
    with use_locale("fr"):
        assert rank_letters() == {"K": "R", "Q": "D", "J": "V"}
        assert pretty("KH") == "R♥︎" and pretty("JS") == "V♠︎" and pretty("AD") == "A♦︎"
        assert pretty("10C") == "10♣︎"
        assert pretty_suit("H") == "♥︎ cœur"
        line = presenter_for("troika").you_did("play qs")
        assert "D♠︎" in line
    with use_locale("nl"):
        assert pretty("KH") == "H♥︎" and pretty("QH") == "V♥︎" and pretty("JH") == "B♥︎"
    with use_locale("de"):
        assert rank_letters() == {}
        assert pretty("QH") == "Q♥︎"


def test_the_tarot_knight_reads_in_the_readers_letter_too() -> None:
    """The real catalogs: French Cavalier C, German Reiter R, Dutch Ruiter R, in text, in the
    pictures' letters and typed (it read N, the engine's letter, in every language)."""
    for language, letter in (("fr", "C"), ("de", "R"), ("nl", "R")):
        with use_locale(language):
            assert pretty("NCU") == f"{letter}🏆", language
            assert ("N", letter) in picture_letters()["letters"]
            # Typed: his letter, the Tarot's suits as the engine writes them.
            typed = typed_card(f"{letter.lower()}-ba")
            assert troggu_cards.parse_card(typed) == troggu_cards.parse_card("n-ba"), language
    with use_locale("fr"):
        assert typed_card("ccu") == "NCU" and typed_card("dsw") == "QSW"
    assert pretty("NCU") == "N🏆"


def test_the_fool_is_typed_and_shown_in_the_readers_word() -> None:
    """The real catalogs: a French player types ``excuse`` (the word on his picture of the
    Fool), a German ``sküs``, a Dutch ``nar``; the terminal writes the Fool that way too."""
    for language, word in (("fr", "excuse"), ("de", "sküs"), ("nl", "nar")):
        with use_locale(language):
            assert troggu_cards.parse_card(typed_card(word)) == troggu_cards.FOOL, language
            assert typed_card(word.upper()) == "FOOL"
            assert code_as_typed("fool") == word and code_as_typed("FOOL") == word.upper()
            assert typed_words(["fool"]) == ["fool"]  # the engine's own word still works
    letters = {"fr": "R D C V", "de": "K D R B", "nl": "H V R B"}
    for language, word in (("fr", "EXCUSE"), ("de", "SKÜS"), ("nl", "NAR")):
        with use_locale(language):
            refusal = refusal_text(IllegalAction("troggu.not_a_card", text="zz"))
        assert letters[language] in refusal and f"`{word}`" in refusal, refusal
    # The cards a refusal lists are written as he types them too.
    follow = IllegalAction("trick.follow_suit", suit="CU", cards=["j-cu", "fool"])
    with use_locale("fr"):
        assert refusal_text(follow).endswith("v-cu, excuse."), refusal_text(follow)
    assert refusal_text(follow) == str(follow)
    # ... and a card named alone (a plain ``{card}`` field).
    not_held = IllegalAction("troggu.not_held", card="N-CU", cards=["t21"])
    with use_locale("fr"):
        assert "C-CU" in refusal_text(not_held) and "N-CU" not in refusal_text(not_held)
    assert "N-CU" in refusal_text(not_held)
    assert typed_card("excuse") == "excuse" and code_as_typed("fool") == "fool"


def test_a_card_typed_in_the_readers_letters_reaches_the_engine_as_its_code(
    catalogs: None,
) -> None:
    with use_locale("fr"):
        assert typed_card("dh") == "QH"  # Dame of hearts: the suit letters stay English
        assert typed_card("R♠") == "KS" and typed_card("vc") == "JC"
        assert typed_card("10h") == "10h" and typed_card("th") == "th"  # as the engine reads
        assert typed_card("kh") == "kh"  # an English code still works
        assert typed_card("d") == "d" and typed_card("dx") == "dx"  # not a card: as typed
        assert typed_words(["rs", "7 no"]) == ["KS", "7 no"]
        assert engine.cards.parse_card(typed_card("dd")) == "QD"
    with use_locale("nl"):
        assert typed_card("hh") == "KH" and typed_card("vs") == "QS" and typed_card("bd") == "JD"
    with use_locale("en"):
        assert typed_card("dh") == "dh"


def test_pictures_get_the_readers_letters_as_an_argument(catalogs: None) -> None:
    with use_locale("fr"):
        picture = presenter_for("troika").hand_picture({"hand": ["KH"]}, seating(4, 0))
        letters = picture_letters()
    assert picture is not None
    assert dict(picture.args)["letters"] == (("J", "V"), ("K", "R"), ("Q", "D"))
    # Drawn in another thread without a language: the letters come with the arguments.
    french = card_face("KH", 96, "two", letters["letters"])
    assert french.tobytes() != card_face("KH", 96).tobytes()
    assert card_face("5H", 96, "two", letters["letters"]).tobytes() == card_face("5H", 96).tobytes()
    drawn = images.hand_png(**picture.kwargs())
    assert drawn != images.hand_png(cards=["KH"]) and drawn == images.hand_png(**picture.kwargs())


def test_every_presenter_says_its_rules_in_the_pseudo_language() -> None:
    for name in ("troika", "troeven"):
        presenter: Presenter = presenter_for(name)
        with use_locale(PSEUDO):
            text = presenter.rules(None)
        assert not _left_in_english(text, ()), name


def test_an_ai_seats_name_is_said_in_the_readers_language() -> None:
    from bot.render.embeds import ai_name

    assert ai_name("AI 2 (hard)", "hard") == "AI 2 (hard)"
    with use_locale("fr"):
        assert ai_name("AI 2 (hard)", "hard") == "IA 2 (difficile)"
        assert ai_name("Robo", "hard") == "Robo", "a name the service did not make"
    with use_locale("de"):
        assert ai_name("AI 1 (easy)", "easy") == "KI 1 (leicht)"
