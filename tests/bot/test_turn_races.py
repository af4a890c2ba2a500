"""Turn messages when two changes to a game come close together: the newest message alone offers choices."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

import bot.carcassonne.flows as carcassonne
from bot.rebuild import load
from bot.turns import announce
from tests.bot.conftest import World
from tests.bot.simultaneous import click_call, once_changed, slash_call, together
from tests.bot.test_discord_carcassonne import DECK, place, start

TURN_COMPONENT = re.compile(r"bh:cc:(?P<game>\d+):(?P<version>\d+):")


def components(world: World, message_id: int) -> list[dict[str, Any]]:
    stored = world.env.backend.get_message(world.channel.id, message_id)
    return [c for row in stored.components for c in row.get("components", [])]


def live_components(world: World, game_id: int) -> dict[int, list[str]]:
    """Public messages of the channel that still offer turn components of the game, by message id (the ``start``
    helper starts the game without the lobby's Start button, so the lobby keeps its buttons)."""
    found: dict[int, list[str]] = {}
    for message in world.env.backend.messages[world.channel.id].values():
        ids = [str(c.get("custom_id")) for c in components(world, message.id)]
        ids = [i for i in ids if (m := TURN_COMPONENT.match(i)) and int(m["game"]) == game_id]
        if ids and not message.flags & 64:  # not ephemeral
            found[message.id] = ids
    return found


async def test_the_next_player_acts_while_the_previous_turn_message_is_being_posted(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    row = await start(world, DECK)
    message = await place(world, world.alice)  # alice's follower decision
    row = await world.bot.service.row(row.id)
    game: Any = load(row)
    after: Any = type(game).from_json(game.to_json())
    after.apply({"player": 0, "type": "pass"})
    (x, y), rotations = sorted(after.legal_placements().items())[0]
    render = carcassonne.turn_image

    def slow_for_bobs_turn(game: Any, view: Any = None) -> Any:  # bob's place turn takes a while (a busy host)
        if game.decision() == "place" and game.current == 1:
            time.sleep(0.3)
        return render(game, view)

    monkeypatch.setattr(carcassonne, "turn_image", slow_for_bobs_turn)
    # alice clicks No follower; bob, who saw his tile in autocomplete, places it the moment alice's move is stored
    button = next(c["custom_id"] for c in components(world, message.id) if c["custom_id"].endswith(":pass"))
    await together(
        world.env,
        [
            click_call(world.alice, message, button),
            once_changed(
                world.bot,
                row.id,
                row.version,
                slash_call(world.bob, world.channel, "place", cell=f"{x},{y}", rotation=rotations[0]),
            ),
        ],
    )
    stored = await world.bot.service.row(row.id)
    assert stored.version == row.version + 2, "both moves were taken"
    live = live_components(world, row.id)
    assert list(live) == [stored.message_id], f"only the game's latest message offers choices: {live}"
    assert all(f":{stored.version}:" in i for i in live[stored.message_id])
    newest = world.channel.last_message
    assert newest.id == stored.message_id and "put a follower" in newest.content
    assert not world.env.errors


async def test_a_turn_message_announced_after_a_newer_one_offers_no_choices(world: World) -> None:
    row = await start(world, DECK)
    opening = world.channel.last_message
    placed = await world.bot.service.act(row.id, row.version, world.alice.id, {"type": "place", "x": 0, "y": -1,
                                                                                "rotation": 180})  # fmt: skip
    passed = await world.bot.service.act(row.id, placed.row.version, world.alice.id, {"type": "pass"})
    # the two announcements arrive out of order (the first was held up on its way)
    newer = await announce(world.bot, passed)
    older = await announce(world.bot, placed)
    assert newer is not None and older is not None
    assert "alice placed tile E at (0, -1), turned 180°." in older.content, "the older story is still told"
    stored = await world.bot.service.row(row.id)
    assert stored.message_id == newer.id
    assert list(live_components(world, row.id)) == [newer.id]
    assert not components(world, opening.id) and not components(world, older.id)
    assert not world.env.errors
