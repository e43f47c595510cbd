"""Every public command of the service, called with wrong-typed and hostile arguments (an API
caller's, not Discord's): a call that raises leaves each table exactly as it was, in memory
(its public snapshot, its settings, its game's ``to_json()``) and in the database (its row and
its seats' rows). Calls that succeed may change a table; the next refusal is checked from there.
"""

from __future__ import annotations

import asyncio
import inspect
import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.service import TableService
from tests.bot.conftest import TEST_LIMITS, FakeClock

GUILD = 77
PLAYING, LOBBY, EMPTY = 500, 501, 502
HOST, BOB, CAT = 1, 2, 3


class Opaque:
    """An argument no caller should pass: no JSON, no SQL, no arithmetic takes it."""

    def __repr__(self) -> str:
        return "Opaque()"


#: Values a caller might pass by mistake, or on purpose: wrong types, edge numbers, long text.
HOSTILE_SAMPLES: list[Any] = [
    None, True, False, 0, -1, 1, 2, 7, 2**63, -(2**63) - 1, 1.5, float("nan"), float("inf"),
    "", " ", "on", "off", "open", "invite", "closed", "easy", "hard", "troika", "troeven",
    "x" * 100_000, "\x00", "'; DROP TABLE tables; --", b"7", [1], [], {}, {"timer": "off"},
    {"timer": Opaque()}, {"x" * 500: 1}, (HOST,), {HOST}, Opaque(),
]  # fmt: skip
#: Values that no JSON column and no SQL parameter takes: they fail while a row is built.
UNENCODABLE: list[Any] = [b"7", Opaque(), {HOST}, 1 + 2j]
hostile = st.one_of(
    st.sampled_from(UNENCODABLE),
    st.sampled_from(HOSTILE_SAMPLES),
    st.text(max_size=12),
    st.integers(),
    st.floats(),
)
#: A user: one of the table's (so that calls get past "who are you"), or anything.
users = st.one_of(st.just(HOST), st.sampled_from([BOB, CAT]), hostile)
channels = st.sampled_from([PLAYING, LOBBY, EMPTY])

#: Each public command of the service and its arguments after the channel id.
COMMANDS: dict[str, st.SearchStrategy[tuple[tuple[Any, ...], dict[str, Any]]]] = {
    "open_table": st.tuples(
        st.tuples(hostile, users, hostile, hostile, hostile, hostile), st.fixed_dictionaries({})
    ),
    "join": st.tuples(st.tuples(users, hostile, hostile, hostile, hostile), st.just({})),
    "set_settings": st.tuples(
        st.tuples(users),
        st.fixed_dictionaries(
            {}, optional={"seats": hostile, "away_after": hostile, "hints": hostile}
        ),
    ),  # fmt: skip
    "spectate": st.tuples(st.tuples(users), st.just({})),
    "leave": st.tuples(st.tuples(users), st.just({})),
    "add_ai": st.tuples(st.tuples(users, hostile, hostile), st.just({})),
    "kick": st.tuples(st.tuples(users, hostile), st.fixed_dictionaries({"admin": hostile})),
    "set_options": st.tuples(st.tuples(users, hostile, hostile), st.just({})),
    "start_game": st.tuples(st.tuples(users), st.just({})),
    "act": st.tuples(st.tuples(users, hostile), st.just({})),
    "force_end": st.tuples(st.tuples(users, hostile), st.just({})),
    "close_broken": st.tuples(st.tuples(hostile), st.just({})),
    "abandon": st.tuples(st.tuples(users), st.just({})),
    "come_back": st.tuples(st.tuples(users), st.just({})),
    "invite": st.tuples(st.tuples(users, hostile), st.just({})),
    "hint": st.tuples(st.tuples(users), st.just({})),
    "rematch": st.tuples(st.tuples(users, hostile), st.just({})),
    "expire_rematch": st.tuples(st.tuples(hostile), st.just({})),
    "view": st.tuples(st.tuples(users), st.just({})),
    "public_view": st.tuples(st.tuples(), st.just({})),
    "legal_actions": st.tuples(st.tuples(users), st.just({})),
    "deadlines": st.tuples(st.tuples(), st.just({})),
    "get_table": st.tuples(st.tuples(), st.just({})),
    "snapshot": st.tuples(st.tuples(), st.just({})),
}
calls = st.lists(
    st.sampled_from(sorted(COMMANDS)).flatmap(
        lambda name: st.tuples(st.just(name), channels, COMMANDS[name])
    ),
    min_size=1,
    max_size=12,
)


