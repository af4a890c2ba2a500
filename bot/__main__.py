"""``python -m bot`` runs the bot; ``python -m bot sync [--guild ID]`` registers the slash commands;
``python -m bot invite [--application-id ID]`` prints the link that adds the bot to a server."""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys

import discord

from bot.config import TOKEN_HELP, ConfigError, load_config, token


def apply_endpoints(rest: str | None, gateway: str | None) -> None:
    """Point discord.py at a REST/gateway proxy when the config asks for one."""
    if rest:
        discord.http.Route.BASE = rest.rstrip("/")
    if gateway:
        from yarl import URL

        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = URL(gateway)


async def run(sync: bool, guild: int | None) -> int:
    from bot.app import BoardHost

    config = load_config()
    secret = token()
    if not secret:
        sys.stderr.write(TOKEN_HELP + "\n")
        return 2
    apply_endpoints(config.rest_base_url, config.gateway_url)
    bot = BoardHost(config)
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


def print_invite(application_id: int | None) -> int:
    from bot.invite import explain

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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="boardhost Discord bot: without a command, run it (needs DISCORD_TOKEN and, optionally, "
        "config.toml or $BOARDHOST_CONFIG).",
    )
    sub = parser.add_subparsers(dest="command")
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
    args = parser.parse_args(argv)
    if args.command == "invite":
        return print_invite(args.application_id)
    discord.utils.setup_logging()
    try:
        return asyncio.run(run(args.command == "sync", getattr(args, "guild", None)))
    except ConfigError as err:
        sys.stderr.write(f"config: {err}\n")
        return 2


if __name__ == "__main__":
    sys.exit(main())
