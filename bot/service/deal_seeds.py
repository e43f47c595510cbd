"""The seeds of new deals.

In play they come from the system's entropy: a deal must not follow from anything a player can
know (the table's id, the time). The tests fix them (``fixed``): a test then deals the same
cards at every run, so a test that goes wrong on one deal goes wrong every time, not once in
twenty runs of CI.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator

#: Where new seeds come from (``fixed`` replaces it inside its block).
_source: random.Random = random.SystemRandom()


def new_seed() -> int:
    """A new deal's seed (the engine's seeds are below 2**53: they fit a JSON number)."""
    return _source.randrange(2**53)


@contextlib.contextmanager
def fixed(seed: int) -> Iterator[None]:
    """Inside the block, new seeds follow from ``seed`` (tests), then as before."""
    global _source
    previous, _source = _source, random.Random(seed)
    try:
        yield
    finally:
        _source = previous
