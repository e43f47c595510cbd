"""Trinket's ``/rules`` in the reader's language: the rules of docs/rules/trinket.md."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n import _


def rules_text(options: Mapping[str, Any] | None = None) -> str:
    """The rules (Trinket has no option of its own: the turn timer is every game's)."""
    return _(
        "**Trinket** - 2 or 3 players, four cards each from A K Q J 10 9 of spades and hearts. "
        "Follow suit if you can (`play ah`); the highest card of the suit led wins the trick and "
        "leads the next. One point a trick; after four tricks the most points win."
    )
