"""How many of the project's files a Catan trade offer crosses, from the click on Trade to the offer in the channel:
a measure of the bot's shape (one click protocol, one act path), kept from growing back.

Counted twice: every file whose code runs from the click on Trade until the form's submit has been handled (the offer
posted, and what the posted change sets off), and of those the files run before the request that posts the offer
leaves (the path to the channel itself). Run with ``-s`` to see the files. The README's design notes give the figures
before and after the click protocol (this same test, run on each tree).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

import discord
import pytest

from bot.storage import GameRow
from bot.storage.games import Games
from tests.bot.conftest import World, flat, reply
from tests.bot.test_discord_catan import rolled, start, turn

ROOT = Path(__file__).resolve().parent.parent.parent
PACKAGES = ("bot", "engine", "render")
BOT_FILES_AT_MOST = 40  # 37 before the click protocol (with the outbox), 34 after it; +2 for time away (a computer
# stands in for an away player the moment a posted turn waits for them: bot/cogs/away_sweep.py, bot/flows/away.py);
# +4 when the host's one class became a service per concern: bot/host/service.py is now rows, play, records,
# personal (closed DMs) and outcome; +1 when a bot's languages became its own value (bot/text/languages.py); -1 when
# whether a change is the game's last became the outcome's own (``Outcome.final``, not bot/flows/post_timelapse.py)
BOT_FILES_TO_CHANNEL_AT_MOST = 27  # of those, run before the request that posts the offer leaves (2026-11-28)


@contextmanager
def files_run(seen: set[str]) -> Iterator[None]:
    """Every file of bot/, engine/ and render/ whose code runs inside the block (this thread: the event loop)."""

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            seen.add(frame.f_code.co_filename)

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        yield
    finally:
        sys.setprofile(previous)


def ours(seen: set[str]) -> list[str]:
    found = []
    for name in seen:
        path = Path(name)
        if path.is_relative_to(ROOT) and path.relative_to(ROOT).parts[0] in PACKAGES:
            found.append(str(path.relative_to(ROOT)))
    return sorted(found)


async def test_a_trade_offer_crosses_few_files_from_the_click_to_the_channel(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    row = await start(world, setup="beginner")

    await rolled(world, row, alice=[3, 0, 0, 0, 0], bob=[0, 0, 0, 0, 2], carol=[0, 0, 0, 0, 1])
    shown = await turn(world)
    seen: set[str] = set()
    reads: list[int] = []
    get = Games.get

    async def counted(games: Games, game_id: int) -> GameRow | None:
        reads.append(game_id)
        return await get(games, game_id)

    # What had run when the request that posts the offer left: the path to the channel itself. The rest is what the
    # posted change sets off (the offer's message remembered, the delivery recorded, the listeners of a posted turn:
    # turn DMs, presence, the away clock, computer players).
    to_channel: list[set[str]] = []  # the files run so far, taken once
    http = type(world.bot.http)  # the simulated Discord's own client
    request = http.request

    async def noted(client: discord.http.HTTPClient, route: discord.http.Route, **kwargs: Any) -> Any:
        if not to_channel and ":acc:" in repr(kwargs.get("json") or kwargs.get("form")):
            to_channel.append(set(seen))
        return await request(client, route, **kwargs)

    monkeypatch.setattr(http, "request", noted)
    with files_run(seen):
        menu = reply(await world.alice.click(shown, label="Trade"))
        form = await world.alice.click(menu, label="Offer to everyone")
        monkeypatch.setattr(Games, "get", counted)
        await world.alice.submit_modal(form, {"give": "1 brick", "get": "1 ore"})
    # The form's submit reads the game's row twice: to act on it (the move is not bound to a version), and to find
    # the turn message to bring up to date (another move may have followed).
    assert len(reads) <= 2, reads
    made = [m for m in world.channel.history() if any(":acc:" in str(c.get("custom_id")) for c in flat(m))]
    assert made, "no public offer message"
    files = ours(seen)
    bot_files = [f for f in files if f.startswith("bot/")]
    print(f"\n{len(bot_files)} bot files, {len(files)} in all:\n  " + "\n  ".join(files))
    assert len(bot_files) <= BOT_FILES_AT_MOST, bot_files
    assert to_channel, "no request posted the offer"
    before_post = ours(to_channel[0])
    bot_before_post = [f for f in before_post if f.startswith("bot/")]
    listed = "\n  ".join(before_post)
    print(f"up to the post: {len(bot_before_post)} bot files, {len(before_post)} in all:\n  {listed}")
    assert len(bot_before_post) <= BOT_FILES_TO_CHANNEL_AT_MOST, bot_before_post
