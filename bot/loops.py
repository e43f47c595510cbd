"""The event loop a long-lived object works on, remembered instead of looked up at every call.

On CPython 3.11 every look-up of the running loop makes a ``getpid`` system call (asyncio's
check that the process did not fork since): ``asyncio.get_running_loop()``, and under it
``asyncio.current_task()`` without its loop, ``asyncio.create_task`` and ``asyncio.sleep``. A
move made them a few dozen times (3% of the event loop's thread at 1,000 tables): the service's
parts hand over the loop they were started on; what has no start remembers it with ``running``.
"""

from __future__ import annotations

import asyncio


def running(known: asyncio.AbstractEventLoop | None) -> asyncio.AbstractEventLoop:
    """``known`` while it runs, else the running loop (``RuntimeError`` without one). The bot runs
    one event loop, on one thread (tests and benches run theirs one after another): a loop that
    is running is the caller's."""
    if known is not None and known.is_running():
        return known
    return asyncio.get_running_loop()
