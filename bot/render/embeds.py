"""Embeds built from the service's snapshots (``Table``) and the engine's views (dicts).

The public table embed is built only from the *spectator* view, which by the engine's contract
holds no hidden card; a player's hand is rendered only by ``hand_embed``, which the bot sends
ephemerally. Views differ per game, so known keys get a tailored line and any other simple key is
listed as it is: a new view key shows up without breaking anything.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.render.cards import face, pretty, pretty_action, pretty_list, pretty_suit
from bot.render.narrate import score_labels, scores_text, seat_name
from bot.service import Table, TableStatus
from engine.options import format_value

COLOR_LOBBY = discord.Color.blurple()
COLOR_PLAY = discord.Color.dark_green()
COLOR_OVER = discord.Color.gold()
COLOR_GONE = discord.Color.dark_grey()

#: View keys rendered by a dedicated line (or never worth showing).
_HANDLED = frozenset({
    "game", "seat", "players", "phase", "dealer", "to_act", "scores", "hand_number", "hand",
    "trick", "last_trick", "tricks_won", "tricks_taken", "hand_sizes", "trump", "trump_name",
    "contract", "bids", "teams", "names", "leader", "winners", "last_hand", "layout",
    "hand_points", "options", "legal", "turn", "face_down_counts", "melds", "mayi",
    "contract_text", "dealer_draw", "round_points", "result", "called", "partner",
    "partner_known", "declarer", "high_bid", "high_bidder", "team", "current",
})  # fmt: skip

#: Display names of view keys whose own name would mislead a reader.
_KEY_LABELS = {"out": "contract laid down", "tapp_size": "Tapp cards"}

#: View keys whose value is a seat number (shown as the player's name).
_SEAT_KEYS = frozenset({"current", "caller", "leader", "declarer", "high_bidder", "partner"})
#: View keys whose value is a list of seat numbers.
_SEATS_KEYS = frozenset({"out", "winners"})


def _clip(text: str, limit: int = 1024) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def names_of(table: Table) -> list[str]:
    """Display names by engine seat (AI seats say so)."""
    count = max((s.index for s in table.seats), default=-1) + 1
    names = [f"Seat {i + 1}" for i in range(count)]
    for seat in table.seats:
        label = seat.name
        if seat.is_ai and seat.user_id is None:
            label = f"{seat.name} 🤖"
        elif seat.left:
            label = f"{seat.name} (AI)"
        names[seat.index] = label
    return names


def timestamp(epoch: float | None, style: str = "R") -> str:
    return "" if epoch is None else f"<t:{int(epoch)}:{style}>"


def turn_line(table: Table, names: Sequence[str], to_act: Sequence[int]) -> str:
    if not to_act:
        return ""
    parts = []
    for seat in to_act:
        deadline = table.deadlines.get(seat)
        who = f"**{seat_name(names, seat)}**"
        parts.append(f"{who} ({timestamp(deadline)})" if deadline else who)
    return "Waiting for " + ", ".join(parts)


def option_lines(table: Table) -> list[str]:
    from engine import GAMES  # the spec gives the descriptions; local: keep import light

    spec = GAMES.get(table.game)
    lines = []
    for name, value in table.options.items():
        changed = "" if name not in table.overrides else " *(changed)*"
        desc = ""
        if spec is not None:
            try:
                desc = f" — {spec.option(name).description}"
            except Exception:  # an option the spec dropped since: still show the value
                desc = ""
        lines.append(f"`{name}` **{format_value(value)}**{changed}{desc}")
    return lines


def options_embed(table: Table) -> discord.Embed:
    preset = table.preset or "standard"
    embed = discord.Embed(
        title=f"{table.title}: options", description=f"Preset: **{preset}**", color=COLOR_LOBBY
    )
    text = "\n".join(option_lines(table)) or "No options."
    for i in range(0, min(len(text), 4000), 1000):
        embed.add_field(name="Options" if i == 0 else "\u200b", value=text[i : i + 1000],
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
        title=f"{table.title} — table open",
        description=(
            f"Host: <@{table.host_id}>. Players: {span}. "
            "Join with `/join` or the button; the host adds AI players with `/addbot` and "
            "starts with `/start`."
        ),
        color=COLOR_LOBBY,
    )
    seated = "\n".join(f"{i + 1}. {name}" for i, name in enumerate(names)) or "Nobody yet."
    embed.add_field(name=f"Seats ({len(table.seats)})", value=_clip(seated), inline=False)
    embed.add_field(name="Options", value=_clip(_short_options(table)), inline=False)
    embed.set_footer(text=f"Table #{table.id} · lobby")
    return embed


def _short_options(table: Table) -> str:
    preset = f"preset **{table.preset}**; " if table.preset else ""
    return preset + ", ".join(f"{k} {format_value(v)}" for k, v in table.options.items())


def trick_cards(value: Any, leader: int | None = None, players: int = 0) -> list[tuple[int, str]]:
    """(seat, card) pairs from the shapes engines use for a trick."""
    if isinstance(value, Mapping):
        value = value.get("cards", [])
    out: list[tuple[int, str]] = []
    for i, item in enumerate(value or []):
        if isinstance(item, Mapping) and "card" in item:
            out.append((int(item.get("seat", i)), str(item["card"])))
        elif isinstance(item, list | tuple) and len(item) == 2:
            out.append((int(item[0]), str(item[1])))
        elif isinstance(item, str):
            seat = (leader + i) % players if leader is not None and players else i
            out.append((seat, item))
    return out


def _per_seat(view: Mapping[str, Any], key: str, count: int) -> list[Any] | None:
    value = view.get(key)
    if isinstance(value, list) and len(value) == count:
        return value
    return None


def players_block(view: Mapping[str, Any], names: Sequence[str]) -> str:
    count = len(names)
    dealer = view.get("dealer")
    to_act = set(view.get("to_act") or [])
    tricks = _per_seat(view, "tricks_won", count) or _per_seat(view, "tricks_taken", count)
    sizes = _per_seat(view, "hand_sizes", count)
    bids = view.get("bids")
    lines = []
    for seat, name in enumerate(names):
        marks = []
        if seat == dealer:
            marks.append("dealer")
        if tricks is not None:
            marks.append(_count(tricks[seat], "trick"))
        if sizes is not None:
            marks.append(_count(sizes[seat], "card"))
        bid = _bid_of(bids, seat, count)
        if bid not in (None, ""):
            marks.append(f"bid {bid}")
        arrow = "▶ " if seat in to_act else ""
        lines.append(f"{arrow}{name}" + (f" — {', '.join(marks)}" if marks else ""))
    return "\n".join(lines)


def _count(n: Any, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def layout_block(view: Mapping[str, Any], names: Sequence[str]) -> str:
    """Troeven's layout version: each player's eight places. The face-up cards are public
    (both players must see them to play), the cards under them are not."""
    layout = view.get("layout")
    if not isinstance(layout, list) or not layout:
        return ""
    lines = []
    for seat, places in enumerate(layout):
        cells = []
        for place in places if isinstance(places, list) else []:
            up = place.get("up") if isinstance(place, Mapping) else None
            covers = isinstance(place, Mapping) and bool(place.get("face_down"))
            if up:
                cells.append(pretty(str(up)) + ("⁺" if covers else ""))
            else:
                cells.append("🂠" if covers else "·")
        lines.append(f"{seat_name(names, seat)}: {'  '.join(cells)}")
    return "\n".join(lines) + "\n⁺ lies on a face-down card, turned up once it is played"


def hand_points_line(view: Mapping[str, Any] | None, names: Sequence[str]) -> str:
    """Card points taken so far in this hand (Troika: per team; Troeven: per player)."""
    points = (view or {}).get("hand_points")
    if not isinstance(points, list) or not any(points):  # nothing taken yet: say nothing
        return ""
    labels = score_labels(view, names, len(points))
    if len(labels) != len(points):
        return ""
    shown = ", ".join(f"{label} {p}" for label, p in zip(labels, points, strict=True))
    return f"This hand: {shown}"


def _bid_of(bids: Any, seat: int, count: int) -> Any:
    """A seat's latest bid from the shapes engines use (per-seat list, history, mapping)."""
    if isinstance(bids, Mapping):
        return bids.get(str(seat))
    if not isinstance(bids, list):
        return None
    if bids and all(isinstance(b, Mapping) for b in bids):
        mine = [b.get("bid") for b in bids if b.get("seat") == seat]
        return mine[-1] if mine else None
    if len(bids) == count and not any(isinstance(b, Mapping | list) for b in bids):
        return bids[seat]
    return None


