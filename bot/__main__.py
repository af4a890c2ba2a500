"""``python -m bot`` runs the bot; ``python -m bot sync [--guild ID]`` registers the slash commands;
``python -m bot invite [--application-id ID]`` prints the link that adds the bot to a server;
``python -m bot migrate`` brings the database's schema up to date; ``python -m bot copy-db FROM TO`` copies one
database into another (SQLite <-> PostgreSQL); ``python -m bot backup TO`` copies the SQLite database while the bot
runs; ``python -m bot ratings [--rebuild]`` checks the ratings against the finished games' logs (or rebuilds them);
``python -m bot health`` says whether the running bot is connected and its database answers (from its heartbeat
file, ``bot/core/heartbeat.py``); ``python -m bot --version`` prints the version; ``--shard-ids 0-3 --shard-count 8``
runs those Discord shards; ``python -m bot try`` plays it in the browser on this computer, against a loopback
Discord, no token needed (``bot/local/tryout.py``).

Failures (a refused token, Discord out of reach, a command Discord rejects) end the process with one line on stderr
and a non-zero status; SIGTERM (or Ctrl-C) closes the bot within a few seconds whatever it is doing.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import logging
import os
import signal
import sys
import time
from pathlib import Path
from typing import NoReturn

import aiohttp
import discord

from bot.cli.invite import explain
from bot.core.config import (
    TOKEN_HELP,
    Config,
    ConfigError,
    check_storage_for_shards,
    load_config,
    shards,
    token,
)
from bot.core.heartbeat import ENV as HEARTBEAT_ENV
from bot.core.heartbeat import EVERY, check, heartbeat_file
from bot.core.logs import setup_logging
from bot.core.version import version

CLOSE_WITHIN = 5.0  # seconds granted to a clean close on SIGTERM before the process ends anyway
FINISH_WITHIN = 3.0  # seconds granted on SIGTERM to interactions already being handled
DISCORD_IDS = 1 << 64  # every Discord id (a snowflake) lies below this
_HANDLERS = ("CommandTree-invoker", "discord-ui-", "discord.py: on_interaction")  # discord.py's task names


async def finish_handlers() -> None:
    """Let the interactions being handled finish (answering, editing) before the HTTP session closes under them;
    stop those still waiting on Discord after ``FINISH_WITHIN`` (a move they made is stored and stays owed: the
    next start posts it), so that none fails with a traceback when the session closes."""
    running = [
        task
        for task in asyncio.all_tasks()
        if task is not asyncio.current_task() and task.get_name().startswith(_HANDLERS)
    ]
    if not running:
        return
    _, late = await asyncio.wait(running, timeout=FINISH_WITHIN)
    for task in late:
        task.cancel()
    if late:
        await asyncio.wait(late, timeout=1.0)


def apply_endpoints(rest: str | None, gateway: str | None) -> None:
    """Point discord.py at a REST/gateway proxy when the config asks for one (webhooks and interaction answers
    share the REST route class)."""
    if rest:
        discord.http.Route.BASE = rest.rstrip("/")
    if gateway:
        from yarl import URL

        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = URL(gateway)


class _OneLineReconnects(logging.Filter):
    """discord.py logs each failed gateway attempt with its traceback; one line each is enough."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.getMessage().startswith("Attempting a reconnect"):
            err = record.exc_info[1]
            record.msg = f"{record.getMessage()} ({type(err).__name__}: {err})"
            record.args = ()
            record.exc_info = None
        return True


async def run_sync(config: Config, secret: str, guild: int | None) -> int:
    from bot.cli.sync import SyncError, sync  # lazy: the whole app (Pillow, discord.py) only for a sync

    try:
        print(await sync(config, secret, guild or config.dev_guild))
    except SyncError as err:
        sys.stderr.write(f"sync failed: {err}\n")
        return 1
    return 0


