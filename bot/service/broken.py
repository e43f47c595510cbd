"""Tables set aside as broken: their list (what ``/admin tables`` shows) until an admin closes
them.

A table is set aside when its stored row cannot be read or its game raises when used (see
``TableService``): its status becomes ``broken`` with a short reason, its channel is free for a
new table, and it stays listed here (loaded again at each start) until ``close_broken``.
"""

from __future__ import annotations

from typing import Any

import engine
from bot.service.models import TableStatus, TableSummary
from bot.service.tables import LiveTable
from bot.storage.repository import StoredTable

#: The most of a reason kept for a broken table (it is listed in Discord).
REASON_CHARS = 200


def reason_of(exc: BaseException) -> str:
    """A broken table's reason: the error, short."""
    text = f"{type(exc).__name__}: {exc}"
    return text if len(text) <= REASON_CHARS else text[: REASON_CHARS - 1] + "…"


class BrokenTables:
    """The tables set aside, by table id."""

    def __init__(self) -> None:
        self._items: dict[int, TableSummary] = {}

    def add_row(self, row: StoredTable, reason: Any) -> None:
        """A stored row set aside, read defensively (its columns may be what is wrong)."""
        columns = row.columns
        game = columns.get("game")
        spec = engine.GAMES.get(game) if isinstance(game, str) else None
        guild = columns.get("guild_id")
        moves = columns.get("move_number")
        self._items[row.id] = TableSummary(
            table_id=row.id,
            channel_id=int(columns.get("channel_id") or 0),
            guild_id=guild if isinstance(guild, int) else None,
            title=spec.title if spec is not None else str(game)[:40],
            status=TableStatus.BROKEN,
            players=tuple(s.name for s in row.seats),
            move_number=moves if isinstance(moves, int) else 0,
            reason=str(reason or "unknown")[:REASON_CHARS],
        )

    def add_live(self, table: LiveTable, reason: str) -> None:
        self._items[table.id] = table.summary(reason)

    def __len__(self) -> int:
        return len(self._items)

    def of_guild(self, guild_id: int | None) -> list[TableSummary]:
        return [t for _, t in sorted(self._items.items()) if t.guild_id == guild_id]

    def in_channel(self, channel_id: int, guild_id: int | None) -> list[TableSummary]:
        return [
            t for t in self._items.values() if t.channel_id == channel_id and t.guild_id == guild_id
        ]

    def remove(self, table_id: int) -> None:
        self._items.pop(table_id, None)
