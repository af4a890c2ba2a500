"""Computer levels through simulated Discord: the lobby offers the levels each game's registry has (one button each,
named in every language), the host chooses the level of the computers standing in for people who time out or are
away, and a searching level thinks in its own process, so that a second of thinking holds up nobody else's clicks.

``expert`` is played here by test players registered for the test (``level_policies``): the lobby and the host only
know what the engine's registry says.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.host.computer_seats import controllers
from bot.storage import GameRow
from bot.text import t
from bot.text.i18n import LANGUAGES, speaking, translations
from engine.ai import LEVELS, Factory, levels, register, strongest, unregister
from engine.ai.registry import PLAYERS
from tests.bot import level_policies
from tests.bot.conftest import World, reply
from tests.bot.test_discord_carcassonne import labels
from tests.bot.test_discord_computer import human_carcassonne_move, lobby_row, set_options, simcord_bot

__all__ = ["simcord_bot"]  # the bot of test_discord_computer: computers move without a pause

HOUR = 3600


def computer_buttons(message: Any) -> list[str]:
    return [label for label in labels(message) if label.startswith("Add computer")]


@pytest.fixture
def marks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Where the slow test player notes when it thought (read across processes)."""
    found = tmp_path / "marks"
    found.mkdir()
    monkeypatch.setenv(level_policies.MARKS, str(found))
    return found


def expert(factory: Factory) -> Iterator[None]:
    """``factory`` plays Carcassonne at ``expert``; Catan has no expert meanwhile (whatever the registry holds)."""
    before = register("carcassonne", "expert", factory)
    catan = PLAYERS["catan"].pop("expert", None)
    yield
    unregister("carcassonne", "expert", before)
    if catan is not None:
        PLAYERS["catan"]["expert"] = catan


@pytest.fixture
def quick_expert() -> Iterator[None]:
    yield from expert(level_policies.first_legal)


@pytest.fixture
def slow_expert(marks: Path) -> Iterator[None]:
    yield from expert(level_policies.slow_first_legal)


async def test_the_lobby_offers_exactly_the_levels_each_game_has(world: World, quick_expert: None) -> None:
    assert levels("carcassonne") == ("random", "standard", "expert") and levels("catan") == ("random", "standard")
    await world.alice.slash(world.channel, "carcassonne new")
    assert computer_buttons(world.channel.last_message) == [
        "Add computer (random)",
        "Add computer (standard)",
        "Add computer (expert)",
    ]
    await world.alice.slash(world.channel, "game abandon")
    await world.alice.slash(world.channel, "catan new")
    lobby = world.channel.last_message
    assert computer_buttons(lobby) == ["Add computer (random)", "Add computer (standard)"], "no expert for Catan"
    with speaking("ru"):
        assert t("lobby.button.add_computer", level=t("computer.level.expert")) == "Добавить компьютер (эксперт)"


def test_every_level_is_named_in_every_language() -> None:
    for level in LEVELS:
        names = {lang: translations(lang).texts.get(f"computer.level.{level}") for lang in LANGUAGES}
        assert all(names.values()), names
        choices = {lang: translations(lang).texts.get(f"slash.choice.level.{level}") for lang in LANGUAGES}
        assert all(choices.values()), choices
    assert [translations(lang).texts["computer.level.expert"] for lang in ("ru", "zh-CN", "zh-TW")] == [
        "эксперт",
        "专家",
        "專家",
    ]


async def test_an_expert_seat_thinks_in_the_decision_process(world: World, quick_expert: None) -> None:
    await world.alice.slash(world.channel, "carcassonne new", river=False)
    await world.alice.click(world.channel.last_message, label="Add computer (expert)")
    await set_options(world, first_player=0)
    await world.alice.click(world.channel.last_message, label="Start")
    row = await lobby_row(world)
    assert [(s.name, s.level) for s in row.seats] == [("alice", None), ("Computer 1 (expert)", "expert")]
    await human_carcassonne_move(world, world.alice)
    await human_carcassonne_move(world, world.alice)
    assert "Computer 1 (expert) placed a tile" in "\n".join(m.content or "" for m in world.channel.history())
    assert f"Turn 3: <@{world.alice.id}>" in world.channel.last_message.content
    assert world.bot.stand_ins.thinker.started == 1, "the expert decided in the decision process"
    assert not world.env.errors


