"""Text every seat's hand panel of one state of a table shows alike, made once per state and
language.

At every change of a table the acting player's panel is drawn and so is the live panel of each
other player watching his: the heading, whose turn it is, the cards on the table are
the same words for all of them. ``cogs.panels.draw_panel`` draws a panel inside
``one_state(channel, state)`` (``state``: the table's ``TableSnapshot`` the panel is drawn from,
one per state of the game); a presenter makes such a part through ``shared(key, make)``,
and the first panel of the state in that language makes it for the others. Outside a state (a
test, the terminal, the table message) ``shared`` just makes it.

A part that names seats says "you" to the reader when he is one of them: its key then holds his
seat (``reader_in``), so that only the readers it does not name share it. The panel payload test
(``tests/cogs/test_panel_payloads_kept.py``) draws every seat's panel and compares it with the
panels drawn before anything was shared.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from contextlib import AbstractContextManager
from contextvars import ContextVar
from typing import Any, TypeVar

from bot.i18n import current
from bot.render.presenter import Seating

T = TypeVar("T")

#: The parts made for the state being drawn, in the reader's language (None: no state).
_PARTS: ContextVar[dict[Hashable, Any] | None] = ContextVar("one_state_parts", default=None)
#: Each reader's parts kept from one state to the next (``kept``), in his language.
_KEPT: ContextVar[dict[Hashable, tuple[Any, Any]] | None] = ContextVar("one_state_kept",
                                                                      default=None)  # fmt: skip
#: By channel and language: the parts ``kept`` there, with what they were made from.
_LASTING: dict[int, dict[str, dict[Hashable, tuple[Any, Any]]]] = {}
#: By channel: the table state last drawn there and its parts by language. Only the latest
#: state of a table is kept (its panels are drawn together, right after its change); the state
#: is held, so that it is told from the next one by identity.
_STATES: dict[int, tuple[object, dict[str, dict[Hashable, Any]]]] = {}
STATES_KEPT = 4096


def one_state(channel: int, state: object) -> AbstractContextManager[None]:
    """Share the parts of the panels drawn in the block: they show ``state`` (one state of the
    channel's table) in the language in effect."""
    return _OneState(channel, state)


class _OneState:
    """``one_state``'s block (a class: a generator's context manager cost more than what a
    panel's heading shares)."""

    __slots__ = ("channel", "state", "tokens")

    def __init__(self, channel: int, state: object) -> None:
        self.channel, self.state = channel, state

    def __enter__(self) -> None:
        parts, kept_parts = _parts_of(self.channel, self.state, current())
        self.tokens = _PARTS.set(parts), _KEPT.set(kept_parts)

    def __exit__(self, *error: object) -> None:
        _PARTS.reset(self.tokens[0])
        _KEPT.reset(self.tokens[1])


def _parts_of(
    channel: int, state: object, language: str
) -> tuple[dict[Hashable, Any], dict[Hashable, tuple[Any, Any]]]:
    """The parts shared by the panels of ``state`` in ``language``, and those kept there."""
    found = _STATES.get(channel)
    if found is None or found[0] is not state:
        if len(_STATES) >= STATES_KEPT:
            _STATES.clear()
        found = _STATES[channel] = (state, {})
    parts = found[1].get(language)
    if parts is None:
        parts = found[1][language] = {}
    lasting = _LASTING.get(channel)
    if lasting is None:
        if len(_LASTING) >= STATES_KEPT:
            _LASTING.clear()
        lasting = _LASTING[channel] = {}
    kept_parts = lasting.get(language)
    if kept_parts is None:
        kept_parts = lasting[language] = {}
    return parts, kept_parts


def shared(key: Hashable, make: Callable[[], T]) -> T:
    """``make()``, made once per state and language when a panel of a state is drawn. ``key``
    names the part and all it depends on beside the state and the language (the reader's seat
    when the part says "you" to him: ``reader_in``)."""
    parts = _PARTS.get()
    if parts is None:
        return make()
    if key in parts:
        found: T = parts[key]
        return found
    made = parts[key] = make()
    return made


def kept(seating: Seating, name: str, inputs: tuple[Any, ...], make: Callable[[], T]) -> T:
    """``make()``, the part ``name`` of the reader's panel (``seating.viewer``), made again
    only when ``inputs`` changed since his panel at this table last made it: ``inputs`` is all
    the part reads of the view (compared by value), beside the seating's names and options and
    the language. What changes seldom (the contract all through the play) is not written again
    at every move."""
    parts = _KEPT.get()
    if parts is None:
        return make()
    key = (name, seating.viewer)
    inputs = (*inputs, seating.names, seating.options)
    found = parts.get(key)
    if found is not None and found[0] == inputs:
        made: T = found[1]
        return made
    made = make()
    parts[key] = (inputs, made)
    return made


def reader_in(seating: Seating, seats: Iterable[Any]) -> int | None:
    """The reader's seat when ``seats`` (those a part names) hold it, else None: the part is
    then the same for every reader it does not name."""
    viewer = seating.viewer
    return viewer if viewer is not None and viewer in seats else None
