"""``bench/load.py --web``: the table in the browser under load. The bot's web server (bot/web)
runs in the bench's process with two open pages per table, and every move committed inside the
measured window is timed from its arrival at the service to its frame at each open page of its
table: a player's move from the moment his click reached the bot (the time ``bench/load.py``
schedules it at, as for its acknowledgement), an AI's or a timeout's from its commit (the
service's own timer made it: it has no arrival of its own).

The pages are websocket clients on this machine. With ``--web-clients N`` (default 2) they run
in N processes of their own (``bench/web_clients.py``), so the bot's process (its event loop,
its CPU) is the bot alone, as it is in production, where the pages are browsers elsewhere; with
``--web-clients 0`` they run inside the bot's process and loop, as this bench first did (their
reading then costs the bot's CPU and loop too: an upper bound). The client processes are lean
(one epoll, plain sockets, only a frame's move number read: see their docstring) because they
share the bot's two cores: a heavy load generator would starve the bot it measures. Their CPU
is printed apart from the bot's. Both ways are timed on one clock: the bot's process stamps
each move (``time.monotonic()``, the event loop's clock); the client processes write down when
each frame *arrived* at the page's socket (the kernel's receive timestamp, on the same clock),
so their own lateness in reading it is not the bot's (it is printed apart: their lag); the
in-loop pages of ``--web-clients 0`` write down when they read it.

Every move is also timed from its commit (``fanout``): the web table's own part, the frames
built and written after the change is stored, without the queue and the database write a click
waits for before its commit (which its acknowledgement waits for too).

A move reaches a page with the first frame after its commit that shows it or a later move of the
same game (the server may send one frame for two quick moves: the later move's frame shows
both). A move no frame showed within ``CUTOFF`` seconds is counted missed, not timed.
"""

from __future__ import annotations

import asyncio
import bisect
import collections
import json
import secrets
import shutil
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

from bench.cpu import tree_cpu
from bench.web_clients import DONE, READY, READY_PATIENCE, STOP, Frame, follow
from bot.service import ActionApplied, TableEvent, TableService
from bot.service.snapshot import TableSnapshot
from bot.web import links
from bot.web.adapter import Change, UserState
from bot.web.server import WebServer

SCRIPT = Path(__file__).resolve().parent / "web_clients.py"
#: Seconds after its commit past which a move's frame counts as missed.
CUTOFF = 5.0
#: Seconds the pages go on reading after the window closes: the last moves' frames.
GRACE = 2.0


