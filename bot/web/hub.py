"""The open pages of every table, and what each receives after a committed change.

The adapter calls ``Hub.changed`` inside the service's listener, where the table's state is the
committed one: each page's frame is built there (once per seat and language, shared by the pages
that see the same) and handed to the page's sender, which keeps only the newest unsent frame.
Frames are whole, so a slow page skips states instead of queueing them, and one slow page never
holds up the table or the other pages.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from bot.service import Table
from bot.web import frames
from bot.web.adapter import Change, ServiceAdapter

log = logging.getLogger(__name__)


@dataclass(eq=False)
class Page:
    """One open page: a websocket bound to one user at one table, in his language."""

    ws: web.WebSocketResponse
    user_id: int
    channel_id: int
    language: str
    #: The reader's name, for a seat he takes (an Activity's page); None: a signed link's.
    name: str | None = None
    _pending: str | None = None
    _wake: asyncio.Event = field(default_factory=asyncio.Event)
    _sender: asyncio.Task[None] | None = None

    def push(self, text: str) -> None:
        """Send ``text`` soon; an unsent older frame is dropped (frames are whole)."""
        self._pending = text
        self._wake.set()

    def start(self) -> None:
        self._sender = asyncio.create_task(self._send_loop())

    async def stop(self) -> None:
        if self._sender is not None:
            self._sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._sender

    async def _send_loop(self) -> None:
        while not self.ws.closed:
            await self._wake.wait()
            self._wake.clear()
            text, self._pending = self._pending, None
            if text is None:
                continue
            try:
                await self.ws.send_str(text)
            except (ConnectionError, RuntimeError):  # the page went: its handler cleans up
                return


class Hub:
    """Pages by table; ``seq`` numbers each table's frames in commit order."""

    def __init__(self, adapter: ServiceAdapter, clock: Callable[[], float]) -> None:
        self.adapter = adapter
        self.clock = clock
        self.pages: dict[int, set[Page]] = {}
        self.seq: dict[int, int] = {}
        #: The last hand's end per table: (table id, the seq it came at, its details). Every
        #: frame carries it, numbered by that seq: a page shows it once, until its reader
        #: closes it (a page that opens later still finds the last hand's result).
        self._summaries: dict[int, tuple[int, int, Mapping[str, Any]]] = {}
        self._said: dict[tuple[int, int, str], list[str]] = {}
        #: The table and result of a game that ended, for its pages' last frame.
        self._results: dict[int, tuple[Table, Mapping[str, Any]]] = {}
        adapter.subscribe(self.changed)

    def close(self) -> None:
        self.adapter.unsubscribe()

    def add(self, page: Page) -> None:
        self.pages.setdefault(page.channel_id, set()).add(page)
        page.start()

    async def remove(self, page: Page) -> None:
        pages = self.pages.get(page.channel_id)
        if pages is not None:
            pages.discard(page)
            if not pages:
                del self.pages[page.channel_id]
        await page.stop()

    def frame_for(self, page: Page) -> dict[str, Any] | None:
        """The page's whole state now, or None when its table is gone."""
        state = self.adapter.state(page.channel_id, page.user_id)
        if state is None:
            return None
        return frames.state_frame(
            state,
            self.seq.get(page.channel_id, 0),
            page.language,
            self.clock(),
            self._summary(state.table, page.language),
        )

    def closed_frame(self, channel: int, language: str) -> dict[str, Any]:
        """The table is gone: the last hand's summary and the game's result, if it ended."""
        lines: list[str] = []
        ended = self._results.get(channel)
        if ended is not None:
            table, result = ended
            summary = self._summary(table, language)
            lines = [*(summary["lines"] if summary else []), ""]
            lines += frames.final_lines(table, result, language)
        return {"type": "closed", "seq": self.seq.get(channel, 0), "lines": lines}

    def _summary(self, table: Table, language: str) -> dict[str, Any] | None:
        kept = self._summaries.get(table.channel_id)
        if kept is None or kept[0] != table.id:
            return None
        key = (table.channel_id, kept[1], language)
        if key not in self._said:
            self._said = {k: v for k, v in self._said.items() if k[0] != table.channel_id}
            self._said[key] = frames.summary_lines(table.game, table, kept[2], language)
        return {"id": kept[1], "lines": self._said[key]}

    def changed(self, change: Change) -> None:
        """A committed change of its table: every open page of it gets its new frame."""
        table = change.table
        channel = table.channel_id
        self.seq[channel] = self.seq.get(channel, 0) + 1
        if change.hand_over is not None:
            self._summaries[channel] = (table.id, self.seq[channel], change.hand_over)
        if change.result is not None:
            self._results[channel] = (table, change.result)
        pages = self.pages.get(channel)
        if not pages:
            return
        built: dict[tuple[int | None, str], str] = {}
        for page in list(pages):
            state = self.adapter.state(channel, page.user_id)
            if state is None:
                page.push(json.dumps(self.closed_frame(channel, page.language)))
                continue
            key = (state.seat, page.language)
            if key not in built:
                frame = frames.state_frame(
                    state,
                    self.seq[channel],
                    page.language,
                    self.clock(),
                    self._summary(table, page.language),
                )
                built[key] = json.dumps(frame, separators=(",", ":"))
            page.push(built[key])
