"""Idle lobbies: a lobby nobody changed for ``Limits.lobby_idle_seconds`` is closed.

Each lobby has one job in the service's ``Scheduler`` (key ``("idle", channel)``), due
``lobby_idle_seconds`` after the lobby's last change (``active_at``). A change does not re-arm
it: when it fires, a lobby changed meanwhile is armed again from its ``active_at``; one still
idle is closed (``TableAbandoned``, reason "nobody started it for N minutes"). Lobbies loaded at
start count from the start.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n.later import later_n


@dataclass(frozen=True)
class LobbyIdle:
    """The scheduler's job of a lobby: close it if it is still idle."""

    channel_id: int
    table_id: int


def idle_key(channel_id: int) -> tuple[str, int]:
    return ("idle", channel_id)


def idle_reason(idle_seconds: float) -> str:
    """Why the lobby was closed, marked for translation (said in the channel's language)."""
    minutes = max(1, round(idle_seconds / 60))
    # i18n: why a lobby was closed ("Table abandoned (nobody started it for 10 minutes)")
    return later_n("nobody started it for {n} minute", "nobody started it for {n} minutes", minutes)
