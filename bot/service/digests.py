"""Turn digests (a part of ``TableService``): one direct message to a player who asked for it
(``/notify``), naming every turn-based table whose turn is his, and a player's list of tables.

When a turn-based table's turn comes to a player who opted in, a digest job is armed in the
scheduler under ``("digest", user)`` ``DIGEST_DELAY`` seconds later, unless one is armed
already: the turns that come meanwhile (at his other tables) join the same message, and a turn
he takes in the meantime is not told at all. When the job fires, if he moved himself (at any
table) within ``DIGEST_DELAY`` it is armed again for ``DIGEST_DELAY`` after that move: he is
playing, the channel's ping is enough, and a message comes only once he has been away that
long with turns waiting; during his quiet hours it is armed again for their end; else the
service hands the turns still his (``turns_of``) to ``digest_sender`` (the Discord side:
``bot.app.digests``), unless the last digest named exactly these turns already (``told``,
stored). A refused message (an inbox closed to the bot) is
remembered: no more are tried until he runs ``/notify`` again.

The service knows nothing of Discord: ``digest_sender`` returns what happened (``SENT``,
``CLOSED``, ``FAILED``). Without one (the terminal, service tests) nothing is sent.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from bot.service import notify, timers
from bot.service.core import ServiceCore
from bot.service.listeners import ActionApplied, TableEvent, TurnChanged
from bot.service.models import Table, TableStatus
from bot.service.notify import NotifyPrefs

log = logging.getLogger(__name__)

#: Seconds between a turn coming and the digest that tells it: the turns of his other tables
#: that come meanwhile join it, and a player who answers his turn ping first gets no message.
DIGEST_DELAY = 600.0

Outcome = Literal["sent", "closed", "failed"]
SENT: Outcome = "sent"
CLOSED: Outcome = "closed"
FAILED: Outcome = "failed"

DigestSender = Callable[[NotifyPrefs, Sequence["Turn"]], Awaitable[Outcome]]


@dataclass(frozen=True)
class Turn:
    """A table whose turn is the player's: the table as it is, his seat, its deadline."""

    table: Table
    seat: int
    deadline: float | None

    @property
    def key(self) -> str:
        """This turn, unlike any other: the table and the move it waits at."""
        return f"{self.table.id}:{self.table.move_number}"


@dataclass(frozen=True)
class DigestDue:
    """The scheduler's job: tell ``user_id`` his turns."""

    user_id: int


def digest_key(user_id: int) -> tuple[str, int]:
    return ("digest", user_id)


def turn_at(table: Table, user_id: int) -> Turn | None:
    """The player's turn at ``table`` (playing, he is the one awaited first, not away)."""
    if table.status is not TableStatus.PLAYING or not table.to_act:
        return None
    seat = table.seat(table.to_act[0])
    if seat is None or seat.user_id != user_id or not seat.is_human or seat.away:
        return None
    return Turn(table, seat.index, table.deadlines.get(seat.index))


