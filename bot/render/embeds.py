"""Embeds built from the service's snapshots (``Table``) and the games' presenters.

What a game shows is its presenter's (``bot.render.games``): this module only maps a presenter's
``Section``s onto embed fields, within Discord's limits, and adds what every table has (the
title, whose turn it is and the time left, the footer the publisher finds its message by).

The public table message is built only from the *spectator* view, which by the engine's contract
holds no hidden card; a player's hand is rendered only by ``hand_embed``, which the bot sends
ephemerally.

Words are in the language in effect (``bot.i18n``: the caller sets the server's for public
messages, the user's for ephemeral ones), footers too: the publisher finds its message by the
part every language keeps (``#12 · hand 3``, see ``bot.app.publisher._FOOTER``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.i18n import _, _p, current
from bot.i18n.core import Memo, language_memo
from bot.render.one_state import shared
from bot.render.presenter import Presenter, Seating, Section, presenter_for
from bot.service import Seat, Table, TableStatus
from engine import GAMES
from engine.options import format_value

COLOR_LOBBY = discord.Color.blurple()
COLOR_PLAY = discord.Color.dark_green()
COLOR_OVER = discord.Color.gold()
COLOR_GONE = discord.Color.dark_grey()

#: Discord's limits (https://discord.com/developers/docs/resources/message#embed-object-embed-limits).
FIELD_NAME = 256
FIELD_VALUE = 1024
FIELDS = 25
TITLE = 256
DESCRIPTION = 4096
#: The latest moves shown under the picture: the picture and the sections say where the game
#: stands, so a few lines say what just happened (the whole hand is in ``/history``).
LATEST_LINES = 3


def _clip(text: str, limit: int = 1024) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


#: How the service names an AI seat (``AI 2 (hard)``), stored once in English.
_AI_NAME = re.compile(r"AI (\d+) \((\w+)\)")


def ai_name(stored: str, level: str | None) -> str:
    """An AI seat's name in the reader's language (``IA 2 (difficile)``); a name the service did
    not make stays as it is."""
    match = _AI_NAME.fullmatch(stored)
    if match is None or match.group(2) != level:
        return stored
    levels = {
        "easy": _p("ai level", "easy"),
        "normal": _p("ai level", "normal"),
        "hard": _p("ai level", "hard"),
    }
    # i18n: an AI player's name: {n} its number at the table, {level} easy/normal/hard
    return _("AI {n} ({level})", n=match.group(1), level=levels.get(level, level))


#: Names by the reader's language and the table's seats (``language_memo``): a table's seats
#: seldom change, its state at every move (``seating_of``). Keyed by what ``_names_of`` reads
#: of the seats as a tuple of strings and numbers, not by the ``Seat`` objects: such a tuple
#: leaves the garbage collector's scans, while one holding seats keeps every seat a table ever
#: had (its lobby's too) in each generation-1 collection (7,000 objects at 1,000 tables).
_NAMES: Memo = {}
NAMES_KEPT = 4096


def names_of(table: Table) -> list[str]:
    """Display names by engine seat (AI seats say so)."""
    known = language_memo(_NAMES, current(), NAMES_KEPT)
    key = _names_key(table.seats)
    names = known.get(key)
    if names is None:
        names = known[key] = tuple(_names_of(table))
    return list(names)


def _names_key(seats: Sequence[Seat]) -> tuple[Any, ...]:
    """What ``_names_of`` reads of ``seats``, one flat tuple."""
    return tuple(
        field
        for s in seats
        for field in (s.index, s.name, s.user_id, s.ai_level, s.left_at is not None)
    )


def _names_of(table: Table) -> list[str]:
    count = max((s.index for s in table.seats), default=-1) + 1
    names = [_("Seat {n}", n=i + 1) for i in range(count)]
    for seat in table.seats:
        label = seat.name
        if seat.is_ai and seat.user_id is None:
            label = f"{ai_name(seat.name, seat.ai_level)} 🤖"
        elif seat.left:
            # i18n: a player who left, whose seat the AI now plays
            label = _("{name} (AI)", name=seat.name)
        names[seat.index] = label
    return names


def timestamp(epoch: float | None, style: str = "R") -> str:
    return "" if epoch is None else f"<t:{int(epoch)}:{style}>"


#: Public seatings made lately: (the table's channel, language) -> (the table's state, its
#: seating, the names' memo its names were read from). One state of a table is read by the
#: publisher and by every live panel, each several times (the heading, the sections, the
#: picture), and naming the seats translates every name again. A ``Table`` never changes (a
#: change is a new one): an entry serves the state it holds and is replaced by the channel's next
#: state, so that it keeps no past state of a table alive (keyed by the state's id, the entries
#: held up to 4,096 past ``Table``s and their seats for the garbage collector to scan at every
#: generation-1 collection).
_SEATINGS: dict[tuple[int, str], tuple[Table, Seating, dict[Any, Any]]] = {}
SEATINGS_KEPT = 16384


def seating_of(table: Table, viewer: int | None = None) -> Seating:
    """What a presenter knows of the table beside the view."""
    if viewer is not None:
        # The table's public seating with the reader's seat: the names are named once per
        # state and language for every panel of the table (and its table message). Not kept:
        # a reader's is asked for once per state (his panel), and an entry holds its table.
        return seating_of(table).for_seat(viewer)
    language = current()
    key = (table.channel_id, language)
    found = _SEATINGS.get(key)
    if found is not None and found[0] is table:
        return found[1]
    # The names of the seats of the channel's last state, when its seats are this state's (the
    # service keeps them from state to state while they read the same: nearly every move) and
    # the language's names are still those of the catalog they were read in (``names_of``'s
    # memo for it is the same dict: a reloaded catalog, or a full memo, starts a new one).
    known = language_memo(_NAMES, language, NAMES_KEPT)
    if found is not None and found[0].seats is table.seats and found[2] is known:
        names = found[1].names
    else:
        names = tuple(names_of(table))
    seating = Seating(
        names=names,
        viewer=None,
        deadlines=dict(table.deadlines),
        window_deadline=table.window_deadline,
        options=dict(table.options),
    )
    if len(_SEATINGS) >= SEATINGS_KEPT:
        _SEATINGS.clear()
    _SEATINGS[key] = (table, seating, known)
    return seating


def turn_line(table: Table, names: Sequence[str], to_act: Sequence[int]) -> str:
    """Whose turn it is and the time left, on one line: ``▶ **ann** · ⏳ in 52 seconds``."""
    if not to_act:
        return ""
    # Players awaited until the same moment share one timer (``▶ **ann**, **bob** ⏳ in 1
    # minute``): a timer each filled three lines of a phone in a window several may answer.
    groups: dict[int | None, list[str]] = {}
    for seat in to_act:
        deadline = table.deadlines.get(seat)
        name = names[seat] if 0 <= seat < len(names) else _("seat {n}", n=seat + 1)
        groups.setdefault(int(deadline) if deadline else None, []).append(f"**{name}**")
    parts = [
        ", ".join(who) + (f" ⏳ {timestamp(deadline)}" if deadline else "")
        for deadline, who in groups.items()
    ]
    return "▶ " + ", ".join(parts)


def add_sections(embed: discord.Embed, sections: Sequence[Section], room: int = FIELDS) -> None:
    """A presenter's sections as embed fields (empty ones skipped, each clipped to the limits)."""
    count = len(embed.fields)  # (counted here: ``Embed.fields`` makes every field's proxy)
    for section in sections:
        if count >= room:
            break
        if not section.text.strip():
            continue
        embed.add_field(
            name=_clip(section.title, FIELD_NAME) or "\u200b",
            value=_clip(section.text, FIELD_VALUE),
            inline=section.inline,
        )
        count += 1


