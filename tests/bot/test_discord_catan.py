"""Catan through the real discord.py client against a simulated Discord: set-up, rolls, building, cards, trades."""

from __future__ import annotations

import logging
import random
from collections.abc import Iterator
from typing import Any

import pytest

from bot.app import BoardHost
from bot.host import HostError, Outcome
from bot.host.rebuild import rebuild
from bot.storage import GameRow
from bot.text import t
from engine.catan import robber_choices
from engine.replay import play
from tests.bot.catan_driver import assert_within_discord_limits, find, perform, refreshed, turn_message
from tests.bot.conftest import World, reply
from tests.bot.pseudo import texts_of, untranslated
from tests.bot.test_discord_carcassonne import flat, labels


@pytest.fixture(autouse=True)
def nothing_logged_as_error(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """An exception in a button's callback reaches only discord.py's log, not simcord's error list: watch the log."""
    caplog.set_level(logging.ERROR)
    yield
    errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]


async def start(world: World, extra: dict[str, Any] | None = None, **options: Any) -> GameRow:
    """alice, bob and carol at a beginner-map table, alice first, through the lobby's buttons."""
    extra = extra or {}
    await world.alice.slash(world.channel, "catan new", board="beginner", **options)
    join = t("lobby.button.join")  # in the language the test speaks
    await world.bob.click(world.channel.last_message, label=join)
    await world.carol.click(world.channel.last_message, label=join)
    row = await world.bot.games.open_in_channel(world.channel.id)
    assert row is not None
    row = await world.bot.games.update(row.id, row.version, options={**row.options, "first_player": 0, **extra})
    outcome = await world.bot.lobby.start(row.id, row.version, world.alice.id)
    await world.bot.outbox.deliver(outcome)  # what the lobby's Start does after its write
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
    world.env.settle_timeout = 120  # the click that ends the game waits for its timelapse, drawn in a thread here
    row = await start(world, points_to_win=5)
    users = [world.alice, world.bob, world.carol]
    rng = random.Random(7)
    kinds: set[str] = set()
    for step in range(3000):
        current = await world.bot.games.get(row.id)
        assert current is not None
        game = world.bot.rows.game(current)
        if game.finished:
            break
        action = game.random_action(rng)
        kinds.add(action["type"])
        results = await perform(world, users, action)
        for result in results:
            for shown in [result.response, *result.followups]:
                if shown is not None:
                    assert_within_discord_limits(shown)
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
    assert final.message_id is not None  # the final message: the timelapse follows it
    assert "Game over!" in world.env.backend.get_message(world.channel.id, final.message_id).content
    log = await world.bot.games.actions(row.id)
    assert rebuild(final, log).to_json() == world.bot.rows.game(final).to_json()
    assert {"settlement", "road", "roll", "end_turn", "discard", "robber", "buy", "bank_trade", "offer"} <= kinds
    # the exported replay leaves out offers and replies, and plays back to the same result
    exported = await world.bot.records.export(row.id)
    assert not {a["type"] for a in exported["actions"]} & {"offer", "accept", "decline", "counter", "withdraw"}
    replayed = play(exported).result()
    live = world.bot.rows.game(final).result()
    assert replayed == live
    # nothing secret in the channel: no bought card named, no stolen resource named
    for message in world.channel.history():
        assert_within_discord_limits(message)
    public = "\n".join(m.content for m in world.channel.history())
    assert "You bought" not in public and "bought a development card:" not in public
    assert "stole 1" not in public and " from you" not in public


# -- scenarios on a rigged table ---------------------------------------------------------------------------------


def dice_state(total: int) -> Any:
    """A generator state whose next two draws roll ``total`` (the engine draws d = int(random() * 6) + 1 twice)."""
    for seed in range(10_000):
        probe = random.Random(seed)
        if int(probe.random() * 6) + 1 + int(probe.random() * 6) + 1 == total:
            return random.Random(seed).getstate()
    raise AssertionError(total)


async def rig(world: World, row: GameRow, change: Any) -> GameRow:
    """Change the stored game directly (hands, phase, dice) and post its turn afresh, as a test fixture."""
    game = world.bot.rows.game(row)
    changed = type(game).from_json(game.to_json())
    change(changed)
    updated = await world.bot.games.update(row.id, row.version, state=changed.to_json())
    await world.bot.outbox.deliver(Outcome(updated, world.bot.rows.game(updated), []))
    return updated


