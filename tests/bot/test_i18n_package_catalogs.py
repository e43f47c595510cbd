"""Each game's presenter package keeps the strings only it uses in a catalog of its own
(``bot/render/games/<game>/locale/``): the catalog tools find it, and every language reads it
with the shared catalog as one."""

from __future__ import annotations

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

import engine
from bot.i18n import LANGUAGES, _, use_locale
from bot.i18n.catalogs import ROOT, po_path, pot_path, split
from bot.i18n.core import LOCALE_DIR, forget_catalogs, locale_dirs, own_catalog_packages

GAMES = ROOT / "bot" / "render" / "games"
#: The games whose presenter package is in the bot (a game a test defines lives elsewhere).
BUILT_IN = sorted(name for name in engine.GAMES if (GAMES / name / "__init__.py").exists())


def test_every_game_package_has_a_catalog_the_tools_find() -> None:
    assert len(BUILT_IN) >= 4
    assert {p.name for p in own_catalog_packages()} >= set(BUILT_IN)
    assert locale_dirs()[0] == LOCALE_DIR
    for name in BUILT_IN:
        assert GAMES / name / "locale" in locale_dirs(), name
        assert pot_path(GAMES / name / "locale").exists(), name


def test_a_string_used_only_in_one_package_lives_in_its_catalog() -> None:
    template = Catalog()
    template.add("Only here", locations=[("bot/render/games/troika/table.py", 3)])
    template.add("In two games", locations=[("bot/render/games/troika/table.py", 4)])
    template["In two games"].locations.append(("bot/render/games/troeven/hand.py", 9))
    template.add("Shared helper", locations=[("bot/render/games/_words.py", 1)])
    template.add("Declared")  # a command's name, an option's description: no location
    parts = split(template)
    troika = GAMES / "troika" / "locale"
    assert [m.id for m in parts[troika] if m.id] == ["Only here"]
    assert sorted(m.id for m in parts[LOCALE_DIR] if m.id) == [
        "Declared",
        "In two games",
        "Shared helper",
    ]


def test_every_language_reads_each_game_catalog() -> None:
    forget_catalogs()
    for name in BUILT_IN:
        folder = GAMES / name / "locale"
        for language in LANGUAGES:
            if language == "en":
                continue
            with po_path(language, folder).open("rb") as fp:
                catalog = read_po(fp, locale=language)
            plain = [m for m in catalog if isinstance(m.id, str) and m.id and not m.context]
            assert plain, (name, language)
            with use_locale(language):
                for message in plain[:5]:
                    assert _(message.id) == message.string, (name, language, message.id)
