"""``Leaderboard``: the async face of the ratings, seasons and boards on the bot's database.

It is also a table-service listener: when a game ends (finished or abandoned) it rates what the
service recorded (``store.catch_up``). Reads catch up first too, so a rating the listener missed
(the bot stopped between the two) is never missing from a board.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.leaderboard import store
from bot.leaderboard.store import RatedGame, RecentResult, Standing
from bot.service.listeners import GameOver, TableAbandoned, TableEvent
from bot.storage.connection import Connection
from bot.storage.group_commit import DatabaseBackend

#: The board's page size.
PAGE_SIZE = 10


@dataclass(frozen=True)
class BoardPage:
    season: int
    game: str
    sort: str
    page: int
    pages: int
    rows: list[tuple[int, Standing]]  # (place from 1, standing)
    total: int


@dataclass(frozen=True)
class MemberStats:
    season: int
    standings: list[Standing]
    recent: dict[str, list[RecentResult]]
    hidden: bool


class Leaderboard:
    """Ratings, seasons and boards; ``clock`` gives epoch seconds (the service's clock)."""

    def __init__(self, db: DatabaseBackend, clock: Callable[[], float]) -> None:
        self.db = db
        self.clock = clock

    async def on_table_event(self, event: TableEvent) -> None:
        if isinstance(event, GameOver | TableAbandoned):
            await self.catch_up()

    async def catch_up(self) -> list[RatedGame]:
        """Rate every recorded game not rated yet."""
        now = self.clock()
        return await self.db.write(lambda conn: store.catch_up(conn, now))

    async def season(self, guild_id: int) -> int:
        now = self.clock()
        return await self.db.write(lambda conn: store.current_season(conn, guild_id, now))

    async def seasons(self, guild_id: int) -> list[store.Season]:
        await self.season(guild_id)
        return await self.db.run(lambda conn: store.seasons(conn, guild_id))

    async def new_season(self, guild_id: int) -> int:
        now = self.clock()
        return await self.db.write(lambda conn: store.new_season(conn, guild_id, now))

    async def games(self, guild_id: int, season: int | None = None) -> list[str]:
        """Games with a board in the season (default: the current one), most played first."""
        await self.catch_up()
        number = season if season is not None else await self.season(guild_id)
        return await self.db.run(lambda conn: store.games_on_board(conn, guild_id, number))

    async def board(
        self,
        guild_id: int,
        game: str,
        sort: str = "rating",
        page: int = 1,
        season: int | None = None,
    ) -> BoardPage:
        """One page of the board (pages count from 1; a page past the end shows the last)."""
        await self.catch_up()
        number = season if season is not None else await self.season(guild_id)
        rows = await self.db.run(lambda conn: store.board(conn, guild_id, number, game, sort))
        pages = max(1, -(-len(rows) // PAGE_SIZE))
        page = min(max(1, page), pages)
        start = (page - 1) * PAGE_SIZE
        placed = [(start + i + 1, s) for i, s in enumerate(rows[start : start + PAGE_SIZE])]
        return BoardPage(number, game, sort, page, pages, placed, len(rows))

    async def stats(self, guild_id: int, user_id: int, recent: int = 5) -> MemberStats:
        """A member's standings of the current season and his last results per game."""
        await self.catch_up()
        number = await self.season(guild_id)

        def read(conn: Connection) -> MemberStats:
            standings = store.standings_of(conn, guild_id, number, user_id)
            games = {s.game for s in standings}
            games |= {r.game for r in store.recent_results(conn, guild_id, user_id, None, 50)}
            by_game = {
                g: store.recent_results(conn, guild_id, user_id, g, recent) for g in sorted(games)
            }
            hidden = store.is_hidden(conn, guild_id, user_id)
            return MemberStats(number, standings, by_game, hidden)

        return await self.db.run(read)

    async def hide(self, guild_id: int, user_id: int, by: int | None) -> bool:
        now = self.clock()
        return await self.db.write(lambda conn: store.hide(conn, guild_id, user_id, by, now))

    async def restore(self, guild_id: int, user_id: int) -> bool:
        return await self.db.write(lambda conn: store.restore(conn, guild_id, user_id))

    async def forget(self, guild_id: int, user_id: int) -> int:
        """Rate what is pending first (so his last games count for the others), then forget."""
        await self.catch_up()
        return await self.db.write(lambda conn: store.forget(conn, guild_id, user_id))
