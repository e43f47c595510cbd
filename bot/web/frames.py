"""The frames the server sends a page: what one user may see of the table, as JSON data.

A ``state`` frame is whole (the page draws from it alone, so a page that missed frames, or
reconnects, is right again at the next one): the table (seats with their marks, whose turn, the
deadlines), the user's engine view (``view(seat)``; a watcher's is the public one), his legal
moves with their labels in his language, and the game's own text sections as the Discord table
message shows them. ``seq`` numbers a table's frames in commit order; ``move`` is the table's
move number, which a move from the page names (a move made on an older table is stale).
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import orjson

from bot.i18n import N_, _, _p, use_locale
from bot.render import embeds
from bot.render.presenter import Seating, presenter_for
from bot.service import Table
from bot.web.adapter import UserState

#: Per-game web folders: ``bot/render/games/<game>/web/`` (static files only).
GAMES_DIR = Path(__file__).resolve().parent.parent / "render" / "games"

#: The page's own words (the game's come from its folder's ``strings.json``: msgids the game's
#: presenter already has in the catalogs).
PAGE_STRINGS = (
    N_("Your turn"),
    N_("Waiting for {names}"),
    N_("Watching"),
    N_("Connecting…"),
    N_("Connection lost: reconnecting…"),
    N_("Tricks"),
    N_("Cards"),
    N_("AI"),
    N_("Away"),
    N_("Last trick"),
    N_("Close"),
    N_("Score sheet"),
    N_("The game is over."),
    N_("There is no table here. Open one first."),
    N_("You"),
    N_("Score"),
    N_("Seat {n}"),
    # Inside Discord (an Activity): a watcher's seat, the host's start, the lobby.
    N_("Take a seat"),
    N_("Start the game"),
    N_("Waiting for the host to start the game."),
    N_("In this Activity"),
)


def game_web_dir(game: str) -> Path | None:
    """The game's web folder, if it has one (a game without one gets the generic table)."""
    folder = GAMES_DIR / game / "web"
    return folder if (folder / "game.js").is_file() else None


@functools.cache
def _game_msgids(game: str) -> tuple[str, ...]:
    folder = game_web_dir(game)
    if folder is None or not (folder / "strings.json").is_file():
        return ()
    data = json.loads((folder / "strings.json").read_text())
    return tuple(str(text) for text in data)


def strings(game: str, language: str) -> dict[str, str]:
    """Every word the page and the game's web module show, in ``language``, keyed by English."""
    with use_locale(language):
        out = {text: _(text) for text in PAGE_STRINGS}
        for text in _game_msgids(game):  # "context|msgid" for a msgid with a context
            context, bar, msgid = text.partition("|")
            out[text] = _p(context, msgid) if bar else _(text)
        return out


def seats(state: UserState) -> list[dict[str, Any]]:
    table = state.table
    out = []
    for seat in sorted(table.seats, key=lambda s: s.index):
        ai = seat.is_ai and seat.user_id is None
        out.append(
            {
                "seat": seat.index,
                "name": embeds.ai_name(seat.name, seat.ai_level) if ai else seat.name,
                "ai": seat.is_ai,
                "away": seat.away,
                "left": seat.left,
                "you": state.seat == seat.index,
                # Its Discord user (public: the table message names him too), so that an
                # Activity's page marks who is in the Activity with it.
                "user": str(seat.user_id) if seat.user_id is not None else None,
            }
        )
    return out


@functools.lru_cache(maxsize=8192)
def _label(game: str, language: str, action: str) -> str:
    """A move's label on the page: the presenter's, which depends on the move and the language
    alone (kept: the same moves come back every hand, and a frame has up to ~20 of them)."""
    with use_locale(language):
        return presenter_for(game).action_label(action)


