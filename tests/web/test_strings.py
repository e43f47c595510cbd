"""Every word a game's web folder asks for is in the catalogs, and so translated: a msgid that
is not would show in English to every reader."""

from __future__ import annotations

import json

from babel.messages.pofile import read_po

import engine
from bot.i18n.catalogs import pot_path
from bot.i18n.core import locale_dirs
from bot.web import frames


def test_every_game_web_string_is_a_msgid_of_the_catalogs() -> None:
    known: set[tuple[str | None, str]] = set()
    for folder in locale_dirs():  # the shared catalog and each game's own
        with pot_path(folder).open("rb") as fp:
            template = read_po(fp)
        known |= {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in template if m.id}
    asked = 0
    for game in engine.GAMES:
        folder = frames.game_web_dir(game)
        if folder is None:
            continue
        for text in json.loads((folder / "strings.json").read_text()):
            context, bar, msgid = text.partition("|")
            key = (context, msgid) if bar else (None, text)
            assert key in known, (game, text)
            asked += 1
    assert asked > 10


def test_the_strings_come_in_the_readers_language() -> None:
    french = frames.strings("troika", "fr")
    assert french["Your turn"] != "Your turn" and french["Trumps"] == "Atout"
