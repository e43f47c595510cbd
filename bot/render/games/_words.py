"""Small wording and sizing helpers shared by the presenters of ``bot/render/games``.

Nothing here knows a game: conjugating for "You" or a name, a compact score line, and packing
lines into sections that stay inside Discord's field limits without cutting anything silently.

Every word is in the reader's language (``bot.i18n``): a sentence about a seat is best written
whole twice, for the reader and for another player (``said``), since languages conjugate, order
and agree differently; ``does``/``whom``/``whose`` compose a subject with an already translated
verb where a whole sentence per case would be too many.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.i18n import _, _n, _p
from bot.render.presenter import Seating, Section, View

#: Discord's limits on one embed field, kept by every section.
FIELD_TEXT = 1024
FIELD_TITLE = 256
#: What all the sections of one message may hold together (under the 6,000 of an embed, leaving
#: room for its title, description and footer) and how many sections.
MESSAGE_TEXT = 5000
MESSAGE_SECTIONS = 20


def said(seating: Seating, seat: Any, you: str, other: str, /, **params: Any) -> str:
    """One sentence about ``seat`` in the reader's language: the template ``you`` when the reader
    is that seat, else ``other`` with ``{name}`` the seat's name; both marked with ``N_`` by the
    caller (``said(s, seat, N_("You play {card}"), N_("{name} plays {card}"), card=c)``)."""
    if seating.is_you(seat):
        return _(you, **params) if params else _(you)
    return _(other, name=seating.name(seat), **params)


def does(
    seating: Seating, seat: Any, third: str, second: str | None = None, mid: bool = False
) -> str:
    """``Ann plays`` / ``You play``: the verb agrees with who reads (``you play`` when ``mid``:
    in the middle of a sentence). The verbs come translated by the caller
    (``_p("verb, he", "plays")``); prefer ``said`` for a whole sentence."""
    if seating.is_you(seat):
        subject = _p("mid-sentence", "you") if mid else _p("sentence start", "You")
        verb = second if second is not None else third
    else:
        subject, verb = seating.name(seat), third
    # i18n: a subject and its verb (``Ann plays``, ``You play``): translate only the order
    return _p("subject and verb", "{subject} {verb}", subject=subject, verb=verb)


def whom(seating: Seating, seat: Any) -> str:
    """``Ann`` / ``you``: a seat in the middle of a sentence."""
    return _p("mid-sentence", "you") if seating.is_you(seat) else seating.name(seat)


def whose(seating: Seating, seat: Any) -> str:
    """``Ann's`` / ``your``."""
    if seating.is_you(seat):
        return _("your")
    # i18n: a player's (``Ann's``), before a noun
    return _("{name}'s", name=seating.name(seat))


def cap(text: str) -> str:
    """The first letter upper case, the rest as it is (``str.capitalize`` lowers names)."""
    return text[:1].upper() + text[1:]


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``1 card``, ``3 cards``: English only (what a player reads goes through ``_n``)."""
    return f"{count} {noun if count == 1 else many or noun + 's'}"


def signed(value: int) -> str:
    """``+30``, ``−10``, ``0`` (a real minus sign: it reads as one on a phone)."""
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "0"


def score_line(seating: Seating, scores: Sequence[int], order: Iterable[int] | None = None) -> str:
    """``Ann 32 · Bob 18 · Cid −4``, in seat order unless ``order`` is given."""
    seats = list(order) if order is not None else list(range(len(scores)))
    return " · ".join(f"{seating.name(s)} {signed_total(scores[s])}" for s in seats)


def seat_scores(
    view: View | None,
    result: Mapping[str, Any] | None,
    seating: Seating,
    lowest_wins: bool = False,
) -> Section:
    """The per-seat scores section of a game scored seat by seat: the result's (ranked best
    first) once it is over, else the view's."""
    title = _("Scores (lowest wins)") if lowest_wins else _("Scores")
    scores = list((result or {}).get("scores") or (view or {}).get("scores") or [])
    if not scores:
        return Section(title, _("No scores yet."))
    if result is None:
        return Section(title, score_line(seating, scores))
    order = sorted(range(len(scores)), key=lambda s: scores[s] if lowest_wins else -scores[s])
    final = _("Final scores (lowest wins)") if lowest_wins else _("Final scores")
    return Section(final, score_line(seating, scores, order))


def signed_total(value: int) -> str:
    """A running total: no plus sign, a real minus sign."""
    return f"−{-value}" if value < 0 else str(value)


