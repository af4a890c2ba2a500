"""Looking back through simulated Discord: /game replay and its buttons, "since your last turn" in /game status and
the turn DM, the timelapse after the final scores, for Carcassonne and Catan; and that a replay of a running game
shows nothing secret (no Catan hand or card, no order of the Carcassonne stack)."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from PIL import Image

import render
from bot.app import BoardHost
from bot.core.rendering import Job, Lane
from bot.storage import GameRow, UserSettings
from bot.text import t
from tests.bot.catan_driver import refreshed
from tests.bot.conftest import World, flat, reply
from tests.bot.test_discord_carcassonne import labels, place, start
from tests.bot.test_discord_catan import start as start_catan
from tests.render.helpers import turn_count

DECK = ["E", "U", "E", "B", "K"]  # alice, bob, alice, bob, alice


def dms(person: Any) -> list[Any]:
    channel = person.user.dm_channel
    return [] if channel is None else list(channel.history())


def spy(world: World, monkeypatch: pytest.MonkeyPatch) -> list[Job]:
    """Every picture the bot draws from now on, as its render job."""
    jobs: list[Job] = []
    draw = world.bot.renderer.png

    async def recording(job: Job, *, lane: Lane) -> bytes:
        jobs.append(job)
        return await draw(job, lane=lane)

    monkeypatch.setattr(world.bot.renderer, "png", recording)
    return jobs


async def turn(world: World, person: Any) -> str:
    """``person`` places the first offered cell in its first rotation and takes no follower: one whole turn.
    Returns what the turn message told once the tile was placed."""
    message = await place(world, person)
    told = str(message.content)
    if "No follower" in labels(message):
        await person.click(message, label="No follower")
    return told


async def drawn(world: World) -> None:
    """Wait for the timelapses being drawn in the background (the final scores were posted without waiting)."""
    await world.bot.outbox.drawn()
    await world.env.settle()


def button(message: Any, label: str) -> dict[str, Any]:
    return next(c for c in flat(message) if c["type"] == 2 and c.get("label") == label)


def select(message: Any) -> dict[str, Any]:
    return next(c for c in flat(message) if c["type"] == 3)


async def test_replay_moves_through_the_turns_with_the_narration_the_channel_saw(world: World) -> None:
    row = await start(world, DECK)
    told = []
    for person in (world.alice, world.bob):
        told.append(await turn(world, person))
    shown = reply(await world.carol.slash(world.channel, "game replay"))
    assert shown.ephemeral and shown.attachments and shown.attachments[0].filename.endswith(".png")
    assert shown.content.startswith("**Carcassonne**, Turn 3: alice · 3/3")
    assert t("replay.in_progress") in shown.content
    assert button(shown, "Next ▶").get("disabled") and button(shown, "Last ⏭").get("disabled")
    assert button(shown, "◀ Back")["custom_id"] == f"bh:rp:{row.id}:1:back"  # the game and the turn it leads to

    await world.carol.click(shown, label="◀ Back")
    back = refreshed(world, shown)
    assert back.content.startswith("**Carcassonne**, Turn 2: bob · 2/3")
    bob_line = next(line for line in back.content.splitlines() if line.startswith("bob placed a tile in "))
    assert bob_line in told[1], "the sentence the channel saw after bob's move"
    options = select(back)["options"]
    assert [o["label"] for o in options] == ["Turn 1 · alice", "Turn 2 · bob", "Turn 3 · alice"]
    assert [o.get("default", False) for o in options] == [False, True, False]

    await world.carol.select(back, ["0"], custom_id=select(back)["custom_id"])
    first = refreshed(world, shown)
    assert first.content.startswith("**Carcassonne**, Turn 1: alice · 1/3")
    assert "alice placed a tile in column 0, row -1, turned 180°." in first.content
    assert button(first, "⏮ First").get("disabled") and button(first, "◀ Back").get("disabled")
    assert first.attachments and first.attachments[0].filename == f"replay-{row.id}-1.png"
    assert "alice (orange, marked A): 0 points" in first.attachments[0].description, "the picture in words"


async def test_replay_of_a_turn_by_number_and_a_turn_the_game_does_not_have(world: World) -> None:
    await start(world, DECK)
    await turn(world, world.alice)
    second = reply(await world.bob.slash(world.channel, "game replay", turn=1))
    assert second.content.startswith("**Carcassonne**, Turn 1: alice · 1/2")
    missing = reply(await world.bob.slash(world.channel, "game replay", turn=9))
    assert missing.ephemeral and missing.content == "This game has no turn 9: its turns run from 1 to 2."
    nowhere = reply(await world.bob.slash(world.channel.guild.create_text_channel("empty"), "game replay"))
    assert nowhere.ephemeral and "no game in this channel" in nowhere.content


async def test_replay_buttons_work_after_a_restart(world: World) -> None:
    await start(world, DECK)
    await turn(world, world.alice)
    shown = reply(await world.carol.slash(world.channel, "game replay"))
    fresh = BoardHost(world.bot.config)
    await world.env.restart_bot(fresh)
    await fresh.wait_until_ready()
    await world.carol.click(shown, label="⏮ First")
    assert refreshed(world, shown).content.startswith("**Carcassonne**, Turn 1: alice · 1/2")


async def test_replay_in_the_readers_language(world: World) -> None:
    """simcord's interactions all come in en-US, so the page is built here as the reply to a Russian reader is."""
    from bot.flows import replay
    from bot.text.i18n import speaking

    row = await start(world, DECK)
    await turn(world, world.alice)
    with speaking("ru"):
        page = await replay.load(world.bot, await world.bot.rows.row(row.id), 0)
        text = replay.text_of(world.bot, page)
        labels_shown = [getattr(item.item, "label", None) for item in replay.controls(page).children]
    assert text.startswith("**Каркассон** · Ход 1: alice · 1/2")
    assert "alice выкладывает квадрат в столбце 0, строке -1" in text  # the narration too
    assert "Далее ▶" in labels_shown and "⏮ Начало" in labels_shown


