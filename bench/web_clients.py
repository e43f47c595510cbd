"""The open pages of ``bench/load.py --web``, as a process of their own (``--web-clients N``
starts N of them): each one opens its share of the pages over real websockets to the bot's web
server and writes down when each frame arrived, so that the bot's process, measured, is the bot
alone (a page's reading is the browser's work, on another machine).

**Lean on purpose.** The clients share the bot's two cores: a load generator that takes a
core's worth of CPU starves the server, and the bench then measures the generator. So a client
process is one thread, one ``epoll`` and plain non-blocking sockets -- no asyncio, no aiohttp
session, no task or timer per page, no wake-up when nothing arrives. It speaks just enough of
the websocket protocol to receive what a browser receives (the same frames, byte for byte: the
server cannot tell the difference): the HTTP upgrade with the page's ``Origin``, the frame
headers, a pong for the server's heartbeat pings, a close answered and the page reopened after
0.2 s (as the page does; a reopened page gets its full snapshot). Of each text frame it reads
only the sequence and move numbers (``"seq":N`` and ``"move":N``, the frame's second and third
keys: a few dozen bytes in; a frame older than one the page showed counts as out of order) and
notices a ``closed`` frame; nothing else of the frame is parsed. The server never fragments a frame
(aiohttp sends each whole), so continuation frames are skipped.

**Timed at its arrival, not at its reading.** Each socket asks the kernel for receive
timestamps (``SO_TIMESTAMPNS``): the time the frame's last bytes reached the page's socket, a
clock the client's own lateness cannot move. That stamp (CLOCK_REALTIME) is turned into
``time.monotonic()``, the bot's clock for its moves, by the two clocks read together right
after the read: ``at = monotonic_now - (realtime_now - stamp)``. So a page's latency is from
the commit (or the click's arrival) to the frame's arrival at the page; how long the frame then
waited for this process to read it is the client's own lag, reported apart (``lag_p99``), and
not in the page's latency. (Frames read together carry the stamp of the last one: an earlier
one counts as arriving with it, a little late, never early.)

The protocol with the bot's process, one line each on stdin and stdout: the job comes as one
JSON line on stdin (``{"pages": [[channel, user, url, origin], ...], "report": FILE}``); the
process says ``ready`` once every page has its first frame (or ``READY_PATIENCE`` ran out),
and on ``stop`` (or the end of stdin) it closes its pages, writes its frames to the report
file (``{"frames": [[channel, user, move, at], ...], "reconnects": [at, ...], "opened": n,
"lag_p99": seconds, "out_of_order": n, "gaps": n}``) and says ``done``.

``follow`` is the heavier aiohttp page of ``--web-clients 0`` (the pages inside the bot's own
process and loop, as this bench first measured: there, its reading is the bot's cost too).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import errno
import json
import os
import re
import selectors
import socket
import struct
import sys
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

import aiohttp

#: A frame's move number, read without parsing the whole frame (the page's own work).
MOVE = re.compile(rb'"move":(\d+)')
#: A frame's sequence number (its second key; a ``closed`` frame has one too).
SEQ = re.compile(rb'"seq":(\d+)')
CLOSED_FRAME = b'{"type":"closed"'
READY, STOP, DONE = "ready", "stop", "done"
#: The move number written down for a "closed" frame (the game ended, its table closed): it
#: shows the game's every move, its last one included.
CLOSED = 1 << 31
#: Seconds the pages may take to open, all together.
READY_PATIENCE = 120.0
#: Seconds a page waits before it opens again after its socket closed.
REOPEN = 0.2
#: One frame a page received: (channel, user, move, time.monotonic()).
Frame = tuple[int, int, int, float]
#: Linux's receive timestamps (socket(7)); the socket module does not name them.
SO_TIMESTAMPNS = 35
_STAMP = socket.CMSG_SPACE(16)
_TEXT, _CLOSE, _PING = 0x1, 0x8, 0x9


class _Page:
    """One open page: its socket and what it has read of it."""

    __slots__ = (
        "channel",
        "user",
        "address",
        "request",
        "sock",
        "upgraded",
        "rest",
        "framed",
        "seq",
    )

    def __init__(self, channel: int, user: int, url: str, origin: str) -> None:
        parts = urlsplit(url)
        self.channel, self.user = channel, user
        self.address = (parts.hostname or "127.0.0.1", parts.port or 80)
        self.request = (
            f"GET {parts.path} HTTP/1.1\r\nHost: {parts.netloc}\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            f"Sec-WebSocket-Key: {{key}}\r\nOrigin: {origin}\r\n\r\n"
        )
        self.sock: socket.socket | None = None
        self.upgraded = False
        self.rest = b""  # the bytes of a frame not whole yet (or of the upgrade's answer)
        self.framed = False  # it received a frame (it opened)
        self.seq = -1  # the last frame's sequence number


class Pages:
    """Every page of this process on one ``epoll``, read as its bytes arrive."""

    def __init__(self, pages: list[tuple[int, int, str, str]]) -> None:
        self.selector = selectors.EpollSelector()
        self.pages = [_Page(*page) for page in pages]
        self.frames: list[Frame] = []
        self.reconnects: list[float] = []
        #: Seconds each read's bytes waited in the socket for this process (its own lag).
        self.lags: list[float] = []
        self.opened = 0
        #: Frames whose sequence number was below one the page had shown already, and frames
        #: that skipped numbers (the page missed frames between).
        self.out_of_order = 0
        self.gaps = 0
        self.stopped = False
        self._reopen: list[tuple[float, _Page]] = []

    # -- opening -------------------------------------------------------------------------------
    def open(self, page: _Page) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        page.sock, page.upgraded, page.rest = sock, False, b""
        code = sock.connect_ex(page.address)
        if code not in (0, errno.EINPROGRESS):
            self.drop(page)
            return
        self.selector.register(sock, selectors.EVENT_WRITE, page)

    def _connected(self, page: _Page) -> None:
        sock = page.sock
        assert sock is not None
        if sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):
            self.drop(page)
            return
        key = base64.b64encode(os.urandom(16)).decode()
        try:
            sock.send(page.request.format(key=key).encode())  # (a few hundred bytes: whole)
        except OSError:
            self.drop(page)
            return
        self.selector.modify(sock, selectors.EVENT_READ, page)

    def drop(self, page: _Page) -> None:
        """The page's socket closed (or never opened): it opens again soon, as a page does."""
        sock, page.sock = page.sock, None
        if sock is not None:
            with contextlib.suppress(KeyError, ValueError):
                self.selector.unregister(sock)
            sock.close()
        if not self.stopped:
            now = time.monotonic()
            self.reconnects.append(now)
            self._reopen.append((now + REOPEN, page))

    # -- reading -------------------------------------------------------------------------------
    def read(self, page: _Page) -> None:
        sock = page.sock
        assert sock is not None
        try:
            data, ancillary, _flags, _address = sock.recvmsg(1 << 16, _STAMP)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            self.drop(page)
            return
        if not data:
            self.drop(page)
            return
        at = time.monotonic()
        for level, kind, stamp in ancillary:
            if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS and len(stamp) >= 16:
                seconds, nanoseconds = struct.unpack("qq", stamp[:16])
                lag = max(time.time() - (seconds + nanoseconds * 1e-9), 0.0)
                self.lags.append(lag)
                at -= lag
        data = page.rest + data if page.rest else data
        if not page.upgraded:
            end = data.find(b"\r\n\r\n")
            if end < 0:
                page.rest = data
                return
            if not data.startswith((b"HTTP/1.1 101", b"HTTP/1.0 101")):
                self.drop(page)  # refused (403: an expired link, another site's page)
                return
            page.upgraded, data = True, data[end + 4 :]
        page.rest = self._frames(page, data, at)

    def _frames(self, page: _Page, data: bytes, at: float) -> bytes:
        """The whole frames of ``data`` handled; the bytes of an unfinished one returned."""
        size, start = len(data), 0
        while size - start >= 2:
            opcode, length = data[start] & 0x0F, data[start + 1] & 0x7F
            head = 2
            if length == 126:
                if size - start < 4:
                    break
                length, head = int.from_bytes(data[start + 2 : start + 4], "big"), 4
            elif length == 127:
                if size - start < 10:
                    break
                length, head = int.from_bytes(data[start + 2 : start + 10], "big"), 10
            begin = start + head
            end = begin + length
            if end > size:
                break
            start = end
            if opcode == _TEXT:
                # (each search stops a few dozen bytes in: "type", "seq" and "move" come first)
                found = MOVE.search(data, begin, end)
                if found is not None:
                    move = int(found.group(1))
                elif data.startswith(CLOSED_FRAME, begin):  # (the next game opens)
                    move = CLOSED
                else:
                    continue  # an error frame: nothing to time
                numbered = SEQ.search(data, begin, end)
                if numbered is not None:
                    seq = int(numbered.group(1))
                    # A frame older than one already shown is a fault; one that skips numbers
                    # is a page that fell behind (a slow page gets the newest state only).
                    self.out_of_order += seq < page.seq
                    self.gaps += page.seq >= 0 and seq > page.seq + 1
                    page.seq = max(seq, page.seq)
                self.frames.append((page.channel, page.user, move, at))
                if not page.framed:
                    page.framed = True
                    self.opened += 1
            elif opcode == _PING:
                self._send(page, 0x8A, data[begin:end])
            elif opcode == _CLOSE:
                self._send(page, 0x88, data[begin : begin + min(length, 2)])
                self.drop(page)
                return b""
        return data[start:]

    def _send(self, page: _Page, first: int, payload: bytes) -> None:
        """A control frame from the page (a pong, a close): masked, as a client's must be."""
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        assert page.sock is not None
        with contextlib.suppress(OSError):
            page.sock.send(bytes((first, 0x80 | len(payload))) + mask + masked)

    # -- the loop ------------------------------------------------------------------------------
    def run(self, until: Callable[[], bool], patience: float | None = None) -> None:
        """Serve the pages until ``until()`` (checked after every wake-up) or ``patience``."""
        deadline = None if patience is None else time.monotonic() + patience
        while not until():
            now = time.monotonic()
            if deadline is not None and now >= deadline:
                return
            if self._reopen:
                due = [page for when, page in self._reopen if when <= now]
                self._reopen = [(when, page) for when, page in self._reopen if when > now]
                for page in due:
                    self.open(page)
            waits = [when - now for when, _ in self._reopen]
            if deadline is not None:
                waits.append(deadline - now)
            timeout = max(min(waits), 0.0) if waits else None
            for key, _events in self.selector.select(timeout):
                page = key.data
                if page is None:
                    self._stdin()
                elif page.sock is None:
                    continue  # dropped by an earlier event of this wake-up
                elif key.events & selectors.EVENT_WRITE:  # (registered so while it connects)
                    self._connected(page)
                else:
                    self.read(page)

    def _stdin(self) -> None:
        data = os.read(sys.stdin.fileno(), 4096)
        if not data or STOP.encode() in data:
            self.stopped = True

    def close(self) -> None:
        self.stopped = True
        for page in self.pages:
            if page.sock is not None:
                with contextlib.suppress(OSError):
                    self._send(page, 0x88, struct.pack("!H", 1001))  # going away
                self.drop(page)
        self.selector.close()


