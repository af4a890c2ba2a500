"""Discord host benchmark (issue 5): interaction -> posted board latency with many games in play at once.

Target: p95 under 250 ms from an interaction to the new turn message with its board PNG (engine + storage +
render, through the bot's own handlers), with 50 games in play at once, and at least 50 actions per second
sustained on 2 cores.

What runs: the real ``bot.app.BoardHost`` (temporary SQLite file, or PostgreSQL: see "Storage" below) inside
simcord's simulated Discord, in this process and without pytest. One guild, one text channel and ``--players``
members per game. Every game is opened through the real lobby (``/carcassonne new``, Join, Start). Games then get a
head start so that boards of every size are in play (game ``i`` of ``n`` is advanced ``i/n`` of the way through a
typical game with random legal moves, stored as one action-log transaction through ``Games.record_action``, and its
turn message re-posted), and then all games are played concurrently by simulated users who read the latest turn
message like a person: pick a cell in the select, a rotation in the private reply, then a follower button or "No
follower".

Load: each game clicks on its own clock, about ``--games / --rate`` seconds apart (uniformly jittered), so the
offered load is ``--rate`` actions per second over all games; when the bot falls behind, a game clicks again at
once, so the achieved rate shows whether the rate is sustained. ``--rate 0`` clicks as fast as possible (every
game always has a click in flight): that measures the most the bot can do, with queueing latency.

An *action* is a click that changes the game and shows the next step in the channel (a rotation, a follower
choice, ...): a new turn message, or, while the same player's turn goes on (placing, then the follower), the turn
message brought up to date in place. Its latency runs from the moment the interaction is handed to the bot on the
simulated gateway to the moment that message (content, components and PNG) reaches simulated Discord (its
MESSAGE_CREATE or MESSAGE_UPDATE event there). The private cell -> rotation
reply is reported separately. The split is wall time per action, attributed to the interaction through a context
variable: *engine* (the engine game's public methods), *storage* (``bot.storage.Games``, ``UserSettings`` and the
outbox's ``OwedTable`` calls, the SQLite thread included) less *db_lock_wait* (waiting for the one connection's
lock), *render* (``render.*_png`` on its thread), *thread_wait* (waiting for a free ``asyncio.to_thread`` worker)
and *other*: discord.py, simcord's in-process Discord, bot glue, and waiting for the event loop behind other
games.

Why not simcord's ``MemberActor.click``: its verbs are one-at-a-time operations that settle the whole bot before
they return (a second verb from another task raises "operation overlaps"), so they cannot keep 50 games in play.
This script builds the same INTERACTION_CREATE payloads with simcord's own helpers (``base_payload``,
``message_payload``, ``build_options``), refuses a click on a missing or disabled component as the actor verbs
do, emits the event on the simulated gateway, and waits for the tasks that interaction started (a task factory
follows a context variable into every task it spawns). Written against simcord 3.2.

Adding a game: write a ``Driver`` (lobby command, named option sets, ``choose``: the next click on what a user
sees) and add it to ``DRIVERS``; everything else is shared.

Timelapses: as in production, a game that ends owes its timelapse (about 1.3 s of drawing in the drawing processes,
next to every other game's turn images); ``--no-timelapses`` refuses them (the outbox's timelapse part does nothing),
to see what they cost. The report counts the timelapses posted while the games were played.

CPU: per action (warm-up included), the bot process's (``cpu_ms_per_action``: the event loop, which here includes
simcord's in-process Discord, the SQLite threads and any other thread) and the drawing processes' (``drawing_cpu_ms_
per_action``), from /proc. ``--profile FILE`` writes a cProfile of the event loop's thread (played phase; it slows
the loop down about twice); ``--sample FILE`` records the played phase with py-spy (``pip install py-spy``; raw
collapsed stacks, one per thread) for ``bench/stack_owners.py``, which charges each sample to the code that owns it
(the bot, discord.py, simcord and this script, the engine, SQLite) without slowing the bot down.

Storage: ``--backend sqlite`` (default) or ``postgresql`` (``--database-url DSN``, else $BOARDHOST_TEST_POSTGRES,
else a throwaway server from the machine's PostgreSQL binaries; a fresh schema per run); ``--processes N`` runs N
bot processes (each a ``ShardedBoardHost`` of its own shard with its own simulated Discord and 1/N of the games,
actions and offered rate) on one PostgreSQL database at once, and reports them together (actions/s added up,
latencies pooled). ``--compare`` runs SQLite, PostgreSQL x1 and PostgreSQL x2 one after another and prints them
side by side.

Before and after: ``--against DIR`` runs this script on the bot of another work tree (``git worktree add DIR
COMMIT``) and on the bot of the tree this script is in, alternately (``--repeat`` rounds, each configuration once per
side per round, the side that goes first alternating from round to round: A B, B A, A B, ...), so that the machine's
other load falls on both. Each run is a child process of this same script with ``PYTHONPATH`` set to its tree, so
both are driven identically and differ only in the bot, engine and render code they import. Reports each run, the
medians per side and the ratios after / before.

Run: ``python bench/bot_bench.py [--games 50] [--actions N] [--seed 1] [--game carcassonne] [--config NAME]
[--rate 50] [--cpus 2] [--no-timelapses] [--profile FILE] [--sample FILE] [--backend sqlite|postgresql]
[--processes N] [--compare] [--against DIR [--repeat N]]``. Prints one JSON object; a summary goes to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextlib
import contextvars
import copy
import cProfile
import dataclasses
import functools
import gc
import io
import json
import logging
import os
import platform
import pstats
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Final, Literal, Protocol

# This tree's code, whatever is installed; with --against, each child imports the tree it measures (the script's
# own tree would otherwise come first on the path and both sides would run the same bot).
sys.path.insert(0, os.environ.get("BOT_BENCH_TREE") or str(Path(__file__).resolve().parents[1]))

from engine.cli import Parser, decimal_number, run_command, whole_number
from engine.registry import game_class

# -- what a simulated user sees and does (the extension point for other games) ---------------------------------


@dataclass(frozen=True)
class Screen:
    """A message a user can click on: the channel's latest turn message, or a private reply to ``viewer``."""

    content: str
    components: list[dict[str, Any]]  # interactive components (buttons, selects) in display order
    ephemeral: bool
    viewer: int | None  # whom a private reply was sent to


@dataclass(frozen=True)
class Click:
    user_id: int
    custom_id: str
    values: tuple[str, ...] | None = None  # the chosen options of a select; None for a button


class Driver(Protocol):
    game: str  # the engine / storage name
    lobby_command: str  # the slash command that opens a lobby
    configurations: ClassVar[dict[str, dict[str, Any]]]  # named lobby options (slash command options)

    def choose(self, screen: Screen, rng: random.Random) -> Click | None:
        """The next click on ``screen`` for whoever owes a decision, or None if there is nothing to click."""
        ...

    def size(self, game: Any) -> int:
        """A measure of the board shown (tiles, pieces): reported with the figures."""
        ...


MENTION = re.compile(r"<@!?(\d+)>")


class CarcassonneDriver:
    game = "carcassonne"
    lobby_command = "carcassonne new"
    configurations: ClassVar[dict[str, dict[str, Any]]] = {
        "base": {"river": False, "tower": False},
        "river+tower": {"river": True, "tower": True},
    }

    def choose(self, screen: Screen, rng: random.Random) -> Click | None:
        if screen.ephemeral:  # the private rotation buttons after a cell was chosen
            user = screen.viewer
            buttons = [c for c in screen.components if c["type"] == 2 and ":rot:" in c["custom_id"]]
            if user is None or not buttons:
                return None
            return Click(user, rng.choice(buttons)["custom_id"])
        mentions = MENTION.findall(screen.content)
        if not mentions:
            return None
        user = int(mentions[-1])  # the turn line, after the narration, mentions whoever is to play
        choices: list[Click] = []
        for c in screen.components:
            custom = c.get("custom_id", "")
            if c["type"] == 2 and ":page:" not in custom:  # follower spots, No follower, tower tops, ransoms
                choices.append(Click(user, custom))
            elif c["type"] == 3:  # cells (one page), tower placements, follower spots past the buttons
                choices += [Click(user, custom, (o["value"],)) for o in c.get("options", [])]
        return rng.choice(choices) if choices else None

    def size(self, game: Any) -> int:
        return len(game.board)


DRIVERS: dict[str, Driver] = {"carcassonne": CarcassonneDriver()}
# Catan: add a CatanDriver with "catan new", its option sets and a choose() for its turn messages once
# bot/catan posts them.


# -- per-interaction bookkeeping -------------------------------------------------------------------------------

