"""A guild's table settings the admins set: default timer, default preset/options per game, and
the channels tables may be opened in. ``/new`` consults them through ``GuildRules.for_new_table``.

How defaults combine with what the host types in ``/new`` (the host always wins):
- the guild's default ``timer`` applies unless the host set ``timer`` himself;
- a game's default preset and options apply only when the host named no preset (a preset he
  picks is a complete choice: the guild's option defaults are not mixed into it); options he
  types override the guild's option defaults one by one.
The host can still change everything in the lobby with ``/options``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import engine
from bot.i18n import _
from bot.i18n.refusals import refusal_text
from bot.service.errors import TableError, UnknownGame
from bot.storage.connection import Connection
from bot.storage.group_commit import DatabaseBackend
from engine import IllegalAction


class ChannelNotAllowed(TableError):
    """The guild's admins allow tables only in other channels."""


#: Where ``/new`` opens a table: in a new public thread of the channel, or the channel itself.
TABLES_IN = ("thread", "channel")
#: A thread by default: a channel then holds many tables at once, and each table's edits, turn
#: pings and talk stay in its own thread instead of burying the channel's conversation. A
#: server whose bot may not create threads falls back to the channel (``/new`` says why).
DEFAULT_TABLES_IN = "thread"


@dataclass(frozen=True)
class GameDefaults:
    preset: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class GuildSettings:
    """``timer`` is the default ``timer`` option value (None: the game's own default);
    ``channels`` the channel ids tables may open in (None: everywhere); ``language`` the
    language of the server's public messages (a code of ``bot.i18n.LANGUAGES``; None: the
    server's preferred locale); ``tables_in`` where ``/new`` opens a table (one of
    ``TABLES_IN``; None: ``DEFAULT_TABLES_IN``)."""

    timer: int | str | None = None
    channels: tuple[int, ...] | None = None
    games: Mapping[str, GameDefaults] = field(default_factory=dict)
    language: str | None = None
    tables_in: str | None = None

    @property
    def opens_in(self) -> str:
        """Where ``/new`` opens a table here (a stored value we do not know counts as unset)."""
        return self.tables_in if self.tables_in in TABLES_IN else DEFAULT_TABLES_IN


# -- SQL --------------------------------------------------------------------------------------
def load(conn: Connection, guild_id: int) -> GuildSettings:
    row = conn.execute(
        "SELECT timer, channels, language, tables_in FROM guild_settings WHERE guild_id = ?",
        (guild_id,),
    ).fetchone()
    timer = None if row is None or row[0] is None else json.loads(row[0])
    channels = None if row is None or row[1] is None else tuple(json.loads(row[1]))
    games = {
        game: GameDefaults(preset, json.loads(options))
        for game, preset, options in conn.execute(
            "SELECT game, preset, options FROM guild_game_defaults WHERE guild_id = ?",
            (guild_id,),
        )
    }
    language = None if row is None else row[2]
    tables_in = None if row is None else row[3]
    return GuildSettings(timer, channels, games, language, tables_in)


def chosen_languages(conn: Connection) -> dict[int, str]:
    """Every server whose admins chose the language of its public messages."""
    rows = conn.execute("SELECT guild_id, language FROM guild_settings WHERE language IS NOT NULL")
    return {int(guild): str(language) for guild, language in rows}


def _ensure(conn: Connection, guild_id: int) -> None:
    conn.execute(
        "INSERT INTO guild_settings (guild_id) VALUES (?) ON CONFLICT DO NOTHING", (guild_id,)
    )


def store_timer(conn: Connection, guild_id: int, timer: int | str | None) -> None:
    _ensure(conn, guild_id)
    value = None if timer is None else json.dumps(timer)
    conn.execute("UPDATE guild_settings SET timer = ? WHERE guild_id = ?", (value, guild_id))


def store_channels(conn: Connection, guild_id: int, channels: tuple[int, ...] | None) -> None:
    _ensure(conn, guild_id)
    value = None if channels is None else json.dumps(sorted(set(channels)))
    conn.execute("UPDATE guild_settings SET channels = ? WHERE guild_id = ?", (value, guild_id))


def store_language(conn: Connection, guild_id: int, language: str | None) -> None:
    _ensure(conn, guild_id)
    conn.execute("UPDATE guild_settings SET language = ? WHERE guild_id = ?", (language, guild_id))


def store_tables_in(conn: Connection, guild_id: int, tables_in: str | None) -> None:
    _ensure(conn, guild_id)
    conn.execute(
        "UPDATE guild_settings SET tables_in = ? WHERE guild_id = ?", (tables_in, guild_id)
    )