def serve(job: dict[str, object]) -> dict[str, object]:
    pages = Pages([tuple(page) for page in job["pages"]])  # type: ignore[attr-defined, misc]
    for page in pages.pages:
        pages.open(page)
    pages.run(lambda: pages.opened >= len(pages.pages), READY_PATIENCE)
    print(READY, flush=True)
    pages.lags.clear()  # (the pages' opening is not the window's lag)
    pages.selector.register(sys.stdin.fileno(), selectors.EVENT_READ, None)
    pages.run(lambda: pages.stopped)
    pages.close()
    lags = sorted(pages.lags)
    lag_p99 = lags[min(len(lags) - 1, int(0.99 * len(lags)))] if lags else 0.0
    return {
        "frames": pages.frames,
        "reconnects": pages.reconnects,
        "opened": pages.opened,
        "lag_p99": lag_p99,
        "out_of_order": pages.out_of_order,
        "gaps": pages.gaps,
    }


async def follow(
    session: aiohttp.ClientSession,
    page: tuple[int, int, str, str],
    frames: list[Frame],
    stopping: Callable[[], bool],
    reconnects: list[float],
) -> None:
    """One open page inside the bot's own loop (``--web-clients 0``): read its frames until
    ``stopping()``, reconnecting as a page does when its socket closes (each reconnect's time
    added to ``reconnects``); every frame with a move number is written down when read."""
    channel, user, url, origin = page
    while not stopping():
        with contextlib.suppress(aiohttp.ClientError, asyncio.TimeoutError):
            async with session.ws_connect(url, headers={"Origin": origin}, max_msg_size=0) as ws:
                async for message in ws:
                    if message.type != aiohttp.WSMsgType.TEXT:
                        continue
                    at = time.monotonic()
                    data = message.data.encode()
                    found = MOVE.search(data)
                    if found is not None:
                        frames.append((channel, user, int(found.group(1)), at))
                    elif data.startswith(CLOSED_FRAME):  # (the next game opens)
                        frames.append((channel, user, CLOSED, at))
        if not stopping():
            reconnects.append(time.monotonic())
            await asyncio.sleep(REOPEN)


def main() -> int:
    job = json.loads(sys.stdin.readline())
    report = serve(job)
    Path(job["report"]).write_text(json.dumps(report))
    print(DONE, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
