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
