"""The rematch lobby's wait: a rematch does not wait forever for a player who went away.

A rematch lobby starts by itself once every human of the finished game has pressed Rematch.
``REMATCH_CONFIRM_SECONDS`` after it opened (the job ``RematchDue`` in the service's
``Scheduler``, key ``("rematch", channel)``, due at the lobby's ``created_at`` plus that), the
players who have not confirmed are handed to the AI as seats they left
(``TableService.expire_rematch``): any member may take them when the table's seats allow, and
the player himself takes his seat back with the Rematch button or /join; then the game starts. A
lobby loaded at start is armed again from its ``created_at``.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Long enough to see the final message and press Rematch from a phone (players who want the
#: rematch press within seconds: the button is on the message they are looking at), short enough
#: that those who did confirm are still at the table when it starts without the others.
REMATCH_CONFIRM_SECONDS = 60.0


@dataclass(frozen=True)
class RematchDue:
    """The scheduler's job of a rematch lobby: start it without those who did not confirm."""

    channel_id: int
    table_id: int


def rematch_key(channel_id: int) -> tuple[str, int]:
    return ("rematch", channel_id)
