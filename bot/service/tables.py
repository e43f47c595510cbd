"""The service's live, mutable record of one table (private to the service).

Only the service touches it, and only while holding the channel's lock. Clients get the frozen
``Table`` snapshot from ``public()``.
"""

from __future__ import annotations

import asyncio
import copy
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import engine
from bot.service.models import Seat, Table, TableStatus
from bot.service.timers import WINDOW_KEY
from bot.storage.repository import SeatRow
from engine import Game, GameSpec


def team_of(game: str, seat: int) -> int | None:
    """The seat's team in games with fixed partnerships (the game declares them), else None."""
    spec = engine.GAMES.get(game)
    return None if spec is None else spec.team_of(seat)


@dataclass
class LiveTable:
    id: int
    channel_id: int
    guild_id: int | None
    spec: GameSpec
    preset: str | None
    overrides: dict[str, Any]
    options: dict[str, Any]
    host_id: int
    status: TableStatus
    seed: int | None
    created_at: float
    seats: dict[int, Seat] = field(default_factory=dict)
    spectators: list[int] = field(default_factory=list)
    abandon_votes: list[int] = field(default_factory=list)
    started_at: float | None = None
    ended_at: float | None = None
    game: Game | None = None
    #: ``game.to_json()`` as last committed: restores the game when a commit fails.
    snapshot: str | None = None
    move_number: int = 0
    hands: int = 0
    deadlines: dict[int, float] = field(default_factory=dict)
    #: When the open May I window closes by itself (TroiKuntza), else None.
    window_deadline: float | None = None
    result: dict[str, Any] | None = None
    #: When each human who left during play left (kept for the records).
    left_at: dict[int, float] = field(default_factory=dict)
    #: The background task making AI / timeout moves for this table (see TableService._drive).
    driver: asyncio.Task[None] | None = None
    #: True while the driver has a move to make now (an AI seat to move, a deadline passed).
    driver_busy: bool = False
    _public: tuple[tuple[Any, ...], Table] | None = field(default=None, repr=False)

    @property
    def game_name(self) -> str:
        return self.spec.name

    def seat_of(self, user_id: int) -> Seat | None:
        for seat in self.seats.values():
            if seat.user_id == user_id:
                return seat
        return None

    def humans(self) -> list[Seat]:
        return [s for s in self.seats.values() if s.is_human]

    def to_act(self) -> list[int]:
        if self.game is None or self.status is not TableStatus.PLAYING:
            return []
        return list(self.game.to_act())

    def seat_rows(self) -> list[SeatRow]:
        return [
            SeatRow(
                seat=s.index,
                name=s.name,
                user_id=s.user_id,
                ai_level=s.ai_level,
                team=s.team,
                left_at=self.left_at.get(s.index),
            )
            for s in sorted(self.seats.values(), key=lambda s: s.index)
        ]

    def checkpoint(self) -> dict[str, Any]:
        """The lobby-level fields, to put back if a commit fails."""
        return {
            "preset": self.preset,
            "overrides": dict(self.overrides),
            "options": dict(self.options),
            "host_id": self.host_id,
            "status": self.status,
            "seats": dict(self.seats),
            "spectators": list(self.spectators),
            "abandon_votes": list(self.abandon_votes),
            "left_at": dict(self.left_at),
            "ended_at": self.ended_at,
            "deadlines": dict(self.deadlines),
            "window_deadline": self.window_deadline,
        }

    def stored_deadlines(self) -> dict[int, float]:
        """Seat deadlines plus the window's under ``WINDOW_KEY``, as the database keeps them."""
        out = dict(self.deadlines)
        if self.window_deadline is not None:
            out[WINDOW_KEY] = self.window_deadline
        return out

    def restore(self, saved: dict[str, Any]) -> None:
        for key, value in saved.items():
            setattr(self, key, copy.copy(value))

    def public(self) -> Table:
        """The frozen snapshot; rebuilt only when something it shows changed (it is asked for
        several times per move)."""
        key = (
            self.move_number,
            self.status,
            self.host_id,
            self.preset,
            id(self.options),
            tuple(self.seats.values()),
            tuple(self.spectators),
            tuple(self.abandon_votes),
            tuple(self.deadlines.items()),
            self.window_deadline,
            self.started_at,
            self.ended_at,
            id(self.result),
            id(self.game),
        )
        if self._public is not None and self._public[0] == key:
            return self._public[1]
        table = self._build_public()
        self._public = (key, table)
        return table

    def _build_public(self) -> Table:
        return Table(
            id=self.id,
            channel_id=self.channel_id,
            guild_id=self.guild_id,
            game=self.spec.name,
            title=self.spec.title,
            preset=self.preset,
            options=MappingProxyType(dict(self.options)),
            overrides=MappingProxyType(dict(self.overrides)),
            host_id=self.host_id,
            status=self.status,
            seats=tuple(sorted(self.seats.values(), key=lambda s: s.index)),
            spectators=tuple(self.spectators),
            min_players=self.spec.min_players,
            max_players=self.spec.max_players,
            created_at=self.created_at,
            started_at=self.started_at,
            ended_at=self.ended_at,
            move_number=self.move_number,
            to_act=tuple(self.to_act()),
            deadlines=MappingProxyType(dict(self.deadlines)),
            abandon_votes=tuple(self.abandon_votes),
            result=None if self.result is None else MappingProxyType(self.result),
            window_deadline=self.window_deadline,
        )