def store_game_defaults(
    conn: Connection, guild_id: int, game: str, defaults: GameDefaults | None
) -> None:
    if defaults is None:
        conn.execute(
            "DELETE FROM guild_game_defaults WHERE guild_id = ? AND game = ?", (guild_id, game)
        )
        return
    conn.execute(
        "INSERT INTO guild_game_defaults (guild_id, game, preset, options) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (guild_id, game) DO UPDATE SET preset = excluded.preset,"
        " options = excluded.options",
        (guild_id, game, defaults.preset, json.dumps(dict(defaults.options), sort_keys=True)),
    )


# -- pure rules -------------------------------------------------------------------------------
def check_channel(settings: GuildSettings, channel_id: int) -> None:
    """Raise ChannelNotAllowed unless tables may open in ``channel_id``."""
    if settings.channels is None or channel_id in settings.channels:
        return
    if not settings.channels:
        raise ChannelNotAllowed(_("The server's admins have not allowed tables in any channel."))
    where = ", ".join(f"<#{c}>" for c in settings.channels)
    raise ChannelNotAllowed(_("Tables can't be opened here. Use one of: {where}.", where=where))


def merge_defaults(
    settings: GuildSettings, game: str, preset: str | None, options: Mapping[str, Any]
) -> tuple[str | None, dict[str, Any]]:
    """The preset and options ``/new`` should open with (the rules are in the docstring)."""
    spec = engine.GAMES.get(game)
    merged: dict[str, Any] = {}
    has_timer = spec is not None and any(o.name == "timer" for o in spec.options)
    if settings.timer is not None and has_timer:
        merged["timer"] = settings.timer
    defaults = settings.games.get(game)
    if preset is None and defaults is not None:
        preset = defaults.preset
        merged.update(defaults.options)
    merged.update(options)
    return preset, merged


def parse_options(game: str, text: str) -> dict[str, Any]:
    """``"timer=30 first_dealer=0"`` (commas or spaces) into validated option values.
    Raises UnknownGame with the engine's words."""
    spec = engine.GAMES[game]
    out: dict[str, Any] = {}
    for item in text.replace(",", " ").split():
        name, sep, value = item.partition("=")
        if not sep or not name or not value:
            raise UnknownGame(
                _("Write options as name=value, e.g. `{option}=...`.", option=spec.options[0].name)
            )
        try:
            out[name.strip().lower()] = spec.option(name.strip().lower()).parse(value)
        except IllegalAction as exc:
            raise UnknownGame(refusal_text(exc)) from None
    return out


def validate_defaults(game: str, defaults: GameDefaults) -> None:
    """Raise UnknownGame if the preset / options are not valid for the game."""
    spec = engine.GAMES[game]
    try:
        spec.resolve(defaults.preset, defaults.options)
    except IllegalAction as exc:
        raise UnknownGame(refusal_text(exc)) from None


# -- async access -----------------------------------------------------------------------------
class GuildRules:
    """The guild settings on the bot's database (the table service's ``service.db``)."""

    def __init__(self, db: DatabaseBackend) -> None:
        self.db = db

    async def get(self, guild_id: int) -> GuildSettings:
        return await self.db.run(lambda conn: load(conn, guild_id))

    async def set_timer(self, guild_id: int, timer: int | str | None) -> None:
        await self.db.write(lambda conn: store_timer(conn, guild_id, timer))

    async def set_channels(self, guild_id: int, channels: tuple[int, ...] | None) -> None:
        await self.db.write(lambda conn: store_channels(conn, guild_id, channels))

    async def set_language(self, guild_id: int, language: str | None) -> None:
        await self.db.write(lambda conn: store_language(conn, guild_id, language))

    async def set_tables_in(self, guild_id: int, tables_in: str | None) -> None:
        if tables_in is not None and tables_in not in TABLES_IN:
            raise UnknownGame(_("`tables` is one of {modes}.", modes=", ".join(TABLES_IN)))
        await self.db.write(lambda conn: store_tables_in(conn, guild_id, tables_in))

    async def chosen_languages(self) -> dict[int, str]:
        return await self.db.run(chosen_languages)

    async def set_game_defaults(
        self, guild_id: int, game: str, defaults: GameDefaults | None
    ) -> None:
        if defaults is not None:
            validate_defaults(game, defaults)
        await self.db.write(lambda conn: store_game_defaults(conn, guild_id, game, defaults))

    async def opens_in(self, guild_id: int | None) -> str:
        """Where ``/new`` opens a table in this guild (``TABLES_IN``)."""
        if guild_id is None:
            return DEFAULT_TABLES_IN
        return (await self.get(guild_id)).opens_in

    async def for_new_table(
        self,
        guild_id: int | None,
        channel_id: int,
        game: str,
        preset: str | None,
        options: Mapping[str, Any],
    ) -> tuple[str | None, dict[str, Any]]:
        """The hook ``/new`` calls before opening: raises ChannelNotAllowed if the channel is
        not allowed, else returns the preset and options with the guild's defaults filled in."""
        if guild_id is None:
            return preset, dict(options)
        settings = await self.get(guild_id)
        check_channel(settings, channel_id)
        return merge_defaults(settings, game, preset, options)
