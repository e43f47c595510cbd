"""No card of any hand ever appears in a public (non-ephemeral) message or embed.

After every move, every public message body the bot sent or edited since the last check (the
REST log: channel messages and non-ephemeral interaction responses) is searched for each card
that is in somebody's hand and has never been public (a card on the discard pile, a face-up
Troeven card, or a played card is public; a duplicate of a public TroiKuntza card cannot be
told apart, so it is not searched).
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

import pytest
from cog_world import World

import engine
from bot.render.games.cards import face, pretty
from bot.service import ActionApplied, RecordingListener


def card_codes(value: Any) -> set[str]:
    """Every card code anywhere in a view (dicts, lists, strings)."""
    found: set[str] = set()
    if isinstance(value, str):
        f = face(value)
        if f.family not in {"unknown", "hidden"} and len(value) >= 2:
            found.add(f.code)
    elif isinstance(value, Mapping):
        for item in value.values():
            found |= card_codes(item)
    elif isinstance(value, list | tuple):
        for item in value:
            found |= card_codes(item)
    return found


def leak_pattern(code: str) -> re.Pattern[str]:
    shown = pretty(code)
    # With and without the text or emoji variation selector: either way a reader sees the card.
    forms = {code, shown, shown.replace("\ufe0f", "").replace("\ufe0e", "")}
    alternatives = "|".join(re.escape(f) for f in forms)
    return re.compile(rf"(?<![A-Za-z0-9-])(?:{alternatives})(?![A-Za-z0-9-])")


def held_cards(world: World) -> set[str]:
    table = world.table()
    assert table is not None
    held: set[str] = set()
    for seat in table.seats:
        if seat.user_id is not None:
            view = world.service.view(world.channel.id, seat.user_id).game or {}
            held |= {face(c).code for c in view.get("hand") or []}
    return held


_HAND = re.compile(r"Table #\d+ · [a-z]+ (\d+)")


def payload_hand(payload: str) -> int | None:
    """The hand a table message body belongs to (its footer), None for other messages."""
    match = _HAND.search(payload)
    return int(match.group(1)) if match else None


async def play_and_check(
    world: World, moves: int, choose: Any = None, expect_hidden: bool = True
) -> int:
    """Play ``moves`` moves; after each, search the new public bodies for secret cards.

    Public per hand: cards in the spectator view, and cards in public engine events (split at
    each ``hand_over``, so the last trick of a hand counts for that hand, not the next deal).
    """
    rng = random.Random(11)
    recorder = RecordingListener()
    world.service.add_listener(recorder)
    public: dict[int, set[str]] = defaultdict(set)
    seen_events = 0
    cursor = 0
    checked = 0
    previous: tuple[int, set[str]] | None = None
    for step in range(moves + 1):
        if world.table() is None:
            break
        view = world.service.view(world.channel.id, 0).game or {}
        hand = int(view.get("hand_number") or 0)
        event_hand = previous[0] if previous else hand
        for event in recorder.of_type(ActionApplied)[seen_events:]:
            for engine_event in event.events:
                if engine_event.private_to is None:
                    public[event_hand] |= card_codes(dict(engine_event.data))
                if engine_event.type == "hand_over":
                    event_hand += 1
        seen_events = len(recorder.of_type(ActionApplied))
        public[hand] |= card_codes(view)
        held = held_cards(world)
        for payload in world.public_payloads(since=cursor):
            belongs = payload_hand(payload)
            if previous is not None and belongs == previous[0] and belongs != hand:
                secret = previous[1] - public[belongs]
            else:
                secret = held - public[hand]
            for code in secret:
                assert not leak_pattern(code).search(payload), f"{code} of a hand is public"
            checked += len(secret)
        cursor = len(world.env.http_requests)
        previous = (hand, held)
        turn = world.human_to_act()
        if turn is None or step == moves:
            break
        member, legal = turn
        action = choose(legal) if choose else rng.choice(legal)
        await (world.by_button if step % 3 == 0 else world.by_command)(member, action)
    world.service.remove_listener(recorder)
    assert checked > 0 or not expect_hidden, "hands were checked"
    return checked


@pytest.mark.parametrize(
    ("game", "humans", "options", "moves"),
    [
        ("troika", 4, {"preset": "saskatchewan"}, 60),  # kitty: the declarer's discards
        ("troggu", 4, {"deals": "1"}, 40),  # Tapp discards stay hidden
        ("troeven", 2, {"version": "stock"}, 50),  # private draws from the stock
        # Layout: every card a player holds is face up (public); the face-down ones nobody
        # knows, so this checks that the public view's layout is all the bot shows.
        ("troeven", 2, {"version": "layout"}, 40),
        ("troikuntza", 4, {}, 60),  # stock draws, May I penalty cards
    ],
)
async def test_no_hand_card_is_ever_public(
    world: World, game: str, humans: int, options: dict[str, str], moves: int
) -> None:
    if game not in engine.GAMES:
        pytest.skip(f"engine/{game} has not landed in engine.GAMES yet")
    await world.open(game, humans=humans, **options)

    def prefer_tapp(legal: list[str]) -> str:
        if "tapp" in legal:
            return "tapp"
        return random.Random(len(legal)).choice(legal)

    await play_and_check(
        world,
        moves,
        prefer_tapp if game == "troggu" else None,
        expect_hidden=options.get("version") != "layout",
    )


def test_the_leak_pattern_finds_a_card_in_text() -> None:
    assert leak_pattern("10H").search('{"value": "ann plays 10♥"}')
    assert leak_pattern("K-CU").search("K🏆 and more")
    assert not leak_pattern("5H").search("15H")


async def test_the_check_catches_a_hand_shown_in_public(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The privacy check is not vacuous: render the host's own view in public and it fails."""
    from bot.app.publisher import TablePublisher
    from bot.render.presenter import PRESENTERS, Section
    from bot.service import TableService

    host = world.members[0].id
    monkeypatch.setattr(
        TableService, "public_view", lambda self, channel: self.view(channel, host).game
    )
    # (the publisher reads the public view from the table's snapshot: the host's view there)
    monkeypatch.setattr(
        TablePublisher,
        "_view_of",
        lambda self, snap: self.service.view(snap.table.channel_id, host).game,
    )
    presenter = PRESENTERS["troika"]
    shown = presenter.table_sections  # the game's function (a surface: a staticmethod)
    monkeypatch.setattr(
        presenter,
        "table_sections",
        lambda self, view, seating: [
            *shown(view, seating),
            Section("Hand", " ".join(pretty(c) for c in view.get("hand", []))),
        ],
    )
    await world.open("troika", humans=4)
    with pytest.raises(AssertionError, match="of a hand is public"):
        await play_and_check(world, 5)
