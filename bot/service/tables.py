"""The table record (what is stored of a table) and the service's live table built on it.

``TableRecord`` is the one definition of a table's stored fields: one field per column of the
``tables`` table, plus its seats. It encodes itself into the columns the repository writes and
decodes (checking every value) what the repository read, so that a malformed row is reported
with its reason instead of failing somewhere later. ``LiveTable`` adds what only lives in
memory (the game, its views). Only the service touches them, holding the channel's lock;
clients get the frozen ``Table`` from ``public()``.
"""

from __future__ import annotations

import copy
import json
import operator
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any

import engine
from bot.service.models import Seat, Table, TableStatus, TableSummary
from bot.service.snapshot import TableSnapshot
from bot.storage.repository import StoredTable, deadlines_json, dumps
from engine import Game, GameSpec

#: Before the window got its own column, its deadline was kept in ``deadlines`` under this seat.
OLD_WINDOW_KEY = -1


def team_of(game: str, seat: int) -> int | None:
    """The seat's team in games with fixed partnerships (the game declares them), else None."""
    spec = engine.GAMES.get(game)
    return None if spec is None else spec.team_of(seat)


class BadRecord(ValueError):
    """A stored table that cannot be used; ``str()`` says which column and why."""


def _column(name: str) -> dict[str, str]:
    return {"column": name}


@dataclass
class TableRecord:
    """A table as stored. Each field is a column of ``tables`` (the field's ``column``
    metadata names it when it differs); ``seats`` are the ``seats`` rows."""

    id: int
    channel_id: int
    guild_id: int | None
    game_name: str = field(metadata=_column("game"))
    host_id: int
    status: TableStatus
    created_at: float
    preset: str | None = None
    #: Options the host set, and the resolved ones (defaults, then preset, then overrides).
    overrides: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    started_at: float | None = None
    ended_at: float | None = None
    spectators: list[int] = field(default_factory=list)
    abandon_votes: list[int] = field(default_factory=list)
    #: ``game.to_json()`` as last stored: written every few moves (``SNAPSHOT_EVERY``) and at a
    #: hand's end, not at every move; the game is this snapshot plus the actions logged after
    #: it (``LiveTable.committed_game``).
    snapshot: str | None = None
    snapshot_version: int | None = None
    #: The game as dealt (the action log replays from it).
    initial_snapshot: str | None = None
    move_number: int = 0
    #: The move ``snapshot`` stands at (``move_number`` or fewer).
    snapshot_move: int = 0
    hands: int = 0
    #: Each awaited human seat's deadline (epoch seconds).
    deadlines: dict[int, float] = field(default_factory=dict)
    #: When the open timed window (``Game.timed_window``) closes by itself, else None.
    window_deadline: float | None = None
    #: The service's settings of the table (``table_settings``: away_after, seats...).
    settings: dict[str, Any] = field(default_factory=dict)
    #: Why the table is ``broken`` (None otherwise).
    broken_reason: str | None = None
    #: Writes of the whole record so far: ``repository.update_table`` stores it only over the
    #: version it was loaded at (and counts one more), so a second process's write is refused.
    version: int = 0
    seats: dict[int, Seat] = field(default_factory=dict)

    # -- to the database ----------------------------------------------------------------------
    def columns(self) -> dict[str, Any]:
        """Every column's stored value, copied now (the write runs later, on another thread)."""
        out: dict[str, Any] = {}
        for f in fields(TableRecord):
            if f.name == "seats":
                continue
            value = getattr(self, f.name)
            encode = _ENCODE.get(f.name)
            out[f.metadata.get("column", f.name)] = value if encode is None else encode(value)
        return out

    def seat_rows(self) -> list[Seat]:
        return seat_rows(self.seats)

    # -- from the database --------------------------------------------------------------------
    @classmethod
    def decode(cls, stored: StoredTable) -> dict[str, Any]:
        """The record's fields from a stored row; raises ``BadRecord`` naming the column."""
        values: dict[str, Any] = {}
        for f in fields(TableRecord):
            if f.name == "seats":
                continue
            column = f.metadata.get("column", f.name)
            raw = stored.columns.get(column)
            parse = _DECODE.get(f.name)
            try:
                values[f.name] = raw if parse is None else parse(raw)
            except (ValueError, TypeError, KeyError) as exc:
                raise BadRecord(f"column {column}: {_short(exc)}") from None
        if values["game_name"] not in engine.GAMES:
            raise BadRecord(f"column game: unknown game {values['game_name']!r}")
        # Rows written before the window had its own column (a migration moves them).
        old_window = values["deadlines"].pop(OLD_WINDOW_KEY, None)
        if values["window_deadline"] is None:
            values["window_deadline"] = old_window
        values["seats"] = {seat.index: seat for seat in stored.seats}
        return values

    # -- checkpoints ------------------------------------------------------------------------
    def checkpoint(self) -> dict[str, Any]:
        """Every stored field, copied: put back with ``restore`` when a commit fails."""
        return {f.name: copy.copy(getattr(self, f.name)) for f in fields(TableRecord)}

    def restore(self, saved: Mapping[str, Any]) -> None:
        for key, value in saved.items():
            setattr(self, key, copy.copy(value))


