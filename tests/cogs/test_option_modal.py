"""/options: an option with too many values for a select is typed in a modal, whose text input
sits in a label component (Discord deprecates a text input in an action row)."""

from __future__ import annotations

from cog_world import World


async def test_a_typed_option_comes_in_a_labelled_modal_and_is_set(world: World) -> None:
    host = world.members[0]
    await world.slash(host, "new troika")
    shown = await world.slash(host, "options")
    message = shown.response.message
    pick = next(
        c.custom_id
        for row in message.components
        for c in getattr(row, "children", [])
        if any(o.value == "target" for o in getattr(c, "options", []))
    )
    asked = await host.select(message, ["target"], custom_id=pick)
    modal = asked.modal
    assert modal is not None
    (label,) = modal["components"]
    assert label["type"] == 18 and label["label"] == "target"  # a label component
    assert label["component"]["type"] == 4 and label["component"]["custom_id"] == "value"
    assert "description" in label
    done = await host.submit_modal(asked, {"value": "60"})
    assert done.acknowledged
    assert world.table().options["target"] == 60
