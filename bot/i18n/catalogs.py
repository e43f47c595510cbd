"""Building the catalogs: extract the marked strings into ``messages.pot``, merge it into each
language's ``.po``, compile the ``.mo`` files, and check them (``python -m bot.i18n``).

There is one shared catalog (``bot/locale/``) and one per game presenter package that has
strings of its own (``bot/render/games/<game>/locale/``, see ``core.OWN_CATALOGS``): a string
used only inside one such package, or declared by that game alone (its title, its refusals: see
``declared_owners``), lives in that package's catalog, any other in the shared one (``split``).
Each step below runs over every catalog; the bot reads them all as one.

Extraction is Babel's scan of the source for ``_``, ``_n``, ``_p`` and ``N_`` plus the strings
that live in declarations rather than calls (``SOURCES``: functions returning ``(context, text)``
pairs, e.g. every slash command's names and descriptions, each game's declared words): so the
catalog holds every string the code can show, and a test compares it with a fresh extraction.
"""

from __future__ import annotations

import copy
import io
import re
from collections.abc import Callable, Iterable
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from bot.i18n.core import (
    DEFAULT,
    DOMAIN,
    LANGUAGES,
    LOCALE_DIR,
    compile_po,
    locale_dirs,
    own_catalog_packages,
)

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
#: A source may name the game a string belongs to: ``(context, text, game)``.
SOURCES: list[Callable[[], Iterable[tuple[str | None, str] | tuple[str | None, str, str]]]] = []


def po_path(language: str, folder: Path = LOCALE_DIR) -> Path:
    return folder / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def pot_path(folder: Path = LOCALE_DIR) -> Path:
    return folder / f"{DOMAIN}.pot"


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
    # A game's presenter package kept outside bot/ (on ``bot.render.games.__path__``) is
    # scanned too: its strings are its own.
    for folder in own_catalog_packages():
        if not folder.is_relative_to(ROOT / "bot"):
            _extract_folder(catalog, folder)
    from bot.i18n import sources  # noqa: F401  (registers the declaration sources)

    owners = declared_owners()
    for source in SOURCES:
        for context, text, *owned in source():
            if text:
                owner = owned[0] if owned else owners.get(text)
                # (a string declared by no game in particular belongs to the shared catalog)
                where = f"{OWNER}{owner}" if owner else SHARED
                catalog.add(text, context=context, locations=[(where, 0)])
    return catalog


def _extract_folder(catalog: Catalog, folder: Path) -> None:
    found = extract_from_dir(
        folder,
        method_map=[("**.py", "python")],
        keywords=KEYWORDS,
        comment_tags=("i18n:",),
        strip_comment_tags=True,
    )
    for filename, lineno, message, comments, context in found:
        location = (f"{_where(folder)}{filename}", lineno)
        catalog.add(message, locations=[location], auto_comments=comments, context=context)


def _where(folder: Path) -> str:
    """A package folder as its strings' locations name it: ``bot/render/games/<game>/``."""
    inside = folder.is_relative_to(ROOT)
    return f"{(folder.relative_to(ROOT) if inside else folder).as_posix()}/"


#: The location ``extract`` gives a declared string that one game alone declares (``OWNER`` and
#: the game's name): ``split`` puts it in that game's catalog; any other declared string's.
OWNER = "game:"
SHARED = "declared"


def declared_owners() -> dict[str, str]:
    """The declared strings that belong to one game, with its name: its name, title and summary
    (the ``/new`` subcommand, the titles) and its refusals (keys under ``<game>.``). A string two
    games declare belongs to neither."""
    import engine
    from engine import messages

    owners: dict[str, set[str]] = {}
    for name, spec in engine.GAMES.items():
        for text in (spec.name, spec.title, spec.summary):
            owners.setdefault(text, set()).add(name)
    for key, template in messages.TEMPLATES.items():
        game = key.split(".", 1)[0]
        if game in engine.GAMES:
            owners.setdefault(template, set()).add(game)
    return {text: games.pop() for text, games in owners.items() if len(games) == 1}


def split(template: Catalog) -> dict[Path, Catalog]:
    """The template's strings by the catalog folder that holds them: a string whose every use
    is inside one package with a catalog of its own goes there; any other (used in two places,
    or declared rather than written: commands, options, refusals) stays in the shared one."""
    packages = own_catalog_packages()
    own = {_where(p): p / "locale" for p in packages}
    # (a declared string one game owns: ``OWNER`` and its name, see ``extract``)
    own.update({f"{OWNER}{p.name}": p / "locale" for p in packages})
    parts = {folder: _empty() for folder in [LOCALE_DIR, *own.values()]}
    for message in template:
        if not message.id:
            continue
        homes = {
            next((folder for prefix, folder in own.items() if _at(where, prefix)), None)
            for where, _line in message.locations
        }
        home = homes.pop() if len(homes) == 1 else None
        parts[home or LOCALE_DIR].add(
            message.id,
            locations=message.locations,
            auto_comments=message.auto_comments,
            context=message.context,
        )
    return parts


def _at(where: str, prefix: str) -> bool:
    """A string's location ``where`` is inside the folder (or is the owner) ``prefix``."""
    return where == prefix if prefix.startswith(OWNER) else where.startswith(prefix)


