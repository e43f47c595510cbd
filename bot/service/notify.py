"""A player's notification choices (``/notify``) and the rules read from them: pure functions
and their SQL (table ``notify_prefs``).

- ``dm``: a direct message for his turn-based tables (one digest of every table whose turn is
  his, see ``digests.py``); off unless he asks.
- Quiet hours: ``quiet_start`` to ``quiet_end``, whole hours of *his* day (22 to 7 crosses
  midnight), during which no message is sent (the digest waits for their end). His day is
  known by ``utc_offset`` (minutes), which the bot works out from the time he reads on his own
  clock (``offset_from_local_time``): a player knows what time it is, not always his UTC offset
  or his time zone's name. A clock change (summer time) is his to tell again.
- ``dm_closed``: a message was refused (his inbox is closed to the bot): no more are tried until
  he runs ``/notify`` again.
- ``told``: the turns the last digest named, so the same ones are never sent twice.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from typing import Any

from bot.storage.connection import Connection

DAY = 24 * 3600
#: Offsets real clocks have (UTC-12 to UTC+14), in minutes.
OFFSET_RANGE = range(-12 * 60, 14 * 60 + 1)

_QUIET = re.compile(r"^\s*(\d{1,2})(?::00)?\s*(?:-|–|to)\s*(\d{1,2})(?::00)?\s*$")
_TIME = re.compile(r"^\s*(\d{1,2})(?:[:h.](\d{2}))?\s*(am|pm)?\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class NotifyPrefs:
    user_id: int
    dm: bool = False
    quiet_start: int | None = None
    quiet_end: int | None = None
    utc_offset: int = 0
    dm_closed: bool = False
    language: str | None = None
    told: frozenset[str] = field(default_factory=frozenset)

    @property
    def wants_dm(self) -> bool:
        return self.dm and not self.dm_closed

    @property
    def has_quiet(self) -> bool:
        return self.quiet_start is not None and self.quiet_end is not None

    def with_told(self, told: frozenset[str]) -> NotifyPrefs:
        return replace(self, told=told)


def parse_quiet(text: str) -> tuple[int, int] | None:
    """``"22-7"`` (or ``22:00-07:00``, ``22 to 7``) into (22, 7); ``off`` into None. Raises
    ValueError for anything else."""
    if text.strip().lower() in {"off", "none", "no", "0"}:
        return None
    match = _QUIET.match(text)
    if match is None:
        raise ValueError(text)
    start, end = (int(match[i]) % 24 if match[i] == "24" else int(match[i]) for i in (1, 2))
    if not (0 <= start < 24 and 0 <= end < 24) or start == end:
        raise ValueError(text)
    return start, end


def parse_local_time(text: str) -> int:
    """``"14:30"``, ``"2:30 pm"``, ``"9"`` into minutes after midnight; raises ValueError."""
    match = _TIME.match(text)
    if match is None:
        raise ValueError(text)
    hour, minute, half = int(match[1]), int(match[2] or 0), (match[3] or "").lower()
    if half:
        if not 1 <= hour <= 12:
            raise ValueError(text)
        hour = hour % 12 + (12 if half == "pm" else 0)
    if not (0 <= hour < 24 and 0 <= minute < 60):
        raise ValueError(text)
    return hour * 60 + minute


def offset_from_local_time(local_minutes: int, now: float) -> int:
    """The UTC offset (minutes, to the quarter hour) of a clock that reads ``local_minutes``
    after midnight at the epoch time ``now``."""
    utc_minutes = (now % DAY) / 60
    offset = round((local_minutes - utc_minutes) / 15) * 15
    # The clock may be on another day than UTC: the offset real clocks have.
    while offset > OFFSET_RANGE.stop - 1:
        offset -= 24 * 60
    while offset < OFFSET_RANGE.start:
        offset += 24 * 60
    return offset


def offset_text(minutes: int) -> str:
    """``UTC+2``, ``UTC-5``, ``UTC+5:30``."""
    sign = "+" if minutes >= 0 else "-"
    hours, rest = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours}" + (f":{rest:02d}" if rest else "")


def quiet_until(prefs: NotifyPrefs, now: float) -> float | None:
    """If ``now`` falls in the player's quiet hours, the epoch time they end; else None."""
    if prefs.quiet_start is None or prefs.quiet_end is None:
        return None
    local = now + prefs.utc_offset * 60
    hour_now = (local % DAY) / 3600
    start, end = prefs.quiet_start, prefs.quiet_end
    inside = start <= hour_now < end if start < end else hour_now >= start or hour_now < end
    if not inside:
        return None
    midnight = local - local % DAY
    end_local = midnight + end * 3600
    if end_local <= local:
        end_local += DAY
    return end_local - prefs.utc_offset * 60


# -- storage ----------------------------------------------------------------------------------
_COLUMNS = "user_id, dm, quiet_start, quiet_end, utc_offset, dm_closed, language, told"


def _decode(row: Any) -> NotifyPrefs:
    return NotifyPrefs(
        user_id=int(row[0]),
        dm=bool(row[1]),
        quiet_start=None if row[2] is None else int(row[2]),
        quiet_end=None if row[3] is None else int(row[3]),
        utc_offset=int(row[4]),
        dm_closed=bool(row[5]),
        language=row[6],
        told=frozenset(json.loads(row[7] or "[]")),
    )


def load_all(conn: Connection) -> dict[int, NotifyPrefs]:
    """Every player's choices (few players set them: the service keeps them in memory)."""
    rows = conn.execute(f"SELECT {_COLUMNS} FROM notify_prefs").fetchall()
    return {prefs.user_id: prefs for prefs in map(_decode, rows)}


def store(conn: Connection, prefs: NotifyPrefs) -> None:
    values = (
        prefs.user_id,
        int(prefs.dm),
        prefs.quiet_start,
        prefs.quiet_end,
        prefs.utc_offset,
        int(prefs.dm_closed),
        prefs.language,
        json.dumps(sorted(prefs.told)),
    )
    conn.execute(
        f"INSERT INTO notify_prefs ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (user_id) DO UPDATE SET dm = excluded.dm,"
        " quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end,"
        " utc_offset = excluded.utc_offset, dm_closed = excluded.dm_closed,"
        " language = excluded.language, told = excluded.told",
        values,
    )