async def serve(config: Config, secret: str) -> int:
    from bot.app import make_bot  # lazy: `--help` and config errors answer without loading Pillow and discord.py
    from bot.cli.sync import describe  # lazy: loaded with the app, see above
    from bot.core.ready_report import report_when_ready  # lazy: loaded with the app, see above

    bot = make_bot(config)
    report_when_ready(bot, config, lambda: bot.renderer, lambda: bot.command_mentions.registered_guilds())
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    online, offline = asyncio.Event(), asyncio.Event()
    offline.set()  # until the first connection

    async def on_connect() -> None:
        offline.clear()
        online.set()

    async def on_disconnect() -> None:
        online.clear()
        offline.set()

    bot.add_listener(on_connect, "on_connect")
    bot.add_listener(on_connect, "on_resumed")
    bot.add_listener(on_disconnect, "on_disconnect")

    async def watchdog() -> str:
        # Woken by the connection's events, not by a clock: an idle bot costs nothing. The time counts from the
        # first disconnect; more disconnects before a connection do not restart it.
        while True:
            await offline.wait()
            if not config.give_up_after:
                await asyncio.Future()  # never gives up
            try:
                await asyncio.wait_for(online.wait(), config.give_up_after)
            except TimeoutError:
                return f"no connection to Discord's gateway for {config.give_up_after:.0f} seconds, giving up"

    async def start() -> None:
        await bot.login(secret)
        delay = 1.0
        while True:
            try:
                await bot.connect(reconnect=True)
                return
            except AttributeError:
                if getattr(bot, "ws", None) is not None:  # typed as never None, but None until a socket opens
                    raise
                # discord.py cannot retry a first connection that never opened (it reads the missing socket's
                # sequence): retry here until the watchdog gives up.
                logging.getLogger("boardhost").warning("cannot reach the gateway, retrying in %.0f s", delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 30.0)

    runner = asyncio.create_task(start())
    stopping = asyncio.create_task(stop.wait())
    giving_up = asyncio.create_task(watchdog())
    status, line = 0, ""
    try:
        done, _ = await asyncio.wait({runner, stopping, giving_up}, return_when=asyncio.FIRST_COMPLETED)
        if runner in done and runner.exception() is not None:
            err = runner.exception()
            assert err is not None
            if not isinstance(err, discord.DiscordException | aiohttp.ClientError | OSError | TimeoutError):
                raise err  # a bug: its traceback is worth more than a line
            status, line = 1, describe(err, config.rest_base_url or discord.http.Route.BASE)
        elif giving_up in done:
            status, line = 1, giving_up.result()
    finally:
        for task in (stopping, giving_up):
            task.cancel()
        await finish_handlers()
        try:
            await asyncio.wait_for(bot.close(), CLOSE_WITHIN)
        except (TimeoutError, Exception) as err:  # ending anyway: say why the close was not clean
            sys.stderr.write(f"closing: {type(err).__name__}: {err}\n")
        runner.cancel()
        await asyncio.gather(runner, return_exceptions=True)
    if line:
        sys.stderr.write(f"boardhost stopped: {line}\n")
    return status


async def run(config: Config, sync: bool, guild: int | None) -> int:
    if guild is not None and not 0 < guild < DISCORD_IDS:
        sys.stderr.write(f"sync: --guild {guild}: must be a server's id, a whole number of up to 20 digits\n")
        return 2
    secret = token()
    if not secret:
        sys.stderr.write(TOKEN_HELP + "\n")
        return 2
    apply_endpoints(config.rest_base_url, config.gateway_url)
    if sync:
        return await run_sync(config, secret, guild)
    problem = await database_problem(config)  # before Discord: a database that cannot be used stops the bot at once
    if problem:
        sys.stderr.write(f"boardhost stopped: {problem}\n")
        return 1
    return await serve(config, secret)


async def database_problem(config: Config) -> str | None:
    """Why the configured database cannot be used (opened and brought up to date), or None when it can."""
    from bot.storage import SchemaTooNew  # lazy: only commands that open the database load storage
    from bot.storage.opening import CannotOpen, open_database  # lazy: see above

    try:
        db = await open_database(config.database)
    except (CannotOpen, SchemaTooNew) as err:
        return str(err)
    await db.close()
    return None


