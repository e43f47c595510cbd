"""Pictures: names in any script without missing-glyph boxes, legible hands, Tarot faces,
four colours, layouts, melds by player, and the caches and the worker pool."""

from __future__ import annotations

import asyncio
import io
import os
import signal
import threading
import time

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont

from bot.render import fonts
from bot.render.games import faces, images
from bot.render.pipe_workers import FIRST_DEPTH
from bot.render.pool import RenderPool

NAMES = ["Jürgen", "Zoë", "Иван", "王小明", "🤖", "🃏", "Ann 🤖 Bot", "Marie-Ève"]
SIZE = 28


def _png(data: bytes) -> Image.Image:
    picture = Image.open(io.BytesIO(data))
    assert picture.format == "PNG"
    return picture.convert("RGB")


# -- no missing-glyph boxes ------------------------------------------------------------------------
def _glyphs(picture: Image.Image) -> list[Image.Image]:
    """The ink of a one-line text picture (white on black), cut at every empty column."""
    width, height = picture.size
    columns = [picture.crop((x, 0, x + 1, height)).getbbox() is not None for x in range(width)]
    out, start = [], None
    for x, inked in enumerate([*columns, False]):
        if inked and start is None:
            start = x
        elif not inked and start is not None:
            piece = picture.crop((start, 0, x, height))
            out.append(piece.crop(piece.getbbox()))
            start = None
    return out


