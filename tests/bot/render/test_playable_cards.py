"""The hand picture fades the cards the player may not play now."""

from __future__ import annotations

import io

from PIL import Image

from bot.render.games import images
from bot.render.presenter import Seating, presenter_for, unplayable


def test_only_cards_no_legal_move_names_fade() -> None:
    hand = ["5H", "KS", "QD"]
    assert unplayable(hand, ["play 5h", "play qd"]) == (1,)
    assert unplayable(hand, ["bid 7", "pass"]) == (), "moves that are not about cards"
    assert unplayable(hand, ["play 5h", "play ks", "play qd"]) == (), "every card allowed"
    assert unplayable(hand, []) == (), "not his turn"


def test_the_presenter_asks_for_the_faded_cards() -> None:
    presenter = presenter_for("troika")
    seating = Seating(("ann", "bob", "cid", "dee"), viewer=0)
    view = {"hand": ["5H", "KS", "QD"]}
    picture = presenter.hand_picture_for(view, ["play ks"], seating)
    assert picture is not None and picture.kwargs()["dim"] == (0, 2)
    assert "dim" not in presenter.hand_picture_for(view, ["pass"], seating).kwargs()  # type: ignore[union-attr]


def test_a_faded_card_is_darker_where_it_shows() -> None:
    def brightness(png: bytes, box: tuple[int, int, int, int]) -> float:
        part = Image.open(io.BytesIO(png)).convert("L").crop(box)
        return sum(part.get_flattened_data()) / (part.width * part.height)

    cards = ["5H", "KS"]
    plain = images.hand_png(cards=cards)
    faded = images.hand_png(cards=cards, dim=(0,))
    first = (14, 14, 60, 80)  # inside the first card, which is not covered by the second
    second = (images.HAND_W + 30, 14, images.HAND_W + 70, 80)
    assert brightness(faded, first) < brightness(plain, first) - 40
    assert abs(brightness(faded, second) - brightness(plain, second)) < 1


def test_a_faded_card_keeps_its_ink_readable_and_is_not_green_on_green() -> None:
    # The Jack of swords (black ink, a green court) and a four-colour club: once faded, the
    # paper stays grey (not the felt's green) and the index stands out from it.
    for cards, colours in ((["J-SW", "5-CU"], "two"), (["JC", "5H"], "four")):
        faded = Image.open(io.BytesIO(images.hand_png(cards=cards, dim=(0,), colours=colours)))
        index = faded.convert("RGB").crop((14, 14, 14 + images.HAND_W // 3, 80))
        pixels = list(index.get_flattened_data())
        paper = max(pixels, key=sum)
        ink = min(pixels, key=sum)
        assert paper[1] - min(paper[0], paper[2]) < 12, f"{cards[0]}: paper tinted {paper}"
        assert sum(paper) - sum(ink) > 3 * 80, f"{cards[0]}: ink {ink} on paper {paper}"
