"""README "Your Discord server in five steps" (steps 4 and 5), as processes: ``python -m bot sync --guild ID`` then
``python -m bot``, against the fake Discord; and every way they can fail ends with one line and a non-zero status,
never a hang or a traceback."""

from __future__ import annotations

import asyncio
import json
import socket
import sqlite3
import time

from bot.local.loopback import FakeDiscord
from tests.process.conftest import Launcher


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _one_line(log: str) -> str:
    lines = [line for line in log.splitlines() if line.strip()]
    assert len(lines) == 1, log
    return lines[0]


async def test_sync_registers_the_commands_in_the_guild_and_stores_their_ids(
    launcher: Launcher, fake: FakeDiscord
) -> None:
    code, bot = await launcher.run("sync", "--guild", str(fake.guild_id), timeout=20)

    assert code == 0, bot.log
    assert bot.log == ""
    assert f"to guild {fake.guild_id}" in bot.stdout
    registered = {c["name"]: int(c["id"]) for c in fake.commands[fake.guild_id]}
    assert {"carcassonne", "catan", "game"} <= set(registered)
    assert None not in fake.commands  # nothing registered globally
    with sqlite3.connect(launcher.tmp / "boardhost.sqlite3") as db:
        stored = dict(db.execute("SELECT name, command_id FROM command_ids WHERE guild_id = ?", (fake.guild_id,)))
    assert stored == registered
    fake.check()


async def test_sync_with_a_refused_token_says_so_in_one_line(launcher: Launcher) -> None:
    code, bot = await launcher.run("sync", "--guild", "1", token="not-the-token")

    assert code != 0
    assert "token" in _one_line(bot.log) and "401" in bot.log


async def test_sync_without_discord_in_reach_fails_within_seconds(launcher: Launcher) -> None:
    nowhere = f"http://127.0.0.1:{_free_port()}/api/v10"
    code, bot = await launcher.run("sync", config=launcher.config(rest=nowhere), timeout=10)

    assert code != 0
    assert "cannot reach Discord" in _one_line(bot.log)


async def test_sync_rejected_by_discord_names_the_fields_in_one_line(launcher: Launcher, fake: FakeDiscord) -> None:
    fake.fail_commands = [("0.options.0.name", "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")]

    code, bot = await launcher.run("sync", "--guild", str(fake.guild_id))

    line = _one_line(bot.log)
    assert code != 0
    assert "50035" in line and "carcassonne new" in line and "Command name is invalid" in line
    fake.violations.clear()


async def test_the_bot_answers_a_command_and_stops_on_sigterm(launcher: Launcher, fake: FakeDiscord) -> None:
    assert (await launcher.run("sync", "--guild", str(fake.guild_id)))[0] == 0
    alice = fake.add_user("Alice")
    bot = await launcher.start()
    await fake.wait_ready(timeout=20)

    asked = await fake.slash(alice, "carcassonne new")
    answer = await fake.wait_answer(asked)
    lobby = await fake.wait_message(where=lambda m: bool(m.components))

    assert answer["type"] in (4, 5)
    assert "Alice" in json.dumps(lobby.embeds, ensure_ascii=False)  # the host, in the lobby
    bot.terminate()
    assert await bot.wait(timeout=8) == 0
    bot.assert_no_traceback()
    fake.check()


async def test_sigterm_while_connecting_ends_the_bot(launcher: Launcher, fake: FakeDiscord) -> None:
    fake.register_commands(None, [{"id": "4242", "name": "game", "description": "The game"}])  # synced earlier
    nowhere = f"ws://127.0.0.1:{_free_port()}/gateway"
    bot = await launcher.start(config=launcher.config(gateway=nowhere, give_up=60))
    for _ in range(200):  # logged in over REST, retrying the gateway (a loaded machine may take seconds to get here)
        if "cannot reach the gateway" in bot.log:
            break
        await asyncio.sleep(0.1)
    else:
        raise AssertionError(f"the bot never tried the gateway:\n{bot.log}")

    bot.terminate()

    assert await bot.wait(timeout=8) == 0
    bot.assert_no_traceback()
    with sqlite3.connect(launcher.tmp / "boardhost.sqlite3") as db:  # no ids were stored: fetched at start
        assert list(db.execute("SELECT guild_id, name, command_id FROM command_ids")) == [(0, "game", 4242)]