def print_invite(application_id: int | None) -> int:
    if application_id is not None and not 0 < application_id < DISCORD_IDS:
        sys.stderr.write(
            f"invite: --application-id {application_id}: must be the application's id, a whole number of up to 20 "
            "digits (Developer Portal, your application, General Information)\n"
        )
        return 2
    try:
        application_id = application_id or load_config().application_id
    except ConfigError as err:
        sys.stderr.write(f"config: {err}\n")
        return 2
    if not application_id:
        sys.stderr.write(
            "invite: no application id: pass --application-id ID or set [discord] application_id in config.toml "
            "(Developer Portal, your application, General Information)\n"
        )
        return 2
    print(explain(application_id))
    return 0


async def migrate(config: Config) -> int:
    """Apply the pending migrations of the configured database and say what it is at."""
    from bot.storage import SchemaTooNew  # lazy: only this subcommand opens the database
    from bot.storage.database import describe  # lazy: see above
    from bot.storage.opening import CannotOpen, open_database  # lazy: see above

    try:
        db = await open_database(config.database, migrate=False)
    except (CannotOpen, SchemaTooNew) as err:
        sys.stderr.write(f"migrate: {err}\n")
        return 1
    try:
        applied = await db.migrate()
        version = await db.schema_version()
    finally:
        await db.close()
    done = f"applied {', '.join(map(str, applied))}" if applied else "nothing to apply"
    print(f"{describe(config.database)}: schema version {version} ({done})")
    return 0


async def copy_db(source: str, target: str) -> int:
    """Copy every table of ``source`` into the empty ``target`` and verify it (see bot/cli/copydb.py)."""
    from bot.cli.copydb import CopyError, copy_database  # lazy: only this subcommand loads the engines to verify

    try:
        copied = await copy_database(source, target, say=print)
    except CopyError as err:
        sys.stderr.write(f"copy-db: {err}\n")
        return 1
    print(f"copied {sum(copied.rows.values())} rows; {copied.games_rebuilt} games verified")
    return 0


def backup(config: Config, target: str) -> int:
    """Copy the configured SQLite database into the new file ``target`` (see bot/cli/backup.py)."""
    from bot.cli.backup import BackupError, backup_sqlite  # lazy: only this subcommand
    from bot.storage.database import describe, is_postgres, sqlite_path  # lazy: see above

    if is_postgres(config.database):
        sys.stderr.write(
            f"backup: {describe(config.database)} is PostgreSQL: back it up with pg_dump (README, "
            '"Backup and restore")\n'
        )
        return 2
    try:
        size = backup_sqlite(sqlite_path(config.database), Path(target))
    except BackupError as err:
        sys.stderr.write(f"backup: {err}\n")
        return 1
    print(f"{describe(config.database)} backed up to {target} ({size / 1024:.0f} kB)")
    return 0


async def rerate(config: Config, rebuild: bool) -> int:
    """Check the stored ratings against the finished games' logs, or rebuild them (see bot/cli/rerate.py)."""
    from bot.cli.rerate import ratings  # lazy: only this subcommand replays the games
    from bot.storage import SchemaTooNew  # lazy: see above
    from bot.storage.opening import CannotOpen  # lazy: see above

    try:
        return await ratings(config.database, rebuild=rebuild, say=print)
    except (CannotOpen, SchemaTooNew) as err:
        sys.stderr.write(f"ratings: {err}\n")
        return 1


def health() -> int:
    """0 when the bot's last heartbeat is recent and says it is connected and its database answers; else 1."""
    path = heartbeat_file()
    if path is None:
        sys.stderr.write(
            f"health: {HEARTBEAT_ENV} is not set: the bot writes its heartbeat only to the file it names "
            f"(the image sets {HEARTBEAT_ENV}=/tmp/boardhost.heartbeat)\n"
        )
        return 2
    healthy, line = check(path, time.time())
    if healthy:
        print(f"healthy: {line}")
        return 0
    sys.stderr.write(f"unhealthy: {line}\n")
    return 1


