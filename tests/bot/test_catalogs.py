"""The catalogs are complete: every string the code can show is in the template and translated,
in every language, with nothing fuzzy and no format field lost or invented.

The check runs as ``python -m bot.i18n check`` does, in a fresh interpreter: tests register games
and refusals of their own (the fifth game), which are no strings of the bot."""

from __future__ import annotations

import subprocess
import sys

from bot.i18n import LANGUAGES, _, use_locale
from bot.i18n.catalogs import ROOT, po_path
from bot.i18n.core import forget_catalogs


def test_the_template_is_a_fresh_extraction_and_every_language_translates_it() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "bot.i18n", "check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert run.stdout.strip().endswith("0 problem(s)")


def test_every_language_reads_its_own_words() -> None:
    forget_catalogs()
    english = "There is no table here. Open one first."
    for language in LANGUAGES:
        if language == "en":
            continue
        assert po_path(language).exists()
        with use_locale(language):
            assert _(english) != english, language


def test_every_command_string_fits_discords_limit_for_its_place() -> None:
    """Discord refuses a localized command name that is not a lowercase word of 1-32
    characters and a description or choice name over 100: the translator would leave such a
    translation out and show English (the Dutch description of Troeven's version did)."""
    from babel.messages import pofile

    from bot.i18n.translator import NAME_CONTEXTS, TEXT_LIMIT, valid_name

    limited = {"command description", "option description", "choice name"}
    for language in LANGUAGES:
        if language == "en":
            continue
        with po_path(language).open("rb") as f:
            catalog = pofile.read_po(f, locale=language)
        for message in catalog:
            text = message.string if isinstance(message.string, str) else ""
            if not text:
                continue
            if message.context in NAME_CONTEXTS:
                assert valid_name(text), (language, message.id, text)
            elif message.context in limited:
                assert len(text) <= TEXT_LIMIT, (language, message.id, text)