def _empty(language: str | None = None) -> Catalog:
    return Catalog(locale=language, project="Troika Table", domain=DOMAIN, fuzzy=False)


def _dump(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=100, omit_header=False, sort_output=True, no_location=True)
    return out.getvalue()


def write_template() -> list[Path]:
    """Write every catalog's template (a package's only when it has strings of its own)."""
    written = []
    for folder, part in split(extract()).items():
        if folder != LOCALE_DIR and not len(part):
            continue
        folder.mkdir(parents=True, exist_ok=True)
        pot_path(folder).write_bytes(_dump(part))
        written.append(pot_path(folder))
    return written


def update() -> list[Path]:
    """Merge each template into its language catalogs (new strings empty, old ones dropped; a
    string that moved from one catalog to another keeps its translations)."""
    write_template()
    parts = split(extract())
    written = []
    for language in translated_languages():
        known = _translations(language)
        for folder, part in parts.items():
            if folder != LOCALE_DIR and not len(part):
                continue
            path = po_path(language, folder)
            if path.exists():
                with path.open("rb") as fp:
                    catalog = read_po(fp, locale=language)
            else:
                catalog = _empty(language)
            # (a copy: Babel adds the template's own entries, which are filled in below)
            catalog.update(copy.deepcopy(part), no_fuzzy_matching=True)
            catalog.obsolete.clear()
            for message in catalog:
                moved = known.get((message.context, _msgid(message)))
                if message.id and not _translated(message) and moved and _translated(moved):
                    message.string = moved.string
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(_dump(catalog))
            written.append(path)
    return written


def _translations(language: str) -> dict[tuple[str | None, str], Message]:
    """Every translated entry of ``language`` in every catalog, by ``(context, msgid)``."""
    found: dict[tuple[str | None, str], Message] = {}
    for folder in locale_dirs():
        path = po_path(language, folder)
        if path.exists():
            with path.open("rb") as fp:
                for message in read_po(fp, locale=language):
                    if message.id and _translated(message):
                        found[(message.context, _msgid(message))] = message
    return found


def _msgid(message: Message) -> str:
    return message.id if isinstance(message.id, str) else message.id[0]


def _translated(message: Message) -> bool:
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    return not message.fuzzy and all(strings)


def compile_all() -> list[Path]:
    written = []
    for folder in locale_dirs():
        for language in translated_languages():
            po = po_path(language, folder)
            if po.exists():
                mo = po.with_suffix(".mo")
                mo.write_bytes(compile_po(po))
                written.append(mo)
    return written


def problems() -> list[str]:
    """What keeps the catalogs from being complete: strings missing from a template or from a
    language, untranslated or fuzzy entries, format fields a translation lost or invented, a
    command named (```/join```) by another name than the language's name of it."""
    found: list[str] = []
    parts = split(extract())
    folders = [f for f, part in parts.items() if f == LOCALE_DIR or len(part)]
    for folder in locale_dirs():  # a package's catalog left behind with no strings of its own
        if folder not in folders:
            found.append(f"{folder.relative_to(ROOT)}: a catalog for no string (remove it)")
    for folder in folders:
        found += _template_problems(folder, _keys(parts[folder]))
    for language in translated_languages():
        merged = _empty(language)
        for folder in folders:
            path = po_path(language, folder)
            if not path.exists():
                found.append(f"{language}: no catalog at {path.relative_to(ROOT)}")
                continue
            with path.open("rb") as fp:
                catalog = read_po(fp, locale=language)
            found += _language_problems(language, catalog, _keys(parts[folder]))
            for message in catalog:
                if message.id:
                    merged[message.id] = message
        # A command is named in any catalog by its name in the shared one.
        found += wrong_command_names(merged)
    return found


def _keys(catalog: Catalog) -> set[tuple[str | None, str]]:
    return {(m.context, _msgid(m)) for m in catalog if m.id}


def _template_problems(folder: Path, wanted: set[tuple[str | None, str]]) -> list[str]:
    pot = pot_path(folder)
    if not pot.exists():
        return [f"no template at {pot.relative_to(ROOT)} (python -m bot.i18n update)"]
    with pot.open("rb") as fp:
        stored = _keys(read_po(fp))
    found = []
    for key in sorted(wanted ^ stored, key=str):
        state = "missing from" if key in wanted else "obsolete in"
        where = pot.relative_to(ROOT)
        found.append(f"template: {key[1]!r} {state} {where} (python -m bot.i18n update)")
    return found


def _language_problems(
    language: str, catalog: Catalog, wanted: set[tuple[str | None, str]]
) -> list[str]:
    found = []
    have = {(m.context, _msgid(m)): m for m in catalog if m.id}
    for key in sorted(wanted - have.keys(), key=str):
        found.append(f"{language}: missing {key[1]!r}")
    for key, message in have.items():
        if key not in wanted:
            found.append(f"{language}: obsolete {key[1]!r}")
            continue
        if not _translated(message):
            found.append(f"{language}: untranslated {key[1]!r}")
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        expected = _fields(ids[-1]) | _fields(ids[0])
        for text in strings:
            if _fields(text) - expected:
                found.append(f"{language}: {key[1]!r} has fields {sorted(_fields(text))}")
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
