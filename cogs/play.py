"""Playing: /table, /hand, /deck, /score, /history, /watch, and the move commands generated from the
games' verbs."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.limits import fit
from bot.app.publisher import TablePublisher
from bot.i18n import _
from bot.records import RecordError, build, finished_game
from bot.records.record import final_game
from bot.records.store import FinishedGame, last_finished_in
from bot.render import embeds
from bot.service import NotAtTable, TableService, TableStatus
from cogs.common import bot_of, channel_id, ok, service_of, table_here
from cogs.live_panels import Builder, Drawn
from cogs.moves import build_move_command, declared_verbs
from cogs.panels import remember_live, send_panel

DECK_CHOICES = [
    app_commands.Choice(name="two colours", value="two"),
    app_commands.Choice(name="four colours", value="four"),
]


def watched_table(publisher: TablePublisher) -> Builder:
    """The public table as a watcher sees it (an ephemeral copy kept up to date): the table
    message as the publisher renders it."""

    async def build(service: TableService, channel: int, user_id: int) -> Drawn:
        shown, _, file = await publisher.render(table_here(service, channel))
        return fit(None, shown, what="/watch")[1], None, file

    return build


async def last_finished_scores(
    service: TableService, guild: int | None, channel: int
) -> discord.Embed | None:
    """The score sheet of the last game finished in the channel, or None if none was."""

    def read(conn: Any) -> tuple[FinishedGame, dict[str, Any]] | None:
        table_id = last_finished_in(conn, guild, channel)
        found = None if table_id is None else finished_game(conn, guild, table_id)
        return None if found is None else (found, build(found))

    try:
        found = await service.db.run(read)
    except RecordError:
        return None  # its log was set aside as damaged: no sheet to show
    if found is None:
        return None
    finished, record = found
    names = [str(seat["name"]) for seat in record["seats"]]
    view = final_game(record).view(None)
    return embeds.finished_scores_embed(finished.game, view, names, finished.result)


class Play(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        #: Built when the cog loads, so a game registered before then has its verbs too.
        self.moves = [build_move_command(verb) for verb in declared_verbs().values()]

    async def cog_load(self) -> None:
        for command in self.moves:
            self.bot.tree.add_command(command)

    async def cog_unload(self) -> None:
        for command in self.moves:
            self.bot.tree.remove_command(command.name)

    # -- looking --------------------------------------------------------------------------------
    @app_commands.command(
        name="watch",
        description="Watch this table: the public table, kept up to date, just for you",
    )
    async def watch(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        channel = channel_id(interaction)
        await service.spectate(channel, interaction.user.id)
        build = watched_table(bot_of(interaction).table_publisher)
        shown, _, file = await build(service, channel, interaction.user.id)
        kwargs: dict[str, Any] = {"embeds": shown, "ephemeral": True}
        if file is not None:
            kwargs["file"] = file
        await interaction.response.send_message(**kwargs)
        remember_live(interaction, channel, build)

    @app_commands.command(
        name="history", description="What was played in this hand so far (only you see it)"
    )
    async def history(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        channel = channel_id(interaction)
        table = table_here(service, channel)
        if table.status is not TableStatus.PLAYING:
            raise NotAtTable(_("The game has not started yet."))
        seen = service.view(channel, interaction.user.id)
        presenter = embeds.presenter_of(table)
        sections = presenter.history(seen.game or {}, embeds.seating_of(table, seen.seat))
        embed = discord.Embed(
            title=_("{heading}: so far", heading=embeds.heading(table, seen.game or {}))
        )
        embeds.add_sections(embed, sections)
        if not embed.fields:
            embed.description = _("Nothing has been played in this hand yet.")
        await interaction.response.send_message(
            embed=fit(None, [embed], what="/history")[1][0], ephemeral=True
        )

    @app_commands.command(name="table", description="Show the table (re-posts the table message)")
    async def table(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        channel = channel_id(interaction)
        table = table_here(service, channel)
        publisher = bot_of(interaction).table_publisher
        shown, view, file = await publisher.render(table)
        kwargs: dict[str, Any] = {"embeds": fit(None, shown, what="/table")[1]}
        if view is not None:
            kwargs["view"] = view
        if file is not None:
            kwargs["file"] = file
        await interaction.response.send_message(**kwargs)
        message = await interaction.original_response()
        hand = None
        if table.status is TableStatus.PLAYING:
            hand = (service.public_view(channel) or {}).get("hand_number")
        publisher.adopt(channel, table, message.id, hand)

    @app_commands.command(name="hand", description="Your hand and your moves (only you see it)")
    async def hand(self, interaction: discord.Interaction) -> None:
        await send_panel(interaction)

    @app_commands.command(name="deck", description="The colours of the cards in your own pictures")
    @app_commands.describe(colours="Two (♥♦ red, ♠♣ black) or four (♦ blue, ♣ green too)")
    @app_commands.choices(colours=DECK_CHOICES)
    async def deck(self, interaction: discord.Interaction, colours: str | None = None) -> None:
        decks = bot_of(interaction).player_decks
        if colours is not None:
            await decks.choose(service_of(interaction).db, interaction.user.id, colours)
        if decks.of(interaction.user.id) == "four":
            text = _(
                "Your hand pictures show four colours: ♥ red, ♦ blue, ♣ green, ♠ black."
                " The table message keeps two for everyone."
            )
        else:
            text = _(
                "Your hand pictures show two colours: ♥♦ red, ♠♣ black."
                " `/deck` can make ♦ blue and ♣ green too."
            )
        await ok(interaction, text)

    @app_commands.command(
        name="hint", description="The hard AI's move for you now, and why (only you see it)"
    )
    async def hint(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        channel = channel_id(interaction)
        hint = await service.hint(channel, interaction.user.id)
        presenter = embeds.presenter_of(hint.table)
        await ok(interaction, presenter.hint(hint.view, hint.action))

    @app_commands.command(name="score", description="The score sheet of this table")
    async def score(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        channel = channel_id(interaction)
        if service.get_table(channel) is None:
            finished = await last_finished_scores(service, interaction.guild_id, channel)
            if finished is not None:  # the game just ended: its sheet is what is asked for
                await interaction.response.send_message(embed=finished, ephemeral=True)
                return
        table = table_here(service, channel)
        view = service.public_view(channel) if table.status is TableStatus.PLAYING else None
        await interaction.response.send_message(
            embed=embeds.scores_embed(table, view), ephemeral=True
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Play(bot))
