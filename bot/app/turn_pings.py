"""When a player is mentioned because his turn came: the coalescing rule of the turn pings.

A mention costs two requests (the new one, and deleting the previous one) and a notification on
the player's phone; one that tells him nothing new is noise. So a player whose turn comes is
mentioned unless:

- his last mention at this table is still unanswered (he has not moved himself since: the AI may
  have moved for him when his time ran out). One reminder per absence, not one per turn;
- he moved himself less than ``RECENT`` seconds ago: the turn came back quickly, he is looking
  at the table (at a live table the hand panel shows it already).

The same rule for every table: at a live table it leaves the first turn and the turn of a
player who wandered off; at a turn-based table (a clock of hours) nearly every turn comes after
a pause, so nearly every turn is told, once. The record lives in the publisher's memory: after a
restart a player may be mentioned once more.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: Seconds after his own move during which a player is taken to be still at the table.
RECENT = 180.0


@dataclass
class Pings:
    """One table's record: who was mentioned and not answered, and when each seat moved."""

    unanswered: set[int] = field(default_factory=set)
    moved_at: dict[int, float] = field(default_factory=dict)

    def due(self, seat: int, now: float) -> bool:
        """Is ``seat``, whose turn just came, to be mentioned?"""
        if seat in self.unanswered:
            return False
        last = self.moved_at.get(seat)
        return last is None or now - last >= RECENT

    def pinged(self, seat: int) -> None:
        self.unanswered.add(seat)

    def moved(self, seat: int, now: float) -> None:
        """The seat's player moved himself (a timed-out move is not an answer)."""
        self.unanswered.discard(seat)
        self.moved_at[seat] = now
