"""``/game mine``: every game of yours, in every server and in direct messages: whose turn it is, since when, what
it waits for, and a link to its latest turn message; the games waiting for you first, the longest waiting first,
then the others' turns, then lobbies. Only you see it. Turn DMs carry it as the *My games* button (a personal click
table: it names no game and works wherever it is clicked).

Fast however many games are stored: the players index finds a person's own open games
(``GameRows.open_of``), and only those are read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

import discord

from bot.core.clicks import Click, Control, Op, Reply, Table, button
from bot.core.components import GREY, controls, jump_url
from bot.flows.away import back_button
from bot.flows.presence import when
from bot.host.hours import is_away
from bot.host.outcome import waiting_for
from bot.storage import GameRow
from bot.text import listing, t
from bot.text.limits import EMBED_DESCRIPTION

if TYPE_CHECKING:
    from bot.core.host import Host

SCOPE: Final = "mine"  # its click table's, in custom ids bh:mine:0:0:show


@dataclass(frozen=True)
class Entry:
    """One game of the list: whether it waits for the reader, since when, and the line that tells it."""

    row: GameRow
    order: tuple[int, float]  # 0 yours, 1 the others', 2 a lobby; then the longest waiting first
    text: str


async def entries(bot: Host, user_id: int) -> list[Entry]:
    """The reader's open games, in the list's order, told in the current language."""
    found = [entry(bot, row, user_id) for row in await bot.rows.open_of(user_id)]
    return sorted((e for e in found if e is not None), key=lambda e: (e.order, e.row.id))


def entry(bot: Host, row: GameRow, user_id: int) -> Entry | None:
    seat = row.seat_of(user_id)
    if seat is None:
        return None
    name = t(f"game.{row.game}")
    guild = bot.get_guild(row.guild_id) if row.guild_id else None
    channel = f"<#{row.channel_id}>"
    heading = (
        t("mine.where_server", game=name, channel=channel, server=guild.name)
        if guild
        else (t("mine.where", game=name, channel=channel))
    )
    link = t("mine.jump", link=jump_url(row))
    if row.status == "lobby" or row.state is None:
        key = "mine.lobby_host" if user_id == row.host_id else "mine.lobby"
        return Entry(row, (2, row.created_at), f"{heading}\n{t(key)} {link}")
    game = bot.rows.game(row)
    since = row.turn_started_at or row.updated_at
    awaiting = bot.adapter(row.game).awaiting
    if seat in game.actors() and seat not in row.stand_ins:  # it waits for the reader
        what = awaiting(game, seat) if awaiting else ""
        line = t("mine.yours", since=when(since), what=what)
        return Entry(row, (0, since), f"{heading}\n{line} {link}")
    seats = waiting_for(game) or game.actors()
    what = awaiting(game, seats[0]) if awaiting and seats else ""
    who = listing(row.seats[s].name for s in seats)
    line = t("mine.theirs", who=who, since=when(since), what=what, count=len(seats))
    return Entry(row, (1, since), f"{heading}\n{line} {link}")


def fitted(texts: Sequence[str], limit: int) -> str:
    """As many entries as fit in ``limit`` characters, then how many more there are."""
    kept: list[str] = []
    used = 0
    for i, text in enumerate(texts):
        left = len(texts) - i - 1
        room = limit - used - len(text) - (len(t("mine.more", count=left)) + 2 if left else 0)
        if room < 0:
            kept.append(t("mine.more", count=left + 1))
            break
        kept.append(text)
        used += len(text) + 2
    return "\n\n".join(kept)


async def reply(bot: Host, user_id: int) -> Reply:
    """The reader's list, in their language: an embed, and the *I'm back* button while they are away."""
    found = await entries(bot, user_id)
    known = (await bot.people.availability([user_id]))[user_id]
    lines = []
    view = None
    if is_away(known, bot.rows.clock()) and known.away_until is not None:
        lines.append(t("mine.away", until=when(known.away_until)))
        view = controls()
        view.add_item(back_button())
    room = EMBED_DESCRIPTION - sum(len(line) + 2 for line in lines)
    lines.append(fitted([e.text for e in found], room) if found else t("mine.none"))
    waiting = sum(1 for e in found if e.order[0] == 0)
    title = t("mine.title_waiting", count=waiting) if waiting else t("mine.title")
    return Reply(embed=discord.Embed(title=title, description="\n\n".join(lines)), view=view)


async def command(bot: Host, interaction: discord.Interaction) -> None:
    """``/game mine``: the list, only for the one who asked."""
    shown = await reply(bot, interaction.user.id)
    await interaction.response.send_message(**shown.kwargs(edit=False), ephemeral=True)


def mine_button() -> Control:
    """*My games*, on turn DMs."""
    return button(SCOPE, 0, 0, "show", label=t("mine.button"), style=GREY)


async def _show(click: Click) -> Reply:
    return await reply(click.host, click.user_id)


TABLE: Final = Table(SCOPE, {"show": Op(_show)}, personal=True)
