"""A move whose caller is cancelled while its write is under way: if the write commits, memory
follows the disk (it used to put the old game back, a move behind its database, and the table's
next write failed as stale)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.service import Limits, TableService


async def test_a_cancelled_move_that_committed_is_kept(tmp_path: Path) -> None:
    service = TableService(tmp_path / "c.db", limits=Limits.none())
    await service.start()
    try:
        await service.open_table(1, 9, 100, "ann", "troeven", options={"timer": "off"})
        await service.join(1, 101, "bob")
        table = await service.start_game(1, 100)
        seat = table.to_act[0]
        user = table.seat(seat).user_id  # type: ignore[union-attr]
        action = service.legal_actions(1, user)[0]

        held: list[asyncio.Future[Any]] = []
        submit = service.db.submit

        class Stubborn(asyncio.Future[Any]):  # as ``submit(shielded=True)``'s: not cancelled
            def cancel(self, msg: Any = None) -> bool:
                return False

        def slow_submit(fn: Any, *, shielded: bool = False) -> asyncio.Future[Any]:
            assert shielded, "the service's writes outlive a cancelled caller"
            inner = submit(fn)  # the write really happens
            outer: asyncio.Future[Any] = Stubborn(loop=asyncio.get_running_loop())
            held.append(outer)

            async def later() -> None:
                result = await inner
                await asyncio.sleep(0.05)  # the caller is cancelled meanwhile
                outer.set_result(result)

            asyncio.get_running_loop().create_task(later())
            return outer

        service.db.submit = slow_submit  # type: ignore[method-assign]
        move = asyncio.create_task(service.act(1, user, action))
        while not held:
            await asyncio.sleep(0.001)
        move.cancel()
        with pytest.raises(asyncio.CancelledError):
            await move
        service.db.submit = submit  # type: ignore[method-assign]

        after = service.get_table(1)
        assert after is not None and after.move_number == table.move_number + 1, "kept"
        # The next move writes on top of it (no stale write).
        nxt = after.to_act[0]
        other = after.seat(nxt).user_id  # type: ignore[union-attr]
        await service.act(1, other, service.legal_actions(1, other)[0])
        assert service.get_table(1).move_number == table.move_number + 2  # type: ignore[union-attr]
    finally:
        await service.close()
    reopened = TableService(tmp_path / "c.db", limits=Limits.none())
    await reopened.start()
    try:
        assert reopened.get_table(1).move_number == table.move_number + 2  # type: ignore[union-attr]
    finally:
        await reopened.close()
