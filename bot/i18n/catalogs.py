"""Building the catalogs: extract the marked strings into ``messages.pot``, merge it into each
language's ``.po``, compile the ``.mo`` files, and check them (``python -m bot.i18n``).

Extraction is Babel's scan of the source for ``_``, ``_n``, ``_p`` and ``N_`` plus the strings
that live in declarations rather than calls (``SOURCES``: functions returning ``(context, text)``
pairs, e.g. every slash command's names and descriptions, each game's declared words): so the
catalog holds every string the code can show, and a test compares it with a fresh extraction.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from bot.i18n.core import DEFAULT, DOMAIN, LANGUAGES, LOCALE_DIR, compile_po

ROOT = LOCALE_DIR.parent.parent
#: The packages scanned for marked strings.
PACKAGES = ("bot", "cogs", "engine")
KEYWORDS: dict[str, tuple[int | tuple[int, str], ...] | None] = {
    "_": None,
    "_n": (1, 2),
    "_p": ((1, "c"), 2),
    "N_": None,
    "later": None,  # bot.i18n.later: words said later in another language
    "later_n": (1, 2),
}
POT = LOCALE_DIR / f"{DOMAIN}.pot"

#: Further strings, each source yielding ``(context or None, text)``: registered by the modules
#: that hold declarations (see ``bot.i18n.sources``).
SOURCES: list[Callable[[], Iterable[tuple[str | None, str]]]] = []


def po_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def translated_languages() -> list[str]:
    return [code for code in LANGUAGES if code != DEFAULT]


def extract() -> Catalog:
    """A fresh template of every string the code can show."""
    catalog = Catalog(project="Troika Table", domain=DOMAIN, fuzzy=False)
    for package in PACKAGES:
        found = extract_from_dir(
            ROOT / package,
            method_map=[("**.py", "python")],
            keywords=KEYWORDS,
            comment_tags=("i18n:",),
            strip_comment_tags=True,
        )
        for filename, lineno, message, comments, context in found:
            location = (f"{package}/{filename}", lineno)
            catalog.add(message, locations=[location], auto_comments=comments, context=context)
    from bot.i18n import sources  # noqa: F401  (registers the declaration sources)

    for source in SOURCES:
        for context, text in source():
            if text:
                catalog.add(text, context=context)
    return catalog


def _dump(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=100, omit_header=False, sort_output=True, no_location=True)
    return out.getvalue()


def write_template() -> Path:
    POT.parent.mkdir(parents=True, exist_ok=True)
    POT.write_bytes(_dump(extract()))
    return POT


def update() -> list[Path]:
    """Merge the template into each language's catalog (new strings empty, old ones dropped)."""
    template = extract()
    POT.write_bytes(_dump(template))
    written = []
    for language in translated_languages():
        path = po_path(language)
        if path.exists():
            with path.open("rb") as fp:
                catalog = read_po(fp, locale=language)
        else:
            catalog = Catalog(locale=language, domain=DOMAIN, project="Troika Table")
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(_dump(catalog))
        written.append(path)
    return written


def compile_all() -> list[Path]:
    written = []
    for language in translated_languages():
        po = po_path(language)
        if po.exists():
            mo = po.with_suffix(".mo")
            mo.write_bytes(compile_po(po))
            written.append(mo)
    return written


def problems() -> list[str]:
    """What keeps the catalogs from being complete: strings missing from the template or from a
    language, untranslated or fuzzy entries, format fields a translation lost or invented, a
    command named (```/join```) by another name than the language's name of it."""
    found: list[str] = []
    template = extract()
    wanted = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in template if m.id}
    if not POT.exists():
        found.append(f"no template at {POT.relative_to(ROOT)}")
    else:
        with POT.open("rb") as fp:
            stored = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in read_po(fp)}
        stored.discard((None, ""))
        for key in sorted(wanted ^ stored, key=str):
            state = "missing from" if key in wanted else "obsolete in"
            found.append(f"template: {key[1]!r} {state} {POT.name} (python -m bot.i18n update)")
    for language in translated_languages():
        path = po_path(language)
        if not path.exists():
            found.append(f"{language}: no catalog at {path.relative_to(ROOT)}")
            continue
        with path.open("rb") as fp:
            catalog = read_po(fp, locale=language)
        have = {(m.context, m.id if isinstance(m.id, str) else m.id[0]): m for m in catalog if m.id}
        for key in sorted(wanted - have.keys(), key=str):
            found.append(f"{language}: missing {key[1]!r}")
        for key, message in have.items():
            if key not in wanted:
                found.append(f"{language}: obsolete {key[1]!r}")
                continue
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            if message.fuzzy or not all(strings):
                found.append(f"{language}: untranslated {key[1]!r}")
                continue
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            expected = _fields(ids[-1]) | _fields(ids[0])
            for text in strings:
                if _fields(text) - expected:
                    found.append(f"{language}: {key[1]!r} has fields {sorted(_fields(text))}")
        found += wrong_command_names(catalog)
    return found


#: A command named in a sentence: ``/join``, ```/admin end``` (its first word is checked).
_COMMAND_REFERENCE = re.compile(r"(?:^|[\s(`])/([^\s`/.,:;!?)]+)")


def wrong_command_names(catalog: Catalog) -> list[str]:
    """The translations that name a command (```/join```) by another name than the
    language's own name of a command (its "command name" entry; the English one if that is
    not translated): Discord shows a player the commands under his language's names."""
    names = {
        message.id: message.string or message.id
        for message in catalog
        if message.id and message.context == "command name" and isinstance(message.id, str)
    }
    localized = set(names.values())
    found = []
    for message in catalog:
        if not message.id or message.context == "command name":
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in strings:
            for name in _COMMAND_REFERENCE.findall(text or ""):
                if name not in localized:
                    expected = names.get(name)
                    hint = f" (say /{expected})" if expected and expected != name else ""
                    msgid = message.id if isinstance(message.id, str) else message.id[0]
                    found.append(f"{catalog.locale}: {msgid!r} names /{name}{hint}")
    return found


def _fields(text: str) -> set[str]:
    import string

    try:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}
    except ValueError:
        return set()
