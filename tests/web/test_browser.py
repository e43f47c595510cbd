"""The table in a real browser (Playwright driving Debian's chromium): four pages play a whole
Troika hand by tapping, each page agreeing with the service after every move; a page that loses
its socket mid-trick is restored; a watcher's page never holds a hidden card; a TroiKuntza player
lays down a meld of cards he picked and discards by picking, and another calls May I.

Chromium is ``TROIKA_CHROMIUM``, else ``chromium`` on the PATH (``.ci/run`` installs Debian's and
sets it). Without one the tests skip, except in CI (``CI`` set), where they must run.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import engine
from bot.service import ActionApplied, TableEvent, TableService
from bot.web import links
from bot.web.server import WebServer
from tests.bot.conftest import TEST_LIMITS
from tests.web.conftest import BOB, CAT, CH, DAN, HOST, ONE_HAND, SECRET, WATCHER
from tests.web.test_hidden_cards import cards_in

USERS = (HOST, BOB, CAT, DAN)
TIMEOUT = 15_000  # ms: a frame reaches a page in a few ms; this only bounds a broken run


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[tuple[TableService, WebServer]]:
    service = TableService(tmp_path / "t.db", ai_delay=0, limits=TEST_LIMITS)
    await service.start()
    web = WebServer(service, SECRET)
    await web.start()
    try:
        yield service, web
    finally:
        await web.stop()
        await service.close()


async def four_humans_and_a_watcher(service: TableService) -> None:
    await service.open_table(CH, 99, HOST, "Ann", "troika", options=ONE_HAND, seed=21)
    for user, name in ((BOB, "Bob"), (CAT, "Cat"), (DAN, "Dan")):
        await service.join(CH, user, name)
    await service.start_game(CH, HOST)
    await service.spectate(CH, WATCHER)


async def open_page(browser: Any, web: WebServer, user: int, size: tuple[int, int] = (400, 850)):
    page = await browser.new_page(viewport={"width": size[0], "height": size[1]})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    await page.goto(web.link(user, CH))
    await page.wait_for_selector("#table[data-move]", timeout=TIMEOUT)
    return page


async def shows_move(page: Any, move: int) -> None:
    await page.wait_for_selector(f'#table[data-move="{move}"]', timeout=TIMEOUT)


async def moved_on(service: TableService, move: int) -> None:
    """Wait until the service committed the move the page sent (or the game ended)."""
    for _ in range(TIMEOUT // 10):
        table = service.get_table(CH)
        if table is None or table.move_number > move:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"the tap made no move (still at move {move})")


async def agrees(page: Any, service: TableService, user: int, channel: int = CH) -> None:
    """The page shows what the service says this user sees: his hand, his moves, the trick."""
    seen = service.view(channel, user)
    view = seen.game or {}
    hand = await page.eval_on_selector_all(
        ".hand [data-card]", "els => els.map(e => e.dataset.card)"
    )
    assert hand == list(view.get("hand") or [])
    actions = await page.eval_on_selector_all(
        "[data-action]", "els => els.map(e => e.dataset.action)"
    )
    assert sorted(actions) == sorted(seen.legal)
    trick = await page.eval_on_selector_all(
        ".trick:not(.done) [data-card]", "els => els.map(e => e.dataset.card)"
    )
    assert trick == [c["card"] for c in view.get("trick") or []]


async def test_four_pages_play_a_whole_troika_hand_by_tapping(browser, served) -> None:
    service, web = served
    await four_humans_and_a_watcher(service)
    pages = [await open_page(browser, web, user) for user in USERS]
    moves = 0
    while (table := service.get_table(CH)) is not None and table.to_act:
        move = table.move_number
        for user, page in zip(USERS, pages, strict=True):
            await shows_move(page, move)
            await agrees(page, service, user)
        seat = table.to_act[0]
        page = pages[seat]
        # A card when he has one to play (raised in his fan), else the first move of his panel.
        target = await page.query_selector(".hand .playable") or await page.query_selector(
            "[data-action]"
        )
        assert target is not None, f"seat {seat} has nothing to tap"
        # A fanned card shows its left edge (the next card covers the rest): tap there.
        await target.click(position={"x": 8, "y": 30})
        await moved_on(service, move)
        moves += 1
    assert moves > 32, "the auction and every trick of the hand were played from the pages"
    assert service.get_table(CH) is None, "the one-hand game is over"
    for page in pages:
        assert page.errors == []
        await page.wait_for_selector(".overlay", timeout=TIMEOUT)  # the hand's summary


async def test_a_page_that_loses_its_socket_mid_trick_is_restored(browser, served) -> None:
    service, web = served
    await four_humans_and_a_watcher(service)
    # Bid and play from the service until two cards lie on the trick.
    while True:
        table = service.get_table(CH)
        assert table is not None
        view = service.view(CH, USERS[table.to_act[0]]).game or {}
        if len(view.get("trick") or []) == 2:
            break
        seat = table.to_act[0]
        await service.act(CH, USERS[seat], service.legal_actions(CH, USERS[seat])[0])
    user = USERS[table.to_act[0]]
    page = await open_page(browser, web, user)
    await agrees(page, service, user)
    # The server drops the page's socket (a phone locked, a network change) ...
    assert web.hub is not None
    [dropped] = [p for p in web.hub.pages[CH] if p.user_id == user]
    await dropped.ws.close()
    await page.wait_for_selector(".banner", timeout=TIMEOUT)
    # ... a move is made meanwhile from elsewhere; the page reconnects and shows it.
    other = table.to_act[0]
    move = table.move_number
    await service.act(CH, USERS[other], service.legal_actions(CH, USERS[other])[0])
    await shows_move(page, move + 1)
    await agrees(page, service, user)
    cards = await page.eval_on_selector_all(
        ".trick [data-card]", "els => els.map(e => e.dataset.card)"
    )
    assert len(cards) == 3
    # A reload (the page opened again) is the same whole table.
    await page.reload()
    await shows_move(page, move + 1)
    await agrees(page, service, user)
    assert page.errors == []


async def test_a_watchers_page_never_holds_a_hidden_card(browser, served) -> None:
    service, web = served
    await four_humans_and_a_watcher(service)
    page = await browser.new_page(viewport={"width": 1280, "height": 800})
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda data: frames.append(data)))
    await page.goto(web.link(WATCHER, CH))
    await page.wait_for_selector("#table[data-move]", timeout=TIMEOUT)
    for _ in range(20):
        table = service.get_table(CH)
        assert table is not None
        seat = table.to_act[0]
        await service.act(CH, USERS[seat], service.legal_actions(CH, USERS[seat])[-1])
        await shows_move(page, table.move_number + 1)
        public = service.public_view(CH) or {}
        hidden = set().union(*(set(service.view(CH, u).game["hand"]) for u in USERS))
        shown = await page.eval_on_selector_all(
            "[data-card]", "els => els.map(e => e.dataset.card)"
        )
        assert set(shown) <= cards_in(public) and not set(shown) & (hidden - cards_in(public))
        assert await page.query_selector(".hand") is None
        assert await page.query_selector("[data-action]") is None
    for text in frames:
        frame = json.loads(text)
        assert "hand" not in (frame.get("view") or {})
        assert not cards_in(frame.get("legal")) and not frame.get("labels")
    assert len(frames) > 20
    # The watcher's link opens nothing else: not another table.
    forged = links.sign(SECRET, WATCHER, CH + 1, 2**40)
    response = await page.goto(f"{web.base}/t/{forged[:-4]}abcd")
    assert response is not None and response.status == 403


async def test_a_card_dragged_onto_the_felt_is_played_on_desktop(browser, served) -> None:
    """With the mouse, a playable card dragged onto the felt is played; one let go outside it
    goes back to the hand; a touch pointer never drags (a phone taps)."""
    service, web = served
    await four_humans_and_a_watcher(service)
    while True:  # the auction and the trump call from the service, up to the first lead
        table = service.get_table(CH)
        assert table is not None
        user = USERS[table.to_act[0]]
        legal = service.legal_actions(CH, user)
        if legal[0].startswith("play "):
            break
        await service.act(CH, user, legal[0])
    page = await open_page(browser, web, user, size=(1280, 800))
    move = table.move_number
    card = page.locator(".hand .card.playable").last
    code = await card.get_attribute("data-card")
    box = await card.bounding_box()
    felt = await page.locator(".felt").bounding_box()
    top = await page.locator("header.top").bounding_box()
    assert box and felt and top and code

    async def drag_to(x: float, y: float) -> None:
        await page.mouse.move(box["x"] + 20, box["y"] + 40)
        await page.mouse.down()
        await page.mouse.move(x, y, steps=8)
        await page.mouse.up()

    # A touch pointer pressed on the card and lifted over the felt: no drag, no move.
    await card.evaluate(
        """(node, to) => {
            const at = (type, x, y) => node.dispatchEvent(new PointerEvent(type, {
                bubbles: true, pointerId: 7, pointerType: "touch", clientX: x, clientY: y}));
            const r = node.getBoundingClientRect();
            at("pointerdown", r.left + 20, r.top + 40);
            at("pointermove", to[0], to[1]);
            at("pointerup", to[0], to[1]);
        }""",
        [felt["x"] + felt["width"] / 2, felt["y"] + felt["height"] / 2],
    )
    await asyncio.sleep(0.3)
    assert service.get_table(CH).move_number == move, "a touch pointer never drags"
    # Dragged and let go over the top bar: back in the hand, nothing played.
    await drag_to(top["x"] + top["width"] / 2, top["y"] + top["height"] / 2)
    await asyncio.sleep(0.3)
    assert service.get_table(CH).move_number == move
    assert await page.locator(f'.hand [data-card="{code}"]').count() == 1
    # Dragged onto the felt: played.
    await drag_to(felt["x"] + felt["width"] / 2, felt["y"] + felt["height"] / 2)
    await moved_on(service, move)
    assert (service.view(CH, user).game or {})["trick"][-1]["card"] == code
    await shows_move(page, move + 1)
    trick = await page.eval_on_selector_all(
        ".trick [data-card]", "els => els.map(e => e.dataset.card)"
    )
    assert trick == [code]
    assert page.errors == []


async def troikuntza_at_four(service: TableService, seed: int) -> None:
    """A TroiKuntza game of Ann, Bob, Cat and Dan (no move timer) started."""
    await service.open_table(CH, 99, HOST, "Ann", "troikuntza", options={"timer": "off"}, seed=seed)
    for user, name in ((BOB, "Bob"), (CAT, "Cat"), (DAN, "Dan")):
        await service.join(CH, user, name)
    await service.start_game(CH, HOST)


async def test_a_troikuntza_player_melds_cards_he_picked_discards_and_another_calls_may_i(
    browser, served
) -> None:
    service, web = served
    await troikuntza_at_four(service, seed=3)
    rng = random.Random(5)
    # Draw and discard from the service (no May I) until the player to move can lay down.
    for _ in range(400):
        table = service.get_table(CH)
        assert table is not None
        seat = table.to_act[0]
        legal = service.legal_actions(CH, USERS[seat])
        melds = [a for a in legal if a.startswith("meld ")]
        if melds:
            break
        quiet = [a for a in legal if a in ("pass", "draw")] or [
            a for a in legal if a.startswith("discard ")
        ]
        await service.act(CH, USERS[seat], rng.choice(quiet or legal))
    else:
        raise AssertionError("nobody could lay down")
    user = USERS[seat]
    page = await open_page(browser, web, user)
    groups = [group.split() for group in melds[0].removeprefix("meld ").split(" | ")]
    # He picks each group's cards in his hand (taps), sets the group aside, then lays down.
    for group in groups:
        for card in group:
            choice = page.locator(f'.hand .card.pick[data-card="{card.upper()}"]:not(.picked)')
            await choice.first.click(position={"x": 8, "y": 30})
        await page.click('[data-tool="group"]')
    move = service.get_table(CH).move_number
    laydown = page.locator('.picked-moves [data-action^="meld "]')
    composed = await laydown.get_attribute("data-action")
    assert composed is not None  # his picks, in his hand's order: the same cards as the move
    picked = [sorted(g.split()) for g in composed.removeprefix("meld ").split(" | ")]
    assert picked == [sorted(group) for group in groups]
    await laydown.click()
    await moved_on(service, move)
    view = service.view(CH, user).game or {}
    laid = sorted(c for m in view["melds"] if m["owner"] == seat for c in m["cards"])
    assert laid == sorted(card.upper() for group in groups for card in group)
    await shows_move(page, move + 1)
    # He discards by picking a card; a player who may call May I calls it from his page.
    hand_card = page.locator(".hand .card.pick").first
    card = await hand_card.get_attribute("data-card")
    await hand_card.click(position={"x": 8, "y": 30})
    await page.click(f'[data-action="discard {card.lower()}"]')
    await moved_on(service, move + 1)
    view = service.view(CH, user).game or {}
    eligible = (view.get("mayi") or {}).get("eligible") or []
    assert eligible, "the discard opened a May I window (this deal's seed)"
    caller = USERS[eligible[0]]
    other = await open_page(browser, web, caller)
    move = service.get_table(CH).move_number
    await other.click('[data-action="mayi"]')
    await moved_on(service, move)
    calls = (service.view(CH, caller).game or {}).get("mayi", {}).get("calls") or []
    assert eligible[0] in calls
    assert other.errors == []
    assert page.errors == []


def meld_cards(service: TableService, user: int, number: str) -> list[str]:
    """The cards of meld ``number`` (as the views number them) as ``user`` sees them."""
    melds = (service.view(CH, user).game or {})["melds"]
    return next(list(m["cards"]) for m in melds if m["number"] == int(number))


async def test_a_troikuntza_player_lays_off_a_card_he_picked_on_a_meld_and_a_joker_at_an_end(
    browser, served
) -> None:
    """Once down, a player lays off by picking a card in his hand and tapping the meld; a joker
    on a run goes at the end he taps (low or high: the engine's two moves) from the meld itself.
    The rest of the game is played from the service: melds when someone can come out, draws and
    discards otherwise."""
    service, web = served
    await troikuntza_at_four(service, seed=1)
    rng = random.Random(5)
    pages: dict[int, Any] = {}
    done = {"card": False, "joker": False}
    for _ in range(3000):
        table = service.get_table(CH)
        if table is None or not table.to_act or all(done.values()):
            break
        seat = table.to_act[0]
        user = USERS[seat]
        legal = service.legal_actions(CH, user)
        layoffs = [a for a in legal if a.startswith("layoff ")]
        ends = [a for a in layoffs if a.endswith((" low", " high"))]
        plain = [a for a in layoffs if not a.startswith("layoff jk ")]
        action = (ends if not done["joker"] else []) or (plain if not done["card"] else [])
        if action:
            move = table.move_number
            if user not in pages:
                pages[user] = await open_page(browser, web, user)
            page = pages[user]
            await shows_move(page, move)
            if await page.query_selector(".overlay .close"):  # the last round's summary
                await page.click(".overlay .close")
            chosen = action[0]
            card, number = chosen.split()[1:3]
            await page.locator(f'.hand .card.pick[data-card="{card.upper()}"]').first.click(
                position={"x": 8, "y": 30}
            )
            before = meld_cards(service, user, number)
            if chosen in ends:
                # Both ends offered on the meld, no tap on the meld itself.
                offered = await page.eval_on_selector_all(
                    f'[data-meld="{number}"] .end[data-action]',
                    "els => els.map(e => e.dataset.action)",
                )
                assert sorted(offered) == sorted(a for a in ends if a.split()[2] == number)
                assert await page.get_attribute(f'[data-meld="{number}"]', "data-action") is None
                await page.click(f'[data-meld="{number}"] .end[data-action="{chosen}"]')
            else:
                await page.click(f'[data-meld="{number}"][data-action="{chosen}"]')
            await moved_on(service, move)
            after = meld_cards(service, user, number)
            assert len(after) == len(before) + 1 and card.upper() in after
            done["joker" if chosen in ends else "card"] = True
            continue
        melds = [a for a in legal if a.startswith("meld ")]
        quiet = [a for a in legal if a in ("pass", "draw")] or [
            a for a in legal if a.startswith("discard ")
        ]
        await service.act(CH, user, melds[0] if melds else rng.choice(quiet or legal))
    assert done == {"card": True, "joker": True}, done
    for page in pages.values():
        assert page.errors == []


async def test_a_whole_troeven_deal_with_layouts_by_tapping(browser, served) -> None:
    """Troeven's layouts: every page shows exactly its legal moves as tappable controls (cards
    in the fan or the layout, the rest as buttons), and the whole first deal is played through
    by taps."""
    service, web = served
    game, players, seed = "troeven", 2, 8
    users = USERS[:2] if players == 2 else (*USERS, WATCHER + 1)
    await service.open_table(CH, 99, users[0], "p0", game, options={"timer": "off"}, seed=seed)
    for n, user in enumerate(users[1:], start=1):
        await service.join(CH, user, f"p{n}")
    await service.start_game(CH, users[0])
    pages = [await open_page(browser, web, user) for user in users]
    moves = 0
    while (table := service.get_table(CH)) is not None and table.to_act:
        view = service.view(CH, users[table.to_act[0]]).game or {}
        if view.get("hand_number", 1) > 1:
            break
        move = table.move_number
        seat = table.to_act[0]
        page = pages[seat]
        await shows_move(page, move)
        actions = await page.eval_on_selector_all(
            "[data-action]", "els => els.map(e => e.dataset.action)"
        )
        assert sorted(actions) == sorted(service.legal_actions(CH, users[seat]))
        target = await page.query_selector(".playable[data-action]") or await page.query_selector(
            "[data-action]"
        )
        assert target is not None
        await target.click(position={"x": 8, "y": 30})
        await moved_on(service, move)
        moves += 1
    assert moves >= 16, "the whole first deal was played from the pages"
    for page in pages:
        assert page.errors == []


class Heard:
    """The engine events of every move on the table (for what no page may show: the Fool's
    exchange names its value, never its card)."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []

    async def on_table_event(self, event: TableEvent) -> None:
        if isinstance(event, ActionApplied):
            self.events.extend(dict(e.data) for e in event.events)

    def first(self, kind: str) -> dict[str, Any] | None:
        return next((e for e in self.events if e["type"] == kind), None)


