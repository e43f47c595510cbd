"""Seat names are written once per table's seats and language (``embeds.names_of``), yet follow
every change of a seat and the reader's language."""

from __future__ import annotations

import dataclasses

import pytest

from bot.i18n import PSEUDO, use_locale
from bot.i18n.core import forget_catalogs
from bot.render import embeds
from tests.bot.render.playing_table import playing_table


def test_names_follow_a_seat_that_changes_and_the_readers_language() -> None:
    table = playing_table("troika", 4)
    assert embeds.names_of(table) == ["ann0", "bob1", "cid2", "dee3"]
    # bob leaves: the AI plays his seat, and the next state says so.
    seats = list(table.seats)
    seats[1] = dataclasses.replace(seats[1], ai_level="normal", left_at=1.0)
    left = dataclasses.replace(table, seats=tuple(seats), move_number=table.move_number + 1)
    assert embeds.names_of(left)[1] == "bob1 (AI)"
    # An AI seat's name is in the reader's language.
    seats[2] = dataclasses.replace(seats[2], name="AI 3 (hard)", user_id=None, ai_level="hard")
    ai = dataclasses.replace(left, seats=tuple(seats))
    assert embeds.names_of(ai)[2] == "AI 3 (hard) 🤖"
    with use_locale(PSEUDO):
        named = embeds.names_of(ai)
    assert named[2].startswith("⟦") and named[0] == "ann0", named
    # The same seats in English again: the English names, not the last language's.
    assert embeds.names_of(ai)[2] == "AI 3 (hard) 🤖"
    # A state of the table with the same seats is named the same (and the seating with it).
    again = dataclasses.replace(ai, move_number=ai.move_number + 1)
    assert embeds.names_of(again) == embeds.names_of(ai)
    assert embeds.seating_of(again, 0).names == tuple(embeds.names_of(ai))
    assert embeds.seating_of(again, 0).viewer == 0 and embeds.seating_of(again).viewer is None


def test_a_seating_takes_its_names_from_the_last_state_only_while_its_seats_are_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    named: list[object] = []
    name_them = embeds._names_of
    monkeypatch.setattr(embeds, "_names_of", lambda t: named.append(t.seats) or name_them(t))
    table = playing_table("troika", 4)
    first = embeds.seating_of(table)
    # The next state with the very same seats (as the service makes it): the same names.
    moved = dataclasses.replace(table, move_number=table.move_number + 1, to_act=(1,))
    assert embeds.seating_of(moved).names is first.names and len(named) <= 1
    # A seat changed (a new seats tuple): named again.
    seats = list(moved.seats)
    seats[3] = dataclasses.replace(seats[3], ai_level="normal", left_at=1.0)
    left = dataclasses.replace(moved, seats=tuple(seats), move_number=moved.move_number + 1)
    assert embeds.seating_of(left).names == ("ann0", "bob1", "cid2", "dee3 (AI)")
    # In another language: that language's names, then English again for the next state.
    with use_locale(PSEUDO):
        assert embeds.seating_of(left).names[3].startswith("⟦")
        again = dataclasses.replace(left, move_number=left.move_number + 1)
        assert embeds.seating_of(again).names[3].startswith("⟦")
    assert embeds.seating_of(again).names[3] == "dee3 (AI)"
    # A reloaded catalog (its names' memo started over): the names are read again from it.
    forget_catalogs()
    named.clear()
    with use_locale(PSEUDO):
        later = dataclasses.replace(again, move_number=again.move_number + 1)
        assert embeds.seating_of(later).names[3].startswith("⟦")
    assert named == [later.seats]
