"""Discord host benchmark through the real processes (issue 29): the bot as users start it, measured alone.

``bench/bot_bench.py`` runs the bot inside simcord's simulated Discord, in one process: the CPU it reports for "the
bot process" includes that simulated Discord (about half of the event loop by its profile) and none of what a
deployed bot pays to talk to the real one (aiohttp, websocket frames, JSON on the wire). This script runs what users
run, ``python -m bot sync`` and then ``python -m bot``, as processes against the project's own loopback Discord
(``bot.local.loopback.FakeDiscord``, the strict fake the process tests use) served from this process over HTTP and a
websocket on 127.0.0.1, with the drawing processes of the production configuration (``[render] processes = 2``) and
timelapses on. The bot's CPU is read from /proc for the bot process and, separately, for its descendants (the
drawing processes); this process (the fake Discord and the simulated people) is reported beside them, not in them.

The games, the load and the figures follow ``bench/bot_bench.py``: ``--games`` channels with ``--players`` people
each, every game opened through the real lobby (``/carcassonne new``, Join, Start); a head start so that boards of
every size are in play (game ``i`` of ``n`` first plays ``i/n`` of ``--typical-moves`` actions, as fast as it can,
before anything is measured; here through Discord, since the bot's database belongs to the bot process); then every
game clicks on its own clock, so the offered load is ``--rate`` actions per second (``--rate 0``: flat out, every
game always has a click in flight). A user reads the latest turn message and clicks like a person (``bot_bench``'s
``CarcassonneDriver``: a cell in the select, a rotation in the private reply, a follower button or No follower). An
*action* is a click that shows the next step in the channel; its latency runs from the moment this process sends
the interaction on the gateway to the moment the bot's message (new, or edited in place) carrying the next version
reaches the fake's REST routes. A game that ends is opened again in its channel. CPU per action: the played phase's
CPU (its first ``--warmup`` actions included, unmeasured for latency) over its actions.

One liberty with Discord: the fake's per-channel limit on new messages (5 in 5 s) is off, since flat out a game
takes several turns a second, which no channel of people does; the bot would wait out Discord's 429s and the bench
would measure Discord's limit instead of the bot.

Also reported: the REST requests per action by route (what the fake Discord received), the bot's CPU per second while
nobody clicks (``--idle`` seconds after the head start, its threads' time on a CPU to the nanosecond), this process's
own CPU, and how much of the bot's and the drawing processes' CPU per action was the kernel's (system time: sockets,
pipes, waking up), and two readings of how slow the machine is: ``cpu_probe_s`` (a loop) and ``drawing_probe_ms`` (a
sample board drawn in a process of its own: drawing is memory-bound, and the loop can read quiet while pictures take a
fifth longer). ``--sample FILE`` records the bot process's played phase with py-spy (``pip install py-spy``; not
paused by it) for ``bench/stack_owners.py``. ``--bot-cpus 0 --fake-cpus 1`` gives the bot (and its drawing processes)
one core and the fake Discord with its people the other, so that neither takes the other's CPU.

Run: ``python bench/bot_process_bench.py [--games 50] [--actions 1500] [--rate 50] [--config base]
[--render-processes 2] [--seed 1] [--bot-cpus 0] [--fake-cpus 1] [--sample FILE]``. Prints one JSON object (a
list of them for several configurations); a summary goes to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot_bench import (  # noqa: E402
    DRIVERS,
    Click,
    Driver,
    Pace,
    Screen,
    add_load_options,
    cpu_of,
    cpu_of_descendants,
    cpu_probe,
    descendants,
    drawing_probe,
    kernel_cpu_below,
    kernel_cpu_of,
    percentile,
    played,
    stop_sampling,
    time_on_cpu,
)

from bot.local.loopback import FakeDiscord, Message  # noqa: E402
from bot.local.loopback.channel_routes import ChannelRoutes  # noqa: E402
from engine.cli import Parser, decimal_number  # noqa: E402

SHOWN = re.compile(r"^bh:(?:cc|ct):(\d+):(\d+):")  # a game's component: its game and version
LOBBY = re.compile(r"^bh:lobby:(\d+):\d+:(\w+)")
PICTURE = re.compile(r"^(?:carcassonne|catan)-(\d+)-(\d+)\.png$")  # a turn picture: its game and version


class TimedRoutes(ChannelRoutes):
    """The fake's channel routes, telling the bench when each channel message is created or edited (before the
    gateway's copy of it goes out), without Discord's per-channel message limit (see the module docstring)."""

    watch: Callable[[Message, float], None] = staticmethod(lambda msg, at: None)
    # a message made or edited (an answer's may become private only after ``build``: a deferred answer's followup
    # fills in the ephemeral placeholder)
    answered: Callable[[Message], None] = staticmethod(lambda msg: None)

    async def post(self, msg: Message) -> None:
        if not msg.ephemeral:
            self.watch(msg, time.perf_counter())
        await super().post(msg)

    def build(self, channel_id: int, body: Any, files: Any, route: str, *, answer: bool = True) -> Any:
        built = super().build(channel_id, body, files, route, answer=answer)
        if isinstance(built, Message):
            self.answered(built)
        return built

    def edit(self, msg: Message, body: Any, files: Any, route: str) -> Any:
        refused = super().edit(msg, body, files, route)
        if refused is None:
            self.answered(msg)
            if not msg.ephemeral:
                self.watch(msg, time.perf_counter())
        return refused

    def _rate_limited(self, channel_id: int, now: float) -> Any:
        self._posts.setdefault(channel_id, deque()).clear()  # the window the post is counted in, kept empty
        return None


def shown_version(msg: Message, game_id: int) -> int | None:
    """The version of ``game_id`` a channel message shows: its components', else its turn picture's."""
    found = None
    for custom in msg.custom_ids():
        match = SHOWN.match(custom)
        if match and int(match[1]) == game_id:
            found = max(found or 0, int(match[2]))
    if found is None:
        for attachment in msg.attachments:
            match = PICTURE.match(attachment.filename)
            if match and int(match[1]) == game_id:
                found = max(found or 0, int(match[2]))
    return found


def interactive(msg: Message) -> list[dict[str, Any]]:
    return [c for row in msg.components for c in row.get("components", []) if c.get("type") in (2, 3, 5, 6, 7, 8)]


class Refused(Exception):
    pass


@dataclass
class Table:
    index: int
    channel_id: int
    people: list[int]
    rng: random.Random
    game_id: int = 0
    version: int = -1
    message: Message | None = None  # the channel message showing the game at ``version``
    waiting: tuple[int, asyncio.Future[tuple[float, Message]]] | None = None  # a version above this one, when shown
    private: tuple[Callable[[], Message | None], asyncio.Future[Message]] | None = None  # a private reply, when made
    games_finished: int = 0

    def seen(self, msg: Message, at: float) -> None:
        if self.waiting is None:
            return
        above, future = self.waiting
        version = shown_version(msg, self.game_id)
        if version is not None and version > above and not future.done():
            future.set_result((at, msg))

    def expect(self, above: int) -> asyncio.Future[tuple[float, Message]]:
        future: asyncio.Future[tuple[float, Message]] = asyncio.get_running_loop().create_future()
        self.waiting = (above, future)
        return future

    def expect_private(self, found: Callable[[], Message | None]) -> asyncio.Future[Message]:
        """The private reply ``found()`` returns, once it does (checked now, and after each message the fake makes or
        edits in this channel: a check per message, not one per request of every game with a 50 ms poll)."""
        future: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        self.private = (found, future)
        self.recheck()
        return future

    def recheck(self) -> None:
        if self.private is None:
            return
        found, future = self.private
        if not future.done() and (msg := found()) is not None:
            future.set_result(msg)


@dataclass
class Stats:
    latency: list[float] = field(default_factory=list)
    reply: list[float] = field(default_factory=list)  # cell select -> the private rotations
    completed: int = 0  # actions of the played phase, its warm-up included
    window: list[float] = field(default_factory=list)
    lobby_restarts: int = 0
    errors: list[str] = field(default_factory=list)


class Run:
    def __init__(self, args: argparse.Namespace, driver: Driver, config: str, fake: FakeDiscord) -> None:
        self.args = args
        self.driver = driver
        self.config = config
        self.options = driver.configurations[config]
        self.fake = fake
        self.stats = Stats()
        self.measuring = False
        self.playing = False
        self.stop = False
        self.window_start = 0.0
        self.requests: Counter[str] = Counter()  # REST requests of the played phase, by route
        self.idle = [0.0, 0.0]  # CPU ms per second with nobody clicking: bot process, drawing processes
        self.kernel = (0.0, 0.0)  # system CPU seconds of the played phase: bot process, drawing processes
        self.event_loop = 0.0  # CPU seconds of the played phase: the bot process's main thread

    # -- a game's life, through Discord -----------------------------------------------------------------------

    async def open_table(self, table: Table) -> None:
        """Lobby, Join (everyone but the host), Start: the first turn message is shown."""
        fake, timeout = self.fake, self.args.timeout
        host, *others = table.people
        asked = await fake.slash(host, self.driver.lobby_command, channel_id=table.channel_id, **self.options)

        def lobby() -> Message | None:
            inter = fake.interactions[asked]
            for msg in [inter.original, *inter.followups, *reversed(fake.messages[table.channel_id])]:
                if msg is not None and any(LOBBY.match(c) for c in msg.custom_ids()):
                    return msg
            return None

        try:
            message: Message = await fake.wait_for(lobby, timeout)
        except TimeoutError:
            inter = fake.interactions[asked]
            said = [m.content for m in [inter.original, *inter.followups] if m is not None]
            # what the channel showed of the game taken for over: each message's version and whether it had choices
            seen = [(shown_version(m, table.game_id), bool(interactive(m))) for m in fake.messages[table.channel_id]]
            raise Refused(
                f"no lobby in {timeout} s: answers {inter.answers}, said {said}; the channel's last messages of "
                f"game {table.game_id} (version, choices): {[v for v in seen if v[0] is not None][-4:]}"
            ) from None
        ids = {m[2]: c for c in message.custom_ids() if (m := LOBBY.match(c))}
        table.game_id = int(LOBBY.match(ids["join"])[1])  # type: ignore[index]
        for person in others:
            joined = await fake.click(person, ids["join"], message=message)
            await fake.wait_answer(joined, timeout)
            message = fake.message(message.id) or message
            ids = {m[2]: c for c in message.custom_ids() if (m := LOBBY.match(c))}
        shown = table.expect(-1)
        await fake.click(host, ids["start"], message=message)
        _, first = await asyncio.wait_for(shown, timeout)
        table.message, table.version = first, shown_version(first, table.game_id) or 0

    async def action(self, table: Table) -> float:
        """Clicks until one shows the next step in the channel (a cell select first answers privately); its
        latency (seconds)."""
        timeout = self.args.timeout
        assert table.message is not None
        message = table.message
        screen = Screen(message.content, interactive(message), False, None)
        for _ in range(5):
            click = self.driver.choose(screen, table.rng)
            if click is None:
                raise Refused(f"nothing to click in game {table.game_id}: {screen.content[-200:]!r}")
            shown = table.expect(table.version)
            started = time.perf_counter()
            asked = await self.send(click, message)
            reply = await self.answer_or_turn(table, asked, shown, timeout)
            if isinstance(reply, tuple):
                at, table.message = reply
                table.version = shown_version(table.message, table.game_id) or table.version
                return at - started
            if self.measuring:
                self.stats.reply.append(time.perf_counter() - started)
            message = reply
            screen = Screen(message.content, interactive(message), True, click.user_id)
            if not screen.components:
                raise Refused(f"click {click.custom_id} was refused: {message.content!r}")
        raise Refused(f"five clicks in game {table.game_id} showed no next step")

    async def send(self, click: Click, message: Message) -> int:
        if click.values is None:
            return await self.fake.click(click.user_id, click.custom_id, message=message)
        return await self.fake.select(click.user_id, click.custom_id, list(click.values), message=message)

    async def answer_or_turn(
        self, table: Table, asked: int, shown: asyncio.Future[tuple[float, Message]], timeout: float
    ) -> tuple[float, Message] | Message:
        """The next step in the channel, or the private reply with components (whichever comes)."""
        inter = self.fake.interactions[asked]

        def private() -> Message | None:
            for msg in [inter.original, *inter.followups]:
                if msg is not None and msg.ephemeral and msg.components:
                    return msg
            return None

        waiting = table.expect_private(private)
        either: set[asyncio.Future[Any]] = {shown, waiting}
        done, _ = await asyncio.wait(either, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        table.private = None
        if shown in done:
            return shown.result()
        if waiting in done:
            return waiting.result()
        answers = inter.answers
        raise Refused(f"interaction {asked} showed nothing in {timeout} s (answers {answers})")

    async def head_start(self, table: Table, actions: int) -> None:
        for _ in range(actions):
            if not self.game_goes_on(table):
                return
            await self.action(table)

    def game_goes_on(self, table: Table) -> bool:
        return table.message is not None and bool(interactive(table.message))

    async def play(self, table: Table) -> None:
        pace = Pace(self.args.games / self.args.rate if self.args.rate > 0 else 0.0, table.rng)
        while not self.stop:
            if not self.game_goes_on(table):  # game over: a new one in the same channel
                table.games_finished += 1
                self.stats.lobby_restarts += 1
                await self.open_table(table)
                continue
            await pace.wait()
            if self.stopped():  # the last action was taken while this game waited
                break
            latency = await self.action(table)
            self.record(latency)

    def stopped(self) -> bool:
        return self.stop

    def record(self, latency: float) -> None:
        stats = self.stats
        stats.completed += 1
        if not self.measuring:
            if stats.completed >= self.args.warmup:
                self.measuring, self.window_start = True, time.perf_counter()
            return
        stats.latency.append(latency)
        stats.window.append(time.perf_counter())
        if len(stats.latency) >= self.args.actions:
            self.stop = True

    # -- the run ----------------------------------------------------------------------------------------------

    async def execute(self, bot_pid: int, tables: list[Table]) -> dict[str, Any]:
        args = self.args
        started = time.perf_counter()
        await asyncio.gather(*(self.open_table(t) for t in tables))
        await asyncio.gather(*(self.head_start(t, int(args.typical_moves * t.index / args.games)) for t in tables))
        setup = time.perf_counter() - started
        await asyncio.sleep(args.settle)  # the head start's owed work (retired buttons, turn DMs) done
        drawing_pids = descendants(bot_pid)
        idle0 = time_on_cpu([bot_pid]), time_on_cpu(drawing_pids)
        await asyncio.sleep(args.idle)  # nobody clicks: what the bot costs by the second, whatever it does
        idle = [time_on_cpu([bot_pid]) - idle0[0], time_on_cpu(drawing_pids) - idle0[1]]
        self.idle = [1000 * x / args.idle for x in idle] if args.idle else [0.0, 0.0]
        bot0, drawing0, own0 = cpu_of(f"/proc/{bot_pid}/stat"), cpu_of_descendants(bot_pid), time.process_time()
        kernel0 = kernel_cpu_of([bot_pid]), kernel_cpu_below(bot_pid)
        load0 = os.getloadavg()[0]
        sampler = sample(args.sample, bot_pid) if args.sample else None
        requests0 = len(self.fake.exchanges)
        loop0 = cpu_of(f"/proc/{bot_pid}/task/{bot_pid}/stat")  # the main thread's: the event loop
        began = time.perf_counter()
        results = await asyncio.gather(*(self.play(t) for t in tables), return_exceptions=True)
        wall = time.perf_counter() - began
        if sampler is not None:
            stop_sampling(sampler)
        bot = cpu_of(f"/proc/{bot_pid}/stat") - bot0
        self.event_loop = cpu_of(f"/proc/{bot_pid}/task/{bot_pid}/stat") - loop0
        drawing = cpu_of_descendants(bot_pid) - drawing0
        own = time.process_time() - own0
        self.kernel = (kernel_cpu_of([bot_pid]) - kernel0[0], kernel_cpu_below(bot_pid) - kernel0[1])
        self.requests = Counter(route_kind(e.method, e.path) for e in self.fake.exchanges[requests0:])
        for result in results:
            if isinstance(result, BaseException):
                self.stats.errors.append(where(result))
        return self.report(setup, wall, bot, drawing, own, (load0, os.getloadavg()[0]))

    def report(
        self, setup: float, wall: float, bot: float, drawing: float, own: float, load: tuple[float, float]
    ) -> dict[str, Any]:
        s = self.stats
        common, rate = played(self, setup, wall)
        per_action = 1000 / max(1, s.completed)
        p99 = percentile(s.latency, 99) if s.latency else float("inf")
        return {
            **common,
            "warmup_actions": self.args.warmup,
            "played_actions": s.completed,
            "bot_process_cpu_ms_per_action": round(bot * per_action, 2),
            "drawing_cpu_ms_per_action": round(drawing * per_action, 2),
            "cpu_ms_per_action_all": round((bot + drawing) * per_action, 2),
            "fake_discord_and_people_cpu_ms_per_action": round(own * per_action, 2),
            "of_which_kernel_cpu_ms_per_action": {
                "bot_process": round(self.kernel[0] * per_action, 2),
                "drawing": round(self.kernel[1] * per_action, 2),
            },
            "of_which_threads_cpu_ms_per_action": {  # the bot process's: its event loop and the rest (SQLite's
                # thread, the drawing pipes' writers, the default executor's)
                "event_loop": round(self.event_loop * per_action, 2),
                "other_threads": round((bot - self.event_loop) * per_action, 2),
            },
            "requests_per_action": {
                k: round(v / max(1, s.completed), 2) for k, v in sorted(self.requests.items(), key=lambda kv: -kv[1])
            },
            "idle_cpu_ms_per_s": {"bot_process": round(self.idle[0], 1), "drawing": round(self.idle[1], 1)},
            "bot_cpu_utilisation": round((bot + drawing) / wall, 2) if wall else 0.0,
            "render_processes": self.args.render_processes,
            "cpus": {"bot": self.args.bot_cpus or "any", "fake_discord_and_people": self.args.fake_cpus or "any"},
            "load_average_1min_before_after": [round(x, 2) for x in load],
            "cpu_probe_s": cpu_probe(),
            "drawing_probe_ms": drawing_probe(ROOT),
            "errors": s.errors[:10],
            "error_count": len(s.errors),
            "met": {
                **({"p99_at_most_100ms": p99 <= 0.1} if self.args.rate == 50 else {}),
                **({"at_least_200_actions_per_s": rate >= 200} if self.args.rate == 0 else {}),
                "cpu_with_drawing_at_most_8ms": (bot + drawing) * per_action <= 8,
            },
        }


def sample(path: str, pid: int) -> subprocess.Popen[bytes]:
    """py-spy recording the bot process (not its drawing processes) until ``stop_sampling``, without pausing it:
    raw collapsed stacks per thread, only samples that hold the GIL, for ``bench/stack_owners.py``."""
    command = ["py-spy", "record", "--pid", str(pid), "--gil", "--threads", "--nonblocking", "--rate", "200"]
    command += ["--format", "raw", "--output", path]
    sampler = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    time.sleep(1.0)  # attached before the games are played
    return sampler


def where(error: BaseException) -> str:
    """An error a game's player met, with the bench's own line it happened on."""
    ours = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == __file__]
    return f"{error!r} in {ours[-1].name} (line {ours[-1].lineno})" if ours else repr(error)


def route_kind(method: str, path: str) -> str:
    """A REST request's route with its ids and tokens left out: ``POST /interactions/:id/:token/callback``."""
    return method + " " + re.sub(r"/(?:\d+|itoken-[0-9a-f]+)(?=/|$)", "/:id", path.split("?")[0])


