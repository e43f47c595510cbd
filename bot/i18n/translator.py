"""Slash commands in the user's client language: the command tree's ``Translator``.

Discord shows each command's name, description, option names and descriptions and choice names
in the client's language when the synced command carries localizations; discord.py asks this
translator for them at sync time (every string of every command, for every Discord locale).
The catalogs hold them under a context per kind (``_p("command name", "join")``), extracted from
the loaded commands by ``bot.i18n.sources``.

Discord refuses a command whose localized name is not lowercase letters, digits, ``-`` or ``_``
(1-32 characters), or whose description is longer than 100 characters: such a translation is
left out (the English one shows) and logged, so a translator's slip never breaks the sync.

A command named in a message (``/join``) is translated by the translators with the localized
name of the command (a test checks that every backticked ``/name`` in a translation is that
language's name of a command).
"""

from __future__ import annotations

import logging

from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n.core import DEFAULT, language_of, use_locale
from bot.i18n.core import _p as translate_in

log = logging.getLogger(__name__)

#: The catalog context of each kind of command string.
CONTEXTS: dict[Where, str] = {
    Where.command_name: "command name",
    Where.group_name: "command name",
    Where.command_description: "command description",
    Where.group_description: "command description",
    Where.parameter_name: "option name",
    Where.parameter_description: "option description",
    Where.choice_name: "choice name",
}
#: The contexts whose text is a name Discord checks (``^[-_\p{L}\p{N}]{1,32}$``, lowercase).
NAME_CONTEXTS = frozenset({"command name", "option name"})
NAME_LIMIT = 32
TEXT_LIMIT = 100


def valid_name(text: str) -> bool:
    """Whether Discord accepts ``text`` as a command or option name."""
    return (
        1 <= len(text) <= NAME_LIMIT
        and text == text.lower()
        and all(c.isalnum() or c in "-_" for c in text)
    )


def localized(context: str, text: str, language: str) -> str | None:
    """``text`` of kind ``context`` in ``language``, or None when it has no usable translation
    (untranslated, the same as English, or refused by Discord's rules)."""
    if language == DEFAULT:
        return None
    with use_locale(language):
        found = translate_in(context, text)
    if not found or found == text:
        return None
    if context in NAME_CONTEXTS and not valid_name(found):
        log.warning("%s %r: translation %r is not a valid name in %s", context, text, found,
                    language)  # fmt: skip
        return None
    if len(found) > TEXT_LIMIT:
        log.warning("%s %r: translation in %s is over %d characters", context, text, language,
                    TEXT_LIMIT)  # fmt: skip
        return None
    return found


class CatalogTranslator(app_commands.Translator):
    """Translates the command tree through the catalogs."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        kind = CONTEXTS.get(context.location)
        if kind is None:
            return None
        language = language_of(locale)
        if language == DEFAULT:
            return None
        return localized(kind, string.message, language)
