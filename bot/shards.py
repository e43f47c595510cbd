"""Which guilds a process serves: Discord's shard of a guild, and the ``SHARD_IDS`` syntax.

Discord sends a guild's events to shard ``(guild_id >> 22) % shard_count``; a process that runs
the shards ``shard_ids`` of ``shard_count`` serves those guilds' tables and no others. Events
without a guild (direct messages) go to shard 0, so a table with no guild belongs to shard 0 too.
No Discord here: the table service and the settings use it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard Discord sends this guild's events to (0 without a guild)."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


def parse_shard_ids(text: str) -> tuple[int, ...]:
    """``0-3``, ``0,2,5`` or both (``0-1,4``): the ids in the order given, ranges expanded.
    Raises ValueError with what is wrong; duplicates and out-of-range ids are the caller's
    check (it knows the count)."""
    ids: list[int] = []
    for part in text.split(","):
        item = part.strip()
        low, dash, high = item.partition("-")
        try:
            if dash:
                first, last = int(low), int(high)
            else:
                first = last = int(item)
        except ValueError:
            raise ValueError(f"{item!r} is not a shard id or a range like 0-3") from None
        if first < 0 or last < first:
            raise ValueError(f"{item!r} is not a range from a lower id to a higher one")
        ids.extend(range(first, last + 1))
    return tuple(ids)


@dataclass(frozen=True)
class Shards:
    """The shards one process runs: ``ids`` of ``count`` (None: all of them)."""

    count: int = 1
    ids: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError(f"the shard count must be 1 or more, not {self.count}")
        if self.ids is not None:
            check_ids(self.ids, self.count)

    @property
    def owned(self) -> tuple[int, ...]:
        """The shard ids this process runs, in order."""
        return tuple(range(self.count)) if self.ids is None else self.ids

    @property
    def everything(self) -> bool:
        """This process runs every shard (it alone serves every guild)."""
        return set(self.owned) == set(range(self.count))

    def owns(self, guild_id: int | None) -> bool:
        """This process serves the guild (its shard is one of ours)."""
        return self.ids is None or shard_of(guild_id, self.count) in self.ids

    def __str__(self) -> str:
        return f"shard(s) {_ranges(self.owned)} of {self.count}"


def check_ids(ids: Iterable[int], count: int) -> None:
    """ValueError naming the first id outside ``0..count-1`` or given twice, or no id at all."""
    seen: set[int] = set()
    for shard in ids:
        if not 0 <= shard < count:
            raise ValueError(f"shard {shard} is not one of the {count} shards (0 to {count - 1})")
        if shard in seen:
            raise ValueError(f"shard {shard} is named twice")
        seen.add(shard)
    if not seen:
        raise ValueError("no shard is named")


def _ranges(ids: Iterable[int]) -> str:
    """``0-3,6``: the ids written the way SHARD_IDS takes them."""
    runs: list[list[int]] = []
    for shard in sorted(ids):
        if runs and shard == runs[-1][-1] + 1:
            runs[-1].append(shard)
        else:
            runs.append([shard])
    return ",".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)
