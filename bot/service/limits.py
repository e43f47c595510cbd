"""What one user or one server may hold open at once: the service's limits, and their checks.

``TableService(..., limits=Limits(...))``; every refusal is a ``LimitReached`` (a ``TableError``
whose short message says what to do) raised before anything changes. The defaults fit a server
of a few hundred players; a limit of 0 (seconds: 0) turns that limit off. Idle lobbies are
closed by ``idle.IdleSweep``.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass

from bot.i18n import _, _n
from bot.service.errors import OpeningTooFast, TooManyHardAis, TooManyLobbies
from bot.service.models import TableStatus
from bot.service.tables import LiveTable

#: Users remembered for the cooldown before those whose cooldown is over are forgotten.
COOLDOWN_MEMORY = 1024


@dataclass(frozen=True)
class Limits:
    """The service's limits on opening tables and seating costly AIs."""

    #: Lobbies (tables not started yet) one user may host at once, across channels.
    lobbies_per_user: int = 3
    #: Lobbies open at once in one server.
    lobbies_per_guild: int = 50
    #: A lobby nobody changed for this long is closed (seconds of the service clock).
    lobby_idle_seconds: float = 30 * 60
    #: A user waits this long between opening two tables (seconds).
    open_cooldown_seconds: float = 10.0
    #: Seats of the costly AI levels (those that think in the AI's process pool, ``hard``) in one
    #: server's lobbies and games at once.
    hard_ai_seats_per_guild: int = 40

    @classmethod
    def none(cls) -> Limits:
        """No limit at all (load tests, the crash-recovery worker)."""
        return cls(0, 0, 0.0, 0.0, 0)


class Quotas:
    """Checks ``Limits`` against the service's open tables (the caller holds the channel's
    lock; lobbies whose commit is pending count too, so concurrent opens cannot overshoot)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        #: When each user last opened a table (service clock), for the cooldown.
        self._opened_at: dict[int, float] = {}
        #: Lobbies being opened (their commit pending): (host id, guild id).
        self._opening: list[tuple[int, int | None]] = []

    def check_open(
        self, tables: Iterable[LiveTable], host_id: int, guild_id: int | None, now: float
    ) -> None:
        """Refuse a new lobby of ``host_id`` in ``guild_id`` that a limit forbids."""
        limits = self.limits
        if limits.open_cooldown_seconds > 0:
            last = self._opened_at.get(host_id)
            if last is not None and now - last < limits.open_cooldown_seconds:
                wait = math.ceil(limits.open_cooldown_seconds - (now - last))
                raise OpeningTooFast(_("You opened a table moments ago: wait {wait} s.", wait=wait))
            if any(user == host_id for user, _guild in self._opening):
                raise OpeningTooFast(_("You are opening a table already: wait a moment."))
        lobbies = [(t.host_id, t.guild_id) for t in tables if t.status is TableStatus.LOBBY]
        lobbies += self._opening
        if limits.lobbies_per_user > 0:
            hosted = sum(1 for user, _guild in lobbies if user == host_id)
            if hosted >= limits.lobbies_per_user:
                raise TooManyLobbies(
                    _n(
                        "You already host {n} lobby: start or abandon it first.",
                        "You already host {n} lobbies: start or abandon one first.",
                        hosted,
                    )
                )
        if limits.lobbies_per_guild > 0 and guild_id is not None:
            count = sum(1 for _user, guild in lobbies if guild == guild_id)
            if count >= limits.lobbies_per_guild:
                raise TooManyLobbies(
                    _n(
                        "This server has {n} lobby waiting, the most allowed: join it, or try"
                        " again when it has started.",
                        "This server has {n} lobbies waiting, the most allowed: join one, or try"
                        " again when one has started.",
                        count,
                    )
                )

    @contextlib.contextmanager
    def opening(self, host_id: int, guild_id: int | None, now: float) -> Iterator[None]:
        """Count the lobby while its commit is pending; once it succeeds, start the host's
        cooldown."""
        entry = (host_id, guild_id)
        self._opening.append(entry)
        try:
            yield
        finally:
            self._opening.remove(entry)
        self._opened(host_id, now)

    def _opened(self, host_id: int, now: float) -> None:
        cooldown = self.limits.open_cooldown_seconds
        if cooldown <= 0:
            return
        if len(self._opened_at) >= COOLDOWN_MEMORY:  # forget those whose cooldown is over
            self._opened_at = {u: t for u, t in self._opened_at.items() if now - t < cooldown}
        self._opened_at[host_id] = now

    def check_ai(
        self,
        tables: Iterable[LiveTable],
        guild_id: int | None,
        level: str,
        costly: Collection[str],
    ) -> None:
        """Refuse one more AI seat of a ``costly`` level in ``guild_id`` over the limit."""
        limit = self.limits.hard_ai_seats_per_guild
        if limit <= 0 or level not in costly or guild_id is None:
            return
        seated = sum(
            1
            for t in tables
            if t.guild_id == guild_id
            for s in t.seats.values()
            if s.ai_level in costly
        )
        if seated >= limit:
            raise TooManyHardAis(
                _n(
                    "This server has {n} {level} AI seat at its tables, the most allowed:"
                    " choose another level, or wait for a game to end.",
                    "This server has {n} {level} AI seats at its tables, the most allowed:"
                    " choose another level, or wait for a game to end.",
                    seated,
                    level=level,
                )
            )