def sections_text(sections: Sequence[Section]) -> list[str]:
    """Sections as plain lines (the terminal): a title line, then the text indented."""
    lines: list[str] = []
    for section in sections:
        if not section.text.strip():
            continue
        if section.title:
            lines.append(f"{section.title}:")
            lines.extend(f"  {line}" for line in section.text.splitlines())
        else:
            lines.extend(section.text.splitlines())
    return [line.replace("**", "") for line in lines]


def shown_value(value: Any) -> str:
    """An option's value as the reader reads it (``on``, ``off``, ``random``; numbers and
    choices as they are typed)."""
    if value is True:
        return _p("option value", "on")
    if value is False:
        return _p("option value", "off")
    if value is None:
        return _p("option value", "random")
    return format_value(value)


def option_lines(table: Table) -> list[str]:
    from engine import GAMES  # the spec gives the descriptions; local: keep import light

    spec = GAMES.get(table.game)
    lines = []
    for name, value in table.options.items():
        changed = "" if name not in table.overrides else " " + _("*(changed)*")
        desc = ""
        if spec is not None:
            try:
                # The engine declares the description; the catalogs hold it (bot.i18n.sources).
                desc = f" — {_(spec.option(name).description)}"
            except Exception:  # an option the spec dropped since: still show the value
                desc = ""
        lines.append(f"`{name}` **{shown_value(value)}**{changed}{desc}")
    return lines