async def bot_process(
    tmp: Path, fake: FakeDiscord, args: argparse.Namespace, *command: str
) -> asyncio.subprocess.Process:
    config = tmp / "config.toml"
    config.write_text(
        f'[database]\npath = "{tmp / "bench.sqlite3"}"\n'
        f'[discord]\nrest_base_url = "{fake.rest_url}"\ngateway_url = "{fake.gateway_url}"\n'
        "give_up_after_seconds = 30\n"
        "[reminders]\ncheck_every_seconds = 3600\n"  # no sweep falls due during a run
        f"[render]\nprocesses = {args.render_processes}\n",
        encoding="utf-8",
    )
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "BOARDHOST_CONFIG")}
    env.update(DISCORD_TOKEN=fake.token, BOARDHOST_CONFIG=str(config), PYTHONPATH=str(ROOT))
    cpus = args.bot_cpus

    def pinned() -> None:  # in the child, before it starts: its drawing processes inherit the CPUs
        if cpus:
            os.sched_setaffinity(0, cpus)

    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        *command,
        cwd=tmp,
        env=env,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=(tmp / f"bot-{'-'.join(command) or 'run'}.log").open("ab"),
        preexec_fn=pinned,
    )


async def run_config(args: argparse.Namespace, config: str) -> dict[str, Any]:
    driver = DRIVERS[args.game]
    fake = FakeDiscord(channel_routes=TimedRoutes)
    await fake.start()
    tables = []
    for i in range(args.games):
        people = [fake.add_user(f"p{i}-{j}") for j in range(args.players)]
        tables.append(Table(i, fake.add_channel(f"game-{i}"), people, random.Random(args.seed * 1000 + i)))
    by_channel = {t.channel_id: t for t in tables}

    def watch(msg: Message, at: float) -> None:
        table = by_channel.get(msg.channel_id)
        if table is not None:
            table.seen(msg, at)

    def answered(msg: Message) -> None:
        table = by_channel.get(msg.channel_id)
        if table is not None and table.private is not None:  # once the route has put the message in its place
            asyncio.get_running_loop().call_soon(table.recheck)

    fake.channel_routes.watch = watch  # type: ignore[attr-defined]
    fake.channel_routes.answered = answered  # type: ignore[attr-defined]
    with tempfile.TemporaryDirectory(prefix="bot_process_bench_") as name:
        tmp = Path(name)
        sync = await bot_process(tmp, fake, args, "sync", "--guild", str(fake.guild_id))
        if await sync.wait() != 0:
            log = next(tmp.glob("bot-sync*.log")).read_text(encoding="utf-8", errors="replace")
            raise SystemExit(f"python -m bot sync failed:\n{log}")
        bot = await bot_process(tmp, fake, args)
        try:
            await fake.wait_ready(timeout=60)
            run = Run(args, driver, config, fake)
            report = await run.execute(bot.pid, tables)
            if fake.violations:
                report["discord_would_refuse"] = [f"{v.route}: {v.detail}" for v in fake.violations[:5]]
            log = (tmp / "bot-run.log").read_text(encoding="utf-8", errors="replace")
            report["tracebacks_in_log"] = log.count("Traceback")
            if report["errors"] or report["tracebacks_in_log"]:  # kept to read: the directory goes with the run
                kept = Path(tempfile.mkdtemp(prefix="bot_process_bench_log_")) / "bot-run.log"
                kept.write_text(log, encoding="utf-8")
                report["bot_log"] = str(kept)
        finally:
            if bot.returncode is None:
                bot.terminate()
                try:
                    await asyncio.wait_for(bot.wait(), 30)
                except TimeoutError:
                    bot.kill()
                    await bot.wait()
            await fake.stop()
    return report


