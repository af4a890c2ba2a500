"""The Carcassonne turn flow through the real discord.py client against a simulated Discord (simcord)."""

from __future__ import annotations

from typing import Any

from bot.app import BoardHost
from bot.cogs.carcassonne import CarcassonneCog, turn_view
from bot.components import LABEL, PAGE
from bot.narrate import fit
from bot.storage import GameRow
from tests.bot.conftest import World, reply

# With river off and this deck, alice's first tile E at (0, -1) turned 180° closes the start tile's city.
DECK = ["E", "U", "E"]


async def start(world: World, deck: list[str] | None = None, **options: Any) -> GameRow:
    """alice and bob at a table; the deck fixed in the stored options, alice first; the first turn posted."""
    await world.alice.slash(world.channel, "carcassonne new", river=False, **options)
    await world.bob.click(world.channel.last_message, label="Join")
    row = await world.bot.games.open_in_channel(world.channel.id)
    assert row is not None
    extra: dict[str, Any] = {"first_player": 0}
    if deck is not None:
        extra["deck"] = deck
    row = await world.bot.games.update(row.id, row.version, options={**row.options, **extra})
    outcome = await world.bot.service.start(row.id, row.version, world.alice.id)
    cog = world.bot.get_cog("CarcassonneCog")
    assert isinstance(cog, CarcassonneCog)
    await cog.on_game_started(outcome.row, outcome)  # what the lobby's Start dispatches
    return outcome.row


def flat(message: Any) -> list[dict[str, Any]]:
    """Components of a channel message (discord.Message) or a follow-up (raw payload) as dicts."""
    found: list[dict[str, Any]] = []
    for row in message.components:
        children = row["components"] if isinstance(row, dict) else [c.to_dict() for c in row.children]
        found += children
    return found


def select_id(message: Any, op: str) -> str:
    ids = [c["custom_id"] for c in flat(message) if c["type"] == 3 and f":{op}" in c["custom_id"]]
    assert ids, f"no {op} select on {message}"
    return str(ids[0])


def reply_message(world: World, shown: Any) -> Any:
    """The current state of an ephemeral follow-up."""
    return world.env.backend.get_message(shown.channel_id, shown.id)


def labels(message: Any) -> list[str]:
    return [str(c.get("label")) for c in flat(message) if c["type"] == 2]


async def place(world: World, user: Any, option: int = 0, rotation: int = 0) -> Any:
    """Choose the option'th cell of the turn message, then the rotation'th rotation button."""
    message = world.channel.last_message
    cell_id = select_id(message, "cell")
    values = next(c for c in flat(message) if c.get("custom_id") == cell_id)["options"]
    picked = reply(await user.select(message, [values[option]["value"]], custom_id=cell_id))
    assert picked.ephemeral and "choose a rotation" in picked.content
    buttons = [c for c in flat(picked) if c["type"] == 2]
    await user.click(picked, custom_id=buttons[rotation]["custom_id"])
    return world.channel.last_message


async def test_the_lobby_start_posts_the_first_turn(world: World) -> None:
    await world.alice.slash(world.channel, "carcassonne new", river=False)
    await world.bob.click(world.channel.last_message, label="Join")
    await world.alice.click(world.channel.last_message, label="Start")
    first = world.channel.last_message
    assert "Carcassonne begins" in first.content and "place tile" in first.content
    assert first.attachments and select_id(first, "cell")
    row = await world.bot.games.open_in_channel(world.channel.id)
    assert row is not None and row.message_id == first.id


async def test_a_short_game_to_the_end_image(world: World) -> None:
    started = await start(world, DECK)
    first = world.channel.last_message
    assert "Carcassonne begins" in first.content
    assert f"<@{world.alice.id}>" in first.content and "place tile **E**" in first.content
    assert first.attachments and first.attachments[0].filename.endswith(".png")
    players = {0: world.alice, 1: world.bob}
    for turn in range(3):
        user = players[turn % 2]
        message = await place(world, user)
        assert "placed tile" in message.content and message.attachments
        assert "No follower" in labels(message)
        await user.click(message, label="No follower")
    end = world.channel.last_message
    assert "Game over!" in end.content and end.attachments and not end.components
    row = await world.bot.games.get(started.id)
    assert row is not None and row.status == "finished" and row.message_id == end.id
    assert not world.env.errors


async def test_follower_placement_and_scoring_are_narrated(world: World) -> None:
    await start(world, DECK)
    message = await place(world, world.alice, option=0)  # cell 1 is (0, -1): only 180° fits
    assert "(0, -1), turned 180°" in message.content
    assert f"<@{world.alice.id}>, put a follower" in message.content
    assert "city:S" in labels(message)
    await world.alice.click(message, label="city:S")
    after = world.channel.last_message
    assert "alice put a knight on city:S at (0, -1)." in after.content
    assert "The city at (0, -1), (0, 0) was completed: 4 points to alice (2 tiles)." in after.content
    assert "went back to the supply" in after.content
    assert "alice 4 · bob 0" in after.content and f"<@{world.bob.id}>" in after.content


