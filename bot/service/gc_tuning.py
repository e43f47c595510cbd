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
- Generation-1 threshold 2,000 (default 10): a gen-1 collection scans every object that
  outlived a gen-0 one and was not yet promoted: at 1,000 busy tables that is mostly the live
  state of every table that moved lately (views, panels, pending tasks), ~230,000 objects, a
  70-180 ms pause of the event loop, and *not much less at a lower threshold*: those objects
  live seconds, longer than the gap between two gen-1 collections. Measured with
  ``bench/load.py`` at 1,000 tables (120 s runs): at 500 the pause came every ~4 s and took
  72 ms at the median (ack p99 70 ms); at 2,000, every ~20 s, 1 ms to 178 ms (ack p99 69 ms);
  at 20,000 every ~4 minutes, but the cyclic garbage that outlived a gen-0 collection (each
  interaction leaves some, as discord.py's point back at themselves) piled up in generation 1
  for as long, and that collection froze the loop for 965 ms. So 2,000.
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
