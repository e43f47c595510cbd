"""What trick-taking games show alike: the trick on the table (as text and as a picture), a
hand grouped by suit, and card-move labels (``play 5h`` -> ``5♥️``).

Engines give a trick as ``[{"seat": 1, "card": "5H"}, ...]`` in play order and the last trick
as ``{"cards": [...], "winner": seat}``; these helpers read those shapes and nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.i18n import N_, _, _n
from bot.render.games._words import pack, said, whom
from bot.render.games.cards import face, hand_words, picture_letters, pretty, pretty_list
from bot.render.one_state import reader_in, shared
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
    """The trick in progress, or the last trick and who took it (no line before the first):
    the same for every reader it does not name (``one_state``)."""
    named = seats_of(view.get("trick"))
    last = view.get("last_trick")
    if isinstance(last, Mapping):
        named += [*seats_of(last.get("cards")), last.get("winner")]
    key = ("trick_lines", reader_in(seating, named))
    return list(shared(key, lambda: tuple(_trick_lines(view, seating))))


def seats_of(cards: Any) -> list[Any]:
    """The seats of a view's ``[{"seat", "card"}, ...]`` (whatever they hold)."""
    return [item.get("seat") for item in cards or () if isinstance(item, Mapping)]


def _trick_lines(view: View, seating: Seating) -> list[str]:
    now = trick_now(view)
    if now:
        return [_("On the table: {cards}", cards=played_text(now, seating))]
    cards, winner = last_trick(view)
    if cards:
        return [
            said(
                seating,
                winner,
                N_("Last trick: {cards} — you took it"),
                N_("Last trick: {cards} — {name} took it"),
                cards=played_text(cards, seating),
            )
        ]
    return []


def trick_picture(view: View, seating: Seating) -> Picture | None:
    """The trick in progress around the table (the last trick, captioned, when none is)."""
    played = trick_now(view)
    caption, winner = "", None
    if not played:
        played, winner = last_trick(view)
        if not played:
            return None
        # Who took it is the card framed in gold, above its player's name: a caption naming him
        # did not fit beside large cards ("bob took the…").
        caption = _("Last trick")
    to_act = list(view.get("to_act") or [])
    return Picture.of(
        "table_png",
        players=list(seating.names),
        played=played,
        viewer=seating.viewer,
        caption=caption,
        highlight=to_act[0] if len(to_act) == 1 and winner is None else None,
        winner=winner,
        **picture_letters(),
    )


def by_suit(cards: Sequence[str]) -> str:
    """A hand as it is held: suits apart (``A♤ 10♤ · K♥️ 5♥️``), in the order given."""
    return hand_words(cards, _by_suit)


def _by_suit(cards: Sequence[str]) -> str:
    groups: list[list[str]] = []
    last_suit: str | None = None
    for code in cards:
        suit = face(code).suit
        if not groups or suit != last_suit:
            groups.append([])
            last_suit = suit
        groups[-1].append(code)
    return " · ".join(pretty_list(group) for group in groups) or _("(no cards)")


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
    hidden = len(lines) - shown
    return [
        Section(
            title,
            _n("(+{n} earlier row not shown)", "(+{n} earlier rows not shown)", hidden),
        ),
        *kept,
    ]


#: The most the tricks of ``/history`` may take in one message (room is left for the previous
#: hand's summary under the 5,000 characters of a message).
HISTORY_TEXT = 3000


def finished_tricks(view: View) -> list[tuple[Played, int | None]]:
    """The completed tricks of the hand (``played_tricks``), in order, with their winners."""
    out: list[tuple[Played, int | None]] = []
    for trick in view.get("played_tricks") or []:
        if isinstance(trick, Mapping):
            winner = trick.get("winner")
            out.append((seated(trick.get("cards")), winner if isinstance(winner, int) else None))
    return out


def history_sections(
    view: View, seating: Seating, points: Callable[[list[str]], str] | None = None
) -> list[Section]:
    """``/history``: one line per completed trick (``3. Ann A♤ · Bob 9♤ → Cid (+1)``), then the
    trick on the table. ``points`` words a trick's value from its cards. When every seat's name
    on every card does not fit (8 players, 18 tricks, long names), a line names only the
    leader: the others follow in turn (``3. Ann: A♤ 9♤ 7♤ → Cid``)."""
    done = finished_tricks(view)
    now = trick_now(view)

    def lines(compact: bool) -> list[str]:
        out = []
        for number, (cards, winner) in enumerate(done, start=1):
            value = f" ({points([c for _seat, c in cards])})" if points else ""
            out.append(
                f"**{number}.** {_trick_cards(cards, seating, compact)} → "
                f"**{whom(seating, winner)}**{value}"
            )
        if now:
            cards = _trick_cards(now, seating, compact)
            # i18n: the trick being played, in /history's list of tricks
            out.append(_("**{number}.** {cards} (on the table)", number=len(done) + 1, cards=cards))
        return out

    found = lines(compact=False)
    if sum(len(line) + 1 for line in found) > HISTORY_TEXT:
        found = lines(compact=True)
    return pack(_("Tricks this hand"), found)


def _trick_cards(cards: Played, seating: Seating, compact: bool) -> str:
    if not compact or not cards:
        return played_text(cards, seating)
    shown = pretty_list([c for _seat, c in cards])
    return said(
        seating, cards[0][0], N_("you led: {cards}"), N_("{name} led: {cards}"), cards=shown
    )
