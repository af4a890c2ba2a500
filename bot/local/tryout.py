"""``python -m bot try``: boardhost played in the browser, on this computer, with no Discord account.

It starts the loopback Discord (``bot.local.loopback``) with a server, two channels and a few people; registers the
slash commands there with ``python -m bot sync`` and starts the bot with ``python -m bot``, both as processes of
their own, exactly as a host runs them, with a config (``try.toml``) pointing them at the loopback and at a SQLite
file; then serves the table (``bot.local.table``) on 127.0.0.1 and opens it in the browser where there is one.

The folder holds the config, the database and the bot's log: a temporary one, removed at the end, or the one given
with ``--folder``, kept, where the next ``try`` finds the same people, channels, messages and games (``try.json``,
``channels.pickle``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import pickle
import secrets
import shutil
import signal
import sys
import tempfile
import time
import webbrowser
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from bot.local.loopback import FakeDiscord
from bot.local.table.people import LOCALES, NAMES, Person
from bot.local.table.web import Table

DISCORD_EPOCH_MS: Final = 1_420_070_400_000
CHANNELS: Final = ("games", "more-games")
CONFIG: Final = "try.toml"
REMEMBERED: Final = "try.json"
SHOWN: Final = "channels.pickle"  # the messages of the channels and DMs, for the next try in the same folder
LOG: Final = "bot.log"
READY_WITHIN: Final = 120.0  # seconds for the bot's first connection (a first start compiles and loads a lot)
STOP_WITHIN: Final = 10.0  # seconds the bot gets to close cleanly before it is killed
SECRET_ENV: Final = ("DISCORD_TOKEN", "BOARDHOST_CONFIG", "BOARDHOST_DATABASE")  # never the host's own


@dataclass(frozen=True)
class Options:
    folder: Path | None = None
    port: int = 0
    people: int = 2
    browser: bool = True
    pause: float = 1.0  # seconds a computer player waits before each move


def snowflake_now() -> int:
    """A Discord id for this moment: the loopback's new ids never meet the ones a kept database remembers."""
    return (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22


def remembered(folder: Path) -> dict[str, Any]:
    try:
        data = json.loads((folder / REMEMBERED).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def loopback(folder: Path, count: int) -> tuple[FakeDiscord, list[Person]]:
    """The loopback Discord with its channels and people (those ``folder`` remembers, else new ones)."""
    known = remembered(folder)
    channels = known.get("channels") or {}
    fake = FakeDiscord(token=secrets.token_urlsafe(32), first_id=snowflake_now(), channel_id=channels.get(CHANNELS[0]))
    for name in CHANNELS[1:]:
        fake.add_channel(name, channels.get(name))
    people = []
    for entry in known.get("people") or [{"name": name} for name in NAMES[:count]]:
        person = Person(fake.add_user(str(entry["name"]), user_id=entry.get("id")), str(entry["name"]))
        if entry.get("locale") in LOCALES:
            person.locale = str(entry["locale"])
        people.append(person)
    restore(folder, fake)
    return fake, people


def restore(folder: Path, fake: FakeDiscord) -> None:
    """What the channels and direct messages showed when the folder's last ``try`` stopped (the bot's turn
    messages among them: a game goes on where it was). Nothing when there is none, or it cannot be read."""
    try:
        with (folder / SHOWN).open("rb") as file:
            saved = pickle.load(file)  # written by ``remember`` in this folder, never anything from elsewhere
        shift = saved["clock"] - (time.time() - time.monotonic())  # the fake keeps monotonic times
        for channel, messages in saved["messages"].items():
            if channel in fake.channels or channel in saved["dm_channels"]:
                for message in messages:
                    message.created_at += shift
                    for version in message.versions:
                        version.at += shift
                fake.messages[channel] = messages
        fake.dm_channels.update(saved["dm_channels"])
        fake.attachments.update(saved["attachments"])
        fake.ids_above(max((m.id for ms in saved["messages"].values() for m in ms), default=0))
    except (OSError, pickle.UnpicklingError, AttributeError, ImportError, KeyError, TypeError, EOFError):
        return


def remember(folder: Path, fake: FakeDiscord, people: list[Person]) -> None:
    data = {
        "channels": {c["name"]: cid for cid, c in fake.channels.items()},
        "people": [{"id": p.id, "name": p.name, "locale": p.locale} for p in people],
    }
    (folder / REMEMBERED).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    shown = {
        "clock": time.time() - time.monotonic(),
        "messages": fake.messages,
        "dm_channels": fake.dm_channels,
        "attachments": fake.attachments,
    }
    with (folder / SHOWN).open("wb") as file:
        pickle.dump(shown, file)


def write_config(folder: Path, fake: FakeDiscord, options: Options) -> Path:
    path = folder / CONFIG
    path.write_text(
        "# Written by `python -m bot try` at each start: the bot talks to the loopback Discord on this computer.\n"
        '[database]\npath = "boardhost.sqlite3"\n'
        f'[discord]\nrest_base_url = "{fake.rest_url}"\ngateway_url = "{fake.gateway_url}"\n'
        "give_up_after_seconds = 15\n"
        "[render]\nprocesses = 1\n"
        f"[computer]\npause_seconds = {options.pause}\noffer_wait_seconds = 30\n",
        encoding="utf-8",
    )
    return path


def bot_environment(fake: FakeDiscord, config: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in SECRET_ENV}
    env.update(DISCORD_TOKEN=fake.token, BOARDHOST_CONFIG=str(config), PYTHONUNBUFFERED="1")
    return env


async def python_m_bot(args: list[str], env: dict[str, str], log: Any) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", *args, env=env, stdin=asyncio.subprocess.DEVNULL, stdout=log, stderr=log
    )


def tail(path: Path, lines: int = 12) -> str:
    with contextlib.suppress(OSError):
        return "\n".join(path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])
    return ""


