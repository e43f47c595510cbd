"""Shard locks on PostgreSQL (bot/storage/shard_locks.py): one process per shard, one shard
count per database, and a lost lock connection noticed; a no-op on SQLite."""

from __future__ import annotations

import asyncio
from pathlib import Path

import psycopg
import pytest

from bot.storage.shard_locks import NAMESPACE, ShardLockError, ShardLocks
from tests.bot.databases import connect


def held_shards(url: str) -> list[int]:
    conn = connect(url)
    try:
        rows = conn.execute(
            "SELECT objid FROM pg_locks WHERE locktype = 'advisory' AND classid = ? AND granted"
            " ORDER BY objid",
            (NAMESPACE,),
        ).fetchall()
    finally:
        conn.close()
    return [int(objid) for (objid,) in rows]


async def test_a_shard_is_served_by_one_process(pg_url: str) -> None:
    first = await ShardLocks(pg_url, 4, [0, 1]).acquire()
    try:
        assert held_shards(pg_url) == [0, 1]
        second = ShardLocks(pg_url, 4, [1, 2])
        with pytest.raises(ShardLockError, match=r"shard 1 of 4 is served by another process"):
            await second.acquire()
        assert not second.held
        assert held_shards(pg_url) == [0, 1]  # the refused one kept nothing (not even shard 2)
        async with ShardLocks(pg_url, 4, [2, 3]) as third:
            assert third.held and held_shards(pg_url) == [0, 1, 2, 3]
    finally:
        await first.release()
    assert held_shards(pg_url) == []
    async with ShardLocks(pg_url, 4, [1, 2]):  # released: free for the next process
        assert held_shards(pg_url) == [1, 2]


async def test_a_process_counting_shards_otherwise_is_refused(pg_url: str) -> None:
    async with ShardLocks(pg_url, 2, [0]):
        pass
    with pytest.raises(ShardLockError, match=r"set up for 2 shard\(s\).*SHARD_COUNT=3"):
        await ShardLocks(pg_url, 3, [2]).acquire()
    conn = connect(pg_url)
    try:
        stored = conn.execute("SELECT value FROM meta WHERE key = 'shard_count'").fetchone()
    finally:
        conn.close()
    assert stored == ("2",)
    assert held_shards(pg_url) == []


async def test_processes_starting_together_split_the_shards_without_overlap(pg_url: str) -> None:
    contenders = [ShardLocks(pg_url, 2, [shard]) for shard in (0, 1, 0, 1, 0, 1)]
    outcomes = await asyncio.gather(*(c.acquire() for c in contenders), return_exceptions=True)
    try:
        winners = [c for c, o in zip(contenders, outcomes, strict=True) if o is c]
        assert sorted(c.shards[0] for c in winners) == [0, 1]
        assert all(isinstance(o, ShardLockError) for o in outcomes if o not in winners)
    finally:
        for c in contenders:
            await c.release()


async def test_losing_the_lock_connection_is_noticed(pg_url: str) -> None:
    reasons: list[str] = []
    locks = await ShardLocks(pg_url, 1, on_lost=reasons.append, ping_every=0.05).acquire()
    try:
        watch = locks.watch()
        await asyncio.sleep(0.15)
        assert not locks.lost.is_set()  # pings answered
        with psycopg.connect(pg_url, autocommit=True) as admin:  # the server drops it
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory'"
                " AND classid = %s",
                (NAMESPACE,),
            )
        await asyncio.wait_for(locks.lost.wait(), timeout=5)
        await watch
        assert len(reasons) == 1 and "connection" in reasons[0]
    finally:
        await locks.release()


def test_bad_shard_settings_are_refused() -> None:
    with pytest.raises(ShardLockError, match="SHARD_COUNT must be 1 or more"):
        ShardLocks("postgresql://x/y", 0)
    with pytest.raises(ShardLockError, match=r"SHARD_IDS \[3\] must be distinct shards from 0"):
        ShardLocks("postgresql://x/y", 2, [3])
    with pytest.raises(ShardLockError, match="distinct"):
        ShardLocks("postgresql://x/y", 2, [1, 1])


async def test_on_sqlite_there_is_nothing_to_lock(tmp_path: Path) -> None:
    locks = ShardLocks(tmp_path / "t.db", 4, [0, 1])
    async with locks:
        assert not locks.enabled and not locks.held
