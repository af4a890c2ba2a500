"""``python -m bot sync``: register the slash commands and store their ids, without starting the bot.

Registering needs the command tree and the translator only: no gateway, no drawing processes, no background loops.
The cogs are created without running their ``__init__`` (which opens services), so only their commands are read.
"""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot.core.config import Config
from bot.lineup import COGS, GAMES
from bot.storage.command_ids import CommandIds
from bot.storage.database import SchemaTooNew
from bot.storage.opening import CannotOpen, open_database
from bot.text.translator import CatalogueTranslator

TIMEOUT = 30.0  # seconds for the whole registration


class SyncError(Exception):
    """A failure told in one line."""


def command_cogs() -> list[type[commands.Cog]]:
    """The cogs with application commands, in the order the bot adds them (``bot.app``)."""
    return [*(game.cog_type for game in GAMES), *COGS]


async def build_tree(tree: app_commands.CommandTree[Any]) -> None:
    """Every cog's application commands on ``tree``, translated by the catalogue."""
    await tree.set_translator(CatalogueTranslator())
    for cls in command_cogs():
        cog = cls.__new__(cls)  # binds the commands to an instance; __init__ (services) never runs
        group = cog.__cog_app_commands_group__
        for command in [group] if group else cog.__cog_app_commands__:
            tree.add_command(command)


def describe(err: BaseException, where: str) -> str:
    """One line for a failure of a call to Discord."""
    if isinstance(err, discord.LoginFailure):
        return "Discord refused the token (401 Unauthorized): check DISCORD_TOKEN"
    if isinstance(err, discord.HTTPException):
        text = " ".join(str(err).split())
        return f"Discord answered {err.status}: {text}"
    if isinstance(err, TimeoutError | asyncio.TimeoutError):
        return f"no answer from Discord at {where} within {TIMEOUT:.0f} seconds"
    if isinstance(err, aiohttp.ClientError | OSError):
        return f"cannot reach Discord at {where}: {' '.join(str(err).split()) or type(err).__name__}"
    return f"{type(err).__name__}: {' '.join(str(err).split())}"


async def sync(config: Config, secret: str, guild_id: int | None) -> str:
    """Register the commands (in ``guild_id``, else globally), store their ids; the line to print. The database is
    opened first: commands registered with nowhere to store their ids would be a half-done sync."""
    try:
        db = await open_database(config.database)
    except (CannotOpen, SchemaTooNew) as err:
        raise SyncError(f"nothing registered: {err}") from None
    try:
        synced = await register(config, secret, guild_id)
        await CommandIds(db).replace(guild_id, {command.name: command.id for command in synced})
    finally:
        await db.close()
    return f"synced {len(synced)} commands " + (f"to guild {guild_id}" if guild_id else "globally")


async def register(config: Config, secret: str, guild_id: int | None) -> list[app_commands.AppCommand]:
    """The commands registered with Discord (in ``guild_id``, else globally)."""
    where = config.rest_base_url or discord.http.Route.BASE
    client = commands.Bot(command_prefix=commands.when_mentioned, intents=discord.Intents.none(), help_command=None)
    try:
        async with asyncio.timeout(TIMEOUT):
            await build_tree(client.tree)
            await client.http.static_login(secret.strip())
            application = await client.application_info()
            client._connection.application_id = application.id
            target = discord.Object(guild_id) if guild_id else None
            if target:
                client.tree.copy_global_to(guild=target)
            return await client.tree.sync(guild=target)
    except (discord.DiscordException, aiohttp.ClientError, OSError, TimeoutError) as err:
        raise SyncError(describe(err, where)) from None
    finally:
        await client.http.close()