#: A seat's sort key (C's attribute getter: each new state of a table sorts its seats).
_INDEX = operator.attrgetter("index")


def seat_rows(seats: Mapping[int, Seat]) -> list[Seat]:
    """The ``seats`` rows of ``seats`` (seat number -> seat), in seat order: the seats
    themselves (frozen, so the write may read them later)."""
    return sorted(seats.values(), key=_INDEX)


def _short(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text if len(text) <= 120 else text[:119] + "…"


def _json(kind: type, what: str) -> Callable[[Any], Any]:
    def parse(raw: Any) -> Any:
        value = json.loads(raw)
        if not isinstance(value, kind):
            raise ValueError(f"expected {what}, found {type(value).__name__}")
        return value

    return parse


def _ids(raw: Any) -> list[int]:
    value = _json(list, "a list")(raw)
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise ValueError("expected user ids")
    return value


def _deadlines(raw: Any) -> dict[int, float]:
    value = _json(dict, "an object")(raw)
    return {int(seat): float(at) for seat, at in value.items()}


def _optional(parse: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda raw: None if raw is None else parse(raw)


def _text(raw: Any) -> str:
    if not isinstance(raw, str):
        raise ValueError(f"expected text, found {type(raw).__name__}")
    return raw


#: How each field that is not stored as it is goes into its column, and comes back.
_ENCODE: dict[str, Callable[[Any], Any]] = {
    "status": lambda status: status.value,
    "overrides": dumps,
    "options": dumps,
    "settings": dumps,
    "spectators": dumps,
    "abandon_votes": dumps,
    "deadlines": deadlines_json,
}
_DECODE: dict[str, Callable[[Any], Any]] = {
    "id": int,
    "channel_id": int,
    "guild_id": _optional(int),
    "game_name": _text,
    "host_id": int,
    "status": TableStatus,
    "created_at": float,
    "overrides": _json(dict, "an object"),
    "options": _json(dict, "an object"),
    "settings": _json(dict, "an object"),
    "spectators": _ids,
    "abandon_votes": _ids,
    "move_number": int,
    "snapshot_move": int,
    "hands": int,
    "deadlines": _deadlines,
    "window_deadline": _optional(float),
    "started_at": _optional(float),
    "ended_at": _optional(float),
}


@dataclass
class LiveTable(TableRecord):
    """A table in lobby or play, in memory: its record plus the game."""

    game: Game | None = None
    #: ``Game.result()`` once the game is over (stored in ``results``, not in ``tables``).
    result: dict[str, Any] | None = None
    #: The AI seats are answering one timed window (the driver pauses once per window).
    answering_window: bool = False
    #: The service clock at the last change of the lobby (idle lobbies are closed).
    active_at: float = 0.0
    #: (move number, seat, action) of the committed moves since the stored snapshot (those
    #: after ``snapshot_move`` count): with it they rebuild the committed game after a failed
    #: commit. Cheaper than a copy of the game per move (see ``committed_game``).
    since_snapshot: list[tuple[int, int, str]] = field(default_factory=list)
    _public: tuple[tuple[Any, ...], Table] | None = field(default=None, repr=False)
    #: The current state's snapshot (see ``snapshot``).
    _snapshot: TableSnapshot | None = field(default=None, repr=False)

    def committed_game(self) -> Game:
        """The game as committed: the stored snapshot and the moves logged after it replayed
        (engine games are deterministic). Only a failed commit needs it (a load and at most
        ``SNAPSHOT_EVERY`` moves, well under a millisecond); keeping a copy of the game instead
        would cost a copy at every move."""
        assert self.snapshot is not None
        game = engine.load(self.snapshot)
        for move, seat, action in self.since_snapshot:
            if move > self.snapshot_move:
                game.apply(seat, action)
        return game

    def logged(self, move: int, seat: int, action: str, snapshot: str | None) -> None:
        """Move ``move`` is committed (with the snapshot after it, if one was written)."""
        self.move_number = move
        if snapshot is not None:
            self.snapshot, self.snapshot_move = snapshot, move
            self.since_snapshot.clear()
        else:
            self.since_snapshot.append((move, seat, action))

    @property
    def spec(self) -> GameSpec:
        return engine.GAMES[self.game_name]

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

    def public(self) -> Table:
        """The frozen snapshot; rebuilt only when something it shows changed (it is asked for
        several times per move)."""
        key = (
            self.move_number,
            self.status,
            self.host_id,
            self.preset,
            id(self.options),
            id(self.settings),
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

    def current_state(self) -> TableSnapshot:
        """The current state's ``TableSnapshot``: made once per state and shared (every change
        of the table asks for each live panel's view several times, the publisher for the
        public view, the AI for its seat's view and moves; an engine view costs 50-250 us).
        The state is the public ``Table`` (rebuilt when anything it shows changes) and the
        game object; the service calls ``game_changed`` when it moves the game, before the
        ``Table`` shows it."""
        public = self.public()
        snap = self._snapshot
        if snap is None or snap.table is not public or not snap.current:
            if snap is not None:
                snap.retire()
            snap = self._snapshot = TableSnapshot(public, self.game)
        return snap

    def game_changed(self) -> None:
        """The game moved (or was put back): the snapshot's values are out of date even if its
        ``Table`` is not yet."""
        if self._snapshot is not None:
            self._snapshot.retire()
            self._snapshot = None

    def summary(self, reason: str | None = None) -> TableSummary:
        """The table's line in a guild's table list; with ``reason``, as a broken one."""
        return TableSummary(
            table_id=self.id,
            channel_id=self.channel_id,
            guild_id=self.guild_id,
            title=self.spec.title,
            status=self.status if reason is None else TableStatus.BROKEN,
            players=tuple(s.name for s in sorted(self.seats.values(), key=lambda s: s.index)),
            move_number=self.move_number,
            reason=reason,
        )

    def _build_public(self) -> Table:
        spec = self.spec
        try:
            to_act = tuple(self.to_act())
        except Exception:  # a damaged game: the next command finds it and sets it aside
            to_act = ()
        # What did not change since the last ``Table`` is shared with it rather than copied:
        # each copy is one more object the garbage collector scans at every generation-1
        # collection for as long as a state is kept (11,000 proxies at 1,000 tables).
        last = None if self._public is None else self._public[1]
        seats = tuple(self.seat_rows())
        return _table(
            {
                "id": self.id,
                "channel_id": self.channel_id,
                "guild_id": self.guild_id,
                "game": spec.name,
                "title": spec.title,
                "preset": self.preset,
                "options": _frozen_copy(self.options, last, "options"),
                "overrides": _frozen_copy(self.overrides, last, "overrides"),
                "host_id": self.host_id,
                "status": self.status,
                "seats": last.seats
                if last is not None and _same_items(last.seats, seats)
                else seats,
                "spectators": tuple(self.spectators),
                "min_players": spec.min_players,
                "max_players": spec.max_players,
                "created_at": self.created_at,
                "started_at": self.started_at,
                "ended_at": self.ended_at,
                "move_number": self.move_number,
                "to_act": to_act,
                "deadlines": _frozen_copy(self.deadlines, last, "deadlines"),
                "abandon_votes": tuple(self.abandon_votes),
                "result": None if self.result is None else MappingProxyType(self.result),
                "window_deadline": self.window_deadline,
                "settings": _frozen_copy(self.settings, last, "settings"),
            }
        )


#: ``Table``'s fields, in their order.
_TABLE_FIELDS = tuple(f.name for f in fields(Table))


def _table(values: dict[str, Any]) -> Table:
    """``Table(**values)``, every field given (checked), without its generated ``__init__``:
    a frozen dataclass's sets each of its 24 fields through ``object.__setattr__`` (2 us of
    the 2.5 it took, once per state of every table)."""
    assert tuple(values) == _TABLE_FIELDS, "every field of Table, in order"
    table = object.__new__(Table)
    table.__dict__.update(values)
    return table


#: The read-only copy of every empty mapping of a ``Table`` (it cannot change: one is enough).
_EMPTY: Mapping[Any, Any] = MappingProxyType({})


def _frozen_copy(source: Mapping[Any, Any], last: Table | None, name: str) -> Mapping[Any, Any]:
    """A read-only copy of ``source``: the last ``Table``'s copy (its field ``name``) when that
    holds the same items, the same objects in the same order, so that it reads exactly as a new
    copy would."""
    if not source:
        return _EMPTY
    if last is not None:
        kept: Mapping[Any, Any] = getattr(last, name)
        if _same_items(kept, source) and _same_items(kept.values(), source.values()):
            return kept  # (the same keys, the same values, in the same order)
    return MappingProxyType(dict(source))


def _same_items(a: Collection[Any], b: Collection[Any]) -> bool:
    """The same objects in the same order (``is``, not ``==``: ``1 == True``)."""
    return len(a) == len(b) and all(map(operator.is_, a, b))


def probe(game: Game, seats: Sequence[int]) -> None:
    """Use the game the way commands will (who acts, every seat's view, the legal moves, its
    snapshot, and one legal move made on a copy): a damaged state raises here, once, instead
    of at every player's command. About a millisecond."""
    awaited = game.to_act()
    game.view(None)
    for seat in seats:
        game.view(seat)
    legal = {seat: game.legal_actions(seat) for seat in awaited}
    game.is_over()
    snapshot = game.to_json()
    for seat, actions in legal.items():
        if actions:
            engine.load(snapshot).apply(seat, actions[0])  # IllegalAction here: damaged too
            break
