"""Seeded sample pictures of every drawing function, for ``test_picture_pixels.py``: hands
(dimmed or not, every size of row), tables of 2 to 7 seats, layouts, rows and melds, in both
colour schemes and with translated letters."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

FRENCH = [r + s for s in "SHDC" for r in ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5")]
TAROT = [
    *(f"{r}-{s}" for s in ("CU", "CO") for r in ("K", "Q", "N", "J", "1", "2", "3", "4", "5", "6")),
    *(f"{r}-{s}" for s in ("SW", "BA") for r in ("K", "Q", "N", "J", "10", "9", "8", "7", "6")),
    "FOOL",
    *(f"T{n}" for n in range(1, 22)),
]
NAMES = ["Jürgen", "Zoë", "Иван", "Easy AI", "Bob", "Cy", "Di"]
DUTCH = (("J", "B"), ("K", "H"), ("Q", "V"))

Sample = tuple[str, str, dict[str, object]]


def samples() -> Iterator[Sample]:
    """(name, drawing function, keyword arguments), the same at every call."""
    rng = random.Random(30)
    for i in range(24):
        deck = TAROT if i % 3 == 0 else FRENCH
        size = rng.choice([1, 3, 5, 6, 9, 10, 13, 18])
        cards: list[str | None] = list(rng.sample(deck, size))
        if i % 7 == 0:
            cards[0] = None  # a card back
        dim = tuple(sorted(rng.sample(range(size), rng.randint(0, size))))
        kwargs: dict[str, object] = {"cards": cards, "dim": dim}
        if i % 2:
            kwargs["colours"] = "four"
        if i % 5 == 0:
            kwargs["letters"] = DUTCH
        yield f"hand {i}", "hand_png", kwargs
    for i in range(12):
        count = [2, 3, 4, 4, 5, 6, 7][i % 7]
        played = list(zip(range(count), rng.sample(FRENCH + TAROT, count), strict=True))
        played = played[: rng.randint(0, count)]
        kwargs = {"players": NAMES[:count], "played": played, "viewer": rng.choice([None, 1])}
        if i % 3 == 0:
            kwargs["caption"] = "Last trick"
            kwargs["winner"] = played[0][0] if played else None
        else:
            kwargs["highlight"] = rng.randrange(count)
        if i % 2:
            kwargs["colours"] = "four"
        if i % 4 == 1:
            kwargs["letters"] = DUTCH
        yield f"table {i}", "table_png", kwargs
    for i in range(4):
        rows = [
            (name, [(rng.choice([None, *FRENCH]), rng.randint(0, 3)) for _ in range(5)])
            for name in NAMES[:2]
        ]
        yield f"layouts {i}", "layouts_png", {"rows": rows, "highlight": i % 3, **_four(i)}
    for i in range(3):
        rows = [("Pile", rng.sample(FRENCH, 6)), ("Last trick", rng.sample(FRENCH, 4))]
        yield f"rows {i}", "rows_png", {"rows": rows, "max_rows": 1 + i % 2, **_four(i)}
        row = rng.sample(FRENCH, 1 + i * 2)
        yield f"row {i}", "row_png", {"cards": row, "caption": "Meld" * (i % 2), **_four(i)}
    groups = [("Ann", [(1, ["10C", "10D", "JK"]), (2, ["5H", "6H", "7H", "8H"])]), ("Bob", [])]
    yield "melds", "melds_png", {"groups": groups, "width": 360}


def _four(i: int) -> dict[str, object]:
    return {"colours": "four"} if i % 2 else {}


def drawing(name: str) -> Callable[..., bytes]:
    from bot.render.games import images

    return getattr(images, name)  # type: ignore[no-any-return]