CLICK: contextvars.ContextVar[Tracker | None] = contextvars.ContextVar("bench_click", default=None)
SPLIT_KEYS = ("engine", "storage", "db_lock_wait", "render", "thread_wait")  # as the tracker charges them
REPORTED = ("engine", "storage", "db_lock_wait", "render", "thread_wait", "other")  # storage without lock waits


@dataclass
class Tracker:
    """One interaction: the tasks it started (and theirs), what the bot posted, time spent per layer."""

    loop: asyncio.AbstractEventLoop
    pending: int = 0
    done: asyncio.Event = field(default_factory=asyncio.Event)
    posts: list[tuple[float, dict[str, Any]]] = field(default_factory=list)
    split: dict[str, float] = field(default_factory=lambda: dict.fromkeys(SPLIT_KEYS, 0.0))
    split_at_post: dict[str, float] | None = None
    storage_calls: int = 0
    failures: list[BaseException] = field(default_factory=list)

    def add(self, task: asyncio.Task[Any]) -> None:
        self.pending += 1
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[Any]) -> None:
        if not task.cancelled() and task.exception() is not None:
            self.failures.append(task.exception())  # type: ignore[arg-type]
        self.pending -= 1
        if self.pending == 0:
            self.done.set()

    def charge(self, key: str, seconds: float) -> None:
        self.split[key] += seconds  # floats add atomically enough under the GIL for a benchmark


def task_factory(
    loop: asyncio.AbstractEventLoop, coro: Any, context: contextvars.Context | None = None
) -> asyncio.Task[Any]:
    task: asyncio.Task[Any] = asyncio.Task(coro, loop=loop, context=context)
    tracker = context.get(CLICK) if context is not None else CLICK.get()
    # discord.py keeps a private reply's view for 15 minutes with a sleeping timeout task: not the click's work.
    if tracker is not None and not getattr(coro, "__qualname__", "").endswith("timeout_task_impl"):
        tracker.add(task)
    return task


_local = threading.local()