def cpu_list(text: str) -> list[int]:
    try:
        cpus = sorted({int(part) for part in text.split(",")})
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of CPU numbers like 0 or 0,1") from None
    available = os.sched_getaffinity(0)
    if not cpus or not set(cpus) <= available:
        raise argparse.ArgumentTypeError(f"CPUs {text} are not all among this machine's {sorted(available)}")
    return cpus


def human(run: dict[str, Any]) -> str:
    lat = run["latency_ms"]
    return (
        f"{run['config']:<12} offered {run['offered_rate'] or 'flat out'}: {run['actions_per_s']} actions/s, "
        f"p50/p95/p99/max {lat.get('p50')}/{lat.get('p95')}/{lat.get('p99')}/{lat.get('max')} ms; CPU ms per "
        f"action: bot process {run['bot_process_cpu_ms_per_action']} + drawing {run['drawing_cpu_ms_per_action']} "
        f"= {run['cpu_ms_per_action_all']} (fake Discord + people {run['fake_discord_and_people_cpu_ms_per_action']})"
        f"; {run['lobby_restarts']} games ended; errors {run['error_count']}, tracebacks {run['tracebacks_in_log']}"
        + (f" (the bot's log: {run['bot_log']})" if "bot_log" in run else "")
    )


def main() -> None:
    parser = Parser(prog="python bench/bot_process_bench.py", description=__doc__.split("\n\n")[0] if __doc__ else None)
    add_load_options(parser)
    parser.add_argument("--bot-cpus", type=cpu_list, default=None, help="pin the bot and its drawing to CPUs: 0 or 0,1")
    parser.add_argument("--fake-cpus", type=cpu_list, default=None, help="pin the fake Discord and the people")
    parser.add_argument("--sample", help="record the bot process's played phase with py-spy here (pip install py-spy)")
    parser.add_argument("--idle", type=decimal_number(0), default=5.0, help="seconds of no clicks, measured")
    parser.add_argument("--settle", type=decimal_number(0), default=2.0, help="seconds after the head start")
    args = parser.parse_args()
    if args.sample and shutil.which("py-spy") is None:
        parser.error("--sample needs py-spy on the PATH (pip install py-spy)")
    if args.warmup is None:
        args.warmup = args.games
    if args.rate == int(args.rate):
        args.rate = int(args.rate)
    if args.fake_cpus:
        os.sched_setaffinity(0, args.fake_cpus)
    configs = args.config or list(DRIVERS[args.game].configurations)
    runs = []
    for config in configs:
        report = asyncio.run(run_config(args, config))
        print(human(report), file=sys.stderr)
        runs.append(report)
    print(json.dumps(runs if len(runs) > 1 else runs[0], indent=2))


if __name__ == "__main__":
    main()
