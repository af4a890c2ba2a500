"""What a stored move owes Discord is delivered once, whatever happens between the write and the post: a process that
died (the next one resumes it), Discord refusing for a while (missing permissions, a deleted channel), a game that
moved on meanwhile (the late change is told as its story)."""

from __future__ import annotations

import asyncio
import dataclasses
import random
from typing import Any

import discord
import pytest

from bot.catan.names import card_name
from bot.flows import outbox
from bot.host import Outcome, OwedAnswer
from bot.host.outcome import REPLY_WITHIN
from bot.storage import GameRow
from bot.text import t
from bot.text.i18n import speaking
from tests.bot import test_discord_catan as catan
from tests.bot.conftest import World, flat, sqlite_trips
from tests.bot.test_discord_carcassonne import DECK, start


def dms(person: Any) -> list[Any]:
    channel = person.user.dm_channel
    return [] if channel is None else list(channel.history())


def versions_on(message: Any) -> set[int]:
    """The game versions a message's buttons and selects were made for (``bh:...:{game}:{version}:...``)."""
    found = set()
    for component in flat(message):
        parts = str(component.get("custom_id", "")).split(":")
        found |= {int(parts[3])} if len(parts) > 3 and parts[3].isdigit() else set()
    return found


async def stored_move(world: World, row: GameRow, seed: int = 1, answer: OwedAnswer | None = None) -> Outcome:
    """A legal move of the player on turn, stored through the host as a click's would be (owing ``answer`` to the
    click), and never posted: what the channel is owed when the bot process dies right after the write."""
    row = await world.bot.rows.row(row.id)
    game = world.bot.rows.game(row)
    action = game.random_action(random.Random(seed))
    user = row.seats[action["player"]].user_id
    return await world.bot.play.act(row.id, row.version, user, action, answer=answer)


async def test_a_move_stored_by_a_process_that_died_is_posted_once_by_the_next(world: World) -> None:
    row = await start(world, deck=DECK)
    before = len(world.channel.history())
    moved = await stored_move(world, row)
    assert await world.bot.records.owed.count() == 1, "the move's debt is stored with the move"
    assert len(world.channel.history()) == before

    await world.bot.outbox.resume(everything=True)  # what a restarted process's first sweep does
    await world.env.settle()
    stored = await world.bot.rows.row(row.id)
    assert stored.shown_version == moved.row.version
    turn = world.channel.history()[-1]
    assert turn.id == stored.message_id and versions_on(turn) == {moved.row.version}
    assert await world.bot.records.owed.count() == 0

    shown = len(world.channel.history())
    await world.bot.outbox.resume(everything=True)
    await world.env.settle()
    assert len(world.channel.history()) == shown, "a delivered change is never posted again"


async def test_a_change_the_game_moved_past_is_told_as_its_story_then_the_newest_turn_in_full(world: World) -> None:
    row = await start(world, deck=DECK)
    before = len(world.channel.history())
    first = await stored_move(world, row)
    second = await stored_move(world, first.row, seed=2)
    assert await world.bot.records.owed.count() == 2

    await world.bot.outbox.resume(everything=True)
    await world.env.settle()
    late, turn = world.channel.history()[before:]
    assert late.content and not late.components and not late.attachments, "the story alone: no board, no buttons"
    assert versions_on(turn) == {second.row.version} and turn.attachments
    assert await world.bot.records.owed.count() == 0


async def test_missing_permissions_make_the_game_wait_tell_the_host_once_and_resume_when_fixed(world: World) -> None:
    row = await start(world, deck=DECK)
    before = len(world.channel.history())
    world.env.inject_error(
        "*", f"/channels/{world.channel.id}/messages*", status=403, code=50013, message="Missing Permissions",
        times=None,
    )  # fmt: skip
    moved = await stored_move(world, row)
    await world.bot.outbox.deliver(moved)
    assert len(world.channel.history()) == before
    assert await world.bot.outbox.problem(row.id) == "permissions:send_messages"
    [told] = dms(world.alice)  # alice hosts the game
    assert "Send Messages" in told.content and f"<#{world.channel.id}>" in told.content

    status = await world.bob.slash(world.channel, "game status")
    shown = status.followups[0] if status.followups else status.response
    assert any("Send Messages" in (e.description or "") for e in shown.embeds), "/game status says why it waits"

    for _ in range(2):  # tried again every minute (the sweep, here by hand): refused, and the host not told again
        await world.env.advance_time(61)
        await world.bot.outbox.resume()
    assert len(dms(world.alice)) == 1 and len(world.channel.history()) == before

    world.env.backend.faults.clear()  # the server's admins give the permission back
    await world.env.advance_time(61)
    await world.bot.outbox.resume()
    await world.env.settle()
    stored = await world.bot.rows.row(row.id)
    assert stored.shown_version == moved.row.version and versions_on(world.channel.history()[-1]) == {stored.version}
    assert await world.bot.outbox.problem(row.id) is None and await world.bot.records.owed.count() == 0


