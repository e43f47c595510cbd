"""Where a click's acknowledgement waits: ``bench/load.py --parts`` times each stage of every
click by wrapping the service's members from the outside (nothing in the bot changes).

A click's stages, each the time from the previous mark (``time.monotonic``, the loop's clock):

- ``queue``: the loop ran the click's ``call_at`` callback this late (the loop was busy);
- ``task``: the click's task started this long after the callback created it (the ready queue);
- ``lock``: ``service.act`` waited this long for the channel's lock (an AI or timer move of the
  same table under way), counted from the task's start (the bench's own pick of a move is in it);
- ``apply``: from the lock to the write handed to the group commit (the move, its row);
- ``commit_queue``: the write waited this long for its batch to start on the database's
  thread (the batch before it still on the disk, the writer task's wake-up);
- ``commit_run``: from its own statements to the end of its batch's COMMIT;
- ``commit_back``: from the COMMIT's end to the write's future resolved on the loop (the loop's
  wake-up, the GIL);
- ``resume``: from the future resolved to the listeners' first call (the task's turn again, the
  move's snapshot);
- ``emit``: the listeners, with the table's lock held (what they do at once: the publisher, the
  live panels' checks, ...);
- ``reply``: from ``act``'s return to the interaction's first answer: the panel drawn (its
  text; its picture when ready) and its payload built; or the deferral.

The JSON line is not changed; ``summary`` lines are printed above it.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import time
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

import bot.storage.group_commit as group_commit

PARTS = (
    "queue",
    "task",
    "lock",
    "apply",
    "commit_queue",
    "commit_run",
    "commit_back",
    "resume",
    "emit",
    "reply",
)
#: The marks that end each part, in order (the first part starts at ``due``).
MARKS = (
    "arrive",
    "start",
    "locked",
    "submit",
    "ran",
    "committed_thread",
    "committed",
    "emit_start",
    "emit_end",
    "answered",
)


class AckParts:
    """Marks of each click under way, by its task; the finished clicks' parts."""

    def __init__(self) -> None:
        self._open: dict[asyncio.Task[Any], dict[str, float]] = {}
        #: One per click counted: (ack seconds, deferred, {mark: time}, due).
        self.clicks: list[tuple[float, bool, dict[str, float], float]] = []
        #: Group commits: (start, end, writes) on the database's thread.
        self.batches: list[tuple[float, float, int]] = []
        self._undo: list[Callable[[], None]] = []

    # -- the click's own marks (called by bench/load.py's Players) ----------------------------
    def begin(self, due: float, arrive: float) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._open[task] = {"due": due, "arrive": arrive, "start": time.monotonic()}

    def end(self, ack: float | None, deferred: bool) -> None:
        task = asyncio.current_task()
        marks = self._open.pop(task, None) if task is not None else None
        if marks is not None and ack is not None:
            marks["answered"] = marks["due"] + ack
            self.clicks.append((ack, deferred, marks, marks["due"]))

    def _mark(self, name: str) -> dict[str, float] | None:
        task = asyncio.current_task()
        marks = self._open.get(task) if task is not None else None
        if marks is not None and name not in marks:
            marks[name] = time.monotonic()
        return marks

    # -- wrapping the service -----------------------------------------------------------------
    def install(self, service: Any) -> None:
        parts = self
        locked = service.locked

        @contextlib.asynccontextmanager
        async def timed_locked(channel_id: int) -> AsyncIterator[None]:
            async with locked(channel_id):
                parts._mark("locked")
                yield

        service.locked = timed_locked

        db = service.db
        submit = db.submit

        def timed_submit(fn: Any, **options: Any) -> asyncio.Future[Any]:
            marks = parts._mark("submit")
            if marks is None:
                return submit(fn, **options)

            def write(conn: Any) -> Any:
                marks.setdefault("ran", time.monotonic())
                return fn(conn)

            write.marks = marks  # type: ignore[attr-defined]
            future = submit(write, **options)
            future.add_done_callback(lambda _: marks.setdefault("committed", time.monotonic()))
            return future

        db.submit = timed_submit

        commit_batch = group_commit.commit_batch

        def timed_commit_batch(conn: Any, *, writes: list[Any], begin: str = "BEGIN") -> Any:
            start = time.monotonic()
            try:
                return commit_batch(conn, writes=writes, begin=begin)
            finally:
                end = time.monotonic()
                parts.batches.append((start, end, len(writes)))
                for fn in writes:
                    marks = getattr(fn, "marks", None)
                    if marks is not None:
                        marks.setdefault("committed_thread", end)

        group_commit.commit_batch = timed_commit_batch  # type: ignore[assignment]
        self._undo.append(lambda: setattr(group_commit, "commit_batch", commit_batch))

        listeners = service._listeners
        emit = listeners.emit

        async def timed_emit(events: Any) -> None:
            parts._mark("emit_start")
            await emit(events)
            parts._mark("emit_end")

        listeners.emit = timed_emit

    def uninstall(self) -> None:
        for undo in self._undo:
            undo()
        self._undo.clear()

    # -- the summary ----------------------------------------------------------------------------
    def parts_of(self, marks: dict[str, float]) -> dict[str, float]:
        out: dict[str, float] = {}
        previous = marks["due"]
        for part, mark in zip(PARTS, MARKS, strict=True):
            at = marks.get(mark)
            if at is None:
                out[part] = 0.0
                continue
            out[part] = max(at - previous, 0.0)
            previous = at
        return out

    def summary(
        self, begin: float, collections: Sequence[tuple[float, int, float, float]] = ()
    ) -> list[str]:
        """The parts of the slowest 1% of clicks; with ``collections`` (``StallWatch``'s),
        how many of them a generation-1 or -2 collection ran into."""
        if not self.clicks:
            return ["ack parts: no click measured"]
        acks = sorted(c[0] for c in self.clicks)
        p99 = acks[min(len(acks) - 1, int(0.99 * len(acks)))]
        slow = [c for c in self.clicks if c[0] >= p99]
        lines = [
            f"ack parts (ms), the slowest 1% ({len(slow)} clicks of {len(self.clicks):,},"
            f" ack >= {p99 * 1e3:.1f} ms; {sum(c[1] for c in slow)} deferred): "
            "part p50 / p90 / mean of the slow; p50 / mean of all"
        ]
        every = [self.parts_of(c[2]) for c in self.clicks]
        slow_parts = [self.parts_of(c[2]) for c in slow]
        for part in PARTS:
            s = [p[part] for p in slow_parts]
            a = [p[part] for p in every]
            lines.append(
                f"  {part:<13}{_q(s, 0.5) * 1e3:8.1f}{_q(s, 0.9) * 1e3:8.1f}{_mean(s):8.1f}"
                f"   |{_q(a, 0.5) * 1e3:7.1f}{_mean(a):7.1f}"
            )
        old = [(s, s + n) for s, g, n, _ in collections if g >= 1]
        if old:
            hit = [
                sum(max(0.0, min(b, c[2]["answered"]) - max(a, c[3])) for a, b in old) for c in slow
            ]
            lines.append(
                f"  of the slowest 1%, {sum(1 for h in hit if h > 0)} waited through a"
                f" generation-1/2 collection ({_mean(hit):.0f} ms of it on average)"
            )
        if self.batches:
            sizes = [n for _, _, n in self.batches]
            runs = [e - s for s, e, _ in self.batches]
            lines.append(
                f"group commits: {len(self.batches):,}, writes per batch p50 {_q(sizes, 0.5):.0f}"
                f" max {max(sizes)}, batch time p50 {_q(runs, 0.5) * 1e3:.1f} ms"
                f" p99 {_q(runs, 0.99) * 1e3:.1f} ms max {max(runs) * 1e3:.1f} ms"
            )
        # The first minute: the tail by 5 seconds of the window.
        buckets: dict[int, list[float]] = {}
        for ack, _, _, due in self.clicks:
            buckets.setdefault(int((due - begin) // 5), []).append(ack)
        lines.append(
            "ack p99 by 5 s of the window: "
            + ", ".join(
                f"{k * 5}s {_q(v, 0.99) * 1e3:.0f}" for k, v in sorted(buckets.items()) if k >= 0
            )
        )
        return lines


def _q(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) * 1e3 if values else 0.0


class StallWatch:
    """What the loop's thread is doing when it is stuck: a thread looks at the loop's heartbeat
    every millisecond and, when it is older than ``threshold``, samples the loop thread's stack
    (``sys._current_frames``) every millisecond until it beats again; garbage collections are
    timed too (``gc.callbacks``). ``summary`` names the frames most seen in long stalls."""

    def __init__(self, threshold: float = 0.03, stacks: bool = True) -> None:
        import threading

        self.threshold = threshold
        self.beat = time.monotonic()
        self.samples: collections.Counter[str] = collections.Counter()
        self.stalls: list[tuple[float, float]] = []  # (start, length)
        #: (start, generation, length, the loop thread's CPU in it): the CPU is what the
        #: collection costs on a quiet machine (the wall time includes the other processes').
        self.collections: list[tuple[float, int, float, float]] = []
        self._gc_start = self._gc_cpu = 0.0
        self._stop = threading.Event()
        self._loop_thread = threading.get_ident()
        #: The stack sampler costs the loop (its thread takes the GIL every millisecond, and
        #: the loop waits to get it back): without it, only the collections are timed.
        self._thread = (
            threading.Thread(target=self._watch, name="stall-watch", daemon=True)
            if stacks
            else None
        )

    def start(self) -> None:
        import gc

        gc.callbacks.append(self._on_gc)
        if self._thread is not None:
            self._thread.start()

    def stop(self) -> None:
        import gc

        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._on_gc)

    def _on_gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_start, self._gc_cpu = time.monotonic(), time.thread_time()
        elif self._gc_start:
            length = time.monotonic() - self._gc_start
            cpu = time.thread_time() - self._gc_cpu
            self.collections.append((self._gc_start, info["generation"], length, cpu))

    def _watch(self) -> None:
        import sys
        import traceback

        while not self._stop.wait(0.001):
            beat = self.beat
            if time.monotonic() - beat < self.threshold:
                continue
            while self.beat == beat and not self._stop.is_set():
                frame = sys._current_frames().get(self._loop_thread)
                if frame is not None:
                    stack = traceback.extract_stack(frame)[-12:]
                    own = [f for f in stack if "/site-packages/" not in f.filename] or stack
                    where = " < ".join(
                        f"{f.filename.rsplit('/', 2)[-1]}:{f.name}" for f in reversed(own[-4:])
                    )
                    self.samples[where] += 1
                time.sleep(0.001)
            self.stalls.append((beat, time.monotonic() - beat))

    def summary(self, begin: float) -> list[str]:
        long = [(s - begin, n) for s, n in self.stalls if s >= begin]
        lines = (
            []
            if self._thread is None
            else [
                f"loop stalls over {self.threshold * 1e3:.0f} ms in the window: {len(long)},"
                f" {sum(n for _, n in long) * 1e3:.0f} ms in all; the longest: "
                + ", ".join(
                    f"{n * 1e3:.0f} ms at {s:.1f}s"
                    for s, n in sorted(long, key=lambda x: -x[1])[:6]
                )
            ]
        )
        gcs = [(s - begin, g, n, c) for s, g, n, c in self.collections if s >= begin]
        for generation in (0, 1, 2):
            these = [(s, n, c) for s, g, n, c in gcs if g == generation]
            if not these:
                continue
            cpus = sorted(c for _, _, c in these)
            lines.append(
                f"gen{generation} collections in the window: {len(these)}, CPU p50"
                f" {cpus[len(cpus) // 2] * 1e3:.1f} ms max {cpus[-1] * 1e3:.1f} ms, total"
                f" {sum(cpus) * 1e3:.0f} ms; the longest (wall / CPU): "
                + ", ".join(
                    f"{n * 1e3:.0f}/{c * 1e3:.0f} ms at {s:.1f}s"
                    for s, n, c in sorted(these, key=lambda x: -x[1])[:4]
                )
            )
        total = sum(self.samples.values())
        for where, count in self.samples.most_common(12):
            lines.append(f"  stalled in {count * 100 / max(total, 1):4.1f}%: {where}")
        return lines
