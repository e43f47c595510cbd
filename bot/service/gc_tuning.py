"""Garbage-collector settings for a process that keeps many live games in memory.

Measured with bench/service.py (1,000 tables, paced): almost every action in the slowest 1% was
stalled by a collection on the event loop's thread, not by SQLite. With CPython's default
thresholds (700, 10, 10) a generation-1 collection ran every ~0.4 s and took ~3.5 ms, and a full
collection (every live game is scanned) took 20-60 ms; every action in flight waits for it.

- ``gc.freeze()`` once the tables are loaded: the modules and the games loaded at start-up
  leave the collector's scans (a full collection then scans only what was created since). Frozen
  objects are never collected as cyclic garbage; game states are plain dicts and lists, freed
  by reference counting.
- Generation-0 threshold 300 (default 700): a gen-0 collection costs ~1 us per young object
  here (coroutines, futures, timer handles, table snapshots), so each pause stays ~0.3 ms; more
  of them, the same total work.
- Generation-1 threshold 2,000 (default 10): a gen-1 collection scans every object that outlived
  a gen-0 one, which is mostly the games' changing state, ~15-35 ms for 1,000 busy tables. At
  2,000 actions/s it now comes every ~40 s instead of every ~4 s, and a full collection every
  ~10 of those. Cyclic garbage (rare: game states are acyclic) waits that long to be freed.

Measured (paced, 1,000 tables, 30 s): p99 8.2 ms with (700, 100, 10), 3.5-4.8 ms with these.
"""

from __future__ import annotations

import gc

#: (gen0, gen1, gen2): see the module docstring.
THRESHOLDS = (300, 2000, 10)

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
