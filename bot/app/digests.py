"""The Discord side of the turn digests (``bot.service.digests``): the direct message itself.

The service decides when and what; this sends one embed to the player (``digest_embed``, in the
language he used ``/notify`` in) and says how it went. Discord answers 403 (code 50007) when a
user does not accept messages from the bot (direct messages closed, the bot blocked, no server
shared any more): that is ``CLOSED``, which the service remembers, and it is logged at info
level only (a player's choice, nothing to fix). The request goes through the bot's
``RequestBudget`` under the user's id, like a channel's.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord

from bot.app.budget import RequestBudget
from bot.i18n import use_locale
from bot.render.my_tables import digest_embed
from bot.service.digests import CLOSED, FAILED, SENT, Outcome, Turn
from bot.service.notify import NotifyPrefs

log = logging.getLogger(__name__)


class DigestSender:
    """``TableService.digest_sender`` for a discord.py client."""

    def __init__(self, bot: discord.Client, budget: RequestBudget | None = None) -> None:
        self.bot = bot
        self.budget = budget

    def server_name(self, guild_id: int | None) -> str | None:
        guild = None if guild_id is None else self.bot.get_guild(guild_id)
        return None if guild is None else guild.name

    async def __call__(self, prefs: NotifyPrefs, turns: Sequence[Turn]) -> Outcome:
        with use_locale(prefs.language):
            embed = digest_embed([t.table for t in turns], prefs.user_id, self.server_name)
        try:
            if self.budget is not None:
                await self.budget.acquire(prefs.user_id)
            user = self.bot.get_user(prefs.user_id) or await self.bot.fetch_user(prefs.user_id)
            await user.send(embed=embed)
        except discord.Forbidden:
            log.info("user %s does not accept direct messages from the bot", prefs.user_id)
            return CLOSED
        except discord.HTTPException as exc:
            log.warning("the turn digest of user %s was not sent: %s", prefs.user_id, exc)
            return FAILED
        return SENT
