"""The hub's fan-out: one frame per move for each open page (not one per event of the move), the
same encoded text for every page that sees the same, and a slow page never holding the others."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from bot.service import TableService
from bot.web.adapter import ServiceAdapter
from bot.web.hub import Hub, Page
from tests.bot.conftest import FakeClock
from tests.web.conftest import BOB, CH, HOST, WATCHER, four_humans

USERS = {0: HOST, 1: BOB}


class Recorder:
    """A socket that keeps every text it is sent; ``gate`` (when set) holds each write until
    it opens, as the socket of a reader that does not read."""

    closed = False

    def __init__(self, gate: asyncio.Event | None = None) -> None:
        self.texts: list[str] = []
        self.gate = gate

    async def send_str(self, text: str) -> None:
        if self.gate is not None:
            await self.gate.wait()
        self.texts.append(text)


async def move_once(service: TableService) -> None:
    table = service.get_table(CH)
    assert table is not None
    seat = table.to_act[0]
    user = {0: HOST, 1: BOB, 2: 3, 3: 4}[seat]
    await service.act(CH, user, service.legal_actions(CH, user)[0])


async def test_one_frame_per_move_shared_by_the_pages_that_see_the_same(
    service: TableService, clock: FakeClock
) -> None:
    await four_humans(service)
    hub = Hub(ServiceAdapter(service), clock)
    sockets = {
        "host": Recorder(),
        "host again": Recorder(),  # a second tab of the same player
        "bob": Recorder(),
        "watcher": Recorder(),
        "watcher again": Recorder(),
    }
    users = {"host": HOST, "host again": HOST, "bob": BOB}
    try:
        for name, socket in sockets.items():
            hub.add(Page(socket, users.get(name, WATCHER), CH, "en"))  # type: ignore[arg-type]
        for moves in range(1, 6):
            await move_once(service)
            # A move's events (applied, whose turn) share its snapshot: one frame each.
            assert {name: len(s.texts) for name, s in sockets.items()} == dict.fromkeys(
                sockets, moves
            )
        for first, second in (("host", "host again"), ("watcher", "watcher again")):
            for a, b in zip(sockets[first].texts, sockets[second].texts, strict=True):
                assert a is b  # encoded once, the same text written to both
        host = [json.loads(text) for text in sockets["host"].texts]
        assert [frame["seq"] for frame in host] == [1, 2, 3, 4, 5]
        assert host[-1]["move"] == service.get_table(CH).move_number  # type: ignore[union-attr]
        assert sockets["host"].texts[-1] != sockets["bob"].texts[-1]  # each seat its own view
    finally:
        hub.close()


async def test_a_slow_page_keeps_its_newest_frame_and_never_holds_the_others(
    service: TableService, clock: FakeClock
) -> None:
    await four_humans(service)
    hub = Hub(ServiceAdapter(service), clock)
    gate = asyncio.Event()
    slow, fast = Recorder(gate), Recorder()
    pages = [Page(slow, HOST, CH, "en"), Page(fast, BOB, CH, "en")]  # type: ignore[arg-type]
    try:
        for page in pages:
            hub.add(page)
        for _ in range(4):
            await move_once(service)
        assert len(fast.texts) == 4 and slow.texts == []  # the fast page had every frame at once
        gate.set()
        for _ in range(10):
            await asyncio.sleep(0)
        # The write that waited, then the newest frame only (the two between skipped).
        frames: list[dict[str, Any]] = [json.loads(text) for text in slow.texts]
        assert [frame["seq"] for frame in frames] == [1, 4]
        await move_once(service)
        assert len(slow.texts) == 3 and len(fast.texts) == 5  # writing at once again
    finally:
        for page in pages:
            await hub.remove(page)
        hub.close()


class Transport:
    """A page's transport: keeps the bytes it is handed; ``waiting`` bytes already in its
    buffer (a reader that fell behind)."""

    def __init__(self, waiting: int = 0) -> None:
        self.written: list[bytes] = []
        self.waiting = waiting

    def is_closing(self) -> bool:
        return False

    def get_write_buffer_size(self) -> int:
        return self.waiting

    def write(self, data: bytes) -> None:
        self.written.append(data)


def text_of(data: bytes) -> str:
    """The text of one websocket text frame from a server (final, unmasked)."""
    assert data[0] == 0x81 and not data[1] & 0x80
    size, start = data[1], 2
    if size == 126:
        size, start = int.from_bytes(data[2:4], "big"), 4
    elif size == 127:
        size, start = int.from_bytes(data[2:10], "big"), 10
    assert len(data) == start + size
    return data[start:].decode()


async def test_a_moves_frame_is_the_same_websocket_bytes_handed_to_each_pages_transport(
    service: TableService, clock: FakeClock
) -> None:
    await four_humans(service)
    hub = Hub(ServiceAdapter(service), clock)
    transports = {name: Transport() for name in ("host", "host again", "bob", "watcher")}
    users = {"host": HOST, "host again": HOST, "bob": BOB, "watcher": WATCHER}
    sockets = {name: Recorder() for name in transports}
    try:
        for name, transport in transports.items():
            page = Page(sockets[name], users[name], CH, "en", transport=transport)  # type: ignore[arg-type]
            hub.add(page)
        for _ in range(3):
            await move_once(service)
        assert all(s.texts == [] for s in sockets.values())  # nothing through aiohttp's writer
        assert {name: len(t.written) for name, t in transports.items()} == dict.fromkeys(
            transports, 3
        )
        for a, b in zip(transports["host"].written, transports["host again"].written, strict=True):
            assert a is b  # built once for both pages of the seat
        host = [json.loads(text_of(data)) for data in transports["host"].written]
        assert [frame["seq"] for frame in host] == [1, 2, 3] and host[-1]["seat"] == 0
        watcher = json.loads(text_of(transports["watcher"].written[-1]))
        assert watcher["seat"] is None and watcher["legal"] == []
    finally:
        hub.close()


async def test_a_page_whose_socket_fell_behind_goes_through_the_writer_that_waits(
    service: TableService, clock: FakeClock
) -> None:
    await four_humans(service)
    hub = Hub(ServiceAdapter(service), clock)
    behind, socket = Transport(waiting=10_000), Recorder()
    hub.add(Page(socket, HOST, CH, "en", transport=behind))  # type: ignore[arg-type]
    try:
        await move_once(service)
        assert behind.written == [] and len(socket.texts) == 1  # aiohttp's write: it may wait
    finally:
        hub.close()


def test_the_wire_bytes_of_a_frame_of_every_size() -> None:
    from bot.web import frames

    for size in (0, 125, 126, 65_535, 65_536, 200_000):
        text = "é" * (size // 2) + "x" * (size % 2)
        assert text_of(frames.wire(text)) == text