def hands(**cards: list[int]) -> Any:
    def change(game: Any) -> None:
        for seat, name in enumerate(("alice", "bob", "carol")):
            if name in cards:
                game.hand[seat] = list(cards[name])

    return change


async def rolled(world: World, row: GameRow, **cards: list[int]) -> GameRow:
    """The game rigged to its first player's main phase after a roll of 8, the seats holding ``cards``
    (``alice=[brick, lumber, wool, grain, ore]``...): where trades and offers begin."""

    def after_roll(game: Any) -> None:
        hands(**cards)(game)
        game.phase, game.dice = "main", [3, 5]

    return await rig(world, row, after_roll)


async def turn(world: World) -> Any:
    return await turn_message(world)


async def test_a_seven_asks_everyone_over_seven_to_discard_in_parallel(world: World) -> None:
    row = await start(world, setup="beginner")
    rolled_seven = dice_state(7)

    def seven(game: Any) -> None:
        hands(alice=[1, 1, 0, 0, 0], bob=[3, 3, 3, 0, 0], carol=[2, 2, 2, 2, 0])(game)
        game.rng.setstate(rolled_seven)

    row = await rig(world, row, seven)
    await world.alice.click(await turn(world), label="Roll")
    message = await turn(world)
    assert "rolled" in message.content and "Seven! Discarding: bob (4 cards) and carol (4 cards)." in message.content
    assert f"<@{world.bob.id}> (4 cards) and <@{world.carol.id}> (4 cards)" in message.content
    # alice owes nothing; bob counts wrong first: explained, nothing changes
    refused = reply(await world.alice.click(message, label="Discard"))
    assert refused.ephemeral and "You owe no discard now." in refused.content
    bob_modal = await world.bob.click(message, label="Discard")
    carol_modal = await world.carol.click(message, label="Discard")
    assert bob_modal.modal is not None and carol_modal.modal is not None
    wrong = reply(await world.bob.submit_modal(bob_modal, {"discard:brick": "1"}))
    assert wrong.ephemeral and "4" in wrong.content
    bob_again = await world.bob.click(message, label="Discard")
    # both forms were opened on the same turn message; the second is not refused as out of date
    done = [
        await world.bob.submit_modal(bob_again, {"discard:brick": "2", "discard:lumber": "2"}),
        await world.carol.submit_modal(carol_modal, {"discard:wool": "2", "discard:grain": "2"}),
    ]
    assert all("Done" in reply(d).content for d in done), [reply(d).content for d in done]
    robber = await turn(world)
    assert f"<@{world.alice.id}>, move the robber" in robber.content
    history = "\n".join(m.content for m in world.channel.history())
    assert "bob discarded 2 brick and 2 lumber." in history and "carol discarded 2 wool and 2 grain." in history
    current = await world.bot.games.get(row.id)
    assert current is not None
    game = world.bot.rows.game(current)
    assert game.hand[1] == [1, 1, 3, 0, 0] and game.hand[2] == [2, 2, 0, 0, 0]
    assert not world.env.errors
    # the robber: a hex with two victims asks whom to rob; the victim learns the card by DM, the channel does not
    letter = next(h for h, v in robber_choices(game, 0).items() if len(v) >= 2 and None not in v)
    victims = robber_choices(game, 0)[letter]
    picked = reply(await world.alice.select(robber, [letter], custom_id=find(robber, op="rob", kind=3)["custom_id"]))
    assert picked.ephemeral and "whom do you rob" in picked.content
    victim = victims[0]
    victim_user = [world.alice, world.bob, world.carol][victim]
    stolen = reply(await world.alice.click(picked, label=f"Steal from {victim_user.name}"))
    assert stolen.ephemeral and "You stole 1 " in stolen.content and victim_user.name in stolen.content
    resource = stolen.content.split("You stole 1 ")[1].split(" ")[0]
    told = victim_user.user.dm_channel.last_message
    assert told is not None and f"alice stole 1 {resource} from you." in told.content
    main = await turn(world)
    assert f"alice stole a card from {victim_user.name}." in main.content
    assert f"stole 1 {resource}" not in "\n".join(m.content for m in world.channel.history())


