"""What every cog shares: the service, names, ephemeral answers, and "act, then answer"."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord

from bot.app.errors import answer, report_error
from bot.i18n import _
from bot.i18n.core import set_locale
from bot.render.embeds import presenter_of
from bot.service import ActResult, EngineEvent, NoTable, NotAtTable, Table, TableError, TableService

if TYPE_CHECKING:
    from bot.app.client import TroikaBot

log = logging.getLogger(__name__)


def bot_of(interaction: discord.Interaction) -> TroikaBot:
    return interaction.client  # type: ignore[return-value]


def service_of(interaction: discord.Interaction) -> TableService:
    return bot_of(interaction).service


def channel_id(interaction: discord.Interaction) -> int:
    if interaction.channel_id is None:
        raise NoTable(_("Tables live in server channels: use this command in one."))
    return interaction.channel_id


def speak_to(interaction: discord.Interaction) -> None:
    """Write in the user's client language for the rest of this interaction's task (component
    callbacks; the command tree does it for commands)."""
    set_locale(interaction.locale)


def guild_id(interaction: discord.Interaction) -> int | None:
    return interaction.guild_id


def display_name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


def table_here(service: TableService, channel: int) -> Table:
    """The channel's table, or the service's "no table here" refusal."""
    table = service.get_table(channel)
    if table is None:
        raise NoTable()
    return table


def require_seat(service: TableService, channel: int, user_id: int) -> None:
    """Raise the service's kind of error when the user holds no seat at the channel's table."""
    if table_here(service, channel).seat_of(user_id) is None:
        raise NotAtTable(_("You are not playing at this table. Join it in the lobby with /join."))


def joined_text(game: str, seat: int | None) -> str:
    """The answer to a player who joined a lobby (``game``: its title, said in his language;
    ``seat``: his seat's index)."""
    if seat is None:
        return _("You joined {game}.", game=_(game))
    return _("You joined {game} at seat {number}.", game=_(game), number=seat + 1)


async def ok(interaction: discord.Interaction, text: str) -> None:
    await answer(interaction, text)


def as_played(action: str, seat: int, events: Sequence[EngineEvent]) -> str:
    """``action`` with its card as the engine understood it (``play k♦``, ``play th``, a
    roman numeral ``play XVIII`` -> ``play kd``, ``play 10h``, ``play t18``): the card of the
    move's own event (``play``, ``discard``, ``call``...: one whose type starts with the verb), so
    that the reply names the card, never the typing. Anything else as it is."""
    verb, _space, word = action.partition(" ")
    if not word or " " in word:
        return action
    for event in events:
        data = event.data
        card = data.get("card")
        if (
            data.get("seat") == seat
            and isinstance(card, str)
            and str(data.get("type", "")).startswith(verb)
        ):
            return f"{verb} {card.lower()}"
    return action


def move_note(result: ActResult) -> str:
    """The reply to the player's own move, naming its card as played (``as_played``)."""
    return presenter_of(result.table).you_did(as_played(result.action, result.seat, result.events))


async def fail(interaction: discord.Interaction, error: BaseException) -> None:
    """For component callbacks, which the command tree's error handler does not cover."""
    await report_error(interaction, error)


__all__ = [
    "TableError",
    "bot_of",
    "channel_id",
    "display_name",
    "as_played",
    "fail",
    "guild_id",
    "joined_text",
    "move_note",
    "ok",
    "require_seat",
    "service_of",
    "speak_to",
    "table_here",
]
