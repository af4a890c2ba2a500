"""The Carcassonne turn flow through the real discord.py client against a simulated Discord (simcord)."""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

import discord
import pytest

from bot.app import BoardHost
from bot.carcassonne.ids import cell_value
from bot.carcassonne.turn import turn_view
from bot.core.components import LABEL, PAGE
from bot.storage import GameRow
from bot.text import t
from bot.text.story import fit
from tests.bot.conftest import World, flat, reply

# a follower spot as the engine names it ("city:S", "field:Nw", "cloister"), which players should never read
ENGINE_SPOT = re.compile(r"\b(?:city|road|field):\w+|\bon (?:cloister|tower) at\b|^(?:cloister|tower)$")

# With river off and this deck, alice's first tile E at (0, -1) turned 180° closes the start tile's city.
DECK = ["E", "U", "E"]


async def start(
    world: World, deck: list[str] | None = None, players: list[Any] | None = None, **options: Any
) -> GameRow:
    """alice and bob (or ``players``, the first hosting) at a table; the deck fixed in the stored options, the first
    player first; the first turn posted."""
    players = players or [world.alice, world.bob]
    await players[0].slash(world.channel, "carcassonne new", **{"river": False, **options})
    for player in players[1:]:
        await player.click(world.channel.last_message, label=t("lobby.button.join"))
    row = await world.bot.games.open_in_channel(world.channel.id)
    assert row is not None
    extra: dict[str, Any] = {"first_player": 0}
    if deck is not None:
        extra["deck"] = deck
    row = await world.bot.games.update(row.id, row.version, options={**row.options, **extra})
    outcome = await world.bot.lobby.start(row.id, row.version, players[0].id)
    await world.bot.outbox.deliver(outcome)  # what the lobby's Start does after its write
    return outcome.row


def select_id(message: Any, op: str) -> str:
    ids = [c["custom_id"] for c in flat(message) if c["type"] == 3 and f":{op}" in c["custom_id"]]
    assert ids, f"no {op} select on {message}"
    return str(ids[0])


def reply_message(world: World, shown: Any) -> Any:
    """The current state of an ephemeral follow-up."""
    return world.env.backend.get_message(shown.channel_id, shown.id)


def labels(message: Any) -> list[str]:
    return [str(c.get("label")) for c in flat(message) if c["type"] == 2]


async def place(world: World, user: Any, option: int = 0, rotation: int = 0, message: Any = None) -> Any:
    """Choose the option'th cell of the turn ``message`` (the latest), then the rotation'th rotation button."""
    message = message or world.channel.last_message
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
    assert "Carcassonne begins" in first.content and "place the drawn tile" in first.content
    assert first.attachments and select_id(first, "cell")
    row = await world.bot.games.open_in_channel(world.channel.id)
    assert row is not None and row.message_id == first.id


async def test_a_short_game_to_the_end_image(world: World) -> None:
    started = await start(world, DECK)
    first = world.channel.last_message
    assert "Carcassonne begins" in first.content
    assert f"<@{world.alice.id}>" in first.content and "place the drawn tile —" in first.content
    assert first.attachments and first.attachments[0].filename.endswith(".png")
    players = {0: world.alice, 1: world.bob}
    for turn in range(3):
        user = players[turn % 2]
        message = await place(world, user)
        assert "placed a tile" in message.content and message.attachments
        assert "No follower" in labels(message)
        await user.click(message, label="No follower")
    row = await world.bot.games.get(started.id)
    assert row is not None and row.status == "finished" and row.message_id is not None
    end = world.env.backend.get_message(world.channel.id, row.message_id)  # the timelapse follows it
    assert "Game over!" in end.content and end.attachments and not end.components
    assert not world.env.errors


async def test_follower_placement_and_scoring_are_narrated(world: World) -> None:
    await start(world, DECK)
    message = await place(world, world.alice, option=0)  # cell 1 is (0, -1): only 180° fits
    assert "column 0, row -1, turned 180°" in message.content
    assert f"<@{world.alice.id}>, put a follower" in message.content
    assert "city (south)" in labels(message)
    await world.alice.click(message, label="city (south)")
    after = world.channel.last_message
    assert "alice put a knight on the city (south) in column 0, row -1." in after.content
    assert "The city in column 0, rows -1 and 0 was completed: 4 points to alice (2 tiles)." in after.content
    assert "went back to the supply" in after.content
    assert "Scores: alice 4, bob 0 · tiles left" in after.content and f"<@{world.bob.id}>" in after.content


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
    used = reply_message(world, picked)  # the used rotation buttons are retired, the choice is told
    assert not flat(used) and used.content == "You placed the tile in column 0, row -1, turned 180°."
    moved = await world.bot.games.get(row.id)
    assert moved is not None
    # the same rotation again from the other copy: stale, nothing changes
    again = reply(await world.alice.click(twice, custom_id=rotation_id))
    assert again.ephemeral and "out of date" in again.content
    # alice's turn goes on in the same message: her follower choices instead of the cell select
    shown = world.env.backend.get_message(message.channel.id, message.id)
    assert world.channel.last_message.id == message.id and "put a follower" in shown.content
    assert flat(shown) and not any(":cell:" in str(c.get("custom_id")) for c in flat(shown))
    same = await world.bot.games.get(row.id)
    assert same is not None and same.version == moved.version and same.state == moved.state
    # a follower click by bob on alice's follower decision
    current = world.channel.last_message
    other = reply(await world.bob.click(current, label="No follower"))
    assert other.ephemeral and "not your turn" in other.content


