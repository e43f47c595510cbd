"""The commit window: when writes come often, the database's thread waits a moment before it
opens a batch's transaction, so that the writes submitted meanwhile join it (PostgreSQL's
``commit_delay`` with ``commit_siblings``, on our side of the connection).

Why: at 1,000 busy tables writes come ~2 ms apart and a commit takes ~0.1 ms, so without a
window a batch holds one write at the median and every action pays a whole transaction
(BEGIN, COMMIT, their locks and WAL pages, caches gone cold since the last one:
``bench/db_commit.py``) and one wake-up of the loop for its way back. A batch of several writes
pays those once. A player cannot see the few milliseconds this adds (Discord's own round trip is
50-150 ms); ``bench/db_threads.py --commit-window-ms`` measures the trade.

Measured (``bench/db_threads.py --tables 1000 --seconds 60``, interleaved with runs without a
window, medians): 2 ms makes a batch 2.3 writes (median 2, from 1.1 and 1), the database's
threads ~97 µs per action (from ~115: 19 µs less, paired), the bot's CPU per action 1,219 µs
(from 1,284), for 2.2 ms more at the click's acknowledgement's median (3.6 ms) and ~1.4 ms at its
p99 (7.9 ms). 1 ms pays less (104 µs; batches of 1.7); 3 ms no more than 2 (96.5 µs) for 1 ms
more latency, 5 ms little more (89 µs, one run) for 5 ms: the writes' own statements, not the
transaction, are most of what is left (~60 µs a write inside a batch of any size).

Busy means siblings: a write was submitted while another was still unacknowledged, within the
last ``BUSY_FOR`` seconds. A caller that awaits each write before the next (one table, the
tests, a quiet server) never has a sibling, so its lone write commits at once as before, with no
wait: the rate of writes alone would not tell a fast lone caller from a busy server, and a window
that no other write can join is only latency.

The wait is the database's thread sleeping (``wait``), never the event loop: it releases the
GIL, and the loop goes on queueing writes meanwhile (``submit`` costs the same). The futures
still resolve only after the COMMIT that holds them.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

#: How long the database's thread waits, when busy, before it opens a batch's transaction
#: (seconds; 0: never). 2 ms: see this module's docstring for what 1, 3 and 5 ms did.
WINDOW = 0.002
#: Busy for this long (seconds) after a write was submitted while another was unacknowledged.
BUSY_FOR = 0.02


class CommitWindow:
    """One backend's window: ``sibling`` on the loop's thread, ``wait`` on the database's."""

    def __init__(
        self,
        length: float | None = None,
        busy_for: float = BUSY_FOR,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], object] = time.sleep,
    ) -> None:
        #: None: the module's ``WINDOW`` as it is now (the bench sets it before the bot starts).
        self.length = WINDOW if length is None else length
        self.busy_for = busy_for
        #: Written on the loop's thread, read on the database's: one float, replaced whole.
        self.busy_until = -math.inf
        #: Windows waited (the tests and the bench read it).
        self.waited = 0
        self._clock = clock
        self._sleep = sleep

    def sibling(self) -> None:
        """On the loop's thread: a write was submitted while another was unacknowledged."""
        self.busy_until = self._clock() + self.busy_for

    def wait(self) -> bool:
        """On the database's thread, before a batch's transaction: when busy, sleep the window
        (the caller then takes the writes queued meanwhile). True if it waited."""
        if self.length <= 0 or self._clock() >= self.busy_until:
            return False
        self.waited += 1
        self._sleep(self.length)
        return True
