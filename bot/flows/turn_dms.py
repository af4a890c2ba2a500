"""Direct messages when a turn starts, for players who asked for them (``/settings notifications dm_on_turn:true``).

Owed by every change (``bot.flows.outbox``), after its turn message: every seat that owes a decision now and did not
before the change gets one message naming the game and the channel, with a link to the turn message and the *My
games* button (``/game mine``). A reader in their quiet hours gets it when the hours end (held in the database; the
reminder sweep sends it then, if the game still waits for them). Only the seats owing a decision and the stored row
are read, never a hand or anything else secret. A player
who cannot be messaged (Discord error 50007: DMs closed; 50278: no mutual server) or any other Discord failure is
logged and skipped: notifications never hold up or break a turn (a passing failure is tried again by the outbox, the
message's nonce keeping it single).
"""

from __future__ import annotations

import dataclasses
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.core import safely
from bot.core.components import controls, jump_url
from bot.core.funnel import each_game
from bot.core.safely import describe, passing
from bot.flows import since
from bot.flows.mine import mine_button
from bot.flows.presence import recent_presence
from bot.flows.turns import nonce
from bot.host import Outcome
from bot.host.hours import quiet_until
from bot.storage import GameRow
from bot.storage.held import Held
from bot.text import t

if TYPE_CHECKING:
    from bot.core.host import Host

log = logging.getLogger("boardhost.notify")
DM_CLOSED = (50007, 50278)  # cannot send messages to this user; no server in common


def newly_owing(outcome: Outcome) -> list[int]:
    """Seats that owe a decision after the change and did not before it."""
    if outcome.game is None or outcome.game.finished:
        return []
    return [seat for seat in outcome.game.actors() if seat not in outcome.before]


async def turn_posted(bot: Host, outcome: Outcome, posted: int | None = None) -> None:
    """A direct message to each person who owes a decision now, did not before, and asked for one (``posted``: the
    id of the turn message just posted, when it is stored only with the change's delivery)."""
    row = outcome.row
    users = [  # never a computer player, nor a person a computer plays for now
        row.seats[seat].user_id
        for seat in newly_owing(outcome)
        if not row.seats[seat].computer and seat not in row.stand_ins
    ]
    if not users:
        return
    here = await recent_presence(bot, row)  # as read for the turn message just posted: who asked for DMs too
    # A person whose DMs are closed is pinged by the turn message anyway: no DM is tried while that is remembered.
    wanted = [u for u in users if here.wants_dms(u) and not await bot.people.dms_closed(u)]
    if not wanted:
        return
    for user_id in [u for u in wanted if here.quiet(u)]:  # the DM waits until their quiet hours end
        known = here.people[user_id]
        ends = quiet_until(known, here.at)
        await bot.people.hold_dm(Held(user_id, row.id, row.version, ends if ends is not None else here.at))
    wanted = [u for u in wanted if not here.quiet(u)]
    if not wanted:
        return
    # The turn message was posted after the outcome's row was read: its id is in the database, or it is ``posted``
    # (``bot.flows.outbox`` stores it with the change's delivery, after this).
    latest = await bot.rows.stored(row.id) or row
    if posted is not None:
        latest = dataclasses.replace(latest, message_id=posted)
    for user_id in wanted:
        await tell(bot, latest, user_id, nonce(row.id, row.version, f"u{row.seat_of(user_id)}"))


async def tell(bot: Host, row: GameRow, user_id: int, nonce: str | None = None) -> None:
    """The turn DM itself: the game and where, what the reader missed, the link and the *My games* button."""
    with bot.languages.of_reader(user_id, row.language):  # a direct message: the reader's language
        text, file = await since.for_dm(bot, row, user_id, message(bot, row))
        view = controls()
        view.add_item(mine_button())
    await send(bot, user_id, row.id, text, file, nonce=nonce, view=view)


async def sweep(bot: Host) -> None:
    """Send the turn DMs held back by quiet hours that have ended, where the game still waits for the reader: each
    by the process of its game, once (``send_held``)."""
    await each_game(await bot.people.held_due(), "a held turn DM", lambda held: send_held(bot, held))


async def send_held(bot: Host, held: Held) -> None:
    """Send one held DM, then let it go: it stays held until Discord has it or refuses it for good, so a 5xx, a
    timeout or a kill in between only delays it to a later sweep (its nonce keeps a resend single)."""
    row = await bot.rows.stored(held.game_id)
    if row is not None and not bot.owns(row):
        return  # another process's game: that process sends it
    wanted = row is not None and held.user_id in bot.rows.waiting_people(row)
    if row is not None and wanted and not await bot.people.dms_closed(held.user_id):
        try:
            await tell(bot, row, held.user_id, nonce(row.id, held.version, f"u{row.seat_of(held.user_id)}"))
        except Exception as err:
            if not passing(err):
                await bot.people.take_held(held)  # a fault of ours: logged once by the sweep, not every minute
                raise
            log.warning("game %s: a held turn DM to user %s not delivered yet (%s); the next sweep tries again",
                        row.id, held.user_id, describe(err))  # fmt: skip
            return
    await bot.people.take_held(held)  # sent, refused for good, or no longer wanted (the game moved on or is gone)


def message(bot: Host, row: GameRow) -> str:
    params = {"game": t(f"game.{row.game}"), "channel": f"<#{row.channel_id}>", "link": jump_url(row)}
    guild = bot.get_guild(row.guild_id) if row.guild_id else None
    if guild is None:
        return t("notify.turn_elsewhere", **params)
    return t("notify.turn", server=guild.name, **params)


async def send(
    bot: Host,
    user_id: int,
    game_id: int,
    text: str,
    file: discord.File | None = None,
    *,
    nonce: str | None = None,
    view: discord.ui.View | None = None,
) -> bool:
    """One direct message (with the "since your last turn" picture if given); False (and a log line) when Discord
    refuses it."""
    extra: dict[str, Any] = {"file": file} if file is not None else {}
    if nonce is not None:
        extra["nonce"] = nonce
    if view is not None:
        extra["view"] = view
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
        await bot.people.note_dms(user_id, closed=True)
    return code is None