def _box() -> Image.Image:
    """The font's missing-glyph box, drawn on its own."""
    canvas = Image.new("L", (SIZE * 3, SIZE * 2), 0)
    ImageDraw.Draw(canvas).text(
        (SIZE, SIZE // 2), fonts.NOTDEF_PROBE, font=fonts.font(SIZE), fill=255
    )
    return canvas.crop(canvas.getbbox())


def _is_box(glyph: Image.Image, box: Image.Image) -> bool:
    if abs(glyph.width - box.width) > 1 or abs(glyph.height - box.height) > 1:
        return False
    diff = ImageChops.difference(glyph.resize(box.size), box)
    return sum(diff.get_flattened_data()) / (box.width * box.height) < 40


def _boxes(text: str, plain: bool = False) -> int:
    canvas = Image.new("L", (SIZE * (len(text) + 4), SIZE * 2), 0)
    draw = ImageDraw.Draw(canvas)
    if plain:  # what Pillow draws without fallbacks
        draw.text((SIZE, SIZE // 3), text, font=fonts.font(SIZE), fill=255)
    else:
        fonts.draw_text(draw, (SIZE, SIZE // 3), text, SIZE, (255,))
    box = _box()
    return sum(_is_box(glyph, box) for glyph in _glyphs(canvas))


def test_the_box_detector_finds_the_boxes_of_plain_drawing() -> None:
    # Without the fallbacks the bundled font draws CJK and 🤖 as its box: the check sees them.
    assert _boxes("A🤖B", plain=True) == 1 and _boxes("王小明", plain=True) == 3
    assert _boxes("Jürgen Иван", plain=True) == 0


@pytest.mark.parametrize("name", NAMES)
def test_no_name_comes_out_as_missing_glyph_boxes(name: str) -> None:
    assert _boxes(name) == 0


def test_what_the_font_lacks_becomes_a_dot_or_is_left_out() -> None:
    text = lambda s: "".join(run.text for run in fonts.runs(s, 20))  # noqa: E731
    assert text("Jürgen") == "Jürgen" and text("Иван") == "Иван" and text("Zoë") == "Zoë"
    assert text("Ann 🤖") == "Ann "  # an emoji the font lacks is left out
    assert text("🤖") == "?"  # nothing left: a question mark, never an empty label
    assert text("👍🏽 ok") == " ok"  # the skin tone modifier goes with it
    assert text("王小明") == "王小明"  # the bundled CJK subset has it
    # A letter no font on the host has (a rare Han character outside the subset, when the host
    # has no full CJK font) keeps its place as a dot.
    if len(fonts.fallback_paths()) == 1:
        assert text("A\U0002a6a5") == "A" + fonts.MISSING_LETTER


CJK_NAMES = ["王小明", "陳美麗", "やまだ たろう", "山田太郎", "김민준", "이서연"]


@pytest.mark.parametrize("name", CJK_NAMES)
def test_a_cjk_name_is_drawn_by_the_bundled_subset_not_as_dots(name: str) -> None:
    # The bundled subset alone draws every letter (not a host font, not its missing-glyph box).
    cjk = str(fonts.BUNDLED_CJK)
    assert all(fonts.has_glyph(cjk, c) for c in name if not c.isspace())
    pieces = fonts.runs(name, SIZE)
    assert "".join(run.text for run in pieces) == name
    assert fonts.MISSING_LETTER not in name

    def ink(text: str) -> Image.Image:
        canvas = Image.new("L", (SIZE * (len(text) + 4), SIZE * 2), 0)
        fonts.draw_text(ImageDraw.Draw(canvas), (SIZE, SIZE // 3), text, SIZE, (255,))
        return canvas

    left, top, right, bottom = ink(name).getbbox() or (0, 0, 0, 0)
    # Letters a full CJK cell wide and tall each (a dot is a fifth of that), and no boxes.
    assert right - left >= 0.8 * SIZE * len(name.replace(" ", ""))
    assert bottom - top >= 0.7 * SIZE
    assert _boxes(name) == 0


def test_long_names_are_shortened_to_fit() -> None:
    long = "Bartholomew-Maximilian von Habsburg"
    short = fonts.fit(long, 20, 150)
    assert short.endswith("…") and fonts.text_width(short, 20) <= 150
    assert fonts.fit("Zoë", 20, 150) == "Zoë"


def test_a_text_drawn_again_is_the_same_pixels_from_the_kept_mask() -> None:
    """The bundled font keeps the masks it rendered (pictures draw the same counts and names
    over and over): a kept mask must draw exactly what a fresh font draws, at every fraction of
    a pixel a text may start at."""
    kept, fresh = fonts.font(19), ImageFont.truetype(str(fonts.BUNDLED), 19)

    def drawn(font: ImageFont.FreeTypeFont) -> bytes:
        picture = Image.new("RGB", (160, 80), (20, 90, 40))
        draw = ImageDraw.Draw(picture)
        for n, (x, y) in enumerate([(10, 10), (30.5, 20.25), (30.5, 20.25), (70.75, 41.5)]):
            draw.text((x, y), f"Zoë {n % 3}", font=font, fill=(255, 255, 255), anchor="mm")
        return picture.tobytes()

    first = drawn(kept)
    masks = kept.getmask2("Zoë 1", "L", anchor="mm", start=(0.5, 0.25))
    assert kept.getmask2("Zoë 1", "L", anchor="mm", start=(0.5, 0.25)) is masks  # kept
    assert first == drawn(kept) == drawn(fresh)


def test_the_font_ships_with_the_package() -> None:
    assert fonts.BUNDLED.is_file() and (fonts.FONT_DIR / "LICENSE").is_file()
    assert "Bitstream" in (fonts.FONT_DIR / "LICENSE").read_text()
    cjk_licence = (fonts.FONT_DIR / "LICENSE-NotoSansCJK").read_text()
    assert fonts.BUNDLED_CJK.is_file() and "SIL OPEN FONT LICENSE Version 1.1" in cjk_licence
    assert fonts.BUNDLED_CJK.stat().st_size < 4_000_000, "a subset, not the whole 20 MB font"


# -- hands -------------------------------------------------------------------------------------
TAROT_18 = ["K-CU", "Q-CU", "N-CU", "1-CO", "6-CO", "10-SW", "7-SW", "J-SW", "K-BA",
            "5-BA", "FOOL", "T21", "T18", "T15", "T12", "T7", "T3", "T1"]  # fmt: skip


def test_rows_are_balanced_and_at_most_nine_cards() -> None:
    assert images.row_counts(18) == [9, 9]
    assert images.row_counts(13) == [7, 6]
    assert images.row_counts(9) == [9]
    assert images.row_counts(0) == []
    assert all(max(images.row_counts(n)) <= 9 for n in range(1, 40))


def test_an_eighteen_card_hand_is_two_rows_readable_on_a_phone() -> None:
    picture = _png(images.hand_png(TAROT_18))
    width, height = picture.size
    nine = _png(images.hand_png(TAROT_18[:9]))
    assert width == nine.width  # two rows of nine, not one row of eighteen
    assert height > 1.5 * nine.height
    assert width / height < 2.5, "not a thin strip"
    # Shown 360 px wide, a card's index stays at least 12 px tall.
    index_px = images.HAND_W * 0.4 * 0.73 * 360 / width
    assert index_px >= 12


def test_every_card_in_a_hand_shows_its_index() -> None:
    cards = ["AS", "KS", "10S", "4S", "QH", "9H", "2H", "AD", "JD", "10D", "KC", "8C", "JK"]
    picture = _png(images.hand_png(cards))
    step, row_step = round(images.HAND_W * 0.52), round(faces.card_height(images.HAND_W) * 0.58)
    i = 0
    for r, count in enumerate(images.row_counts(len(cards))):
        for j in range(count):
            # The top-left corner of each card (where its index is) is drawn over the felt.
            x, y = 10 + j * step + 22, 10 + r * row_step + 18
            assert picture.getpixel((x, y)) != faces.FELT, cards[i]
            i += 1


def _colours_of(data: bytes) -> set[tuple[int, int, int]]:
    return {c for _, c in _png(data).getcolors(1 << 20)}


def _near(colours: set[tuple[int, int, int]], target: tuple[int, int, int]) -> bool:
    return any(sum(abs(a - b) for a, b in zip(c, target, strict=True)) < 12 for c in colours)


def test_four_colour_suits() -> None:
    two = _colours_of(images.hand_png(["2D", "2C"]))
    four = _colours_of(images.hand_png(["2D", "2C"], colours="four"))
    assert _near(two, faces.RED) and not _near(two, faces.BLUE) and not _near(two, faces.GREEN)
    assert _near(four, faces.BLUE) and _near(four, faces.GREEN) and not _near(four, faces.RED)
    with pytest.raises(ValueError, match="colours must be one of two, four"):
        images.hand_png(["2D"], colours="rainbow")


def test_tarot_faces_are_all_different_and_trumps_and_the_fool_stand_out() -> None:
    from engine.troggu.cards import CODES

    drawn = {code: faces.card_face(code, 96, "two").tobytes() for code in CODES}
    assert len(set(drawn.values())) == len(CODES) == 62
    fool = faces.card_face("FOOL", 96, "two").convert("RGB")
    assert fool.getpixel((48, int(134 * 0.6))) != faces.WHITE  # the band across the card
    trump = faces.card_face("T21", 96, "two").convert("RGB")
    assert trump.getpixel((12, 110)) == faces.PARCHMENT  # trumps are not white cards
    assert faces.roman(21) == "XXI" and faces.roman(18) == "XVIII" and faces.roman(4) == "IV"


@pytest.mark.parametrize("code", ["T1", "T12", "T18", "T21"])
def test_a_trump_numeral_is_whole_or_hidden_in_a_hand_row(code: str) -> None:
    """The numeral lies where an overlapping hand hides all of it (right of the next card's
    edge at 52%, above the next row's top at 58%): never cut into another number."""
    width = 96
    face = faces.card_face(code, width, "two").convert("RGB")
    ink = [
        (x, y)
        for x in range(face.width)
        for y in range(face.height)
        if _close(face.getpixel((x, y)), faces.NUMERAL_INK)
    ]
    assert ink, "the numeral is drawn"
    assert min(x for x, _ in ink) >= width * 0.52
    assert max(y for _, y in ink) <= face.height * 0.58


def _close(pixel: tuple[int, ...], colour: tuple[int, ...], tolerance: int = 40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=False))


def test_each_face_is_drawn_once() -> None:
    assert faces.card_face("QS", 96, "four") is faces.card_face("QS", 96, "four")
    assert faces.card_face("QS", 96, "four") is not faces.card_face("QS", 96, "two")


# -- the table ----------------------------------------------------------------------------------
def test_table_names_in_any_script_and_the_picture_is_cached() -> None:
    names = ["Jürgen", "Zoë", "Иван", "王小明 🤖"]
    played = [(1, "10H"), (2, "QS"), (3, "AD")]
    first = images.table_png(names, played, viewer=0, highlight=0)
    hits = images.table_png.cache.hits
    again = images.table_png(list(names), list(played), viewer=0, highlight=0)
    assert again is first and images.table_png.cache.hits == hits + 1
    assert images.table_png(names, played, viewer=0, highlight=1) != first


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6, 7, 8])
def test_table_cards_fit_inside_the_picture_and_do_not_overlap(count: int) -> None:
    width, height, card_w = images.table_layout(count)
    card_h = faces.card_height(card_w)
    centres = images.seat_positions(count, 0, width, height, card_w)
    for x, y in centres:
        assert (
            card_w / 2 <= x <= width - card_w / 2
            and card_h / 2 + 20 <= y <= height - card_h / 2 - 20
        )
    for i, (x1, y1) in enumerate(centres):
        for x2, y2 in centres[i + 1 :]:
            assert abs(x1 - x2) >= card_w or abs(y1 - y2) >= card_h


# -- layouts and melds ---------------------------------------------------------------------------
def test_layouts_show_every_place() -> None:
    first = [
        ("AS", 1),
        (None, 0),
        ("10H", 1),
        (None, 1),
        ("QD", 0),
        ("7C", 1),
        (None, 0),
        ("KH", 1),
    ]
    rows = [("Jürgen", first), ("Zoë", [("9S", 1)] * 8)]
    picture = _png(images.layouts_png(rows, highlight=0))
    assert picture.width <= 600 and picture.height < 2 * picture.width
    one = _png(images.layouts_png(rows[:1]))
    assert picture.height > one.height and picture.width == one.width


def _groups(players: int, melds: int) -> list[tuple[str, list[tuple[int, list[str]]]]]:
    groups: list[tuple[str, list[tuple[int, list[str]]]]] = [
        (f"Player {p}", []) for p in range(players)
    ]
    for n in range(1, melds + 1):
        cards = [f"{r}H" for r in ("9", "8", "7", "6", "5")][: 3 + n % 3]
        groups[n % players][1].append((n, cards))
    return groups


def test_thirty_melds_of_eight_players_are_all_drawn_on_pages() -> None:
    groups = _groups(8, 30)
    pages = [_png(p) for p in images.melds_pngs(groups, max_height=900)]
    assert len(pages) >= 2 and all(p.height <= 900 and p.width == 600 for p in pages)
    tall = _png(images.melds_png(groups))
    # Nothing cut: the pages together hold what one tall picture holds.
    assert sum(p.height for p in pages) >= tall.height > 900


def test_a_meld_longer_than_a_line_goes_on_over_the_next() -> None:
    long = [
        (
            1,
            [f"{r}S" for r in ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")]
            * 2,
        )
    ]
    narrow = _png(images.melds_png([("Ann", long)], width=360))
    short = _png(images.melds_png([("Ann", [(1, ["AS", "KS", "QS"])])], width=360))
    assert narrow.width == 360 and narrow.height > short.height + 2 * faces.index_height(
        images.MELD_W
    )


def test_rows_are_never_silently_cut() -> None:
    rows = [(f"{i}. ann", ["5H", "5S", "5D"]) for i in range(12)]
    assert _png(images.rows_png(rows)).height > _png(images.rows_png(rows[:8])).height
    # With a limit the picture says what it left out (a last line of text below the rows).
    limited = _png(images.rows_png(rows, max_rows=8))
    assert limited.height > _png(images.rows_png(rows[:8])).height


# -- the pool ------------------------------------------------------------------------------------
_calls: list[str] = []
_lock = threading.Lock()


def _counted(text: str) -> bytes:
    with _lock:
        _calls.append(text)
    return images.row_png(["AS"], caption=text)


async def test_pool_renders_off_the_loop_and_caches() -> None:
    pool = RenderPool("thread", 2)
    try:
        _calls.clear()
        first, second = await asyncio.gather(pool.render(_counted, "a"), pool.render(_counted, "a"))
        assert first == second == images.row_png(["AS"], caption="a")
        assert _calls == ["a"]  # two identical requests in flight: drawn once
        assert await pool.render(_counted, "a") is first and _calls == ["a"]
        await pool.render(_counted, "b")
        assert _calls == ["a", "b"]
    finally:
        pool.close()


_release = threading.Event()


def _held(text: str) -> bytes:
    """A picture drawn once the test lets it (``_release``)."""
    _release.wait(5)
    if text == "broken":
        raise ValueError("no such card")
    return _counted(text)


async def test_a_waiter_cancelled_leaves_the_shared_drawing_and_the_others_be() -> None:
    """Two requests of one picture share its drawing: the first cancelled (a panel redrawn
    anew) neither stops it nor fails the second, which gets the picture; an error reaches
    every waiter."""
    pool = RenderPool("thread", 2)
    try:
        _calls.clear()
        _release.clear()
        first = asyncio.ensure_future(pool.render(_held, "c"))
        second = asyncio.ensure_future(pool.render(_held, "c"))
        await asyncio.sleep(0.01)
        first.cancel()
        await asyncio.sleep(0.01)
        assert first.cancelled() and not second.done()
        _release.set()
        assert await asyncio.wait_for(second, 5) == images.row_png(["AS"], caption="c")
        assert _calls == ["c"]  # drawn once, for both
        _release.clear()
        broken = [asyncio.ensure_future(pool.render(_held, "broken")) for _ in range(2)]
        await asyncio.sleep(0.01)
        _release.set()
        for waiter in broken:
            with pytest.raises(ValueError, match="no such card"):
                await asyncio.wait_for(waiter, 5)
    finally:
        _release.set()
        pool.close()


def test_pool_refuses_bad_settings() -> None:
    with pytest.raises(ValueError, match="kind must be"):
        RenderPool("fibers")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="workers must be at least 1"):
        RenderPool("thread", 0)


async def test_a_process_pool_draws_the_same_picture() -> None:
    # The picture functions must pickle by name for a process pool (their caching wrappers too).
    pool = RenderPool("process", 1)
    try:
        args = (["Ann", "Bob"], [(0, "AS"), (1, "T21")])
        assert await pool.render(images.table_png, *args) == images.table_png(*args)
    finally:
        pool.close()


async def test_a_killed_render_worker_is_replaced_and_the_picture_still_drawn() -> None:
    pool = RenderPool("process", 1)
    try:
        assert await pool.render(images.row_png, ["AS"], caption="one")
        killed = pool.processes().pids()
        for pid in killed:
            os.kill(pid, signal.SIGKILL)
        png = await pool.render(images.row_png, ["KS"], caption="two")
        assert png == images.row_png(["KS"], caption="two")
        assert pool.processes().pids() and not set(pool.processes().pids()) & set(killed)
    finally:
        pool.close()


def _slow(text: str) -> bytes:
    time.sleep(2.0)
    return text.encode()


async def test_a_long_drawing_holds_up_no_picture_behind_it() -> None:
    """A replay's animation keeps one worker busy, the pictures are drawn by the other
    meanwhile (more of them than the first worker takes at once: none waits for the
    animation)."""
    pool = RenderPool("process", 2)
    try:
        await pool.start()
        slow = asyncio.ensure_future(pool.render(_slow, "animation"))
        cards = ("AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S", "5S", "4S", "3S")
        assert len(cards) > 2 * FIRST_DEPTH
        quick = [  # as ``bot.render.pictures.render`` asks for a picture
            pool.render_keyed(card, images.row_png, [card], caption=card) for card in cards
        ]
        assert await asyncio.gather(*quick) == [images.row_png([c], caption=c) for c in cards]
        assert not slow.done()
        assert await slow == b"animation"
    finally:
        pool.close()


async def test_pictures_go_to_the_first_worker_while_it_keeps_up() -> None:
    """One after another, every picture is drawn by the same worker (what it kept from the last
    ones saves drawing); many at once, the other worker takes some."""
    pool = RenderPool("process", 2)
    try:
        await pool.start()
        one_by_one = [await pool.render_keyed(("one", n), os.getpid) for n in range(12)]
        assert len(set(one_by_one)) == 1
        many = [pool.render_keyed(("many", n), _pid_after, 0.05) for n in range(4 * FIRST_DEPTH)]
        assert set(await asyncio.gather(*many)) == set(pool.processes().pids())
    finally:
        pool.close()


def _pid_after(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def _fails(text: str) -> bytes:
    raise ValueError(f"no picture of {text}")


async def test_a_process_pool_passes_a_drawing_error_on_and_keeps_drawing() -> None:
    pool = RenderPool("process", 2)
    try:
        pids = pool.processes
        with pytest.raises(ValueError, match="no picture of x"):
            await pool.render(_fails, "x")
        many = [pool.render(images.row_png, [card], caption=card) for card in ("AS", "KS", "QS")]
        assert await asyncio.gather(*many) == [
            images.row_png([card], caption=card) for card in ("AS", "KS", "QS")
        ]  # three pictures on two workers: one waited for a free worker
        assert len(pids().pids()) == 2
    finally:
        pool.close()


def test_a_process_pool_keeps_its_idle_workers_from_one_event_loop_to_the_next() -> None:
    pool = RenderPool("process", 1)
    try:
        first = asyncio.run(pool.render(images.row_png, ["AS"], caption="one"))
        pids = pool.processes().pids()
        second = asyncio.run(pool.render(images.row_png, ["KS"], caption="two"))
        assert (first, second) == (
            images.row_png(["AS"], caption="one"),
            images.row_png(["KS"], caption="two"),
        )
        assert pool.processes().pids() == pids  # the same warm worker
    finally:
        pool.close()
