"""Small wording and sizing helpers shared by the presenters of ``bot/render/games``.

Nothing here knows a game: conjugating for "You" or a name, a compact score line, and packing
lines into sections that stay inside Discord's field limits without cutting anything silently.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.render.presenter import Seating, Section, View

#: Discord's limits on one embed field, kept by every section.
FIELD_TEXT = 1024
FIELD_TITLE = 256
#: What all the sections of one message may hold together (under the 6,000 of an embed, leaving
#: room for its title, description and footer) and how many sections.
MESSAGE_TEXT = 5000
MESSAGE_SECTIONS = 20


def does(
    seating: Seating, seat: Any, third: str, second: str | None = None, mid: bool = False
) -> str:
    """``Ann plays`` / ``You play``: the verb agrees with who reads (``you play`` when ``mid``:
    in the middle of a sentence)."""
    if seating.is_you(seat):
        return f"{'you' if mid else 'You'} {second if second is not None else third}"
    return f"{seating.name(seat)} {third}"


def whom(seating: Seating, seat: Any) -> str:
    """``Ann`` / ``you``: a seat in the middle of a sentence."""
    return "you" if seating.is_you(seat) else seating.name(seat)


def whose(seating: Seating, seat: Any) -> str:
    """``Ann's`` / ``your``."""
    return "your" if seating.is_you(seat) else f"{seating.name(seat)}'s"


def cap(text: str) -> str:
    """The first letter upper case, the rest as it is (``str.capitalize`` lowers names)."""
    return text[:1].upper() + text[1:]


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``1 card``, ``3 cards``."""
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
    rule = " (lowest wins)" if lowest_wins else ""
    scores = list((result or {}).get("scores") or (view or {}).get("scores") or [])
    if not scores:
        return Section(f"Scores{rule}", "No scores yet.")
    if result is None:
        return Section(f"Scores{rule}", score_line(seating, scores))
    order = sorted(range(len(scores)), key=lambda s: scores[s] if lowest_wins else -scores[s])
    return Section(f"Final scores{rule}", score_line(seating, scores, order))


def signed_total(value: int) -> str:
    """A running total: no plus sign, a real minus sign."""
    return f"−{-value}" if value < 0 else str(value)


def names_and(names: Sequence[str]) -> str:
    """``Ann``, ``Ann and Bob``, ``Ann, Bob and Cid``."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


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
        more = f"… +{len(lines) - i} more lines"
        if len("\n".join([*kept, line])) + len(more) + 1 > limit:
            return "\n".join([*kept, more]) if kept else text[: limit - 1] + "…"
        kept.append(line)
    return "\n".join(kept)


def pack(title: str, lines: Sequence[str], limit: int = FIELD_TEXT) -> list[Section]:
    """``lines`` as one section, or several (``title``, ``title (more)``) when they do not fit
    in one field; a single over-long line is clipped with a mark."""
    sections: list[Section] = []
    current: list[str] = []
    size = 0
    for line in lines:
        line = clip(line, limit)
        if current and size + 1 + len(line) > limit:
            sections.append(
                Section(title if not sections else f"{title} (more)", "\n".join(current))
            )
            current, size = [], 0
        size += len(line) + (1 if current else 0)
        current.append(line)
    if current:
        sections.append(Section(title if not sections else f"{title} (more)", "\n".join(current)))
    return sections


def within_limits(sections: list[Section]) -> list[Section]:
    """The sections of one message inside the message limits: each field clipped to its size;
    when there are too many or they are too long together, the last ones give way to one line
    saying how many were left out (the presenters shorten their own text before this)."""
    out = [
        Section(s.title[:FIELD_TITLE], clip(s.text, FIELD_TEXT) or "—", s.inline) for s in sections
    ]

    def size(items: list[Section]) -> int:
        return sum(len(s.title) + len(s.text) for s in items)

    if len(out) <= MESSAGE_SECTIONS and size(out) <= MESSAGE_TEXT:
        return out
    dropped = 0
    while out and (len(out) >= MESSAGE_SECTIONS or size(out) > MESSAGE_TEXT - 40):
        out.pop()
        dropped += 1
    if dropped:
        out.append(Section("…", f"+{plural(dropped, 'more section')} not shown"))
    return out
