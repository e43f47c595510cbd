"""Who holds the young objects a generation-1 collection scans, during ``bench/load.py``.

    python bench/gc_census.py [--collections 3] [--generation 1] [--after 0] [--top 30]
                              -- [bench/load.py's options]

A generation-1 pause costs about 0.65 us per young (generation 0 and 1) tracked object, and at
1,000 tables nearly all of them are alive: this counts them by owner at the start of the first
``--collections`` collections of ``--generation`` (1 by default; 2: the full ones) that start
``--after`` seconds or more after the process (the tables' opening is not the steady state),
then lets the collection run and times it (the census's own time left out). It prints, above
``bench/load.py``'s own lines:

- the young objects, the pause, what the collection freed (cyclic garbage);
- the young objects by side: ``bench`` (the load generator: ``bench.fake_discord``, the
  simulated players, the stall monitor; in production these are on Discord's side), ``bot``
  (``bot``, ``cogs``, ``engine``, and asyncio objects working for them), ``other`` (libraries,
  the event loop's own);
- the owners: each young object of a class of its own (not a dict, list, tuple, set) claims the
  plain containers it reaches through young plain containers; asyncio's (a task, a coroutine, a
  timer handle, a future) also claim the asyncio objects they reach (coroutines, futures, their
  iterators, contexts and the contexts' hamt nodes, bound methods, cells), named by the
  coroutine or callback they run. Objects of the bot's modules claim first, then the bench's,
  tasks, handles, the rest;
- the young objects by type.

Run it through the bench's lock as ``bench/load.py`` itself (see README.md): the census takes a
second or two of the loop's thread per collection, so the ack figures of that run are not the
bench's.
"""

from __future__ import annotations

import argparse
import collections
import gc
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

#: Containers claimed by the object that reaches them (never owners themselves).
PLAIN = (dict, list, tuple, set, frozenset)
#: asyncio's own objects (and what they hold), claimed by the task, handle or coroutine that
#: reaches them; matched by the type's name (C types of ``_asyncio`` and ``_contextvars``).
ASYNCIO_PARTS = frozenset(
    {
        "coroutine",
        "async_generator",
        "Future",
        "FutureIter",
        "Task",
        "TaskStepMethWrapper",
        "Context",
        "hamt",
        "hamt_bitmap_node",
        "hamt_array_node",
        "hamt_collision_node",
        "method",
        "builtin_function_or_method",
        "cell",
        "Handle",
        "TimerHandle",
        "_GatheringFuture",
    }
)
APP = ("bot.", "cogs.", "engine.")


def type_name(obj: object) -> str:
    kind = type(obj)
    return f"{kind.__module__}.{kind.__qualname__}"


def side_of_file(filename: str) -> str:
    """``bench``, ``bot`` or ``other``: where a piece of code lives."""
    try:
        part = Path(filename).resolve().relative_to(ROOT).parts[0]
    except (ValueError, IndexError):
        return "other"
    if part == "bench":
        return "bench"
    return "bot" if part in ("bot", "cogs", "engine") else "other"


def code_of(obj: object) -> Any:
    """The code an asyncio object runs (a coroutine's, a task's, a handle's callback's)."""
    if type(obj).__name__ in ("Task", "_GatheringFuture") and hasattr(obj, "get_coro"):
        obj = obj.get_coro()
    if hasattr(obj, "_callback"):  # a Handle, a TimerHandle
        obj = obj._callback
    obj = getattr(obj, "__func__", obj)  # a bound method
    for attribute in ("cr_code", "ag_code", "__code__"):
        code = getattr(obj, attribute, None)
        if code is not None:
            return code
    return None


def owner_of(obj: object) -> tuple[str, str]:
    """(side, name) of an owning object."""
    name = type_name(obj)
    module = type(obj).__module__ or ""
    if module.startswith(APP):
        return "bot", name
    if module.startswith("bench.") or module == "__main__":
        return "bench", name
    if type(obj).__name__ in ASYNCIO_PARTS:
        code = code_of(obj)
        if code is not None:
            qualname = getattr(code, "co_qualname", code.co_name)
            return side_of_file(code.co_filename), f"{type(obj).__name__} <- {qualname}"
    return "other", name


