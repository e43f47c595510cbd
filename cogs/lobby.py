"""Opening and filling a table: /new <game>, /join, /leave, /addbot, /kick, /start, /options,
/abandon."""

from __future__ import annotations

import contextlib
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.threads import ThreadRefused, thread_home, why_not_thread
from bot.i18n import _
from bot.leaderboard import GuildRules
from bot.render import embeds
from bot.service import NotAtTable, NotHost, TableError, TableStatus
from bot.service.table_settings import (
    HINTS_MODES,
    SEATS_MODES,
    hints_mode,
    invited,
    seats_mode,
    was_hinted,
)
from bot.service.table_settings import away_after as away_after_of
from cogs.admin import has_manage_guild
from cogs.common import (
    bot_of,
    channel_id,
    display_name,
    guild_id,
    joined_text,
    ok,
    service_of,
    table_here,
)
from cogs.new_table import build_new_command
from cogs.options_view import editor_for
from engine import GAMES
from engine.ai import LEVELS

LEVEL_CHOICES = [app_commands.Choice(name=level, value=level) for level in LEVELS]
#: The level an AI gets when the host does not say: a fair opponent, not the strongest.
DEFAULT_LEVEL = "normal" if "normal" in LEVELS else LEVELS[0]


async def open_table(
    interaction: discord.Interaction, game: str, preset: str | None, options: dict[str, Any]
) -> None:
    service = service_of(interaction)
    rules = GuildRules(service.db)
    guild = guild_id(interaction)
    here = channel_id(interaction)
    # The guild's allowed channels and defaults (/admin channels, /admin defaults); inside a
    # thread, its channel is the one allowed or not.
    parent = getattr(interaction.channel, "parent_id", None) or here
    preset, options = await rules.for_new_table(guild, parent, game, preset, options)
    why_not: str | None = None
    if await rules.opens_in(guild) == "thread":
        # (Used in a thread, a table's say, the new table gets a thread of that channel.)
        home = thread_home(interaction)
        why_not = why_not_thread(interaction, home)
        threads = bot_of(interaction).threads
        if why_not is None and threads is not None and home is not None:
            # The post, the thread and the stored table are two requests and a write before the
            # answer: deferred (privately), so that a slow Discord never runs past 3 seconds.
            await interaction.response.defer(ephemeral=True, thinking=True)
            try:
                table = await threads.open_in_thread(
                    interaction, home, game, preset, options, display_name(interaction.user)
                )
            except ThreadRefused as refused:
                why_not = str(refused)
            else:
                await ok(
                    interaction,
                    _(
                        "You opened a {game} table in its own thread, {thread}, and took seat"
                        " 1. Others join there with /join or the Join button; add AI players"
                        " with /addbot, change options with /options, then /start.",
                        game=_(table.title),
                        thread=f"<#{table.channel_id}>",
                    ),
                )
                return
    table = await service.open_table(
        here,
        guild,
        interaction.user.id,
        display_name(interaction.user),
        game,
        preset,
        options,
    )
    opened = _(
        "You opened a {game} table and took seat 1. Others join with /join or the Join "
        "button; add AI players with /addbot, change options with /options, then /start.",
        game=_(table.title),
    )
    await ok(interaction, opened if why_not is None else f"{why_not}\n\n{opened}")


def new_group() -> app_commands.Group:
    group = app_commands.Group(name="new", description="Open a table for a game in this channel")
    for spec in GAMES.values():
        group.add_command(build_new_command(spec, open_table))
    return group


