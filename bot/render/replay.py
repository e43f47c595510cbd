"""``/replay``: one hand of a finished game as an animated picture (GIF), every hand revealed.

The frames come from the game's own presenter, so a replay looks like the table players saw and
works for every game without naming one: the table picture of the public view in the middle,
each seat's hand picture beside its name, the presenter's narration of the move as the caption,
the hand's summary at the end. ``frames`` walks the record (``bot.records``) in the reader's
language; ``draw`` turns the frames into the GIF in the render pool (a worker process).

Only finished games are replayed: a record exists only for them, so a replay can never show a
live table's hidden cards.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from PIL import Image, ImageDraw

from bot.records.record import deal, steps
from bot.render.fonts import draw_text, fit, text_width
from bot.render.games.faces import FELT, GOLD, WHITE
from bot.render.pictures import png
from bot.render.presenter import Picture, Seating, presenter_for

#: The picture's width: a phone's screen, where most replays are watched.
WIDTH = 400
#: Each hand row's height: cards still readable on a phone.
HAND_ROW = 64
#: The table picture's largest height (a tall one is scaled down to it).
TABLE_MAX = 300
CAPTION_SIZE = 15
CAPTION_LINES = 3
LINE = 20
#: Seconds a frame stays: a move, the end of a trick (several events at once), the summary.
MOVE_SECONDS = 0.9
#: A long hand (hundreds of turns at 10 players) plays faster, to last about this long.
LONGEST_HAND = 150.0
SHORTEST_SECONDS = 0.3
START_SECONDS = 2.5
SUMMARY_SECONDS = 6.0
#: Discord shows a GIF up to its upload limit (10 MiB without boosts); replays stay well under.
UPLOAD_LIMIT = 10 * 1024 * 1024


@dataclass(frozen=True)
class Frame:
    """One still of the replay: what ``draw`` needs, all plain data (sent to a worker)."""

    table: Picture | None
    hands: tuple[tuple[str, Picture | None], ...]
    caption: tuple[str, ...]
    seconds: float
    #: The record's moves (numbered from 1) this frame shows: a turn may be several.
    moves: tuple[int, ...] = ()


class NoSuchHand(LookupError):
    """The record has no hand of that number."""


def hands_in(record: Mapping[str, Any]) -> int:
    """How many hands (deals, rounds) the record's game played."""
    return sum(
        1 for _move, events, _game in steps(record) for e in events if e.get("type") == "hand_over"
    )


def _plain(text: str) -> str:
    """A narration line without Discord's markup (bold, italics, code, timestamps)."""
    text = re.sub(r"<t:\d+(:[a-zA-Z])?>", "", text)
    return re.sub(r"[*_`~|]{1,3}", "", text).strip()


def _still(
    game: Any, presenter: Any, seating: Seating, caption: list[str], seconds: float
) -> Frame:
    public = game.view(None)
    hands = []
    for seat in range(game.players):
        view = game.view(seat)
        hands.append((seating.name(seat), presenter.hand_picture(view, seating.for_seat(seat))))
    lines = tuple(_plain(line) for line in caption if line)
    return Frame(presenter.table_picture(public, seating), tuple(hands), lines, seconds)


def frames(record: Mapping[str, Any], hand: int, names: Sequence[str]) -> list[Frame]:
    """The frames of hand ``hand`` (from 1) of ``record``, captions in the current language:
    the hands as dealt, then each turn (a player's moves in a row: one card in a trick game;
    take, lay down and discard) with the narration of its moves, then the hand's
    summary. NoSuchHand if the game had no such hand."""
    presenter = presenter_for(str(record["game"]))
    seating = Seating(names=tuple(names), options=dict(record.get("options") or {}))
    played = 1
    turns: list[tuple[int, Frame]] = []  # (seat, frame) per move of the hand
    out: list[Frame] = [_start(record, presenter, seating)] if hand == 1 else []
    summary: Frame | None = None
    seen: list[Mapping[str, Any]] = []  # the hand's public events: for its summary
    for number, (move, events, game) in enumerate(steps(record), 1):
        ended = [e for e in events if e.get("type") == "hand_over"]
        if played == hand:
            seen += [e for e in events if e.get("private_to") is None and e not in ended]
            caption = tuple(_plain(c) for e in events if (c := presenter.narrate(dict(e), seating)))
            if ended:
                # The next deal is already on the table: the hand as it ended is the frame
                # before, with this last move's words; then the summary.
                last = turns[-1][1] if turns else _still(game, presenter, seating, [], 0)
                turns.append((int(move["seat"]), Frame(last.table, last.hands, caption, 0,
                                                       (number,))))  # fmt: skip
                told = {**ended[0], "hand_events": tuple(seen)}
                summary = _summary(presenter, told, seating)
            else:
                frame = _still(game, presenter, seating, list(caption), 0)
                turns.append((int(move["seat"]), replace(frame, moves=(number,))))
        if ended:
            played += 1
            if played > hand:
                break
            if played == hand:
                out.append(_still(game, presenter, seating, [], START_SECONDS))
    if summary is None:
        raise NoSuchHand(hand)
    merged = _turns(turns)
    seconds = max(SHORTEST_SECONDS, min(MOVE_SECONDS, LONGEST_HAND / max(1, len(merged))))
    for frame in merged:
        busy = len(frame.caption) > 1
        out.append(replace(frame, seconds=seconds * 2 if busy else seconds))
    out.append(summary)
    return out


