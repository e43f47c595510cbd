"""What trick-taking games show alike: the trick on the table (as text and as a picture), a
hand grouped by suit, and card-move labels (``play 5h`` -> ``5♥️``).

Engines give a trick as ``[{"seat": 1, "card": "5H"}, ...]`` in play order and the last trick
as ``{"cards": [...], "winner": seat}``; these helpers read those shapes and nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.render.games._words import pack, whom
from bot.render.games.cards import face, pretty, pretty_list
from bot.render.presenter import Picture, Seating, Section, View

Played = list[tuple[int, str]]


def seated(cards: Any) -> Played:
    """``[(seat, code), ...]`` from a view's ``[{"seat", "card"}, ...]`` (anything else: [])."""
    out: Played = []
    for item in cards or []:
        if isinstance(item, Mapping) and isinstance(item.get("seat"), int) and item.get("card"):
            out.append((int(item["seat"]), str(item["card"])))
    return out


def trick_now(view: View) -> Played:
    return seated(view.get("trick"))


def last_trick(view: View) -> tuple[Played, int | None]:
    """The last complete trick and its winner (([], None) when there is none)."""
    last = view.get("last_trick")
    if not isinstance(last, Mapping):
        return [], None
    winner = last.get("winner")
    return seated(last.get("cards")), winner if isinstance(winner, int) else None


def played_text(played: Played, seating: Seating) -> str:
    """``Ann 5♥️ · you K♤`` in play order."""
    return " · ".join(f"{whom(seating, seat)} {pretty(card)}" for seat, card in played)


def trick_lines(view: View, seating: Seating) -> list[str]:
    """The trick in progress, or the last trick and who took it (no line before the first)."""
    now = trick_now(view)
    if now:
        return [f"On the table: {played_text(now, seating)}"]
    cards, winner = last_trick(view)
    if cards:
        return [f"Last trick: {played_text(cards, seating)} — {whom(seating, winner)} took it"]
    return []


def trick_picture(view: View, seating: Seating) -> Picture | None:
    """The trick in progress around the table (the last trick, captioned, when none is)."""
    played = trick_now(view)
    caption = ""
    if not played:
        played, winner = last_trick(view)
        if not played:
            return None
        caption = f"{seating.name(winner)} took the last trick" if winner is not None else ""
    to_act = list(view.get("to_act") or [])
    return Picture.of(
        "table_png",
        players=list(seating.names),
        played=played,
        viewer=seating.viewer,
        caption=caption,
        highlight=to_act[0] if len(to_act) == 1 else None,
    )


def by_suit(cards: Sequence[str]) -> str:
    """A hand as it is held: suits apart (``A♤ 10♤ · K♥️ 5♥️``), in the order given."""
    groups: list[list[str]] = []
    last_suit: str | None = None
    for code in cards:
        suit = face(code).suit
        if not groups or suit != last_suit:
            groups.append([])
            last_suit = suit
        groups[-1].append(code)
    return " · ".join(pretty_list(group) for group in groups) or "(no cards)"


def card_of_action(action: str, verb: str) -> str | None:
    """The card code of ``<verb> <card>`` (``play 5h`` -> ``5H``), else None."""
    words = action.split()
    if len(words) == 2 and words[0] == verb:
        code = words[1].upper()
        if face(code).family not in {"unknown", "hidden"}:
            return code
    return None


def sheet_pages(title: str, lines: list[str], pages: int = 4) -> list[Section]:
    """A score sheet's rows as at most ``pages`` sections, the latest kept; the first then says
    how many earlier rows did not fit (a long game's sheet stays inside one message)."""
    sections = pack(title, lines)
    if len(sections) <= pages:
        return sections
    kept = sections[-pages:]
    shown = sum(len(s.text.split("\n")) for s in kept)
    return [Section(title, f"(+{len(lines) - shown} earlier rows not shown)"), *kept]
