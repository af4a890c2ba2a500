"""Fixtures for tests that run ``python -m bot`` as a real process against the loopback fake Discord."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.local.loopback import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class BotProcess:
    """A ``python -m bot ...`` subprocess whose stderr is collected as it runs."""

    proc: asyncio.subprocess.Process
    stderr: list[str] = field(default_factory=list)
    stdout: str = ""
    _reader: asyncio.Task[None] | None = None

    async def _read(self) -> None:
        assert self.proc.stderr is not None
        async for raw in self.proc.stderr:
            self.stderr.append(raw.decode("utf-8", "replace").rstrip("\n"))

    async def wait(self, timeout: float) -> int:
        code = await asyncio.wait_for(self.proc.wait(), timeout)
        if self._reader:
            await self._reader
        if self.proc.stdout is not None:
            self.stdout = (await self.proc.stdout.read()).decode()
        return code

    def terminate(self) -> None:
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        if self.proc.returncode is None:
            self.proc.kill()

    @property
    def log(self) -> str:
        return "\n".join(self.stderr)

    def assert_no_traceback(self) -> None:
        assert "Traceback" not in self.log, self.log


@dataclass
class Launcher:
    tmp: Path
    fake: FakeDiscord
    started: list[BotProcess] = field(default_factory=list)

    def config(
        self, *, rest: str | None = None, gateway: str | None = None, give_up: float = 30, discord: str = ""
    ) -> Path:
        """The bot's config file (``discord``: more lines for its ``[discord]`` section)."""
        path = self.tmp / "config.toml"
        path.write_text(
            f'[database]\npath = "{self.tmp / "boardhost.sqlite3"}"\n'
            f'[discord]\nrest_base_url = "{rest or self.fake.rest_url}"\n'
            f'gateway_url = "{gateway or self.fake.gateway_url}"\ngive_up_after_seconds = {give_up}\n{discord}'
            "[render]\nprocesses = 0\n[computer]\npause_seconds = 0\n",
            encoding="utf-8",
        )
        return path

    async def start(self, *args: str, token: str | None = None, config: Path | None = None) -> BotProcess:
        env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "BOARDHOST_CONFIG")}
        env.update(
            DISCORD_TOKEN=token or self.fake.token, BOARDHOST_CONFIG=str(config or self.config()), PYTHONUNBUFFERED="1"
        )
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            *args,
            cwd=self.tmp,
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        bot = BotProcess(proc)
        bot._reader = asyncio.create_task(bot._read())
        self.started.append(bot)
        return bot

    async def run(self, *args: str, timeout: float = 20, **kwargs: object) -> tuple[int, BotProcess]:
        bot = await self.start(*args, **kwargs)  # type: ignore[arg-type]
        return await bot.wait(timeout), bot


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    yield server
    await server.stop()


@pytest.fixture
async def launcher(tmp_path: Path, fake: FakeDiscord) -> AsyncIterator[Launcher]:
    launch = Launcher(tmp_path, fake)
    yield launch
    for bot in launch.started:  # never leave a bot running after its test
        bot.kill()
        await bot.proc.wait()