def names_and(names: Sequence[str]) -> str:
    """``Ann``, ``Ann and Bob``, ``Ann, Bob and Cid``."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    # i18n: {names} is a comma-separated list of player names, {last} the last name
    return _("{names} and {last}", names=", ".join(names[:-1]), last=names[-1])


def table_block(header: Sequence[str], rows: Sequence[Sequence[str]], first: int) -> str:
    """A monospace table (a paper score sheet): ``first`` is the width of the row labels, the
    other columns are right-aligned to their widest cell."""
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(1, len(header))]
    lines = []
    for row in [header, *rows]:
        cells = [str(row[0]).ljust(first)[:first]]
        cells += [str(c).rjust(w) for c, w in zip(row[1:], widths, strict=True)]
        lines.append(" ".join(cells).rstrip())
    return "```\n" + "\n".join(lines) + "\n```"


def clip(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters: whole lines first, then says how many were left
    out (never a silent cut)."""
    if len(text) <= limit:
        return text
    lines = text.split("\n")
    kept: list[str] = []
    for i, line in enumerate(lines):
        more = _n("… +{n} more line", "… +{n} more lines", len(lines) - i)
        if len("\n".join([*kept, line])) + len(more) + 1 > limit:
            return "\n".join([*kept, more]) if kept else text[: limit - 1] + "…"
        kept.append(line)
    return "\n".join(kept)


def pack(
    title: str, lines: Sequence[str], limit: int = FIELD_TEXT, role: str = ""
) -> list[Section]:
    """``lines`` as one section, or several (``title``, ``title (more)``) when they do not fit
    in one field; a single over-long line is clipped with a mark."""
    sections: list[Section] = []
    current: list[str] = []
    size = 0
    for line in lines:
        line = clip(line, limit)
        if current and size + 1 + len(line) > limit:
            sections.append(Section(_more(title, sections), "\n".join(current), role=role))
            current, size = [], 0
        size += len(line) + (1 if current else 0)
        current.append(line)
    if current:
        sections.append(Section(_more(title, sections), "\n".join(current), role=role))
    return sections


def _more(title: str, before: list[Section]) -> str:
    """A section's title, ``title (more)`` for the ones that follow the first."""
    # i18n: the title of a section continued from the previous one
    return _("{title} (more)", title=title) if before else title


def within_limits(sections: list[Section]) -> list[Section]:
    """The sections of one message inside the message limits: each field clipped to its size;
    when there are too many or they are too long together, the last ones give way to one line
    saying how many were left out (the presenters shorten their own text before this)."""
    # Nearly always every section fits as it is (a panel at every move): kept, not made again.
    total = 0
    for s in sections:
        if len(s.title) > FIELD_TITLE or not s.text or len(s.text) > FIELD_TEXT:
            break
        total += len(s.title) + len(s.text)
    else:
        if len(sections) <= MESSAGE_SECTIONS and total <= MESSAGE_TEXT:
            return list(sections)
    out = [
        Section(s.title[:FIELD_TITLE], clip(s.text, FIELD_TEXT) or "—", s.inline, s.role)
        for s in sections
    ]

    def size(items: list[Section]) -> int:
        return sum(len(s.title) + len(s.text) for s in items)

    if len(out) <= MESSAGE_SECTIONS and size(out) <= MESSAGE_TEXT:
        return out
    # The player's move is what the message is for: the sections before it give way first.
    moves = [s for s in out if s.role == "move"]
    out = [s for s in out if s.role != "move"]
    dropped = 0
    while out and (
        len(out) + len(moves) >= MESSAGE_SECTIONS or size(out + moves) > MESSAGE_TEXT - 40
    ):
        out.pop()
        dropped += 1
    if dropped:
        out.append(
            Section("…", _n("+{n} more section not shown", "+{n} more sections not shown", dropped))
        )
    return out + moves


def cards(count: int) -> str:
    """``1 card``, ``5 cards``."""
    return _n("{n} card", "{n} cards", count)


def points(count: int) -> str:
    """``1 point``, ``5 points``."""
    return _n("{n} point", "{n} points", count)


def game_over_line(winners: Sequence[str]) -> str:
    """The narration of a game's end: ``🏆 **Game over: Ann and Bob won.**``."""
    if winners:
        return _("🏆 **Game over: {names} won.**", names=names_and(winners))
    return _("🏆 **Game over: nobody won.**")