async def test_the_host_chooses_the_level_that_stands_in_for_the_timed_out_and_the_away(world: World) -> None:
    await world.alice.slash(
        world.channel, "carcassonne new", river=False, turn_limit=2, takeover=True, away="computer", stand_in="random"
    )
    lobby = world.channel.last_message
    fields = {f.name: f.value for f in lobby.embeds[0].fields}
    assert fields["Computer stand-in"] == "Computers standing in for players play at the random level."
    await world.bob.click(lobby, label="Join")
    await world.carol.click(world.channel.last_message, label="Join")
    await set_options(world, first_player=0)
    await world.alice.click(world.channel.last_message, label="Start")
    row = await lobby_row(world)
    assert row.stand_in_level == "random" != strongest("carcassonne")
    rules = reply(await world.bob.slash(world.channel, "game rules"))
    assert "Computers standing in for players play at the random level." in rules.content

    await world.env.advance_time(2.5 * HOUR)  # alice runs out of time
    notice = next(m for m in world.channel.history() if "ran out of time" in (m.content or ""))
    assert f"<@{world.alice.id}> ran out of time, so a computer player (random) plays for them" in notice.content
    await world.carol.slash(world.channel, "settings away", until="2026-01-04")
    await human_carcassonne_move(world, world.bob)
    await human_carcassonne_move(world, world.bob)  # carol's turn: a computer plays it, then alice's, at once
    away = next(m for m in world.channel.history() if "is away until" in (m.content or "") and m.components)
    assert "carol is away until" in away.content and "so a computer player (random) plays for them" in away.content
    stored = await lobby_row(world)
    assert controllers(stored) == {0: "random", 2: "random"}
    assert f"<@{world.bob.id}>, place the drawn tile" in world.channel.last_message.content
    status = reply(await world.bob.slash(world.channel, "game status"))
    assert "Computers standing in for players play at the random level." in str(status.embeds[0].description)
    assert not world.env.errors


async def test_without_a_choice_the_strongest_level_stands_in(world: World, quick_expert: None) -> None:
    await world.alice.slash(world.channel, "carcassonne new", turn_limit=2, takeover=True)
    fields = {f.name: f.value for f in world.channel.last_message.embeds[0].fields}
    assert fields["Computer stand-in"] == "Computers standing in for players play at the expert level."
    assert (await lobby_row(world)).stand_in_level == "expert"


async def slow_game(world: World, channel: Any) -> GameRow:
    """alice and the slow expert in ``channel``, the expert first; the computers' runners are away, so that the test
    starts the expert's decision itself."""
    await world.alice.slash(channel, "carcassonne new", river=False)
    await world.alice.click(channel.last_message, label="Add computer (expert)")
    row = await world.bot.games.open_in_channel(channel.id)
    assert row is not None
    row = await world.bot.games.update(row.id, row.version, options={**row.options, "first_player": 1})
    await world.bot.outbox.deliver(await world.bot.lobby.start(row.id, row.version, world.alice.id))
    return row


def wait_for(path: Path, within: float = 60) -> None:
    deadline = time.monotonic() + within
    while not path.exists():
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.01)


async def test_a_slow_search_does_not_hold_up_another_games_clicks(
    world: World, slow_expert: None, marks: Path
) -> None:
    await world.bot.remove_cog("Computers")
    other = world.channel.guild.create_text_channel("other")
    await world.bob.slash(other, "carcassonne new", river=False)  # game B: bob's lobby, carol about to join
    row = await slow_game(world, world.channel)  # game A: the slow expert owes the first move

    thinking = asyncio.create_task(world.bot.stand_ins.computer_move(row.id))
    await asyncio.to_thread(wait_for, marks / "started")  # it holds the GIL for a second and a half from here
    await world.carol.click(other.last_message, label="Join")
    answered = time.time()
    moved = await thinking
    noted = json.loads(next(marks.glob("*.json")).read_text())
    lobby = await world.bot.games.open_in_channel(other.id)
    assert lobby is not None and [s.name for s in lobby.seats] == ["bob", "carol"]
    assert answered < noted["ended"], "carol's click was answered while the expert of another game was thinking"
    assert moved is not None and moved.actions[0]["player"] == 1
    assert not world.env.errors