def contract_line(view: Mapping[str, Any], names: Sequence[str]) -> str:
    parts = []
    contract = view.get("contract")
    declarer = view.get("declarer")
    if view.get("contract_text"):
        parts.append(str(view["contract_text"]))
    elif isinstance(contract, Mapping):
        who = contract.get("seat", contract.get("declarer", declarer))
        if contract.get("bid") is not None:
            what = str(contract["bid"])
        else:
            what = " ".join(
                str(v)
                for k, v in contract.items()
                if k not in {"seat", "declarer", "team"} and isinstance(v, str | int)
                and not isinstance(v, bool)
            )  # fmt: skip
        parts.append(f"{seat_name(names, who)}: {what}" if who is not None else what)
    elif contract not in (None, ""):
        who = f"{seat_name(names, declarer)}: " if isinstance(declarer, int) else ""
        parts.append(f"{who}{contract}")
    elif view.get("high_bid"):
        parts.append(f"High bid: {view['high_bid']} by {seat_name(names, view.get('high_bidder'))}")
    if view.get("trump"):
        parts.append(f"Trumps: {pretty_suit(str(view['trump']))}")
    if view.get("called"):
        partner = view.get("partner")
        known = f" (partner: {seat_name(names, partner)})" if isinstance(partner, int) else ""
        parts.append(f"Called: {pretty(str(view['called']))}{known}")
    return " · ".join(parts)