async def test_a_turn_goes_on_in_its_message_unless_something_was_posted_after_it(world: World) -> None:
    await start(world, DECK)
    opening = world.channel.last_message
    placed = await place(world, world.alice, rotation=0)  # E at (0, -1)
    assert placed.id == opening.id, "placing and the follower decision are one message"
    assert "Carcassonne begins" in placed.content and "alice placed a tile in column 0, row -1" in placed.content
    assert "put a follower" in placed.content and placed.attachments
    assert "No follower" in labels(placed)
    await world.alice.click(placed, label="No follower")
    bobs = world.channel.last_message
    assert bobs.id != placed.id and f"<@{world.bob.id}>, place the drawn tile" in bobs.content
    assert not flat(world.env.backend.get_message(placed.channel.id, placed.id)), "the finished turn's choices are gone"

    await world.carol.send(world.channel, "nice move")  # chat below bob's turn message
    followed = await place(world, world.bob, message=bobs)
    assert followed.id not in (bobs.id, placed.id), "bob's follower decision comes below the chat"
    assert "bob placed a tile" in followed.content and "No follower" in labels(followed)
    assert not flat(world.env.backend.get_message(bobs.channel.id, bobs.id))
    assert not world.env.errors


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
    assert "alice placed a tile in column 0, row -1, turned 180°." in message.content
    assert "city (south)" in labels(message)


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
    game = world.bot.rows.game(row)
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


async def perform(world: World, users: list[Any], action: dict[str, Any]) -> list[Any]:
    """Make one engine action (``Carcassonne.random_action``) through the UI; returns the interaction results."""
    from tests.bot.catan_driver import find, refreshed, turn_message

    user = users[action["player"]]
    kind = action["type"]
    message = await turn_message(world)
    results: list[Any] = []

    async def press(where: Any, op: str) -> Any:
        result = await user.click(where, custom_id=find(where, op=op, kind=2)["custom_id"])
        results.append(result)
        return result

    if kind == "place":
        value = cell_value(action["x"], action["y"])
        for _ in range(10):
            cells = find(message, op="cell", kind=3)
            if any(o["value"] == value for o in cells["options"]):
                break
            pages = [c for c in flat(message) if c["type"] == 2 and ":page:" in str(c["custom_id"])]
            await user.click(message, custom_id=pages[-1]["custom_id"])  # the last page button goes forward
            message = refreshed(world, message)
        picked = await user.select(message, [value], custom_id=cells["custom_id"])
        results.append(picked)
        await press(reply(picked), f"rot:{value},{action['rotation']}")
    elif kind == "follower":
        spots = [c for c in flat(message) if ":spots" in str(c.get("custom_id"))]
        if spots:
            result = await user.select(message, [action["on"]], custom_id=spots[0]["custom_id"])
            results.append(result)
        else:
            await press(message, f"spot:{action['on']}")
    elif kind == "tower":
        value = f"{action['x']},{action['y']}"
        if "capture" in action:
            capture = action["capture"]
            value += f",{capture['x']},{capture['y']},{capture['on']}"
        select = find(message, op="tower", kind=3)
        if not any(o["value"] == value for o in select["options"]):  # beyond the 25 shown: pass instead
            await press(message, "pass")
        else:
            results.append(await user.select(message, [value], custom_id=select["custom_id"]))
    elif kind == "tower_top":
        await press(message, f"top:{action['x']},{action['y']}")
    elif kind == "ransom":
        await press(message, f"ransom:{action['from']}")
    elif kind == "pass":
        await press(message, "pass")
    else:
        raise AssertionError(f"no UI for {action}")
    return results


