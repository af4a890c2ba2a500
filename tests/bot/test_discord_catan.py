"""Catan through the real discord.py client against a simulated Discord: set-up, rolls, building, cards, trades."""

from __future__ import annotations

import random
from typing import Any

from bot.cogs.catan import CatanCog
from bot.rebuild import rebuild
from bot.storage import GameRow
from tests.bot.catan_driver import perform
from tests.bot.conftest import World, reply
from tests.bot.test_discord_carcassonne import flat


async def start(world: World, extra: dict[str, Any] | None = None, **options: Any) -> GameRow:
    """alice, bob and carol at a beginner-map table, alice first, through the lobby's buttons."""
    extra = extra or {}
    await world.alice.slash(world.channel, "catan new", board="beginner", **options)
    await world.bob.click(world.channel.last_message, label="Join")
    await world.carol.click(world.channel.last_message, label="Join")
    row = await world.bot.games.open_in_channel(world.channel.id)
    assert row is not None
    row = await world.bot.games.update(row.id, row.version, options={**row.options, "first_player": 0, **extra})
    outcome = await world.bot.service.start(row.id, row.version, world.alice.id)
    cog = world.bot.get_cog("CatanCog")
    assert isinstance(cog, CatanCog)
    await cog.on_game_started(outcome.row, outcome)  # what the lobby's Start dispatches
    return outcome.row


def components(message: Any) -> list[dict[str, Any]]:
    return flat(message)


def ids(message: Any, op: str) -> list[str]:
    return [str(c["custom_id"]) for c in flat(message) if f":{op}" in str(c.get("custom_id"))]


async def test_the_first_turn_asks_for_a_settlement(world: World) -> None:
    await start(world)
    first = world.channel.last_message
    assert "Catan begins" in first.content and f"<@{world.alice.id}>, place a settlement" in first.content
    assert first.attachments
    spot = next(c for c in flat(first) if c["type"] == 3)
    assert len(spot["options"]) == 25 and spot["options"][0]["label"].startswith("1 · ")
    assert [c["label"] for c in flat(first) if c["type"] == 2][:2] == ["Next ▶", "My hand"]


LIVE_ONLY = {"offer", "decline", "counter", "withdraw"}  # recorded as they are; accept/confirm may become trades


async def test_a_complete_game_through_buttons_selects_modals_and_hand(world: World) -> None:
    """Every action chosen by the engine's random policy is made through the UI, and the log records exactly it."""
    row = await start(world, points_to_win=5)
    users = [world.alice, world.bob, world.carol]
    rng = random.Random(7)
    kinds: set[str] = set()
    for step in range(3000):
        current = await world.bot.games.get(row.id)
        assert current is not None
        game = world.bot.service.game(current)
        if game.finished:
            break
        action = game.random_action(rng)
        kinds.add(action["type"])
        results = await perform(world, users, action)
        after = await world.bot.games.get(row.id)
        assert after is not None
        said = [reply(r).content for r in results if reply(r) is not None]
        assert after.version > current.version, (step, action, said)
        logged = (await world.bot.games.actions(row.id))[-1]
        if action["type"] not in ("accept", "confirm"):
            assert {k: v for k, v in logged.items() if k in action} == action, (logged, action)
        assert not world.env.errors
    else:
        raise AssertionError("the game did not finish")
    final = await world.bot.games.get(row.id)
    assert final is not None and final.status == "finished"
    assert "Game over!" in world.channel.last_message.content
    log = await world.bot.games.actions(row.id)
    assert rebuild(final, log).to_json() == world.bot.service.game(final).to_json()
    assert {"settlement", "road", "roll", "end_turn", "discard", "robber", "buy", "bank_trade", "offer"} <= kinds
    # nothing secret in the channel: no bought card named, no stolen resource named
    public = "\n".join(m.content for m in world.channel.history())
    assert "You bought" not in public and "bought a development card:" not in public
    assert "stole 1" not in public and " from you" not in public
