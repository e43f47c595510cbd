"""The table as a Discord Activity (``bot/web/activity.py``, docs/activity.md): the table
message's **Play in Discord** button answers with Discord's launch-activity response, which
opens the Activity in the button's channel; the Activity opens that channel's table.

The button is on the message only when the Activity is configured (``TablePublisher.activity``);
the Entry Point command is synced with the tree (``bot.app.entry_point``).
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord.ext import commands

from bot.app import custom_ids
from bot.i18n import _p
from cogs.panels import InChannel


class PlayButton(
    InChannel, discord.ui.DynamicItem[discord.ui.Button[Any]], template=custom_ids.PLAY
):
    def __init__(self, channel: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=_p("button", "Play in Discord"), custom_id=custom_ids.play(channel)
            )
        )
        self.channel = channel

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PlayButton:
        return cls(int(match["channel"]))

    async def act(self, interaction: discord.Interaction) -> None:
        # Discord opens the Activity for the presser (type 12, LAUNCH_ACTIVITY); the page signs
        # in and Discord tells the bot the channel (never this button's id).
        await interaction.response.launch_activity()


class Activity(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Activity(bot))
    bot.add_dynamic_items(PlayButton)
