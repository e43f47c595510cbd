"""Garbage-collector settings for a process that keeps many live games in memory.

Measured with bench/service.py (1,000 tables, paced): almost every action in the slowest 1% was
stalled by a collection on the event loop's thread, not by SQLite. With CPython's default
thresholds (700, 10, 10) a generation-1 collection ran every ~0.4 s and took ~3.5 ms, and a full
collection (every live game is scanned) took 20-60 ms; every action in flight waits for it.

- ``gc.freeze()`` once the tables are loaded: the modules and the games loaded at start-up
  leave the collector's scans (a full collection then scans only what was created since). Frozen
  objects are never collected as cyclic garbage; game states are plain dicts and lists, freed
  by reference counting.
- Generation-1 threshold 100 (default 10): gen-0 collections stay small (their cost grows with
  the gen-0 threshold, ~1 us per object here), older objects are scanned 10 times less often,
  and a full collection comes every ~1,000 gen-0 ones instead of every 100.
"""

from __future__ import annotations

import gc

#: (gen0, gen1, gen2): see the module docstring.
THRESHOLDS = (700, 100, 10)

_tuned = False


def tune_gc() -> None:
    """Freeze what is alive now and set ``THRESHOLDS``; only the first call in a process acts
    (a second service in the same process, as in tests, must not freeze again)."""
    global _tuned
    if _tuned:
        return
    _tuned = True
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
