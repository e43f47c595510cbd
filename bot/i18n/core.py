"""The current language, the catalogs, and the marking functions (``_``, ``_n``, ``_p``, ``N_``)."""

from __future__ import annotations

import gettext
import importlib.util
import io
import sys
import threading
from contextlib import AbstractContextManager, suppress
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from bot.i18n.pseudo import pseudo

#: The gettext domain: ``bot/locale/<lang>/LC_MESSAGES/messages.po``.
DOMAIN = "messages"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
#: The package whose subpackages keep the strings only they use in a catalog of their own,
#: ``<package>/locale/``, laid out as ``LOCALE_DIR``: each game's presenter package, so that a
#: new game brings its words in its own folder. Each language reads them all as one catalog.
#: Every folder of its ``__path__`` is looked in (a game's package kept outside ``bot/``, such
#: as the fifth game of ``tests/games/``, once its folder is added there).
OWN_CATALOGS = "bot.render.games"
DEFAULT = "en"
#: The languages players can have, by code, in their own names (English is the source).
LANGUAGES: dict[str, str] = {
    "en": "English",
    "fr": "Français",
    "de": "Deutsch",
    "nl": "Nederlands",
}
#: A language for tests only: every marked string wrapped in ⟦ ⟧ and lengthened by 40%.
PSEUDO = "qps"

_current: ContextVar[str] = ContextVar("tt_language", default=DEFAULT)
_catalogs: dict[str, gettext.NullTranslations] = {}
_lock = threading.Lock()
#: Each language's translations looked up so far, by message (``_``) and by ``(context,
#: message)`` (``_p``): a language reads several catalogs chained as fallbacks (the shared one,
#: then each game's), so a game's word cost a miss in each catalog before it, at every label
#: and card of every panel. Cleared with the catalogs; bounded (``MEMO_KEPT``) in case a caller
#: translates words that are not a catalog's (a stored title, an option's description).
#: Each entry holds the catalog it was read from: looked up again once it is another.
#: By language: the catalog an entry was read from, and the entries (``language_memo``).
Memo = dict[str, tuple[object, dict[Any, Any]]]
_memo: Memo = {}
_memo_p: Memo = {}
#: ``_n``'s, by ``(singular, plural, n)``: a count's form (``3 cards``) at every panel.
_memo_n: Memo = {}
MEMO_KEPT = 20_000


def current() -> str:
    """The language of what is being written now."""
    return _current.get()


def use_locale(language: str | None) -> AbstractContextManager[str]:
    """Write in ``language`` (a code of ``LANGUAGES``, ``PSEUDO``, or a Discord locale such as
    ``fr`` or ``en-US``) inside the block (``with use_locale(...) as code``)."""
    return _InLocale(language)


class _InLocale:
    """``use_locale``'s block: a class, not a generator's context manager (the table message
    writes each event of every table in its server's language: a generator and its wrapper
    per event cost several times this)."""

    __slots__ = ("language", "token")

    def __init__(self, language: str | None) -> None:
        self.language = language

    def __enter__(self) -> str:
        language = self.language
        code = language if language == PSEUDO else language_of(language)
        self.token = _current.set(code)
        return code

    def __exit__(self, *error: object) -> None:
        _current.reset(self.token)


def set_locale(language: str | None) -> str:
    """Write in ``language`` for the rest of this task (an interaction's handler: each runs in
    its own task, so the setting ends with it)."""
    code = language if language == PSEUDO else language_of(language)
    # Already so (the default language, or the creating task's): a set would still give the
    # task's context a new mapping (two objects for the collector to scan while it lives).
    if _current.get() != code:
        _current.set(code)
    return code


def language_of(locale: object) -> str:
    """Our language for a Discord locale (``discord.Locale`` or its value: ``fr``, ``de``,
    ``nl``, ``en-US``, ``pt-BR``...): the one we have, English otherwise."""
    text = str(getattr(locale, "value", locale) or "").lower()
    if text == PSEUDO:  # (tests: a user or server "speaking" the pseudo-language)
        return PSEUDO
    code = text.split("-", 1)[0].split("_", 1)[0]
    return code if code in LANGUAGES else DEFAULT


def catalog(language: str) -> gettext.NullTranslations:
    """The compiled catalog of ``language`` (English and unknown codes: the source text)."""
    found = _catalogs.get(language)
    if found is not None:
        return found
    with _lock:
        found = _catalogs.get(language)
        if found is None:
            found = _load(language)
            _catalogs[language] = found
    return found


