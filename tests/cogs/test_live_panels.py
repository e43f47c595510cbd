"""The live private hand: a panel a player opened is redrawn when the table changes for him."""

from __future__ import annotations

from typing import Any

from cog_world import World
from simcord import MemberActor

from bot.service import TableStatus


def act_buttons(components: list[dict[str, Any]]) -> list[str]:
    """The actions of a panel's buttons and selects."""
    out = []
    for row in components:
        for child in row.get("components", []):
            custom = child.get("custom_id") or ""
            if custom.startswith("tt:act:"):
                out.append(custom.split(":", 3)[3])
            out += [o["value"] for o in child.get("options", [])]
    return out


def waiting_member(world: World) -> MemberActor:
    table = world.table()
    assert table is not None
    for seat in table.seats:
        if seat.is_human and seat.index not in table.to_act and seat.user_id is not None:
            return world.member_of(seat.user_id)
    raise AssertionError("everybody is awaited")


async def test_a_waiting_players_panel_is_edited_when_his_turn_comes(world: World) -> None:
    await world.open("troika", humans=4)
    member = waiting_member(world)
    panel = await member.click(world.live_table_message(), label="Show my hand")
    assert panel.response is not None and panel.response.ephemeral
    assert not act_buttons(panel.response.components), "not his turn: no move to press"
    assert (panel.response.embeds[0].description or "").startswith("Waiting: ")

    def his_turn(w: World) -> bool:
        return member.id in {
            s.user_id for s in (w.table().seats if w.table() else ()) if s.index in w.table().to_act
        }

    await world.play(stop=his_turn, via="command")
    assert world.table() is not None and world.table().status is TableStatus.PLAYING
    legal = world.service.legal_actions(world.channel.id, member.id)
    assert legal, "his turn now"
    shown = panel.response  # the same ephemeral message, as Discord holds it now
    assert shown is not None
    assert sorted(act_buttons(shown.components)) == sorted(legal), "redrawn with his moves"
    assert (shown.embeds[0].description or "").startswith("**Your move:**")
    # A task only while it draws: a finished one is not kept by the panel (nor the table's
    # message worker by its channel), for the garbage collector to scan at every collection.
    await world.env.settle()
    live = world.bot.live_panels._panels[world.channel.id][member.id]
    assert live.redraw is None
    assert world.bot.table_publisher._channels[world.channel.id].worker is None


async def test_a_may_i_button_appears_when_the_window_opens(world: World) -> None:
    await world.open("troikuntza", humans=4, mayi_window=10)
    table = world.table()
    assert table is not None
    panels = {}
    for seat in table.seats:
        member = world.member_of(seat.user_id)  # type: ignore[arg-type]
        panels[seat.index] = await member.click(world.live_table_message(), label="Show my hand")

    def window_open(w: World) -> bool:
        game = w.service.public_view(w.channel.id) or {}
        return bool((game.get("mayi") or {}).get("open")) and game.get("phase") == "draw"

    def current_discards(w: World, seat: int, legal: list[str]) -> str:
        discards = [a for a in legal if a.startswith("discard")]
        return discards[0] if discards else ("draw" if "draw" in legal else legal[0])

    # Play until a discard opens a May I window (the first upcard's window may be open already).
    if not window_open(world):
        await world.play(stop=window_open, choose=current_discards)
    view = world.service.public_view(world.channel.id) or {}
    eligible = [s for s in (view.get("mayi") or {}).get("eligible", []) if s in panels]
    assert eligible, "someone may call May I"
    checked = 0
    for seat in eligible:
        user = world.table().seat(seat).user_id  # type: ignore[union-attr]
        legal = world.service.legal_actions(world.channel.id, user)
        if "mayi" not in legal:
            continue  # answered already
        checked += 1
        shown = panels[seat].response
        assert shown is not None and "mayi" in act_buttons(shown.components), seat
        text = " ".join(f"{f.name} {f.value}" for f in shown.embeds[0].fields)
        assert "<t:" in text, "the window's deadline is shown"
    assert checked, "at least one eligible player still had the call to make"
