"""A fake Discord for benchmarks: the objects the publisher and the panels talk to, no network.

``FakeBot`` stands in for the ``discord.Client`` the ``TablePublisher`` is given: its channels'
``send``, ``get_partial_message(id).edit/delete`` and ``history`` and an interaction's response
record one ``Request`` each (what, channel, monotonic time). Each request first builds its
payload with discord.py's own ``handle_message_parameters`` (embeds and components to dicts,
the JSON body, the attached file), the CPU work discord.py does before it writes to a socket,
so only the network is missing.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord
from discord.http import handle_message_parameters

#: One recorded request: (kind, channel, monotonic time). ``kind``: send, edit, delete, history,
#: interaction (the click's answer), live (a redraw). A plain tuple of strings and numbers: the
#: garbage collector stops tracking it at its first collection, so tens of thousands of them do
#: not lengthen the bot's collections (a real bot keeps no such record). A NamedTuple would
#: stay tracked: CPython untracks exact tuples only (measured: 16,000 of them were in a
#: generation-1 collection at 1,000 tables).
Request = tuple[str, int, float]


@dataclass
class Recorder:
    """Every request any fake object made, in order."""

    requests: list[Request] = field(default_factory=list)
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(10**15))

    def record(self, kind: str, channel: int, **payload: Any) -> None:
        if payload:
            # What discord.py builds before the HTTP request; the files are closed with it.
            with handle_message_parameters(**payload):
                pass
        self.requests.append((kind, channel, time.monotonic()))

    def new_id(self) -> int:
        return next(self._ids)


class FakeMessage:
    def __init__(self, recorder: Recorder, channel: int, message_id: int) -> None:
        self._recorder = recorder
        self.channel_id = channel
        self.id = message_id

    async def edit(self, **payload: Any) -> FakeMessage:
        self._recorder.record("edit", self.channel_id, **payload)
        return self

    async def delete(self) -> None:
        self._recorder.record("delete", self.channel_id)


class FakeChannel:
    def __init__(self, recorder: Recorder, channel: int) -> None:
        self._recorder = recorder
        self.id = channel

    async def send(self, content: str | None = None, **payload: Any) -> FakeMessage:
        self._recorder.record("send", self.id, content=content, **payload)
        return FakeMessage(self._recorder, self.id, self._recorder.new_id())

    def get_partial_message(self, message_id: int) -> FakeMessage:
        return FakeMessage(self._recorder, self.id, message_id)

    async def history(self, limit: int | None = 100) -> AsyncIterator[discord.Message]:
        """An empty channel (the bot just started): one request, no message."""
        self._recorder.record("history", self.id)
        return
        yield  # an async generator


class FakeBot:
    """The part of ``discord.Client`` the publisher and the panels' cog code use."""

    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder
        self.user = SimpleNamespace(id=1)
        self._channels: dict[int, FakeChannel] = {}
        #: What ``cogs.common.service_of`` and ``cogs.panels.live_panels_of`` look up.
        self.service: Any = None
        self.live_panels: Any = None

    def get_channel(self, channel: int) -> FakeChannel:
        found = self._channels.get(channel)
        if found is None:
            found = self._channels[channel] = FakeChannel(self.recorder, channel)
        return found

    def get_partial_messageable(self, channel: int) -> FakeChannel:
        return self.get_channel(channel)

    def get_guild(self, guild: int) -> SimpleNamespace:
        """Every server speaks US English (the publisher writes in its server's language)."""
        return SimpleNamespace(id=guild, preferred_locale="en-US")


class FakeResponse:
    """``interaction.response``: the interaction's one answer (recorded as ``interaction``)."""

    def __init__(self, interaction: FakeInteraction) -> None:
        self._interaction = interaction

    def is_done(self) -> bool:
        return self._interaction.answered_at is not None

    async def edit_message(self, **payload: Any) -> None:
        self._interaction.answered("edit", payload)

    async def send_message(self, content: str | None = None, **payload: Any) -> None:
        payload.pop("ephemeral", None)  # discord.py turns it into the message flags
        self._interaction.answered("message", {"content": content, **payload})

    async def defer(self, **_: Any) -> None:
        self._interaction.answered("defer", {})


class FakeInteraction:
    """A player's component interaction: its answer and the later edits of its message
    (``LivePanels``) are recorded. ``answered_at`` (monotonic) and ``answer_kind`` say when and
    how it was first answered: ``edit`` (the panel redrawn in place), ``defer`` (the panel
    follows with ``edit_original_response``, recorded as ``answer``), or ``message`` (an
    ephemeral text: a refusal, or the redraw failed)."""

    def __init__(
        self, recorder: Recorder, channel: int, user_id: int, client: FakeBot | None = None
    ) -> None:
        self._recorder = recorder
        self.channel_id = channel
        self.user = SimpleNamespace(id=user_id, name=f"user {user_id}")
        #: The player's client language (Discord sends one with every interaction).
        self.locale = "en-US"
        self.guild_locale = "en-US"
        self.client = client
        self.id = recorder.new_id()
        self.command = None
        self.answered_at: float | None = None
        self.answer_kind: str | None = None
        self._completed = False

    @property
    def response(self) -> FakeResponse:
        """Made at each use, its state kept here: kept, it would point back at the interaction,
        a cycle only the garbage collector frees, and every click's would lengthen the bot's
        collections (measured: ~15,000 objects of ~200,000 at a generation-1 collection at 1,000
        tables, ``bench/gc_census.py``). The players and their interactions are Discord's
        side, not the bot's."""
        return FakeResponse(self)

    @property
    def followup(self) -> SimpleNamespace:
        """Made at each use, as discord.py makes its webhook: not kept, so the interaction
        leaves no more cyclic garbage than discord.py's (its ``response`` points back)."""
        return SimpleNamespace(send=self._followup)

    def answered(self, kind: str, payload: dict[str, Any]) -> None:
        if self.answered_at is not None:
            raise RuntimeError("this interaction has already been responded to")
        self._recorder.record("interaction", self.channel_id, **payload)
        self.answered_at = time.monotonic()
        self.answer_kind = kind

    async def answer(self, **payload: Any) -> None:
        """``interaction.response.edit_message`` / ``send_message``."""
        self.answered("edit", payload)

    async def _followup(self, content: str | None = None, **payload: Any) -> None:
        payload.pop("ephemeral", None)
        self._recorder.record("followup", self.channel_id, content=content, **payload)

    async def edit_original_response(self, **payload: Any) -> None:
        """The deferred answer's panel (``answer``), or a later redraw (``live``)."""
        kind = "answer" if self.answer_kind == "defer" and not self._completed else "live"
        self._completed = True
        self._recorder.record(kind, self.channel_id, **payload)
