"""``bot.render.cache``: a call's key is its arguments as given when they are hashable (a
picture's), frozen when not; the two kinds never take each other's value."""

from __future__ import annotations

import pytest

from bot.render import cache
from bot.render.cache import freeze, hashable, png_cache


def test_hashable_arguments_are_their_own_key_and_lists_are_frozen() -> None:
    calls: list[object] = []

    @png_cache(8)
    def draw(cards: object, dim: object = ()) -> bytes:
        calls.append(cards)
        return repr((cards, dim)).encode()

    first = draw(("AS", "KH"), dim=(1,))
    assert draw(("AS", "KH"), dim=(1,)) is first  # a hit, not drawn again
    listed = draw(["AS", "KH"], dim=[1])
    assert draw(["AS", "KH"], dim=[1]) is listed
    # A tuple shaped as a frozen list is neither the list's key nor its value.
    shaped = draw(("list", ("AS", "KH")), dim=("list", (1,)))
    assert shaped == repr((("list", ("AS", "KH")), ("list", (1,)))).encode()
    assert calls == [("AS", "KH"), ["AS", "KH"], ("list", ("AS", "KH"))]
    assert draw.cache.hits == 2  # type: ignore[attr-defined]


def test_hashable_keeps_a_hashable_value_and_freezes_the_rest() -> None:
    places = (("AS", 1), (None, 0))
    assert hashable(places) is places
    assert hashable([["AS", 1]]) == freeze([["AS", 1]])


def test_a_process_that_keeps_nothing_draws_every_call(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "_keeping", True)  # put back after the test: this process keeps
    calls: list[object] = []

    @png_cache(8)
    def draw(cards: object) -> bytes:
        calls.append(cards)
        return repr(cards).encode()

    draw(("AS",))
    assert draw(("AS",)) == b"('AS',)" and len(calls) == 1  # kept
    cache.keep_nothing()
    assert not cache.keeps()
    assert draw(("KH",)) == draw(("KH",)) == b"('KH',)"
    assert calls == [("AS",), ("KH",), ("KH",)]  # drawn at every call, nothing more kept
    assert len(draw.cache) == 1  # type: ignore[attr-defined]
