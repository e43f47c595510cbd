"""A move made of cards the player picks himself, group by group (the presenter's
``CardGroups``: which cards make each group laid down), on his private panel.

One multi-select of his cards per group (at most 25 cards, Discord's limit on a select's
options), then a button that sends the move (``<verb> 7h 7s 7c | qh qd jk``) through the service
like any other; the engine refuses a wrong one with its reason. What he has picked so far rides
in the components' custom ids (``bot.app.custom_ids.CARDS``): every pick redraws the panel with
the picks as the selects' defaults and in the ids, so the bot keeps no state for a pick.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import discord

from bot.app import custom_ids
from bot.i18n import _, _p
from bot.render.games.cards import pretty
from bot.render.presenter import CardGroups
from bot.service import WrongPhase

#: Between the groups of ``picks`` and between the cards of a group (neither is in a card code).
GROUPS, CARDS = "|", "."
#: Options of one select (Discord's limit).
OPTIONS = 25
#: The groups take the first rows; the last holds the buttons.
ROWS = 5


def parse(picks: str, count: int) -> list[list[str]]:
    """``picks`` as ``count`` groups of card codes (missing groups empty, extra ones dropped)."""
    groups = [[c for c in g.split(CARDS) if c] for g in picks.split(GROUPS)] if picks else []
    return (groups + [[] for _ in range(count)])[:count]


def text(groups: Sequence[Sequence[str]]) -> str:
    """``groups`` written for a custom id (``parse``'s inverse)."""
    return GROUPS.join(CARDS.join(g) for g in groups)


def action(spec: CardGroups, groups: Sequence[Sequence[str]]) -> str:
    """The move the picked cards make, as the player would type it."""
    return f"{spec.verb} " + " | ".join(" ".join(g) for g in groups)


def values_as_cards(values: Sequence[str]) -> list[str]:
    """A select's chosen options as card codes (an option's value is ``code#copy``)."""
    return [str(v).split("#", 1)[0] for v in values]


def fits(channel: int, groups: Sequence[Sequence[str]]) -> bool:
    """Whether every custom id of the pick stays within Discord's 100 characters."""
    picks = text(groups)
    longest = max(
        len(custom_ids.cards(channel, 9, picks)), len(custom_ids.cards_do(channel, "open", picks))
    )
    return longest <= custom_ids.MAX_LENGTH


def picker(
    channel: int, hand: Sequence[str], spec: CardGroups, groups: Sequence[Sequence[str]]
) -> discord.ui.View:
    """One select of the hand's cards per group, the picks so far chosen in it, then a button
    that makes the move (enabled once every group holds its fewest cards) and one back to the
    panel's moves."""
    if len(spec.groups) >= ROWS or len(hand) > OPTIONS:
        raise WrongPhase(_("Too many cards to pick here: type the move with its command."))
    cards = [str(c).lower() for c in hand]
    picks = text(groups)
    view = discord.ui.View(timeout=None)
    for index, ((name, least), chosen) in enumerate(zip(spec.groups, groups, strict=True)):
        wanted = Counter(chosen)
        seen: Counter[str] = Counter()
        options = []
        for card in cards:
            copy = seen[card]
            seen[card] += 1
            options.append(
                discord.SelectOption(
                    label=pretty(card), value=f"{card}#{copy}", default=copy < wanted[card]
                )
            )
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=custom_ids.cards(channel, index, picks),
            placeholder=name[:150],
            min_values=min(least, len(options)),
            max_values=len(options),
            options=options,
            row=index,
        )
        view.add_item(select)
    ready = all(len(g) >= least for g, (_name, least) in zip(groups, spec.groups, strict=True))
    row = len(spec.groups)
    view.add_item(
        discord.ui.Button(
            label=_p("button", "Lay down"),
            style=discord.ButtonStyle.success,
            custom_id=custom_ids.cards_do(channel, "go", picks),
            disabled=not ready,
            row=row,
        )
    )
    view.add_item(
        discord.ui.Button(
            label=_p("button", "Back"),
            emoji="↩️",
            style=discord.ButtonStyle.secondary,
            custom_id=custom_ids.refresh(channel),
            row=row,
        )
    )
    return view