class DigestsMixin(ServiceCore):
    """Turn digests and a player's tables: see the module's docstring."""

    #: Each player's choices (loaded at start; few players set them).
    notify_prefs: dict[int, NotifyPrefs]
    #: The Discord side's way to send a digest (None: nothing is sent).
    digest_sender: DigestSender | None = None
    #: When each player last moved himself (this process's memory: a restart forgets it, and a
    #: digest may then come one ``DIGEST_DELAY`` early).
    acted_at: dict[int, float]

    async def load_notify_prefs(self) -> None:
        self.notify_prefs = await self.db.run(notify.load_all)

    def arm_pending_digests(self) -> None:
        """At start: a digest for every player who opted in and has turns not told yet (the
        jobs of the process that stopped are gone; ``told`` keeps a turn from being told
        twice)."""
        for prefs in self.notify_prefs.values():
            if prefs.wants_dm and self.turns_of(prefs.user_id, turn_based_only=True):
                self._arm_digest(prefs.user_id)

    # -- a player's tables ----------------------------------------------------------------------
    def tables_of(self, user_id: int, guild_id: int | None = None) -> list[Table]:
        """Every open table ``user_id`` sits at (in ``guild_id``'s server if given), those
        waiting for him first, each group by its deadline, then oldest first."""
        mine = [
            t
            for t in self.tables()
            if t.seat_of(user_id) is not None and (guild_id is None or t.guild_id == guild_id)
        ]

        def order(table: Table) -> tuple[int, float, int]:
            turn = turn_at(table, user_id)
            if turn is None:
                return (1, 0.0, table.id)
            return (0, turn.deadline if turn.deadline is not None else float("inf"), table.id)

        return sorted(mine, key=order)

    def turns_of(self, user_id: int, *, turn_based_only: bool = False) -> list[Turn]:
        """The tables whose turn is ``user_id``'s, soonest deadline first."""
        turns = [
            turn
            for table in self.tables()
            if (not turn_based_only or timers.turn_based(table.options))
            and (turn := turn_at(table, user_id)) is not None
        ]
        return sorted(turns, key=lambda t: (t.deadline or float("inf"), t.table.id))

    # -- choices --------------------------------------------------------------------------------
    def prefs_of(self, user_id: int) -> NotifyPrefs:
        return self.notify_prefs.get(user_id) or NotifyPrefs(user_id)

    async def set_notify(self, prefs: NotifyPrefs) -> NotifyPrefs:
        """Store the player's choices; asking again opens an inbox found closed."""
        prefs = replace(prefs, dm_closed=False)
        await self.db.write(lambda conn: notify.store(conn, prefs))
        self.notify_prefs[prefs.user_id] = prefs
        if prefs.wants_dm and self.turns_of(prefs.user_id, turn_based_only=True):
            self._arm_digest(prefs.user_id)
        elif not prefs.dm:
            self.scheduler.cancel(digest_key(prefs.user_id))
        return prefs

    # -- the turns the service announces --------------------------------------------------------
    def note_turns(self, events: Sequence[TableEvent]) -> None:
        """A table told whose turn it is: arm the digest of an opted-in player awaited at a
        turn-based table (the events' order is the commit order: the last one counts)."""
        for event in events:
            if isinstance(event, ActionApplied) and event.user_id is not None:
                self.acted_at[event.user_id] = self.clock()
        turn = next((e for e in reversed(events) if isinstance(e, TurnChanged)), None)
        if turn is None or not turn.to_act or not timers.turn_based(turn.table.options):
            return
        seat = turn.table.seat(turn.to_act[0])
        if seat is None or seat.user_id is None or not seat.is_human or seat.away:
            return
        prefs = self.notify_prefs.get(seat.user_id)
        if prefs is not None and prefs.wants_dm:
            key = digest_key(seat.user_id)
            if not self.scheduler.armed(key):
                self._arm_digest(seat.user_id)

    def _arm_digest(self, user_id: int, at: float | None = None) -> None:
        due = self.clock() + DIGEST_DELAY if at is None else at
        self.scheduler.arm(digest_key(user_id), DigestDue(user_id), at=due)

    async def fire_digest(self, job: DigestDue) -> None:
        """The digest's time: see the module's docstring."""
        prefs = self.notify_prefs.get(job.user_id)
        if prefs is None or not prefs.wants_dm or self.digest_sender is None:
            return
        now = self.clock()
        acted = self.acted_at.get(job.user_id)
        if acted is not None and now - acted < DIGEST_DELAY:
            self._arm_digest(job.user_id, at=acted + DIGEST_DELAY)  # he is playing
            return
        quiet_end = notify.quiet_until(prefs, now)
        if quiet_end is not None:
            self._arm_digest(job.user_id, at=quiet_end)
            return
        turns = self.turns_of(job.user_id, turn_based_only=True)
        keys = frozenset(t.key for t in turns)
        if not turns or keys <= prefs.told:
            return  # he took his turns meanwhile, or these were told already
        outcome = await self.digest_sender(prefs, turns)
        if outcome == SENT:
            prefs = prefs.with_told(keys)
        elif outcome == CLOSED:
            log.info("user %s: direct messages refused; no more digests", job.user_id)
            prefs = replace(prefs, dm_closed=True)
        else:
            return  # a passing failure: the next turn arms another digest
        self.notify_prefs[job.user_id] = prefs
        stored = prefs
        try:
            await self.db.write(lambda conn: notify.store(conn, stored))
        except Exception:  # the memory holds it until the next change: nothing is resent
            log.exception("user %s: the digest's record could not be stored", job.user_id)
