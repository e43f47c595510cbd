"""Every picture keeps its pixels: seeded samples of each drawing function
(``picture_samples.py``) decoded from their PNG bytes and hashed, against the hashes kept in
``picture_pixels.json``. The PNG bytes may change (how they are encoded); what a player sees
may not. A change meant to alter pixels updates the reference (run this file as a script) and
says so, with before/after screenshots."""

from __future__ import annotations

import hashlib
import io
import json
import random
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(1, str(Path(__file__).parents[3]))  # the repository, when run as a script
from picture_samples import DUTCH, drawing, samples  # noqa: E402

from bot.render.games import images  # noqa: E402

REFERENCE = Path(__file__).with_name("picture_pixels.json")


def pixels(png: bytes) -> str:
    """The hash of what the picture shows: its size and every pixel's colour (whatever the
    palette's order or the PNG's encoding)."""
    image = Image.open(io.BytesIO(png))
    rgb = image.convert("RGB")
    return hashlib.sha256(repr(rgb.size).encode() + rgb.tobytes()).hexdigest()


def hashes() -> dict[str, str]:
    return {name: pixels(drawing(draw)(**kwargs)) for name, draw, kwargs in samples()}


@pytest.fixture(scope="module")
def drawn() -> dict[str, str]:
    return hashes()


def test_the_samples_are_all_in_the_reference(drawn: dict[str, str]) -> None:
    assert sorted(drawn) == sorted(json.loads(REFERENCE.read_text()))


@pytest.mark.parametrize("name", [name for name, _, _ in samples()])
def test_a_picture_keeps_its_pixels(name: str, drawn: dict[str, str]) -> None:
    assert drawn[name] == json.loads(REFERENCE.read_text()).get(name)


if __name__ == "__main__":  # write the reference again (after a change meant to alter pixels)
    REFERENCE.write_text(json.dumps(hashes(), indent=1, sort_keys=True) + "\n")


def _busy_background(rng: random.Random) -> Image.Image:
    """Stripes of random colours: whatever a ready-made piece is pasted over."""
    image = Image.new("RGB", (200, 220), tuple(rng.randrange(256) for _ in range(3)))
    draw = ImageDraw.Draw(image)
    for y in range(0, 220, 3):
        draw.line((0, y, 200, y + rng.randrange(9)), tuple(rng.randrange(256) for _ in range(3)))
    return image


def test_a_card_put_in_pieces_is_the_card_blended_whole() -> None:
    """``_put`` copies a card's opaque middle and blends the rest: the same pixels as blending
    the whole card on its shadow, then its veil when faded, over anything."""
    rng = random.Random(7)
    for code in ["AS", "10H", "??", "T17", "FOOL", None]:
        for width in (images.HAND_W, images.CARD_W, 92):
            for dim in (False, True):
                background = _busy_background(rng)
                x, y = rng.randrange(20), rng.randrange(20)
                whole = background.copy()
                tile = images._shadowed(code, width, "two", ())
                whole.paste(tile, (x - images._SHADOW_AT[0], y - images._SHADOW_AT[1]), tile)
                if dim:
                    face = images.card_face(code, width)
                    mask = face.getchannel("A").point(lambda a: int(a * images.DIM))
                    whole.paste(Image.new("RGB", face.size, images.DIM_VEIL), (x, y), mask)
                pieces = background.copy()
                images._put(pieces, x, y, code, width, "two", dim=dim)
                assert pieces.tobytes() == whole.tobytes(), (code, width, dim)


