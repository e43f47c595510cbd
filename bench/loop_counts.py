"""What the event loop runs per action during ``bench/load.py``: counts, not times.

    python bench/loop_counts.py [bench/load.py's options: --tables 1000 --seconds 60 ...]

Runs ``bench/load.py`` as it is (the same options, the same lines printed), counting inside the
measured window only, then prints per action:

- the loop's turns (``_run_once``), and the callbacks it ran (``Handle._run``: timers, a task's
  steps and wake-ups, futures' done-callbacks), by what they call;
- the tasks created (``loop.create_task``), by their coroutine;
- the futures created (``loop.create_future``) and the calls from other threads
  (``call_soon_threadsafe``: each wakes the loop through its self-pipe);
- the look-ups of the running loop from Python (``asyncio.get_running_loop``, asyncio's own
  ``events.get_running_loop`` and ``_get_running_loop``, ``current_task()`` without its loop),
  by their caller: on CPython 3.11 each is a ``getpid`` system call (those made inside
  asyncio's C code, a ``Future()`` made without its loop, are not seen).

Counts do not move with the machine's load, as times do: on a shared machine they tell a change
that saves a callback or a task per action where an A/B of CPU times is lost in the noise. The
counting itself slows the loop (a Python wrapper per callback): this run's times are not the
bench's.
"""

from __future__ import annotations

import asyncio
import collections
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import load  # noqa: E402

Loop = asyncio.base_events.BaseEventLoop


def _name(function: Any) -> str:
    """A callback's or coroutine's name: its qualified name (a task's step: ``Task.__step``)."""
    inner = getattr(function, "func", function)  # (a partial)
    return str(getattr(inner, "__qualname__", None) or type(inner).__name__)


class Counts:
    """What ran while ``on``."""

    def __init__(self) -> None:
        self.on = False
        self.turns = 0
        self.actions = 0
        self.callbacks: collections.Counter[str] = collections.Counter()
        self.tasks: collections.Counter[str] = collections.Counter()
        self.futures = 0
        self.threadsafe = 0
        self.lookups: collections.Counter[str] = collections.Counter()

    def lines(self, top: int = 25) -> list[str]:
        actions = max(self.actions, 1)
        out = [
            f"the event loop per action, over {self.actions:,} actions: {self.turns / actions:.2f}"
            f" turns, {sum(self.callbacks.values()) / actions:.2f} callbacks,"
            f" {sum(self.tasks.values()) / actions:.2f} tasks created,"
            f" {self.futures / actions:.2f} futures created,"
            f" {self.threadsafe / actions:.2f} calls from other threads"
        ]
        out.append("  callbacks run, by what they call:")
        out += [f"    {n / actions:7.3f}  {what}" for what, n in self.callbacks.most_common(top)]
        out.append("  tasks created, by their coroutine:")
        out += [f"    {n / actions:7.3f}  {what}" for what, n in self.tasks.most_common(top)]
        lookups = sum(self.lookups.values()) / actions
        out.append(f"  the running loop looked up (a getpid each): {lookups:.2f}, by the caller:")
        out += [f"    {n / actions:7.3f}  {what}" for what, n in self.lookups.most_common(top)]
        return out


def install(counts: Counts) -> Callable[[], None]:
    """Count while ``load.Stats.recording`` is on; returns what undoes it."""
    handle_run = asyncio.events.Handle._run
    run_once = Loop._run_once
    create_task = Loop.create_task
    create_future = Loop.create_future
    threadsafe = Loop.call_soon_threadsafe

    def counted_run(handle: asyncio.Handle) -> None:
        if counts.on:
            counts.callbacks[_name(handle._callback)] += 1  # type: ignore[attr-defined]
        handle_run(handle)

    def counted_turn(loop: Loop) -> None:
        counts.turns += counts.on
        run_once(loop)  # type: ignore[attr-defined]

    def counted_task(loop: Loop, coro: Any, **kwargs: Any) -> asyncio.Task[Any]:
        if counts.on:
            counts.tasks[_name(coro)] += 1
        return create_task(loop, coro, **kwargs)

    def counted_future(loop: Loop) -> asyncio.Future[Any]:
        counts.futures += counts.on
        return create_future(loop)

    def counted_threadsafe(loop: Loop, callback: Any, *args: Any, **kwargs: Any) -> Any:
        counts.threadsafe += counts.on  # (an int's += is atomic enough for a count)
        return threadsafe(loop, callback, *args, **kwargs)

    # The look-ups, where Python code finds them: asyncio's module and its ``events``' (the
    # same functions: a call goes through one), ``current_task`` counted without its loop (by
    # its caller: on 3.11 it is Python, and its own look-up inside is not counted again).
    lookups = [
        (asyncio, "get_running_loop"),
        (asyncio.events, "get_running_loop"),
        (asyncio.events, "_get_running_loop"),
        (asyncio, "current_task"),
        (asyncio.tasks, "current_task"),
    ]
    originals = [getattr(owner, name) for owner, name in lookups]
    inside = getattr(asyncio.current_task, "__code__", None)

    def counted_lookup(function: Callable[..., Any]) -> Callable[..., Any]:
        def lookup(*args: Any) -> Any:
            if counts.on and not any(a is not None for a in args):
                caller = sys._getframe(1).f_code
                if caller is not inside:
                    counts.lookups[caller.co_qualname] += 1
            return function(*args)

        return lookup

    for (owner, name), original in zip(lookups, originals, strict=True):
        setattr(owner, name, counted_lookup(original))
    asyncio.events.Handle._run = counted_run  # type: ignore[method-assign]
    Loop._run_once = counted_turn  # type: ignore[attr-defined]
    Loop.create_task = counted_task  # type: ignore[method-assign,assignment]
    Loop.create_future = counted_future  # type: ignore[method-assign]
    Loop.call_soon_threadsafe = counted_threadsafe  # type: ignore[method-assign]

    def set_recording(stats: load.Stats, on: bool) -> None:
        stats.__dict__["recording"] = on
        if counts.on and not on:
            counts.actions += sum(stats.actions.values())
        counts.on = on

    load.Stats.recording = property(  # type: ignore[assignment]
        lambda stats: stats.__dict__.get("recording", False), set_recording
    )

    def undo() -> None:
        for (owner, name), original in zip(lookups, originals, strict=True):
            setattr(owner, name, original)
        asyncio.events.Handle._run = handle_run  # type: ignore[method-assign]
        Loop._run_once = run_once  # type: ignore[attr-defined]
        Loop.create_task = create_task  # type: ignore[method-assign]
        Loop.create_future = create_future  # type: ignore[method-assign]
        Loop.call_soon_threadsafe = threadsafe  # type: ignore[method-assign]
        load.Stats.recording = False  # (the dataclass's default, as it was)

    return undo


def main(argv: list[str] | None = None) -> int:
    counts = Counts()
    return load.main_with(argv, install(counts), counts.lines)


if __name__ == "__main__":
    sys.exit(main())
