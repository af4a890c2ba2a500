"""Discord calls that may fail without harming a move already stored: sending, editing, direct messages.

A move is stored before anything is posted, with what it owes Discord (``bot.flows.outbox``). These helpers log a
refusal
that no retry changes (closed DMs, a message deleted meanwhile) with the game id and return what happened, so callers
need no ``contextlib.suppress`` of their own; a passing failure (``passing``: a 5xx, a timeout) is raised from the
ones that post what a move owes, for the outbox to try again.
"""

from __future__ import annotations

import logging
from typing import Any

import aiohttp
import discord
from discord.http import Route, handle_message_parameters

from bot.core.host import Host
from bot.core.rendering import RenderError
from bot.host import OwedAnswer

log = logging.getLogger("boardhost.safely")


def passing(err: BaseException) -> bool:
    """A failure that goes away by itself (tried again later): Discord's 5xx and 429, a timeout, the network, a
    drawing process lost."""
    if isinstance(err, discord.HTTPException):
        return err.status >= 500 or err.status == 429
    passing_kinds = (
        discord.RateLimited | discord.ConnectionClosed | aiohttp.ClientError | TimeoutError | OSError | RenderError
    )
    return isinstance(err, passing_kinds)


def describe(err: BaseException) -> str:
    """A failure in one log line: Discord's status, code and text, or the exception."""
    if isinstance(err, discord.HTTPException):
        return f"HTTP {err.status}, code {err.code}: {err.text}"
    return f"{type(err).__name__}: {err}"


async def edit_in_place(
    client: Host, channel_id: int, message_id: int, game_id: int | None, what: str, /, **fields: Any
) -> bool:
    """``PartialMessage.edit(**fields)`` of message ``message_id`` in channel ``channel_id`` as the request alone:
    discord.py would build a whole ``Message`` from Discord's answer (its components, attachments, author), which
    nobody reads here (a turn message brought up to date, an older one's buttons retired). The views sent hold
    only ``Control`` items, which discord.py dispatches by their custom id whatever message they are on: nothing
    to store for them. False (logged) when the message was deleted; other refusals are raised: the outbox
    (``bot.flows.outbox``) tries again or waits."""
    previous = client.allowed_mentions if "content" in fields else None  # as ``edit`` merges them
    try:
        with handle_message_parameters(previous_allowed_mentions=previous, **fields) as params:
            await client.http.edit_message(channel_id, message_id, params=params)
    except discord.NotFound as err:
        log.info("game %s: %s is gone (code %s)", game_id, what, err.code)
        return False
    return True


async def fetch_channel(
    client: Host, channel_id: int, game_id: int | None, /
) -> discord.abc.GuildChannel | discord.Thread | discord.abc.PrivateChannel | None:
    """The channel ``channel_id``, from the cache or else from Discord; None (logged) when it is gone."""
    channel = client.get_channel(channel_id)
    if channel is not None:
        return channel
    try:
        return await client.fetch_channel(channel_id)
    except discord.HTTPException as err:
        log.warning("game %s: channel %s is gone (HTTP %s, code %s)", game_id, channel_id, err.status, err.code)
        return None


async def send(
    target: discord.abc.Messageable, game_id: int | None, what: str, /, **kwargs: Any
) -> discord.Message | None:
    """``target.send(**kwargs)``; None (logged) when Discord refuses it."""
    try:
        return await target.send(**kwargs)
    except discord.HTTPException as err:
        log.warning("game %s: %s not sent (HTTP %s, code %s): %s", game_id, what, err.status, err.code, err.text)
        return None


async def post(
    target: discord.abc.Messageable, game_id: int | None, what: str, /, **kwargs: Any
) -> discord.Message | None:
    """``target.send(**kwargs)`` of something still owed when it fails: None (logged) when Discord refuses it for
    good; a passing failure (``passing``) is raised, for the caller to try again later."""
    try:
        return await target.send(**kwargs)
    except discord.HTTPException as err:
        if passing(err):
            raise
        log.warning("game %s: %s refused (%s)", game_id, what, describe(err))
        return None


async def edit(
    message: discord.Message | discord.PartialMessage, game_id: int | None, what: str, /, **kwargs: Any
) -> discord.Message | None:
    """``message.edit(**kwargs)``; None (logged) when Discord refuses it or the message is gone."""
    try:
        return await message.edit(**kwargs)
    except discord.HTTPException as err:
        log.info("game %s: %s not edited (HTTP %s, code %s)", game_id, what, err.status, err.code)
        return None


async def followup(interaction: discord.Interaction, game_id: int | None, what: str, /, **kwargs: Any) -> bool:
    """A follow-up to an answered interaction (an ephemeral reply, usually); False (logged) when refused."""
    try:
        await interaction.followup.send(**kwargs)
    except discord.HTTPException as err:
        log.info("game %s: %s not sent (HTTP %s, code %s)", game_id, what, err.status, err.code)
        return False
    return True


async def answer_later(client: Host, answer: OwedAnswer, game_id: int | None, content: str, /) -> bool:
    """Fill in the answer an interaction waits on ("thinking…") through its token alone, the interaction
    itself gone with the process that deferred it: the original response is edited, which leaves an answer already
    given as it is when the content is the same. False (logged) when Discord no longer takes the token (older than
    its 15 minutes, or the answer deleted); passing failures are raised, for the outbox to try again."""
    route = Route(
        "PATCH",
        "/webhooks/{application_id}/{token}/messages/@original",
        application_id=answer.application_id,
        token=answer.token,
    )
    payload = {"content": content, "allowed_mentions": {"parse": []}}
    try:
        await client.http.request(route, json=payload)
    except discord.HTTPException as err:
        if passing(err):
            raise
        log.info("game %s: an answer owed not given (HTTP %s, code %s)", game_id, err.status, err.code)
        return False
    return True


async def reply(interaction: discord.Interaction, game_id: int | None, what: str, /, **kwargs: Any) -> bool:
    """The interaction's response if it has none yet, else a follow-up; False (logged) when refused."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(**kwargs)
        else:
            await interaction.response.send_message(**kwargs)
    except discord.HTTPException as err:
        log.info("game %s: %s not sent (HTTP %s, code %s)", game_id, what, err.status, err.code)
        return False
    return True


async def dm(
    client: Host,
    user_id: int,
    game_id: int | None,
    what: str,
    /,
    logger: logging.Logger = log,
    **kwargs: Any,
) -> int | None:
    """A direct message to ``user_id``. None when delivered, else Discord's error code (0 if it gave none), logged
    (to ``logger``):
    50007 (the user does not accept DMs from the bot) and 50278 (no server in common) are the usual ones. A passing
    failure (``passing``: a 5xx, a timeout) is raised, for the outbox to try again."""
    try:
        channel = await client.create_dm(discord.Object(id=user_id))
        await channel.send(**kwargs)
    except discord.HTTPException as err:
        if passing(err):
            raise
        logger.warning(
            "game %s: %s to user %s not delivered (HTTP %s, code %s): %s",
            game_id, what, user_id, err.status, err.code, err.text,
        )  # fmt: skip
        return int(err.code or 0)
    return None
