"""The host's option editor: select an option, then its value (or type it, for long ranges).

Sent ephemerally to the host with ``/options`` in the lobby. Every change goes through
``service.set_options``, which validates it and refuses it for anyone but the host.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.app.errors import report_error
from bot.i18n import _
from bot.i18n.core import set_locale
from bot.render import embeds
from bot.service import TableService
from engine import GAMES
from engine.options import GameSpec, Option, format_value

PAGE = 25


class OptionsEditor(discord.ui.View):
    def __init__(self, service: TableService, channel: int, host_id: int, spec: GameSpec) -> None:
        super().__init__(timeout=600)
        self.service = service
        self.channel = channel
        self.host_id = host_id
        self.spec = spec
        self.chosen: Option | None = None
        self._build()

    def _build(self) -> None:
        self.clear_items()
        table = self.service.get_table(self.channel)
        current = dict(table.options) if table else self.spec.defaults()
        if self.spec.presets:
            preset = discord.ui.Select(
                placeholder=_("Preset…"),
                options=[discord.SelectOption(label=p, value=p) for p in self.spec.presets][:PAGE],
                row=0,
            )
            preset.callback = self._on_preset  # type: ignore[method-assign]
            self.preset_select = preset
            self.add_item(preset)
        for page in range(0, min(len(self.spec.options), PAGE * 2), PAGE):
            chunk = self.spec.options[page : page + PAGE]
            pick = discord.ui.Select(
                placeholder=_("Option to change…"),
                options=[
                    discord.SelectOption(
                        label=f"{o.name}: {format_value(current.get(o.name, o.default))}"[:100],
                        value=o.name,
                        description=_(o.description)[:100],
                    )
                    for o in chunk
                ],
                row=1 + page // PAGE,
            )
            pick.callback = self._make_pick(pick)  # type: ignore[method-assign]
            self.add_item(pick)
        if self.chosen is not None and len(self.chosen.values()) <= PAGE:
            values = discord.ui.Select(
                placeholder=_("New value of {option}…", option=self.chosen.name)[:150],
                options=[
                    discord.SelectOption(label=format_value(v), value=format_value(v))
                    for v in self.chosen.values()
                ],
                row=3,
            )
            values.callback = self._make_value(values)  # type: ignore[method-assign]
            self.add_item(values)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        # Runs in the component's own task before its callback: answer in the user's language.
        set_locale(interaction.locale)
        if interaction.user.id != self.host_id:
            await interaction.response.send_message(_("Only the host changes the options."),
                                                    ephemeral=True)  # fmt: skip
            return False
        return True

    async def on_error(
        self, interaction: discord.Interaction, error: Exception, item: discord.ui.Item[Any]
    ) -> None:
        await report_error(interaction, error)

    async def _redraw(self, interaction: discord.Interaction, note: str) -> None:
        self._build()
        table = self.service.get_table(self.channel)
        embed = embeds.options_embed(table) if table else embeds.text_embed(_("Options"), note)
        embed.set_author(name=note[:250])
        await interaction.response.edit_message(embed=embed, view=self)

    async def _on_preset(self, interaction: discord.Interaction) -> None:
        preset = self.preset_select.values[0]
        await self.service.set_options(self.channel, interaction.user.id, preset=preset)
        await self._redraw(interaction, _("Preset set to {preset}.", preset=preset))

    def _make_pick(self, select: discord.ui.Select[Any]) -> Any:
        async def pick(interaction: discord.Interaction) -> None:
            self.chosen = self.spec.option(select.values[0])
            if len(self.chosen.values()) > PAGE:
                await interaction.response.send_modal(ValueModal(self, self.chosen))
                return
            await self._redraw(
                interaction, _("Choose the new value of {option}.", option=self.chosen.name)
            )

        return pick

    def _make_value(self, select: discord.ui.Select[Any]) -> Any:
        async def choose(interaction: discord.Interaction) -> None:
            assert self.chosen is not None
            await self.set_value(interaction, self.chosen, select.values[0])

        return choose

    async def set_value(self, interaction: discord.Interaction, option: Option, value: str) -> None:
        await self.service.set_options(self.channel, interaction.user.id, {option.name: value})
        self.chosen = None
        await self._redraw(
            interaction, _("{option} set to {value}.", option=option.name, value=value)
        )


class ValueModal(discord.ui.Modal):
    def __init__(self, editor: OptionsEditor, option: Option) -> None:
        super().__init__(title=_("Set {option}", option=option.name)[:45])
        self.editor = editor
        self.option = option
        self.value: discord.ui.TextInput[Any] = discord.ui.TextInput(
            custom_id="value", max_length=20
        )
        # A label component, not a text input in an action row (which Discord deprecates): the
        # option's name as its text, the values it takes below it, with room to say them whole.
        self.add_item(
            discord.ui.Label(
                text=option.name[:45],
                description=option.describe_values()[:100],
                component=self.value,
            )
        )

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        set_locale(interaction.locale)  # (the modal's own task)
        return True

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await self.editor.set_value(interaction, self.option, self.value.value)

    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:
        await report_error(interaction, error)


def editor_for(service: TableService, channel: int, host_id: int, game: str) -> OptionsEditor:
    return OptionsEditor(service, channel, host_id, GAMES[game])