def state(service: TableService, db: Path) -> dict[int, Any]:
    """Each channel's table as the property compares it: memory and database."""
    conn = sqlite3.connect(db)
    try:
        out: dict[int, Any] = {}
        for channel in (PLAYING, LOBBY, EMPTY):
            live = service._tables.get(channel)
            row = conn.execute(
                "SELECT * FROM tables WHERE channel_id = ? ORDER BY id DESC", (channel,)
            ).fetchone()
            seats = ()
            if row is not None:
                seats = tuple(
                    conn.execute("SELECT * FROM seats WHERE table_id = ? ORDER BY seat", (row[0],))
                )
            out[channel] = (
                None if live is None else live.public(),
                None if live is None else repr(live.settings),
                None if live is None or live.game is None else live.game.to_json(),
                row,
                seats,
            )
        return out
    finally:
        conn.close()


async def call(service: TableService, name: str, channel: int, args: Any, kwargs: Any) -> None:
    method: Callable[..., Any] = getattr(service, name)
    result = method(channel, *args, **kwargs)
    if inspect.isawaitable(result):
        await result


async def session(db: Path, plan: list[tuple[str, int, Any]]) -> None:
    clock = FakeClock()
    # (the hard AI of /hint thinks in the test's process: no pool of processes per example)
    service = TableService(
        db, clock=clock, sleep=clock.sleep, limits=TEST_LIMITS, ai_thread_levels=frozenset()
    )
    await service.start()
    try:
        await service.open_table(PLAYING, GUILD, HOST, "Ann", "troeven", options={"timer": "off"})
        await service.add_ai(PLAYING, HOST, "easy")
        await service.start_game(PLAYING, HOST)
        await service.open_table(LOBBY, GUILD, HOST, "Ann", "troika", options={"timer": "off"})
        await service.join(LOBBY, BOB, "Bob")
        for name, channel, (args, kwargs) in plan:
            await service.settle()
            before = state(service, db)
            try:
                await call(service, name, channel, args, kwargs)
            except Exception as error:
                after = state(service, db)
                assert after == before, f"{name}{args, kwargs} raised {error!r} and changed"
            await asyncio.sleep(0)  # (background checks of a read that raised run here)
    finally:
        await service.close()


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(plan=calls)
# The probe's finding, always tried: an invitation of bytes (a caller's wrong-typed id).
@example(plan=[("invite", PLAYING, ((HOST, b"7"), {})), ("abandon", PLAYING, ((HOST,), {}))])
@example(plan=[("invite", LOBBY, ((HOST, Opaque()), {})), ("start_game", LOBBY, ((HOST,), {}))])
def test_a_call_that_raises_changes_no_table(plan: list[tuple[str, int, Any]]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(session(Path(folder) / "troika.db", plan))


#: Public methods that are not commands of a channel's table: the service's life cycle, its
#: listeners, lists of every table, and the scheduler's entry points and arming (they take a
#: live table or a job, not a caller's arguments).
NOT_COMMANDS = {
    "from_settings", "start", "close", "settle", "add_listener", "remove_listener", "tables",
    "guild_tables", "table_counts", "ping", "live_tables", "is_live", "announce", "apply",
    "check_game", "close_table", "locked", "fire", "wake", "arm_idle", "arm_rematch",
    # reads and plumbing of the thread tables and the turn digests, not a move at a table
    # (``set_notify`` stores a player's own choices, checked by ``/notify`` before it comes)
    "check_open", "tables_of", "turns_of", "prefs_of", "set_notify", "note_turns",
    "fire_digest", "load_notify_prefs", "arm_pending_digests",
}  # fmt: skip


def test_the_property_covers_every_public_command() -> None:
    public = {
        name
        for name, member in inspect.getmembers(TableService)
        if not name.startswith("_") and callable(member)
    }
    assert public - NOT_COMMANDS == set(COMMANDS)
