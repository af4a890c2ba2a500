"""The error funnel: a bug in one button or one game is an incident for that click or that game, nothing more.

A callback that raises answers the user with a translated "something went wrong, nothing was changed (incident
XXXX)" and logs the same id; a corrupt game in the database does not stop the reminders and computer players of the
other games.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.app import BoardHost
from bot.core.config import Config
from bot.core.funnel import each_game
from bot.flows.game_commands import show_lobby
from bot.storage import GameRow
from bot.text import t
from bot.text.i18n import speaking
from tests.bot.conftest import World, reply
from tests.bot.test_discord_carcassonne import DECK, place, start

HOUR = 3600
RANDOM = "Add computer (random)"


def speak(world: World, locale: str) -> None:
    """Every interaction from now on comes from a Discord client set to ``locale`` (simcord sends en-US)."""
    parsers = world.bot._connection.parsers
    parse = parsers["INTERACTION_CREATE"]

    def in_locale(data: Any) -> None:
        parse({**data, "locale": locale})

    parsers["INTERACTION_CREATE"] = in_locale


async def test_a_button_that_fails_tells_the_clicker_an_incident_in_their_language(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from bot.carcassonne import handlers
    from bot.core.clicks import Click, Op

    async def broken(click: Click) -> None:
        raise KeyError("broken")  # a bug

    row = await start(world, DECK)
    message = await place(world, world.alice)  # alice's follower decision: the turn message has No follower
    monkeypatch.setitem(handlers.TABLE.ops, "pass", Op(broken, answer="public"))
    before = (await world.bot.games.get(row.id) or row).version
    speak(world, "ru")
    with caplog.at_level(logging.ERROR, logger="boardhost.funnel"):
        result = await world.alice.click(message, label="No follower")
    answer = reply(result)
    ident = re.search(r"\b[0-9A-F]{4}\b", answer.content)
    assert answer.ephemeral and ident is not None, answer.content
    with speaking("ru"):
        assert answer.content == t("error.incident", incident=ident[0])
    assert "ничего не изменилось" in answer.content
    [record] = [r for r in caplog.records if r.name == "boardhost.funnel"]
    assert ident[0] in record.getMessage() and f"game {row.id}" in record.getMessage()
    assert record.exc_info is not None and record.exc_info[0] is KeyError
    assert (await world.bot.games.get(row.id) or row).version == before
    assert len(await world.bot.games.actions(row.id)) == 1, "nothing was changed: only alice's tile is logged"


async def test_a_slash_command_that_fails_tells_an_incident_too(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the stats query broke")

    monkeypatch.setattr(world.bot.records, "stats", broken)
    with caplog.at_level(logging.ERROR, logger="boardhost.funnel"):
        answer = reply(await world.alice.slash(world.channel, "stats"))
    assert answer.ephemeral and "something went wrong" in answer.content.lower() and "incident" in answer.content
    assert any("stats" in r.getMessage() for r in caplog.records if r.name == "boardhost.funnel")


async def test_a_turn_message_discord_refuses_is_logged_and_the_move_stays_made(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from bot.carcassonne import flows

    row = await start(world, DECK)
    message = await place(world, world.alice)  # alice's follower decision: the turn message has No follower

    def refused(*args: Any, **kwargs: Any) -> Any:  # Discord refuses the turn message (lost permissions), here
        # raised from the first step of posting it
        raise discord.Forbidden(SimpleNamespace(status=403, reason="Forbidden"), {"code": 50013, "message": "no"})

    monkeypatch.setattr(flows, "turn_text", refused)
    with caplog.at_level(logging.INFO):
        result = await world.alice.click(message, label="No follower")
    assert not any("incident" in r.getMessage() for r in caplog.records), "Discord said no: not a bug"
    answer = reply(result)
    assert answer is None or "incident" not in str(getattr(answer, "content", "")), answer
    logged = [r.getMessage() for r in caplog.records if r.name == "boardhost.outbox"]
    assert f"game {row.id} waits: permissions:send_messages (HTTP 403, code 50013: no)" in logged
    assert len(await world.bot.games.actions(row.id)) == 2, "alice's tile and her follower choice are stored"
    assert await world.bot.records.owed.count() == 1, "and the turn message stays owed until Discord takes it"


@pytest.fixture
def simcord_bot(tmp_path: Path) -> BoardHost:
    """Computer players move without a pause; reminders after 12 and 24 hours, swept every half hour."""
    config = Config(
        database=tmp_path / "bot.sqlite3",
        reminder_check=1800,
        computer_pause=0,
        computer_offer_wait=0,
        render_processes=0,
    )
    return BoardHost(config, rng=random.Random(1))


async def open_game(world: World, channel: Any, *, computer: bool) -> GameRow:
    """A Carcassonne game in ``channel``: alice against bob, or against a random computer that moves first."""
    await world.alice.slash(channel, "carcassonne new", river=False)
    if computer:
        await world.alice.click(channel.last_message, label=RANDOM)
    else:
        await world.bob.click(channel.last_message, label="Join")
    row = await world.bot.games.open_in_channel(channel.id)
    assert row is not None
    await world.bot.games.update(row.id, row.version, options={**row.options, "first_player": 1 if computer else 0})
    lobby = await world.bot.games.open_in_channel(channel.id)
    assert lobby is not None
    await show_lobby(world.bot, lobby)
    await world.alice.click(channel.last_message, label="Start")
    row = await world.bot.games.open_in_channel(channel.id)
    assert row is not None and row.status == "active"
    return row


async def test_a_corrupt_game_does_not_stop_the_other_games_reminders_and_computer_moves(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    guild = world.channel.guild
    broken_state, broken_seats, people, computer = (guild.create_text_channel(n) for n in ("a", "b", "c", "d"))
    # The broken games come first: every sweep that reads them meets them before the healthy ones.
    bad = await open_game(world, broken_state, computer=False)
    worse = await open_game(world, broken_seats, computer=False)
    await open_game(world, people, computer=False)
    await world.bot.remove_cog("Computers")  # the bot goes down before the computer player could move
    waiting = await open_game(world, computer, computer=True)
    assert await world.bot.games.actions(waiting.id) == []
    await world.bot.db.execute('UPDATE games SET state = \'{"schema": 1, "tiles": [\' WHERE id = ?', (bad.id,))
    await world.bot.db.execute("UPDATE games SET seats = 'not json' WHERE id = ?", (worse.id,))

    with caplog.at_level(logging.ERROR):
        fresh = BoardHost(world.bot.config)
        await world.env.restart_bot(fresh)  # the computers' sweep at start-up resumes the computer's game
        await fresh.wait_until_ready()
        await world.env.settle()
        assert "Computer 1 (random) placed a tile" in "\n".join(m.content or "" for m in computer.history())
        assert {a["player"] for a in await fresh.games.actions(waiting.id)} == {1}

        await world.env.advance_time(13 * HOUR)  # the first reminder is due everywhere
        reminded = people.last_message
        assert f"<@{world.alice.id}>" in reminded.content and "waiting for you" in reminded.content
        await world.env.advance_time(12 * HOUR)  # and the second: the sweep is still running
        assert people.last_message.id != reminded.id and "waiting for you" in people.last_message.content
    assert not any("waiting for you" in (m.content or "") for m in broken_state.history())
    logged = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert any(f"game {bad.id}" in m for m in logged), logged
    assert any(f"game {worse.id}: stored row cannot be read" in m for m in logged), logged


async def test_a_sweep_over_many_games_lets_a_click_in_between_two_games() -> None:
    """A game's work in a sweep that awaits nothing (a look at its state) must not hold the event loop for the whole
    sweep: a click that arrives meanwhile is read before the next game's turn, not after the last."""
    order: list[str] = []

    async def look(game: int) -> None:
        order.append(f"game {game}")
        if game == 0:
            asyncio.get_running_loop().call_soon(order.append, "click")

    await each_game(range(3), "a look", look)

    assert order == ["game 0", "click", "game 1", "game 2"]
