"""A game's narration is a table of one function per event kind (``bot.render.narration``): a
kind with no function fails loudly, a kind cannot get two, nor be both quiet and narrated."""

from __future__ import annotations

from typing import ClassVar

import pytest

import engine
from bot.render.narration import Narrators
from bot.render.presenter import Event, Presenter, Seating, UnknownEvent, presenter_for

TABLE = Seating(("Ann", "Bob", "Cid", "Dan"))


def test_a_kind_is_told_by_its_own_function() -> None:
    narrators = Narrators("toy")

    @narrators.on("play", "lead")
    def tell_play(event: Event, seating: Seating) -> str | None:
        return f"{seating.name(event.get('seat'))} plays {event.get('card')}"

    assert narrators.kinds == {"play", "lead"}
    assert narrators.tell({"type": "lead", "seat": 1, "card": "KS"}, TABLE) == "Bob plays KS"


def test_a_kind_with_no_function_raises_unknown_event() -> None:
    narrators = Narrators("toy")
    with pytest.raises(UnknownEvent, match="toy: no narration for event 'bid'"):
        narrators.tell({"type": "bid"}, TABLE)


def test_a_kind_cannot_have_two_functions() -> None:
    narrators = Narrators("toy")
    narrators.on("play")(lambda event, seating: "one")
    with pytest.raises(ValueError, match="two narrators"):
        narrators.on("play")(lambda event, seating: "two")


def test_a_kind_cannot_be_both_quiet_and_narrated() -> None:
    table = Narrators("")
    table.on("play")(lambda event, seating: "told")
    with pytest.raises(ValueError, match="both quiet and narrated"):

        class Confused(Presenter):  # (defining it is the check: no game, so not registered)
            quiet: ClassVar[frozenset[str]] = frozenset({"play"})
            narrators = table


@pytest.mark.parametrize("name", sorted(engine.GAMES))
def test_every_game_narrates_through_its_table(name: str) -> None:
    presenter = presenter_for(name)
    assert presenter.narrators is not None and presenter.narrators.game == name
    assert not presenter.quiet & presenter.narrators.kinds
    with pytest.raises(UnknownEvent):
        presenter.narrate({"type": "no_such_event", "seat": 0}, TABLE)
