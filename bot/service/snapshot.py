"""One state of a table, as everything that shows it reads it: the publisher, the live panels,
the acting player's reply, the AI, and (next) the web table.

Each committed change of a table (a move, a seat, a setting) yields one ``TableSnapshot``. It
is immutable: what it says never changes. Its values are computed when first asked for, at most
once, and shared by every reader:

- ``table``: the public ``Table`` (seats, whose turn, deadlines...); ``seq``: the move number;
- ``public_view``: what a spectator sees of the game (None in the lobby);
- ``view(seat)``: that seat's engine view (None: the public view); ``own_view(seat)``, the same
  for its one reader (the AI of an AI seat): not kept;
- ``legal(seat)``: that seat's legal moves now (empty when he is not awaited);
- ``table_view(seat)``: the three together (``TableView``, what ``TableService.view`` returns).

Subscribing: every ``TableEvent`` delivered to a listener (``TableService.add_listener``)
carries the snapshot of the table right after its change (``event.snapshot``; None once the
table has ended: its last state is then ``event.table``), and ``ActResult.snapshot`` is the
state the acting player's move left. ``TableService.snapshot(channel)`` is the current one (a
client that connects). Listeners run with the table's lock held, so the snapshot they are handed
is current while they run; a value first asked for after the table has moved on cannot be
computed any more (the game has moved): ``StaleSnapshot`` is raised, and ``current`` says so
beforehand: read the service's current snapshot instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson

from bot.service.models import Table, TableStatus, TableView
from engine import Game

#: How a view's value is compared with a twin's (``TableSnapshot._shared``).
_JSON = orjson.OPT_NON_STR_KEYS


class StaleSnapshot(LookupError):
    """A value of a snapshot the table has moved on from, never computed while it was current."""


#: A value not computed yet (None is a value: the public view in the lobby).
_UNSET: Any = object()


class TableSnapshot:
    """One state of a table; see the module's docstring."""

    __slots__ = (
        "table",
        "_game",
        "_retired",
        "_public",
        "_views",
        "_legal",
        "_table_views",
        "_json",
    )

    def __init__(self, table: Table, game: Game | None) -> None:
        self.table = table
        #: The live game while this is the table's current state; None once retired.
        self._game: Game | None = game
        self._retired = False
        self._public: Any = _UNSET if game is not None else None
        self._views: dict[int, Mapping[str, Any]] = {}
        self._legal: dict[int, tuple[str, ...]] = {}
        self._table_views: dict[int | None, TableView] = {}
        #: The JSON of the views' values compared so far (``_shared``), by the value's id.
        self._json: dict[int, bytes] | None = None

    @property
    def seq(self) -> int:
        """The move number of this state (0 before the first move, and in the lobby)."""
        return self.table.move_number

    @property
    def current(self) -> bool:
        """The table is still in this state (every value can still be read)."""
        return not self._retired

    def retire(self) -> None:
        """The table moved on (the service's call, once the game changed)."""
        self._retired = True
        self._game = None

    # -- the values ---------------------------------------------------------------------------
    @property
    def public_view(self) -> Mapping[str, Any] | None:
        """What a spectator sees of the game; None in the lobby."""
        if self._public is _UNSET:
            self._public = self._shared(self._live().view(None))
        public: Mapping[str, Any] | None = self._public
        return public

    def view(self, seat: int | None) -> Mapping[str, Any] | None:
        """``seat``'s engine view (None: the public view; None in the lobby)."""
        if seat is None or self._public is None:
            return self.public_view
        found = self._views.get(seat)
        if found is None:
            found = self._views[seat] = self._shared(self._live().view(seat))
        return found

    def own_view(self, seat: int) -> Mapping[str, Any] | None:
        """``seat``'s engine view for the one reader of it, who reads it once: the AI of an AI
        seat, when it moves. The view made already if any; else one made for it alone, neither
        kept nor compared with the others (``_shared``): compared, it cost the AI's every move
        its lists' JSON, and kept it would outlive the move for the garbage collector to scan.
        Read only, as ``view``'s."""
        if self._public is None:
            return self.public_view
        found = self._views.get(seat)
        return self._live().view(seat) if found is None else found

    def _shared(self, view: Any) -> Any:
        """``view`` (just made by the engine) holding, for each list or dict that reads the same
        as the one under the same key of a view of this state already made, that one instead
        of its own copy: the seats' views of a state repeat most of the public one (the scores,
        the trick, the tricks played: 60-75% of their lists), and each copy is one more object
        the garbage collector scans at the next generation-1 collection (tens of thousands at
        1,000 busy tables). Reads the same: equal (``==``: a list is never a tuple) and the same
        JSON (``==`` finds ``1``, ``1.0`` and ``True`` equal, and dicts whatever their keys'
        order). A snapshot's views are read only, by every reader, as before."""
        if type(view) is not dict:
            return view
        made = [v for v in (self._public, *self._views.values()) if type(v) is dict]
        if not made:
            return view
        known = self._json
        if known is None:
            known = self._json = {}
        twins = {}
        for key, value in view.items():
            kind = type(value)
            if kind is not list and kind is not dict or not value:
                continue
            mine = None
            for other in made:
                twin = other.get(key)
                if type(twin) is not kind or twin is value or twin != value:
                    continue
                try:
                    # (Keyed by id: the twin lives as long as this snapshot's views.)
                    seen = known.get(id(twin))
                    if seen is None:
                        seen = known[id(twin)] = orjson.dumps(twin, option=_JSON)
                    if mine is None:
                        mine = orjson.dumps(value, option=_JSON)
                except TypeError:  # not JSON (no engine's view holds such): not shared
                    break
                if seen == mine:
                    twins[key] = twin
                    break
        # A new dict, the keys in their order: the engine's own is left as it gave it.
        return {**view, **twins} if twins else view

    def legal(self, seat: int | None) -> tuple[str, ...]:
        """``seat``'s legal moves now; empty when he is not awaited (or no game is played)."""
        if seat is None or self._public is None or self.table.status is not TableStatus.PLAYING:
            return ()
        found = self._legal.get(seat)
        if found is None:
            game = self._live()
            # The engine's own tuple (``Game.cached_legal_actions``): a move taken from it is
            # applied without the engine checking it again.
            found = game.cached_legal_actions(seat) if seat in game.to_act() else ()
            self._legal[seat] = found
        return found

    def table_view(self, seat: int | None) -> TableView:
        """What the user at ``seat`` sees (None: a spectator), the table with it."""
        found = self._table_views.get(seat)
        if found is None:
            table = self.table
            if self._public is None:
                found = TableView(table=table, seat=seat, game=None)
            else:
                found = TableView(
                    table=table,
                    seat=seat,
                    game=self.view(seat),
                    legal=self.legal(seat),
                    deadline=None if seat is None else table.deadlines.get(seat),
                )
            self._table_views[seat] = found
        return found

    def _live(self) -> Game:
        game = self._game
        if game is None:
            raise StaleSnapshot(f"table {self.table.id} moved on from move {self.seq}")
        return game
