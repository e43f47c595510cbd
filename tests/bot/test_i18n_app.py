"""The application's side of the languages: engine refusals, slash command names, the
catalogs' command-name check, words said later, each server's language."""

from __future__ import annotations

import gettext
import re
import string
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from babel.messages.catalog import Catalog
from discord import app_commands

from bot.app.languages import ServerLanguages
from bot.i18n import PSEUDO, _, use_locale
from bot.i18n import core as i18n_core
from bot.i18n.catalogs import extract, wrong_command_names
from bot.i18n.later import later, later_n, said
from bot.i18n.pseudo import strip_pseudo
from bot.i18n.refusals import refusal_text, render
from bot.i18n.sources import command_strings, loaded_commands
from bot.i18n.translator import CatalogTranslator, localized, valid_name
from engine import IllegalAction, messages


class Catalogue(gettext.NullTranslations):
    """A test catalog: the given translations (by ``(context, msgid)``), the rest English."""

    def __init__(self, entries: dict[tuple[str | None, str], str]) -> None:
        super().__init__()
        self.entries = entries

    def gettext(self, message: str) -> str:
        return self.entries.get((None, message), message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return self.entries.get((None, msgid1 if n == 1 else msgid2), msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return self.entries.get((context, message), message)


@pytest.fixture
def french(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[tuple[str | None, str], str]]:
    """``fr`` answers from a dict the test fills (the real catalog is still empty)."""
    entries: dict[tuple[str | None, str], str] = {}
    monkeypatch.setitem(i18n_core._catalogs, "fr", Catalogue(entries))
    yield entries


# -- engine refusals ----------------------------------------------------------------------------
def sample_params(key: str) -> dict[str, Any]:
    """A value for each field of refusal ``key``, fit for its style."""
    values: dict[str, Any] = {}
    for _text, name, spec, _conv in string.Formatter().parse(messages.TEMPLATES[key]):
        if not name:
            continue
        values[name] = {
            "suit": "H",
            "contract": "TTR",
            "seats": [0, 2],
            "etc": 3,
            "list": ["5H", "3S"],
            "code": ["pass", "bid 7"],
            "code_or": ["take", "draw", "mayi"],
            "space": ["7H", "7S", "7C"],
        }.get(spec or "", values.get(name, "x"))
    return values


@pytest.mark.parametrize("key", sorted(messages.TEMPLATES))
def test_every_refusal_reads_in_english_exactly_as_the_engine_writes_it(key: str) -> None:
    params = sample_params(key)
    assert render(key, params) == messages.render(key, params)


@pytest.mark.parametrize("key", sorted(messages.TEMPLATES))
def test_every_refusal_is_translated_with_its_words(key: str) -> None:
    params = sample_params(key)
    with use_locale(PSEUDO):
        text = render(key, params)
    left = strip_pseudo(text)
    # What is left: the params' codes and numbers, punctuation; never an English word.
    words = [w for w in re.findall(r"[A-Za-z]{3,}", left) if w not in {"pass", "bid", "take",
             "draw", "mayi"}]  # fmt: skip
    assert not words, (key, text)


def test_a_refusal_names_suits_contracts_seats_and_choices_in_the_language(french: dict) -> None:
    french[(None, messages.TEMPLATES["trick.follow_suit"])] = (
        "Vous devez fournir : vous avez des {suit:suit}. Jouez : {cards:list}."
    )
    french[("suit", "hearts")] = "cœurs"
    french[(None, messages.TEMPLATES["troikuntza.start_turn"])] = "Commencez : {actions:code_or}."
    french[(None, "{a} or {b}")] = "{a} ou {b}"
    french[(None, messages.TEMPLATES["turn.not_yours"])] = (
        "Pas votre tour : on attend {seats:seats}."
    )
    french[(None, "seat {number}")] = "place {number}"
    french[("contract", "2 Troikas and 1 Run")] = "2 Troïkas et 1 Suite"
    french[(None, messages.TEMPLATES["troikuntza.now_meld"])] = "Posez ({contract:contract})."
    with use_locale("fr"):
        follow = refusal_text(IllegalAction("trick.follow_suit", suit="H", cards=["2H", "9H"]))
        start = refusal_text(IllegalAction("troikuntza.start_turn", actions=["take", "draw"]))
        seats = refusal_text(IllegalAction("turn.not_yours", seats=[1, 3]))
        meld = refusal_text(IllegalAction("troikuntza.now_meld", contract="TTR"))
    assert follow == "Vous devez fournir : vous avez des cœurs. Jouez : 2H, 9H."
    assert start == "Commencez : `take` ou `draw`."
    assert seats == "Pas votre tour : on attend place 1, place 3."
    assert meld == "Posez (2 Troïkas et 1 Suite)."


def test_a_translation_that_does_not_format_falls_back_to_english(french: dict) -> None:
    french[(None, messages.TEMPLATES["seat.unknown"])] = "Pas de place {siège}."
    error = IllegalAction("seat.unknown", seat="7")
    with use_locale("fr"):
        assert refusal_text(error) == str(error) == "There is no seat 7 at this table."


def test_the_catalog_template_holds_every_refusal_and_command_string() -> None:
    template = extract()
    have = {(m.context, m.id) for m in template if isinstance(m.id, str)}
    assert {(None, t) for t in messages.TEMPLATES.values()} <= have
    assert ("suit", "hearts") in have and ("contract", "2 Troikas and 1 Run") in have
    assert {(context, text) for context, text, *_game in command_strings(loaded_commands())} <= have
    assert ("command name", "join") in have
    assert ("command name", "play") in have, "the generated move commands are extracted"
    descriptions = {t for c, t in have if c == "option description"}
    assert any("(default " in d for d in descriptions), "the /new options' descriptions"


# -- slash commands -----------------------------------------------------------------------------
def test_discord_names_are_lowercase_words() -> None:
    assert valid_name("rejoindre") and valid_name("mise-à-jour") and valid_name("zug_2")
    for bad in ("Rejoindre", "se joindre", "join!", "", "x" * 33, "⟦ĵóíñ⟧"):
        assert not valid_name(bad), bad


def test_a_command_translation_discord_would_refuse_falls_back_to_english(french: dict) -> None:
    french[("command name", "join")] = "rejoindre"
    french[("command name", "leave")] = "Partir maintenant"
    french[("command description", "How to play")] = "Comment jouer " + "x" * 100
    french[("option name", "seat")] = "place"
    assert localized("command name", "join", "fr") == "rejoindre"
    assert localized("command name", "leave", "fr") is None
    assert localized("command description", "How to play", "fr") is None
    assert localized("option name", "seat", "fr") == "place"
    assert localized("command name", "join", "en") is None
    assert localized("command name", "kick", "fr") is None, "untranslated: Discord's English"


async def test_the_translator_localizes_names_descriptions_options_and_choices(
    french: dict,
) -> None:
    french[("command name", "addbot")] = "ajouterbot"
    french[("command description", "Seat an AI player (host only)")] = "Asseoir une IA (hôte)"
    french[("option name", "level")] = "niveau"
    french[("option description", "How well it plays")] = "Son niveau de jeu"
    french[("choice name", "easy")] = "facile"
    addbot = next(c for c in loaded_commands() if c.name == "addbot")
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    payload = await addbot.get_translated_payload(tree, CatalogTranslator())
    assert payload["name"] == "addbot"
    assert payload["name_localizations"]["fr"] == "ajouterbot"
    assert payload["description_localizations"]["fr"] == "Asseoir une IA (hôte)"
    option = payload["options"][0]
    assert option["name_localizations"]["fr"] == "niveau"
    assert option["description_localizations"]["fr"] == "Son niveau de jeu"
    easy = next(c for c in option["choices"] if c["name"] == "easy")
    assert easy["name_localizations"]["fr"] == "facile"


def catalog_of(language: str, entries: list[tuple[str | None, str, str]]) -> Catalog:
    catalog = Catalog(locale=language)
    for context, msgid, msgstr in entries:
        catalog.add(msgid, msgstr, context=context)
    return catalog


def test_the_catalog_check_wants_translated_command_names_in_sentences() -> None:
    good = catalog_of(
        "fr",
        [
            ("command name", "join", "rejoindre"),
            ("command name", "admin", ""),
            (None, "Join with /join.", "Rejoignez avec /rejoindre."),
            (None, "Ask `/admin end`.", "Demandez `/admin end`."),
            (None, "Open with `/new troika`.", ""),
        ],
    )
    assert wrong_command_names(good) == []
    bad = catalog_of(
        "fr",
        [
            ("command name", "join", "rejoindre"),
            (None, "Join with /join.", "Rejoignez avec /join."),
            (None, "Type `/tablesettings`.", "Tapez `/réglages`."),
        ],
    )
    found = wrong_command_names(bad)
    assert len(found) == 2
    assert "names /join (say /rejoindre)" in found[0] and "/réglages" in found[1]


# -- words said later, the server's language ---------------------------------------------------
def test_words_said_later_are_english_until_said_in_a_language(french: dict) -> None:
    french[(None, "everybody left")] = "tout le monde est parti"
    french[(None, "nobody started it for {n} minutes")] = "personne ne l'a lancée en {n} minutes"
    left, idle = (
        later("everybody left"),
        later_n("nobody started it for {n} minute", "nobody started it for {n} minutes", 10),
    )
    assert (left, idle) == ("everybody left", "nobody started it for 10 minutes")
    with use_locale("fr"):
        assert said(left) == "tout le monde est parti"
        assert said(idle) == "personne ne l'a lancée en 10 minutes"
        assert said("the lobby emptied") == "the lobby emptied"  # no entry: as it is
        assert _("everybody left") == "tout le monde est parti"


def test_a_servers_language_is_its_admins_choice_else_its_preferred_locale() -> None:
    guilds = {1: SimpleNamespace(preferred_locale=discord.Locale.french),
              2: SimpleNamespace(preferred_locale=discord.Locale.brazil_portuguese)}  # fmt: skip
    bot = SimpleNamespace(get_guild=guilds.get)
    languages = ServerLanguages(bot)  # type: ignore[arg-type]
    assert [languages.of(g) for g in (1, 2, 3, None)] == ["fr", "en", "en", "en"]

    class Rules:
        async def set_language(self, guild: int, language: str | None) -> None:
            self.stored = (guild, language)

    rules = Rules()
    import asyncio

    asyncio.run(languages.choose(rules, 1, "nl"))  # type: ignore[arg-type]
    assert languages.of(1) == "nl" and rules.stored == (1, "nl")
    asyncio.run(languages.choose(rules, 1, None))  # type: ignore[arg-type]
    assert languages.of(1) == "fr" and rules.stored == (1, None)