class WebPages:
    def __init__(self, service: TableService, clients: int = 2) -> None:
        self.server = WebServer(service, secrets.token_bytes(32))
        #: Client processes (0: the pages in this process and its event loop).
        self.clients = clients
        self.recording = False
        #: Seconds from a move's commit to its first frame at each open page (after ``stop``).
        self.latencies: list[float] = []
        #: Seconds from each move's commit to the same frames (the fan-out alone).
        self.fanout: list[float] = []
        #: Moves of the window a page did not see within ``CUTOFF`` (after ``stop``).
        self.missed = 0
        self.pages = 0
        self.reconnects = 0
        #: The client processes' ids (their CPU is not the bot's).
        self.client_pids: list[int] = []
        #: The client processes' own lag, p99 (seconds; the worst of them): how long a frame
        #: waited in its socket for them to read it; and the pages open when measuring began.
        self.client_lag_p99: float | None = None
        self.opened = 0
        #: Frames a page received older than one it had (a fault), and frames that skipped
        #: sequence numbers (a page that fell behind), over the whole run (client processes).
        self.out_of_order = 0
        self.gaps = 0
        #: CPU seconds the client processes used inside the window (they share the machine).
        self.client_cpu = 0.0
        #: The clicks under way: when each arrived, by (channel, user) (``Players`` fills it).
        self.arrivals: dict[tuple[int, int], float] = {}
        #: Of the timed moves, those timed from a click's arrival (the others: from commit).
        self.clicks = 0
        #: Seconds each committed change's fan-out took in the bot's loop (``Hub.changed``:
        #: its frames built and written), inside the window.
        self.changes: list[float] = []
        #: The loop thread's CPU seconds in them (the wall time above also holds the moments
        #: the thread waited for a core, and any garbage collection that fell inside).
        self.changes_cpu = 0.0
        #: Of it, the loop thread's CPU reading each page's view and moves from the snapshot.
        self.views_cpu = 0.0
        #: Frames the pages received inside the window (what the bot sent them then).
        self.window_frames = 0
        #: (channel, move, arrival, commit) of each move committed while recording.
        self._commits: list[tuple[int, int, float, float]] = []
        self._pages: list[tuple[int, int, str, str]] = []
        self._frames: list[Frame] = []
        self._reconnect_times: list[float] = []
        self._window: tuple[float, float] = (0.0, 0.0)
        self._tasks: set[asyncio.Task[None]] = set()
        self._processes: list[asyncio.subprocess.Process] = []
        self._session: aiohttp.ClientSession | None = None
        self._folder: Path | None = None
        self._stopping = False

    async def start(self) -> None:
        await self.server.start()
        # Each change's fan-out timed as it runs in the bot's loop (frames built and written):
        # the web's own part of the loop's stalls.
        hub = self.server.hub
        assert hub is not None
        changed = hub.changed

        def timed(change: Change) -> None:
            if not self.recording:
                changed(change)
                return
            begin, cpu = time.perf_counter(), time.thread_time()
            changed(change)
            self.changes.append(time.perf_counter() - begin)
            self.changes_cpu += time.thread_time() - cpu

        hub.adapter.unsubscribe()
        hub.adapter.subscribe(timed)
        # Of that, each page's view and moves read from the change's snapshot: the first reader
        # of a snapshot computes them (here the hub, before the panels that read them next),
        # so this part is the snapshot's cost more than the web's.
        state_in = hub.adapter.state_in

        def timed_state_in(snapshot: TableSnapshot, user_id: int) -> UserState | None:
            if not self.recording:
                return state_in(snapshot, user_id)
            cpu = time.thread_time()
            try:
                return state_in(snapshot, user_id)
            finally:
                self.views_cpu += time.thread_time() - cpu

        hub.adapter.state_in = timed_state_in  # type: ignore[method-assign]

    async def on_table_event(self, event: TableEvent) -> None:
        if isinstance(event, ActionApplied) and self.recording:
            table = event.table
            arrived = self.arrivals.get((table.channel_id, event.user_id or 0))
            self.clicks += arrived is not None
            now = time.monotonic()
            at = now if arrived is None else arrived
            self._commits.append((table.channel_id, table.move_number, at, now))

    def open(self, channel: int, users: tuple[int, ...]) -> None:
        """The pages of these players at this table (opened by ``connect``)."""
        for user in users:
            token = links.sign(self.server.secret, user, channel, int(time.time()) + 86_400)
            base = self.server.base
            self._pages.append((channel, user, f"{base}/ws/{token}", base))
        self.pages = len(self._pages)

    async def connect(self) -> None:
        """Open every page: in the client processes, or here."""
        if self.clients == 0:
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=0), timeout=aiohttp.ClientTimeout(total=None)
            )
            loop = asyncio.get_running_loop()
            for page in self._pages:
                task = loop.create_task(
                    follow(
                        self._session,
                        page,
                        self._frames,
                        lambda: self._stopping,
                        self._reconnect_times,
                    )
                )
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
            return
        self._folder = Path(tempfile.mkdtemp(prefix="troika-web-pages-"))
        for index in range(self.clients):
            share = self._pages[index :: self.clients]
            report = self._folder / f"pages-{index}.json"
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                str(SCRIPT),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
            )
            assert process.stdin is not None
            job = {"pages": share, "report": str(report)}
            process.stdin.write(json.dumps(job).encode() + b"\n")
            await process.stdin.drain()
            self._processes.append(process)
            self.client_pids.append(process.pid)
        for process in self._processes:
            await self._expect(process, READY, READY_PATIENCE + 30)

    def begin(self) -> None:
        self._window = (time.monotonic(), 0.0)
        self.client_cpu = -sum(tree_cpu(pid) for pid in self.client_pids)
        self.recording = True

    def end(self) -> None:
        self.recording = False
        self.client_cpu += sum(tree_cpu(pid) for pid in self.client_pids)
        self._window = (self._window[0], time.monotonic())

    async def stop(self) -> None:
        if self._processes or self._tasks:
            await asyncio.sleep(GRACE)  # the frames of the window's last moves
        self._stopping = True
        for process in self._processes:
            assert process.stdin is not None
            process.stdin.write(STOP.encode() + b"\n")
            await process.stdin.drain()
        for index, process in enumerate(self._processes):
            await self._expect(process, DONE, 60)
            await process.wait()
            assert self._folder is not None
            report = json.loads((self._folder / f"pages-{index}.json").read_text())
            self._frames.extend(tuple(frame) for frame in report["frames"])
            self._reconnect_times.extend(report["reconnects"])
            self.opened += report["opened"]
            self.out_of_order += report["out_of_order"]
            self.gaps += report["gaps"]
            self.client_lag_p99 = max(self.client_lag_p99 or 0.0, report["lag_p99"])
        await self.server.stop()  # closes every page's socket still open here
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._session is not None:
            await self._session.close()
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
        self._match()

    async def _expect(
        self, process: asyncio.subprocess.Process, word: str, patience: float
    ) -> None:
        assert process.stdout is not None
        line = await asyncio.wait_for(process.stdout.readline(), patience)
        if line.decode().strip() != word:
            process.kill()
            raise RuntimeError(f"a web page client said {line!r}, not {word!r}")

    def _match(self) -> None:
        """Each move of the window against the frames of each open page of its table."""
        pages: dict[int, list[int]] = collections.defaultdict(list)
        for channel, user, _url, _origin in self._pages:
            pages[channel].append(user)
        seen: dict[tuple[int, int], list[tuple[float, int]]] = collections.defaultdict(list)
        for channel, user, move, at in self._frames:
            seen[(channel, user)].append((at, move))
        times: dict[tuple[int, int], list[float]] = {}
        for key, frames in seen.items():
            frames.sort()
            times[key] = [at for at, _ in frames]
        for channel, move, committed, stored in self._commits:
            for user in pages[channel]:
                frames = seen.get((channel, user), [])
                start = bisect.bisect_left(times.get((channel, user), []), committed)
                latency = None
                for at, shown in frames[start:]:
                    if at - committed > CUTOFF:
                        break
                    if shown >= move:
                        latency = at - committed
                        break
                if latency is None:
                    self.missed += 1
                else:
                    self.latencies.append(latency)
                    self.fanout.append(latency - (stored - committed))
        begin, end = self._window
        self.window_frames = sum(begin <= frame[3] <= end for frame in self._frames)
        self.reconnects = sum(begin <= at <= end + GRACE for at in self._reconnect_times)
