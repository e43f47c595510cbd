"""The marking functions, the current language, and the pseudo-language."""

from __future__ import annotations

import asyncio
import contextvars

import pytest

from bot.i18n import PSEUDO, _, _n, current, language_of, use_locale
from bot.i18n.core import set_locale
from bot.i18n.pseudo import pseudo, strip_pseudo


def test_discord_locales_map_to_our_languages() -> None:
    assert language_of("fr") == "fr"
    assert language_of("en-US") == "en"
    assert language_of("nl") == "nl"
    assert language_of("pt-BR") == "en"
    assert language_of(None) == "en"


def test_english_is_the_source_text_formatted() -> None:
    assert _("You bid {bid}.", bid=7) == "You bid 7."
    assert _("Keep {this} as typed") == "Keep {this} as typed"
    assert _n("{n} card", "{n} cards", 1) == "1 card"
    assert _n("{n} card", "{n} cards", 3) == "3 cards"


def test_pseudo_keeps_fields_code_and_tokens_and_is_longer() -> None:
    with use_locale(PSEUDO):
        text = _("You bid {bid} <t:5:R>, type `pass`.", bid=7)
    assert text.startswith("⟦") and text.endswith("⟧")
    assert "7" in text and "<t:5:R>" in text and "`pass`" in text
    assert "You" not in text
    assert len(pseudo("Hello there")) >= len("Hello there") * 1.4
    assert strip_pseudo(f"Bob {text}").strip() == "Bob"


def test_language_is_per_task() -> None:
    async def speaker(code: str) -> str:
        set_locale(code)
        await asyncio.sleep(0)
        return current()

    async def both() -> list[str]:
        return list(await asyncio.gather(speaker("fr"), speaker("de")))

    assert asyncio.run(both()) == ["fr", "de"]
    assert current() == "en"


def test_setting_the_language_a_task_already_has_leaves_its_context_alone() -> None:
    """Every publisher worker and panel redraw sets its language: the default (or the one its
    creator had) needs no new mapping in the task's context for the collector to scan."""

    async def speaker(code: str) -> tuple[bool, str]:
        before = contextvars.copy_context()
        set_locale(code)
        after = contextvars.copy_context()
        return len(after) == len(before), current()

    async def both() -> list[tuple[bool, str]]:
        return list(await asyncio.gather(speaker("en-US"), speaker("fr")))

    # (in a context of its own: one where another test set a language proves nothing)
    assert contextvars.Context().run(asyncio.run, both()) == [(True, "en"), (False, "fr")]


def test_translations_looked_up_once_follow_the_catalog_in_use(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``_`` and ``_p`` keep each language's translations once looked up (a game's words were
    a miss in every catalog before its own), but a catalog replaced (tests, ``forget_catalogs``)
    is read again, and a full memo starts over rather than grow."""
    from bot.i18n import _p, core

    with use_locale("fr"):
        french = _("Your move"), _p("button", "Refresh")
        assert french == (_("Your move"), _p("button", "Refresh"))
        assert french != ("Your move", "Refresh"), "French has both"
        monkeypatch.setitem(core._catalogs, "fr", core.PseudoTranslations())
        assert _("Your move") == pseudo("Your move")
        assert _p("button", "Refresh") == pseudo("Refresh")
        monkeypatch.setattr(core, "MEMO_KEPT", 2)
        words = [_(f"word {i}") for i in range(5)]
        assert words == [pseudo(f"word {i}") for i in range(5)]
        assert len(core._memo["fr"][1]) <= 2
    core.forget_catalogs()
    with use_locale("fr"):
        assert (_("Your move"), _p("button", "Refresh")) == french