class Lobby(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.new = new_group()

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.new)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.new.name)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Any command or button of an away player brings him back (the service does nothing,
        and takes no lock, for everyone else)."""
        if interaction.channel_id is None or interaction.guild_id is None:
            return
        # (TableError: the table ended or was set aside meanwhile: nobody to bring back.)
        with contextlib.suppress(TableError):
            await service_of(interaction).come_back(interaction.channel_id, interaction.user.id)

    @app_commands.command(name="join", description="Take a seat at this channel's table")
    @app_commands.describe(
        seat="The seat number you want (1 = the host's seat); any free one if empty",
        partner="Sit on this seated player's team (games with teams)",
    )
    async def join(
        self,
        interaction: discord.Interaction,
        seat: app_commands.Range[int, 1, 10] | None = None,
        partner: discord.Member | None = None,
    ) -> None:
        table = await service_of(interaction).join(
            channel_id(interaction),
            interaction.user.id,
            display_name(interaction.user),
            seat=None if seat is None else seat - 1,
            partner_id=None if partner is None else partner.id,
        )
        mine = table.seat_of(interaction.user.id)
        if table.status is TableStatus.PLAYING:
            if mine is None:
                await ok(interaction, _("You play now. Your hand: /hand or Show my hand."))
            else:
                await ok(
                    interaction,
                    _("You play at seat {number} now. Your hand: /hand or Show my hand.",
                      number=mine.index + 1),
                )  # fmt: skip
            return
        await ok(interaction, joined_text(table.title, mine.index if mine else None))

    @app_commands.command(
        name="leave", description="Leave the table (during play the AI takes your seat)"
    )
    async def leave(self, interaction: discord.Interaction) -> None:
        table = await service_of(interaction).leave(channel_id(interaction), interaction.user.id)
        if table.status is TableStatus.PLAYING:
            await ok(
                interaction,
                _("You left the game: the AI plays your seat from now on (/join takes it back)."),
            )
        else:
            await ok(interaction, _("You left the table."))

    @app_commands.command(name="addbot", description="Seat an AI player (host only)")
    @app_commands.describe(level="How well it plays")
    @app_commands.choices(level=LEVEL_CHOICES)
    async def addbot(self, interaction: discord.Interaction, level: str | None = None) -> None:
        table = await service_of(interaction).add_ai(
            channel_id(interaction), interaction.user.id, level or DEFAULT_LEVEL
        )
        await ok(
            interaction, _("An AI player sits down. Seats taken: {count}.", count=len(table.seats))
        )

    @app_commands.command(
        name="kick", description="Remove a player or an AI seat (host; an admin: away players)"
    )
    @app_commands.describe(member="The player to remove", seat="Or the seat number (for an AI)")
    async def kick(
        self,
        interaction: discord.Interaction,
        member: discord.Member | None = None,
        seat: app_commands.Range[int, 1, 10] | None = None,
    ) -> None:
        service = service_of(interaction)
        channel = channel_id(interaction)
        table = table_here(service, channel)
        index = None if seat is None else seat - 1
        if member is not None:
            found = table.seat_of(member.id)
            if found is None:
                raise NotAtTable(_("{name} is not at this table.", name=member.display_name))
            index = found.index
        if index is None:
            raise NotHost(_("Say whom to remove: a member, or a seat number."))
        name = table.name_of(index)
        await service.kick(channel, interaction.user.id, index, admin=has_manage_guild(interaction))
        await ok(interaction, _("{name} was removed from the table.", name=name))

    @app_commands.command(name="start", description="Start the game (host only)")
    async def start(self, interaction: discord.Interaction) -> None:
        table = await service_of(interaction).start_game(
            channel_id(interaction), interaction.user.id
        )
        await ok(
            interaction,
            _("{game} has started. Your hand: /hand or Show my hand.", game=_(table.title)),
        )

    @app_commands.command(
        name="options", description="Show the table's options (the host changes them here)"
    )
    async def options(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        channel = channel_id(interaction)
        table = table_here(service, channel)
        embed = embeds.options_embed(table)
        if table.status is TableStatus.LOBBY and interaction.user.id == table.host_id:
            editor = editor_for(service, channel, interaction.user.id, table.game)
            await interaction.response.send_message(embed=embed, view=editor, ephemeral=True)
        else:
            await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(
        name="tablesettings",
        description="Who may take a free seat in play, when a player is away, whether /hint works",
    )
    @app_commands.describe(
        seats="open: any member may take an AI's seat during play; invite: only those the host "
        "invited (/tableinvite); closed: nobody",
        away_after="Turns in a row run out by the timer before a player counts as away",
        hints="on: /hint shows a player the hard AI's move (the game is then not rated)",
    )
    @app_commands.choices(
        seats=[app_commands.Choice(name=mode, value=mode) for mode in SEATS_MODES],
        hints=[app_commands.Choice(name=mode, value=mode) for mode in HINTS_MODES],
    )
    async def tablesettings(
        self,
        interaction: discord.Interaction,
        seats: str | None = None,
        away_after: app_commands.Range[int, 1, 20] | None = None,
        hints: str | None = None,
    ) -> None:
        service = service_of(interaction)
        channel = channel_id(interaction)
        if seats is None and away_after is None and hints is None:
            table = table_here(service, channel)
        else:
            table = await service.set_settings(
                channel, interaction.user.id, seats=seats, away_after=away_after, hints=hints
            )
        fields = {
            "seats": seats_mode(table.settings),
            "away_after": away_after_of(table.settings),
            "hints": hints_mode(table.settings),
        }
        # i18n: {seats} and {hints} are the setting values as typed (open, invite, closed; on, off)
        if was_hinted(table.settings):
            text = _(
                "Seats during play: **{seats}**; a player counts as away after **{away_after}**"
                " turns in a row run out; hints: **{hints}** (this game is not rated).",
                **fields,
            )
        else:
            text = _(
                "Seats during play: **{seats}**; a player counts as away after **{away_after}**"
                " turns in a row run out; hints: **{hints}**.",
                **fields,
            )
        await ok(interaction, text)

    # (Not /invite: that one posts the bot's own invite link.)
    @app_commands.command(
        name="tableinvite",
        description="Invite a member to take a free seat during play (host; seats = invite)",
    )
    @app_commands.describe(member="The member who may take an AI's or a vacated seat")
    async def tableinvite(self, interaction: discord.Interaction, member: discord.Member) -> None:
        table = await service_of(interaction).invite(
            channel_id(interaction), interaction.user.id, member.id
        )
        mode = seats_mode(table.settings)
        fields = {"name": member.display_name, "count": len(invited(table.settings)), "mode": mode}
        if mode == "invite":
            text = _(
                "You invited {name} ({count} invited): they may take an AI's or a vacated seat"
                " during play with /join.",
                **fields,
            )
        else:
            text = _(
                "You invited {name} ({count} invited): seats during play are **{mode}** now; the"
                " invitation counts once you set /tablesettings seats:invite.",
                **fields,
            )
        await ok(interaction, text)

    @app_commands.command(name="abandon", description="Abandon the table (host), or vote to")
    async def abandon(self, interaction: discord.Interaction) -> None:
        result = await service_of(interaction).abandon(channel_id(interaction), interaction.user.id)
        if result.abandoned:
            await ok(interaction, _("The table is abandoned."))
        else:
            await ok(
                interaction,
                _("Your vote to abandon counts: {votes} of {needed}.", votes=result.votes,
                  needed=result.needed),
            )  # fmt: skip


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Lobby(bot))
