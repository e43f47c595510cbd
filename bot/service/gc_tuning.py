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
- Generation-1 threshold 150 (default 10): a generation-1 collection scans every object
  that outlived a gen-0 collection since the last one, and at 1,000 busy tables nearly all of
  them are still alive (``bench/gc_census.py``: table snapshots and views, pictures, game
  states, the clicks, tasks and timers under way): it frees little and costs ~0.65 us per
  object. Those objects live seconds, so the pause grows with the time between two
  collections. Measured with ``bench/load.py --parts --gc-thresholds`` at 1,000 tables (a
  loaded machine; the loop thread's CPU): at 2,000, one every ~13 s of 125-370 ms (the slow 1%
  of clicks nearly all waited through one: ack p99 121-155 ms on a quiet machine); at 500,
  every ~4 s, 96 ms at the median; at 150, every ~1.1 s, 33-38 ms at the median, 58 ms at most,
  ~50,000 young objects each (the census). The price: what lives 1-13 s is scanned too, 33 ms
  of the loop's second in all against 13 ms at 2,000 (~40 us per action). At 20,000 (every ~4
  minutes) the cyclic garbage that outlived a gen-0 collection piled up for as long and that
  collection took 965 ms.
- Generation-2 threshold 500 (default 10): a full collection scans every object not frozen:
  at 1,000 tables ~170,000-340,000 of them, a 160-620 ms pause (``gc_census.py --generation
  2``), and it finds almost nothing: ~380 objects of cyclic garbage had got past the frequent
  generation-1 collections in ~11 s, ~35 a second. Counted in generation-1 collections, 10 made
  one every ~11 s at the threshold of 150; 500 make one every ~9 minutes at 1,000 busy tables
  (more rarely with less traffic: the counts follow the allocations), so that garbage stays
  near ~20,000 objects, freed at each. CPython also waits for a full
  collection until the objects promoted since the last one are a quarter of those it kept (the
  first after ``gc.freeze()``: of those alive at start-up; reached within seconds when busy).

The first minute after a start is no different: what was loaded is frozen, the young set is
what the tables did since, and the first full collection comes minutes later.
"""

from __future__ import annotations

import gc

#: (gen0, gen1, gen2): see the module docstring.
THRESHOLDS = (300, 150, 500)

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
