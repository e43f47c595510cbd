"""The replay viewer's steps: a finished game's record, replayed by the engine, one move at a time.

Step ``k`` is the game after its first ``k`` moves (step 0: as dealt): every seat's view (all
hands shown: the game is over, nothing is hidden any more), the public view, the move and its
narration in the reader's language, the end of a hand when the move ended one, and the score
sheet. The page holds no rules: it draws what a step says. Each step replays the record from its
deal (a few thousand moves at most, milliseconds), so no game state is kept between requests.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import engine
from bot.i18n import N_, _, use_locale
from bot.records.record import deal, steps
from bot.render import embeds
from bot.render.presenter import Seating, presenter_for
from bot.render.replay import _plain as plain

#: The viewer's own words (the table's come from ``frames.strings``).
VIEWER_STRINGS = (
    N_("As dealt"),
    N_("First"),
    N_("Back"),
    N_("Forward"),
    N_("Last"),
    N_("Move {k} of {n}"),
    N_("Cards in hand"),
)


def strings(language: str) -> dict[str, str]:
    """The viewer's words in ``language``, keyed by English."""
    with use_locale(language):
        return {text: _(text) for text in VIEWER_STRINGS}


def total(record: Mapping[str, Any]) -> int:
    """The number of the last step (the number of moves)."""
    return len(record["actions"])


def seats(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The seats as the table page reads them (nobody is "you": a replay has no reader seat)."""
    out = []
    for seat in sorted(record["seats"], key=lambda s: int(s["seat"])):
        ai = seat.get("user_id") is None and seat.get("ai_level") is not None
        name = str(seat.get("name") or "")
        out.append(
            {
                "seat": int(seat["seat"]),
                "name": embeds.ai_name(name, seat.get("ai_level")) if ai else name,
                "ai": ai,
                "away": False,
                "left": False,
                "you": False,
            }
        )
    return out


def step_frame(record: Mapping[str, Any], step: int, language: str) -> dict[str, Any]:
    """Step ``step`` (0 to ``total(record)``) of the record, for a reader of ``language``."""
    if not 0 <= step <= total(record):
        raise IndexError(step)
    game = deal(record)
    events: list[Mapping[str, Any]] = []
    if step:
        for number, (_move, move_events, after) in enumerate(steps(record), 1):
            if number == step:
                game, events = after, list(move_events)
                break
    move = record["actions"][step - 1] if step else None
    with use_locale(language):
        presenter = presenter_for(game.name)
        shown = seats(record)
        seating = Seating(
            names=tuple(s["name"] for s in shown), options=dict(record.get("options") or {})
        )
        caption = [plain(line) for e in events if (line := presenter.narrate(dict(e), seating))]
        summary: list[str] = []
        for event in events:
            if event.get("type") == "hand_over":
                summary += embeds.sections_text(presenter.summary(dict(event), seating))
        public = game.view(None)
        sheet = embeds.sections_text(presenter.score_sheet(public, seating))
        spec = engine.GAMES.get(game.name)
        title = _(spec.title) if spec else game.name
        label = presenter.action_label(move["action"]) if move else None
    return {
        "type": "step",
        "step": step,
        "total": total(record),
        "id": record.get("id"),
        "game": game.name,
        "title": title,
        "seats": shown,
        "to_act": [] if game.is_over() else list(game.to_act()),
        "views": [dict(game.view(seat)) for seat in range(game.players)],
        "public": dict(public),
        "move": None if move is None else {"seat": move["seat"], "action": move["action"]},
        "label": label,
        "caption": caption,
        "summary": summary,
        "sheet": sheet,
        "over": game.is_over(),
    }
