"""An event loop on virtual time: a timer's wait takes no wall time and is never late.

What a test of timing *rules* needs (a rate, a window, a deadline): on a loaded machine a real
loop wakes its sleepers late and several due at different times run together, which says
nothing of the rule under test. Here, when the loop would block until its next timer, the clock
jumps to that timer instead. Only for code that waits on timers and futures, not on sockets or
threads (a wait with no timer would spin: ``run`` fails such a test with a virtual-time limit).
"""

from __future__ import annotations

import asyncio
import selectors
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


class _JumpingSelector(selectors.DefaultSelector):
    def __init__(self, loop: VirtualTimeLoop) -> None:
        super().__init__()
        self._loop = loop

    def select(self, timeout: float | None = None) -> list[Any]:
        if timeout is not None and timeout > 0:
            self._loop.now += timeout  # the next timer is due: go there at once
        return super().select(0)


class VirtualTimeLoop(asyncio.SelectorEventLoop):
    def __init__(self) -> None:
        self.now = 0.0
        super().__init__(_JumpingSelector(self))

    def time(self) -> float:
        return self.now


def run(main: Coroutine[Any, Any, T], limit: float = 3600.0) -> T:
    """Run ``main`` on a new virtual-time loop; a run past ``limit`` virtual seconds fails."""
    loop = VirtualTimeLoop()
    try:
        return loop.run_until_complete(asyncio.wait_for(main, limit))
    finally:
        loop.close()