async def test_a_form_is_taken_from_its_submit_alone_with_nothing_of_it_in_memory(world: World) -> None:
    """discord.py answers a form's submit only with a form it keeps in memory: a form open when the bot restarted
    (an update, a crash), or one submitted before discord.py had read the answer to the request that showed it (the
    gateway and the HTTP answer race on a busy bot), was dropped unanswered and the trade never made. A form names the
    op its submit runs in its id, like a button, and nothing of it is kept: the submit alone makes the offer."""
    row = await start(world, setup="beginner")

    await rolled(world, row, alice=[2, 0, 0, 0, 0], bob=[0, 0, 0, 0, 2], carol=[0, 0, 0, 0, 1])
    menu = reply(await world.alice.click(await turn(world), label="Trade"))
    form = await world.alice.click(menu, label="Offer to bob")
    assert form.modal is not None and form.modal["custom_id"] == f"bh:ct:{row.id}:{row.version + 1}:offered:1"
    assert not world.bot._connection._view_store._modals  # nothing a restart could lose
    sent = reply(await world.alice.submit_modal(form, {"give": "1 brick", "get": "2 ore"}))
    assert "Offer 1: alice gives bob 1 brick for 2 ore." in sent.content


async def test_a_private_trade_goes_through_direct_messages(world: World) -> None:
    row = await start(world, setup="beginner")

    row = await rolled(world, row, alice=[2, 0, 0, 0, 0], bob=[0, 0, 0, 0, 2], carol=[0, 0, 0, 0, 1])
    menu = reply(await world.alice.click(await turn(world), label="Trade"))
    assert menu.ephemeral and "Offer to bob" in labels(menu)
    form = await world.alice.click(menu, label="Offer to bob")
    assert form.modal is not None
    bad = reply(await world.alice.submit_modal(form, {"give": "2 bricks and a dragon", "get": "ore"}))
    assert bad.ephemeral and "“dragon” is not a resource" in bad.content
    form = await world.alice.click(menu, label="Offer to bob")
    sent = reply(await world.alice.submit_modal(form, {"give": "1 brick", "get": "2 ore"}))
    assert sent.ephemeral and "Offer 1: alice gives bob 1 brick for 2 ore." in sent.content
    # the offer is private: nothing in the channel, everything in bob's DMs
    assert "Offer 1" not in "\n".join(m.content for m in world.channel.history())
    offer = world.bob.user.dm_channel.last_message
    assert "Offer 1: alice gives bob 1 brick for 2 ore." in offer.content
    assert labels(offer) == ["Accept offer 1", "Decline offer 1", "Counter offer 1"]
    status = reply(await world.carol.slash(world.channel, "game status")).embeds[0].description
    assert f"Waiting for <@{world.alice.id}>." in status and f"<@{world.bob.id}>" not in status.split("Waiting")[1]
    nosy = reply(await world.carol.slash(world.channel, "hand"))
    assert "Offer 1" not in nosy.content and not labels(nosy)
    await world.bob.user.click(offer, label="Accept offer 1")
    confirm = world.alice.user.dm_channel.last_message
    assert "bob accepted your offer 1" in confirm.content
    assert labels(confirm) == ["Trade with bob (offer 1)", "Withdraw offer 1"]
    await world.alice.user.click(confirm, label="Trade with bob (offer 1)")
    assert "alice traded 1 brick to bob for 2 ore." in world.channel.last_message.content
    current = await world.bot.games.get(row.id)
    assert current is not None
    game = world.bot.rows.game(current)
    assert game.hand[0] == [1, 0, 0, 0, 2] and game.hand[1] == [1, 0, 0, 0, 0]
    # the recorded log holds the offer, the acceptance and the trade; the export keeps only the trade
    kinds = [a["type"] for a in await world.bot.games.actions(row.id)]
    assert kinds[-3:] == ["offer", "accept", "trade"]
    assert not world.env.errors


