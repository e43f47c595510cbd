"""Each page's frame budget: a token bucket, so a flood from one page is refused there.

A person taps a few times a second at most; the page itself sends a move per tap and a ``sync``
when it wakes. ``RATE`` frames a second with bursts of ``BURST`` leaves a fast player room; past
it a frame gets a "slow down" error, and a page that keeps sending ``FLOOD`` frames past its
budget is closed (1008).
"""

from __future__ import annotations

from dataclasses import dataclass

RATE = 5.0
BURST = 20.0
FLOOD = 20


@dataclass
class FrameBudget:
    rate: float = RATE
    burst: float = BURST
    flood: int = FLOOD
    tokens: float = BURST
    last: float | None = None
    refused: int = 0

    def take(self, now: float) -> bool:
        """One frame at ``now`` (monotonic seconds): True if within the budget."""
        if self.last is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            self.refused = 0
            return True
        self.refused += 1
        return False

    @property
    def flooding(self) -> bool:
        return self.refused >= self.flood
