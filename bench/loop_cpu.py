"""The event loop's thread's CPU per action, split into the parts of the bot's work.

    python bench/loop_cpu.py [bench/load.py's options: --tables 1000 --seconds 60 ...]

Runs ``bench/load.py`` as it is (the same options, the same lines printed), with a timer of the
loop thread's CPU time (``time.thread_time``) around a few entry points of its work, counted
inside the measured window only; then prints, per part, its calls and microseconds per action
and its share of the thread. The parts (a part running inside another counts for the outer one;
the garbage collector's pauses count apart, wherever they fall):

- ``panel drawn``: ``cogs.panels.draw_panel``: a player's panel (embed, buttons, the hand
  picture's key; the seat's view of the state when no one read it before);
- ``live panels``: ``LivePanels.on_table_event``: which live panels changed (their seats' views
  and moves);
- ``table message``: ``TablePublisher.on_table_event``: the moves told on the table message;
- ``Discord payloads``: the fake Discord's ``Recorder.record``: each request's payload built as
  discord.py builds it (the real bot's cost too);
- ``AI choice``: ``bot.service.timers.decide`` (the AI's turn on the loop);
- ``garbage collector``: every collection (``gc.callbacks``);
- ``the rest``: the move itself, the group commit's way there and back, the scheduler, the
  picture pool's messages, asyncio's own work and the bench's players.

Each timed call costs the thread two clock reads (a system call each): a few calls per action,
a few microseconds per action on the total, printed. The split is for finding where the time
goes; compare checkouts with ``bench/load.py``'s own figure, interleaved, as its docstring says.
"""

from __future__ import annotations

import collections
import functools
import gc
import inspect
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import load  # noqa: E402
from bench.fake_discord import Recorder  # noqa: E402
from bot.app.publisher import TablePublisher  # noqa: E402
from bot.service import timers  # noqa: E402
from cogs import panels  # noqa: E402
from cogs.live_panels import LivePanels  # noqa: E402

GC = "garbage collector"
REST = "the rest"
#: (owner, attribute, part): what is timed.
TIMED: tuple[tuple[Any, str, str], ...] = (
    (panels, "draw_panel", "panel drawn"),
    (LivePanels, "on_table_event", "live panels"),
    (TablePublisher, "on_table_event", "table message"),
    (Recorder, "record", "Discord payloads"),
    (timers, "decide", "AI choice"),
)


@dataclass
class Parts:
    """The thread CPU seconds and calls of each part while ``on``."""

    on: bool = False
    seconds: collections.Counter[str] = field(default_factory=collections.Counter)
    calls: collections.Counter[str] = field(default_factory=collections.Counter)
    #: Collections' seconds so far (a part's time leaves out those inside it).
    collected: float = 0.0
    depth: int = 0
    window: float = 0.0
    actions: int = 0
    _gc_started: float = 0.0

    def begin(self) -> tuple[float, float] | None:
        """A timed call starts: what ``end`` needs (None: not timed, inside another or outside
        the window)."""
        if not self.on or self.depth:
            return None
        self.depth += 1
        return self.collected, time.thread_time()

    def end(self, part: str, began: tuple[float, float] | None) -> None:
        if began is None:
            return
        collected, start = began
        self.depth -= 1
        self.seconds[part] += time.thread_time() - start - (self.collected - collected)
        self.calls[part] += 1

    def on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_started = time.thread_time()
            return
        spent = time.thread_time() - self._gc_started
        self.collected += spent
        if self.on:
            self.seconds[GC] += spent
            self.calls[GC] += 1

    def lines(self, clock_cost: float) -> list[str]:
        """The table printed: per part, calls and µs per action, share of the thread."""
        actions = max(self.actions, 1)
        rest = self.window - sum(self.seconds.values())
        rows = [*self.seconds.most_common(), (REST, rest)]
        out = [
            f"the event loop's thread: {self.window / actions * 1e6:,.0f} µs per action over"
            f" {self.actions:,} actions (the timers' own clock reads: ~{clock_cost * 1e6:.1f} µs"
            " per timed call, in the figures)"
        ]
        for part, seconds in rows:
            calls = self.calls.get(part, 0)
            share = seconds / self.window if self.window else 0.0
            out.append(
                f"  {part:18s} {seconds / actions * 1e6:7.1f} µs per action {share:6.1%}"
                + (f"   {calls / actions:5.2f} calls per action" if part != REST else "")
            )
        return out


