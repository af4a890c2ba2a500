"""Whole games through the real processes: ``python -m bot sync --guild ID``, then ``python -m bot``, against the
fake Discord; people play only by sending interactions and reading what the bot sends (``people.py``). Midway the
bot is killed with SIGKILL and started again, and the game goes on with the buttons of the messages sent before.

Each test fails on any request Discord would refuse (the fake records it), any traceback in the bot's log, any
secret in the channel (``secrets.py``), and any difference between the test's replay and the bot's exported game.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.process.carcassonne_play import CarcassonnePeople
from tests.process.catan_play import GOALS, CatanPeople, Script
from tests.process.conftest import BotProcess, Launcher
from tests.process.people import Person, Table, WatchedDiscord

CARCASSONNE_SEED = 6
CATAN_SEED, CATAN_POINTS = 1165, 5


@pytest.fixture
async def fake() -> AsyncIterator[WatchedDiscord]:
    server = WatchedDiscord()
    await server.start()
    yield server
    await server.stop()


async def running_bot(launcher: Launcher, fake: WatchedDiscord) -> BotProcess:
    before = fake.identified + fake.resumed
    bot = await launcher.start()
    await fake.wait_for(lambda: fake.identified + fake.resumed > before, timeout=30)
    return bot


async def killed_and_restarted(bot: BotProcess, launcher: Launcher, fake: WatchedDiscord) -> BotProcess:
    bot.kill()
    await bot.wait(timeout=10)
    assert bot.proc.returncode == -9
    bot.assert_no_traceback()
    return await running_bot(launcher, fake)


def dump(fake: WatchedDiscord, table: Table, bot: BotProcess, action: object) -> None:
    print(bot.log[-3000:])
    print("ACTION", action, "VERSION", table.version)
    for m in fake.messages[table.channel_id][-3:]:
        print("MSG", m.id, m.content, m.custom_ids(), [a.filename for a in m.attachments])
    for i in list(fake.interactions.values())[-3:]:
        print("INTER", i.payload["data"], i.answers, i.followups)


def people(fake: WatchedDiscord, *names: str) -> list[Person]:
    return [Person(fake.add_user(name), name) for name in names]


async def test_a_whole_carcassonne_game_with_river_and_tower(
    launcher: Launcher, fake: WatchedDiscord, tmp_path: Path
) -> None:
    started = time.monotonic()
    code, sync = await launcher.run("sync", "--guild", str(fake.guild_id))
    assert code == 0, sync.log
    table = Table(fake, tmp_path / "boardhost.sqlite3", "carcassonne", people(fake, "Alice", "Bob"),
                  fake.add_channel("carcassonne"), CARCASSONNE_SEED)  # fmt: skip
    bot = await running_bot(launcher, fake)
    await table.open("carcassonne new", river=True, tower=True)
    play = CarcassonnePeople(table)
    restarted = False
    while not table.engine.finished:
        action = play.next_action()
        if not restarted and table.version > 60 and action["type"] == "place":
            # Killed between the cell and the rotation: the private rotation buttons still work after the restart.
            person = table.people[action["player"]]
            prompt = await play.rotation_prompt(person, action)
            bot = await killed_and_restarted(bot, launcher, fake)
            await play.rotate(person, prompt, action)
            restarted = True
            continue
        try:
            await play.perform(action)
        except BaseException:
            dump(fake, table, bot, action)
            raise
    print(f"carcassonne: {time.monotonic() - started:.1f} s, {len(table.interactions)} interactions")
    bot.terminate()
    assert await bot.wait(timeout=10) == 0
    bot.assert_no_traceback()
    fake.check()
    print(json.dumps(sorted(fake.latencies())[-5:]))
    await asyncio.sleep(0)


async def test_a_whole_catan_game(launcher: Launcher, fake: WatchedDiscord, tmp_path: Path) -> None:
    started = time.monotonic()
    code, sync = await launcher.run("sync", "--guild", str(fake.guild_id))
    assert code == 0, sync.log
    table = Table(fake, tmp_path / "boardhost.sqlite3", "catan", people(fake, "Alice", "Bob", "Carol"),
                  fake.add_channel("catan"), CATAN_SEED)  # fmt: skip
    bot = await running_bot(launcher, fake)
    await table.open("catan new", points_to_win=CATAN_POINTS)
    script = Script(CATAN_SEED)
    play = CatanPeople(table, script)
    while not table.engine.finished:
        action = play.next_action()
        try:
            await play.perform(action)
        except BaseException:
            dump(fake, table, bot, action)
            raise
    print(f"catan: {time.monotonic() - started:.1f} s, {len(table.interactions)} interactions")
    assert set(GOALS) <= script.done
    bot.terminate()
    assert await bot.wait(timeout=10) == 0
    bot.assert_no_traceback()
    fake.check()
