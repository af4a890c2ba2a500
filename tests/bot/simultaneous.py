"""Interactions at the same moment in simcord: two people clicking one button, or a command typed while the bot is
still answering a click; and moves reaching the host at the same moment in a fixed interleaving
(``judged_on_one_version``).

simcord runs one actor operation at a time (``asyncio.gather`` over two clicks is refused as overlapping), so
``together`` holds its operation guard once and dispatches the interactions inside it: every interaction reaches the
bot before any is answered. This leans on two simcord internals (``Env._begin_operation`` and the verbs' undecorated
``__wrapped__``); keep any other use of them here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from simcord import ChannelHandle, MemberActor

from bot.app import BoardHost
from bot.storage import Games

Call = Callable[[], Awaitable[Any]]


def _unguarded(verb: Any) -> Any:
    """An actor verb without simcord's one-operation-at-a-time guard (``together`` holds it for the lot)."""
    return verb.__wrapped__


def click_call(user: MemberActor, message: Any, custom_id: str, value: str | None = None) -> Call:
    """A click on a button, or with ``value`` a choice in a select, to hand to ``together``."""
    if value is not None:
        return lambda: _unguarded(MemberActor.select)(user, message, [value], custom_id=custom_id)
    return lambda: _unguarded(MemberActor.click)(user, message, custom_id=custom_id)


def submit_call(user: MemberActor, shown: Any, values: dict[str, str]) -> Call:
    """A form (modal) that ``shown`` opened, filled in with ``values`` and sent, to hand to ``together``."""
    return lambda: _unguarded(MemberActor.submit_modal)(user, shown, values)


def slash_call(user: MemberActor, channel: ChannelHandle, name: str, **options: Any) -> Call:
    """A slash command to hand to ``together``."""
    return lambda: _unguarded(MemberActor.slash)(user, channel, name, **options)


def once_changed(bot: BoardHost, game_id: int, version: int, call: Call) -> Call:
    """``call`` as soon as the stored game has moved past ``version``, while the bot may still be answering the
    interaction that moved it: someone who learned of the change (from autocomplete, say) acting at once."""

    async def later() -> Any:
        for _ in range(2000):
            row = await bot.games.get(game_id)
            if row is not None and row.version > version:
                break
            await asyncio.sleep(0.001)
        return await call()

    return later


async def together(env: Any, calls: Sequence[Call]) -> list[Any]:
    """Dispatch several interactions at once: each reaches the bot before any is answered, and this returns their
    results when the bot has settled. simcord runs one actor operation at a time (``asyncio.gather`` over two verbs
    is refused as overlapping), so this holds its operation guard once for the lot."""
    env._begin_operation("together")
    try:
        return list(await asyncio.gather(*(call() for call in calls)))
    finally:
        env._end_operation()


async def judged_on_one_version(games: Games, moves: Sequence[Call]) -> list[Any]:
    """Run the host calls ``moves`` so that every one has read the game and judged its move before any is stored:
    each waits at its version-guarded write (``Games.record_action``) until all have reached theirs, then the writes
    go in the order of ``moves``, each after the one before has finished. A move that loses the race and is judged
    again writes straight through. Returns each move's outcome or the exception it raised."""
    original = games.record_action
    tasks: list[asyncio.Task[Any]] = []
    gates: dict[asyncio.Task[Any], asyncio.Event] = {}

    async def held(*args: Any, **kwargs: Any) -> Any:
        task = asyncio.current_task()
        if task in tasks and task not in gates:  # the move's first write; a retry finds its gate used
            gate = gates[task] = asyncio.Event()
            await gate.wait()
        return await original(*args, **kwargs)

    games.record_action = held  # type: ignore[method-assign]
    try:
        for move in moves:
            task = asyncio.ensure_future(move())
            tasks.append(task)
            for _ in range(5000):  # until it waits at its write, or was refused before writing
                if task in gates or task.done():
                    break
                await asyncio.sleep(0.001)
            else:
                raise AssertionError("a move never reached its write")
        for task in tasks:
            if task in gates:
                gates[task].set()
            await asyncio.wait([task])
        return list(await asyncio.gather(*tasks, return_exceptions=True))
    finally:
        del games.record_action  # the class's method again
