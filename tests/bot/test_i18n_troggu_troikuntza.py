"""Troggu and TroiKuntza speak the reader's language: complete games rendered in the
pseudo-language leave no English word outside the marked strings (what the shared render
helpers still say in English is listed, and shrinks as they are marked), stay inside Discord's
limits when every string is 40% longer, and /rules says in English what the engine says."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest
from test_presenters import random_game

import engine
from bot.i18n import PSEUDO, use_locale
from bot.i18n.pseudo import strip_pseudo
from bot.render.presenter import Presenter, Seating, Section, presenter_for

NAMES = ("Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo")
#: English still shown by the files other presenters share (``presenter.py``, ``_words.py``,
#: ``_tricks.py``, ``cards.py``), which another branch marks: the scores section, "(more)" of a
#: packed section, and the Fool's card name.
SHARED = frozenset({"Scores", "Final", "scores", "lowest", "wins", "more", "Fool"})
#: ... and /history's list of tricks (``_tricks.history_sections``).
SHARED_HISTORY = SHARED | {"Tricks", "this", "hand", "the", "table", "led", "you"}
#: Words of at least three letters: an English word nobody marked.
WORD = re.compile(r"[A-Za-z]{3,}")
#: What stays as typed: code in backticks, Discord tokens.
KEPT = re.compile(r"`[^`]*`|<[^<>\s]+>")
#: Discord: an embed field's text and title, a message's embeds, a button's label.
FIELD_TEXT, FIELD_TITLE, MESSAGE_TEXT, LABEL = 1024, 256, 6000, 80


def english(text: str, shared: frozenset[str] = SHARED) -> set[str]:
    """The English words of ``text`` rendered in the pseudo-language."""
    left = KEPT.sub(" ", strip_pseudo(text))
    return set(WORD.findall(left)) - set(NAMES) - shared


def check_sections(
    sections: Sequence[Section], where: str, shared: frozenset[str] = SHARED
) -> None:
    for section in sections:
        assert len(section.text) <= FIELD_TEXT and len(section.title) <= FIELD_TITLE, where
        left = english(section.title, shared) | english(section.text, shared)
        assert not left, (where, left, section)
    assert sum(len(s.title) + len(s.text) for s in sections) <= MESSAGE_TEXT, where


def check_line(text: str | None, where: str, limit: int = FIELD_TEXT) -> None:
    if text is None:
        return
    assert len(text) <= limit, (where, text)
    assert not english(text), (where, english(text), text)


def check_picture(presenter: Presenter, picture: Any, where: str) -> None:
    """Captions and row labels are translated before the picture is drawn."""
    if picture is None:
        return
    args = picture.kwargs()
    check_line(args.get("caption") or None, where)
    for label, _cards in args.get("rows") or ():
        check_line(label, where)


def render_everything(presenter: Presenter, game: engine.Game, seating: Seating, step: int) -> None:
    """The table message, a player's panel, /history, /score and the legal moves' labels of
    the reader of this step (public, then each seat in turn)."""
    players = len(seating.names)
    viewer = None if step % (players + 1) == players else step % (players + 1)
    reader = seating.for_seat(viewer)
    view = game.view(viewer)
    check_line(presenter.heading(view, reader), "heading", FIELD_TITLE)
    check_sections(presenter.table_sections(view, reader), "table")
    check_picture(presenter, presenter.table_picture(view, reader), "table picture")
    check_sections(presenter.score_sheet(view, reader), "score sheet")
    if viewer is None:
        return
    legal = game.legal_actions(viewer)
    check_sections(presenter.hand_sections(view, legal, reader), "hand")
    check_sections(presenter.history(view, reader), "history", SHARED_HISTORY)
    for action in legal:
        check_line(presenter.action_label(action), f"label {action}", LABEL)
        check_line(presenter.you_did(action), f"you did {action}")


def play_in_pseudo(name: str, players: int, seed: int, every: int) -> set[str]:
    """A complete game told and shown in the pseudo-language; returns its event kinds."""
    presenter = presenter_for(name)
    seating = Seating(NAMES[:players], options=engine.GAMES[name].defaults())
    kinds: set[str] = set()
    game = None
    with use_locale(PSEUDO):
        for number, (game, event) in enumerate(random_game(name, players, seed)):
            kinds.add(str(event["type"]))
            for viewer in [None, *range(players)]:
                told = presenter.narrate(event, seating.for_seat(viewer))
                check_line(told, f"narration of {event['type']}")
            if event["type"] == "hand_over":
                for viewer in (None, 0):
                    check_sections(presenter.summary(event, seating.for_seat(viewer)), "summary")
            if number % every == 0:
                render_everything(presenter, game, seating, number // every)
        assert game is not None and game.is_over()
        result = game.result()
        check_sections(presenter.final(result, seating), "final")
        history = presenter.history(game.view(0), seating.for_seat(0))
        check_sections(history, "history at end", SHARED_HISTORY)
    return kinds


@pytest.mark.parametrize("players", range(3, 9))
def test_troggu_in_pseudo_has_no_english_left(players: int) -> None:
    kinds = play_in_pseudo("troggu", players, seed=players, every=3)
    assert {"deal", "bid", "contract", "play", "trick", "hand_over", "game_over"} <= kinds


@pytest.mark.parametrize("players", [3, 4, 6, 8, 10])
def test_troikuntza_in_pseudo_has_no_english_left(players: int) -> None:
    kinds = play_in_pseudo("troikuntza", players, seed=players, every=4)
    assert {"deal", "discard", "meld", "hand_over", "game_over"} <= kinds


def option_sets(name: str) -> Iterable[dict[str, Any]]:
    """Default options, and every combination of the options that change /rules."""
    yield {}
    if name == "troggu":
        for deals in (1, 2, 5, "auto"):
            yield {"deals": deals}
        return
    choices: Mapping[str, tuple[Any, ...]] = {
        "allow_three": (True, False),
        "decks": ("auto", 2, 3),
        "discard_to_go_out": (True, False),
        "mayi_window": (0, 10),
        "mayi_limit": (0, 1, 3),
        "mayi_after_out": (True, False),
        "reshuffles": (0, 1, 2, "unlimited"),
        "natural_majority": (True, False),
    }
    for values in itertools.product(*choices.values()):
        yield dict(zip(choices, values, strict=True))


@pytest.mark.parametrize("name", ["troggu", "troikuntza"])
def test_rules_say_the_engines_summary_in_english(name: str) -> None:
    presenter = presenter_for(name)
    for options in option_sets(name):
        assert presenter.rules(options) == engine.CLASSES[name].rules_summary(options), options
    assert presenter.rules(None) == engine.CLASSES[name].rules_summary(None)


@pytest.mark.parametrize("name", ["troggu", "troikuntza"])
def test_rules_in_pseudo_have_no_english_left(name: str) -> None:
    presenter = presenter_for(name)
    with use_locale(PSEUDO):
        for options in option_sets(name):
            text = presenter.rules(options)
            assert not english(text), (options, english(text))
            assert len(text) <= 4096  # an embed's description
            assert "⟦" in text


def test_a_troikuntza_contract_is_worded_in_the_readers_language() -> None:
    presenter = presenter_for("troikuntza")
    view = {"hand_number": 5, "rounds": 7, "contract": "TTR"}
    seating = Seating(NAMES[:4])
    assert presenter.heading(view, seating) == "round 5 of 7 — 2 Troikas and 1 Run"
    with use_locale(PSEUDO):
        heading = presenter.heading(view, seating)
    assert "Troika" not in heading and "5" in heading and "7" in heading
    assert not english(heading)


def test_picture_captions_are_translated_before_drawing() -> None:
    """The drawing runs on a worker without the reader's language: the caption is already in
    it when the picture is described."""
    presenter = presenter_for("troggu")
    view = {
        "phase": "play",
        "to_act": [0],
        "trick": [],
        "last_trick": {"cards": [{"seat": 1, "card": "T21"}], "winner": 1},
    }
    seating = Seating(NAMES[:3])
    with use_locale(PSEUDO):
        picture = presenter.table_picture(view, seating)
    assert picture is not None
    caption = picture.kwargs()["caption"]
    assert caption.startswith("⟦") and "Bob" in caption
    english_picture = presenter.table_picture(view, seating)
    assert english_picture is not None
    assert english_picture.kwargs()["caption"] == "last trick → Bob"
    assert english_picture != picture  # a cached English picture is not shown to a French table
