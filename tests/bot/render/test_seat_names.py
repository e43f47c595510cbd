"""Seat names are written once per table's seats and language (``embeds.names_of``), yet follow
every change of a seat and the reader's language."""

from __future__ import annotations

import dataclasses

from bot.i18n import PSEUDO, use_locale
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