async def test_wrong_user_and_stale_clicks_are_refused(world: World) -> None:
    row = await start(world, DECK)
    message = world.channel.last_message
    cell_id = select_id(message, "cell")
    refused = reply(await world.bob.select(message, ["0,-1"], custom_id=cell_id))
    assert refused.ephemeral and "not your turn" in refused.content
    outsider = reply(await world.carol.select(message, ["0,-1"], custom_id=cell_id))
    assert outsider.ephemeral and "not playing" in outsider.content
    picked = reply(await world.alice.select(message, ["0,-1"], custom_id=cell_id))
    twice = reply(await world.alice.select(message, ["0,-1"], custom_id=cell_id))  # a second private copy
    rotation_id = next(c["custom_id"] for c in flat(picked) if c["type"] == 2)
    await world.alice.click(picked, custom_id=rotation_id)
    assert not flat(reply_message(world, picked))  # the used rotation buttons are retired
    moved = await world.bot.games.get(row.id)
    assert moved is not None
    # the same rotation again from the other copy: stale, nothing changes; the old turn message lost its select
    again = reply(await world.alice.click(twice, custom_id=rotation_id))
    assert again.ephemeral and "out of date" in again.content
    assert not flat(world.env.backend.get_message(message.channel.id, message.id))
    same = await world.bot.games.get(row.id)
    assert same is not None and same.version == moved.version and same.state == moved.state
    # a follower click by bob on alice's follower decision
    current = world.channel.last_message
    other = reply(await world.bob.click(current, label="No follower"))
    assert other.ephemeral and "not your turn" in other.content


async def test_place_command_with_autocomplete(world: World) -> None:
    await start(world, DECK)
    cells = await world.alice.autocomplete(world.channel, "place", "cell", "")
    assert [c["value"] for c in cells] == ["0,-1", "0,1"]
    assert cells[0]["name"] == "1 · (0, -1)"
    rotations = await world.alice.autocomplete(world.channel, "place", "rotation", "", cell="0,1")
    assert [c["value"] for c in rotations] == [90, 180, 270]
    bad = reply(await world.alice.slash(world.channel, "place", cell="0,-1", rotation=0))
    assert bad.ephemeral
    wrong = reply(await world.bob.slash(world.channel, "place", cell="0,-1", rotation=180))
    assert wrong.ephemeral and "not your turn" in wrong.content
    await world.alice.slash(world.channel, "place", cell="0,-1", rotation=180)
    message = world.channel.last_message
    assert "alice placed tile E at (0, -1), turned 180°." in message.content
    assert "city:S" in labels(message)


async def test_buttons_work_after_a_restart(world: World) -> None:
    row = await start(world, DECK)
    message = await place(world, world.alice)
    fresh = BoardHost(world.bot.config)
    await world.env.restart_bot(fresh)
    await fresh.wait_until_ready()
    await world.alice.click(message, label="No follower")
    after = world.channel.last_message
    assert after.id != message.id and f"<@{world.bob.id}>" in after.content
    stored = await fresh.games.get(row.id)
    assert stored is not None and stored.message_id == after.id and stored.version > row.version


async def test_discord_limits_with_many_cells(world: World) -> None:
    row = await start(world, None)
    game = world.bot.service.game(row)
    view = turn_view(row, game)
    assert view is not None
    for item in view.children:
        custom = getattr(item, "custom_id", "") or ""
        assert len(custom) <= LABEL
        options = getattr(item, "options", [])
        assert len(options) <= PAGE and all(len(o.label) <= LABEL for o in options)
    rows = {item.row for item in view.children}
    assert len(rows) <= 5
    text = fit([f"line {i} " + "x" * 90 for i in range(60)], "tail <@1>", 2000)
    assert len(text) <= 2000 and text.endswith("tail <@1>") and "more events" in text


async def test_place_in_a_lobby_says_the_game_has_not_started(world: World) -> None:
    await world.alice.slash(world.channel, "carcassonne new", river=False)
    early = reply(await world.alice.slash(world.channel, "place", cell="0,1", rotation=0))
    assert early.ephemeral and early.content == "This game has not started yet."
    await world.alice.click(world.channel.last_message, label="Cancel")
    await world.alice.slash(world.channel, "catan new")
    other = reply(await world.alice.slash(world.channel, "place", cell="0,1", rotation=0))
    assert other.ephemeral and other.content == "The game in this channel is not Carcassonne."
