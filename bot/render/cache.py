"""A picture that did not change is not encoded again: PNG bytes kept by a key of the inputs.

``png_cache`` wraps a function returning PNG bytes; its arguments (lists, tuples, dicts of
strings and numbers) are frozen into a hashable key. The cache is per process and thread-safe;
a picture worker keeps nothing in it (``keep_nothing``).
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from typing import Any, ParamSpec

P = ParamSpec("P")


def freeze(value: Any) -> Hashable:
    """A hashable stand-in for ``value`` (lists become tuples, dicts sorted item tuples)."""
    if isinstance(value, str | bytes | int | float | bool | type(None)):
        return value
    if isinstance(value, Mapping):
        return ("{}", tuple(sorted((str(k), freeze(v)) for k, v in value.items())))
    if isinstance(value, list | tuple | set | frozenset):
        items = sorted(value, key=repr) if isinstance(value, set | frozenset) else value
        return (type(value).__name__, tuple(freeze(v) for v in items))
    return ("repr", repr(value))


def hashable(value: Any) -> Hashable:
    """``value`` itself if it is hashable (tuples of strings and numbers, as a picture's
    arguments come: freezing them again only costs), else ``freeze(value)``. For a key whose
    parts are each of one shape (a frozen value is a ``(type name, items)`` pair, which such a
    part never is)."""
    try:
        hash(value)
    except TypeError:
        return freeze(value)
    return value


class LruBytes:
    """At most ``size`` values, the least recently used dropped first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.hits = 0
        self.misses = 0
        self._data: OrderedDict[Hashable, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> bytes | None:
        with self._lock:
            value = self._data.get(key)
            if value is None:
                self.misses += 1
                return None
            self.hits += 1
            self._data.move_to_end(key)
            return value

    def peek(self, key: Hashable) -> bytes | None:
        """The value if kept, without counting a hit or a miss or refreshing its place."""
        with self._lock:
            return self._data.get(key)

    def put(self, key: Hashable, value: bytes) -> None:
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self.size:
                self._data.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
            self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._data)


def call_key(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> Hashable:
    """The key of a call: its arguments as they are when they are hashable already (a picture's,
    made of tuples, strings and numbers: freezing them again cost a picture worker 16 us a
    picture), else frozen (``freeze``). The two kinds of key never meet: a frozen one holds
    ``("tuple", ...)`` and ``("{}", ...)`` where the other holds the arguments and their
    (name, value) pairs."""
    given = (fn.__module__, fn.__qualname__, args, tuple(sorted(kwargs.items())))
    try:
        hash(given)
    except TypeError:  # a list, a dict, a set among them
        return (fn.__module__, fn.__qualname__, freeze(args), freeze(kwargs))
    return given


#: Whether ``png_cache`` keeps what it makes in this process (``keep_nothing``).
_keeping = True


def keep_nothing() -> None:
    """From now on this process's ``png_cache``s draw every call and keep nothing: a picture
    worker's. The render pool's cache, in the bot's process, answers every picture it drew
    before, so a worker's own never did (replaying a 1,000-table minute's 21,827 pictures: 0
    hits) while it held up to 2,048 hands' PNG bytes (~25 MB) and hashed every key three
    times; the bytes of each picture, freed once sent, make room for the next one's instead
    of memory not touched for minutes (a worker's CPU per picture ~3% less, replayed)."""
    global _keeping
    _keeping = False


def keeps() -> bool:
    """Whether this process's ``png_cache``s keep what they make (not a picture worker's)."""
    return _keeping


def png_cache(size: int = 64) -> Callable[[Callable[P, bytes]], Callable[P, bytes]]:
    """Decorator: the same inputs give the bytes made the first time, without drawing again."""

    def wrap(fn: Callable[P, bytes]) -> Callable[P, bytes]:
        cache = LruBytes(size)

        @functools.wraps(fn)
        def cached(*args: P.args, **kwargs: P.kwargs) -> bytes:
            if not _keeping:
                return fn(*args, **kwargs)
            key = call_key(fn, args, kwargs)
            hit = cache.get(key)
            if hit is not None:
                return hit
            value = fn(*args, **kwargs)
            cache.put(key, value)
            return value

        cached.cache = cache  # type: ignore[attr-defined]
        return cached

    return wrap
