"""Turn messages when two changes to a game come close together: the newest message alone offers choices."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import pytest

import bot.carcassonne.flows as carcassonne
import bot.catan.flows as catan_flows
from bot.flows.turns import announce
from bot.host import HostError, Outcome, Services
from bot.host.rebuild import load
from bot.host.rows import RETRIES
from bot.storage import GameRow, StaleVersion
from engine import RuleError
from tests.bot.catan_driver import turn_message
from tests.bot.conftest import World, code, flat, reply
from tests.bot.simultaneous import (
    click_call,
    judged_on_one_version,
    once_changed,
    slash_call,
    submit_call,
    together,
)
from tests.bot.test_discord_carcassonne import DECK, labels, place, start
from tests.bot.test_discord_catan import dice_state, hands, rig, rolled
from tests.bot.test_discord_catan import start as start_catan
from tests.bot.test_outbox import stored_move
from tests.bot.test_service import ALICE, BOB, CAROL

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
    row = await world.bot.rows.row(row.id)
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
    stored = await world.bot.rows.row(row.id)
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
    placed = await world.bot.play.act(row.id, row.version, world.alice.id, {"type": "place", "x": 0, "y": -1,
                                                                                "rotation": 180})  # fmt: skip
    passed = await world.bot.play.act(row.id, placed.row.version, world.alice.id, {"type": "pass"})
    # the two announcements arrive out of order (the first was held up on its way)
    newer = await announce(world.bot, passed)
    older = await announce(world.bot, placed)
    assert newer is not None and older is not None
    assert "alice placed a tile in column 0, row -1, turned 180°." in older.content, "the older story is still told"
    stored = await world.bot.rows.row(row.id)
    assert stored.message_id == newer.id
    assert list(live_components(world, row.id)) == [newer.id]
    assert not components(world, opening.id) and not components(world, older.id)
    assert not world.env.errors


# -- Catan: moves not bound to the turn, made at the same moment -------------------------------------------------
#
# Discards after a seven and replies to an offer pass no version: when another player's move lands first, the host
# judges them again on the newer game and takes them while they are still legal. A click bound to the turn (Buy
# card, End turn) is still refused once the game has moved on.


async def seven_with_discards(world: World) -> GameRow:
    """alice rolls a seven while bob and carol hold 8 cards each: both owe 4 (alice, with 2, owes nothing)."""
    row = await start_catan(world, setup="beginner")
    rolled_seven = dice_state(7)

    def seven(game: Any) -> None:
        hands(alice=[1, 1, 0, 0, 0], bob=[3, 3, 2, 0, 0], carol=[2, 2, 2, 2, 0])(game)
        game.rng.setstate(rolled_seven)

    row = await rig(world, row, seven)
    await world.alice.click(await turn_message(world), label="Roll")
    return await world.bot.rows.row(row.id)


async def public_offer(world: World) -> GameRow:
    """alice, after her roll, offers everyone 1 brick for 1 ore; bob and carol both hold ore."""
    row = await start_catan(world, setup="beginner")

    await rolled(world, row, alice=[3, 0, 0, 0, 0], bob=[0, 0, 0, 0, 2], carol=[0, 0, 0, 0, 1])
    menu = reply(await world.alice.click(await turn_message(world), label="Trade"))
    form = await world.alice.click(menu, label="Offer to everyone")
    await world.alice.submit_modal(form, {"give": "1 brick", "get": "1 ore"})
    return await world.bot.rows.row(row.id)


async def test_two_discard_forms_sent_at_the_same_moment_are_both_taken(world: World) -> None:
    row = await seven_with_discards(world)
    message = await turn_message(world)
    bob_form = await world.bob.click(message, label="Discard")
    carol_form = await world.carol.click(message, label="Discard")
    answers = await together(
        world.env,
        [
            submit_call(world.bob, bob_form, {"discard:brick": "2", "discard:lumber": "2"}),
            submit_call(world.carol, carol_form, {"discard:wool": "2", "discard:grain": "2"}),
        ],
    )
    assert all("Done" in reply(a).content for a in answers), [reply(a).content for a in answers]
    stored = await world.bot.rows.row(row.id)
    game: Any = world.bot.rows.game(stored)
    assert stored.version == row.version + 2 and game.phase == "robber"
    assert game.hand[1] == [1, 1, 2, 0, 0] and game.hand[2] == [2, 2, 0, 0, 0]
    assert f"<@{world.alice.id}>, move the robber" in (await turn_message(world)).content
    assert not world.env.errors


async def test_the_same_discard_sent_twice_at_once_is_taken_once(world: World) -> None:
    row = await seven_with_discards(world)
    message = await turn_message(world)
    first = await world.bob.click(message, label="Discard")
    second = await world.bob.click(message, label="Discard")  # a second form, opened before the first was sent
    cards = {"discard:brick": "2", "discard:lumber": "2"}
    answers = await together(world.env, [submit_call(world.bob, first, cards), submit_call(world.bob, second, cards)])
    said = sorted(reply(a).content for a in answers)
    assert "Done" in said[0] and said[1] == "You owe no discard now.", said
    stored = await world.bot.rows.row(row.id)
    game: Any = world.bot.rows.game(stored)
    assert stored.version == row.version + 1 and game.hand[1] == [1, 1, 2, 0, 0]
    assert not world.env.errors


async def test_two_players_accepting_one_public_offer_at_the_same_moment_are_both_taken(world: World) -> None:
    row = await public_offer(world)
    offer = next(m for m in reversed(world.channel.history()) if "Accept offer 1" in labels(m))
    button = next(c["custom_id"] for c in flat(offer) if c.get("label") == "Accept offer 1")
    answers = await together(world.env, [click_call(world.bob, offer, button), click_call(world.carol, offer, button)])
    assert not any("out of date" in reply(a).content for a in answers), [reply(a).content for a in answers]
    stored = await world.bot.rows.row(row.id)
    game: Any = world.bot.rows.game(stored)
    assert stored.version == row.version + 2 and sorted(game.offer(1)["accepted"]) == [1, 2]
    assert not world.env.errors


# -- the same races at the host, in a fixed interleaving: both moves judged on one version, then written in turn --


async def catan_table(service: Services, change: Callable[[Any], None]) -> GameRow:
    """alice, bob and carol at a beginner table, alice first, with the stored game changed by ``change``."""
    row = await service.lobby.open_lobby(guild_id=1, channel_id=5, game="catan", host=ALICE,
                                   options={"board": "beginner", "setup": "beginner", "first_player": 0})  # fmt: skip
    for seat in (BOB, CAROL):
        row = await service.lobby.join(row.id, row.version, seat)
    row = (await service.lobby.start(row.id, row.version, ALICE.user_id)).row
    game: Any = service.rows.game(row).copy()
    change(game)
    return await service.rows.games.update(row.id, row.version, state=game.to_json())


def owing_discards(game: Any) -> None:
    """After alice's seven: bob and carol hold 8 cards and owe 4 each."""
    game.hand = [[1, 1, 0, 0, 0], [3, 3, 2, 0, 0], [2, 2, 2, 2, 0]]
    game.phase, game.dice, game.owed = "discard", [3, 4], [0, 4, 4]