def options_embed(table: Table) -> discord.Embed:
    preset = table.preset or "standard"
    embed = discord.Embed(
        title=_("{title}: options", title=_(table.title)),
        # i18n: {preset} is a preset's name, typed as it is (`standard`, `classic`...)
        description=_("Preset: **{preset}**", preset=preset),
        color=COLOR_LOBBY,
    )
    text = "\n".join(option_lines(table)) or _("No options.")
    for i in range(0, min(len(text), 4000), 1000):
        embed.add_field(name=_("Options") if i == 0 else "\u200b", value=text[i : i + 1000],
                        inline=False)  # fmt: skip
    return embed


def lobby_embed(table: Table) -> discord.Embed:
    names = names_of(table)
    span = (
        f"{table.min_players}"
        if table.min_players == table.max_players
        else f"{table.min_players}-{table.max_players}"
    )
    embed = discord.Embed(
        title=_("{title} — table open", title=_(table.title)),
        description=_(
            "Host: <@{host}>. Players: {span}. Join with `/join` or the button; the host adds AI "
            "players with `/addbot` and starts with `/start`.",
            host=table.host_id,
            span=span,
        ),
        color=COLOR_LOBBY,
    )
    seated = "\n".join(f"{i + 1}. {name}" for i, name in enumerate(names)) or _("Nobody yet.")
    embed.add_field(name=_("Seats ({n})", n=len(table.seats)), value=_clip(seated), inline=False)
    embed.add_field(name=_("Options"), value=_clip(_short_options(table)), inline=False)
    embed.set_footer(
        text=_("Table #{table} · {status}", table=table.id, status=status_word(table.status))
    )
    return embed


def _short_options(table: Table) -> str:
    preset = _("preset **{preset}**; ", preset=table.preset) if table.preset else ""
    # Keys and word values as the host types them (``/options``), in code: they are not words
    # of any language; on/off/random are.
    return preset + ", ".join(f"`{k}` {_typed(v)}" for k, v in table.options.items())


def _typed(value: Any) -> str:
    shown = shown_value(value)
    if isinstance(value, str) and any(c.isalpha() for c in shown):
        return f"`{shown}`"
    return shown


def presenter_of(table: Table) -> Presenter:
    return presenter_for(table.game)


def status_word(status: object) -> str:
    """A table's status (``lobby``, ``playing``...) in the reader's language."""
    value = str(getattr(status, "value", status))
    words = {
        "lobby": _p("table status", "lobby"),
        "playing": _p("table status", "playing"),
        "finished": _p("table status", "finished"),
        "abandoned": _p("table status", "abandoned"),
        "broken": _p("table status", "broken"),
    }
    return words.get(value, value)


def heading(table: Table, view: Mapping[str, Any]) -> str:
    """``<title> — hand 3 of 6``: the game's title and where the game stands."""
    shown = presenter_of(table).heading(view, seating_of(table))
    title = _(table.title)
    return _clip(f"{title} — {shown}" if shown else title, TITLE)


def table_embeds(
    table: Table,
    view: Mapping[str, Any] | None,
    lines: Sequence[str] = (),
    *,
    image_name: str | None = None,
    final: str | None = None,
) -> list[discord.Embed]:
    """The public table message for the current hand (or ``final`` words once it is done).

    Two embeds, so that on a phone the picture comes right after whose turn it is (Discord
    draws an embed's image below its fields): the first holds the title, the turn line and the
    picture; the second the latest moves (right under the picture, without a title: a glance
    reads them as what just happened) and the game's sections."""
    if table.status is TableStatus.LOBBY or view is None:
        return [lobby_embed(table)]
    presenter, seating = presenter_of(table), seating_of(table)
    over = table.status is TableStatus.FINISHED
    gone = table.status is TableStatus.ABANDONED
    color = COLOR_OVER if over else COLOR_GONE if gone else COLOR_PLAY
    turn = "" if over or gone else turn_line(table, seating.names, table.to_act)
    description = final or turn
    top = discord.Embed(
        title=heading(table, view), description=_clip(description, DESCRIPTION) or None,
        color=color,
    )  # fmt: skip
    hand = view.get("hand_number")
    # i18n: the table message's footer; keep "#{table} · {unit} {hand}" as is (the bot finds its
    # message again by it) and translate "Table"
    unit, status = _(presenter.unit), status_word(table.status)
    footer = _("Table #{table} · {unit} {hand} · {status}", table=table.id, unit=unit,
               hand=hand or "-", status=status)  # fmt: skip
    top.set_footer(text=footer)
    if image_name:
        top.set_image(url=f"attachment://{image_name}")
    details = discord.Embed(color=color, description=latest_text(lines) if lines else None)
    add_sections(details, presenter.table_sections(view, seating))
    return [top, details] if details.fields or details.description else [top]