async def test_a_replay_of_a_running_carcassonne_game_does_not_reveal_the_stack(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    await start(world, DECK)
    await turn(world, world.alice)
    await turn(world, world.bob)
    jobs = spy(world, monkeypatch)
    shown = reply(await world.carol.slash(world.channel, "game replay"))
    for label in ("◀ Back", "◀ Back", "Last ⏭"):
        await world.carol.click(refreshed(world, shown), label=label)
    views = [job.args[0] for job in jobs]
    assert len(views) == 4 and {job.function for job in jobs} == {render.board_png}
    drawn_so_far = {"E", "U"} | {"E"}  # alice's and bob's tiles, and alice's tile of turn 3, shown when it began
    for view in views:
        assert view["viewer"] is None and view["options"]["deck"] is None
        assert view["drawn"] in drawn_so_far
        assert {tile["tile"] for tile in view["tiles"]} <= {"D", "E", "U"}
        assert view["tiles_left"] == len(DECK) - len(view["tiles"]) + 1 - (0 if view["drawn"] else 1)
    future = {"B", "K"}
    assert not any(f"tile {tile} " in refreshed(world, shown).content for tile in future)


async def test_since_your_last_turn_in_status_and_in_the_turn_dm(world: World) -> None:
    await UserSettings(world.bot.db).set_dm_on_turn(world.bob.id, True)
    await start(world, DECK)
    await turn(world, world.alice)
    await world.env.settle()
    [dm] = dms(world.bob)
    assert "It is your turn in Carcassonne" in dm.content
    assert "\n\nSince the game began\n" in dm.content and "alice placed a tile in column 0, row -1" in dm.content
    assert dm.attachments and dm.attachments[0].filename == "since.png"
    assert dm.attachments[0].description.startswith("The 1 tile placed since your last turn is outlined in white")

    await turn(world, world.bob)
    status = reply(await world.alice.slash(world.channel, "game status"))
    assert status.ephemeral and len(status.embeds) == 2
    missed = status.embeds[1]
    assert missed.title == "Since your last turn"
    assert missed.description.startswith("**Turn 2**, bob: bob placed a tile in ")
    assert "alice placed" not in missed.description, "her own move is not news to her"
    assert missed.image.url == "attachment://since.png" and status.attachments[0].filename == "since.png"
    assert "It is alice's turn." in status.attachments[0].description
    picture = Image.open(io.BytesIO(await status.attachments[0].read()))
    assert max(picture.size) <= 1024

    others = reply(await world.carol.slash(world.channel, "game status"))
    assert len(others.embeds) == 1, "only the player on turn is told what they missed"


async def test_the_timelapse_follows_the_final_scores(world: World) -> None:
    row = await start(world, DECK[:3])
    for person in (world.alice, world.bob, world.alice):
        await turn(world, person)
    row = await world.bot.rows.row(row.id)
    assert row.status == "finished" and row.message_id is not None
    final = world.env.backend.get_message(world.channel.id, row.message_id)
    assert "Game over!" in final.content and final.attachments, "the scores come first"
    await drawn(world)
    follow = world.channel.last_message
    assert follow.id > final.id and follow.content == "The whole Carcassonne game, turn by turn (3 turns)."
    [file] = follow.attachments
    assert file.filename in (f"carcassonne-{row.id}-timelapse.webp", f"carcassonne-{row.id}-timelapse.gif")
    assert file.description.startswith("An animation of the whole Carcassonne game, 3 turns:")
    data = await file.read()
    assert turn_count(data) == 4 and len(data) < 4 * 1024 * 1024

    looked = reply(await world.carol.slash(world.channel, "game replay"))  # the channel's last game, finished
    assert looked.content.startswith("**Carcassonne**, Turn 3: alice · 3/3") and "Game over" not in looked.content

    await world.alice.slash(world.channel, "carcassonne new")  # a new lobby in the channel: nothing to look back at
    looked = reply(await world.carol.slash(world.channel, "game replay"))
    assert looked.content.startswith("**Carcassonne**, Turn 3: alice · 3/3"), "the finished game, not the new lobby"


# -- Catan -------------------------------------------------------------------------------------------------------


async def play_catan(world: World, row: GameRow, moves: int, seed: int) -> GameRow:
    """``moves`` random legal actions through the host, each announced like a click's."""
    rng = random.Random(seed)
    for _ in range(moves):
        row = await world.bot.rows.row(row.id)
        game = world.bot.rows.game(row)
        if game.finished:
            break
        action = game.random_action(rng)
        user = row.seats[action["player"]].user_id
        await world.bot.outbox.deliver(await world.bot.play.act(row.id, row.version, user, action))
    return await world.bot.rows.row(row.id)


async def test_a_replay_of_a_running_catan_game_shows_no_hand_or_card(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    row = await start_catan(world)
    row = await play_catan(world, row, 160, seed=4)
    log = await world.bot.games.actions(row.id)
    assert any(a["type"] == "robber" and a.get("stolen") for a in log), "a card was stolen in this game"
    assert any(a["type"] == "buy" for a in log), "a development card was bought"
    jobs = spy(world, monkeypatch)
    shown = reply(await world.carol.slash(world.channel, "game replay"))
    texts = [shown.content]
    while not button(refreshed(world, shown), "◀ Back").get("disabled"):  # every turn, back to the first
        await world.carol.click(refreshed(world, shown), label="◀ Back")
        texts.append(refreshed(world, shown).content)
    assert len(texts) == len(jobs) > 20
    for job in jobs:
        view = job.args[0]
        assert job.function is render.board_png and view["viewer"] is None
        for player in view["players"]:
            assert not {"hand", "development", "victory_points", "bought_this_turn", "trade_rates"} & set(player)
    resources = ("brick", "lumber", "wool", "grain", "ore")
    stolen_lines = [line for text in texts for line in text.splitlines() if " stole " in line]
    assert stolen_lines and all(not any(r in line for r in resources) for line in stolen_lines)
    bought = [line for text in texts for line in text.splitlines() if "bought a development card" in line]
    assert bought and all(line.endswith("bought a development card.") for line in bought), "never which card"


async def test_catan_replay_names_set_up_placements_and_turns(world: World) -> None:
    row = await start_catan(world)
    await play_catan(world, row, 14, seed=2)  # the six set-up placements, then a little of turn 1
    shown = reply(await world.bob.slash(world.channel, "game replay", turn=0))
    assert shown.content.startswith("**Catan**, Set-up placement 1: alice · 1/")
    await world.bob.click(shown, label="+10")
    assert ", Turn " in refreshed(world, shown).content.splitlines()[0]


async def test_catan_since_your_last_turn_and_the_timelapse_at_the_end(world: World) -> None:
    row = await start_catan(world, points_to_win=3)
    row = await play_catan(world, row, 8, seed=5)  # alice's, bob's and carol's first placements, alice's second
    game = world.bot.rows.game(row)
    seat = game.current_seat()
    assert seat is not None
    person = next(p for p in (world.alice, world.bob, world.carol) if p.id == row.seats[seat].user_id)
    status = reply(await person.slash(world.channel, "game status"))
    missed = status.embeds[1]
    assert missed.title in ("Since your last turn", "Since the game began")
    assert "Set-up placement" in missed.description and status.attachments[0].filename == "since.png"

    row = await play_catan(world, row, 2000, seed=6)
    assert row.status == "finished"
    assert row.message_id is not None
    await drawn(world)
    follow = world.channel.last_message
    assert follow.id > row.message_id and follow.content.startswith("The whole Catan game, turn by turn")
    [file] = follow.attachments
    assert file.filename.startswith(f"catan-{row.id}-timelapse.")
    assert turn_count(await file.read()) >= 7


async def test_a_catan_replay_of_a_seven_still_names_who_had_to_discard(world: World) -> None:
    """The seven's "who must discard" is told from the turn's kept events, after everyone has discarded."""
    row = await start_catan(world)
    rng = random.Random(3)
    discards: list[tuple[int, int]] = []  # (seat, cards) of the first seven with discards
    seven_turn = None
    for _ in range(3000):
        game = world.bot.rows.game(row)
        if seven_turn is not None and game.progress()[0] > seven_turn:
            break  # that turn is over: the discards were all made
        action = game.random_action(rng)
        user = row.seats[action["player"]].user_id
        await world.bot.outbox.deliver(await world.bot.play.act(row.id, row.version, user, action))
        if action["type"] == "discard" and (seven_turn is None or seven_turn == game.progress()[0]):
            seven_turn = game.progress()[0]
            discards.append((action["player"], sum(action["cards"].values())))
        row = await world.bot.rows.row(row.id)
    assert seven_turn is not None and discards, "a seven made someone discard"
    shown = reply(await world.carol.slash(world.channel, "game replay", turn=seven_turn))
    [seven] = [line for line in shown.content.splitlines() if line.startswith("Seven! Discarding:")]
    for seat, count in discards:
        assert f"{row.seats[seat].name} ({count} cards)" in seven