def timed_by(
    function: Callable[..., Any], begin: Callable[[], Any], end: Callable[[Any], None]
) -> Callable[..., Any]:
    """``function`` with ``end(begin())`` around each call (``bench/loop_rest.py``'s too)."""
    # (The coroutines timed do not wait inside: their whole run is one step of the loop.)
    if inspect.iscoroutinefunction(function):

        async def timed_coroutine(*args: Any, **kwargs: Any) -> Any:
            began = begin()
            try:
                return await function(*args, **kwargs)
            finally:
                end(began)

        return timed_coroutine

    def timed(*args: Any, **kwargs: Any) -> Any:
        began = begin()
        try:
            return function(*args, **kwargs)
        finally:
            end(began)

    return timed


def _wrapped(function: Callable[..., Any], part: str, parts: Parts) -> Callable[..., Any]:
    return timed_by(function, parts.begin, functools.partial(parts.end, part))


#: A ``gc.callbacks`` entry: (phase, info).
GcCallback = Callable[[str, dict[str, Any]], None]


class Window(Protocol):
    """What ``follow_window`` keeps: on inside the measured window, its thread seconds and
    actions summed."""

    on: bool
    window: float
    actions: int


def follow_window(split: Window, on_gc: GcCallback | None = None) -> Callable[[], None]:
    """Turn ``split.on`` as ``load.Stats.recording`` opens and closes the window, summing its
    thread seconds and actions, with ``on_gc`` (if any) among the collector's callbacks;
    returns what undoes it (``bench/loop_rest.py`` and ``bench/db_threads.py`` use it too)."""
    started = 0.0

    def set_recording(stats: load.Stats, on: bool) -> None:
        nonlocal started
        stats.__dict__["recording"] = on
        if on and not split.on:
            split.on, started = True, time.thread_time()
        elif not on and split.on:
            split.on = False
            split.window += time.thread_time() - started
            split.actions += sum(stats.actions.values())

    load.Stats.recording = property(  # type: ignore[assignment]
        lambda stats: stats.__dict__.get("recording", False), set_recording
    )
    if on_gc is not None:
        gc.callbacks.append(on_gc)

    def undo() -> None:
        load.Stats.recording = False  # (the dataclass's default, as it was)
        if on_gc is not None:
            gc.callbacks.remove(on_gc)

    return undo


def install(parts: Parts) -> Callable[[], None]:
    """Time the parts, and the window as ``load.Stats.recording`` opens and closes it; returns
    what undoes it."""
    saved = [(owner, name, getattr(owner, name)) for owner, name, _part in TIMED]
    for owner, name, part in TIMED:
        setattr(owner, name, _wrapped(getattr(owner, name), part, parts))
    unfollow = follow_window(parts, parts.on_gc)

    def undo() -> None:
        for owner, name, original in saved:
            setattr(owner, name, original)
        unfollow()

    return undo


def clock_cost(calls: int = 20_000) -> float:
    """Seconds of the thread a timed call adds (its two clock reads and the wrapper)."""
    parts = Parts(on=True)
    timed = _wrapped(lambda: None, "calibration", parts)
    start = time.thread_time()
    for _ in range(calls):
        timed()
    wrapped = time.thread_time() - start
    start = time.thread_time()
    for _ in range(calls):
        (lambda: None)()
    return max(wrapped - (time.thread_time() - start), 0.0) / calls


def main(argv: list[str] | None = None) -> int:
    parts = Parts()
    return load.main_with(argv, install(parts), lambda: parts.lines(clock_cost()))


if __name__ == "__main__":
    sys.exit(main())