def troggu_choice(service: TableService, user: int) -> str:
    """The first bidder takes the Tapp, the others pass; in play the first playable card, the
    Fool last (so that its holder, void and with no other trump, holds it back)."""
    legal = service.legal_actions(CH, user)
    view = service.view(CH, user).game or {}
    if view["phase"] == "bidding":
        return "tapp" if "tapp" in legal and not any(view["bids"]) else "pass"
    return next((a for a in legal if a != "play fool"), legal[0])


async def troggu_at_five(service: TableService) -> tuple[int, ...]:
    """A Troggu game at five players (seed 0, no move timer) started; its players' user ids."""
    users = (*USERS, WATCHER + 1)
    await service.open_table(CH, 99, users[0], "p0", "troggu", options={"timer": "off"}, seed=0)
    for n, user in enumerate(users[1:], start=1):
        await service.join(CH, user, f"p{n}")
    await service.start_game(CH, users[0])
    return users


async def test_troggu_at_five_tapp_exchange_by_the_panel_and_the_fool_held_back(
    browser, served
) -> None:
    """A whole first deal of Troggu at five players, played from the pages: the Tappist sees the
    Tapp's cards marked in his hand, picks the cards to put down and confirms once (the page
    sends each discard in turn); a player void in the suit led, whose only trump is the Fool,
    holds it back: his page says so (no other page does), the Fool stays in his hand, not
    playable, until the last trick, where he plays it from his page; it goes to his pile and he
    gives the winner a card in exchange."""
    service, web = served
    users = await troggu_at_five(service)
    heard = Heard()
    service.add_listener(heard)
    pages = [await open_page(browser, web, user) for user in users]
    exchanged, held_checks, moves = False, 0, 0
    while (table := service.get_table(CH)) is not None and table.to_act:
        seat = table.to_act[0]
        user, page, move = users[seat], pages[seat], table.move_number
        view = service.view(CH, user).game or {}
        if view["hand_number"] > 1:
            break
        await shows_move(page, move)
        legal = service.legal_actions(CH, user)
        shown = await page.eval_on_selector_all(
            "[data-action]", "els => els.map(e => e.dataset.action)"
        )
        if view["phase"] == "discard":
            # The panel: no discard goes by one tap; the Tapp's cards are marked in the hand.
            assert not [a for a in shown if a.startswith("discard ")]
            fresh = await page.eval_on_selector_all(
                ".hand .fresh", "els => els.map(e => e.dataset.card)"
            )
            assert sorted(fresh) == sorted(view["tapp"]) and fresh
            left = view["discards_left"]
            chosen = [a.split()[1].upper() for a in legal[:left]]
            for card in chosen:
                await page.locator(f'.hand .card.pick[data-card="{card}"]').click(
                    position={"x": 8, "y": 30}
                )
            panel = await page.text_content('[data-panel="exchange"]')
            assert panel is not None and f"{left}/{left}" in panel
            await page.click('[data-tool="put-down"]')
            for _ in range(TIMEOUT // 10):
                if (service.get_table(CH) or table).move_number >= move + left:
                    break
                await asyncio.sleep(0.01)
            mine = service.view(CH, user).game or {}
            assert sorted(mine["discards"]) == sorted(chosen), "the cards he picked went down"
            assert mine["phase"] == "play"
            exchanged = True
            continue
        assert sorted(shown) == sorted(legal)
        action = troggu_choice(service, user)
        await page.locator(f'[data-action="{action}"]').click(position={"x": 8, "y": 30})
        await moved_on(service, move)
        moves += 1
        held = heard.first("fool_held")
        after = service.get_table(CH)
        if held is None or after is None or not after.to_act:
            continue
        holder = held["seat"]
        if (service.view(CH, users[holder]).game or {}).get("hand_number") != 1:
            continue
        # While he holds it back: his page says so and keeps the Fool unplayable in his hand
        # (but at the last trick); no other page says anything of it.
        for other, other_page in enumerate(pages):
            await shows_move(other_page, after.move_number)
            line = await other_page.text_content(".turn .lines") or ""
            assert ("Fool held back" in line) == (other == holder), (other, line)
        hand = (service.view(CH, users[holder]).game or {})["hand"]
        fool = pages[holder].locator('.hand [data-card="FOOL"]')
        assert await fool.count() == ("FOOL" in hand)
        if "FOOL" not in hand:
            continue  # played to the last trick
        last = len(hand) == 1
        assert (await fool.get_attribute("data-action") == "play fool") == (
            last and after.to_act[0] == holder
        )
        held_checks += 1
    assert exchanged, "the Tapp was taken and put down from the Tappist's page"
    assert held_checks > 1, "the Fool was held back (this seed) and the pages showed it"
    exchange = heard.first("fool_exchange")
    assert exchange is not None and exchange["seat"] == held["seat"]
    assert exchange["to"] != held["seat"], "a held Fool never wins: he pays the winner a card"
    [last_trick] = [e for e in heard.events if e["type"] == "trick" and e["trick_number"] == 11]
    assert {"seat": held["seat"], "card": "FOOL"} in last_trick["cards"]
    assert moves > 55
    for page in pages:
        assert page.errors == []


async def test_a_refused_discard_drops_the_discards_queued_behind_it(browser, served) -> None:
    """The Tappist puts three cards down with one confirmation: the page sends the first, and each
    next one when the last is committed. When the server refuses one, the rest are dropped at
    once: the next frame (a discard made from Discord) does not send them on its own."""
    service, web = served
    users = await troggu_at_five(service)
    while (view := service.view(CH, users[(table := service.get_table(CH)).to_act[0]]).game)[
        "phase"
    ] == "bidding":
        await service.act(
            CH, users[table.to_act[0]], troggu_choice(service, users[table.to_act[0]])
        )
    assert view["phase"] == "discard" and view["discards_left"] >= 3
    tappist = users[table.to_act[0]]
    sent: list[dict[str, Any]] = []
    refused = asyncio.Event()

    def route(ws: Any) -> None:
        server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            frame = json.loads(message)
            sent.append(frame)
            if frame.get("type") == "act" and len([f for f in sent if f["type"] == "act"]) == 2:
                # The second discard: refused, as the server would refuse a stale move.
                ws.send(json.dumps({"type": "error", "message": "That move is no longer open."}))
                refused.set()
                return
            server.send(message)

        ws.on_message(from_page)

    page = await browser.new_page(viewport={"width": 400, "height": 850})
    await page.route_web_socket("**/ws/**", route)
    await page.goto(web.link(tappist, CH))
    await shows_move(page, table.move_number)
    legal = service.legal_actions(CH, tappist)
    chosen = [a.split()[1].upper() for a in legal[: view["discards_left"]]]
    for card in chosen:
        await page.locator(f'.hand .card.pick[data-card="{card}"]').click(
            position={"x": 8, "y": 30}
        )
    move = table.move_number
    await page.click('[data-tool="put-down"]')
    await asyncio.wait_for(refused.wait(), TIMEOUT / 1000)
    assert service.get_table(CH).move_number == move + 1, "the first discard went down"
    # A discard made elsewhere (the Discord panel): the page's next frame must not send the third.
    await service.act(CH, tappist, service.legal_actions(CH, tappist)[0])
    await page.wait_for_function(
        "m => +document.getElementById('table').dataset.move >= m", arg=move + 2, timeout=TIMEOUT
    )
    # A request after it, answered in order on the same socket: anything the frame had sent
    # would have reached the server before it.
    await page.click('[data-tool="sheet"]')
    await page.wait_for_selector(".overlay", timeout=TIMEOUT)
    after = sent[[f["type"] for f in sent].index("act") + 2 :]
    assert [f["type"] for f in after] == ["sheet"], after
    assert service.get_table(CH).move_number == move + 2, "nothing else went down"


async def test_troggu_at_seven_the_partner_call_is_a_compact_chooser(browser, served) -> None:
    """At seven players the Tappist calls his partner from a chooser of the trumps II-XX and
    a Play alone button; the call is made from the page."""
    service, web = served
    users = (*USERS, 10, 11, 12)
    await service.open_table(CH, 99, users[0], "p0", "troggu", options={"timer": "off"}, seed=3)
    for n, user in enumerate(users[1:], start=1):
        await service.join(CH, user, f"p{n}")
    await service.start_game(CH, users[0])
    while True:
        table = service.get_table(CH)
        assert table is not None
        user = users[table.to_act[0]]
        view = service.view(CH, user).game or {}
        if view["phase"] == "call":
            break
        legal = service.legal_actions(CH, user)
        await service.act(
            CH, user, troggu_choice(service, user) if view["phase"] == "bidding" else legal[0]
        )
    page = await open_page(browser, web, user, size=(1280, 800))
    chooser = await page.eval_on_selector_all(
        '[data-panel="call"] [data-action]', "els => els.map(e => e.dataset.action)"
    )
    assert sorted(chooser) == sorted(service.legal_actions(CH, user))
    assert len(chooser) == 20  # II-XX and Play alone
    everywhere = await page.eval_on_selector_all("[data-action]", "els => els.length")
    assert everywhere == 20, "a call is made from the chooser only, never by a card of the hand"
    assert await page.text_content('[data-action="call t12"]') == "XII"
    move = table.move_number
    await page.click('[data-action="call t12"]')
    await moved_on(service, move)
    assert (service.view(CH, user).game or {})["called"] == "T12"
    assert page.errors == []


async def test_the_replay_viewer_steps_forward_and_back_through_a_finished_game(
    browser, served
) -> None:
    from bot.records import build, finished_game
    from bot.web import replay
    from tests.bot.test_records import GUILD, play_game

    service, web = served
    table_id = await play_game(service, "troika", 4)
    found = await service.db.run(lambda conn: finished_game(conn, GUILD, table_id))
    assert found is not None
    record = build(found)
    game = engine.new_game("troika", 4, options=record["options"], seed=record["seed"])
    after: list[Any] = [game.to_json()]
    for move in record["actions"]:
        game.apply(move["seat"], move["action"])
        after.append(game.to_json())

    async def shows(page: Any, step: int) -> None:
        """The page is at ``step`` and shows every hand and the trick of the game then."""
        await page.wait_for_selector(f'#table[data-step="{step}"]', timeout=TIMEOUT)
        then = engine.load(after[step])
        for seat in range(4):
            held = await page.eval_on_selector_all(
                f'.open-hand[data-seat="{seat}"] [data-card]', "els => els.map(e => e.dataset.card)"
            )
            assert held == list(then.view(seat)["hand"]), (step, seat)
        trick = await page.eval_on_selector_all(
            ".trick:not(.done) [data-card]", "els => els.map(e => e.dataset.card)"
        )
        assert trick == [c["card"] for c in then.view(None).get("trick") or []], step
        counter = await page.text_content(".counter")
        assert counter == f"Move {step} of {len(record['actions'])}"

    page = await browser.new_page(viewport={"width": 400, "height": 850})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    await page.goto(web.replay_link(GUILD, table_id, "en"))
    await shows(page, 0)
    assert await page.get_attribute('[data-action="back"]', "disabled") is not None
    for step in range(1, 7):
        await page.click('[data-action="forward"]')
        await shows(page, step)
    caption = await page.text_content(".caption")
    told = replay.step_frame(record, 6, "en")["caption"]
    assert told and caption and all(line in caption for line in told)
    await page.keyboard.press("ArrowLeft")
    await shows(page, 5)
    await page.click('[data-action="back"]')
    await shows(page, 4)
    await page.keyboard.press("End")
    await shows(page, len(record["actions"]))
    assert await page.get_attribute('[data-action="forward"]', "disabled") is not None
    await page.click('[data-action="first"]')
    await shows(page, 0)
    # Another seat's hand at the bottom: the fan follows the seat picked.
    await page.click('.open-hand[data-seat="2"] [data-action="show-seat"]')
    await page.wait_for_selector('.turn[data-seat="2"]', timeout=TIMEOUT)
    fan = await page.eval_on_selector_all(
        ".hand [data-card]", "els => els.map(e => e.dataset.card)"
    )
    assert fan == list(engine.load(after[0]).view(2)["hand"])
    assert errors == []
    await page.close()