def melds_block(view: Mapping[str, Any], names: Sequence[str]) -> str:
    lines = []
    for i, meld in enumerate(view.get("melds") or [], start=1):
        if not isinstance(meld, Mapping):
            continue
        number = meld.get("number", i)
        owner = seat_name(names, meld.get("owner"))
        cards = pretty_list([str(c) for c in meld.get("cards") or []])
        kind = meld.get("kind", "")
        lines.append(f"**{number}.** {cards} — {owner}'s {kind}".rstrip())
    return "\n".join(lines)


def mayi_line(view: Mapping[str, Any], names: Sequence[str]) -> str:
    mayi = view.get("mayi")
    if not isinstance(mayi, Mapping) or not mayi.get("open"):
        return ""
    card = pretty(str(mayi["card"])) if mayi.get("card") else "the discard"
    calls = [seat_name(names, s) for s in mayi.get("calls") or []]
    text = f"May I open for {card}"
    return text + (f"; called by {', '.join(calls)}" if calls else "")


def _simple(value: Any) -> str | None:
    if isinstance(value, bool):
        return format_value(value)
    if isinstance(value, int | float | str):
        text = str(value)
        f = face(text)
        return pretty(text) if f.family not in {"unknown", "hidden"} and len(text) >= 2 else text
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return pretty_list(value)
    return None


def details_block(view: Mapping[str, Any], names: Sequence[str] = ()) -> str:
    lines = []
    for key, value in view.items():
        if key in _HANDLED or value is None or value is False or value in ([], {}, 0, ""):
            continue
        if key in _SEAT_KEYS and isinstance(value, int):
            text: str | None = seat_name(names, value)
        elif key in _SEATS_KEYS and isinstance(value, list):
            if all(isinstance(v, bool) for v in value):  # one flag per seat
                value = [seat for seat, flag in enumerate(value) if flag]
            text = ", ".join(seat_name(names, v) for v in value) or None
        else:
            text = _simple(value)
        if text:
            lines.append(f"{_KEY_LABELS.get(key, key.replace('_', ' '))}: {text}")
    return "\n".join(lines)


def _add_contract_and_trick(
    embed: discord.Embed, view: Mapping[str, Any], names: Sequence[str]
) -> None:
    """The contract and the cards on the table: shown on the table message and the hand."""
    contract = contract_line(view, names)
    if contract:
        embed.add_field(name="Contract", value=_clip(contract), inline=False)
    layout = layout_block(view, names)
    if layout:
        embed.add_field(name="Layouts", value=_clip(layout), inline=False)
    trick = trick_cards(view.get("trick"), view.get("leader"), len(names))
    if trick:
        shown = "  ".join(f"{seat_name(names, s)} {pretty(c)}" for s, c in trick)
        embed.add_field(name="On the table", value=_clip(shown), inline=False)


def _add_melds_and_details(
    embed: discord.Embed, view: Mapping[str, Any], names: Sequence[str]
) -> None:
    """TroiKuntza's melds and the remaining table details."""
    melds = melds_block(view, names)
    if melds:
        embed.add_field(name="Melds", value=_clip(melds), inline=False)
    details = "\n".join(x for x in (mayi_line(view, names), details_block(view, names)) if x)
    if details:
        embed.add_field(name="Table", value=_clip(details), inline=False)


