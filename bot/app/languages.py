"""The language of each server's public messages (the table message, pings, the lobby, boards).

A server's admins may choose it (``/admin defaults language:``, stored with the server's other
defaults); otherwise it is the server's preferred locale (its Community setting), else English.
The choices are kept in memory (read once at start-up) because the publisher renders outside
any interaction, between two edits, and must not wait for the database.
"""

from __future__ import annotations

import discord

from bot.i18n import DEFAULT, LANGUAGES, PSEUDO, language_of
from bot.leaderboard import GuildRules


class ServerLanguages:
    def __init__(self, bot: discord.Client) -> None:
        self.bot = bot
        self._chosen: dict[int, str] = {}

    async def load(self, rules: GuildRules) -> None:
        """Read the admins' choices (at start-up, once the database is open)."""
        self._chosen = {
            guild: code
            for guild, code in (await rules.chosen_languages()).items()
            if code in LANGUAGES or code == PSEUDO
        }

    def chosen(self, guild_id: int | None) -> str | None:
        """The admins' choice, or None (the server's preferred locale applies)."""
        return None if guild_id is None else self._chosen.get(guild_id)

    def of(self, guild_id: int | None) -> str:
        """The language public messages of the server ``guild_id`` are written in."""
        chosen = self.chosen(guild_id)
        if chosen is not None:
            return chosen
        guild = self.bot.get_guild(guild_id) if guild_id is not None else None
        if guild is None:
            return DEFAULT
        return language_of(guild.preferred_locale)

    async def choose(self, rules: GuildRules, guild_id: int, language: str | None) -> None:
        """Store the admins' choice (None: follow the server's preferred locale again)."""
        await rules.set_language(guild_id, language)
        if language is None:
            self._chosen.pop(guild_id, None)
        else:
            self._chosen[guild_id] = language
