"""What a host reads in the log once the bot is connected: one line each for the bot's user, its servers, the slash
commands Discord has (against the code's), the database, the shards and the drawing processes.

Logged once, at the first ``on_ready`` (after the gateway's READY and every server's data), not when the set-up
ends: until then the bot has no name, no servers and may never connect. Registered commands that are missing or
differ from the code are a warning: Discord then shows commands the bot cannot answer, or none at all.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import discord
from discord.ext import commands

from bot.core.config import Config
from bot.core.rendering import Renderer
from bot.storage.database import describe, is_postgres

log = logging.getLogger("boardhost")
SYNC = "run `python -m bot sync` (`python -m bot sync --guild ID`: in one server, at once)"
NAMED_SERVERS = 5  # servers named in the log; the rest are counted
CHECKED_SERVERS = 5  # servers whose own registered commands are fetched (besides the global ones)

Line = tuple[int, str]  # a log level and its message
Shape = tuple[Any, ...]


def user_line(user: discord.ClientUser | None) -> Line:
    if user is None:
        return logging.WARNING, "boardhost ready, but Discord named no bot user"
    return logging.INFO, f"boardhost ready: logged in as {user.name} (id {user.id})"


def servers_line(guilds: Sequence[discord.Guild]) -> Line:
    if not guilds:
        return logging.WARNING, "servers: none yet: add the bot to one with the link `python -m bot invite` prints"
    names = [guild.name for guild in sorted(guilds, key=lambda g: g.id)[:NAMED_SERVERS]]
    more = f" and {len(guilds) - len(names)} more" if len(guilds) > len(names) else ""
    return logging.INFO, f"servers: {len(guilds)} ({', '.join(names)}{more})"


def _option_shape(option: Mapping[str, Any]) -> Shape:
    return (
        option.get("name"),
        option.get("type"),
        bool(option.get("required", False)),
        bool(option.get("autocomplete", False)),
        tuple(str(choice.get("value")) for choice in option.get("choices") or ()),
        tuple(_option_shape(sub) for sub in option.get("options") or ()),
    )


def command_shape(payload: Mapping[str, Any]) -> Shape:
    """What must agree between the code's command and Discord's for the bot to answer it: the names, types and
    requirements of the command, its subcommands and options (texts and permissions may differ without harm)."""
    return (payload.get("type", 1), tuple(_option_shape(option) for option in payload.get("options") or ()))


def differences(code: Mapping[str, Shape], registered: Mapping[str, Shape]) -> list[str]:
    """How ``registered`` differs from ``code``, in a few words (none: the same)."""
    found = []
    missing = sorted(set(code) - set(registered))
    extra = sorted(set(registered) - set(code))
    changed = sorted(name for name in set(code) & set(registered) if code[name] != registered[name])
    if missing:
        found.append(f"not registered: {', '.join(missing)}")
    if extra:
        found.append(f"not in the code: {', '.join(extra)}")
    if changed:
        found.append(f"changed since: {', '.join(changed)}")
    return found


def commands_lines(code: Mapping[str, Shape], scopes: Mapping[str, Mapping[str, Shape]]) -> list[Line]:
    """The commands registered in each scope ("globally", "in server X") against the code's."""
    if not any(scopes.values()):
        return [
            (
                logging.WARNING,
                f"commands: none registered in Discord, so nobody can use the bot ({len(code)} in the code: "
                f"{', '.join(sorted(code))}): {SYNC}",
            )
        ]
    lines = []
    for where, registered in scopes.items():
        if not registered:
            continue
        found = differences(code, registered)
        if found:
            lines.append((logging.WARNING, f"commands registered {where} differ from the code ({'; '.join(found)}): "
                                           f"{SYNC}"))  # fmt: skip
        else:
            lines.append((logging.INFO, f"commands: {len(registered)} registered {where}, the same as the code "
                                        f"({', '.join(sorted(registered))})"))  # fmt: skip
    return lines


async def registered_commands(client: commands.Bot, guild_ids: Iterable[int]) -> dict[str, dict[str, Shape]]:
    """The commands Discord has for this application: globally and in each of ``guild_ids``, by scope's words."""
    application = client.application_id
    assert application is not None  # known once logged in
    found = {"globally": await client.http.get_global_commands(application)}
    for guild_id in guild_ids:
        guild = client.get_guild(guild_id)
        where = f"in server {guild.name} (id {guild_id})" if guild else f"in server {guild_id}"
        found[where] = await client.http.get_guild_commands(application, guild_id)
    return {where: {c["name"]: command_shape(c) for c in payloads} for where, payloads in found.items()}


async def check_commands(client: commands.Bot, dev_guild: int | None, registered: Iterable[int]) -> list[Line]:
    """The commands in code against those Discord has: globally, in ``dev_guild`` and in the ``registered`` servers
    (those sync stored ids for)."""
    code = {command.name: command_shape(command.to_dict(client.tree)) for command in client.tree.get_commands()}
    guilds = list(dict.fromkeys([*([dev_guild] if dev_guild else []), *registered]))[:CHECKED_SERVERS]
    try:
        scopes = await registered_commands(client, guilds)
    except Exception as err:  # a report, never a reason to stop: say what could not be checked
        return [(logging.WARNING, f"commands: could not ask Discord which are registered ({type(err).__name__}: "
                                  f"{err})")]  # fmt: skip
    return commands_lines(code, scopes)


def database_line(target: str | Path) -> Line:
    if is_postgres(target):
        return logging.INFO, f"database: PostgreSQL {describe(target)}"
    return logging.INFO, f"database: SQLite {os.path.abspath(describe(target))}"


def shards_line(shard_count: int | None, shard_ids: Sequence[int] | None) -> Line:
    if shard_count is None:
        return logging.INFO, "shards: none (one gateway connection for every server)"
    ids = list(shard_ids) if shard_ids is not None else list(range(shard_count))
    return logging.INFO, f"shards: {', '.join(map(str, ids))} of {shard_count} in this process"


def drawing_line(configured: int, ready: Sequence[int]) -> Line:
    if configured <= 0:
        return logging.INFO, "drawing processes: none (pictures are drawn in threads of the bot's process)"
    pids = f" (pid{'s' if len(ready) > 1 else ''} {', '.join(map(str, ready))})" if ready else ""
    if len(ready) < configured:
        return logging.WARNING, f"drawing processes: {len(ready)} of {configured} ready{pids}"
    return logging.INFO, f"drawing processes: {len(ready)} ready{pids}"


async def report(client: commands.Bot, config: Config, renderer: Renderer, registered: Iterable[int]) -> list[Line]:
    shard_ids = getattr(client, "shard_ids", None)  # an AutoShardedBot's; a plain bot runs no shards
    return [
        user_line(client.user),
        servers_line(client.guilds),
        *await check_commands(client, config.dev_guild, registered),
        database_line(config.database),
        shards_line(config.shard_count, shard_ids if config.shard_count is not None else None),
        drawing_line(renderer.processes, renderer.ready_pids()),
    ]


def report_when_ready(
    client: commands.Bot, config: Config, renderer: Callable[[], Renderer], registered: Callable[[], Iterable[int]]
) -> None:
    """Log the report once, when the bot is first ready (``renderer``: the bot's, and ``registered``: the servers
    its command ids were stored for, both known once it is set up)."""

    async def on_ready() -> None:
        client.remove_listener(on_ready, "on_ready")  # ready again after a new session: said once is enough
        for level, line in await report(client, config, renderer(), registered()):
            log.log(level, "%s", line)

    client.add_listener(on_ready, "on_ready")
