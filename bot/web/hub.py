"""The open pages of every table, and what each receives after a committed change.

The adapter calls ``Hub.changed`` inside the service's listener, with the committed snapshot of
the change: each page's frame is built there from it (once per seat and language, encoded once,
the same text for every page that sees the same; once per move, not once per event) and written
to each page's socket at once: the same websocket bytes handed to each page's transport. A page
whose reader is slow (its socket's buffer full) keeps only the newest unwritten frame: frames
are whole, so a slow page skips states instead of queueing them, and one slow page never holds
up the table or the other pages.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import types
from collections.abc import Callable, Coroutine, Generator, Mapping
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from bot.service import Table
from bot.service.snapshot import TableSnapshot
from bot.web import frames
from bot.web.adapter import Change, ServiceAdapter

log = logging.getLogger(__name__)


@types.coroutine
def _resume(coro: Coroutine[Any, Any, None], waiting: Any) -> Generator[Any, Any, None]:
    """Go on with a write ``coro`` that was started by hand and is waiting on ``waiting``, as a
    task would have (a task runs this: what it sends or throws in is passed on)."""
    while True:
        try:
            sent = yield waiting
        except BaseException as error:  # noqa: BLE001 - a cancel, passed on to the write
            try:
                waiting = coro.throw(error)
            except StopIteration:
                return
        else:
            try:
                waiting = coro.send(sent)
            except StopIteration:
                return


@dataclass(eq=False)
class Page:
    """One open page: a websocket bound to one user at one table, in his language."""

    ws: web.WebSocketResponse
    user_id: int
    channel_id: int
    language: str
    #: The reader's name, for a seat he takes (an Activity's page); None: a signed link's.
    name: str | None = None
    #: The socket's transport (the server's pages): a frame whose websocket bytes are built
    #: already (``frames.wire``, once for every page that sees it) is written to it directly.
    transport: asyncio.WriteTransport | None = None
    #: The newest frame not written yet (its text and its wire bytes), while a write waits for
    #: a slow reader.
    _pending: tuple[str, bytes | None] | None = None
    #: The write under way that had to wait (a slow reader: the socket's buffer is full).
    _writing: asyncio.Future[None] | None = None

    def push(self, text: str, wire: bytes | None = None) -> None:
        """Send ``text`` now (``wire``: the same frame as websocket bytes, when the hub built
        them); while an earlier write waits for a slow reader, keep only the newest frame
        (frames are whole: a slow page skips states, it never queues them)."""
        if self._writing is not None:
            self._pending = (text, wire)
            return
        self._write(text, wire)

    def _write(self, text: str, wire: bytes | None = None) -> None:
        if self.ws.closed:
            return
        transport = self.transport
        if (
            wire is not None
            and transport is not None
            and not transport.is_closing()
            and not transport.get_write_buffer_size()
        ):
            # The move's frame, to a page whose socket keeps up (nothing waiting in its
            # buffer): the shared bytes handed to the socket, one call and no coroutine per
            # page. (Unmasked and uncompressed, a server's text frame is the same bytes for
            # every page; aiohttp's own writes -- pings, a close -- are whole frames too, so
            # the two never interleave inside a frame.)
            transport.write(wire)
            return
        # Otherwise aiohttp's write, at once and with no task: an uncompressed websocket
        # write goes straight to the socket and only waits when the reader is slow (its
        # buffer full). Only then does a task take the write over, so that one slow phone
        # never holds its table.
        coro = self.ws.send_str(text)
        try:
            waiting = coro.send(None)
        except StopIteration:
            return
        except (ConnectionError, RuntimeError):  # the page went: its handler cleans up
            return
        self._writing = asyncio.ensure_future(_resume(coro, waiting))
        self._writing.add_done_callback(self._written)

    def _written(self, writing: asyncio.Future[None]) -> None:
        self._writing = None
        if writing.cancelled() or writing.exception() is not None:
            self._pending = None  # the page went (or is going): nothing more to write
            return
        pending, self._pending = self._pending, None
        if pending is not None:
            self._write(*pending)

    async def stop(self) -> None:
        self._pending = None
        writing = self._writing
        if writing is not None:
            writing.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writing


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
        #: The snapshot each table's last frames showed: the other events of the same move
        #: (a move's ``ActionApplied`` and ``TurnChanged`` share one) send nothing new.
        self._framed: dict[int, TableSnapshot] = {}
        adapter.subscribe(self.changed)

    def close(self) -> None:
        self.adapter.unsubscribe()

    def add(self, page: Page) -> None:
        self.pages.setdefault(page.channel_id, set()).add(page)

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
        """A committed change of its table: every open page of it gets its new frame, built
        once per seat and language from the change's snapshot and encoded once."""
        table = change.table
        channel = table.channel_id
        snapshot = change.snapshot
        if snapshot is None:
            self._framed.pop(channel, None)
        elif change.hand_over is None and change.result is None:
            if self._framed.get(channel) is snapshot:
                return  # another event of a move already framed: no page's view changed
            self._framed[channel] = snapshot
        self.seq[channel] = self.seq.get(channel, 0) + 1
        if change.hand_over is not None:
            self._summaries[channel] = (table.id, self.seq[channel], change.hand_over)
        if change.result is not None:
            self._results[channel] = (table, change.result)
        pages = self.pages.get(channel)
        if not pages:
            return
        built: dict[tuple[int | None, str], tuple[str, bytes]] = {}
        for page in list(pages):
            if snapshot is not None:
                state = self.adapter.state_in(snapshot, page.user_id)
            else:
                state = self.adapter.state(channel, page.user_id)
            if state is None:
                page.push(frames.encode(self.closed_frame(channel, page.language)))
                continue
            key = (state.seat, page.language)
            framed = built.get(key)
            if framed is None:
                frame = frames.state_frame(
                    state,
                    self.seq[channel],
                    page.language,
                    self.clock(),
                    self._summary(table, page.language),
                )
                text = frames.encode(frame)
                framed = built[key] = (text, frames.wire(text))
            page.push(*framed)
