"""A playing ``Table`` as the service would hand it to a renderer: the tests that draw table
messages and hand panels without a service take it from here."""

from __future__ import annotations

import engine
from bot.service import Seat, Table, TableStatus

NAMES = ["ann", "bob", "cid", "dee"]


def playing_table(game: str, players: int) -> Table:
    """``game`` in play at ``players`` seats, humans ``ann0``, ``bob1``...; seat 0 to act."""
    seats = tuple(
        Seat(index=i, name=NAMES[i % 4] + str(i), user_id=100 + i) for i in range(players)
    )
    spec = engine.GAMES[game]
    return Table(
        id=1, channel_id=5, guild_id=None, game=game, title=spec.title, preset=None,
        options=spec.defaults(), overrides={}, host_id=100, status=TableStatus.PLAYING,
        seats=seats, to_act=(0,), deadlines={0: 1_800_000_000.0},
    )  # fmt: skip