def test_a_hand_is_its_cards_put_whole_one_after_another(monkeypatch: pytest.MonkeyPatch) -> None:
    """``hand_image`` leaves out the pieces of a card that later cards cover (``hidden``) and
    copies those that fall on the felt blended over it ahead (``drawn``): every hand, of every
    size, faded or not, shows the pixels of its cards put whole one after another; and
    ``hand_png`` is its picture."""
    rng = random.Random(10)
    deck = [r + s for s in "SHCD" for r in ("A", "K", "Q", "J", "10", "7", "2")]
    deck += ["??", "T17", "FOOL", "K-CU"]
    hands = []
    for size in [*range(0, 21), 27]:
        cards = rng.sample(deck, size)
        dim = tuple(i for i in range(size) if rng.random() < 0.4)
        colours, letters = rng.choice([("two", ()), ("four", DUTCH)])
        hands.append({"cards": cards, "dim": dim, "colours": colours, "letters": letters})
    drawn = [images.hand_image(**kwargs).tobytes() for kwargs in hands]  # type: ignore[arg-type]
    for kwargs in hands:  # drawn for its PNG one column to the right: the same picture
        png = images.hand_png.__wrapped__(**kwargs)  # type: ignore[attr-defined]
        assert png == images._png(images.hand_image(**kwargs)), kwargs  # type: ignore[arg-type]
    put = images._put

    def whole(img, x, y, code, width, colours, letters=(), dim=False, hidden=(), drawn=None):  # type: ignore[no-untyped-def]
        put(img, x, y, code, width, colours, letters, dim)

    monkeypatch.setattr(images, "_put", whole)
    for i, kwargs in enumerate(hands):
        assert images.hand_image(**kwargs).tobytes() == drawn[i], kwargs  # type: ignore[arg-type]


def test_a_ready_count_badge_is_the_badge_drawn_in_place() -> None:
    rng = random.Random(8)
    for _ in range(100):
        background = _busy_background(rng)
        cx = 20 + rng.randrange(150) + rng.choice([0, 0.5])
        cy = 20 + rng.randrange(150) + rng.choice([0, 0.5])
        count = rng.randint(1, 12)
        drawn = background.copy()
        images._draw_badge(ImageDraw.Draw(drawn), cx, cy, count)
        ready = background.copy()
        images._count_badge(ready, cx, cy, count)
        assert ready.tobytes() == drawn.tobytes(), (cx, cy, count)


def _layouts(rng: random.Random) -> list[tuple[str, list[tuple[str | None, int]]]]:
    cards = ["AS", "KH", "10D", "7C", "QS", "JH"]
    return [
        (name, [(rng.choice([None, *cards]), rng.randint(0, 2)) for _ in range(rng.randint(0, 8))])
        for name in rng.sample(["On the table", "Zoë 5↓", "You 4↓", "Иван 3↓"], rng.randint(1, 3))
    ]


def test_layouts_written_from_kept_bands_are_the_layouts_drawn_whole() -> None:
    """``layouts_png`` writes a picture from bands kept from the pictures before (a row, a name,
    the margin), a new row's places band put together from its places' cells: every picture
    of a series whose rows recur shows the pixels of the picture drawn whole, and so does one
    whose name draws outside its band (drawn whole)."""
    rng = random.Random(9)
    images._bands_kept.clear()
    series = [_layouts(rng) for _ in range(12)]
    series += [rows[::-1] for rows in series]  # the same rows in another order
    series.append([("Ǻ̈̈̈̈̈̈", [("AS", 1)]), ("You", [(None, 2)])])  # marks far above its band
    # Counts of two digits on the face-down cards, under a card and alone.
    series.append([("Zoë 27↓", [("AS", 12), (None, 10), ("10D", 9), (None, 0), (None, 99)])])
    for i, rows in enumerate(series):
        kwargs = {"rows": rows, "highlight": rng.choice([None, 0, 1]), "colours": "two"}
        if i % 4 == 3:
            kwargs |= {"colours": "four", "letters": DUTCH}
        whole = images.layouts_image(**kwargs)  # type: ignore[arg-type]
        png = images.layouts_png.__wrapped__(**kwargs)  # type: ignore[attr-defined]
        expected = images._png(whole)
        assert pixels(png) == pixels(expected), i
    assert images._bands_kept.hits > 0
    assert images._place_cell.cache_info().hits > 0  # places bands put together from cells