async def test_a_bought_card_goes_by_dm_and_a_closed_dm_is_told_in_the_channel(world: World) -> None:
    row = await start(world, setup="beginner", extra={"dev_deck": ["knight", "monopoly"]})

    def rich(game: Any) -> None:
        hands(alice=[0, 0, 2, 2, 2])(game)
        game.phase, game.dice = "main", [3, 5]

    await rig(world, row, rich)
    bought = reply(await world.alice.click(await turn(world), label="Buy card"))
    assert bought.ephemeral and "You bought a development card: **Knight**." in bought.content
    assert "You bought a development card: **Knight**." in world.alice.user.dm_channel.last_message.content
    assert "alice bought a development card." in world.channel.last_message.content
    # alice closes her DMs: the next card is still hers, the channel says to use /hand and names no card
    dm = world.alice.user.dm_channel
    world.env.inject_error("POST", f"/channels/{dm.id}/messages", status=403, code=50007, times=1)
    again = reply(await world.alice.click(await turn(world), label="Buy card"))
    assert "**Monopoly**" in again.content
    notice = [m.content for m in world.channel.history() if "could not send you a direct message" in m.content]
    assert notice and f"<@{world.alice.id}>" in notice[-1] and "/hand" in notice[-1]
    public = "\n".join(m.content for m in world.channel.history())
    assert "Monopoly" not in public and "Knight" not in public
    hand = reply(await world.alice.slash(world.channel, "hand"))
    assert "Knight ×1" in hand.content and "Monopoly ×1" in hand.content


async def test_build_accepts_numbers_and_hex_corner_names(world: World) -> None:
    row = await start(world)
    choices = await world.alice.autocomplete(world.channel, "build", "where", "J-NE", what="settlement")
    assert choices[0]["value"] == "25" and choices[0]["name"] == "25 · F-S"  # J-NE is also F-S
    wrong = reply(await world.bob.slash(world.channel, "build", what="settlement", where="25"))
    assert wrong.ephemeral and "not your turn" in wrong.content
    unknown = reply(await world.alice.slash(world.channel, "build", what="settlement", where="Z-Q"))
    assert unknown.ephemeral and "is not an intersection" in unknown.content
    await world.alice.slash(world.channel, "build", what="settlement", where="J-NE")
    message = await turn(world)
    assert "alice built a settlement at intersection 25 (F-S)." in message.content
    roads = await world.alice.autocomplete(world.channel, "build", "where", "J-E", what="road")
    assert roads[0]["value"] == "25-31" and roads[0]["name"].startswith("25-31 · ")
    await world.alice.slash(world.channel, "build", what="road", where="J-E")
    assert "alice built a road on path 25-31 (" in world.channel.last_message.content
    assert (await world.bot.games.actions(row.id))[-2:] == [
        {"player": 0, "type": "settlement", "at": 25},
        {"player": 0, "type": "road", "at": "25-31"},
    ]


async def test_wrong_users_stale_clicks_and_a_restart(world: World) -> None:
    row = await start(world, setup="beginner")
    message = await turn(world)
    stranger = reply(await world.bob.click(message, label="Roll"))
    assert stranger.ephemeral and "not your turn" in stranger.content
    bystander_hand = reply(await world.carol.click(message, label="My hand"))
    assert bystander_hand.ephemeral and "Resources" in bystander_hand.content  # anyone seated may look at their own
    # a restart between two clicks: the same message's Roll still works, then it is out of date
    fresh = BoardHost(world.bot.config)
    await world.env.restart_bot(fresh)
    await fresh.wait_until_ready()
    await world.alice.click(message, label="Roll")
    stored = await fresh.games.get(row.id)
    assert stored is not None and stored.version > row.version
    assert not flat(refreshed(world, message))  # the old turn message lost its buttons
    assert not world.env.errors


async def test_a_double_click_on_buy_card_buys_once(world: World) -> None:
    row = await start(world, setup="beginner")

    def rich(game: Any) -> None:
        hands(alice=[0, 0, 3, 3, 3])(game)
        game.phase, game.dice = "main", [3, 5]

    row = await rig(world, row, rich)
    message = await turn(world)
    buy = find(message, label="Buy card")["custom_id"]
    first = reply(await world.alice.click(message, custom_id=buy))
    assert "You bought" in first.content
    # the clicked message lost its buttons; a click racing the first one carries the old version: refused
    assert not flat(refreshed(world, message))
    version = int(buy.split(":")[3])
    late = await code(world.bot.play.act(row.id, version, world.alice.id, {"type": "buy"}))
    assert late == "stale"
    current = await world.bot.games.get(row.id)
    assert current is not None
    assert sum(world.bot.rows.game(current).dev[0]) == 1


async def code(awaitable: Any) -> str:
    try:
        await awaitable
    except HostError as err:
        return err.key
    raise AssertionError("not refused")


