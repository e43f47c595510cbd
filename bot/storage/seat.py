"""One seat of a table: the one shape of a seat, as the service holds it, hands it to clients
(``Table.seats``) and the database stores it (one ``seats`` row per ``Seat``, its fields the
row's columns in order: ``repository.SEAT_COLUMNS``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Seat:
    """One seat. ``index`` is the engine's seat number once the game has started.

    A human who leaves during play keeps his ``user_id`` / ``name`` (for the records) but his
    seat gets ``ai_level`` and ``left_at`` (when he left): the AI plays it from then on.
    """

    index: int
    name: str
    user_id: int | None = None
    ai_level: str | None = None
    team: int | None = None
    left_at: float | None = None
    #: Turns in a row the timer decided for this human (reset by any move of his).
    timeouts: int = 0
    #: When he was marked away (``away_after`` timeouts in a row): the AI plays for him without
    #: waiting for his timer until he acts again. None while he is present.
    away_at: float | None = None
    #: He was removed by the host during play (his seat went to the AI): he cannot rejoin it.
    kicked: bool = False

    @property
    def away(self) -> bool:
        """The human is seated but away: the AI moves for him at once."""
        return self.away_at is not None and not self.is_ai

    @property
    def autoplay(self) -> bool:
        """The AI moves for this seat without waiting: an AI seat, or an away human."""
        return self.is_ai or self.away

    @property
    def left(self) -> bool:
        """The human left during play (the AI plays his seat)."""
        return self.left_at is not None

    @property
    def is_ai(self) -> bool:
        """True when the AI moves for this seat (an AI seat, or a human who left)."""
        return self.ai_level is not None

    @property
    def is_human(self) -> bool:
        """A user sits here and still plays himself."""
        return self.user_id is not None and not self.is_ai