def language_memo(memo: Memo, language: str, kept: int | None = None) -> dict[Any, Any]:
    """What was made so far in ``language`` (a dict to read and to fill): what a reader's words
    give (translations, names, cards as text) made once per language rather than at every panel.
    Started over when the language's catalog is another object than the one its entries were
    read from (a test's, ``forget_catalogs``), or when it holds ``kept`` entries (default
    ``MEMO_KEPT``: a caller that passes words no catalog has must not make it grow)."""
    # (The loaded catalog read directly: this runs at every word and card of every panel.)
    source = None if language == DEFAULT else _catalogs.get(language) or catalog(language)
    known = memo.get(language)
    if known is None or known[0] is not source or len(known[1]) >= (kept or MEMO_KEPT):
        known = memo[language] = (source, {})
    return known[1]


def forget_catalogs() -> None:
    """Reload the catalogs on next use (after ``python -m bot.i18n compile`` in tests)."""
    with _lock:
        _catalogs.clear()
        _memo.clear()
        _memo_p.clear()
        _memo_n.clear()


def own_catalog_packages() -> list[Path]:
    """The package folders that may keep a catalog of their own (``OWN_CATALOGS``)."""
    return sorted(
        p for folder in _search_path(OWN_CATALOGS) for p in folder.glob("*/") if _is_package(p)
    )


def _is_package(folder: Path) -> bool:
    return (folder / "__init__.py").exists()


def _search_path(package: str) -> list[Path]:
    """The folders of ``package`` (its ``__path__``), without importing the package itself (its
    ``__init__`` may need the catalogs): only its parents are imported to find it."""
    loaded = sys.modules.get(package)
    if loaded is not None:
        return [Path(p) for p in loaded.__path__]
    spec = importlib.util.find_spec(package)
    return [Path(p) for p in (spec.submodule_search_locations or [])] if spec else []


def locale_dirs() -> list[Path]:
    """Every catalog's folder: the shared one first, then each package's own that exists."""
    own = [p / "locale" for p in own_catalog_packages()]
    return [LOCALE_DIR, *(folder for folder in own if folder.is_dir())]


def _load(language: str) -> gettext.NullTranslations:
    if language == PSEUDO:
        return PseudoTranslations()
    if language == DEFAULT:
        return gettext.NullTranslations()
    found = [
        _load_po(po)
        for folder in locale_dirs()
        if (po := folder / language / "LC_MESSAGES" / f"{DOMAIN}.po").exists()
    ]
    if not found:
        return gettext.NullTranslations()
    # The catalogs hold different strings (each string lives in one): a string missing from the
    # first is looked up in the next.
    first, *rest = found
    for more in rest:
        first.add_fallback(more)
    return first


def _load_po(po: Path) -> gettext.NullTranslations:
    mo = po.with_suffix(".mo")
    if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
        with mo.open("rb") as fp:
            return gettext.GNUTranslations(fp)
    # No build step ran (a fresh clone): compile in memory, and keep the file when we may.
    data = compile_po(po)
    with suppress(OSError):
        mo.write_bytes(data)
    return gettext.GNUTranslations(io.BytesIO(data))


def compile_po(po: Path) -> bytes:
    """The ``.mo`` bytes of a ``.po`` file (fuzzy entries left out, as gettext does)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as fp:
        parsed = read_po(fp, locale=po.parent.parent.name)
    out = io.BytesIO()
    write_mo(out, parsed, use_fuzzy=False)
    return out.getvalue()


class PseudoTranslations(gettext.NullTranslations):
    """Every string translated to its pseudo form (see ``bot.i18n.pseudo``)."""

    def gettext(self, message: str) -> str:
        return pseudo(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return pseudo(message)


# English is the source text: no catalog is looked up for it (these run a few hundred thousand
# times a minute on a busy bot: every label, line and card of every panel).


def _(message: str, /, **params: Any) -> str:
    """``message`` in the current language, formatted with ``params``."""
    language = _current.get()
    if language == DEFAULT:
        text = message
    else:
        known = language_memo(_memo, language)
        text = known.get(message)
        if text is None:
            text = known[message] = catalog(language).gettext(message)
    return text.format(**params) if params else text


def _n(singular: str, plural: str, n: int, /, **params: Any) -> str:
    """The singular or plural form for ``n`` in the current language; ``{n}`` is ``n``."""
    language = _current.get()
    if language == DEFAULT:
        text = singular if n == 1 else plural
    else:
        known = language_memo(_memo_n, language)
        text = known.get((singular, plural, n))
        if text is None:
            text = known[(singular, plural, n)] = catalog(language).ngettext(singular, plural, n)
    return text.format(n=n, **params)


def _p(context: str, message: str, /, **params: Any) -> str:
    """``message`` translated within ``context`` (e.g. ``"command name"``)."""
    language = _current.get()
    if language == DEFAULT:
        text = message
    else:
        known = language_memo(_memo_p, language)
        text = known.get((context, message))
        if text is None:
            text = known[(context, message)] = catalog(language).pgettext(context, message)
    return text.format(**params) if params else text


def N_(message: str) -> str:
    """Marks ``message`` for the catalogs without translating it (a constant)."""
    return message
