"""What a seat (or a spectator) sees of a Trinket game: never another seat's cards."""

from __future__ import annotations

from engine.views import CommonView, HandKeys, SeatedCard


class _TrinketViewKeys(CommonView):
    trick: list[SeatedCard]  # the trick on the table, in play order
    tricks: int  # tricks played so far (of 4)


class TrinketView(_TrinketViewKeys, HandKeys):
    """Every key of a Trinket view (``hand``: the seat's own cards, not the spectator's)."""
