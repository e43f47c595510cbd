"""What a rematch takes from a finished game (``FinishedGame``): kept by the service for each
channel's last finished game, read back from the database after a restart."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.service.models import Seat
from bot.service.tables import TableRecord


@dataclass(frozen=True)
class FinishedGame:
    """What a rematch takes from a finished game: its game, options, settings and seats."""

    id: int
    guild_id: int | None
    game_name: str
    preset: str | None
    overrides: Mapping[str, Any]
    options: Mapping[str, Any]
    settings: Mapping[str, Any]
    seats: Mapping[int, Seat]

    @classmethod
    def of(cls, record: TableRecord) -> FinishedGame:
        return cls(
            record.id,
            record.guild_id,
            record.game_name,
            record.preset,
            dict(record.overrides),
            dict(record.options),
            dict(record.settings),
            dict(record.seats),
        )

    def players(self) -> list[Seat]:
        """The humans who played it to the end (each confirms a rematch)."""
        return [s for s in self.seats.values() if s.is_human]


def user_id_of(seat: Seat) -> int:
    """The user of a human seat (a rematch's players all have one)."""
    assert seat.user_id is not None
    return seat.user_id
