"""Random lobby sessions (joins, leaves, AIs, kicks, options, spectators by random users): the
invariants hold after every step, refused steps change nothing, and what a restart loads is
exactly what was in memory."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.service import TableError, TableService, TableStatus
from tests.bot.conftest import FakeClock

CH = 42
USERS = [1, 2, 3, 4, 5, 6]
steps = st.lists(
    st.tuples(
        st.sampled_from(["join", "leave", "add_ai", "kick", "options", "spectate", "start"]),
        st.sampled_from(USERS),
        st.integers(min_value=0, max_value=4),
    ),
    max_size=14,
)


def check_invariants(service: TableService) -> None:
    table = service.get_table(CH)
    if table is None:
        return
    users = [s.user_id for s in table.seats if s.user_id is not None]
    assert len(users) == len(set(users)), "one seat per user"
    assert len({s.index for s in table.seats}) == len(table.seats)
    assert all(0 <= s.index < table.max_players for s in table.seats)
    assert table.host_id in users, "the host is seated"
    assert not set(table.spectators) & set(users), "a seated user is no spectator"


async def session(db: Path, plan: list[tuple[str, int, int]]) -> None:
    clock = FakeClock()
    service = TableService(db, clock=clock, sleep=clock.sleep)
    await service.start()
    await service.open_table(CH, None, 1, "U1", "troika", options={"timer": "off"})
    for op, user, n in plan:
        table = service.get_table(CH)
        if table is None or table.status is not TableStatus.LOBBY:
            break
        before = table
        try:
            if op == "join":
                await service.join(CH, user, f"U{user}", seat=n if n < 4 else None)
            elif op == "leave":
                await service.leave(CH, user)
            elif op == "add_ai":
                await service.add_ai(CH, user, "easy")
            elif op == "kick":
                await service.kick(CH, user, n)
            elif op == "options":
                await service.set_options(CH, user, {"min_bid": 5 + n})
            elif op == "spectate":
                await service.spectate(CH, user)
            else:
                await service.start_game(CH, user)
        except TableError:
            assert service.get_table(CH) == before, f"a refused {op} changed the table"
        check_invariants(service)
    memory = service.tables()
    await service.close()
    again = TableService(db, clock=clock, sleep=clock.sleep)
    await again.start()
    try:
        assert again.tables() == memory
    finally:
        await again.close()


@settings(max_examples=30, deadline=None)
@given(plan=steps)
def test_random_lobby_sessions_keep_the_invariants_and_survive_a_restart(plan) -> None:
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(session(Path(folder) / "lobby.db", plan))
