"""Custom ids of the bot's components. They carry the channel (the table's key), so buttons keep
working after a restart: the cogs register ``DynamicItem``s matching these patterns."""

from __future__ import annotations

from typing import Any

import discord
import orjson

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
#: Private panel, a move of the player's own cards (the groups of cards one move lays down):
#: the select of one group's cards and the buttons that open the pick and make the move. The
#: cards picked so far ride in the id (``picks``: groups split by ``|``, cards by ``.``), so a
#: pick needs no state kept by the bot and survives a restart.
CARDS = PREFIX + r":cards:(?P<channel>\d+):(?P<group>\d+):(?P<picks>[^:]*)"
#: The table message's Play in Discord button: launches the Activity (docs/activity.md).
PLAY = PREFIX + r":play:(?P<channel>\d+)"
CARDS_DO = PREFIX + r":cardsdo:(?P<channel>\d+):(?P<step>open|go):(?P<picks>[^:]*)"


def hand(channel: int) -> str:
    return f"{PREFIX}:hand:{channel}"


def play(channel: int) -> str:
    return f"{PREFIX}:play:{channel}"


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


def cards(channel: int, group: int, picks: str) -> str:
    return f"{PREFIX}:cards:{channel}:{group}:{picks}"


def cards_do(channel: int, step: str, picks: str) -> str:
    return f"{PREFIX}:cardsdo:{channel}:{step}:{picks}"


def refresh(channel: int) -> str:
    return f"{PREFIX}:refresh:{channel}"


#: Discord's limit on a custom id.
MAX_LENGTH = 100


class Sealed:
    """What discord.py reads of a view when it sends one, and nothing more: the components'
    payload. Every component is answered by the ``DynamicItem`` registered for its custom id,
    so no view need stay alive to dispatch it (an unstopped view without a timeout would pile
    up in discord.py's view store for ever).

    Why not keep the ``discord.ui.View`` itself: panels are drawn at every change of a table
    and their components cached (``cogs.panels.shared_actions_view``); a cached view with ten
    buttons is ~150 objects the garbage collector scans at every generation-1 collection (its
    items and the view point at each other, so they are never freed by reference counting
    alone). At 1,000 busy tables (bench/load.py) 41,000 buttons were among the 300,000 objects
    a generation-1 collection scanned, a 100-150 ms pause of the event loop; sealed, a panel's
    components are one small object for the collector (their JSON bytes are not tracked).
    """

    #: discord.py checks this marker before it accepts a view.
    __discord_ui_view__ = True
    #: Read by discord.py for ephemeral messages; never dispatched (see the class docstring).
    timeout = None

    __slots__ = ("_json",)

    def __init__(self, payload: list[dict[str, Any]]) -> None:
        # Kept as JSON bytes, which the collector does not track (lists and dicts it would
        # scan for as long as the panel is cached; a tuple of dicts stays tracked too).
        self._json = orjson.dumps(payload)

    @classmethod
    def of_json(cls, payload: bytes) -> Sealed:
        """A ``Sealed`` of ``payload`` already as JSON (``orjson.dumps`` of the components), not
        read back and written again."""
        sealed = cls.__new__(cls)
        sealed._json = payload
        return sealed

    def to_components(self) -> list[dict[str, Any]]:
        components: list[dict[str, Any]] = orjson.loads(self._json)
        return components

    def has_components_v2(self) -> bool:
        return False

    def is_finished(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return False


def sealed(view: discord.ui.View) -> Sealed:
    """``view``'s components as discord.py sends them (see ``Sealed``)."""
    payload = view.to_components()
    view.stop()
    return Sealed(payload)