async def test_a_complete_game_in_the_pseudo_language_shows_nothing_untranslated(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every reader and every game speaks the test language, which marks each catalogue text: any unmarked word in
    the channel, a reply, a DM, a label or an option came from somewhere else."""
    from bot.text import i18n

    monkeypatch.setattr(i18n, "resolve", lambda locale, default="en": i18n.PSEUDO)
    # The last move's settling includes the timelapse, drawn in a thread here (tests have no drawing processes): a
    # whole game's frames take longer than simcord's default 5 seconds on a busy machine.
    world.env.settle_timeout = 120
    users = [world.alice, world.bob, world.carol]
    seen: list[str] = []
    with i18n.speaking(i18n.PSEUDO):
        row = await start(world, points_to_win=4)
        rng = random.Random(11)
        for _ in range(3000):
            current = await world.bot.games.get(row.id)
            assert current is not None
            game = world.bot.rows.game(current)
            if game.finished:
                break
            for result in await perform(world, users, game.random_action(rng)):
                for shown in [result.response, *result.followups]:
                    if shown is not None:
                        seen += texts_of(shown)
        else:
            raise AssertionError("the game did not finish")
    for message in world.channel.history():
        seen += texts_of(message)
    for user in users:
        for message in user.user.dm_channel.history():
            seen += texts_of(message)
    assert sum("⟦" in text for text in seen) > 500  # the texts really were produced in the test language
    leaks = sorted({word for text in seen for word in untranslated(text)})
    assert not leaks, leaks


def test_the_leak_finder_sees_unmarked_words() -> None:
    assert untranslated("⟦alice rolled ⟦2 brick⟧⟧ · <@123> 7") == []
    assert untranslated("⟦Roll⟧ Hand") == ["Hand"]


async def test_road_building_offers_as_first_road_only_roads_buildable_now(world: World) -> None:
    """A pair's second road may touch only the first one: it must not be offered as the first (issue 5)."""
    from engine.catan import road_pairs, road_spots
    from engine.catan.options import CARDS

    row = await start(world, setup="beginner")

    def card(game: Any) -> None:
        game.dev[0][CARDS.index("road_building")] = 1
        game.phase, game.dice = "main", [3, 5]

    row = await rig(world, row, card)
    game = world.bot.rows.game(row)
    now = set(road_spots(game, 0))
    assert {p[-1] for p in road_pairs(game, 0)} - now  # some roads are legal only as the second one
    cards = reply(await world.alice.click(await turn(world), label=t("catan.button.play")))
    menu = reply(await world.alice.click(cards, label=t("catan.card.road_building")))
    offered = {o["value"] for o in find(menu, op="rb1", kind=3)["options"]}
    assert offered and offered <= now
    first = sorted(offered)[0]
    second = reply(await world.alice.select(menu, [first], custom_id=find(menu, op="rb1", kind=3)["custom_id"]))
    then = find(second, op="rb2", kind=3)["options"][0]["value"]
    await world.alice.select(second, [then], custom_id=find(second, op="rb2", kind=3)["custom_id"])
    assert (await world.bot.games.actions(row.id))[-1] == {"player": 0, "type": "road_building", "roads": [first, then]}


async def test_amounts_and_places_in_other_digits_are_refused_with_an_explanation(world: World) -> None:
    """A superscript passes str.isdigit() but not int(): a discard and /build say what to write instead (issue 5;
    trade amounts are in test_catan_names)."""
    row = await start(world, setup="beginner")
    build = reply(await world.alice.slash(world.channel, "build", what="settlement", where="²"))
    assert build.ephemeral and "“²” is not an intersection: use a number from 1 to 54" in build.content
    road = reply(await world.alice.slash(world.channel, "build", what="road", where="①-②"))
    assert road.ephemeral and "“①-②” is not a path" in road.content
    assert await world.alice.autocomplete(world.channel, "build", "where", "²", what="settlement") is not None
    rolled_seven = dice_state(7)

    def seven(game: Any) -> None:
        hands(alice=[1, 1, 0, 0, 0], bob=[3, 3, 3, 0, 0], carol=[1, 0, 0, 0, 0])(game)
        game.rng.setstate(rolled_seven)

    row = await rig(world, row, seven)
    await world.alice.click(await turn(world), label="Roll")
    message = await turn(world)
    modal = await world.bob.click(message, label="Discard")
    refused = reply(await world.bob.submit_modal(modal, {"discard:brick": "²", "discard:lumber": "2"}))
    assert refused.ephemeral and "“²” is not a number of cards: write how many with the digits 0–9" in refused.content
    current = await world.bot.games.get(row.id)
    assert current is not None and current.version == row.version + 1  # the roll only: nothing discarded
    assert not world.env.errors


async def test_a_public_offer_loses_its_buttons_once_it_closes(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Withdrawn, or the turn over: the offer's message keeps its story but no longer offers Accept / Decline /
    Counter. A message that kept them anyway (Discord refused the edit, say) loses them on the first click."""
    row = await start(world, setup="beginner")

    row = await rolled(world, row, alice=[3, 0, 0, 0, 0], bob=[0, 0, 0, 0, 2], carol=[0, 0, 0, 0, 1])
    buttons = ["Accept offer {n}", "Decline offer {n}", "Counter offer {n}"]

    async def offer_to_everyone() -> Any:
        menu = reply(await world.alice.click(await turn(world), label="Trade"))
        form = await world.alice.click(menu, label="Offer to everyone")
        await world.alice.submit_modal(form, {"give": "1 brick", "get": "1 ore"})
        made = [m for m in world.channel.history() if any(":acc:" in str(c.get("custom_id")) for c in flat(m))]
        assert made, "no public offer message"
        return made[-1]

    first = await offer_to_everyone()
    assert labels(first) == [b.format(n=1) for b in buttons]
    await world.bob.click(first, label="Accept offer 1")  # still open: the buttons stay for carol
    assert labels(refreshed(world, first)) == [b.format(n=1) for b in buttons]
    mine = reply(await world.alice.slash(world.channel, "hand"))
    await world.alice.click(mine, label="Withdraw offer 1")
    assert labels(refreshed(world, first)) == [] and "(offer 1)" in refreshed(world, first).content

    async def keep(*args: Any) -> None:
        return None

    with monkeypatch.context() as patched:  # the buttons are not taken off: the first click heals the message
        patched.setattr("bot.catan.flows.close_offers", keep)
        second = await offer_to_everyone()
        mine = reply(await world.alice.slash(world.channel, "hand"))
        await world.alice.click(mine, label="Withdraw offer 2")
        assert labels(refreshed(world, second)) == [b.format(n=2) for b in buttons]
    before = await world.bot.games.get(row.id)
    refused = reply(await world.carol.click(refreshed(world, second), label="Counter offer 2"))
    assert refused.ephemeral and refused.content == "Offer 2 is no longer open."
    assert labels(refreshed(world, second)) == []
    after = await world.bot.games.get(row.id)
    assert before is not None and after is not None and after.version == before.version

    third = await offer_to_everyone()
    assert labels(third) == [b.format(n=3) for b in buttons]
    await world.alice.click(await turn(world), label="End turn")
    assert labels(refreshed(world, third)) == []
    assert not world.env.errors


async def test_an_offer_taken_back_with_undo_loses_its_buttons(world: World) -> None:
    row = await start(world, setup="beginner")

    await rolled(world, row, alice=[3, 0, 0, 0, 0], bob=[0, 0, 0, 0, 2])
    menu = reply(await world.alice.click(await turn(world), label="Trade"))
    form = await world.alice.click(menu, label="Offer to everyone")
    await world.alice.submit_modal(form, {"give": "1 brick", "get": "1 ore"})
    offer = next(m for m in reversed(world.channel.history()) if "Accept offer 1" in labels(m))
    undone = reply(await world.alice.slash(world.channel, "game undo"))
    assert undone.ephemeral and undone.content == t("cmd.undo.done")
    assert labels(refreshed(world, offer)) == []
    assert not world.env.errors


async def test_the_bot_remembers_a_public_offer_across_a_restart(world: World) -> None:
    row = await start(world, setup="beginner")

    await rolled(world, row, alice=[3, 0, 0, 0, 0], bob=[0, 0, 0, 0, 2])
    menu = reply(await world.alice.click(await turn(world), label="Trade"))
    form = await world.alice.click(menu, label="Offer to everyone")
    await world.alice.submit_modal(form, {"give": "1 brick", "get": "1 ore"})
    offer = next(m for m in reversed(world.channel.history()) if "Accept offer 1" in labels(m))
    fresh = BoardHost(world.bot.config)
    await world.env.restart_bot(fresh)
    await fresh.wait_until_ready()
    await world.alice.click(await turn(world), label="End turn")
    assert labels(refreshed(world, offer)) == []
    assert not world.env.errors
