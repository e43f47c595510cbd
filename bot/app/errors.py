"""Answers for failed interactions: the service's reason, or a short apology.

A ``TableError`` (bad input, wrong turn, no table, ...) is the player's mistake: its message is
shown ephemerally. Anything else is our bug: logged with its traceback, answered with an apology,
never "The application did not respond".
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.app.limits import excerpt, fit
from bot.i18n import N_, _
from bot.service import NoTable, TableError

log = logging.getLogger(__name__)

APOLOGY = N_("Sorry, something went wrong on our side. The table is unchanged; please try again.")


def unwrap(error: BaseException) -> BaseException:
    while isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    return error


def player_message(error: BaseException) -> str | None:
    """The text to show the player, or None if this is an unexpected error."""
    error = unwrap(error)
    if isinstance(error, TableError):
        return excerpt(str(error))
    if isinstance(error, app_commands.CheckFailure | app_commands.TransformerError):
        return str(error) or _("You cannot use this command here.")
    return None


async def answer(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral answer whether or not the interaction was already answered."""
    text = fit(text, what="answer")[0] or "…"
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not answer interaction %s", interaction.id, exc_info=True)


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    text = player_message(error)
    if isinstance(unwrap(error), NoTable):
        # No table here, but the channel's tables are in threads: say where, never guess.
        threads = getattr(interaction.client, "threads", None)
        hint = threads.hint(interaction.channel_id) if threads is not None else None
        if hint is not None:
            text = hint
    if text is None:
        command = interaction.command.qualified_name if interaction.command else "component"
        log.error("error in %s", command, exc_info=unwrap(error))
        text = _(APOLOGY)
    await answer(interaction, text)
