"""What the web table costs the bot's event loop per move: its frames, their JSON, their writes.

    python bench/web_fanout.py [--tables 200] [--pages 2] [--moves 3000] [--rounds 3]

The real ``TableService`` (SQLite in a temporary folder, timers off, every seat a bench player)
plays random legal moves at ``--tables`` tables of the four games in turn, each with ``--pages``
open pages (the players of seats 0, 1, ...; a watcher past the seats) held by the real
``Hub``, their sockets (and transports) stand-ins that only count what is written (a socket's
write is the same system call whatever the hub does). Phases of ``--moves`` moves alternate
with the hub and without it (A/B/A/B, ``--rounds`` of each: a shared machine's load swings),
each timed in CPU seconds of the loop's thread; the web's cost per move is the difference of
the medians. Also printed: frames and bytes written per move and page, which no load changes.

In the bot the live panels and the table message read the players' views and the public view
of each move's snapshot before the web does (the snapshot computes each once and shares it); so
here, in both phases, a listener reads the views the pages will show first (``--views-by-web``:
leave them to the hub, which then pays for them).

For a move to every open page at 1,000 tables, see ``bench/load.py --web``; this isolates the
hub's own work from the pictures and panels that share the loop there.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from aiohttp import WSMsgType  # noqa: E402
from aiohttp._websocket.writer import WebSocketWriter  # noqa: E402

import engine  # noqa: E402
from bot.service import Limits, TableError, TableService  # noqa: E402
from bot.web.adapter import ServiceAdapter  # noqa: E402
from bot.web.hub import Hub, Page  # noqa: E402

WATCHER = 10**9
GAMES = tuple(sorted(engine.GAMES))


class CountingSocket:
    """A page's socket that counts what it is sent: through aiohttp's writer (``send_str``) or,
    as the server's pages are written when their socket keeps up, as websocket bytes handed
    to its transport (``write``)."""

    closed = False

    def __init__(self) -> None:
        self.frames = 0
        self.bytes = 0
        # aiohttp's own writer, writing to this stand-in: its work per write is the bot's.
        self._writer = WebSocketWriter(Protocol(), self)  # type: ignore[arg-type]

    async def send_str(self, text: str) -> None:
        await self._writer.send_frame(text.encode(), WSMsgType.TEXT)

    # (the transport's side)
    def is_closing(self) -> bool:
        return False

    def get_write_buffer_size(self) -> int:
        return 0

    def write(self, data: bytes) -> None:
        self.frames += 1
        self.bytes += len(data)


class ViewReader:
    """Reads each move's views the pages show, as the Discord panels would first."""

    def __init__(self, pages: int) -> None:
        self.seats: tuple[int | None, ...] = tuple(i if i < 2 else None for i in range(pages))

    async def on_table_event(self, event: Any) -> None:
        snapshot = event.snapshot
        if snapshot is None or not snapshot.current:
            return
        for seat in self.seats:
            with contextlib.suppress(Exception):
                snapshot.table_view(seat)


class Protocol:
    """The protocol of a stand-in socket: never paused (its reader keeps up)."""

    _paused = False


def user_of(channel: int, seat: int) -> int:
    return channel * 10 + seat + 1


async def open_tables(service: TableService, tables: int, rng: random.Random) -> None:
    for channel in range(1, tables + 1):
        await open_one(service, channel, rng)


async def open_one(service: TableService, channel: int, rng: random.Random) -> None:
    game = GAMES[channel % len(GAMES)]
    spec = engine.GAMES[game]
    players = spec.min_players if game != "troikuntza" else max(spec.min_players, 4)
    host = user_of(channel, 0)
    options: dict[str, Any] = {"timer": "off"}
    await service.open_table(
        channel, 1, host, "p0", game, options=options, seed=rng.randrange(2**31)
    )
    for seat in range(1, players):
        await service.join(channel, user_of(channel, seat), f"p{seat}")
    await service.start_game(channel, host)


async def play(service: TableService, tables: int, moves: int, rng: random.Random) -> None:
    done = 0
    while done < moves:
        channel = rng.randrange(1, tables + 1)
        table = service.get_table(channel)
        if table is None:  # its game ended: the next one
            await open_one(service, channel, rng)
            continue
        if str(table.status) != "playing" or not table.to_act:
            continue
        seat = rng.choice(table.to_act)
        user = user_of(channel, seat)
        legal = service.legal_actions(channel, user)
        if not legal:
            continue
        try:
            await service.act(channel, user, rng.choice(legal))
        except TableError:
            continue
        done += 1
        await asyncio.sleep(0)  # the pages' writers, if any, run as in the bot


async def run(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="troika-web-fanout-") as folder:
        service = TableService(Path(folder) / "t.db", ai_delay=0, limits=Limits.none())
        await service.start()
        await open_tables(service, args.tables, rng)
        if not args.views_by_web:
            service.add_listener(ViewReader(args.pages))
        sockets: list[CountingSocket] = []
        with_hub: list[float] = []
        without: list[float] = []
        for _round in range(args.rounds):
            for side in ("with", "without"):
                hub: Hub | None = None
                if side == "with":
                    hub = Hub(ServiceAdapter(service), time.time)
                    sockets = []
                    for channel in range(1, args.tables + 1):
                        for index in range(args.pages):
                            socket = CountingSocket()
                            sockets.append(socket)
                            user = user_of(channel, index) if index < 2 else WATCHER
                            page = Page(socket, user, channel, "en", transport=socket)  # type: ignore[arg-type]
                            hub.add(page)
                await play(service, args.tables, args.moves // 10, rng)  # warm
                begin = time.thread_time()
                await play(service, args.tables, args.moves, rng)
                spent = time.thread_time() - begin
                (with_hub if side == "with" else without).append(spent)
                if hub is not None:
                    frames = sum(s.frames for s in sockets)
                    size = sum(s.bytes for s in sockets)
                    for pages in list(hub.pages.values()):
                        for page in list(pages):
                            await hub.remove(page)
                    hub.close()
                    per_page = frames / (args.moves * 1.1) / args.pages
                    print(
                        f"with the hub: {spent * 1e6 / args.moves:,.0f} us per move;"
                        f" {per_page:.2f} frames per move and page,"
                        f" {size / max(frames, 1):,.0f} bytes a frame",
                        flush=True,
                    )
                else:
                    print(f"without:      {spent * 1e6 / args.moves:,.0f} us per move", flush=True)
        await service.close()
    a, b = statistics.median(with_hub), statistics.median(without)
    print(
        f"web cost per move (median with - median without): {(a - b) * 1e6 / args.moves:,.0f} us"
        f" for {args.pages} pages a table"
        f" ({'views computed by the web' if args.views_by_web else 'views read before'});"
        f" load average {os.getloadavg()[0]:.2f}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--pages", type=int, default=2, help="open pages per table (<= 3)")
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--views-by-web", action="store_true", help="the hub computes the views it shows"
    )
    args = parser.parse_args()
    if not 1 <= args.pages <= 3:
        parser.error("--pages: 1 to 3")
    asyncio.run(run(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