def _timed_sync(key: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """Charge the outermost call of ``fn`` on this thread to the current interaction."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if getattr(_local, "busy", False):
            return fn(*args, **kwargs)
        tracker = CLICK.get()
        if tracker is None:
            return fn(*args, **kwargs)
        _local.busy = True
        started = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            tracker.charge(key, time.perf_counter() - started)
            _local.busy = False

    return wrapper


_IN_STORAGE: contextvars.ContextVar[bool] = contextvars.ContextVar("bench_in_storage", default=False)


def _timed_async(fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        tracker = CLICK.get()
        if tracker is None or _IN_STORAGE.get():
            return await fn(*args, **kwargs)
        token = _IN_STORAGE.set(True)
        started = time.perf_counter()
        try:
            return await fn(*args, **kwargs)
        finally:
            tracker.charge("storage", time.perf_counter() - started)
            tracker.storage_calls += 1
            _IN_STORAGE.reset(token)

    return wrapper


class TimedLock(asyncio.Lock):
    """The database's lock, charging the time spent waiting for it to the interaction."""

    async def acquire(self) -> Literal[True]:
        tracker = CLICK.get()
        started = time.perf_counter()
        acquired = await super().acquire()
        if tracker is not None:
            tracker.charge("db_lock_wait", time.perf_counter() - started)
        return acquired


def time_thread_waits(loop: asyncio.AbstractEventLoop) -> None:
    """Charge the wait for a free worker thread (``asyncio.to_thread``: the render) to the interaction."""
    run_in_executor = loop.run_in_executor

    def timed(executor: Any, func: Callable[..., Any], *args: Any) -> Any:
        tracker = CLICK.get()
        if tracker is None or isinstance(executor, concurrent.futures.ProcessPoolExecutor):  # nothing to wrap there
            return run_in_executor(executor, func, *args)
        submitted = time.perf_counter()

        def started(*inner: Any) -> Any:
            tracker.charge("thread_wait", time.perf_counter() - submitted)
            return func(*inner)

        return run_in_executor(executor, started, *args)

    loop.run_in_executor = timed  # type: ignore[method-assign,assignment]


TIMELAPSES = [0]  # timelapses posted so far in this process


def timelapses(refused: bool) -> None:
    """Count the timelapses posted; ``refused``: the outbox's timelapse part does nothing (``--no-timelapses``)."""
    try:
        from bot.flows import post_timelapse
        from bot.flows.outbox import Outbox
    except ImportError:  # a tree from before bot/ had rooms (--against): as it is
        return
    if refused:
        Outbox._timelapse_owed = staticmethod(lambda outcome, superseded: False)  # type: ignore[method-assign,assignment]
        return
    post = post_timelapse.post

    async def counted(*args: Any, **kwargs: Any) -> Any:
        message = await post(*args, **kwargs)
        TIMELAPSES[0] += message is not None
        return message

    post_timelapse.post = counted  # type: ignore[assignment]


def instrument(game_cls: type) -> None:
    """Wrap the engine class's public methods, the storage's coroutines (``Games``, ``UserSettings``, the outbox's
    ``OwedTable``) and the ``*_png`` drawing functions (``render``'s and, where the tree has them, each game's
    ``render.<game>.pictures``) with timers."""
    import inspect

    import render
    from bot.storage import Games

    try:
        from bot.core.rendering import Renderer
    except ImportError:  # a tree from before bot/ had rooms (--against)
        from bot.rendering import Renderer  # type: ignore[no-redef,import-not-found,unused-ignore]

    for name, attr in list(vars(game_cls).items()):
        if name.startswith("_"):
            continue
        if isinstance(attr, classmethod):
            setattr(game_cls, name, classmethod(_timed_sync("engine", attr.__func__)))
        elif inspect.isfunction(attr):
            setattr(game_cls, name, _timed_sync("engine", attr))
    tables: list[type] = [Games]
    with contextlib.suppress(ImportError):  # the per-user settings and the outbox, where the bot has them
        from bot.storage import UserSettings

        tables.append(UserSettings)
    with contextlib.suppress(ImportError):
        from bot.storage.owed import OwedTable

        tables.append(OwedTable)
    for table in tables:
        for name, attr in list(vars(table).items()):
            if not name.startswith("_") and inspect.iscoroutinefunction(attr):
                setattr(table, name, _timed_async(attr))
    modules: list[Any] = [render]
    with contextlib.suppress(ImportError):  # each game's pictures, where the tree has the render registry
        from render.carcassonne import pictures as carcassonne_pictures
        from render.catan import pictures as catan_pictures

        modules += [carcassonne_pictures, catan_pictures]
    for module in modules:
        for name in dir(module):
            if name.endswith("_png") and callable(getattr(module, name)):
                setattr(module, name, _timed_sync("render", getattr(module, name)))  # threads: timed where drawn

    original = Renderer.png

    async def png(self: Renderer, job: Any, **lane: Any) -> bytes:  # processes: the wait for the picture is the render
        tracker = CLICK.get()
        if tracker is None or self.processes <= 0:
            return await original(self, job, **lane)
        started = time.perf_counter()
        try:
            return await original(self, job, **lane)
        finally:
            tracker.charge("render", time.perf_counter() - started)

    Renderer.png = png  # type: ignore[method-assign]


# -- talking to simulated Discord without settling ------------------------------------------------------------


class Gateway:
    """Emits interactions the way simcord's actor verbs build them, and notes what the bot posts for each."""

    def __init__(self, env: Any, timeout: float) -> None:
        self.env = env
        self.backend = env.backend
        self.timeout = timeout
        # First in line, so the time is taken when simulated Discord has the message, before the bot's own
        # gateway copy of it is parsed.
        self.backend.subscribers.insert(0, self._observe)

    def _observe(self, event: str, payload: Any) -> None:
        # A turn message: a new channel message, or the game's message updated in place with the new step's
        # choices (not a private reply, nor an older message losing its buttons).
        if event == "MESSAGE_UPDATE":
            if int(payload.get("flags", 0)) & 64 or not payload.get("components"):
                return
        elif event != "MESSAGE_CREATE":
            return
        tracker = CLICK.get()  # set when the bot posts from a task that this interaction started
        if tracker is None or str(payload.get("author", {}).get("id")) != str(self.backend.bot_user.id):
            return
        if tracker.split_at_post is None:
            tracker.split_at_post = dict(tracker.split)
        tracker.posts.append((time.perf_counter(), payload))

    async def _emit(self, payload: dict[str, Any]) -> tuple[Tracker, float, float]:
        tracker = Tracker(asyncio.get_running_loop())
        token = CLICK.set(tracker)
        try:
            started = time.perf_counter()
            self.backend.emit("INTERACTION_CREATE", payload)
        finally:
            CLICK.reset(token)
        if tracker.pending:
            await asyncio.wait_for(tracker.done.wait(), self.timeout)
        return tracker, started, time.perf_counter()

    async def click(self, member: Any, channel_id: int, message_id: int, click: Click) -> Outcome:
        from simcord.actors import _find_component
        from simcord.backend import serializers
        from simcord.enums import SELECT_TYPES, ComponentType, InteractionType
        from simcord.interactions import base_payload

        stored = self.backend.get_message(channel_id, message_id)
        types = SELECT_TYPES if click.values is not None else (ComponentType.BUTTON,)
        component = _find_component(stored.components, types=types, custom_id=click.custom_id, label=None)
        data: dict[str, Any] = {"custom_id": component["custom_id"], "component_type": component["type"]}
        if component.get("id") is not None:
            data["id"] = component["id"]
        if click.values is not None:
            offered = {o["value"] for o in component.get("options") or []}
            if not set(click.values) <= offered:
                raise RuntimeError(f"no such option {click.values} in {click.custom_id}")
            data["values"] = list(click.values)
        record, payload = base_payload(
            self.backend,
            type=InteractionType.MESSAGE_COMPONENT,
            channel_id=channel_id,
            guild_id=member.guild.id,
            user_id=member.id,
            data=data,
        )
        payload["message"] = dict(serializers.message_payload(self.backend, stored))
        record.source_message_id = stored.id
        tracker, started, finished = await self._emit(payload)
        return Outcome(record, tracker, started, finished)

    async def slash(self, member: Any, channel_id: int, name: str, options: dict[str, Any]) -> Outcome:
        from simcord.enums import AppCommandType, InteractionType
        from simcord.interactions import base_payload, build_options, nest_options, walk_to_subcommand

        parts = name.split()
        root = self.backend.find_command(parts[0], member.guild.id, type=AppCommandType.CHAT_INPUT)
        if root is None:
            raise RuntimeError(f"/{parts[0]} is not synced")
        leaf, nesting = walk_to_subcommand(root, parts[1:])
        leaf_options, resolved = build_options(member, name, leaf, options, channel_id=channel_id)
        data: dict[str, Any] = {
            "id": root["id"],
            "name": root["name"],
            "type": root.get("type", AppCommandType.CHAT_INPUT),
            "options": nest_options(root, nesting, leaf_options),
        }
        if resolved:
            data["resolved"] = resolved
        record, payload = base_payload(
            self.backend,
            type=InteractionType.APPLICATION_COMMAND,
            channel_id=channel_id,
            guild_id=member.guild.id,
            user_id=member.id,
            data=data,
        )
        tracker, started, finished = await self._emit(payload)
        return Outcome(record, tracker, started, finished)

    def screen(self, channel_id: int, message_id: int, viewer: int | None = None) -> Screen:
        from simcord.components import walk_components

        message = self.backend.get_message(channel_id, message_id)
        interactive = [c for c in walk_components(message.components) if c.get("type") in (2, 3, 5, 6, 7, 8)]
        return Screen(message.content, interactive, message.is_ephemeral, viewer)


@dataclass
class Outcome:
    record: Any  # simcord's interaction record: the response and follow-ups
    tracker: Tracker
    started: float
    finished: float

    @property
    def posted(self) -> list[dict[str, Any]]:
        return [payload for _, payload in self.tracker.posts]

    @property
    def post_latency(self) -> float | None:
        return self.tracker.posts[0][0] - self.started if self.tracker.posts else None


# -- one benchmark run ----------------------------------------------------------------------------------------


@dataclass
class Table:
    index: int
    channel: Any
    members: list[Any]
    rng: random.Random
    game_id: int = 0
    message_id: int = 0
    finished_games: int = 0


@dataclass
class Stats:
    latency: list[float] = field(default_factory=list)  # seconds, interaction -> turn message posted
    handled: list[float] = field(default_factory=list)  # interaction -> every task it started finished
    reply: list[float] = field(default_factory=list)  # select -> private reply
    split: list[dict[str, float]] = field(default_factory=list)
    storage_calls: list[int] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    png_bytes: list[int] = field(default_factory=list)
    lobby_restarts: int = 0
    interactions: int = 0
    errors: list[str] = field(default_factory=list)
    completed: int = 0  # actions, warm-up included
    window: list[float] = field(default_factory=list)  # completion times of measured actions


class Refused(Exception):
    pass


class Pace:
    """One game's clock: a click about ``interval`` seconds after the last (jittered), at once when the bot fell
    behind; ``interval`` 0: always at once (flat out)."""

    def __init__(self, interval: float, rng: random.Random) -> None:
        self.interval, self.rng = interval, rng
        self.next_at = time.perf_counter() + rng.uniform(0, interval)

    async def wait(self) -> None:
        if not self.interval:
            return
        delay = self.next_at - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        jitter = self.interval * self.rng.uniform(0.5, 1.5)
        self.next_at = max(self.next_at, time.perf_counter() - self.interval) + jitter


class Run:
    def __init__(self, args: argparse.Namespace, driver: Driver, config: str) -> None:
        self.args = args
        self.driver = driver
        self.config = config
        self.options = driver.configurations[config]
        self.stats = Stats()
        self.stop = False
        self.measuring = False
        self.load = (0.0, 0.0)
        self.gc_pauses = GcPauses()
        self.window_start = 0.0
        self.timelapses = 0

    async def open_table(self, gateway: Gateway, table: Table) -> None:
        """Lobby, Join (everyone but the host), Start: the first turn message is posted."""
        host, *others = table.members
        channel_id = table.channel.id
        opened = await gateway.slash(host, channel_id, self.driver.lobby_command, dict(self.options))
        self._count(opened)
        lobby = opened.record.message_id
        if lobby is None:
            raise Refused(f"no lobby message in channel {channel_id}: {opened.tracker.failures}")
        for member in others:
            joined = await gateway.click(member, channel_id, lobby, self._button(gateway, channel_id, lobby, "join"))
            self._count(joined)
        started = await gateway.click(host, channel_id, lobby, self._button(gateway, channel_id, lobby, "start"))
        self._count(started)
        turn = self._turn_message(started)
        if turn is None:
            raise Refused(f"Start posted no turn message in channel {channel_id}")
        table.message_id = turn
        row = await self.bot.games.open_in_channel(channel_id)
        assert row is not None
        table.game_id = row.id

    def _button(self, gateway: Gateway, channel_id: int, message_id: int, op: str) -> Click:
        screen = gateway.screen(channel_id, message_id)
        custom = next(c["custom_id"] for c in screen.components if c["custom_id"].endswith(f":{op}"))
        return Click(0, custom)

    @staticmethod
    def _turn_message(outcome: Outcome) -> int | None:
        posted = [p for p in outcome.posted if not (int(p.get("flags", 0)) & 64)]
        return int(posted[-1]["id"]) if posted else None

    def _count(self, outcome: Outcome) -> None:
        self.stats.interactions += 1
        for failure in outcome.tracker.failures:
            self.stats.errors.append(repr(failure))

    async def head_start(self, gateway: Gateway, table: Table, moves: int) -> None:
        """Advance the game ``moves`` random legal actions (one stored transaction) and re-post its turn."""
        try:
            from bot.host.outcome import Outcome as HostOutcome
        except ImportError:  # a tree from before the host's services (--against)
            from bot.host.service import Outcome as HostOutcome  # type: ignore[no-redef,attr-defined,unused-ignore]

        try:
            from bot.flows.turns import announce
        except ImportError:  # a tree from before bot/ had rooms (--against)
            from bot.turns import announce  # type: ignore[no-redef,import-not-found,unused-ignore]
        from bot.storage import GameRow
        from engine import game_class

        row: GameRow | None = await self.bot.games.get(table.game_id)
        assert row is not None and row.state is not None
        game = game_class(row.game).from_json(row.state)
        actions: list[dict[str, Any]] = []
        while len(actions) < moves and not game.finished:
            applied = game.apply(game.random_action(table.rng))
            actions.append(applied.action)
            while (automatic := game.automatic_action()) is not None:
                actions.append(game.apply(automatic).action)
        if game.finished or not actions:
            return
        row = await self.bot.games.record_action(
            row.id, row.version, user_id=None, actions=actions, state=game.to_json()
        )
        message = await announce(self.bot, HostOutcome(row, game, [], actions, game.actors()))
        assert message is not None
        table.message_id = message.id

    async def play(self, gateway: Gateway, table: Table) -> None:
        members = {m.id: m for m in table.members}
        pace = Pace(self.args.games / self.args.rate if self.args.rate > 0 else 0.0, table.rng)
        while not self.stopped():
            screen = gateway.screen(table.channel.id, table.message_id)
            if not screen.components:  # game over: open a new one in the same channel
                table.finished_games += 1
                self.stats.lobby_restarts += 1
                await self.open_table(gateway, table)
                continue
            await pace.wait()
            if self.stopped():  # the last action was taken while this game waited
                break
            await self.action(gateway, table, screen, members)

    def stopped(self) -> bool:
        return self.stop

    async def action(self, gateway: Gateway, table: Table, screen: Screen, members: dict[int, Any]) -> None:
        """Clicks until one shows the next step in the channel (a cell select first answers privately)."""
        channel_id, message_id = table.channel.id, table.message_id
        for _ in range(5):
            click = self.driver.choose(screen, table.rng)
            if click is None:
                raise Refused(f"nothing to click in channel {channel_id}: {screen.content[-200:]!r}")
            outcome = await gateway.click(members[click.user_id], channel_id, message_id, click)
            self._count(outcome)
            turn = self._turn_message(outcome)
            if turn is not None:
                self._record(table, outcome)
                table.message_id = turn
                return
            # The private reply: a follow-up after an acknowledgement, or the interaction's answer itself.
            answer = outcome.record.message_id
            followups = list(outcome.record.followup_ids) or ([answer] if answer and answer != message_id else [])
            if not followups:
                await asyncio.sleep(1)
                latest = max(gateway.backend.messages.get(channel_id, {}), default=0)
                raise Refused(
                    f"click {click.custom_id} answered nothing (response {outcome.record.response_kind}, tasks left "
                    f"{outcome.tracker.pending}, posts {len(outcome.tracker.posts)}, latest message "
                    f"{'new' if latest > table.message_id else 'same'} a second later)"
                )
            message_id = followups[-1]
            screen = gateway.screen(channel_id, message_id, viewer=click.user_id)
            if not screen.components:
                raise Refused(f"click {click.custom_id} was refused: {screen.content!r}")
            if self.measuring:
                self.stats.reply.append(outcome.finished - outcome.started)
        raise Refused(f"five clicks in channel {channel_id} posted no turn")

    def _record(self, table: Table, outcome: Outcome) -> None:
        stats = self.stats
        stats.completed += 1
        if not self.measuring:
            if stats.completed >= self.warmup:
                self.measuring = True
                self.window_start = time.perf_counter()
            return
        latency = outcome.post_latency
        assert latency is not None
        stats.latency.append(latency)
        stats.handled.append(outcome.finished - outcome.started)
        split = outcome.tracker.split_at_post or outcome.tracker.split
        spent = split["engine"] + split["storage"] + split["render"] + split["thread_wait"]
        stats.split.append(
            {**split, "storage": split["storage"] - split["db_lock_wait"], "other": max(0.0, latency - spent)}
        )
        stats.storage_calls.append(outcome.tracker.storage_calls)
        stats.window.append(time.perf_counter())
        for payload in outcome.posted:
            stats.png_bytes += [int(a.get("size", 0)) for a in payload.get("attachments", [])]
        rows = getattr(self.bot, "rows", None) or self.bot.service  # before the host's services: one service
        game = rows._cache.get(table.game_id)
        if game is not None:
            stats.sizes.append(self.driver.size(game[1]))
        if len(stats.latency) >= self.args.actions:
            self.stop = True

    async def execute(self) -> dict[str, Any]:
        import simcord

        from bot.app import BoardHost, ShardedBoardHost

        try:
            from bot.core.config import Config
        except ImportError:  # a tree from before bot/ had rooms (--against)
            from bot.config import Config  # type: ignore[no-redef,import-not-found,unused-ignore]

        args = self.args
        self.warmup = args.warmup if args.warmup is not None else args.games
        logging.getLogger("discord").setLevel(logging.WARNING)
        with tempfile.TemporaryDirectory(prefix="bot_bench_") as tmp:
            # Reminders are swept once a day of simulated time: none fall due during a run.
            database = args.database_url if args.backend == "postgresql" else Path(tmp) / "bench.sqlite3"
            config = Config(database=database, reminder_check=86400, render_processes=args.render_processes)
            if args.processes > 1:  # one of several processes on one database: this one runs shard ``part``
                config = dataclasses.replace(config, shard_count=args.processes, shard_ids=(args.part,))
                self.bot = bot = ShardedBoardHost(config, rng=random.Random(args.seed + args.part))
            else:
                self.bot = bot = BoardHost(config, rng=random.Random(args.seed))
            loop = asyncio.get_running_loop()
            loop.set_task_factory(task_factory)
            async with simcord.run(bot, check_errors=False) as env:
                await bot.tree.sync()
                if not args.no_split:
                    if hasattr(bot.db, "_lock"):  # SQLite's one connection: time the waits for its lock
                        bot.db._lock = TimedLock()
                    time_thread_waits(loop)
                gateway = Gateway(env, timeout=args.timeout)
                if args.processes > 1:
                    # Each process's simulated Discord numbers its channels from the same clock: start this one's a
                    # second later per part, so that channel ids (one open game per channel) never collide.
                    await env.advance_time(float(args.part))
                    guild = env.create_guild("bench", shard_id=args.part)
                else:
                    guild = env.create_guild("bench")
                tables = []
                for i in range(args.games):
                    channel = guild.create_text_channel(f"game-{i}")
                    members = [guild.add_member(env.create_user(f"p{i}-{j}")) for j in range(args.players)]
                    tables.append(Table(i, channel, members, random.Random(args.seed * 1000 + i)))
                await env.settle()
                t0 = time.perf_counter()
                await asyncio.gather(*(self.open_table(gateway, t) for t in tables))
                typical = args.typical_moves
                for table in tables:
                    await self.head_start(gateway, table, int(typical * table.index / args.games))
                setup = time.perf_counter() - t0
                self.stats.interactions = 0
                if self.warmup <= 0:
                    self.measuring, self.window_start = True, time.perf_counter()
                profiler = cProfile.Profile(time.thread_time) if args.profile else None
                sampler = sample(args.sample) if args.sample else None
                timelapses0 = TIMELAPSES[0]
                # The drawing processes (py-spy, a child too under --sample, left out; read before it is stopped).
                spared = frozenset({sampler.pid} if sampler is not None else ())
                children0 = cpu_of_descendants(os.getpid(), spared)
                cpu0, loop_cpu0 = time.process_time(), time.thread_time()
                where0 = cpu_where(bot.db)
                load0 = os.getloadavg()[0]
                started = time.perf_counter()
                if profiler:
                    profiler.enable()
                with GcPauses() as self.gc_pauses:
                    results = await asyncio.gather(*(self.play(gateway, t) for t in tables), return_exceptions=True)
                if profiler:
                    profiler.disable()
                drawing = cpu_of_descendants(os.getpid(), spared) - children0
                if sampler is not None:
                    stop_sampling(sampler)
                ended = time.perf_counter()
                self.timelapses = TIMELAPSES[0] - timelapses0
                cpu, loop_cpu = time.process_time() - cpu0, time.thread_time() - loop_cpu0
                where = {k: v - where0.get(k, 0.0) for k, v in cpu_where(bot.db).items()}
                where["other_threads"] = cpu - sum(where.values())  # threads that ended meanwhile included
                where["drawing_processes"] = drawing
                self.load = (load0, os.getloadavg()[0])
                for result in results:
                    if isinstance(result, BaseException):
                        self.stats.errors.append(repr(result))
                captured = env.errors
                self.stats.errors += [repr(e) for e in captured]
            await bot.db.close()
        if profiler and args.profile:
            profiler.dump_stats(args.profile)
            print_profile(profiler)
        return self.report(setup, ended - started, cpu, loop_cpu, where)

    def report(self, setup: float, wall: float, cpu: float, loop_cpu: float, where: dict[str, float]) -> dict[str, Any]:
        s = self.stats
        measured = len(s.latency)
        common, rate = played(self, setup, wall)
        split_mean = {k: round(1000 * sum(d[k] for d in s.split) / max(1, measured), 2) for k in REPORTED}
        p95_index = sorted(range(measured), key=lambda i: s.latency[i])[int(0.95 * measured) :] if measured else []
        slowest = max(1, len(p95_index))
        split_tail = {k: round(1000 * sum(s.split[i][k] for i in p95_index) / slowest, 2) for k in REPORTED}
        total_actions = s.completed
        per_action = 1000 / max(1, total_actions)
        p99 = percentile(s.latency, 99) if s.latency else float("inf")
        return {
            **common,
            "warmup_actions": self.warmup,
            "interactions": s.interactions,
            "interactions_per_s": round(s.interactions / wall, 1) if wall else 0.0,
            **({"latencies_ms": [round(1000 * x, 2) for x in s.latency]} if self.args.raw else {}),
            "handled_ms": summary(s.handled),
            "split_mean_ms": split_mean,
            "split_slowest_5pct_mean_ms": split_tail,
            "storage_calls_per_action": round(sum(s.storage_calls) / max(1, measured), 1),
            "timelapses": not self.args.no_timelapses,
            "timelapses_posted": self.timelapses,
            "cpu_ms_per_action": round(1000 * cpu / max(1, total_actions), 1),
            "drawing_cpu_ms_per_action": round(where["drawing_processes"] * per_action, 2),
            "event_loop_cpu_ms_per_action": round(1000 * loop_cpu / max(1, total_actions), 1),
            "cpu_utilisation": round(cpu / wall, 2) if wall else 0.0,
            "cpu_ms_per_action_all": round(1000 * (cpu + where["drawing_processes"]) / max(1, total_actions), 2),
            "cpu_ms_per_action_where": {k: round(1000 * v / max(1, total_actions), 2) for k, v in where.items()},
            "render_processes": self.args.render_processes,
            "load_average_1min_before_after": [round(x, 2) for x in self.load],
            "board_size": {
                "min": min(s.sizes, default=0),
                "mean": round(sum(s.sizes) / max(1, len(s.sizes)), 1),
                "max": max(s.sizes, default=0),
            },
            "png_kb_mean": round(sum(s.png_bytes) / max(1, len(s.png_bytes)) / 1024, 1),
            "gc_pauses_in_measured_window": self.gc_pauses.summary(self.window_start),
            "errors": s.errors[:10],
            "error_count": len(s.errors),
            "met": {
                "p95_under_250ms": bool(s.latency) and percentile(s.latency, 95) < 0.25,
                "at_least_50_actions_per_s": rate >= 50,
                # issue 29, with timelapses on: p99 at 50 actions/s, the rate flat out, CPU with drawing
                **({"p99_at_most_100ms": p99 <= 0.1} if self.args.rate == 50 else {}),
                **({"at_least_200_actions_per_s": rate >= 200} if self.args.rate == 0 else {}),
                "cpu_with_drawing_at_most_8ms": (cpu + where["drawing_processes"]) * per_action <= 8,
            },
        }


def sample(path: str) -> subprocess.Popen[bytes]:
    """py-spy recording this process until ``stop_sampling``: raw collapsed stacks per thread, only samples that hold
    the GIL (running Python: a thread waiting for SQLite or a pipe is not sampled)."""
    command = ["py-spy", "record", "--pid", str(os.getpid()), "--gil", "--threads", "--rate", "200"]
    command += ["--format", "raw", "--output", path]
    sampler = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    time.sleep(1.0)  # attached before the games are played
    return sampler


def stop_sampling(sampler: subprocess.Popen[bytes]) -> None:
    import signal

    sampler.send_signal(signal.SIGINT)  # py-spy writes what it recorded and exits
    _, err = sampler.communicate(timeout=60)
    if sampler.returncode not in (0, -signal.SIGINT):
        print(f"py-spy: {err.decode(errors='replace')[-500:]}", file=sys.stderr)


def cpu_where(db: Any) -> dict[str, float]:
    """CPU seconds so far of the event loop's thread (this one) and of the threads of the database's SQLite
    connections (aiosqlite runs each on its own thread; found among the database object's attributes)."""
    import aiosqlite

    workers = [c._thread for c in vars(db).values() if isinstance(c, aiosqlite.Connection)]
    return {
        "event_loop": cpu_of(f"/proc/self/task/{threading.get_native_id()}/stat"),
        "sqlite_threads": sum(cpu_of(f"/proc/self/task/{w.native_id}/stat") for w in workers if w.native_id),
    }


def descendants(pid: int, leave_out: frozenset[int] = frozenset()) -> list[int]:
    """Every process below ``pid`` (children, theirs, ...), from /proc; ``leave_out`` and what is below them not."""
    parents: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        process = int(stat.parent.name)
        fields = stat_fields(process)
        if len(fields) > 1:
            parents.setdefault(int(fields[1]), []).append(process)
    found, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            if child not in leave_out:
                found.append(child)
                todo.append(child)
    return found


def cpu_of_descendants(pid: int, leave_out: frozenset[int] = frozenset()) -> float:
    """CPU seconds so far of every process below ``pid``: those alive, and those that ended and were waited for by
    ``pid`` or by one of them (a drawing process that stopped, e.g. the background one after its idle time: its CPU is
    then its parent's, ``pid`` for spawned processes, multiprocessing's fork server for forked ones)."""
    below = descendants(pid, leave_out)
    return sum(cpu_of(f"/proc/{child}/stat") + ended_children_cpu(child) for child in below) + ended_children_cpu(pid)


def stat_fields(pid: int) -> list[str]:
    """The fields of ``/proc/PID/stat`` after the command's name (state first); none if the process is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return []


def ended_children_cpu(pid: int, kernel_only: bool = False) -> float:
    """User + system (or system only) CPU seconds of ``pid``'s children that ended and were waited for."""
    fields = stat_fields(pid)
    if len(fields) < 15:
        return 0.0
    ticks = int(fields[14]) + (0 if kernel_only else int(fields[13]))
    return ticks / os.sysconf("SC_CLK_TCK")


def kernel_cpu_of(pids: list[int]) -> float:
    """System CPU seconds of these processes (the kernel's share of their CPU: sockets, pipes, waking up), /proc."""
    fields = [stat_fields(pid) for pid in pids]
    return sum(int(f[12]) for f in fields if len(f) > 12) / os.sysconf("SC_CLK_TCK")


def kernel_cpu_below(pid: int) -> float:
    """System CPU seconds so far of every process below ``pid``, ended ones included (``cpu_of_descendants``)."""
    below = descendants(pid)
    return kernel_cpu_of(below) + sum(ended_children_cpu(p, kernel_only=True) for p in [pid, *below])


def time_on_cpu(pids: list[int]) -> float:
    """Seconds these processes have run, to the nanosecond, ended threads included: each process's CPU clock, read
    through the id Linux gives another process's scheduler clock (``clock_getcpuclockid``; the tick-counted figures
    of ``stat`` charge a whole 10 ms tick to a thread that merely woke as it fell, which over a few idle seconds
    reads several times what an idle process really runs; ``/proc/PID/task/TID/schedstat`` is missing on some
    kernels). A process gone counts nothing."""
    total = 0.0
    for pid in pids:
        try:
            total += time.clock_gettime((~pid << 3) | 2)  # CPUCLOCK_SCHED of process ``pid``
        except OSError:
            continue
    return total


def cpu_of(path: str | Path) -> float:
    """User + system CPU seconds from a /proc ``stat`` file (0 where there is no /proc)."""
    try:
        fields = Path(path).read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class GcPauses:
    """The bot process's garbage collections while the games are played: when, which generation, how long (the
    event loop stands still meanwhile)."""

    def __init__(self) -> None:
        self.pauses: list[tuple[float, int, float, float]] = []  # began, generation, wall s, CPU s of the thread
        self._began = 0.0
        self._began_cpu = 0.0

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began, self._began_cpu = time.perf_counter(), time.thread_time()
        else:
            wall, cpu = time.perf_counter() - self._began, time.thread_time() - self._began_cpu
            self.pauses.append((self._began, int(info["generation"]), wall, cpu))

    def __enter__(self) -> GcPauses:
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._callback)

    def summary(self, since: float) -> dict[str, dict[str, float]]:
        """Per generation: collections, total and longest pause (ms), and the event loop thread's CPU in them (a
        busy machine makes pauses longer than the work), from ``since`` on."""
        found: dict[str, dict[str, float]] = {}
        for began, generation, seconds, cpu in self.pauses:
            if began < since:
                continue
            entry = found.setdefault(str(generation), {"count": 0, "total_ms": 0.0, "max_ms": 0.0, "cpu_ms": 0.0})
            entry["count"] += 1
            entry["total_ms"] = round(entry["total_ms"] + seconds * 1000, 1)
            entry["cpu_ms"] = round(entry["cpu_ms"] + cpu * 1000, 1)
            entry["max_ms"] = round(max(entry["max_ms"], seconds * 1000), 1)
        return found


