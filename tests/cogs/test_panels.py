"""The private panel's components: buttons for a few moves, selects for many, nothing lost."""

from __future__ import annotations

import discord
import orjson

from bot.render.presenter import presenter_for
from cogs.action_rows import actions_view, in_hand_order

CHANNEL = 1234567890123456789


def _actions(view: discord.ui.View) -> tuple[list[str], list[str]]:
    buttons, picks = [], []
    for item in view.children:
        if isinstance(item, discord.ui.Button) and item.custom_id.startswith("tt:act:"):
            buttons.append(item.custom_id.split(":", 3)[3])
        elif isinstance(item, discord.ui.Select):
            assert len(item.options) <= 25
            picks += [o.value for o in item.options]
    return buttons, picks


async def test_few_moves_are_buttons_with_a_refresh() -> None:
    view, left_out = actions_view(CHANNEL, ["play 5h", "play 3s", "pass"], presenter_for("troika"))
    buttons, picks = _actions(view)
    assert buttons == ["play 5h", "play 3s", "pass"] and not picks and not left_out
    assert any(getattr(i, "label", "") == "Refresh" for i in view.children)


def test_many_moves_become_select_menus_without_losing_any() -> None:
    bids = ["pass"] + [f"bid {n} {k}".strip() for n in range(5, 13) for k in ("", "low", "no")]
    view, left_out = actions_view(CHANNEL, bids, presenter_for("troika"))
    buttons, picks = _actions(view)
    assert sorted(buttons + picks + left_out) == sorted(bids)
    assert "pass" in buttons, "a small group stays a button"
    rows: dict[int, int] = {}
    for item in view.children:
        rows[item.row or 0] = rows.get(item.row or 0, 0) + 1
    assert len(rows) <= 5


def test_moves_too_long_for_a_custom_id_go_to_a_select() -> None:
    meld = "meld " + " ".join(["10h"] * 22)  # longer than a button's custom id allows
    view, left_out = actions_view(CHANNEL, [meld, "discard 5c"], presenter_for("troikuntza"))
    buttons, picks = _actions(view)
    assert meld in picks and "discard 5c" in buttons and not left_out


def test_labels_show_cards() -> None:
    troika, rummy = presenter_for("troika"), presenter_for("troikuntza")
    assert troika.action_label("play 10h") == "10♥︎"
    assert rummy.action_label("mayi") == "May I"
    assert "7" in troika.action_label("bid 7 no")


def test_card_buttons_are_grey_so_red_suits_show() -> None:
    view, _ = actions_view(CHANNEL, ["play 10h", "play 3s", "pass"], presenter_for("troika"))
    buttons = [b for b in view.children if isinstance(b, discord.ui.Button)]
    styles = {b.custom_id.split(":", 3)[3]: b.style for b in buttons if "tt:act:" in b.custom_id}
    assert styles["play 10h"] is discord.ButtonStyle.secondary, "a red button hides ♥︎"
    assert styles["play 3s"] is discord.ButtonStyle.secondary
    assert styles["pass"] is discord.ButtonStyle.danger, "Pass must not look like a bid"


def rows_of(view: discord.ui.View) -> list[list[str]]:
    """Each row's components: an action's words, a select's ``select``, Refresh's ``refresh``."""
    rows: dict[int, list[str]] = {}
    for item in view.children:
        custom = getattr(item, "custom_id", "") or ""
        name = custom.split(":", 3)[3] if custom.startswith("tt:act:") else custom.split(":")[1]
        rows.setdefault(item.row or 0, []).append(name)
    return [rows[r] for r in sorted(rows)]


def test_troikas_bids_are_one_select_and_pass_is_apart_beside_refresh() -> None:
    bids = ["pass"] + [f"bid {n}{k}" for n in range(6, 13) for k in ("", " no")]
    view, left_out = actions_view(CHANNEL, bids, presenter_for("troika"))
    assert rows_of(view) == [["pick"], ["pass", "refresh"]] and not left_out
    (select,) = [i for i in view.children if isinstance(i, discord.ui.Select)]
    assert [o.value for o in select.options] == bids[1:]


def test_cards_are_buttons_in_even_rows_in_the_order_they_are_held() -> None:
    hand = ["AS", "9S", "9H", "8H", "KC", "JC", "9C", "7D"]
    legal = sorted(f"play {c.lower()}" for c in hand)  # the engine's order: by code
    ordered = in_hand_order(legal, hand)
    assert ordered == tuple(f"play {c.lower()}" for c in hand)
    view, _ = actions_view(CHANNEL, ordered, presenter_for("troika"))
    assert rows_of(view) == [list(ordered[:4]), list(ordered[4:]), ["refresh"]]