async def test_a_complete_game_in_the_pseudo_language_shows_nothing_untranslated(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every reader and the game speak the test language, which marks each catalogue text: any unmarked word in the
    channel, a reply, a DM, a label, an option or an image came from somewhere else. Players' names (and the marks
    taken from them), numbers and tile letters are data."""
    import render.fonts
    from bot.text import i18n
    from tests.bot.catan_driver import turn_message
    from tests.bot.pseudo import texts_of, untranslated

    monkeypatch.setattr(i18n, "resolve", lambda locale, default="en": i18n.PSEUDO)
    drawn: list[str] = []
    draw_text = render.fonts.draw_text

    def recording(draw: Any, xy: Any, text: str, *args: Any, **kwargs: Any) -> int:
        drawn.append(text)
        return int(draw_text(draw, xy, text, *args, **kwargs))

    monkeypatch.setattr(render.fonts, "draw_text", recording)
    users = [world.alice, world.bob, world.carol]
    # The last move's settling includes the timelapse, drawn in a thread here (tests have no drawing processes): a
    # whole game's frames, every text recorded, take longer than simcord's default 5 seconds on a busy machine.
    world.env.settle_timeout = 120
    seen: list[str] = []
    with i18n.speaking(i18n.PSEUDO):
        row = await start(world, None, tower=True, river=True, players=users)
        rng = random.Random(5)
        kinds: set[str] = set()
        for step in range(1000):
            current = await world.bot.games.get(row.id)
            assert current is not None
            game = world.bot.rows.game(current)
            if game.finished:
                break
            if step in (3, 40):  # the commands a player might use along the way
                for command in ("game rules", "game status", "game board"):
                    result = await users[step % 3].slash(world.channel, command)
                    for shown in [result.response, *result.followups]:
                        seen += texts_of(shown) if shown is not None else []
                cells = await users[game.current].autocomplete(world.channel, "place", "cell", "")
                seen += [str(c["name"]) for c in cells]
                rotations = await users[game.current].autocomplete(world.channel, "place", "rotation", "")
                seen += [str(c["name"]) for c in rotations]
            seen += texts_of(await turn_message(world))  # its buttons are gone once it is answered
            action = game.random_action(rng)
            kinds.add(action["type"] + (":capture" if "capture" in action else ""))
            for result in await perform(world, users, action):
                for shown in [result.response, *result.followups]:
                    if shown is not None:
                        seen += texts_of(shown)
        else:
            raise AssertionError("the game did not finish")
    for message in world.channel.history():
        seen += texts_of(message)
    for user in users:
        if user.user.dm_channel is not None:
            for message in user.user.dm_channel.history():
                seen += texts_of(message)
    assert {"place", "follower", "pass", "tower", "tower:capture", "tower_top"} <= kinds
    assert sum("⟦" in text for text in seen) > 300 and sum("⟦" in text for text in drawn) > 100
    names = ["alice", "bob", "carol", "A", "B", "C"]
    leaks = sorted({word for text in seen for word in untranslated(text, names)})
    # a label that wraps is drawn line by line: read the lines together so that its marks pair up
    image_leaks = sorted(set(untranslated("\n".join(drawn), names)))
    assert not leaks, {word: next(text for text in seen if word in untranslated(text, names)) for word in leaks}
    assert not image_leaks, {word: next(x for x in drawn if word in x) for word in image_leaks}
    # an engine name passed to a translated text as a parameter hides inside its marks: look for them by shape
    raw = [text for text in seen + drawn if ENGINE_SPOT.search(text)]
    assert not raw, raw[:5]


async def test_a_click_is_answered_from_its_own_data_in_one_request(world: World, monkeypatch: Any) -> None:
    """The cell select's rotations are the click's answer itself (no acknowledgement, then a follow-up), and the
    click reaches its handler without discord.py rebuilding the clicked message's components as a View."""

    def rebuilt(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the clicked message's View was rebuilt")

    monkeypatch.setattr(discord.ui.View, "from_message", rebuilt)
    await start(world, DECK)
    message = world.channel.last_message
    picked = await world.alice.select(message, ["0,-1"], custom_id=select_id(message, "cell"))
    assert not picked.followups and picked.response is not None
    assert picked.response.ephemeral and "column 0, row -1" in picked.response.content
    rotation_id = next(c["custom_id"] for c in flat(picked.response) if c["type"] == 2)
    await world.alice.click(picked.response, custom_id=rotation_id)
    assert f"<@{world.alice.id}>, put a follower" in world.channel.last_message.content
    assert not world.env.errors


async def test_discord_py_keeps_nothing_of_the_buttons_it_sent(world: World) -> None:
    """Every button and select is found by its custom id alone: discord.py keeps no view of what the bot sends, and
    gives none of them the 15 minutes it gives a private answer's view (a sleeping task and a timer each, waking in
    the end only to be thrown away). The buttons still work."""
    await start(world, DECK)
    message = await place(world, world.alice)  # the cell's private answer (its rotations), then the rotation
    await world.alice.click(message, label="No follower")
    await world.bob.slash(world.channel, "game mine")  # a private answer with a button of its own

    store = world.bot._connection._view_store
    assert not store._views and not store._synced_message_views
    timers = [t for t in asyncio.all_tasks() if "timeout_task" in getattr(t.get_coro(), "__qualname__", "")]
    assert timers == []
    assert f"<@{world.bob.id}>" in world.channel.last_message.content  # alice's turn went through