def played(run: Any, setup: float, wall: float) -> tuple[dict[str, Any], float]:
    """What a run of either bot bench reports alike (what was played, how fast, the latencies), and the rate of its
    measured actions (from the measured window's start to its last action)."""
    s = run.stats
    measured = len(s.latency)
    span = (s.window[-1] - run.window_start) if s.window else 0.0
    rate = measured / span if span > 0 else 0.0
    return {
        "config": run.config,
        "options": run.options,
        "games": run.args.games,
        "players": run.args.players,
        "offered_rate": run.args.rate,
        "actions": measured,
        "lobby_restarts": s.lobby_restarts,
        "setup_s": round(setup, 1),
        "wall_s": round(wall, 1),
        "actions_per_s": round(rate, 1),
        "latency_ms": summary(s.latency),
        "private_reply_ms": summary(s.reply),
    }, rate


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def summary(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    return {
        "p50": round(1000 * percentile(values, 50), 1),
        "p95": round(1000 * percentile(values, 95), 1),
        "p99": round(1000 * percentile(values, 99), 1),
        "max": round(1000 * max(values), 1),
        "mean": round(1000 * sum(values) / len(values), 1),
    }


def print_profile(profiler: cProfile.Profile) -> None:
    """Event-loop thread time by package, then the top functions (stderr)."""
    stats = pstats.Stats(profiler)
    groups: dict[str, float] = {}
    total = 0.0
    for (filename, _, _), (_, _, tottime, _, _) in stats.stats.items():  # type: ignore[attr-defined]
        total += tottime
        groups[package_of(filename)] = groups.get(package_of(filename), 0.0) + tottime
    print("event-loop thread, own time by package:", file=sys.stderr)
    for name, seconds in sorted(groups.items(), key=lambda kv: -kv[1])[:14]:
        print(f"  {name:<22} {seconds:7.2f} s {100 * seconds / total:5.1f}%", file=sys.stderr)
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(25)
    print(out.getvalue(), file=sys.stderr)


def package_of(filename: str) -> str:
    path = filename.replace("\\", "/")
    for marker in ("/site-packages/", "/lib/python3"):
        if marker in path:
            rest = path.split(marker, 1)[1]
            if marker == "/lib/python3":
                rest = rest.split("/", 1)[1] if "/" in rest else rest
                return "stdlib:" + rest.split("/", 1)[0].removesuffix(".py")
            return rest.split("/", 1)[0].removesuffix(".py")
    for name in ("engine", "render", "bot", "bench"):
        if f"/{name}/" in path:
            return name
    return "builtins" if path.startswith("~") or path.startswith("<") else path.rsplit("/", 1)[-1]


@contextlib.contextmanager
def pinned(cpus: int) -> Iterator[list[int] | None]:
    if cpus <= 0 or not hasattr(os, "sched_setaffinity"):
        yield None
        return
    available = sorted(os.sched_getaffinity(0))
    chosen = available[:cpus]
    os.sched_setaffinity(0, chosen)
    try:
        yield chosen
    finally:
        os.sched_setaffinity(0, available)


def lighten_simcord() -> None:
    """simcord keeps its live loop callbacks in a list and drops each one with ``list.remove``, which compares the
    records field by field (dataclass ``__eq__``): every callback then costs time in proportion to the timers still
    pending, such as discord.py's 15-minute timeouts of private replies' views, which pile up over a run. The
    records are only ever looked up as themselves, so compare them by identity; nothing else changes."""
    from simcord import _runtime

    _runtime._CallbackRecord.__eq__ = object.__eq__  # type: ignore[method-assign]


def wire_copy(value: Any, memo: Any = None) -> Any:
    """A JSON round trip: what a payload goes through between Discord and a real bot, and 3-5x cheaper than
    ``copy.deepcopy`` on these payloads (values that are not JSON fall back to the deep copy)."""
    try:
        return json.loads(json.dumps(value))
    except (TypeError, ValueError):
        return copy.deepcopy(value)


def wire_copies_in_simcord() -> None:
    """simcord deep-copies every gateway payload it feeds the client, every request body it logs and every
    component tree it validates (a third of the event loop's time in a profile). Real Discord serialises them as
    JSON instead, so the bench makes simcord copy them through JSON: the same values reach discord.py."""
    from simcord import components, gateway
    from simcord.http import router

    wire = types.SimpleNamespace(deepcopy=wire_copy)
    gateway.copy = wire  # type: ignore[assignment]
    router.copy = wire  # type: ignore[assignment]
    components.deepcopy = wire_copy


def add_load_options(parser: argparse.ArgumentParser) -> None:
    """The options both bot benches share: which games, how many, how much load, which seed, how long one
    interaction may take, how many drawing processes."""
    parser.add_argument("--game", choices=sorted(DRIVERS), default="carcassonne")
    parser.add_argument("--config", action="append", help="named option set (repeatable; default: all)")
    parser.add_argument("--games", type=whole_number(1), default=50, help="games in play at once (default 50)")
    parser.add_argument("--players", type=whole_number(1), default=2, help="people per game (default 2)")
    parser.add_argument("--actions", type=whole_number(1), default=1500, help="measured actions per configuration")
    parser.add_argument(
        "--warmup", type=whole_number(0), default=None, help="unmeasured first actions (default: --games)"
    )
    parser.add_argument(
        "--rate", type=decimal_number(0), default=50.0, help="offered actions/s over all games; 0: flat out"
    )
    parser.add_argument(
        "--typical-moves", type=whole_number(0), default=130, help="head start of the last game (actions)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the games and the clicks (default 1)")
    parser.add_argument(
        "--timeout", type=decimal_number(0, above=True), default=60.0, help="seconds one interaction may take"
    )
    parser.add_argument(
        "--render-processes",
        type=whole_number(0),
        default=2,
        help="the bot's [render] processes (0: threads in the bot process)",
    )


def main() -> None:
    parser = Parser(prog="python bench/bot_bench.py", description=__doc__.split("\n\n")[0] if __doc__ else None)
    add_load_options(parser)
    parser.add_argument("--cpus", type=whole_number(0), default=2, help="pin to this many CPUs (0: do not pin)")
    parser.add_argument("--profile", help="write a cProfile of the event-loop thread (played phase) here")
    parser.add_argument("--sample", help="record the played phase with py-spy here (raw stacks, for stack_owners.py)")
    parser.add_argument(
        "--no-timelapses", action="store_true", help="refuse timelapses (production draws one when a game ends)"
    )
    parser.add_argument("--no-split", action="store_true", help="no engine/storage/render timers")
    parser.add_argument(
        "--plain-simcord", action="store_true", help="simcord as installed: field-by-field record compare, deep copies"
    )
    parser.add_argument("--backend", choices=BACKENDS, default="sqlite", help="the bot's storage")
    parser.add_argument(
        "--processes",
        type=whole_number(1),
        default=1,
        help="bot processes sharing one PostgreSQL database, each running its share of the games (own shard)",
    )
    parser.add_argument(
        "--database-url",
        help="a PostgreSQL server's DSN (default: $BOARDHOST_TEST_POSTGRES, else a throwaway server from the "
        "machine's PostgreSQL binaries); each run gets a fresh schema in it",
    )
    parser.add_argument(
        "--compare", action="store_true", help="SQLite, PostgreSQL x1 and PostgreSQL x2 side by side in one run"
    )
    parser.add_argument(
        "--against",
        metavar="DIR",
        help="a work tree of the code to compare with (before): runs alternate between its bot and this tree's",
    )
    parser.add_argument(
        "--repeat", type=whole_number(1), default=3, help="with --against: runs per side and configuration"
    )
    # This process's share of the games (0-based), for one process of --processes N.
    parser.add_argument("--part", type=whole_number(0), default=0, help=argparse.SUPPRESS)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)  # one process of --processes N
    parser.add_argument("--raw", action="store_true", help=argparse.SUPPRESS)  # every latency in the report
    args = parser.parse_args()
    if args.sample and shutil.which("py-spy") is None:
        parser.error("--sample needs py-spy on the PATH (pip install py-spy)")
    driver = DRIVERS[args.game]
    cls = game_class(args.game)
    if not cls.MIN_PLAYERS <= args.players <= cls.MAX_PLAYERS:
        parser.error(f"--players {args.players}: {args.game} is played by {cls.MIN_PLAYERS} to {cls.MAX_PLAYERS}")
    if args.profile is not None and not Path(args.profile).resolve().parent.is_dir():
        parser.error(f"--profile {args.profile}: the folder {Path(args.profile).parent} does not exist")
    configs = args.config or list(driver.configurations)
    for name in configs:
        if name not in driver.configurations:
            parser.error(f"--config {name}: one of {', '.join(driver.configurations)}")
    setups = [("sqlite", 1), ("postgresql", 1), ("postgresql", 2)] if args.compare else [(args.backend, args.processes)]
    if args.processes > 1 and args.backend != "postgresql" and not args.compare:
        parser.error("--processes above 1 needs --backend postgresql (processes share a PostgreSQL database)")
    if args.against is not None:
        if args.compare or args.processes > 1 or args.profile or args.sample:
            parser.error("--against compares one setup: not with --compare, --processes, --profile or --sample")
        if not (Path(args.against) / "bot" / "__init__.py").is_file():
            parser.error(f"--against {args.against}: not a work tree of this project (no bot/__init__.py)")
        before_and_after(args, configs)
        return

    with contextlib.ExitStack() as stack:
        server = None
        if not args.child and any(backend == "postgresql" for backend, _ in setups):
            server = stack.enter_context(postgres_server(args.database_url))
        cpus = stack.enter_context(pinned(args.cpus))
        timelapses(refused=args.no_timelapses)
        if not args.no_split:
            instrument(game_class(args.game))
        if not args.plain_simcord:
            lighten_simcord()
            wire_copies_in_simcord()
        runs = []
        for backend, processes in setups:
            for name in configs:
                settings = argparse.Namespace(**{**vars(args), "backend": backend, "processes": processes})
                if server is not None and backend == "postgresql":
                    settings.database_url = asyncio.run(fresh_schema(server))
                if processes > 1 and not args.child:
                    run = several_processes(settings, name)
                else:
                    run = asyncio.run(Run(settings, driver, name).execute())
                    run.update(backend=backend, processes=processes)
                runs.append(run)
                print(human(run) if "split_mean_ms" in run else human_merged(run), file=sys.stderr)
    result = {
        "bench": "discord host",
        "game": args.game,
        "seed": args.seed,
        "cpus_pinned": len(cpus) if cpus else None,
        "cpu_count": os.cpu_count(),
        "python": platform.python_version(),
        "split_timers": not args.no_split,
        "simcord_identity_records": not args.plain_simcord,
        "simcord_wire_copies": not args.plain_simcord,
        "targets": {"p95_ms": 250, "actions_per_s": 50, "issue_29": ISSUE_29_TARGETS},
        "timelapses": not args.no_timelapses,
        "code": code_of(),
        "runs": runs,
    }
    if args.compare:
        result["side_by_side"] = [
            {k: run[k] for k in ("config", "backend", "processes", "games", "actions", "actions_per_s")}
            | {"p95_ms": run["latency_ms"].get("p95")}
            for run in runs
        ]
        print(side_by_side(runs), file=sys.stderr)
    print(json.dumps(result, indent=2))
    if any(run["error_count"] for run in runs):
        sys.exit(1)


