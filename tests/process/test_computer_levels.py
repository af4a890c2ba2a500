"""Computer players at every level each game has, through the real ``python -m bot`` against the loopback Discord:
a whole game per game, played by computers only, every move legal and each decision within the time budget.

The levels are the engine registry's (``engine.ai.levels``), read when the test runs: a level registered later (an
``expert``) is played here with nothing to change. The host opens the lobby with ``away:computer`` and the
strongest level as ``stand_in``, seats one computer per level, goes away (``/settings away``) and starts: a computer
at the stand-in level plays the host's seat, so nobody has to click. Carcassonne is also played by two: the host's
stand-in against one computer of the strongest level, where its expert looks one ply further. At the end the bot's
replay file (``/game export``) must play to the end in the engine (every stored move was legal: the engine checked
each one when the bot stored it, and checks them again here), the log must hold no refused move and no traceback,
and the decision times the bot logs must have a 95th percentile under ``BUDGET`` for every level (times how much
slower than the reference machine this one runs now, with the load average: the figure depends on the machine).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import os
import re
import sqlite3
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from bot.local.loopback import channel_routes
from engine.ai import levels, strongest
from engine.replay import play
from tests.process.conftest import BotProcess, Launcher
from tests.process.people import Person, Table, WatchedDiscord, find, has
from tests.process.whole_games import exported, running_bot

SEATED = re.compile(r"Computer \d")
BUDGET = 1.0  # seconds: a decision's 95th percentile (issue 28: what a Discord player accepts)
DECIDED = re.compile(r"game (?P<game>\d+): seat (?P<seat>\d+) \((?P<level>\w+)\) decided in (?P<ms>\d+) ms")
LOBBY: dict[str, dict[str, Any]] = {
    "carcassonne": {"river": True, "tower": True},
    "catan": {"points_to_win": 5},  # fewer turns: random players take long to reach 10
}
FINISH_WITHIN = 900.0  # seconds for a whole game of computers on a loaded machine
# Wall seconds of ``slowness``'s loop on this project's reference machine when quiet: a machine that runs it slower
# (a shared one, busy or throttled: CI once ran everything at half speed, decisions p95 1.3 s) has a budget as many
# times longer, never shorter. The figures of the issue are the benches'; this test keeps the order of magnitude.
REFERENCE_LOOP = 0.12


def slowness() -> float:
    """How many times slower than the reference this machine runs a plain Python loop now (at least 1)."""
    started = time.perf_counter()
    sum(range(10**7))
    return max(1.0, (time.perf_counter() - started) / REFERENCE_LOOP)


def decision_times(log: str, game_id: int) -> dict[str, list[float]]:
    """The seconds of each decision the bot logged for the game, by the level that made it."""
    found: dict[str, list[float]] = defaultdict(list)
    for match in DECIDED.finditer(log):
        if int(match["game"]) == game_id:
            found[match["level"]].append(int(match["ms"]) / 1000)
    return found


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


async def status(database: Path, game_id: int) -> str:
    def read() -> str:
        with sqlite3.connect(database) as db:
            return str(db.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()[0])

    return await asyncio.to_thread(read)


def computers(message: Any) -> int:
    """How many computer seats a lobby message lists."""
    return len(SEATED.findall(json.dumps(message.embeds)))


async def seat_computers(table: Table, host: Person, wanted: tuple[str, ...]) -> None:
    """The host adds one computer per level of ``wanted``, one click at a time (each makes a new lobby version)."""
    for count, level in enumerate(wanted):
        lobby = await table.fake.wait_message(
            table.channel_id, where=lambda m, n=count: has(m, "join") and computers(m) == n
        )
        await table.click(host, lobby, find(lobby, "add", level))
    await table.fake.wait_message(table.channel_id, where=lambda m: computers(m) == len(wanted), timeout=20)


# Each game with one computer per level beside the host; and Carcassonne for two, the host's stand-in against one
# more of the strongest: only there does its expert search a third ply (its own next tile).
GAMES: list[tuple[str, tuple[str, ...] | None]] = [(kind, None) for kind in sorted(LOBBY)]
GAMES.append(("carcassonne", (strongest("carcassonne"),)))


@pytest.mark.parametrize(("kind", "seated"), GAMES, ids=["carcassonne", "catan", "carcassonne-two-players"])
async def test_computers_at_every_level_play_a_whole_game_legally_and_in_time(
    tmp_path: Path, kind: str, seated: tuple[str, ...] | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(channel_routes, "RATE_MESSAGES", 1000)  # the channel's pace is not what is measured here
    fake = WatchedDiscord()
    await fake.start()
    launcher = Launcher(tmp_path, fake)
    bot: BotProcess | None = None
    try:
        code, sync = await launcher.run("sync", "--guild", str(fake.guild_id))
        assert code == 0, sync.log
        bot = await running_bot(launcher, fake)
        host = Person(fake.add_user("Host"), "Host")
        table = Table(fake, tmp_path / "boardhost.sqlite3", kind, [host], fake.add_channel(kind), seed=0)
        wanted = levels(kind) if seated is None else seated
        await table.slash(host, f"{kind} new", away="computer", stand_in=strongest(kind), **LOBBY[kind])
        lobby = await fake.wait_message(table.channel_id, where=lambda m: has(m, "join"))
        table.game_id = int(find(lobby, "join")["custom_id"].split(":")[2])
        await seat_computers(table, host, wanted)
        back = (dt.datetime.now(dt.UTC).date() + dt.timedelta(days=3)).isoformat()
        await table.reply(await table.slash(host, "settings away", until=back))
        lobby = await fake.wait_message(table.channel_id, where=lambda m: has(m, "start"))
        await table.click(host, lobby, find(lobby, "start"))

        slow_before = slowness()
        deadline = asyncio.get_running_loop().time() + FINISH_WITHIN
        while (now := await status(table.database, table.game_id)) != "finished":
            assert now in ("lobby", "active"), now
            assert asyncio.get_running_loop().time() < deadline, f"not finished in {FINISH_WITHIN} s\n{bot.log[-3000:]}"
            assert "computer move refused" not in bot.log, bot.log[-3000:]
            await asyncio.sleep(0.5)
        replay = await exported(table)
        replayed = play(replay)  # every move again through the engine's rules
        assert replayed.finished, replayed.result()
        players = {action.get("player") for action in replay["actions"]} - {None}
        assert players == set(range(len(wanted) + 1)), "every seat played, the host's by its stand-in"

        times = decision_times(bot.log, table.game_id)
        assert set(times) == set(wanted), f"levels that decided: {sorted(times)}, registered: {wanted}"
        load = os.getloadavg()[0]
        budget = BUDGET * max(slow_before, slowness())
        figures = {level: (len(v), p95(v), max(v)) for level, v in times.items()}
        print(f"\n{kind}: decisions by level (count, p95 s, max s) {figures}, load {load:.2f}, budget {budget:.2f} s")
        slow = {level: f for level, f in figures.items() if f[1] >= budget}
        assert not slow, f"p95 over {budget:.2f} s: {slow} (load average {load:.2f})"
        bot.terminate()
        assert await bot.wait(timeout=15) == 0, bot.log[-3000:]
        bot.assert_no_traceback()
        assert "computer move refused" not in bot.log and "failed (" not in bot.log, bot.log[-3000:]
    finally:
        if bot is not None:
            bot.kill()
            await bot.proc.wait()
        await fake.stop()