def has_browser() -> bool:
    """A graphical browser to open: never a text one in this terminal (Linux without a display)."""
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return False
    try:
        webbrowser.get()
    except webbrowser.Error:
        return False
    return True


async def stop_bot(bot: asyncio.subprocess.Process) -> None:
    if bot.returncode is not None:
        return
    bot.send_signal(signal.SIGTERM)
    try:
        await asyncio.wait_for(bot.wait(), STOP_WITHIN)
    except TimeoutError:
        bot.kill()
        await bot.wait()


class Failed(Exception):
    """The bot did not start (its log's end says why)."""


class Tryout:
    """The loopback, the bot's process and the table, started and stopped together."""

    def __init__(self, options: Options) -> None:
        self.options = options
        self.temporary = options.folder is None
        self.folder = Path(tempfile.mkdtemp(prefix="boardhost-try-")) if options.folder is None else options.folder
        self.folder.mkdir(parents=True, exist_ok=True)
        self.log = self.folder / LOG
        self.fake, self.people = loopback(self.folder, options.people)
        self.fake.guild_name = "boardhost try"
        self.table = Table(self.fake, self.people)
        self.bot: asyncio.subprocess.Process | None = None
        self.url = ""

    async def start(self) -> str:
        """Start everything; the page's address. ``Failed`` when the bot does not come up."""
        await self.fake.start()
        env = bot_environment(self.fake, write_config(self.folder, self.fake, self.options))
        with self.log.open("a", encoding="utf-8") as log:
            sync = await python_m_bot(["sync", "--guild", str(self.fake.guild_id)], env, log)
            if await sync.wait() != 0:
                raise Failed(f"the slash commands were not registered:\n{tail(self.log)}")
            self.bot = await python_m_bot([], env, log)
        self.url = await self.table.start(self.options.port)
        ready = asyncio.create_task(self.fake.wait_ready(READY_WITHIN))
        ended = asyncio.create_task(self.bot.wait())
        await asyncio.wait({ready, ended}, return_when=asyncio.FIRST_COMPLETED)
        ended.cancel()
        if not ready.done() or ready.cancelled() or ready.exception() is not None:
            ready.cancel()
            raise Failed(f"the bot did not start:\n{tail(self.log)}")
        self.table.bot.status = "ready"
        return self.url

    async def until_stopped(self, stop: asyncio.Event) -> int:
        """Serve until ``stop`` is set (0) or the bot's process ends (1, its log's end shown on the page)."""
        assert self.bot is not None
        ended = asyncio.create_task(self.bot.wait())
        stopping = asyncio.create_task(stop.wait())
        await asyncio.wait({stopping, ended}, return_when=asyncio.FIRST_COMPLETED)
        stopping.cancel()
        if not ended.done():
            ended.cancel()
            return 0
        self.table.bot.status, self.table.bot.detail = "stopped", tail(self.log)
        await self.fake.notify()
        await asyncio.sleep(0.5)  # the open pages hear it
        return 1

    async def stop(self) -> None:
        if self.bot is not None:
            await stop_bot(self.bot)
        await self.table.stop()
        await self.fake.stop()
        if self.temporary:
            shutil.rmtree(self.folder, ignore_errors=True)
        else:
            remember(self.folder, self.fake, self.people)


async def run(options: Options) -> int:
    tryout = Tryout(options)
    try:
        print("boardhost try: registering the slash commands and starting the bot…", flush=True)
        try:
            url = await tryout.start()
        except Failed as failed:
            sys.stderr.write(f"boardhost try: {failed}\n")
            return 1
        names = ", ".join(f"{url}#{p.name}" for p in tryout.people)
        print(f"boardhost is at {url} (one window per person: {names})", flush=True)
        gone = " (removed at the end)" if tryout.temporary else ""
        print(f"Its folder: {tryout.folder}{gone}. Ctrl-C stops it.", flush=True)
        if options.browser and has_browser():
            await asyncio.to_thread(webbrowser.open, url)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        status = await tryout.until_stopped(stop)
        if status:
            assert tryout.bot is not None
            sys.stderr.write(f"boardhost try: the bot stopped (status {tryout.bot.returncode}):\n{tail(tryout.log)}\n")
        else:
            print("boardhost try: stopping.", flush=True)
        return status
    finally:
        await tryout.stop()


def main(options: Options) -> int:
    return asyncio.run(run(options))