def trading(game: Any) -> None:
    """alice has rolled; she holds brick and wool, bob and carol hold ore."""
    game.hand = [[3, 0, 2, 2, 1], [0, 0, 0, 0, 2], [0, 0, 0, 0, 1]]
    game.phase, game.dice = "main", [3, 5]


BOB_DISCARDS = {"type": "discard", "cards": {"brick": 2, "lumber": 2}}
CAROL_DISCARDS = {"type": "discard", "cards": {"wool": 2, "grain": 2}}


async def test_the_host_takes_a_discard_that_another_discard_beat_to_the_write(service: Services) -> None:
    row = await catan_table(service, owing_discards)
    results = await judged_on_one_version(
        service.rows.games,
        [
            lambda: service.play.act(row.id, None, BOB.user_id, BOB_DISCARDS),
            lambda: service.play.act(row.id, None, CAROL.user_id, CAROL_DISCARDS),
        ],
    )
    assert all(isinstance(r, Outcome) for r in results), results
    stored = await service.rows.row(row.id)
    game: Any = service.rows.game(stored)
    assert stored.version == row.version + 2 and game.phase == "robber"
    assert game.hand[1] == [1, 1, 2, 0, 0] and game.hand[2] == [2, 2, 0, 0, 0]
    assert [a["player"] for a in await service.rows.games.actions(row.id)] == [1, 2]


async def test_the_same_discard_judged_twice_on_one_version_is_taken_once(service: Services) -> None:
    row = await catan_table(service, owing_discards)
    twice = [lambda: service.play.act(row.id, None, BOB.user_id, BOB_DISCARDS)] * 2
    first, second = await judged_on_one_version(service.rows.games, twice)
    assert isinstance(first, Outcome)
    assert isinstance(second, RuleError) and second.code == "no_discard_owed"
    stored = await service.rows.row(row.id)
    game: Any = service.rows.game(stored)
    assert stored.version == row.version + 1 and game.hand[1] == [1, 1, 2, 0, 0]


