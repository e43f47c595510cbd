"""``/admin``: the server's admins run the leaderboard and the tables.

Commands: ``season new``, ``leaderboard remove|restore <member>``, ``defaults`` (default timer,
default preset/options per game, the language, and whether ``/new`` opens a table in its own
thread or in the channel itself), ``tables`` (the server's tables and their state, those set
aside as broken included), ``end [channel]`` (close the channel's broken table, else force-end
its table, recorded as abandoned), ``channels`` (allow tables only in listed channels, or
everywhere) and ``forget <member>`` (delete a member's stored data from the server).

The group's default permission is Manage Server (Discord hides it from other members), and every
command checks it again on use: a server can grant the command to others in its Integrations
settings, and those members get an ephemeral refusal (nothing changes). Answers are ephemeral.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.errors import answer
from bot.app.languages import ServerLanguages
from bot.i18n import LANGUAGES, N_, _, _n
from bot.i18n.later import later
from bot.leaderboard import GameDefaults, GuildRules, GuildSettings
from bot.leaderboard.guild_settings import TABLES_IN, parse_options
from bot.service import NoTable, TableError, TableService, TableStatus, TableSummary
from cogs.common import display_name
from cogs.leaderboard import GAME_CHOICES, answers_refusals, guild_of, leaderboard_of
from engine import GAMES
from engine.options import TIMER, format_value

TIMER_CHOICES = [
    app_commands.Choice(name=format_value(v), value=format_value(v)) for v in TIMER.values()
] + [app_commands.Choice(name="game default", value="default")]
CHANNEL_ACTIONS = [
    app_commands.Choice(name="show", value="show"),
    app_commands.Choice(name="allow this/that channel", value="add"),
    app_commands.Choice(name="disallow this/that channel", value="remove"),
    app_commands.Choice(name="everywhere", value="everywhere"),
]
#: The languages public messages can be written in (each in its own name), or the server's.
SERVER_LANGUAGE = "server"
LANGUAGE_CHOICES = [app_commands.Choice(name=name, value=code) for code, name in LANGUAGES.items()]
LANGUAGE_CHOICES.append(app_commands.Choice(name="the server's language", value=SERVER_LANGUAGE))
#: Where /new opens a table (``guild_settings.TABLES_IN``).
TABLES_CHOICES = [
    app_commands.Choice(name="in a new thread of the channel", value="thread"),
    app_commands.Choice(name="in the channel itself", value="channel"),
]
REFUSAL = N_("Only members with the Manage Server permission can use /admin commands.")
#: Discord's limit on a message's text.
MESSAGE_CHARS = 2000
#: The most of a player list or a broken table's reason one line of ``/admin tables`` shows.
LINE_PART_CHARS = 120


F = TypeVar("F", bound=Callable[..., Coroutine[Any, Any, None]])


def has_manage_guild(interaction: discord.Interaction) -> bool:
    if interaction.guild is None:
        return False
    user = interaction.user
    perms = user.guild_permissions if isinstance(user, discord.Member) else interaction.permissions
    return perms.manage_guild or perms.administrator


def admin_only(func: F) -> F:
    """The on-use check: refuse (ephemerally, changing nothing) a member without Manage Server;
    refusals of the command itself (``TableError``) are answered the same way."""
    guarded = answers_refusals(func)

    @functools.wraps(func)
    async def wrapper(
        self: Any, interaction: discord.Interaction, *args: Any, **kwargs: Any
    ) -> None:
        if not has_manage_guild(interaction):
            await answer(interaction, _(REFUSAL))
            return
        await guarded(self, interaction, *args, **kwargs)

    return wrapper  # type: ignore[return-value]


def settings_text(settings: GuildSettings, language: str | None = None) -> str:
    """The server's defaults; ``language``: the language its public messages are written in
    (shown when known)."""
    timer = _("game default") if settings.timer is None else format_value(settings.timer)
    if settings.channels is None:
        channels = _("everywhere")
    else:
        channels = ", ".join(f"<#{c}>" for c in settings.channels) or _("nowhere")
    if settings.opens_in == "thread":
        opens = _("a new thread of the channel, one per table")
    else:
        opens = _("the channel itself, one table per channel")
    lines = [
        _("**Default timer:** {timer}", timer=timer),
        _("**Tables allowed in:** {channels}", channels=channels),
        _("**/new opens a table in:** {where}", where=opens),
    ]
    if language is not None:
        name = LANGUAGES.get(language, language)
        if settings.language is None:
            lines.append(_("**Language:** {language} (the server's)", language=name))
        else:
            lines.append(_("**Language:** {language}", language=name))
    for game, spec in GAMES.items():
        defaults = settings.games.get(game)
        if defaults is None:
            continue
        options = " ".join(f"{k}={format_value(v)}" for k, v in sorted(defaults.options.items()))
        preset = defaults.preset or _("none")
        if options:
            lines.append(_("**{game}:** preset {preset}, {options}", game=spec.title,
                           preset=preset, options=options))  # fmt: skip
        else:
            lines.append(_("**{game}:** preset {preset}", game=spec.title, preset=preset))
    return "\n".join(lines)


def _clip(text: str, limit: int = LINE_PART_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def table_line(table: TableSummary) -> str:
    """One table of ``/admin tables``: where, what, its state."""
    where = {"channel": f"<#{table.channel_id}>", "game": _(table.title), "id": table.table_id}
    if table.status is TableStatus.BROKEN:
        # (The reason is the error, in English, as logged.)
        return _("{channel} {game} (table {id}): **broken**: {reason}. `/admin end` closes it.",
                 reason=_clip(table.reason or "unknown"), **where)  # fmt: skip
    players = _clip(", ".join(table.players) or _("nobody"))
    if table.status is TableStatus.LOBBY:
        return _("{channel} {game} (table {id}): lobby, {players}", players=players, **where)
    return _("{channel} {game} (table {id}): playing, move {move}, {players}",
             move=table.move_number, players=players, **where)  # fmt: skip


def tables_text(tables: list[TableSummary]) -> str:
    """The list, cut to fit one Discord message (the rest is counted)."""
    if not tables:
        return _("This server has no open table.")
    lines = [_("**Tables ({count}):**", count=len(tables))]
    size = len(lines[0])
    for shown, table in enumerate(tables):
        line = table_line(table)
        rest = _n("… and {n} more.", "… and {n} more.", len(tables) - shown)
        if size + 1 + len(line) + 1 + len(rest) > MESSAGE_CHARS:
            lines.append(rest)
            break
        lines.append(line)
        size += 1 + len(line)
    return "\n".join(lines)


async def say(interaction: discord.Interaction, text: str) -> None:
    await interaction.response.send_message(text, ephemeral=True)


class Admin(commands.Cog):
    admin = app_commands.Group(
        name="admin",
        description="Server admins: seasons, leaderboard, table defaults, channels",
        default_permissions=discord.Permissions(manage_guild=True),
        guild_only=True,
    )
    season = app_commands.Group(name="season", description="Leaderboard seasons", parent=admin)
    board = app_commands.Group(
        name="leaderboard", description="Who shows on the boards", parent=admin
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @property
    def service(self) -> TableService:
        return self.bot.service  # type: ignore[attr-defined, no-any-return]

    @property
    def languages(self) -> ServerLanguages:
        """The server languages the publisher writes in (see ``bot.app.languages``)."""
        return self.bot.table_publisher.languages  # type: ignore[attr-defined, no-any-return]

    # -- seasons and boards -------------------------------------------------------------------
    @season.command(name="new", description="End this season and start a new one (boards reset)")
    @admin_only
    async def season_new(self, interaction: discord.Interaction) -> None:
        number = await leaderboard_of(self.service).new_season(guild_of(interaction))
        await say(
            interaction,
            _(
                "Season {number} has started: every board starts afresh. Season {previous} is"
                " kept (`/leaderboard season:{previous}`).",
                number=number,
                previous=number - 1,
            ),
        )

    @board.command(name="remove", description="Hide a member from the boards")
    @app_commands.describe(member="The member to hide (his games still count for the others)")
    @admin_only
    async def board_remove(self, interaction: discord.Interaction, member: discord.User) -> None:
        done = await leaderboard_of(self.service).hide(
            guild_of(interaction), member.id, interaction.user.id
        )
        name = display_name(member)
        await say(
            interaction,
            _("{name} no longer shows on the boards.", name=name)
            if done
            else _("{name} was already hidden.", name=name),
        )

    @board.command(name="restore", description="Show a hidden member on the boards again")
    @app_commands.describe(member="The member to show again")
    @admin_only
    async def board_restore(self, interaction: discord.Interaction, member: discord.User) -> None:
        done = await leaderboard_of(self.service).restore(guild_of(interaction), member.id)
        name = display_name(member)
        await say(
            interaction,
            _("{name} shows on the boards again.", name=name)
            if done
            else _("{name} was not hidden.", name=name),
        )

    # -- table settings -----------------------------------------------------------------------
    @admin.command(
        name="defaults", description="Default timer, preset/options, and the server's language"
    )
    @app_commands.describe(
        game="The game whose defaults to set (preset, options, reset)",
        preset="The game's default preset",
        options="The game's default options, e.g. timer=30 (see /rules)",
        timer="Default seconds per move for every game",
        reset="Forget the game's defaults",
        language="The language of the tables' public messages (default: the server's)",
        tables="Where /new opens a table: its own thread (the default), or the channel itself",
    )
    @app_commands.choices(
        game=GAME_CHOICES, timer=TIMER_CHOICES, language=LANGUAGE_CHOICES, tables=TABLES_CHOICES
    )
    @admin_only
    async def defaults(
        self,
        interaction: discord.Interaction,
        game: str | None = None,
        preset: app_commands.Range[str, 1, 40] | None = None,
        options: app_commands.Range[str, 1, 400] | None = None,
        timer: str | None = None,
        reset: bool = False,
        language: str | None = None,
        tables: str | None = None,
    ) -> None:
        guild = guild_of(interaction)
        rules = GuildRules(self.service.db)
        if tables is not None and tables not in TABLES_IN:
            raise TableError(_("`tables` is one of {modes}.", modes=", ".join(TABLES_IN)))
        if (preset or options or reset) and game is None:
            raise TableError(_("Say which game: `game` is needed with preset, options or reset."))
        if language is not None:
            chosen = None if language == SERVER_LANGUAGE else language
            if chosen is not None and chosen not in LANGUAGES:
                raise TableError(
                    _("There is no language `{language}`. Languages: {languages}.",
                      language=language, languages=", ".join([*LANGUAGES, SERVER_LANGUAGE]))
                )  # fmt: skip
            await self.languages.choose(rules, guild, chosen)
        if tables is not None:
            await rules.set_tables_in(guild, tables)
        if timer is not None:
            value: int | str | None = None if timer == "default" else TIMER.parse(timer)
            await rules.set_timer(guild, value)
        if game is not None and reset:
            await rules.set_game_defaults(guild, game, None)
        elif game is not None and (preset or options):
            current = (await rules.get(guild)).games.get(game, GameDefaults())
            new_options = dict(current.options)
            if options:
                new_options.update(parse_options(game, options))
            chosen = current.preset if preset is None else preset.strip().lower()
            if chosen == "none":
                chosen = None
            await rules.set_game_defaults(guild, game, GameDefaults(chosen, new_options))
        await say(interaction, settings_text(await rules.get(guild), self.languages.of(guild)))

    @defaults.autocomplete("preset")
    async def preset_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        game = getattr(interaction.namespace, "game", None)
        names = list(GAMES[game].presets) if game in GAMES else []
        names.append("none")  # (typed: not translated)
        typed = current.strip().lower()
        return [app_commands.Choice(name=n, value=n) for n in names if n.startswith(typed)][:25]

    @admin.command(name="channels", description="Allow tables only in listed channels, or all")
    @app_commands.describe(
        action="Show the list, allow or disallow a channel, or allow everywhere",
        channel="The channel (default: this one)",
    )
    @app_commands.choices(action=CHANNEL_ACTIONS)
    @admin_only
    async def channels(
        self,
        interaction: discord.Interaction,
        action: str = "show",
        channel: discord.TextChannel | None = None,
    ) -> None:
        guild = guild_of(interaction)
        rules = GuildRules(self.service.db)
        target = channel.id if channel is not None else interaction.channel_id
        listed = (await rules.get(guild)).channels
        if action == "everywhere":
            await rules.set_channels(guild, None)
        elif action == "add" and target is not None:
            await rules.set_channels(guild, tuple({*(listed or ()), target}))
        elif action == "remove" and target is not None:
            if listed is None:
                # Everywhere minus one: list every text channel but this one.
                others = [c.id for c in getattr(interaction.guild, "text_channels", [])]
                listed = tuple(others)
            await rules.set_channels(guild, tuple(c for c in listed if c != target))
        await say(interaction, settings_text(await rules.get(guild)))

    # -- tables and members -------------------------------------------------------------------
    @admin.command(name="end", description="Force-end the table in a channel (abandoned)")
    @app_commands.describe(channel="The table's channel (default: this one)")
    @admin_only
    async def end(
        self,
        interaction: discord.Interaction,
        # (A thread too: a table in its own thread lives there.)
        channel: discord.TextChannel | discord.Thread | None = None,
    ) -> None:
        target = channel.id if channel is not None else interaction.channel_id or 0
        # A table set aside as broken is what an admin comes to close: it goes first, and a
        # new game opened in the channel meanwhile is left alone.
        closed = await self.service.close_broken(target, interaction.guild_id)
        if closed:
            ids = ", ".join(str(b.table_id) for b in closed)
            await say(
                interaction,
                _("The broken table ({ids}) in {channel} is closed.", ids=ids,
                  channel=f"<#{target}>"),
            )  # fmt: skip
            return
        table = self.service.get_table(target)
        if table is None or table.guild_id != interaction.guild_id:
            raise NoTable(_("There is no table in {channel}.", channel=f"<#{target}>"))
        await self.service.force_end(target, interaction.user.id, later("a server admin ended it"))
        if table.status is TableStatus.PLAYING:
            text = _("The {game} game in {channel} is ended and recorded as abandoned.",
                     game=_(table.title), channel=f"<#{target}>")  # fmt: skip
        else:
            text = _("The {game} lobby in {channel} is closed.", game=_(table.title),
                     channel=f"<#{target}>")  # fmt: skip
        await say(interaction, text)

    @admin.command(name="tables", description="The server's tables and their state")
    @admin_only
    async def tables(self, interaction: discord.Interaction) -> None:
        await say(interaction, tables_text(self.service.guild_tables(interaction.guild_id)))

    @admin.command(name="forget", description="Delete a member's stored data from this server")
    @app_commands.describe(member="The member (his seats in results become anonymous)")
    @admin_only
    async def forget(self, interaction: discord.Interaction, member: discord.User) -> None:
        guild = guild_of(interaction)
        seated = [
            t
            for t in self.service.tables()
            if t.guild_id == guild and t.seat_of(member.id) is not None
        ]
        if seated:
            where = ", ".join(f"<#{t.channel_id}>" for t in seated)
            raise TableError(
                _("{name} sits at a table ({where}). End it with /admin end first.",
                  name=display_name(member), where=where)
            )  # fmt: skip
        games = await leaderboard_of(self.service).forget(guild, member.id)
        await say(
            interaction,
            _n(
                "Forgot {name}: ratings and stats deleted; in {n} recorded game the seat stays"
                " as an anonymous player so the others' results stay whole.",
                "Forgot {name}: ratings and stats deleted; in {n} recorded games the seat stays"
                " as an anonymous player so the others' results stay whole.",
                games,
                name=display_name(member),
            ),
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Admin(bot))
