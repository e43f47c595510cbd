"""What one user or one server may hold open at once: the service's limits.

``TableService(..., limits=Limits(...))``; every refusal is a ``LimitReached`` (a ``TableError``
whose short message says what to do). The defaults fit a server of a few hundred players; a
limit of 0 (seconds: 0) turns that limit off.
"""

from __future__ import annotations

from dataclasses import dataclass


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
    #: Seats of the costly AI levels (those that think on a worker thread, ``hard``) in one
    #: server's lobbies and games at once.
    hard_ai_seats_per_guild: int = 40

    @classmethod
    def none(cls) -> Limits:
        """No limit at all (load tests, the crash-recovery worker)."""
        return cls(0, 0, 0.0, 0.0, 0)
