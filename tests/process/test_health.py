"""``python -m bot health``, Docker's HEALTHCHECK, as processes: against the fake Discord, a bot writing its
heartbeat is healthy once connected, unhealthy while its gateway connection is down, healthy again once it resumes,
and unhealthy once it has stopped."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

import pytest

from bot.local.loopback import FakeDiscord
from tests.process.conftest import ROOT, Launcher


async def health(beat: Path | None) -> tuple[int, str]:
    env = {k: v for k, v in os.environ.items() if k != "BOARDHOST_HEARTBEAT"}
    if beat is not None:
        env["BOARDHOST_HEARTBEAT"] = str(beat)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "health", cwd=ROOT, env=env, stdout=-1, stderr=-1
    )
    out, err = await asyncio.wait_for(proc.communicate(), 20)
    assert proc.returncode is not None
    return proc.returncode, (out + err).decode().strip()


async def until_health(beat: Path, healthy: bool, timeout: float = 20) -> str:
    deadline = time.monotonic() + timeout
    while True:
        code, line = await health(beat)
        if (code == 0) == healthy:
            return line
        assert time.monotonic() < deadline, f"health still says: {line}"
        await asyncio.sleep(0.3)


async def test_health_follows_the_bots_connection_and_its_end(
    launcher: Launcher, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    beat = launcher.tmp / "heartbeat"
    monkeypatch.setenv("BOARDHOST_HEARTBEAT", str(beat))  # the bot's environment is the test's
    code, line = await health(beat)
    assert code == 1 and line.startswith("unhealthy: no heartbeat")

    bot = await launcher.start()
    await fake.wait_ready(timeout=30)
    assert (await until_health(beat, healthy=True)).startswith("healthy: connected to Discord")

    await fake.drop_gateway(for_seconds=None)  # Discord unreachable: discord.py keeps trying to resume
    assert "gateway is down" in await until_health(beat, healthy=False)

    fake.reopen_gateway()
    await until_health(beat, healthy=True)

    bot.terminate()
    assert await bot.wait(timeout=10) == 0
    code, line = await health(beat)
    assert code == 1 and "no heartbeat" in line
    bot.assert_no_traceback()


async def test_health_without_a_heartbeat_file_named_says_how_to_name_one() -> None:
    code, line = await health(None)

    assert code == 2 and line.count("\n") == 0 and "BOARDHOST_HEARTBEAT is not set" in line