async def test_the_host_takes_two_acceptances_of_one_public_offer_judged_on_one_version(
    service: Services,
) -> None:
    row = await catan_table(service, trading)
    row = (
        await service.play.act(row.id, None, ALICE.user_id, {"type": "offer", "give": {"brick": 1}, "get": {"ore": 1}})
    ).row
    accept = {"type": "accept", "offer": 1}
    results = await judged_on_one_version(
        service.rows.games,
        [
            lambda: service.play.act(row.id, None, BOB.user_id, accept),
            lambda: service.play.act(row.id, None, CAROL.user_id, accept),
        ],
    )
    assert all(isinstance(r, Outcome) for r in results), results
    stored = await service.rows.row(row.id)
    game: Any = service.rows.game(stored)
    offer = game.offer(1)
    assert stored.version == row.version + 2 and offer["accepted"] == [1, 2] and offer["waiting"] == []


async def test_a_reply_to_an_offer_withdrawn_meanwhile_is_refused_for_what_it_is(service: Services) -> None:
    row = await catan_table(service, trading)
    row = (
        await service.play.act(row.id, None, ALICE.user_id, {"type": "offer", "give": {"brick": 1}, "get": {"ore": 1}})
    ).row
    withdrawn, accepted = await judged_on_one_version(
        service.rows.games,
        [
            lambda: service.play.act(row.id, None, ALICE.user_id, {"type": "withdraw", "offer": 1}),
            lambda: service.play.act(row.id, None, BOB.user_id, {"type": "accept", "offer": 1}),
        ],
    )
    assert isinstance(withdrawn, Outcome)
    assert isinstance(accepted, RuleError) and accepted.code == "unknown_offer"  # not "out of date"


async def test_a_click_bound_to_the_turn_is_still_refused_once_the_game_moved_on(service: Services) -> None:
    row = await catan_table(service, trading)
    buy = {"type": "buy"}
    first, second = await judged_on_one_version(
        service.rows.games, [lambda: service.play.act(row.id, row.version, ALICE.user_id, buy)] * 2
    )  # a double click on Buy card
    assert isinstance(first, Outcome)
    assert isinstance(second, HostError) and second.key == "stale"
    assert (await service.rows.row(row.id)).version == row.version + 1


async def test_a_move_that_keeps_losing_the_race_is_refused_as_stale_after_a_few_tries(
    service: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    row = await catan_table(service, owing_discards)
    writes = 0

    async def always_beaten(game_id: int, expected: int, **kwargs: Any) -> GameRow:
        nonlocal writes
        writes += 1
        raise StaleVersion(game_id, expected)

    monkeypatch.setattr(service.rows.games, "record_action", always_beaten)
    assert await code(service.play.act(row.id, None, BOB.user_id, BOB_DISCARDS)) == "stale"
    assert writes == RETRIES + 1


async def test_a_stale_click_while_the_next_turn_message_is_on_its_way_leaves_the_old_message_alone(
    world: World,
) -> None:
    """Two End turn clicks at once: the second, refused as stale, puts the current buttons back only on a message
    that shows the current version. Before the new turn message is posted, the stored one is about to be retired:
    buttons put on it then would outlive the retiring (found by the fuzzer, FUZZ_SEED=3 at step 11788)."""
    row = await start_catan(world)
    shown = await world.bot.rows.row(row.id)
    old = shown.message_id
    assert old is not None and shown.shown_version == shown.version
    moved = await stored_move(world, shown)  # stored, its turn message not posted yet
    assert moved.row.version == shown.version + 1
    await catan_flows.refresh(world.bot, row.id)  # the stale click's refresh, at that moment
    await world.env.settle()
    on_old = {c.get("custom_id") for c in components(world, old)}
    assert not any(f":{moved.row.version}:" in str(i) for i in on_old), "the old message got the new buttons"
    await world.bot.outbox.deliver(moved)
    await world.env.settle()
    offering = [
        message.id
        for message in world.env.backend.messages[world.channel.id].values()
        if any(str(c.get("custom_id")).startswith(f"bh:ct:{row.id}:") for c in components(world, message.id))
    ]
    assert offering == [(await world.bot.rows.row(row.id)).message_id], "one message offers choices: the newest"