def try_it(args: argparse.Namespace) -> int:
    """``python -m bot try`` (see bot/local/tryout.py)."""
    from bot.local.tryout import Options, main  # lazy: the loopback and the page only for a try

    if not 0 <= args.port < 65536 or not 0 <= args.computer_pause <= 60:
        sys.stderr.write("try: --port is 0 to 65535 and --computer-pause 0 to 60 seconds (see --help)\n")
        return 2
    setup_logging(logging.WARNING)
    options = Options(args.folder, args.port, args.people, not args.no_browser, args.computer_pause)
    return main(options)


def with_shards(config: Config, shard_ids: str | None, shard_count: int | None) -> Config:
    """The command line's ``--shard-ids`` / ``--shard-count`` over the config's, checked like the file's
    (``--shard-count 0``, like ``shard_count = 0``, is no sharding)."""
    if shard_ids is None and shard_count is None:
        return config
    count = shard_count if shard_count is not None else config.shard_count
    ids = shard_ids
    if ids is None and config.shard_ids is not None and shard_count is None:
        ids = ",".join(map(str, config.shard_ids))
    ids_name = "--shard-ids" if shard_ids is not None else "[discord] shard_ids"
    count_name = "--shard-count" if shard_count is not None else "[discord] shard_count"
    checked = shards(ids, count, ids_name=ids_name, count_name=count_name)
    return dataclasses.replace(config, **{"shard_count": None, "shard_ids": None, **checked})


