"""A player's tables as one embed: ``/mytables`` (every table he sits at in a server) and the
turn digest sent to him directly (his turn-based tables whose turn is his); and the same list as
plain data for the table's web page (``web_list``).

One line per table: the game and table number, whose turn it is (his first, with the time left
as a Discord timestamp, which his own client shows in his time zone), and a link to the table's
channel (or thread). At most ``SHOWN`` lines, then "and N more": far within an embed's 4,096
characters, and a list a player reads at a glance.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import discord

from bot.i18n import _, _n
from bot.i18n.refusals import excerpt
from bot.render.embeds import COLOR_LOBBY, COLOR_PLAY, names_of, timestamp
from bot.service import Table, TableStatus

#: Tables listed in one message; the rest are counted.
SHOWN = 15
#: A server's name in a line, at most.
NAME_LIMIT = 40


def channel_link(table: Table) -> str | None:
    """The table's channel (its thread once tables have threads): a link any member opens."""
    if table.guild_id is None:
        return None
    return f"https://discord.com/channels/{table.guild_id}/{table.channel_id}"


def table_line(table: Table, user_id: int, server: str | None = None) -> str:
    """``[**Game** #12](link) · ▶ **your turn** · ⏳ in 5 hours``."""
    head = _("**{game}** #{table}", game=_(table.title), table=table.id)
    if server:
        head = _("{table} in {server}", table=head, server=excerpt(server, NAME_LIMIT))
    link = channel_link(table)
    if link is not None:  # the table's name is the link: short lines on a phone
        head = f"[{head}]({link})"
    return f"{head} · {state_text(table, user_id)}"


def state_text(table: Table, user_id: int) -> str:
    """Whose turn it is at ``table``, seen by ``user_id``."""
    if table.status is TableStatus.LOBBY:
        seated = len(table.seats)
        return _("lobby, {seated}/{most} seated", seated=seated, most=table.max_players)
    if not table.to_act:
        return _("playing")
    index = table.to_act[0]
    seat = table.seat(index)
    deadline = table.deadlines.get(index)
    if seat is not None and seat.user_id == user_id and not seat.is_ai:
        if deadline:
            return _("▶ **your turn** · ⏳ {when}", when=timestamp(deadline))
        return _("▶ **your turn**")
    name = names_of(table)[index] if index < len(names_of(table)) else "?"
    if deadline:
        return _("{name}'s turn (until {when})", name=excerpt(name, NAME_LIMIT),
                 when=timestamp(deadline))  # fmt: skip
    return _("{name}'s turn", name=excerpt(name, NAME_LIMIT))


def lines_text(lines: Sequence[str]) -> str:
    shown = list(lines[:SHOWN])
    hidden = len(lines) - len(shown)
    if hidden > 0:
        shown.append(_n("… and {n} more table", "… and {n} more tables", hidden))
    return "\n".join(shown)


def my_tables_embed(tables: Sequence[Table], user_id: int) -> discord.Embed:
    """``/mytables``: the tables of one server, his turns first."""
    turns = sum(1 for t in tables if _his_turn(t, user_id))
    title = _n("Your tables: {n} waiting for you", "Your tables: {n} waiting for you", turns)
    if not tables:
        return discord.Embed(
            title=_("Your tables"),
            description=_("You sit at no table in this server. `/new` opens one."),
            color=COLOR_LOBBY,
        )
    embed = discord.Embed(title=title, color=COLOR_PLAY if turns else COLOR_LOBBY)
    embed.description = lines_text([table_line(t, user_id) for t in tables])
    return embed


def digest_embed(
    tables: Sequence[Table], user_id: int, server_of: Callable[[int | None], str | None]
) -> discord.Embed:
    """The turn digest: the turn-based tables whose turn is his, each with its server."""
    n = len(tables)
    embed = discord.Embed(
        title=_n("Your turn at {n} table", "Your turn at {n} tables", n), color=COLOR_PLAY
    )
    lines = [table_line(t, user_id, server_of(t.guild_id)) for t in tables]
    embed.description = lines_text(lines)
    embed.set_footer(text=_("/notify changes these messages and your quiet hours."))
    return embed


def _his_turn(table: Table, user_id: int) -> bool:
    if table.status is not TableStatus.PLAYING or not table.to_act:
        return False
    seat = table.seat(table.to_act[0])
    return seat is not None and seat.user_id == user_id and not seat.is_ai


def web_list(tables: Sequence[Table], user_id: int, channel_id: int) -> dict[str, Any]:
    """``/mytables`` for the web page: plain words (no Discord markup), each deadline as epoch
    seconds (the page says it in the reader's time and language), at most ``SHOWN`` tables."""
    rows = []
    for table in tables[:SHOWN]:
        yours = _his_turn(table, user_id)
        deadline = table.deadlines.get(table.to_act[0]) if table.to_act else None
        if yours:
            state = _("your turn")
        elif table.status is TableStatus.PLAYING and table.to_act:
            index = table.to_act[0]
            names = names_of(table)
            name = names[index] if index < len(names) else "?"
            state = _("{name}'s turn", name=excerpt(name, NAME_LIMIT))
        else:
            state = state_text(table, user_id)
        rows.append(
            {
                "name": _("{game} #{table}", game=_(table.title), table=table.id),
                "state": state,
                "yours": yours,
                "deadline": deadline,
                "link": channel_link(table),
                "here": table.channel_id == channel_id,
            }
        )
    hidden = len(tables) - len(rows)
    more = _n("… and {n} more table", "… and {n} more tables", hidden) if hidden > 0 else None
    return {"title": _("Your tables"), "tables": rows, "more": more}
