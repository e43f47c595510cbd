"""The way into the table in the browser (``bot/web``): ``/tablelink`` and the hand panel's
**Open table** button, each giving the user his own signed link (``bot.web.links``).

A seated player's link shows his seat; a watcher's (and a player whose seat the AI took) the
public table. With ``WEB_PORT`` off there is no button and the command says so.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import custom_ids
from bot.i18n import _, _p
from bot.service import NotAtTable
from cogs.common import channel_id, ok, service_of, table_here
from cogs.live_panels import Builder

#: Components a message may have in a row, and rows.
ROW_SIZE = 5
ROWS = 5


def personal_link(interaction: discord.Interaction, channel: int) -> str | None:
    """The user's link to the channel's table, or None when the web table is off."""
    web = getattr(interaction.client, "web", None)
    if web is None:
        return None
    link: str = web.link(interaction.user.id, channel, str(interaction.locale))
    return link


def open_button(url: str) -> dict[str, Any]:
    return {"type": 2, "style": 5, "label": _p("button", "Open table")[:80], "url": url}


def with_link(components: custom_ids.Sealed, url: str | None) -> custom_ids.Sealed:
    """``components`` with an **Open table** link button in the last row (or a row of its
    own); unchanged without a link or room."""
    if url is None:
        return components
    rows = components.to_components()
    if rows and len(rows[-1].get("components", ())) < ROW_SIZE:
        rows[-1]["components"].append(open_button(url))
    elif len(rows) < ROWS:
        rows.append({"type": 1, "components": [open_button(url)]})
    else:
        return components
    return custom_ids.Sealed(rows)


def linked(interaction: discord.Interaction, channel: int, builder: Builder) -> Builder:
    """``builder`` (a live panel's) whose components keep the user's link button."""
    url = personal_link(interaction, channel)
    if url is None:
        return builder

    async def build(service: Any, channel: int, user_id: int) -> Any:
        shown, components, file = await builder(service, channel, user_id)
        return shown, None if components is None else with_link(components, url), file

    return build


class WebLink(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(
        name="tablelink",
        description="Your own link to this table in the browser (only you see it)",
    )
    async def tablelink(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        channel = channel_id(interaction)
        table = table_here(service, channel)
        user = interaction.user.id
        if table.seat_of(user) is None and user not in table.spectators:
            raise NotAtTable(
                _("Join this table or /watch it first: the link shows your seat or the table.")
            )
        url = personal_link(interaction, channel)
        if url is None:
            await ok(interaction, _("The table in the browser is off on this bot."))
            return
        view = discord.ui.View(timeout=None)
        view.add_item(
            discord.ui.Button(style=discord.ButtonStyle.link, label=_p("button", "Open table"),
                              url=url)
        )  # fmt: skip
        await interaction.response.send_message(
            _("Your own link to this table (do not share it: it opens your seat)."),
            view=custom_ids.sealed(view),
            ephemeral=True,
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(WebLink(bot))