# -- before and after (--against) -------------------------------------------------------------------------------

# Issue 29, with timelapses on: p99 at 50 actions/s, actions/s flat out, CPU per action with drawing.
ISSUE_29_TARGETS = {"p99_ms_at_50_per_s": 100, "actions_per_s_flat_out": 200, "cpu_ms_per_action_with_drawing": 8}
HERE = Path(__file__).resolve().parents[1]  # the work tree this script is in: the "after" side
COMPARED = ("actions_per_s", "p50", "p95", "p99", "cpu_ms_per_action", "event_loop_cpu_ms_per_action",
            "drawing_cpu_ms_per_action", "cpu_ms_per_action_all", "storage_calls_per_action")  # fmt: skip


def code_of() -> dict[str, Any]:
    """Which bot this process runs: its tree and that tree's commit (``+`` when it has uncommitted changes)."""
    import bot

    tree = Path(bot.__file__).resolve().parents[1]
    try:
        commit = subprocess.run(
            ["git", "-C", str(tree), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(tree), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit, dirty = "?", ""
    return {"tree": str(tree), "commit": commit + ("+" if dirty else "")}


CHILD_TIMEOUT: Final = 1800  # seconds one side's run may take (a run is a minute or two on a quiet machine)


def before_and_after(args: argparse.Namespace, configs: list[str]) -> None:
    """``--against``: the same runs of this script on two trees' bots, alternately; medians and ratios."""
    trees = {"before": Path(args.against).resolve(), "after": HERE}
    passed = ["--game", args.game, "--games", str(args.games), "--players", str(args.players)]
    passed += ["--actions", str(args.actions), "--rate", str(args.rate), "--typical-moves", str(args.typical_moves)]
    passed += ["--seed", str(args.seed), "--cpus", str(args.cpus), "--timeout", str(args.timeout)]
    passed += ["--render-processes", str(args.render_processes), "--backend", args.backend]
    passed += ["--warmup", str(args.warmup)] if args.warmup is not None else []
    passed += ["--no-split"] if args.no_split else []
    passed += ["--plain-simcord"] if args.plain_simcord else []
    passed += ["--no-timelapses"] if args.no_timelapses else []
    machine = {"load_average_before": [round(x, 2) for x in os.getloadavg()], "cpu_probe_s_before": cpu_probe()}
    runs: list[dict[str, Any]] = []
    code: dict[str, Any] = {}
    with contextlib.ExitStack() as stack:
        server = stack.enter_context(postgres_server(args.database_url)) if args.backend == "postgresql" else None
        for round_ in range(args.repeat):
            order = ("before", "after") if round_ % 2 == 0 else ("after", "before")
            for name in configs:
                for side in order:
                    command = [sys.executable, __file__, *passed, "--config", name]
                    if server is not None:
                        command += ["--database-url", asyncio.run(fresh_schema(server))]
                    env = {**os.environ, "PYTHONPATH": str(trees[side]), "BOT_BENCH_TREE": str(trees[side])}
                    began = time.strftime("%H:%M:%S")
                    try:
                        done = subprocess.run(
                            command, cwd=trees[side], env=env, capture_output=True, text=True, timeout=CHILD_TIMEOUT
                        )
                    except subprocess.TimeoutExpired as late:
                        sys.exit(f"bot_bench: the {side} run took over {CHILD_TIMEOUT} s: {str(late.stderr)[-2000:]}")
                    if done.returncode not in (0, 1) or not done.stdout.strip():
                        sys.exit(f"bot_bench: the {side} run failed ({done.returncode}): {done.stderr[-2000:]}")
                    result = json.loads(done.stdout)
                    code[side] = result["code"]
                    run = result["runs"][0] | {"side": side, "round": round_ + 1, "started": began}
                    runs.append(run)
                    print(f"{side} {round_ + 1} ({began}) " + human(run), file=sys.stderr)
    machine |= {"load_average_after": [round(x, 2) for x in os.getloadavg()], "cpu_probe_s_after": cpu_probe()}
    medians = {name: {side: medians_of([r for r in runs if r["config"] == name and r["side"] == side])
                      for side in trees} for name in configs}  # fmt: skip
    ratios = {name: {k: ratio(m["after"].get(k), m["before"].get(k)) for k in COMPARED} for name, m in medians.items()}
    paired = {name: paired_ratios([r for r in runs if r["config"] == name]) for name in configs}
    result = {
        "bench": "discord host, before and after",
        "game": args.game,
        "seed": args.seed,
        "backend": args.backend,
        "offered_rate": args.rate,
        "repeat": args.repeat,
        "code": code,
        "machine": machine,
        "medians": medians,
        "ratios_after_over_before": ratios,
        "paired_ratios_median": paired,
        "runs": runs,
    }
    print(before_after_table(medians, ratios, paired, args.repeat), file=sys.stderr)
    print(
        f"load average (1, 5, 15 min) {machine['load_average_before']} -> {machine['load_average_after']}; "
        f"CPU probe sum(range(10**7)) {machine['cpu_probe_s_before']} -> {machine['cpu_probe_s_after']} s",
        file=sys.stderr,
    )
    print(json.dumps(result, indent=2))
    if any(run["error_count"] for run in runs):
        sys.exit(1)


def cpu_probe() -> float:
    """CPU seconds of a fixed loop: how slow the machine is now (0.12 s on a quiet day)."""
    started = time.process_time()
    sum(range(10**7))
    return round(time.process_time() - started, 3)


DRAWING_PROBE_ROUNDS = 20
_DRAWING_PROBE = """
import sys, time
import render
from bot.core.rendering import Job, draw, drawing_process_setup
drawing_process_setup()  # settings and warm-up, the sample boards drawn once: as a drawing process starts
jobs = [Job(render.board_png, view) for view in render.sample_views()]
started = time.process_time()
for _ in range(int(sys.argv[1])):
    for job in jobs:
        draw(job)
print((time.process_time() - started) * 1000 / (int(sys.argv[1]) * len(jobs)))
"""


def drawing_probe(tree: Path) -> float | None:
    """CPU milliseconds of one sample board picture drawn now with ``tree``'s code, in a process of its own under the
    drawing processes' settings: how slow the machine is for drawing, which is memory-bound. ``cpu_probe`` misses
    that: on 2026-11-29 it read a quiet machine (0.12-0.13 s) while every picture took about a fifth longer than on
    the quiet night before. None if the probe fails (it is only a reading of the machine)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(tree), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run(
        [sys.executable, "-c", _DRAWING_PROBE, str(DRAWING_PROBE_ROUNDS)],
        cwd=tree, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    try:
        return round(float(done.stdout.split()[-1]), 2)
    except (IndexError, ValueError):
        return None


def figure(run: dict[str, Any], key: str) -> float | None:
    value = run["latency_ms"].get(key) if key in ("p50", "p95", "p99") else run.get(key)
    return None if value is None else float(value)


def median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def medians_of(runs: list[dict[str, Any]]) -> dict[str, float]:
    picked = {k: [v for run in runs if (v := figure(run, k)) is not None] for k in COMPARED}
    return {k: round(median(v), 2) for k, v in picked.items() if v}


def paired_ratios(runs: list[dict[str, Any]]) -> dict[str, float | None]:
    """The median over rounds of each round's after / before (the two runs of a round are next to each other in
    time, so a slow drift of the machine's load cancels within a pair)."""
    rounds: dict[int, dict[str, dict[str, Any]]] = {}
    for run in runs:
        rounds.setdefault(run["round"], {})[run["side"]] = run
    found: dict[str, float | None] = {}
    for k in COMPARED:
        each = [ratio(figure(p["after"], k), figure(p["before"], k)) for p in rounds.values() if len(p) == 2]
        known = [r for r in each if r is not None]
        found[k] = round(median(known), 3) if known else None
    return found


def ratio(after: float | None, before: float | None) -> float | None:
    return round(after / before, 3) if after is not None and before else None


def before_after_table(
    medians: dict[str, dict[str, dict[str, float]]],
    ratios: dict[str, dict[str, float | None]],
    paired: dict[str, dict[str, float | None]],
    repeat: int,
) -> str:
    """Medians per side, their ratio and the median of the rounds' ratios, per configuration (Markdown)."""
    head = (
        "actions/s | p50 ms | p95 ms | p99 ms | bot process CPU ms per action | event loop | drawing | with drawing "
        "| storage calls"
    )
    rows = [f"| config | side (median of {repeat}) | {head} |", "|---|---|" + "---|" * len(COMPARED)]
    for name, sides in medians.items():
        for side, values in sides.items():
            rows.append(f"| {name} | {side} | " + " | ".join(str(values.get(k, "-")) for k in COMPARED) + " |")
        rows.append(f"| {name} | after / before | " + " | ".join(str(ratios[name][k]) for k in COMPARED) + " |")
        rows.append(
            f"| {name} | median of rounds' after / before | "
            + " | ".join(str(paired[name][k]) for k in COMPARED)
            + " |"
        )
    return "\n".join(rows)


# -- PostgreSQL and several processes --------------------------------------------------------------------------

BACKENDS = ("sqlite", "postgresql")


@contextlib.contextmanager
def postgres_server(url: str | None) -> Iterator[str]:
    """A PostgreSQL server's DSN: ``url``, $BOARDHOST_TEST_POSTGRES, or a throwaway server (tests/postgres.py)."""
    if url:
        yield url
        return
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.postgres import Server

    server = Server().start()
    try:
        if server.dsn is None:
            sys.exit(f"bot_bench: {server.why_not}")
        yield server.dsn
    finally:
        server.stop()


async def fresh_schema(dsn: str) -> str:
    """A new empty schema on the server, as the URL that opens it (asyncpg passes ``search_path`` on)."""
    import asyncpg

    schema = f"bench_{os.getpid()}_{int(time.time() * 1000) % 10**9}"
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(f"CREATE SCHEMA {schema}")
    finally:
        await conn.close()
    return f"{dsn}{'&' if '?' in dsn else '?'}search_path={schema}"


def several_processes(args: argparse.Namespace, name: str) -> dict[str, Any]:
    """``args.processes`` bot processes on one PostgreSQL database, started together, each with its share of the
    games, actions and offered rate (its own shard and its own simulated Discord: shards never share a guild);
    one report for them all: actions/s added up, latencies pooled."""
    n = args.processes
    passed = ["--game", args.game, "--players", str(args.players), "--seed", str(args.seed)]
    passed += ["--typical-moves", str(args.typical_moves), "--timeout", str(args.timeout)]
    passed += ["--render-processes", str(args.render_processes), "--config", name, "--cpus", "0"]
    passed += ["--no-split"] if args.no_split else []
    passed += ["--plain-simcord"] if args.plain_simcord else []
    passed += ["--no-timelapses"] if args.no_timelapses else []
    children = []
    for part in range(n):
        share = [
            "--games", str(args.games // n + (part < args.games % n)),
            "--actions", str(args.actions // n + (part < args.actions % n)),
            "--rate", str(args.rate / n),
        ]  # fmt: skip
        if args.warmup is not None:
            share += ["--warmup", str(args.warmup // n)]
        command = [sys.executable, __file__, "--child", "--raw", "--backend", "postgresql", "--processes", str(n)]
        command += ["--part", str(part), "--database-url", args.database_url, *passed, *share]
        children.append(subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    parts = []
    for child in children:
        out, err = child.communicate()
        if child.returncode not in (0, 1) or not out.strip():
            sys.exit(f"bot_bench: a bench process failed ({child.returncode}): {err[-2000:]}")
        parts.append(json.loads(out)["runs"][0])
    latencies = [x / 1000 for part in parts for x in part.pop("latencies_ms")]
    return {
        "config": name,
        "backend": "postgresql",
        "processes": n,
        "games": sum(p["games"] for p in parts),
        "offered_rate": args.rate,
        "actions": sum(p["actions"] for p in parts),
        "actions_per_s": round(sum(p["actions_per_s"] for p in parts), 1),
        "latency_ms": summary(latencies),
        "png_kb_mean": round(sum(p["png_kb_mean"] for p in parts) / n, 1),
        "errors": [e for p in parts for e in p["errors"]][:10],
        "error_count": sum(p["error_count"] for p in parts),
        "parts": parts,
    }


def human_merged(run: dict[str, Any]) -> str:
    lat = run["latency_ms"]
    return (
        f"[{run['config']}, {run['backend']} x{run['processes']}] {run['actions']} actions, {run['games']} games, "
        f"offered {run['offered_rate']}/s: {run['actions_per_s']} actions/s; latency p50 {lat.get('p50')} "
        f"p95 {lat.get('p95')} p99 {lat.get('p99')} max {lat.get('max')} ms; errors {run['error_count']}"
    )


def side_by_side(runs: list[dict[str, Any]]) -> str:
    """The runs as a Markdown table: one row per option set, actions/s and p95 per backend."""
    columns = list(dict.fromkeys(f"{r['backend']} x{r['processes']}" for r in runs))
    rows = ["| option set | " + " | ".join(f"{c}: actions/s, p95 ms" for c in columns) + " |"]
    rows.append("|---|" + "---|" * len(columns))
    for name in dict.fromkeys(r["config"] for r in runs):
        cells = []
        for column in columns:
            found = [r for r in runs if r["config"] == name and f"{r['backend']} x{r['processes']}" == column]
            cells.append(f"{found[0]['actions_per_s']}, {found[0]['latency_ms'].get('p95')}" if found else "-")
        rows.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def human(run: dict[str, Any]) -> str:
    lat, split = run["latency_ms"], run["split_mean_ms"]
    gc_max = max((g["max_ms"] for g in run["gc_pauses_in_measured_window"].values()), default=0)
    return (
        f"[{run['config']}, {run.get('backend', 'sqlite')} x{run.get('processes', 1)}] {run['actions']} actions, "
        f"{run['games']} games, offered {run['offered_rate']}/s: "
        f"{run['actions_per_s']} actions/s; latency p50 {lat.get('p50')} p95 {lat.get('p95')} p99 {lat.get('p99')} "
        f"max {lat.get('max')} ms; mean split: " + ", ".join(f"{k} {v}" for k, v in split.items()) + " ms; "
        f"cpu per action: bot process {run['cpu_ms_per_action']} ms (event loop {run['event_loop_cpu_ms_per_action']}) "
        f"+ drawing {run.get('drawing_cpu_ms_per_action', '?')} = {run['cpu_ms_per_action_all']}; "
        f"timelapses {'on' if run.get('timelapses', True) else 'off'}, {run.get('timelapses_posted', '?')} posted; "
        f"longest gc pause {gc_max} ms; errors {run['error_count']}"
    )


if __name__ == "__main__":
    try:
        run_command(lambda: main() or 0)
    except Exception:
        traceback.print_exc()
        sys.stderr.flush()
        # A run that failed midway leaves the bot's threads (SQLite's, the drawing pipes' writers) running, and the
        # interpreter would wait for them for ever: --against waited on such a child with no end and no output.
        os._exit(2)
