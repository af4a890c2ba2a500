"""Direct messages when a turn starts, for players who asked for them (``/settings dm_on_turn:true``).

Owed by every change (``bot.flows.outbox``), after its turn message: every seat that owes a decision now and did not
before the change gets one message naming the game and the channel, with a link to the turn
message. Only the seats owing a decision and the stored row are read, never a hand or anything else secret. A player
who cannot be messaged (Discord error 50007: DMs closed; 50278: no mutual server) or any other Discord failure is
logged and skipped: notifications never hold up or break a turn (a passing failure is tried again by the outbox, the
message's nonce keeping it single).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.core import safely
from bot.flows import since
from bot.flows.turns import nonce
from bot.host import Outcome
from bot.storage import GameRow
from bot.text import t
from bot.text.i18n import reader_language, speaking

if TYPE_CHECKING:
    from bot.core.host import Host

log = logging.getLogger("boardhost.notify")
DM_CLOSED = (50007, 50278)  # cannot send messages to this user; no server in common


def jump_url(row: GameRow) -> str:
    """The link to the game's latest turn message (its channel when no message is known)."""
    where = f"https://discord.com/channels/{row.guild_id or '@me'}/{row.channel_id}"
    return f"{where}/{row.message_id}" if row.message_id else where


def newly_owing(outcome: Outcome) -> list[int]:
    """Seats that owe a decision after the change and did not before it."""
    if outcome.game is None or outcome.game.finished:
        return []
    return [seat for seat in outcome.game.actors() if seat not in outcome.before]


async def turn_posted(bot: Host, outcome: Outcome) -> None:
    """A direct message to each person who owes a decision now, did not before, and asked for one."""
    row = outcome.row
    users = [  # never a computer player, nor a person a computer plays for now
        row.seats[seat].user_id
        for seat in newly_owing(outcome)
        if not row.seats[seat].computer and seat not in row.stand_ins
    ]
    # A person whose DMs are closed is pinged by the turn message anyway: no DM is tried while that is remembered.
    wanted = [u for u in users if await bot.service.dm_on_turn(u) and not await bot.service.dms_closed(u)]
    if not wanted:
        return
    # The turn message was posted after the outcome's row was read: its id is in the database.
    latest = await bot.service.stored(row.id) or row
    for user_id in wanted:
        with speaking(reader_language(user_id, latest.language)):  # a direct message: the reader's language
            text, file = await since.for_dm(bot, latest, user_id, message(bot, latest))
        await send(bot, user_id, row.id, text, file, nonce=nonce(row.id, row.version, f"u{row.seat_of(user_id)}"))


def message(bot: Host, row: GameRow) -> str:
    params = {"game": t(f"game.{row.game}"), "channel": f"<#{row.channel_id}>", "link": jump_url(row)}
    guild = bot.get_guild(row.guild_id) if row.guild_id else None
    if guild is None:
        return t("notify.turn_elsewhere", **params)
    return t("notify.turn", server=guild.name, **params)


async def send(
    bot: Host, user_id: int, game_id: int, text: str, file: discord.File | None = None, *, nonce: str | None = None
) -> bool:
    """One direct message (with the "since your last turn" picture if given); False (and a log line) when Discord
    refuses it."""
    extra: dict[str, Any] = {"file": file} if file is not None else {}
    if nonce is not None:
        extra["nonce"] = nonce
    code = await safely.dm(
        bot,
        user_id,
        game_id,
        "turn DM",
        logger=log,
        content=text,
        allowed_mentions=discord.AllowedMentions.none(),
        **extra,
    )
    if code in DM_CLOSED:
        await bot.service.note_dms(user_id, closed=True)
    return code is None
