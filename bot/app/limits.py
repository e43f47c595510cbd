"""Discord's message limits, checked in one place before anything is sent.

Every message the bot sends or edits (table messages, pings, panels, answers) passes through
``fit``: a payload over a limit would be refused by Discord and leave a channel silent, so what
does not fit is cut here, and what was cut is logged.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence

import discord

log = logging.getLogger(__name__)

CONTENT = 2000
EMBEDS = 10
EMBED_TOTAL = 6000
TITLE = 256
DESCRIPTION = 4096
FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR = 256
#: The longest piece of a user's own input a reply repeats (in backticks): an excerpt.
ECHO = 40

_QUOTED = re.compile(r"`([^`]*)`")


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def excerpt(text: str) -> str:
    """A reply quoting what a user typed quotes at most ``ECHO`` characters of it."""
    return _QUOTED.sub(lambda m: f"`{clip(m.group(1), ECHO)}`", text)


def fit(
    content: str | None = None, embeds: Sequence[discord.Embed] = (), *, what: str = "message"
) -> tuple[str | None, list[discord.Embed]]:
    """``content`` and ``embeds`` cut to Discord's limits (logging anything cut)."""
    cut: list[str] = []
    if content is not None and len(content) > CONTENT:
        cut.append(f"content {len(content)} chars")
        content = clip(content, CONTENT)
    kept = list(embeds)[:EMBEDS]
    if len(embeds) > EMBEDS:
        cut.append(f"{len(embeds) - EMBEDS} embeds")
    total = 0
    out: list[discord.Embed] = []
    for embed in kept:
        _fit_embed(embed, cut)
        room = EMBED_TOTAL - total
        size = len(embed)  # (sums every field: once, unless a field goes)
        while size > room and embed.fields:
            embed.remove_field(-1)
            cut.append("a field over the 6,000 total")
            size = len(embed)
        if size > room:
            cut.append("an embed over the 6,000 total")
            break
        total += size
        out.append(embed)
    if cut:
        log.warning("%s cut to fit Discord's limits: %s", what, "; ".join(cut))
    return content, out


def fit_clipped(embed: discord.Embed, *, what: str = "message") -> discord.Embed:
    """``fit`` of one embed whose every part was clipped to its own limit as it was made, with
    at most ``FIELDS`` fields (``embeds.hand_embed``: a panel at every move): only the total is
    left to check (``len`` sums the parts once); ``fit`` cuts one over it."""
    if len(embed) <= EMBED_TOTAL:
        return embed
    return fit(None, [embed], what=what)[1][0]


def _fit_embed(embed: discord.Embed, cut: list[str]) -> None:
    if embed.title and len(embed.title) > TITLE:
        cut.append("title")
        embed.title = clip(embed.title, TITLE)
    if embed.description and len(embed.description) > DESCRIPTION:
        cut.append("description")
        embed.description = clip(embed.description, DESCRIPTION)
    # ``Embed.fields`` makes a proxy of every field at each read: read once (again if cut).
    fields = embed.fields
    while len(fields) > FIELDS:
        embed.remove_field(-1)
        cut.append("a field over 25")
        fields = embed.fields
    for i, field in enumerate(fields):
        name, value = field.name or "\u200b", field.value or "\u200b"
        if len(name) > FIELD_NAME or len(value) > FIELD_VALUE:
            cut.append(f"field {name[:20]!r}")
            embed.set_field_at(
                i, name=clip(name, FIELD_NAME), value=clip(value, FIELD_VALUE), inline=field.inline
            )
    if embed.footer.text and len(embed.footer.text) > FOOTER:
        cut.append("footer")
        embed.set_footer(text=clip(embed.footer.text, FOOTER), icon_url=embed.footer.icon_url)
    if embed.author.name and len(embed.author.name) > AUTHOR:
        cut.append("author")
        embed.set_author(name=clip(embed.author.name, AUTHOR))
