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
- Generation-1 threshold 2,000 (default 10): a generation-1 collection scans every object
  that outlived a gen-0 collection since the last one, and at 1,000 busy tables nearly all of
  them are still alive (``bench/gc_census.py``: table snapshots and views, pictures, the clicks,
  tasks and timers under way): it frees little and costs ~0.65 us per object, so its pause is
  the size of the tables' working set, whatever the threshold, and the threshold sets how
  often. With that set cut to ~120,000-190,000 objects at 1,000 tables (one snapshot per table, no
  past states held by caches, flat picture keys, timers instead of waiting tasks), measured
  with ``bench/load.py --parts --gc-thresholds`` at 1,000 tables, 60 s from a cold start,
  quiet machine, two interleaved pairs: at 2,000, two collections a minute of 80-122 ms (ack
  p99 24 and 41 ms, stall p99 7.0 and 8.3 ms); at 150, one every ~2.6 s of 29-32 ms at the
  median (ack p99 95 and 54 ms, stall p99 15.2 and 12.6 ms: the frequent pauses land in the
  loop's turns; ~700 ms of the loop's minute against ~200 ms). At 20,000 (every few
  minutes) the cyclic garbage that outlived a gen-0 collection piled up for as long and that
  collection took 965 ms.
- Generation-2 threshold 20 (default 10): a full collection scans every object not frozen: at
  1,000 tables ~170,000-340,000 of them, a 160-620 ms pause (``gc_census.py --generation 2``),
  and it finds little: ~35 objects a second of cyclic garbage get past generation 1. Counted in
  generation-1 collections, 20 make one every ~10 minutes at 1,000 busy tables (more rarely with
  less traffic: the counts follow the allocations), so that garbage stays near ~20,000
  objects, freed at each, and one pause of that size in ten minutes touches ~0.1% of clicks.
  CPython also waits for a full collection until the objects promoted since the last one are
  a quarter of those it kept (the first after ``gc.freeze()``: of those alive at start-up).

The first minute after a start is no different: what was loaded is frozen, the young set is
what the tables did since, and the first full collection comes minutes later.
"""

from __future__ import annotations

import gc

#: (gen0, gen1, gen2): see the module docstring.
THRESHOLDS = (300, 2000, 20)

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
