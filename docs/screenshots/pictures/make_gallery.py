"""Draws the pictures of this gallery: ``python docs/screenshots/pictures/make_gallery.py``.

Every picture comes from ``bot.render.games.images`` with made-up players whose names test the font
(accents, Cyrillic, CJK, emoji). ``phone_*.png`` show pictures as a phone shows them: scaled to
340 px wide on Discord's dark background.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))

from PIL import Image  # noqa: E402

from bot.render.games import images  # noqa: E402

NAMES = ["Jürgen", "Zoë", "Иван", "王小明 🤖"]
TAROT_18 = ["K-CU", "Q-CU", "N-CU", "1-CO", "6-CO", "10-SW", "7-SW", "J-SW", "K-BA",
            "5-BA", "FOOL", "T21", "T18", "T15", "T12", "T7", "T3", "T1"]  # fmt: skip
FRENCH_13 = ["AS", "KS", "10S", "4S", "QH", "9H", "2H", "AD", "JD", "10D", "KC", "8C", "JK"]
PLAYERS_8 = ["Jürgen", "Zoë", "Иван", "王小明", "Easy AI 🤖", "Marie-Ève Lefèbvre", "bob", "Ana"]


def melds_30() -> list[tuple[str, list[tuple[int, list[str]]]]]:
    ranks = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    groups: list[tuple[str, list[tuple[int, list[str]]]]] = [(n, []) for n in PLAYERS_8]
    for n in range(1, 31):
        if n % 3 == 0:  # a set, sometimes with a joker
            cards = [ranks[n % 13] + s for s in "SHD"] + (["JK"] if n % 2 else [])
        else:  # a run of 4 to 6
            start, suit = n % 7, "SHDC"[n % 4]
            cards = [ranks[i] + suit for i in range(start, start + 4 + n % 3)]
        groups[(n - 1) * 8 // 30][1].append((n, cards))
    return groups


def pictures() -> dict[str, bytes]:
    out = {
        "trick_4_players.png": images.table_png(
            NAMES, [(1, "10H"), (2, "QS"), (3, "AD"), (0, "KD")], viewer=0, winner=3
        ),
        "trick_tarot_last.png": images.table_png(
            ["ann", "Bartholomew the Bold", "Easy AI 🤖", "dave"],
            [(1, "K-CU"), (2, "T21"), (3, "FOOL"), (0, "7-SW")],
            viewer=0,
            winner=2,
            caption="last trick",
        ),  # fmt: skip
        "trick_8_players.png": images.table_png(
            PLAYERS_8,
            [(i, c) for i, c in enumerate(["AS", "KH", "QD", "JC", "10S"])],
            viewer=0,
            highlight=5,
        ),  # fmt: skip
        "hand_tarot_13.png": images.hand_png(TAROT_18[:13]),
        "hand_tarot_18.png": images.hand_png(TAROT_18),
        "hand_french_13_four_colours.png": images.hand_png(FRENCH_13, colours="four"),
        "hand_french_13_two_colours.png": images.hand_png(FRENCH_13),
        "layouts.png": images.layouts_png(
            [
                (
                    "Jürgen",
                    [
                        ("AS", 1),
                        (None, 0),
                        ("10H", 1),
                        (None, 1),
                        ("QD", 0),
                        ("7C", 1),
                        (None, 0),
                        ("KH", 1),
                    ],
                ),
                (
                    "Zoë",
                    [
                        ("9S", 1),
                        ("JH", 1),
                        (None, 0),
                        ("8D", 1),
                        ("AC", 0),
                        (None, 1),
                        ("10C", 1),
                        ("QS", 1),
                    ],
                ),
            ],
            highlight=0,
        ),  # fmt: skip
    }
    for i, page in enumerate(images.melds_pngs(melds_30()), start=1):
        out[f"melds_30_of_8_players_page{i}.png"] = page
    return out


def phone(names: list[str], made: dict[str, bytes]) -> Image.Image:
    """The pictures one under the other, each as wide as a phone shows it."""
    shown = []
    for name in names:
        picture = Image.open(io.BytesIO(made[name])).convert("RGB")
        if picture.width > 340:
            picture = picture.resize(
                (340, round(picture.height * 340 / picture.width)), Image.LANCZOS
            )
        shown.append(picture)
    sheet = Image.new("RGB", (360, sum(p.height + 10 for p in shown) + 10), (49, 51, 56))
    y = 10
    for picture in shown:
        sheet.paste(picture, (10, y))
        y += picture.height + 10
    return sheet


def main() -> None:
    made = pictures()
    for name, data in made.items():
        (HERE / name).write_bytes(data)
    buffer = io.BytesIO()
    sheet = phone(["trick_4_players.png", "hand_tarot_18.png", "layouts.png"], made)
    sheet.quantize(256, method=Image.Quantize.FASTOCTREE).save(buffer, "PNG", optimize=True)
    (HERE / "phone_table_hand_layouts.png").write_bytes(buffer.getvalue())
    print("\n".join(f"{name}: {len(data) // 1024} KB" for name, data in sorted(made.items())))


if __name__ == "__main__":
    main()
