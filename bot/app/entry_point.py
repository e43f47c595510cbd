"""The Activity's Entry Point command (docs/activity.md): the command Discord shows in the App
Launcher to start the table inside Discord, synced with the other commands when the Activity is
configured (``DISCORD_CLIENT_ID``).

Discord launches the Activity itself (handler ``DISCORD_LAUNCH_ACTIVITY``): no interaction
reaches the bot. discord.py's tree does not know this kind of command, so the tree's sync adds
its payload to the global commands; a global sync without it would be refused by Discord once
the application has one (an Entry Point command cannot be deleted by a bulk overwrite).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n.core import DEFAULT, language_of
from bot.i18n.translator import localized

#: Application command type 4 (PRIMARY_ENTRY_POINT) and handler 2 (DISCORD_LAUNCH_ACTIVITY).
PRIMARY_ENTRY_POINT = 4
DISCORD_LAUNCH_ACTIVITY = 2
#: Discord's own name for the command it makes when Activities are enabled: ours replaces it.
NAME = "launch"
DESCRIPTION = "Play at this channel's card table without leaving Discord"


def _localizations(context: str, text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for locale in discord.Locale:
        language = language_of(locale)
        if language == DEFAULT:
            continue
        found = localized(context, text, language)
        if found is not None:
            out[locale.value] = found
    return out


def payload() -> dict[str, Any]:
    """The command as Discord's bulk overwrite takes it, localised like the slash commands."""
    return {
        "name": NAME,
        "description": DESCRIPTION,
        "type": PRIMARY_ENTRY_POINT,
        "handler": DISCORD_LAUNCH_ACTIVITY,
        "integration_types": [0],  # installed in a server
        "contexts": [0],  # used in a server's channels
        "name_localizations": _localizations("command name", NAME),
        "description_localizations": _localizations("command description", DESCRIPTION),
    }
