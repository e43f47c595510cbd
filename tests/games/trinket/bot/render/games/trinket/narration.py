"""Trinket: one narrator per event kind it tells (``NARRATORS``); the end of the hand and of
the game are quiet (the final message says them)."""

from __future__ import annotations

from bot.i18n import N_
from bot.render.games._words import said
from bot.render.games.cards import pretty
from bot.render.narration import Narrators
from bot.render.presenter import Event, Seating

NARRATORS = Narrators("trinket")


@NARRATORS.on("play")
def tell_play(event: Event, seating: Seating) -> str | None:
    card = pretty(str(event.get("card")))
    seat = event.get("seat")
    return said(seating, seat, N_("You lay down {card}"), N_("{name} lays down {card}"), card=card)


@NARRATORS.on("trick")
def tell_trick(event: Event, seating: Seating) -> str | None:
    seat = event.get("seat")
    return said(seating, seat, N_("You take the trinket"), N_("{name} takes the trinket"))
