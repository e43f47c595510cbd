"""Custom ids of the bot's components. They carry the channel (the table's key), so buttons keep
working after a restart: the cogs register ``DynamicItem``s matching these patterns."""

from __future__ import annotations

import discord

PREFIX = "tt"

#: Public table message: "Show my hand".
HAND = PREFIX + r":hand:(?P<channel>\d+)"
#: Public lobby message: "Join" and "Start".
JOIN = PREFIX + r":join:(?P<channel>\d+)"
START = PREFIX + r":start:(?P<channel>\d+)"
#: The final message of a finished game: "Rematch".
REMATCH = PREFIX + r":rematch:(?P<channel>\d+)"
#: Private panel: one action button (the action words follow), a select of actions, refresh.
ACT = PREFIX + r":act:(?P<channel>\d+):(?P<action>.+)"
PICK = PREFIX + r":pick:(?P<channel>\d+):(?P<group>[a-z0-9_]*):(?P<part>\d+)"
REFRESH = PREFIX + r":refresh:(?P<channel>\d+)"


def hand(channel: int) -> str:
    return f"{PREFIX}:hand:{channel}"


def join(channel: int) -> str:
    return f"{PREFIX}:join:{channel}"


def start(channel: int) -> str:
    return f"{PREFIX}:start:{channel}"


def rematch(channel: int) -> str:
    return f"{PREFIX}:rematch:{channel}"


def act(channel: int, action: str) -> str:
    return f"{PREFIX}:act:{channel}:{action}"


def pick(channel: int, group: str, part: int) -> str:
    return f"{PREFIX}:pick:{channel}:{group}:{part}"


def refresh(channel: int) -> str:
    return f"{PREFIX}:refresh:{channel}"


#: Discord's limit on a custom id.
MAX_LENGTH = 100


def inert(view: discord.ui.View) -> discord.ui.View:
    """Stop ``view`` before it is sent: its components are answered by the ``DynamicItem``s
    registered for their custom ids, so discord.py need not keep the view (unstopped views
    without a timeout would pile up in its view store for ever)."""
    view.stop()
    return view
