"""``python -m bot`` runs the bot; ``sync`` registers the slash commands; ``migrate`` brings the database's schema
up to date; ``copy-db FROM TO`` copies one database into another (SQLite <-> PostgreSQL)."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import signal
import sys

import discord

from bot.config import TOKEN_HELP, Config, ConfigError, load_config, shards, token


def apply_endpoints(rest: str | None, gateway: str | None) -> None:
    """Point discord.py at a REST/gateway proxy when the config asks for one."""
    if rest:
        discord.http.Route.BASE = rest.rstrip("/")
    if gateway:
        from yarl import URL

        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = URL(gateway)


async def run(config: Config, sync: bool, guild: int | None) -> int:
    from bot.app import make_bot

    secret = token()
    if not secret:
        sys.stderr.write(TOKEN_HELP + "\n")
        return 2
    apply_endpoints(config.rest_base_url, config.gateway_url)
    bot = make_bot(config)
    if sync:
        async with bot:
            await bot.login(secret)
            await bot.setup_hook()
            guild_id = guild or config.dev_guild
            target = discord.Object(guild_id) if guild_id else None
            if target:
                bot.tree.copy_global_to(guild=target)
            synced = await bot.tree.sync(guild=target)
            print(f"synced {len(synced)} commands {'to guild ' + str(target.id) if target else 'globally'}")
        return 0
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, lambda: asyncio.ensure_future(bot.close()))
    async with bot:
        await bot.start(secret)
    return 0


async def migrate(config: Config) -> int:
    """Apply the pending migrations of the configured database and say what it is at."""
    from bot.storage import Database
    from bot.storage.database import describe

    db = await Database.open(config.database, migrate=False)
    try:
        applied = await db.migrate()
        version = await db.schema_version()
    finally:
        await db.close()
    done = f"applied {', '.join(map(str, applied))}" if applied else "nothing to apply"
    print(f"{describe(config.database)}: schema version {version} ({done})")
    return 0


async def copy_db(source: str, target: str) -> int:
    """Copy every table of ``source`` into the empty ``target`` and verify it (see bot/copydb.py)."""
    from bot.copydb import CopyError, copy_database

    try:
        copied = await copy_database(source, target, say=print)
    except CopyError as err:
        sys.stderr.write(f"copy-db: {err}\n")
        return 1
    print(f"copied {sum(copied.rows.values())} rows; {copied.games_rebuilt} games verified")
    return 0


def with_shards(config: Config, shard_ids: str | None, shard_count: int | None) -> Config:
    """The command line's ``--shard-ids`` / ``--shard-count`` over the config's."""
    if shard_ids is None and shard_count is None:
        return config
    ids = shard_ids if shard_ids is not None else None
    count = shard_count if shard_count is not None else config.shard_count
    if ids is None and config.shard_ids is not None and shard_count is None:
        ids = ",".join(map(str, config.shard_ids))
    return dataclasses.replace(config, shard_count=None, shard_ids=None, **shards(ids, count))


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot", description="boardhost Discord bot")
    parser.add_argument("--shard-ids", default=None, help="the shards this process runs, e.g. 0-3 or 0,2,5-7")
    parser.add_argument("--shard-count", type=int, default=None, help="the bot's total number of shards")
    sub = parser.add_subparsers(dest="command")
    sync = sub.add_parser("sync", help="register the slash commands (globally, or in one guild at once)")
    sync.add_argument("--guild", type=int, default=None)
    sub.add_parser("migrate", help="apply the database's pending migrations (also done at start)")
    copy = sub.add_parser("copy-db", help="copy every game, log, setting and stat into an empty database")
    copy.add_argument("source", help="sqlite:///PATH, a path, or postgresql://...")
    copy.add_argument("target", help="sqlite:///PATH, a path, or postgresql://... (must be empty)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    discord.utils.setup_logging()
    try:
        if args.command == "copy-db":
            return asyncio.run(copy_db(args.source, args.target))
        config = with_shards(load_config(), args.shard_ids, args.shard_count)
        if args.command == "migrate":
            return asyncio.run(migrate(config))
        return asyncio.run(run(config, args.command == "sync", getattr(args, "guild", None)))
    except ConfigError as err:
        sys.stderr.write(f"config: {err}\n")
        return 2


if __name__ == "__main__":
    sys.exit(main())