def _turns(moves: list[tuple[int, Frame]]) -> list[Frame]:
    """One frame per turn: a move followed by another of the same seat joins it (the later
    picture, both captions, both move numbers). Not a move that said more than one thing: a
    card that won a trick keeps its frame, with the whole trick on the table, even when its
    player leads the next one."""
    out: list[tuple[int, Frame]] = []
    for seat, frame in moves:
        if out and out[-1][0] == seat and len(out[-1][1].caption) <= 1:
            before = out[-1][1]
            frame = replace(frame, caption=before.caption + frame.caption,
                            moves=before.moves + frame.moves)  # fmt: skip
            out[-1] = (seat, frame)
        else:
            out.append((seat, frame))
    return [frame for _seat, frame in out]


def _start(record: Mapping[str, Any], presenter: Any, seating: Seating) -> Frame:
    return _still(deal(record), presenter, seating, [], START_SECONDS)


def _summary(presenter: Any, event: dict[str, Any], seating: Seating) -> Frame:
    lines: list[str] = []
    for section in presenter.summary(event, seating):
        if section.title:
            lines.append(_plain(section.title))
        lines += [_plain(line) for line in section.text.splitlines() if line.strip()]
    return Frame(None, (), tuple(lines), SUMMARY_SECONDS)


# -- drawing (in a worker) ----------------------------------------------------------------------
def _scaled(
    picture: Picture | None,
    width: int,
    height: int | None = None,
    drawn: dict[Any, Any] | None = None,
) -> Image.Image | None:
    if picture is None:
        return None
    key = (picture, width, height)
    if drawn is not None and key in drawn:
        return drawn[key]  # type: ignore[no-any-return]
    image = Image.open(io.BytesIO(png(picture))).convert("RGB")
    scale = width / image.width
    if height is not None:
        scale = min(scale, height / image.height)
    size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
    image = image.resize(size, Image.Resampling.LANCZOS)
    if drawn is not None:
        drawn[key] = image  # hands change one card at a time: most pictures come back
    return image


def _caption_lines(caption: Sequence[str], width: int) -> list[str]:
    """The caption wrapped to ``width`` (whole words), so nothing is cut off."""
    out: list[str] = []
    for text in caption:
        line = ""
        for word in text.split():
            candidate = f"{line} {word}".strip()
            if line and text_width(candidate, CAPTION_SIZE) > width:
                out.append(line)
                line = word
            else:
                line = candidate
        if line:
            out.append(line)
    return out


def _draw_frame(frame: Frame, height: int, table_height: int, drawn: dict[Any, Any]) -> Image.Image:
    image = Image.new("RGB", (WIDTH, height), FELT)
    draw = ImageDraw.Draw(image)
    if frame.table is None and not frame.hands:  # the summary: text only
        y = 16
        for line in _caption_lines(frame.caption, WIDTH - 32):
            if y > height - LINE:
                break
            draw_text(draw, (16, y), line, CAPTION_SIZE, WHITE)
            y += LINE + 2
        return image
    lines = _caption_lines(frame.caption, WIDTH - 20)[-CAPTION_LINES:]
    for i, line in enumerate(lines):
        draw_text(
            draw, (10, 8 + i * LINE), line, CAPTION_SIZE, GOLD if i == len(lines) - 1 else WHITE
        )
    y = 8 + CAPTION_LINES * LINE + 4
    table = _scaled(frame.table, WIDTH, table_height, drawn)
    if table is not None:
        image.paste(table, ((WIDTH - table.width) // 2, y))
    y += table_height + 4
    for name, picture in frame.hands:
        draw_text(draw, (8, y + HAND_ROW // 2), fit(name, 13, 84), 13, WHITE, anchor="lm")
        cards = _scaled(picture, WIDTH - 96, HAND_ROW, drawn)
        if cards is not None:
            image.paste(cards, (92, y + (HAND_ROW - cards.height) // 2))
        y += HAND_ROW + 2
    return image


def draw(stills: Sequence[Frame]) -> bytes:
    """The animated GIF of ``stills`` (in a render worker: it draws every picture)."""
    drawn: dict[Any, Any] = {}
    tables = [_scaled(f.table, WIDTH, TABLE_MAX, drawn) for f in stills if f.table is not None]
    table_height = max((t.height for t in tables if t is not None), default=0)
    seats = max((len(f.hands) for f in stills), default=0)
    height = 8 + CAPTION_LINES * LINE + 4 + table_height + 4 + seats * (HAND_ROW + 2) + 6
    images = [_draw_frame(f, height, table_height, drawn) for f in stills]
    # One palette for every frame, made from a few of them: quantizing each frame on its own
    # costs most of the drawing time, and the frames share the felt and the card faces.
    sample = Image.new("RGB", (WIDTH, height * 3))
    for i, frame in enumerate(images[:: max(1, len(images) // 3)][:3]):
        sample.paste(frame, (0, i * height))
    palette = sample.quantize(colors=255, method=Image.Quantize.MEDIANCUT)
    images = [i.quantize(palette=palette, dither=Image.Dither.NONE) for i in images]
    out = io.BytesIO()
    images[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=images[1:],
        duration=[round(f.seconds * 1000) for f in stills],
        loop=0,
        optimize=True,
    )
    return out.getvalue()
