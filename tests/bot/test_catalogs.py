"""The catalogs are complete: every string the code can show is in the template and translated,
in every language, with nothing fuzzy and no format field lost or invented (``python -m bot.i18n
check`` says the same)."""

from __future__ import annotations

from babel.messages.pofile import read_po

from bot.i18n import LANGUAGES, _, use_locale
from bot.i18n.catalogs import POT, extract, po_path, problems
from bot.i18n.core import forget_catalogs


def _keys(catalog: object) -> set[tuple[str | None, str]]:
    return {
        (m.context, m.id if isinstance(m.id, str) else m.id[0])
        for m in catalog  # type: ignore[attr-defined]
        if m.id
    }


def test_the_template_is_a_fresh_extraction() -> None:
    with POT.open("rb") as fp:
        stored = read_po(fp)
    assert _keys(stored) == _keys(extract()), "run: python -m bot.i18n update"


def test_every_language_translates_every_string() -> None:
    found = problems()
    assert not found, f"{len(found)} problem(s), e.g.:\n" + "\n".join(found[:20])


def test_every_language_reads_its_own_words() -> None:
    forget_catalogs()
    english = "There is no table here. Open one first."
    for language in LANGUAGES:
        if language == "en":
            continue
        assert po_path(language).exists()
        with use_locale(language):
            assert _(english) != english, language
