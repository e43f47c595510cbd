"""``bench/loop_cpu.py``'s "the rest", taken apart: what the loop thread runs besides the parts
that script times, by what runs it.

    python bench/loop_rest.py [bench/load.py's options: --tables 1000 --seconds 60 ...]

Runs ``bench/load.py`` as it is (the same options, the same lines printed) and times, in the
loop thread's CPU (``time.thread_time``), inside the measured window only:

- every callback the loop runs (``Handle._run``), named by the coroutine of the task it steps
  (``task Players.click``: a click's act and answer; ``task Scheduler._run``: an AI's or a
  timed-out seat's move; ``task LivePanels._redraw``...) or by the callback itself (``cb
  PipeWorkers._readable``: the picture workers' answers; ``cb _resolve``: a group commit's
  outcome...);
- inside them, ``loop_cpu.TIMED``'s parts and a few more (``MORE``: the engine's views, legal
  moves and moves, the table's state looked up, the scheduler's arming, the turn deadlines);
- the loop's own work between callbacks (``loop's own turn``: waiting for and reading its
  sockets' readiness, its timers' heap), and the garbage collector's pauses.

Every time is exclusive: a part's own, less the parts timed inside it (so the callbacks' lines
are what is left of them once their timed parts are out). Each timed call costs the thread two
clock reads and a wrapper (~1 µs, printed): a line with several calls per action carries a few
µs of it. The counts of calls are exact; compare checkouts with ``bench/load.py``'s own figure.
"""

from __future__ import annotations

import asyncio
import collections
import functools
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import load, loop_cpu  # noqa: E402
from bot.service.core import ServiceCore  # noqa: E402
from bot.service.jobs import JobsMixin  # noqa: E402
from bot.service.snapshot import TableSnapshot  # noqa: E402
from bot.service.tables import LiveTable  # noqa: E402
from engine.game import Game  # noqa: E402

GC = loop_cpu.GC
OWN = "loop's own turn"
#: Timed besides ``loop_cpu.TIMED``: (owner, attribute, part).
MORE: tuple[tuple[Any, str, str], ...] = (
    (TableSnapshot, "view", "engine views"),
    (TableSnapshot, "own_view", "engine views"),
    (TableSnapshot, "legal", "engine legal moves"),
    (LiveTable, "current_state", "the table's state looked up"),
    (JobsMixin, "wake", "the next job armed (scheduler)"),
    (ServiceCore, "_deadlines_for", "turn deadlines"),
)


class Split:
    """Exclusive thread CPU seconds and calls per part while ``on``."""

    def __init__(self) -> None:
        self.on = False
        self.seconds: collections.Counter[str] = collections.Counter()
        self.calls: collections.Counter[str] = collections.Counter()
        #: The timed calls under way: [part, start, seconds of the parts inside it].
        self.stack: list[list[Any]] = []
        self.window = 0.0
        self.actions = 0
        self._gc_started = 0.0

    def begin(self, part: str) -> list[Any] | None:
        if not self.on:
            return None
        frame = [part, time.thread_time(), 0.0]
        self.stack.append(frame)
        return frame

    def end(self, frame: list[Any] | None) -> None:
        if frame is None or not self.stack or self.stack[-1] is not frame:
            return  # (the window closed, or opened, inside it)
        self.stack.pop()
        total = time.thread_time() - frame[1]
        self.seconds[frame[0]] += total - frame[2]
        self.calls[frame[0]] += 1
        if self.stack:
            self.stack[-1][2] += total

    def on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if not self.on:
            return
        if phase == "start":
            self._gc_started = time.thread_time()
            return
        spent = time.thread_time() - self._gc_started
        self.seconds[GC] += spent
        self.calls[GC] += 1
        if self.stack:
            self.stack[-1][2] += spent

    def lines(self, clock_cost: float) -> list[str]:
        actions = max(self.actions, 1)
        own = self.window - sum(self.seconds.values())
        rows = sorted([*self.seconds.items(), (OWN, own)], key=lambda row: -row[1])
        out = [
            f"the event loop's thread, exclusive parts: {self.window / actions * 1e6:,.0f} µs per"
            f" action over {self.actions:,} actions (~{clock_cost * 1e6:.1f} µs per timed call"
            " in the figures)"
        ]
        for part, seconds in rows:
            calls = f"{self.calls[part] / actions:6.2f} calls" if part != OWN else ""
            out.append(f"  {seconds / actions * 1e6:7.1f} µs per action {calls:12s}  {part}")
        return out


def _what_runs(handle: asyncio.Handle) -> str:
    """A callback's line: the coroutine of the task it steps or wakes, else its own name."""
    callback = handle._callback  # type: ignore[attr-defined]
    owner = getattr(callback, "__self__", None)
    if isinstance(owner, asyncio.Task):
        coro = owner.get_coro()
        return f"task {getattr(coro, '__qualname__', type(coro).__name__)}"
    inner = getattr(callback, "func", callback)  # (a partial)
    return f"cb {getattr(inner, '__qualname__', None) or type(inner).__name__}"


def _games() -> Iterator[type[Game]]:
    """``Game`` and every subclass that defines its own ``apply``."""
    todo = [Game]
    while todo:
        kind = todo.pop()
        todo += kind.__subclasses__()
        if "apply" in kind.__dict__:
            yield kind


def install(split: Split) -> Callable[[], None]:
    """Time it all while ``load.Stats.recording`` is on; returns what undoes it."""
    timed = [*loop_cpu.TIMED, *MORE, *((kind, "apply", "engine moves") for kind in _games())]
    # (A class's own attribute, put back as it was: not one it inherits, set on it.)
    saved = [(owner, name, vars(owner)[name]) for owner, name, _part in timed]
    for owner, name, part in timed:
        begin = functools.partial(split.begin, part)
        setattr(owner, name, loop_cpu.timed_by(getattr(owner, name), begin, split.end))
    handle_run = asyncio.events.Handle._run

    def run(handle: asyncio.Handle) -> None:
        frame = split.begin(_what_runs(handle)) if split.on else None
        try:
            handle_run(handle)
        finally:
            split.end(frame)

    asyncio.events.Handle._run = run  # type: ignore[method-assign]
    unfollow = loop_cpu.follow_window(split, split.on_gc)

    def undo() -> None:
        for owner, name, original in reversed(saved):
            setattr(owner, name, original)
        asyncio.events.Handle._run = handle_run  # type: ignore[method-assign]
        unfollow()

    return undo


def main(argv: list[str] | None = None) -> int:
    split = Split()
    return load.main_with(argv, install(split), lambda: split.lines(loop_cpu.clock_cost()))


if __name__ == "__main__":
    sys.exit(main())