def table_embed(
    table: Table,
    view: Mapping[str, Any] | None,
    lines: Sequence[str] = (),
    *,
    image_name: str | None = None,
    final: str | None = None,
) -> discord.Embed:
    """The public table message for the current hand (or ``final`` words once it is done)."""
    if table.status is TableStatus.LOBBY or view is None:
        return lobby_embed(table)
    names = names_of(table)
    over = table.status is TableStatus.FINISHED
    gone = table.status is TableStatus.ABANDONED
    color = COLOR_OVER if over else COLOR_GONE if gone else COLOR_PLAY
    hand = view.get("hand_number")
    title = f"{table.title}" + (f" — hand {hand}" if hand else "")
    description = final or ("" if over or gone else turn_line(table, names, table.to_act))
    embed = discord.Embed(title=title, description=description or None, color=color)
    _add_contract_and_trick(embed, view, names)
    last = view.get("last_trick")
    if last:
        cards = trick_cards(last)
        winner = last.get("winner") if isinstance(last, Mapping) else None
        text = "  ".join(f"{seat_name(names, s)} {pretty(c)}" for s, c in cards)
        if winner is not None:
            text += f" → **{seat_name(names, winner)}**"
        embed.add_field(name="Last trick", value=_clip(text), inline=False)
    embed.add_field(name="Players", value=_clip(players_block(view, names)), inline=True)
    scores = view.get("scores")
    if isinstance(scores, list) and scores:
        labels = score_labels(view, names)
        score_text = "\n".join(
            f"{label}: **{s}**" for label, s in zip(labels, scores, strict=False)
        )
        this_hand = hand_points_line(view, names)
        if this_hand:
            score_text += f"\n{this_hand}"
        embed.add_field(name="Scores", value=_clip(score_text), inline=True)
    _add_melds_and_details(embed, view, names)
    if lines:
        embed.add_field(name="Latest", value=_clip("\n".join(lines[-8:]), 1024), inline=False)
    if image_name:
        embed.set_image(url=f"attachment://{image_name}")
    embed.set_footer(text=f"Table #{table.id} · hand {hand or '-'} · {table.status.value}")
    return embed


def hand_embed(
    table: Table, view: Mapping[str, Any], legal: Sequence[str], *, image_name: str | None = None
) -> discord.Embed:
    """A player's private hand: only ever sent ephemerally to that player."""
    names = names_of(table)
    seat = view.get("seat")
    hand = [str(c) for c in view.get("hand") or []]
    embed = discord.Embed(
        title=f"Your hand — {seat_name(names, seat)}",
        description=pretty_list(hand, empty="(no cards)"),
        color=COLOR_PLAY,
    )
    _add_contract_and_trick(embed, view, names)
    _add_melds_and_details(embed, view, names)
    if legal:
        moves = ", ".join(f"`{pretty_action(a)}`" for a in legal)
        embed.add_field(name="Your move", value=_clip(moves),
                        inline=False)  # fmt: skip
    elif table.status is TableStatus.PLAYING:
        embed.add_field(name="Your move", value=turn_line(table, names, table.to_act) or "—",
                        inline=False)  # fmt: skip
    if image_name:
        embed.set_image(url=f"attachment://{image_name}")
    return embed


def scores_embed(table: Table, view: Mapping[str, Any] | None) -> discord.Embed:
    names = names_of(table)
    embed = discord.Embed(title=f"{table.title}: scores", color=COLOR_PLAY)
    scores = (view or {}).get("scores") or (table.result or {}).get("scores")
    if scores:
        labels = score_labels(view, names)
        embed.description = "\n".join(
            f"{label}: **{s}**" for label, s in zip(labels, scores, strict=False)
        )
    else:
        embed.description = "No scores yet."
    last = (view or {}).get("last_hand")
    if isinstance(last, Mapping) and isinstance(last.get("scores"), list):
        embed.add_field(
            name=f"After hand {last.get('hand_number', '')}",
            value=scores_text(last["scores"], score_labels(view, names)),
            inline=False,
        )
    return embed


def text_embed(title: str, text: str, color: discord.Color = COLOR_LOBBY) -> discord.Embed:
    return discord.Embed(title=title, description=_clip(text, 4000), color=color)


def seat_name_of(table: Table, index: int) -> str:
    return seat_name(names_of(table), index)
