"""``/mytables`` (the tables a player sits at in this server) and ``/notify`` (his direct
messages for turn-based tables and his quiet hours). Both answer privately.

``/notify`` takes the quiet hours as hours of the player's day (``22-7``) and his clock as he
reads it now (``my_time: 14:30``): the bot works out his offset from UTC from it, which he never
has to know (``bot.service.notify``).
"""

from __future__ import annotations

import dataclasses

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import _
from bot.i18n.core import language_of
from bot.render.my_tables import my_tables_embed
from bot.service import BadSetting, NoTable
from bot.service import notify as notify_rules
from bot.service.notify import NotifyPrefs
from cogs.common import service_of

ON_OFF = [app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")]


def prefs_text(prefs: NotifyPrefs) -> str:
    """The player's choices, as the answer to ``/notify`` says them."""
    if prefs.dm and prefs.dm_closed:
        dm = _("on, but your direct messages are closed to the bot: open them and run /notify.")
    elif prefs.dm:
        dm = _("on: one message when turns of your turn-based tables wait for you.")
    else:
        dm = _("off (the bot mentions you in the table's channel when your turn comes).")
    lines = [_("**Direct messages:** {state}", state=dm)]
    if prefs.quiet_start is not None and prefs.quiet_end is not None:
        lines.append(
            _("**Quiet hours:** {start}:00 to {end}:00 your time ({offset}): no message then.",
              start=prefs.quiet_start, end=prefs.quiet_end,
              offset=notify_rules.offset_text(prefs.utc_offset))
        )  # fmt: skip
    else:
        lines.append(_("**Quiet hours:** none (`quiet: 22-7` and `my_time` set them)."))
    return "\n".join(lines)


class MyTables(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(
        name="mytables", description="Your tables in this server and whose turn it is (only you)"
    )
    async def mytables(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:
            raise NoTable(_("Tables live in server channels: use this command in one."))
        service = service_of(interaction)
        user = interaction.user.id
        tables = service.tables_of(user, interaction.guild_id)
        await interaction.response.send_message(embed=my_tables_embed(tables, user), ephemeral=True)

    @app_commands.command(
        name="notify", description="A direct message when your turn-based tables wait for you"
    )
    @app_commands.describe(
        dm="A direct message (one for all your tables) when turns wait for you",
        quiet="Hours of your day without messages, e.g. 22-7 (off: none)",
        my_time="The time on your clock now, e.g. 14:30 (to know your day)",
    )
    @app_commands.choices(dm=ON_OFF)
    async def notify(
        self,
        interaction: discord.Interaction,
        dm: str | None = None,
        quiet: str | None = None,
        my_time: str | None = None,
    ) -> None:
        service = service_of(interaction)
        prefs = service.prefs_of(interaction.user.id)
        if dm is None and quiet is None and my_time is None:
            await interaction.response.send_message(prefs_text(prefs), ephemeral=True)
            return
        changed = dataclasses.replace(prefs, language=language_of(interaction.locale))
        if dm is not None:
            changed = dataclasses.replace(changed, dm=dm == "on")
        if my_time is not None:
            try:
                minutes = notify_rules.parse_local_time(my_time)
            except ValueError:
                raise BadSetting(
                    _("Write the time on your clock as hours:minutes, e.g. `14:30` or `2:30 pm`.")
                ) from None
            offset = notify_rules.offset_from_local_time(minutes, service.clock())
            changed = dataclasses.replace(changed, utc_offset=offset)
        if quiet is not None:
            try:
                hours = notify_rules.parse_quiet(quiet)
            except ValueError:
                raise BadSetting(
                    _("Write quiet hours as two hours of your day, e.g. `22-7` (or `off`).")
                ) from None
            if hours is not None and my_time is None and not prefs.has_quiet:
                raise BadSetting(
                    _("Tell me the time on your clock too (`my_time`, e.g. `14:30`): the quiet"
                      " hours are hours of your day.")
                )  # fmt: skip
            start, end = hours if hours is not None else (None, None)
            changed = dataclasses.replace(changed, quiet_start=start, quiet_end=end)
        stored = await service.set_notify(changed)
        await interaction.response.send_message(prefs_text(stored), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(MyTables(bot))
