"""How long a thread may hold the GIL while another waits for it, for a bot whose event loop
shares the interpreter with worker threads (the database's; the render pool's, when it draws
in threads).

CPython's default is 5 ms: when the loop's thread lets go of the GIL for a moment (a system
call: ``epoll``, a random id for a discord.py view, handing work to a queue) a worker that was
waiting takes it and may keep it up to 5 ms before the loop gets it back, and every click and
event behind it waits that long. The database's thread, in turn, waits up to 5 ms for the GIL
after each statement. 0.5 ms bounds both waits tenfold for a few more switches.

Measured with ``bench/service.py --tuned`` (the database's round trips) and ``bench/load.py``
(clicks answered p50 24-28 ms with it against 35-67 ms without, 300 tables, load average 10).
"""

from __future__ import annotations

import sys

#: Seconds (CPython's default: 0.005).
SWITCH_INTERVAL = 0.0005


def tune_switch_interval() -> None:
    """Set ``SWITCH_INTERVAL`` for the whole process (idempotent)."""
    sys.setswitchinterval(SWITCH_INTERVAL)
