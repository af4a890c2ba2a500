"""The end of a game through simulated Discord: its rating (before any message, once whatever the retries), then
its story (one picture and a few sentences, in the game's language, after the final scores and before the
timelapse), and ``/stats`` with its leaderboard and a player's card with their rating chart."""

from __future__ import annotations

import logging
import random
from typing import Any

import pytest

from bot.core.rendering import RenderError
from bot.flows import game_story
from bot.host.skill import Player
from bot.storage import GameRow
from bot.text import t
from bot.text.i18n import speaking
from tests.bot.conftest import World, reply
from tests.bot.test_discord_carcassonne import DECK, labels, place, start


async def play_to_the_end(world: World, deck: list[str] = DECK) -> GameRow:
    """alice and bob play the short game to its end: a tile each turn, and alice's first completes a city with her
    knight on it (4 points: she wins)."""
    row = await start(world, deck)
    players = {0: world.alice, 1: world.bob}
    for turn in range(len(deck)):
        user = players[turn % 2]
        message = await place(world, user)
        choice = "city (south)" if turn == 0 else "No follower"
        if choice in labels(message):
            await user.click(message, label=choice)
    await world.bot.outbox.drawn()  # the timelapse, drawn in the background
    await world.env.settle()
    return await world.bot.rows.row(row.id)


def story_of(world: World, row: GameRow) -> Any:
    found = [m for m in world.channel.history() if any(a.filename == game_story.filename(row) for a in m.attachments)]
    assert len(found) == 1, f"{len(found)} story messages"
    return found[0]


async def test_a_finished_game_is_rated_and_its_story_follows_the_final_scores(world: World) -> None:
    row = await play_to_the_end(world)
    assert row.status == "finished"
    history = world.channel.history()
    final = next(i for i, m in enumerate(history) if m.id == row.message_id)
    story = story_of(world, row)
    after = [m.id for m in history[final + 1 :]]
    assert after.index(story.id) == 0, "the story comes right after the final scores"
    assert any(a.filename.startswith(f"carcassonne-{row.id}-timelapse") for a in history[final + 2].attachments)

    lines = story.content.splitlines()
    assert lines[0] == "**Carcassonne: the story of the game**"
    assert lines[1:-1] == [
        "alice led after 3 of the 3 turns.",
        "alice took the lead for good on turn 1.",
        "The biggest scoring of the game: a city worth 4 points to alice.",
    ]
    assert lines[-1].startswith("Ratings after this game: alice ") and "bob " in lines[-1]
    alt = story.attachments[0].description
    assert alt.startswith("Carcassonne: the story of the game in charts. ")
    assert "alice (orange, marked A): " in alt and "Scores after turn " in alt

    changes = await world.bot.records.standings.of_game(row.id)
    assert sorted(c.placing.player for c in changes) == [Player(world.alice.id), Player(world.bob.id)]
    assert await world.bot.records.rate(row.id) is False, "rated once, by the game's end"
    assert await world.bot.records.owed.count() == 0 and not world.env.errors


async def test_stats_shows_the_leaderboard_and_a_players_card_with_the_rating_chart(world: World) -> None:
    assert "No finished games" in reply(await world.carol.slash(world.channel, "stats")).content
    row = await play_to_the_end(world)
    assert row.winners == [world.alice.id]
    winner = world.alice
    shown = reply(await world.carol.slash(world.channel, "stats"))
    embed = shown.embeds[0]
    assert embed.title == "Games and ratings in this server"
    assert embed.description.splitlines()[0] == "1 finished game"
    (field,) = embed.fields
    assert field.name == "Carcassonne: the best players"
    first, second = field.value.splitlines()
    assert first.startswith(f"1. <@{winner.id}> — ") and first.endswith("· 1 game · 1 win · winning streak 1")
    assert second.startswith("2. <@") and second.endswith("· 1 game · 0 wins · winning streak 0")

    card = reply(await world.carol.slash(world.channel, "stats", player=winner))
    rating = first.split(" — ")[1].split(" · ")[0]  # as the leaderboard shows it
    assert card.embeds[0].title == f"{winner.name}: ratings in this server"
    assert card.embeds[0].description.startswith("**Carcassonne**: rating ")
    assert f"rating {rating}, place 1 of 2 · 1 game · 1 win · winning streak 1" in card.embeds[0].description
    (chart,) = card.attachments
    assert chart.filename == "ratings.png" and card.embeds[0].image.url == "attachment://ratings.png"
    chart_title = f"{winner.name}: rating after each game"
    assert chart.description == f"A line chart: {chart_title}. Carcassonne: one game, the rating {rating}."
    nobody = reply(await world.carol.slash(world.channel, "stats", player=world.carol))
    assert nobody.content == "carol has no rated game in this server yet."


async def test_the_story_is_told_in_the_games_language(world: World) -> None:
    row = await start(world, DECK)
    await world.alice.slash(world.channel, "game language", language="ru")
    players = {0: world.alice, 1: world.bob}
    with speaking("ru"):
        no_follower = t("carcassonne.no_follower")
    shown = await world.bot.rows.stored(row.id)
    assert shown is not None and shown.message_id is not None
    turn_message = next(m for m in world.channel.history() if m.id == shown.message_id)  # above the language's answer
    for turn in range(len(DECK)):
        message = await place(world, players[turn % 2], message=turn_message if turn == 0 else None)
        if no_follower in labels(message):  # the buttons speak Russian now
            await players[turn % 2].click(message, label=no_follower)
    await world.bot.outbox.drawn()
    story = story_of(world, row)
    assert story.content.startswith("**История партии «Каркассон»**")
    assert story.attachments[0].description.startswith("История партии «Каркассон» в графиках.")


async def test_a_story_that_could_not_be_drawn_is_posted_once_later_and_the_game_rated_once(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    tries: list[int] = []
    post = game_story.post

    async def failing_once(*args: Any, **kwargs: Any) -> Any:
        tries.append(1)
        if len(tries) == 1:
            raise RenderError("drawing process 1234 exited (code -9)")  # a passing failure: tried again
        return await post(*args, **kwargs)

    monkeypatch.setattr(game_story, "post", failing_once)
    with caplog.at_level(logging.WARNING, logger="boardhost.outbox"):
        row = await play_to_the_end(world)
        await world.env.advance_time(10)  # the retry's back-off
        await world.bot.outbox.drawn()
        await world.env.settle()
    assert any("not delivered yet" in r.getMessage() for r in caplog.records), "the story stayed owed"
    story_of(world, row)
    assert len(tries) == 2 and await world.bot.records.owed.count() == 0
    assert len(await world.bot.records.standings.of_game(row.id)) == 2, "rated once, not again with the retry"


async def test_a_game_that_ended_while_no_process_delivered_is_rated_and_told_once_on_resume(world: World) -> None:
    row = await start(world, DECK)
    rng = random.Random(3)
    while row.status == "active":  # every move stored, none posted: the process died after each write
        game = world.bot.rows.game(row)
        action = game.random_action(rng)
        row = (await world.bot.play.act(row.id, row.version, row.seats[action["player"]].user_id, action)).row
    assert await world.bot.records.standings.of_game(row.id) == []
    await world.bot.outbox.resume(everything=True)  # the next process's first sweep
    await world.bot.outbox.drawn()
    await world.env.settle()
    story_of(world, row)
    assert len(await world.bot.records.standings.of_game(row.id)) == 2
    await world.bot.outbox.resume(everything=True)
    await world.env.settle()
    story_of(world, row)  # still one