async def test_a_game_whose_channel_was_deleted_is_archived_after_the_grace_period(world: World) -> None:
    row = await start(world, deck=DECK)
    world.bot.config = dataclasses.replace(world.bot.config, archive_after=0.0)
    world.env.inject_error(
        "*", f"/channels/{world.channel.id}/messages*", status=404, code=10003, message="Unknown Channel", times=None
    )
    moved = await stored_move(world, row)
    await world.bot.outbox.deliver(moved)
    stored = await world.bot.rows.row(row.id)
    assert stored.status == "abandoned"
    assert await world.bot.records.owed.count() == 0, "nothing is owed to a channel that is gone for good"


async def test_a_game_whose_channel_was_deleted_waits_during_the_grace_period(world: World) -> None:
    row = await start(world, deck=DECK)
    world.env.inject_error(
        "*", f"/channels/{world.channel.id}/messages*", status=404, code=10003, message="Unknown Channel", times=None
    )
    moved = await stored_move(world, row)
    await world.bot.outbox.deliver(moved)
    stored = await world.bot.rows.row(row.id)
    assert stored.status == "active" and await world.bot.outbox.problem(row.id) == "channel_gone"
    assert await world.bot.records.owed.count() == 1


async def test_a_delivered_move_stores_the_version_its_turn_message_shows_with_the_debt_gone_in_one_trip(
    world: World, monkeypatch: Any
) -> None:
    """After the turn message, the version the channel shows and the move's debt deleted are one transaction: one
    trip to SQLite's writer a move, not two (and a kill between them leaves nothing half written)."""
    row = await start(world, deck=DECK)
    moved = await stored_move(world, row)
    trips = sqlite_trips(monkeypatch)
    assert await world.bot.outbox.deliver(moved)
    monkeypatch.undo()
    stored = await world.bot.rows.row(row.id)
    assert stored.shown_version == moved.row.version
    assert stored.message_id == world.channel.history()[-1].id
    assert await world.bot.records.owed.count() == 0
    writes = [fn for fn in trips if "fetch" not in getattr(fn, "__qualname__", "")]
    assert len(writes) == 1, trips  # the shown version and the debt deleted


async def test_a_turn_message_brought_up_to_date_or_retired_builds_no_message_nobody_reads(
    world: World, monkeypatch: Any
) -> None:
    """A move that goes on in its turn message edits it; the move that ends the turn posts a new one and takes the
    buttons off the old: of the three requests only the new message's answer is read (its id), so discord.py builds
    one Message object, not three."""
    row = await start(world, deck=DECK)
    first = world.channel.history()[-1]
    built: list[object] = []
    init = discord.Message.__init__

    def counted(message: Any, *args: Any, **kwargs: Any) -> None:
        built.append(message)
        init(message, *args, **kwargs)

    monkeypatch.setattr(discord.Message, "__init__", counted)
    placed = await stored_move(world, row)
    assert await world.bot.outbox.deliver(placed)
    ended = await stored_move(world, placed.row)
    assert await world.bot.outbox.deliver(ended)
    monkeypatch.undo()
    old, new = world.channel.history()[-2:]
    assert old.id == first.id and not old.components, "the turn's message: brought up to date, then retired"
    assert versions_on(new) == {ended.row.version} and new.id == (await world.bot.rows.row(row.id)).message_id
    assert len(built) == 1, built


async def test_a_close_stops_a_delivery_under_way_and_keeps_what_it_had_done(world: World, monkeypatch: Any) -> None:
    """SIGTERM: deliveries under way get a moment, then are stopped before the HTTP session and the database close
    under them (a post failing there would be recorded in a closed database). The turn message already posted is
    kept: the next start does not post it again, and delivers the rest."""
    row = await start(world, deck=DECK)
    moved = await stored_move(world, row)
    hung = asyncio.Event()

    async def slow_dms(*args: Any, **kwargs: Any) -> None:  # the part after the turn message: Discord hangs
        hung.set()
        await asyncio.Event().wait()

    monkeypatch.setattr(outbox.notify, "turn_posted", slow_dms)
    delivering = asyncio.create_task(world.bot.outbox.deliver(moved))
    await hung.wait()
    shown = len(world.channel.history())
    await world.bot.outbox.close(0.05)
    assert delivering.done(), "nothing of the outbox runs on once it is closed"
    stored = await world.bot.rows.row(row.id)
    assert stored.shown_version == moved.row.version and stored.message_id == world.channel.history()[-1].id
    [debt] = await world.bot.records.owed.of_game(row.id)
    assert "turn" in debt.done and "notify" not in debt.done
    assert not await world.bot.outbox.deliver(moved), "a closed outbox starts no delivery"

    monkeypatch.undo()
    after = outbox.Outbox(world.bot)  # the next start's
    await after.resume(everything=True)
    assert await world.bot.records.owed.count() == 0
    assert len(world.channel.history()) == shown, "the turn message is not posted twice"


