"""A game's narration as a table: one function per event kind, registered by kind.

A presenter's ``tell`` looks the event's kind up in its game's ``Narrators``; a kind with no
function there raises ``UnknownEvent`` (a failing test, never a raw line), so a new event kind
cannot slip past narration unnoticed, and each kind's wording is one short function to read.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.render.presenter import Event, Seating, UnknownEvent

#: Tells one event to ``seating.viewer``: a line, or None when it says nothing worth a line.
Narrator = Callable[[Event, Seating], str | None]


class Narrators:
    """One game's narrators by event kind (``@NARRATORS.on("play")`` registers one)."""

    def __init__(self, game: str) -> None:
        self.game = game
        self._by_kind: dict[str, Narrator] = {}

    def on(self, *kinds: str) -> Callable[[Narrator], Narrator]:
        """Register the decorated function as the narrator of ``kinds``."""

        def register(narrator: Narrator) -> Narrator:
            for kind in kinds:
                if kind in self._by_kind:
                    raise ValueError(f"{self.game}: two narrators for event {kind!r}")
                self._by_kind[kind] = narrator
            return narrator

        return register

    @property
    def kinds(self) -> frozenset[str]:
        """The event kinds that have a narrator."""
        return frozenset(self._by_kind)

    def tell(self, event: Event, seating: Seating) -> str | None:
        narrator = self._by_kind.get(str(event.get("type", "")))
        if narrator is None:
            raise UnknownEvent(f"{self.game}: no narration for event {event.get('type')!r}")
        return narrator(event, seating)
