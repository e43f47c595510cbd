"""One process per shard range: a service loads, opens and plays only its shards' servers'
tables, so processes with other shard ranges can share the database."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.service import OtherShard, TableService, TableStatus
from bot.shards import Shards, shard_of
from tests.bot.conftest import TEST_LIMITS, FakeClock
from tests.bot.databases import connect

HOST, BOB = 1, 2
ONE_HAND = {"end": "rounds", "rounds": 1, "timer": "off"}
#: Two servers of each shard of 2 (Discord's rule: (guild_id >> 22) % shard_count).
GUILDS = {0: (10 << 22, 12 << 22), 1: (11 << 22, 13 << 22)}


def _service(db_path: Path, clock: FakeClock, shards: Shards | None = None) -> TableService:
    return TableService(
        db_path, clock=clock, sleep=clock.sleep, ai_delay=0, limits=TEST_LIMITS, shards=shards
    )


def _channel(guild: int) -> int:
    return guild + 7  # any channel id; the guild decides the shard


async def _open_everywhere(db_path: Path, clock: FakeClock) -> None:
    """A lobby and a game in play in each server, written by one process serving every shard."""
    service = _service(db_path, clock)
    await service.start()
    try:
        for lobby, playing in GUILDS.values():
            await service.open_table(_channel(lobby), lobby, HOST, "Ann", "troeven", seed=3)
            await service.open_table(
                _channel(playing), playing, HOST, "Ann", "troeven", options={"timer": "off"}
            )
            await service.join(_channel(playing), BOB, "Bob")
            await service.start_game(_channel(playing), HOST)
    finally:
        await service.close()


def test_the_test_guilds_are_where_discord_sends_them() -> None:
    for shard, guilds in GUILDS.items():
        assert all(shard_of(guild, 2) == shard for guild in guilds)


@pytest.mark.parametrize("shard", [0, 1])
async def test_a_service_loads_only_its_shards_tables(
    db_path: Path, clock: FakeClock, shard: int
) -> None:
    await _open_everywhere(db_path, clock)
    service = _service(db_path, clock, Shards(2, (shard,)))
    await service.start()
    try:
        loaded = {t.guild_id: t.status for t in service.tables()}
        lobby, playing = GUILDS[shard]
        assert loaded == {lobby: TableStatus.LOBBY, playing: TableStatus.PLAYING}
        other = GUILDS[1 - shard][0]
        assert service.get_table(_channel(other)) is None
        assert service.guild_tables(other) == []
    finally:
        await service.close()


async def test_every_table_without_shards(db_path: Path, clock: FakeClock) -> None:
    await _open_everywhere(db_path, clock)
    for shards in (None, Shards(2), Shards(2, (0, 1)), Shards(1)):
        service = _service(db_path, clock, shards)
        await service.start()
        try:
            assert len(service.tables()) == 4
        finally:
            await service.close()


async def test_a_server_of_another_shard_is_refused_and_nothing_is_stored(
    db_path: Path, clock: FakeClock
) -> None:
    service = _service(db_path, clock, Shards(2, (0,)))
    await service.start()
    try:
        other = GUILDS[1][0]
        with pytest.raises(OtherShard, match="kept by another process of the bot"):
            await service.open_table(_channel(other), other, HOST, "Ann", "troeven")
        assert service.tables() == []
        ours = GUILDS[0][0]
        table = await service.open_table(_channel(ours), ours, HOST, "Ann", "troeven")
        assert table.guild_id == ours
    finally:
        await service.close()
    conn = connect(db_path)
    try:
        assert conn.execute("SELECT guild_id FROM tables").fetchall() == [(GUILDS[0][0],)]
    finally:
        conn.close()


async def test_two_shard_ranges_play_side_by_side_on_one_database(
    db_path: Path, clock: FakeClock
) -> None:
    await _open_everywhere(db_path, clock)
    services = [_service(db_path, clock, Shards(2, (shard,))) for shard in (0, 1)]
    for service in services:
        await service.start()
    try:
        for shard, service in enumerate(services):
            channel = _channel(GUILDS[shard][1])
            table = service.get_table(channel)
            assert table is not None
            seat = table.to_act[0]
            user = HOST if seat == 0 else BOB
            result = await service.act(channel, user, service.legal_actions(channel, user)[0])
            assert result.move_number == 1
    finally:
        for service in services:
            await service.close()
    # Each process moved only its own table; a restart serving everything sees both moves.
    every = _service(db_path, clock)
    await every.start()
    try:
        playing = [t for t in every.tables() if t.status is TableStatus.PLAYING]
        assert sorted(t.guild_id for t in playing) == [GUILDS[0][1], GUILDS[1][1]]
        conn = connect(db_path)
        try:
            moves = conn.execute(
                "SELECT guild_id, move_number FROM tables WHERE status = 'playing'"
            ).fetchall()
        finally:
            conn.close()
        assert sorted(moves) == [(GUILDS[0][1], 1), (GUILDS[1][1], 1)]
    finally:
        await every.close()
