"""CPU seconds used by a process and the processes it started, read from ``/proc`` (Linux;
0.0 elsewhere): the benches' measure of what the bot (or the database server) costs."""

from __future__ import annotations

import os
from collections.abc import Collection
from pathlib import Path


def tree_cpu(pid: int, skip: int | Collection[int] | None = None) -> float:
    """CPU seconds (user and system) used so far by ``pid`` and every live process below it
    (a worker pool forked from a fork server is a grandchild), and by the children it already
    reaped; the subtrees of ``skip`` are left out (a database server the bench started, the
    web page clients of ``bench/load.py --web``).

    A child reaped while its siblings are read (an autovacuum worker ending) would be counted
    nowhere, or twice: the reading is taken again until the reaped children's time stood still
    across it."""
    for _attempt in range(10):
        before = _ticks(pid, children_reaped=True)
        skipped = {skip} if isinstance(skip, int) else set(skip or ())
        live = sum(_ticks(child, children_reaped=False) for child in _below(pid, skipped))
        if _ticks(pid, children_reaped=True) == before:
            break
    return (before + live) / os.sysconf("SC_CLK_TCK")


def server_cpu(pid: int) -> float:
    """The database server's CPU seconds: its own and its processes' (one per connection)."""
    return tree_cpu(pid)


def _below(pid: int, skip: Collection[int]) -> list[int]:
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            parent = _parent(entry)
            if parent is not None:
                parents.setdefault(parent, []).append(int(entry.name))
    found: list[int] = []
    todo = [c for c in parents.get(pid, []) if c not in skip]
    while todo:
        child = todo.pop()
        found.append(child)
        todo.extend(c for c in parents.get(child, []) if c not in skip)
    return found


def _fields(pid: int | Path) -> list[str]:
    """The fields of ``/proc/PID/stat`` after the command's name (which may hold spaces)."""
    path = pid / "stat" if isinstance(pid, Path) else Path(f"/proc/{pid}/stat")
    try:
        text = path.read_text()
    except OSError:  # (gone meanwhile)
        return []
    return text.rpartition(")")[2].split()


def _parent(entry: Path) -> int | None:
    fields = _fields(entry)
    return int(fields[1]) if fields else None


def _ticks(pid: int, *, children_reaped: bool) -> int:
    fields = _fields(pid)
    if not fields:
        return 0
    # Fields 14-17 of stat (utime, stime, cutime, cstime) are 11-14 here (the first two gone).
    used = int(fields[11]) + int(fields[12])
    return used + (int(fields[13]) + int(fields[14]) if children_reaped else 0)