def latest_text(lines: Sequence[str]) -> str:
    """The last moves, newest last, as many whole lines as fit in a field."""
    kept: list[str] = []
    size = 0
    for line in reversed(list(lines)[-LATEST_LINES:]):
        if size + len(line) + 1 > FIELD_VALUE:
            break
        kept.append(line)
        size += len(line) + 1
    return "\n".join(reversed(kept)) or _clip(lines[-1], FIELD_VALUE)


#: Sections a hand panel leaves out: what the table message shows already; and his cards as
#: text when the panel's picture shows them.
HIDDEN = frozenset({"table"})
HIDDEN_UNDER_PICTURE = frozenset({"table", "hand"})


def hand_embed(
    table: Table,
    view: Mapping[str, Any],
    legal: Sequence[str],
    *,
    image_name: str | None = None,
    seating: Seating | None = None,
) -> discord.Embed:
    """A player's private hand: only ever sent ephemerally to that player. ``seating``: the
    table's for his seat (``seating_of(table, seat)``), when the caller has it already."""
    seat = view.get("seat")
    presenter = presenter_of(table)
    if seating is None or seating.viewer != seat:
        seating = seating_of(table, seat if isinstance(seat, int) else None)
    # (Every seat's panel of a state shares its title and whose turn it is: ``one_state``.)
    title = shared(
        ("title",),
        lambda: _clip(_("Your hand · {heading}", heading=presenter.heading(view, seating)), TITLE),
    )
    embed = discord.Embed(title=title, color=COLOR_PLAY)
    # On a phone the cards and the buttons must be on the first screen: what he must decide
    # first, then what he needs to decide it; his cards as text only when no picture shows them,
    # and nothing the table message shows already (the hand's points, the deal so far).
    hidden = HIDDEN_UNDER_PICTURE if image_name else HIDDEN
    sections = presenter.hand_sections(view, legal, seating, hidden)
    decide = "\n".join(s.text for s in sections if s.role == "move" and s.text.strip())
    if decide:
        embed.description = _clip(f"**{_('Your move')}:** {decide}", DESCRIPTION)
    elif table.status is TableStatus.PLAYING:
        embed.description = shared(("waiting",), lambda: _waiting(table, seating))
    # (A game may build a hidden section all the same: it is left out here.)
    shown_sections = [s for s in sections if s.role not in hidden and s.role != "move"]
    add_sections(embed, shown_sections, room=FIELDS - 2)
    if image_name:
        embed.set_image(url=f"attachment://{image_name}")
    return embed


def _waiting(table: Table, seating: Seating) -> str:
    """A waiting player's panel's line: whose turn it is."""
    who = turn_line(table, seating.names, table.to_act)
    return _clip(_("Waiting: {who}", who=who or "—"), DESCRIPTION)


def scores_embed(table: Table, view: Mapping[str, Any] | None) -> discord.Embed:
    """``/score``: the score sheet, one row per hand."""
    embed = discord.Embed(title=_("{title}: scores", title=_(table.title)), color=COLOR_PLAY)
    presenter, seating = presenter_of(table), seating_of(table)
    if view is None and table.result:
        sections = [presenter.scores(None, table.result, seating)]
    else:
        sections = presenter.score_sheet(view, seating)
    add_sections(embed, sections)
    if not embed.fields:
        embed.description = _("No scores yet.")
    return embed


def finished_scores_embed(
    game: str, view: Mapping[str, Any], names: Sequence[str], result: Mapping[str, Any] | None
) -> discord.Embed:
    """``/score`` once the channel's game is over: the last finished game's score sheet and who
    won (its final view, replayed from its record)."""
    presenter = presenter_for(game)
    seating = Seating(names=tuple(names))
    title = _(GAMES[game].title) if game in GAMES else game
    embed = discord.Embed(title=_("{title}: scores", title=title), color=COLOR_PLAY)
    sections = presenter.score_sheet(view, seating)
    if result:
        sections = presenter.final(result, seating)[:1] + sections
    add_sections(embed, sections)
    embed.set_footer(text=_("The last game played here, finished."))
    return embed


def text_embed(title: str, text: str, color: discord.Color = COLOR_LOBBY) -> discord.Embed:
    return discord.Embed(title=title, description=_clip(text, 4000), color=color)


def seat_name_of(table: Table, index: int) -> str:
    return seating_of(table).name(index)