class Parser(argparse.ArgumentParser):
    """A mistake on the command line is one line, like every other refusal (``--help`` shows the usage)."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{self.prog}: {message} (see {self.prog} --help)\n")
        raise SystemExit(2)


def parser() -> argparse.ArgumentParser:
    """The command line: running the bot, and its subcommands."""
    parser = Parser(
        prog="python -m bot",
        description="boardhost Discord bot: without a command, run it (needs DISCORD_TOKEN and, optionally, "
        "config.toml or $BOARDHOST_CONFIG).",
    )
    parser.add_argument("--version", action="version", version=f"boardhost {version()}")
    parser.add_argument("--shard-ids", default=None, metavar="IDS", help="the shards this process runs: 0-3, 0,2,5-7")
    parser.add_argument(
        "--shard-count", type=int, default=None, metavar="N", help="the bot's total number of shards (0: no sharding)"
    )
    sub = parser.add_subparsers(dest="command", parser_class=Parser)
    sync = sub.add_parser(
        "sync",
        help="register the slash commands (globally, or in one guild at once)",
        description="Register the slash commands with Discord and exit (needs DISCORD_TOKEN). Global commands can "
        "take up to an hour to appear in every server; --guild makes them appear in one server at once.",
    )
    sync.add_argument(
        "--guild", type=int, default=None, metavar="ID", help="a server's id: register there only, at once"
    )
    invite = sub.add_parser(
        "invite",
        help="print the link that adds the bot to a server, with the permissions it uses",
        description="Print the OAuth2 link that adds the bot and its slash commands to a server, asking for exactly "
        "the channel permissions the bot uses, and what each is for. Needs no token.",
    )
    invite.add_argument(
        "--application-id",
        type=int,
        default=None,
        metavar="ID",
        help="the application's id (Developer Portal, General Information); default: [discord] application_id",
    )
    sub.add_parser(
        "migrate",
        help="apply the database's pending migrations",
        description="Apply the configured database's pending migrations (the bot also does at start) and exit.",
    )
    copy = sub.add_parser(
        "copy-db",
        help="copy every game, log, setting and stat into an empty database",
        description="Copy every table of FROM into the empty TO (SQLite <-> PostgreSQL), then rebuild every game "
        "from its log on TO and compare it with its stored state.",
    )
    copy.add_argument("source", metavar="FROM", help="sqlite:///PATH, a path, or postgresql://...")
    copy.add_argument("target", metavar="TO", help="sqlite:///PATH, a path, or postgresql://... (empty)")
    saved = sub.add_parser(
        "backup",
        help="copy the SQLite database into a new file, even while the bot runs",
        description="Copy the configured SQLite database, consistent and complete even while the bot runs, into "
        "the new file TO (never overwritten). PostgreSQL: use pg_dump.",
    )
    saved.add_argument("target", metavar="TO", help="the new file, e.g. boardhost-2026-01-31.sqlite3")
    rated = sub.add_parser(
        "ratings",
        help="check the ratings against the finished games' logs, or rebuild them from the logs",
        description="Rate every finished game again from its action log (abandoned games never count), in the "
        "order the games ended, and compare with the stored ratings: exit 0 when they agree, else list the "
        "differences and exit 1. With --rebuild, store the ratings from the logs in place of the old ones.",
    )
    rated.add_argument("--rebuild", action="store_true", help="replace the stored ratings with the ones from the logs")
    trying = sub.add_parser(
        "try",
        help="play it in the browser on this computer, against a loopback Discord (no token, no Discord account)",
        description="Start a loopback Discord on this computer, the bot against it (python -m bot sync, then "
        "python -m bot, with a SQLite file) and a web page that plays the part of Discord for the people at the "
        "table; print its address and open it in the browser. Ctrl-C stops everything.",
    )
    trying.add_argument(
        "--folder",
        type=Path,
        default=None,
        metavar="PATH",
        help="keep the database, the config and the bot's log there, and find them again next time "
        "(default: a temporary folder, removed at the end)",
    )
    trying.add_argument("--port", type=int, default=0, metavar="N", help="the page's port (default: a free one)")
    trying.add_argument(
        "--people", type=int, default=2, choices=range(1, 11), metavar="N", help="people at the table, 1 to 10 (2)"
    )
    trying.add_argument(
        "--computer-pause",
        type=float,
        default=1.0,
        metavar="SECONDS",
        help="seconds a computer player waits before each move (1)",
    )
    trying.add_argument("--no-browser", action="store_true", help="print the address, open no browser")
    sub.add_parser(
        "health",
        help="say whether the running bot is connected to Discord and its database answers (exit 0), else exit 1",
        description=f"Read the heartbeat the running bot writes to ${HEARTBEAT_ENV} (every {EVERY:.0f} seconds, "
        "and at once when its gateway connection changes): exit 0 when it is recent and the bot is connected to "
        "Discord's gateway and its database answers, else print why and exit 1. Docker's HEALTHCHECK runs it.",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command == "invite":
        return print_invite(args.application_id)
    if args.command == "health":
        return health()
    if args.command == "try":
        return try_it(args)
    if args.command == "copy-db":
        setup_logging(logging.WARNING)
        return asyncio.run(copy_db(args.source, args.target))
    setup_logging(logging.ERROR if args.command == "sync" else logging.INFO)
    logging.getLogger("discord.client").addFilter(_OneLineReconnects())
    try:
        config = with_shards(load_config(), args.shard_ids, args.shard_count)
        if args.command is None:
            check_storage_for_shards(config)
        if args.command == "migrate":
            return asyncio.run(migrate(config))
        if args.command == "backup":
            return backup(config, args.target)
        if args.command == "ratings":
            return asyncio.run(rerate(config, args.rebuild))
        return asyncio.run(run(config, args.command == "sync", getattr(args, "guild", None)))
    except ConfigError as err:
        sys.stderr.write(f"config: {err}\n")
        return 2


def entry() -> int:
    """``main`` for the process: a reader that stops early (``invite | head -1``) or Ctrl-C ends it quietly."""
    try:
        status = main()
        sys.stdout.flush()  # here, where a closed pipe can still be caught, not at exit
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing left to flush at exit
        return 1
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        return 130
    return status


if __name__ == "__main__":
    sys.exit(entry())
