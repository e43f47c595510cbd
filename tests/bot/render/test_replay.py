"""The replay of a hand (``bot.render.replay``): for every game and player count, a seeded
finished game's frames follow its recorded moves one for one (the hands as dealt, one frame per
move captioned with that move's narration, the summary), and the picture is a GIF that Discord
takes."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.records.record import played, steps
from bot.render import replay
from bot.render.presenter import Seating, presenter_for
from tests.golden.fingerprint import cells

SHORT = {"troika": {"end": "rounds", "rounds": 1}, "troggu": {"deals": 1}}


def record_of(name: str, players: int) -> dict:
    return played(name, players, SHORT.get(name), seed=4)


@pytest.mark.parametrize(("name", "players"), cells(), ids=lambda v: str(v))
def test_the_frames_follow_the_recorded_moves_one_for_one(name: str, players: int) -> None:
    record = record_of(name, players)
    names = [f"P{seat}" for seat in range(players)]
    presenter = presenter_for(name)
    seating = Seating(names=tuple(names), options=record["options"])
    # The first hand's moves and what each one says, straight from the record.
    said: dict[int, tuple[str, ...]] = {}
    for number, (_move, events, _game) in enumerate(steps(record), 1):
        lines = (presenter.narrate(dict(e), seating) for e in events)
        said[number] = tuple(replay._plain(line) for line in lines if line)
        if any(e.get("type") == "hand_over" for e in events):
            break
    stills = replay.frames(record, 1, names)
    start, turns, summary = stills[0], stills[1:-1], stills[-1]
    assert start.caption == () and start.moves == () and len(start.hands) == players
    # Every move of the hand in exactly one frame, in order, with its own words.
    assert [n for still in turns for n in still.moves] == list(said)
    for still in turns:
        assert still.caption == tuple(line for n in still.moves for line in said[n])
        assert still.seconds > 0
    assert summary.table is None and summary.caption
    with pytest.raises(replay.NoSuchHand):
        replay.frames(record, replay.hands_in(record) + 1, names)


def test_a_turn_of_several_moves_is_one_frame() -> None:
    record = record_of("troikuntza", 4)
    stills = replay.frames(record, 1, ["A", "B", "C", "D"])
    assert any(len(still.moves) > 1 for still in stills)  # take and discard: one turn
    turns = stills[1:-1]
    seats = [record["actions"][still.moves[0] - 1]["seat"] for still in turns]
    for before, after, seat, next_seat in zip(turns, turns[1:], seats, seats[1:], strict=False):
        # The same player twice in a row only after a move that said several things.
        assert seat != next_seat or len(before.caption) > 1, (before, after)


def test_the_picture_is_an_animated_gif_at_phone_width() -> None:
    record = record_of("troika", 4)
    stills = replay.frames(record, 1, ["Ann", "Bob", "王小明", "Dan"])
    gif = replay.draw(tuple(stills))
    image = Image.open(io.BytesIO(gif))
    assert image.format == "GIF" and image.n_frames == len(stills)
    assert image.width == replay.WIDTH and len(gif) < replay.UPLOAD_LIMIT