# -- the private answer a person waits on ("thinking…") --------------------------------------------------------------


@dataclasses.dataclass
class Given:
    """The private answers the outbox gave through an interaction's token (``safely.answer_later``)."""

    answers: list[tuple[OwedAnswer, str]] = dataclasses.field(default_factory=list)

    async def __call__(self, client: Any, answer: OwedAnswer, game_id: int | None, content: str) -> bool:
        self.answers.append((answer, content))
        return True


@pytest.fixture
def given(monkeypatch: pytest.MonkeyPatch) -> Given:
    record = Given()
    monkeypatch.setattr(outbox.safely, "answer_later", record)
    return record


WAITING = OwedAnswer(application_id=42, token="token-of-the-click", language="en")


async def test_an_answer_a_killed_process_owed_is_given_by_the_next_through_the_interactions_token(
    world: World, given: Given
) -> None:
    done = dataclasses.replace(WAITING, text="Done.")
    await stored_move(world, await start(world, deck=DECK), answer=done)  # stored; the process dies

    await world.bot.outbox.resume(everything=True)  # the next process
    await world.env.settle()
    assert given.answers == [(done, "Done.")]
    assert await world.bot.records.owed.count() == 0


async def test_a_catan_answer_owed_is_what_the_actor_alone_learned_in_the_language_they_were_answered_in(
    world: World, given: Given
) -> None:
    row = await catan.start(world, setup="beginner")
    row = await catan.rolled(world, row, alice=[0, 0, 1, 1, 1])
    row = await world.bot.rows.row(row.id)
    russian = dataclasses.replace(WAITING, language="ru")
    moved = await world.bot.play.act(row.id, row.version, world.alice.id, {"type": "buy"}, answer=russian)

    await world.bot.outbox.resume(everything=True)
    await world.env.settle()
    [bought] = [e["card"] for e in moved.events if e["type"] == "bought"]
    with speaking("ru"):
        expected = t("catan.private.bought", card=card_name(bought))
    assert given.answers == [(russian, expected)]
    assert "development card" not in expected


async def test_an_answer_older_than_the_interactions_token_is_not_given(world: World, given: Given) -> None:
    await stored_move(world, await start(world, deck=DECK), answer=WAITING)
    clock = world.bot.rows.games.clock
    world.bot.rows.games.clock = lambda: clock() + REPLY_WITHIN + 1  # the process was down past Discord's 15 minutes

    await world.bot.outbox.resume(everything=True)
    await world.env.settle()
    assert given.answers == []
    assert await world.bot.records.owed.count() == 0, "the rest of the change is delivered all the same"


async def test_a_delivery_leaves_the_answer_to_the_process_that_holds_the_interaction(
    world: World, given: Given
) -> None:
    moved = await stored_move(world, await start(world, deck=DECK), answer=WAITING)
    with world.bot.outbox.answering(moved.row.id, moved.row.version):
        assert await world.bot.outbox.deliver(moved)
    assert given.answers == []
    assert await world.bot.records.owed.count() == 0


async def test_leaving_a_lobby_by_command_owes_the_channels_line_and_the_lobby_message(
    world: World, given: Given
) -> None:
    await world.alice.slash(world.channel, "carcassonne new", river=False)
    lobby = world.channel.last_message
    await world.bob.click(lobby, label="Join")
    await world.carol.click(lobby, label="Join")
    row = await world.bot.rows.latest_in_channel(world.channel.id)
    assert row is not None
    line = dataclasses.replace(WAITING, text="carol left.")
    await world.bot.lobby.leave_lobby(row.id, row.version, world.carol.id, answer=line)  # stored; the process dies

    await world.bot.outbox.resume(everything=True)  # the next process
    await world.env.settle()
    assert given.answers == [(line, "carol left.")]
    shown = world.env.backend.get_message(world.channel.id, lobby.id)
    assert f"<@{world.carol.id}>" not in shown.embeds[0]["fields"][0]["value"], "the lobby shows the seat free"
    assert await world.bot.records.owed.count() == 0


async def test_a_change_the_sweep_delivered_first_is_not_posted_again_by_its_own_click(world: World) -> None:
    row = await start(world, deck=DECK)
    moved = await stored_move(world, row)  # stored by a click whose own delivery has not run yet
    await world.bot.outbox.resume(everything=True)  # the first sweep after a start takes the game first
    await world.env.settle()
    shown = [m.id for m in world.channel.history()]
    turn = world.channel.history()[-1]
    assert versions_on(turn) == {moved.row.version}

    await world.bot.outbox.deliver(moved)  # then the click's own delivery of the same change
    await world.env.settle()
    assert [m.id for m in world.channel.history()] == shown, "the turn was posted a second time"
    assert versions_on(world.channel.history()[-1]) == {moved.row.version}, "the turn message lost its choices"