def test_a_rummys_discards_say_discard_once_and_follow_the_hand() -> None:
    hand = ["2H", "3H", "4D", "8S", "JH", "KC", "QH", "AD", "JK"]
    legal = sorted(f"discard {c.lower()}" for c in hand) + ["meld 2h 3h 4d"]
    ordered = in_hand_order(legal, hand)
    view, _ = actions_view(CHANNEL, ordered, presenter_for("troikuntza"))
    buttons = [b for b in view.children if isinstance(b, discord.ui.Button) and b.row == 0]
    assert [b.custom_id.split(":", 3)[3] for b in buttons][:3] == ["discard 2h", "discard 3h",
                                                                   "discard 4d"]  # fmt: skip
    assert not any("Discard" in (b.label or "") for b in buttons)
    assert rows_of(view)[-1] == ["meld 2h 3h 4d", "refresh"]


def _legal_lists() -> list[tuple[str, tuple[str, ...], tuple[str, ...]]]:
    """(game, legal moves in hand order, hand) of every seat to act in seeded games of the four
    games at every player count, with the long lists the tests above make."""
    import random

    import engine

    found: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = []
    for name in ("troika", "troeven", "troggu", "troikuntza"):
        spec = engine.GAMES[name]
        for players in range(spec.min_players, spec.max_players + 1):
            try:
                game = engine.new_game(name, players, seed=players)
            except engine.IllegalAction:
                continue  # a count only an option allows
            rng = random.Random(players)
            for _move in range(150):
                seats = game.to_act()
                if not seats:
                    break
                for seat in seats:
                    hand = tuple(str(c) for c in game.view(seat).get("hand") or ())
                    legal = game.legal_actions(seat)
                    found.append((name, in_hand_order(legal, hand), hand))
                seat = seats[0]
                game.apply(seat, rng.choice(game.legal_actions(seat)))
    bids = ["pass"] + [f"bid {n} {k}".strip() for n in range(5, 13) for k in ("", "low", "no")]
    found.append(("troika", tuple(bids), ()))
    found.append(("troikuntza", ("meld " + " ".join(["10h"] * 22), "discard 5c"), ()))
    many = tuple(f"meld {i}h {i}s {i}c" for i in range(2, 10)) * 8  # several selects, left out
    found.append(("troikuntza", many, ()))
    return found


def test_the_panels_payload_is_what_discord_py_sends_for_its_view() -> None:
    """``actions_payload`` (made at nearly every move, without a ``View``) is exactly
    ``actions_view``'s ``to_components()``, in English and in French, with and without the
    button that opens a pick of his own cards."""
    from bot.i18n import use_locale
    from cogs.action_rows import actions_payload

    lists = _legal_lists()
    assert len(lists) > 500
    kinds: set[int] = set()
    for language in ("en", "fr"):
        with use_locale(language):
            for index, (game, legal, _hand) in enumerate(lists):
                presenter = presenter_for(game)
                own = "Lay down my own" if index % 3 == 0 else None
                view, left_out = actions_view(CHANNEL, legal, presenter, own)
                payload, left = actions_payload(CHANNEL, legal, presenter, own)
                assert payload == view.to_components(), (game, legal)
                assert left == left_out
                kinds |= {c["type"] for row in payload for c in row["components"]}
    assert kinds == {2, 3}, "buttons and selects both compared"


def test_the_rows_laid_out_for_any_channel_are_each_channels_own() -> None:
    """``shared_actions_view`` lays the rows out once for every channel of as many digits and
    puts the channel in: the same payload as laid out for that channel, with its buttons,
    selects (left out moves too) and the pick's button, ids near Discord's length limit."""
    from bot.i18n import use_locale
    from cogs.action_rows import actions_payload, forget_action_rows, shared_actions_view

    lists = _legal_lists()[::7]
    channels = (7, 40, 1_234_567_890_123_456_789, 999_999_999_999_999_998, 12_345_678_901_234_567)
    forget_action_rows()
    for language in ("en", "fr"):
        for index, (game, legal, _hand) in enumerate(lists):
            own = "Lay down my own" if index % 3 == 0 else None
            for channel in channels:
                sealed, left = shared_actions_view(channel, game, legal, language, own)
                with use_locale(language):
                    payload, left_out = actions_payload(channel, legal, presenter_for(game), own)
                assert sealed.to_components() == payload, (channel, game, legal)
                assert sealed._json == orjson.dumps(payload)
                assert left == tuple(left_out)
    forget_action_rows()