def _priority(obj: object) -> int:
    module = type(obj).__module__ or ""
    if module.startswith(APP):
        return 0
    if module.startswith("bench."):
        return 1
    name = type(obj).__name__
    return {"Task": 2, "TimerHandle": 3, "Handle": 3, "coroutine": 4}.get(name, 5)


def census(objects: list[object]) -> tuple[collections.Counter[tuple[str, str]], int]:
    """Young objects by owner (side, name), and how many no owner claimed."""
    young = {id(o) for o in objects}
    claimed: set[int] = set()
    owners: collections.Counter[tuple[str, str]] = collections.Counter()
    roots = sorted((o for o in objects if type(o) not in PLAIN), key=_priority)
    for root in roots:
        if id(root) in claimed:
            continue
        claimed.add(id(root))
        takes_asyncio = type(root).__name__ in ASYNCIO_PARTS
        count = 1
        stack = [root]
        while stack:
            for child in gc.get_referents(stack.pop()):
                if id(child) not in young or id(child) in claimed:
                    continue
                if type(child) in PLAIN or (
                    takes_asyncio and type(child).__name__ in ASYNCIO_PARTS
                ):
                    claimed.add(id(child))
                    count += 1
                    stack.append(child)
        owners[owner_of(root)] += count
    return owners, len(objects) - len(claimed)


class Census:
    """The ``gc.callbacks`` hook: a census at the start of the first ``limit`` collections of
    ``generation``, the collection then timed."""

    def __init__(self, generation: int, limit: int, top: int, after: float = 0.0) -> None:
        self.generation, self.limit, self.top, self.after = generation, limit, top, after
        self.done = 0
        self.began = time.monotonic()
        self._start = 0.0
        self._lines: list[str] = []

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if info["generation"] != self.generation or self.done >= self.limit:
            return
        if phase == "start":
            if time.monotonic() - self.began >= self.after:
                self._start_census()
        elif self._start:
            pause = time.monotonic() - self._start
            self._start = 0.0
            self.done += 1
            self._lines[0] += f"; pause {pause * 1e3:.0f} ms, freed {info['collected']:,}"
            print("\n".join(self._lines), file=sys.stderr, flush=True)

    def _start_census(self) -> None:
        objects = [o for g in range(self.generation + 1) for o in gc.get_objects(g)]
        owners, unclaimed = census(objects)
        sides: collections.Counter[str] = collections.Counter()
        for (side, _), count in owners.items():
            sides[side] += count
        types = collections.Counter(type_name(o) for o in objects)
        at = time.monotonic() - self.began
        lines = [
            f"== gen{self.generation} collection #{self.done + 1} at {at:.1f} s:"
            f" {len(objects):,} young objects"
        ]
        lines.append(
            "by side: "
            + ", ".join(f"{side} {n:,}" for side, n in sides.most_common())
            + f", unclaimed plain containers {unclaimed:,}"
        )
        lines.append("owners (objects claimed):")
        lines += [f"{n:9,d}  {side:<5} {name}" for (side, name), n in owners.most_common(self.top)]
        lines.append("types:")
        lines += [f"{n:9,d}  {name}" for name, n in types.most_common(self.top)]
        self._lines = lines
        del objects
        self._start = time.monotonic()  # the census is not the collection's pause


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--collections", type=int, default=3, help="how many to count")
    parser.add_argument("--generation", type=int, choices=(1, 2), default=1)
    parser.add_argument("--top", type=int, default=30, help="owners and types printed")
    parser.add_argument(
        "--after", type=float, default=0.0, help="count only collections this many seconds in"
    )
    parser.add_argument("load", nargs=argparse.REMAINDER, help="-- then bench/load.py's options")
    args = parser.parse_args(argv)
    load_args = args.load[1:] if args.load[:1] == ["--"] else args.load
    from bench.load import main as load_main

    gc.callbacks.append(Census(args.generation, args.collections, args.top, args.after))
    return load_main(load_args or ["--tables", "1000", "--seconds", "30"])


if __name__ == "__main__":
    sys.exit(main())