def state_frame(
    state: UserState,
    seq: int,
    language: str,
    now: float,
    summary: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The ``state`` frame for one user (``state``: what he may see), in his language."""
    table = state.table
    labels = {action: _label(table.game, language, action) for action in state.legal}
    with use_locale(language):
        title = _(table.title)
    return {
        "type": "state",
        "seq": seq,
        "move": table.move_number,
        "now": now,
        "game": table.game,
        "title": title,
        "status": str(table.status),
        "seat": state.seat,
        "seats": seats(state),
        "to_act": list(table.to_act),
        "deadlines": {str(seat): at for seat, at in table.deadlines.items()},
        "window_deadline": table.window_deadline,
        "view": dict(state.view) if state.view is not None else None,
        "legal": list(state.legal),
        "labels": labels,
        "summary": summary,
        # What an Activity's reader may do besides moves (the page offers it inside Discord).
        "can_join": state.seat is None and _has_room(table),
        "can_start": str(table.status) == "lobby" and _is_host(state),
    }


def _has_room(table: Table) -> bool:
    """A seat someone may take: a free one in the lobby, one the AI holds in play (the service
    still says no to a closed table)."""
    if str(table.status) == "lobby":
        return len(table.seats) < table.max_players
    return str(table.status) == "playing" and any(seat.is_ai for seat in table.seats)


def _is_host(state: UserState) -> bool:
    seat = state.table.seat(state.seat) if state.seat is not None else None
    return seat is not None and seat.user_id == state.table.host_id


def seating(table: Table, viewer: int | None = None) -> Seating:
    """The presenter's seating with the names as the page shows them (its AI mark is a badge of
    the page, not a pictograph in the text)."""
    names = [seat["name"] for seat in seats(UserState(table, viewer, None, ()))]
    return dataclasses.replace(embeds.seating_of(table, viewer), names=tuple(names))


def summary_lines(game: str, table: Table, details: Mapping[str, Any], language: str) -> list[str]:
    """The end of a hand as the game's presenter tells it (public: every reader the same)."""
    with use_locale(language):
        presenter = presenter_for(game)
        return embeds.sections_text(presenter.summary(details, seating(table)))


def final_lines(table: Table, result: Mapping[str, Any], language: str) -> list[str]:
    """The game's end as the final table message tells it."""
    with use_locale(language):
        presenter = presenter_for(table.game)
        return embeds.sections_text(presenter.final(result, seating(table)))


def sheet_frame(state: UserState, language: str, kind: str) -> dict[str, Any]:
    """On request (not in every frame: the presenter's text costs more than the frame): the
    table as the Discord message tells it (``info``), or the score sheet and the history of
    the hand (``sheet``)."""
    lines: list[str] = []
    if state.view:
        with use_locale(language):
            presenter = presenter_for(state.table.game)
            seated = seating(state.table, state.seat)
            if kind == "info":
                lines = embeds.sections_text(presenter.table_sections(state.view, seated))
            else:
                lines = embeds.sections_text(presenter.score_sheet(state.view, seated))
                lines += ["", *embeds.sections_text(presenter.history(state.view, seated))]
    return {"type": "sheet", "lines": lines}


def encode(frame: Mapping[str, Any]) -> str:
    """A frame as the text a page receives: compact JSON, encoded once and shared by every page
    that sees the same (orjson: a frame's encoding was the web's largest cost in the bot's loop,
    ~10 times the stdlib's). Anything orjson refuses goes the stdlib's way."""
    try:
        return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(frame, separators=(",", ":"))


def wire(text: str) -> bytes:
    """``text`` as the bytes of a websocket text frame from the server (RFC 6455: final, not
    masked, not compressed), built once and written as they are to every page that sees the
    same frame."""
    payload = text.encode()
    size = len(payload)
    if size < 126:
        head = bytes((0x81, size))
    elif size < 1 << 16:
        head = bytes((0x81, 126)) + size.to_bytes(2, "big")
    else:
        head = bytes((0x81, 127)) + size.to_bytes(8, "big")
    return head + payload


def error_frame(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}