async def test_the_bot_with_a_refused_token_exits_with_one_line(launcher: Launcher) -> None:
    code, bot = await launcher.run(token="not-the-token")

    assert code != 0
    assert "token" in bot.stderr[-1] and "401" in bot.stderr[-1]
    bot.assert_no_traceback()


async def test_the_bot_gives_up_on_an_unreachable_gateway(launcher: Launcher) -> None:
    nowhere = f"ws://127.0.0.1:{_free_port()}/gateway"
    code, bot = await launcher.run(config=launcher.config(gateway=nowhere, give_up=2), timeout=20)

    assert code != 0
    assert "gateway" in bot.stderr[-1] and "giving up" in bot.stderr[-1], bot.log
    bot.assert_no_traceback()


async def test_the_bot_gives_up_on_a_gateway_lost_for_longer_than_allowed(
    launcher: Launcher, fake: FakeDiscord
) -> None:
    bot = await launcher.start(config=launcher.config(give_up=5))
    await fake.wait_ready(timeout=30)
    await fake.drop_gateway(for_seconds=1)  # back well within the allowed time: the bot stays
    await asyncio.sleep(6)
    assert bot.proc.returncode is None, bot.log
    lost = time.monotonic()
    await fake.drop_gateway(for_seconds=None)  # gone for good: the 5 s count from this disconnect

    code = await bot.wait(timeout=30)

    assert code != 0 and time.monotonic() - lost >= 5
    assert "gateway" in bot.stderr[-1] and "giving up" in bot.stderr[-1], bot.log
    bot.assert_no_traceback()


async def test_sigterm_while_a_command_is_being_answered_ends_the_bot_cleanly(
    launcher: Launcher, fake: FakeDiscord
) -> None:
    assert (await launcher.run("sync", "--guild", str(fake.guild_id)))[0] == 0
    alice = fake.add_user("Alice")
    bot = await launcher.start()
    await fake.wait_ready(timeout=20)
    asked = await fake.slash(alice, "catan new")
    await fake.wait_answer(asked)

    bot.terminate()  # the lobby may still be on its way

    assert await bot.wait(timeout=8) == 0
    bot.assert_no_traceback()
    fake.check()


async def test_people_join_by_button_and_the_first_turn_is_posted_with_its_board(
    launcher: Launcher, fake: FakeDiscord
) -> None:
    assert (await launcher.run("sync", "--guild", str(fake.guild_id)))[0] == 0
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    bot = await launcher.start()
    await fake.wait_ready(timeout=20)
    await fake.wait_answer(await fake.slash(alice, "carcassonne new"))
    lobby = await fake.wait_message(where=lambda m: bool(m.components))

    joined = await fake.wait_answer(await fake.click(bob, next(c for c in lobby.custom_ids() if c.endswith(":join"))))
    assert joined["type"] == 7 and f"<@{bob}>" in json.dumps(lobby.embeds)  # the lobby, updated in place
    await fake.wait_answer(await fake.click(alice, next(c for c in lobby.custom_ids() if c.endswith(":start"))))
    turn = await fake.wait_message(after=lobby.id, where=lambda m: bool(m.attachments))

    assert (f"<@{alice}>" in turn.content or f"<@{bob}>" in turn.content) and turn.custom_ids()  # seats are drawn
    assert turn.attachments[0].filename.endswith(".png") and turn.attachments[0].data.startswith(b"\x89PNG")
    bot.terminate()  # in the middle of a game
    assert await bot.wait(timeout=8) == 0
    bot.assert_no_traceback()
    fake.check()
