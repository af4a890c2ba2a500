"""What a host reads when ``python -m bot`` starts, as a process against the fake Discord: once connected, one line
each for the bot user, its servers, its commands (registered in Discord against the code's), the database, the
shards and the drawing processes; no voice warnings, and no colour codes in a log that is not a terminal."""

from __future__ import annotations

import asyncio

from bot.local.loopback import FakeDiscord
from tests.process.conftest import BotProcess, Launcher

LAST = "drawing processes:"  # the report's last line


async def report_of(bot: BotProcess, timeout: float = 30) -> list[str]:
    """The bot's log up to its start-up report's last line (discord.py is ready ~2 s after the servers arrive)."""
    for _ in range(int(timeout * 10)):
        if LAST in bot.log:
            return bot.stderr
        if bot.proc.returncode is not None:
            break
        await asyncio.sleep(0.1)
    raise AssertionError(f"no start-up report:\n{bot.log}")


def line(log: list[str], start: str) -> str:
    """The one line whose message starts with ``start`` (after the time, level and logger's name)."""
    found = [entry for entry in log if entry.split(": ", 1)[-1].startswith(start)]
    assert len(found) == 1, "\n".join(log)
    return found[0]


def assert_plain(log: list[str]) -> None:
    """No voice warnings, no escape codes (the fake runs where discord.py may see /.dockerenv)."""
    text = "\n".join(log)
    assert "\x1b[" not in text, text
    assert "PyNaCl" not in text and "davey" not in text and "voice" not in text, text


async def test_a_started_bot_says_who_and_where_it_is_once_connected(launcher: Launcher, fake: FakeDiscord) -> None:
    assert (await launcher.run("sync", "--guild", str(fake.guild_id)))[0] == 0
    config = launcher.config()
    config.write_text(config.read_text().replace("processes = 0", "processes = 1"))
    bot = await launcher.start(config=config)

    log = await report_of(bot, timeout=60)

    assert_plain(log)
    connected = next(i for i, entry in enumerate(log) if "connected to Gateway" in entry)
    ready = log.index(line(log, "boardhost ready"))
    assert connected < ready, "ready is said once the gateway is connected"
    assert "[INFO    ] boardhost: boardhost ready: logged in as boardhost (id 800000000000000001)" in log[ready]
    assert line(log, "servers:").endswith("servers: 1 (Fake server)")
    commands = line(log, "commands:")
    assert "INFO" in commands and f"registered in server Fake server (id {fake.guild_id}), the same as the code" in (
        commands
    )
    assert "carcassonne" in commands and "catan" in commands and "game" in commands
    assert line(log, "database:").endswith(f"database: SQLite {launcher.tmp / 'boardhost.sqlite3'}")
    assert line(log, "shards:").endswith("shards: none (one gateway connection for every server)")
    assert "drawing processes: 1 ready (pid " in line(log, "drawing processes:")
    assert not [entry for entry in log if "WARNING" in entry or "ERROR" in entry], "\n".join(log)
    bot.terminate()
    assert await bot.wait(timeout=10) == 0
    bot.assert_no_traceback()
    fake.check()


async def test_a_bot_whose_commands_were_never_registered_says_to_sync(launcher: Launcher, fake: FakeDiscord) -> None:
    bot = await launcher.start()

    log = await report_of(bot)

    assert_plain(log)
    warning = line(log, "commands:")
    assert "[WARNING ]" in warning and "none registered in Discord" in warning
    assert "python -m bot sync" in warning
    assert "drawing processes: none" in line(log, "drawing processes:")
    bot.terminate()
    assert await bot.wait(timeout=10) == 0
    fake.check()


async def test_commands_registered_unlike_the_code_are_named_with_the_way_out(
    launcher: Launcher, fake: FakeDiscord
) -> None:
    assert (await launcher.run("sync"))[0] == 0  # registered globally, as the code has them
    registered = {c["name"]: c for c in fake.commands[None]}
    game = registered.pop("game")
    fake.register_commands(  # since then: /stats gone from Discord, an old /dice added, /game with one option less
        None,
        [
            *(c for name, c in registered.items() if name != "stats"),
            {**game, "options": game["options"][1:]},
            {"name": "dice", "description": "Roll the dice", "type": 1},
        ],
    )
    bot = await launcher.start()

    log = await report_of(bot)

    warning = line(log, "commands registered globally")
    assert "[WARNING ]" in warning
    assert "not registered: stats; not in the code: dice; changed since: game" in warning
    assert "python -m bot sync" in warning
    bot.terminate()
    assert await bot.wait(timeout=10) == 0
