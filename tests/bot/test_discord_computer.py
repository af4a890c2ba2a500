"""Computer players through simulated Discord: seated in the lobby by the host, moving by themselves right after
the previous move, resumed after a restart, and standing in for a person whose turn limit ran out."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from bot.app import BoardHost
from bot.core.config import Config
from bot.flows.game_commands import show_lobby
from bot.host.computer_seats import available
from bot.host.rebuild import load, rebuild
from bot.storage import GameRow
from bot.text import t
from engine.ai import strongest
from engine.catan import Catan
from tests.bot.catan_driver import perform
from tests.bot.conftest import World, reply
from tests.bot.test_discord_carcassonne import labels, place

HOUR = 3600
RANDOM = "Add computer (random)"
TRADES = frozenset({"offer", "counter", "accept", "decline", "withdraw", "confirm"})


@pytest.fixture
def simcord_bot(tmp_path: Path) -> BoardHost:
    """The bot of every test here: computer players move without a pause and do not wait for answers."""
    config = Config(
        database=tmp_path / "bot.sqlite3",
        reminder_check=1800,
        computer_pause=0,
        computer_offer_wait=0,
        render_processes=0,
    )
    return BoardHost(config, rng=random.Random(1))


async def lobby_row(world: World) -> GameRow:
    row = await world.bot.games.open_in_channel(world.channel.id)
    assert row is not None
    return row


async def set_options(world: World, **extra: Any) -> None:
    """Fix options the host would otherwise draw (who starts, the tile order) before Start."""
    row = await lobby_row(world)
    await world.bot.games.update(row.id, row.version, options={**row.options, **extra})
    await show_lobby(world.bot, await lobby_row(world))  # the buttons of the new version


async def carcassonne_with_computer(world: World, **extra: Any) -> GameRow:
    """alice and one random computer at a Carcassonne table (river off), alice first; the game started."""
    await world.alice.slash(world.channel, "carcassonne new", river=False)
    await world.alice.click(world.channel.last_message, label=RANDOM)
    await set_options(world, first_player=0, **extra)
    await world.alice.click(world.channel.last_message, label="Start")
    return await lobby_row(world)


def told(world: World) -> str:
    """Everything posted in the channel so far."""
    return "\n".join(m.content or "" for m in world.channel.history())


async def human_carcassonne_move(world: World, user: Any) -> None:
    """The person's decision on the current turn message: the first cell and rotation, then no follower."""
    message = world.channel.last_message
    if "No follower" in labels(message):
        await user.click(message, label="No follower")
    else:
        await place(world, user)


async def test_the_host_seats_a_computer_which_moves_after_the_person(world: World) -> None:
    await world.alice.slash(world.channel, "carcassonne new", river=False)
    lobby = world.channel.last_message
    assert RANDOM in labels(lobby) and "Add computer (standard)" in labels(lobby)
    assert "Remove computer" not in labels(lobby)
    await world.alice.click(lobby, label=RANDOM)
    lobby = world.channel.last_message
    assert "2. Computer 1 (random)" in lobby.embeds[0].fields[0].value
    assert "Remove computer" in labels(lobby)
    row = await lobby_row(world)
    assert [(s.name, s.level, s.user_id < 0) for s in row.seats] == [
        ("alice", None, False),
        ("Computer 1 (random)", "random", True),
    ]
    await set_options(world, first_player=0)
    await world.alice.click(world.channel.last_message, label="Start")
    first = world.channel.last_message
    assert "Carcassonne begins" in first.content and f"<@{world.alice.id}>, place the drawn tile" in first.content

    await place(world, world.alice)
    await world.alice.click(world.channel.last_message, label="No follower")
    back = world.channel.last_message  # the computer placed its tile and decided on a follower at once
    assert "Computer 1 (random) placed a tile" in told(world)
    assert f"Turn 3: <@{world.alice.id}>, place the drawn tile" in back.content and back.components
    assert "<@-" not in back.content  # a computer seat is never mentioned as a user

    stored = await world.bot.games.get(row.id)
    assert stored is not None and stored.message_id == back.id
    log = await world.bot.games.actions(row.id)
    users = await world.bot.db.fetchall("SELECT user_id FROM actions WHERE game_id = ? ORDER BY seq", (row.id,))
    by_seat = {a["player"] for a, u in zip(log, users, strict=True) if u[0] is None}
    assert by_seat == {1}, "the computer's moves are logged without a user, the person's with theirs"
    assert rebuild(stored, log).to_json() == load(stored).to_json()
    assert not world.env.errors


async def test_a_complete_carcassonne_game_against_a_random_computer(world: World) -> None:
    deck = ["E", "U", "E", "V", "D", "B", "K", "W", "L", "U", "J", "A"]
    row = await carcassonne_with_computer(world, deck=deck)
    for _ in range(40):
        current = await world.bot.games.get(row.id)
        assert current is not None
        if current.status == "finished":
            break
        game = world.bot.rows.game(current)
        assert game.actors() == [0], "the computer never keeps the game waiting"
        await human_carcassonne_move(world, world.alice)
    finished = await world.bot.games.get(row.id)
    assert finished is not None and finished.status == "finished" and finished.message_id is not None
    end = world.env.backend.get_message(world.channel.id, finished.message_id)  # the timelapse follows it
    assert "Game over!" in end.content and not end.components
    log = await world.bot.games.actions(row.id)
    assert sum(1 for a in log if a["type"] == "place") == len(deck)
    assert {a["player"] for a in log} == {0, 1}
    assert rebuild(finished, log).to_json() == load(finished).to_json()
    assert not world.env.errors


@pytest.mark.parametrize("level", ["random", "standard"])
async def test_catan_with_one_person_and_two_computers_through_the_set_up(world: World, level: str) -> None:
    await world.alice.slash(world.channel, "catan new")
    await world.alice.click(world.channel.last_message, label=f"Add computer ({level})")
    await world.alice.click(world.channel.last_message, label=f"Add computer ({level})")
    await set_options(world, first_player=1)  # a computer begins the snake
    await world.alice.click(world.channel.last_message, label="Start")
    row = await lobby_row(world)
    assert [s.name for s in row.seats] == ["alice", f"Computer 1 ({level})", f"Computer 2 ({level})"]
    users = [world.alice, None, None]
    picker = random.Random(3)
    for mine in range(60):
        current = await world.bot.games.get(row.id)
        assert current is not None
        game = world.bot.rows.game(current)
        assert isinstance(game, Catan)
        if game.phase != "setup" and mine >= 8:
            break
        assert game.actors() == [0], f"only the person may keep the game waiting, not {game.actors()}"
        legal = game.legal_actions(0)
        quiet = [a for a in legal if a["type"] not in TRADES and a["type"] != "buy"]
        action = picker.choice(quiet or legal)
        await perform(world, users, action)
    final = await world.bot.games.get(row.id)
    assert final is not None
    game = world.bot.rows.game(final)
    view = game.view(None)
    assert game.phase != "setup" and all(p["settlements_left"] <= 3 for p in view["players"]), "the set-up is done"
    log = await world.bot.games.actions(row.id)
    assert {a["player"] for a in log if a["type"] == "settlement"} == {0, 1, 2}
    assert any(a["type"] == "roll" and a["player"] in (1, 2) for a in log), "the computers play their turns"
    texts = told(world)
    assert f"Computer 2 ({level})" in texts and "<@-" not in texts
    to_computers = [
        r
        for r in world.env.http_requests
        if "/users/-" in r.path or (isinstance(r.json, dict) and str(r.json.get("recipient_id", "")).startswith("-"))
    ]
    assert not to_computers, "a computer player is never sent a direct message"
    assert rebuild(final, log).to_json() == load(final).to_json()
    assert not world.env.errors


async def test_the_computer_waits_the_configured_pause_before_each_move(world: World) -> None:
    world.bot = BoardHost(replace(world.bot.config, computer_pause=30))
    await world.env.restart_bot(world.bot)
    await world.bot.wait_until_ready()
    await carcassonne_with_computer(world)
    await place(world, world.alice)
    await world.alice.click(world.channel.last_message, label="No follower")
    waiting = world.channel.last_message
    assert "Turn 2: Computer 1 (random), place the drawn tile" in waiting.content
    await world.env.advance_time(20)
    assert world.channel.last_message.id == waiting.id, "still thinking"
    await world.env.advance_time(15)
    assert "Computer 1 (random) placed a tile" in world.channel.last_message.content
    await world.env.advance_time(35)
    assert f"Turn 3: <@{world.alice.id}>, place the drawn tile" in world.channel.last_message.content
    assert not world.env.errors


async def test_a_computer_owing_a_move_moves_after_a_restart(world: World) -> None:
    await world.alice.slash(world.channel, "carcassonne new", river=False)
    await world.alice.click(world.channel.last_message, label=RANDOM)
    await set_options(world, first_player=1)
    await world.bot.remove_cog("Computers")  # the bot goes down before its computer player could move
    await world.alice.click(world.channel.last_message, label="Start")
    first = world.channel.last_message
    assert "Computer 1 (random), place the drawn tile" in first.content
    row = await lobby_row(world)
    assert await world.bot.games.actions(row.id) == []

    fresh = BoardHost(world.bot.config)
    await world.env.restart_bot(fresh)
    await fresh.wait_until_ready()
    await world.env.settle()
    after = world.channel.last_message
    assert after.id != first.id
    assert "Computer 1 (random) placed a tile" in told(world)
    assert f"<@{world.alice.id}>, place the drawn tile" in after.content
    assert {a["player"] for a in await fresh.games.actions(row.id)} == {1}
    assert not world.env.errors


async def test_a_computer_stands_in_after_the_turn_limit_until_the_person_is_back(world: World) -> None:
    await world.alice.slash(world.channel, "carcassonne new", river=False, turn_limit=2, takeover=True)
    lobby = world.channel.last_message
    assert any(f.name == "Computer takeover" for f in lobby.embeds[0].fields)
    await world.bob.click(lobby, label="Join")
    await set_options(world, first_player=0)
    await world.alice.click(world.channel.last_message, label="Start")
    row = await lobby_row(world)
    assert row.takeover and row.stand_ins == []

    await world.env.advance_time(2.5 * HOUR)
    notice = next(m for m in world.channel.history() if "ran out of time" in (m.content or ""))
    level = strongest("carcassonne")  # the host chose no stand-in level: the strongest the game has
    assert f"<@{world.alice.id}> ran out of time, so a computer player ({level}) plays for them" in notice.content
    assert labels(notice) == ["I'm back"]
    turn = world.channel.last_message
    assert "alice placed a tile" in told(world) and f"<@{world.bob.id}>, place the drawn tile" in turn.content
    assert "alice, put a follower" in told(world) and f"<@{world.alice.id}>, put a follower" not in told(world)
    stored = await world.bot.games.get(row.id)
    assert stored is not None and stored.stand_ins == [0]

    await human_carcassonne_move(world, world.bob)
    await human_carcassonne_move(world, world.bob)
    again = world.channel.last_message  # the computer played alice's next turn at once
    assert f"<@{world.bob.id}>, place the drawn tile" in again.content and "Turn 4" in again.content

    refused = reply(await world.bob.click(notice, label="I'm back"))
    assert refused.ephemeral and "No computer is playing for you" in refused.content
    deliver = mock.AsyncMock(wraps=world.bot.outbox.deliver)
    world.bot.outbox.deliver = deliver  # type: ignore[method-assign]
    welcome = reply(await world.alice.click(notice, label="I'm back"))
    assert welcome.ephemeral and "Welcome back" in welcome.content
    # The welcome is owed with the change: a kill before it was given leaves it to the next process.
    [back] = [call.args[0] for call in deliver.await_args_list]
    assert back.answer is not None and back.answer.text == welcome.content, back.answer
    posted = world.channel.last_message
    assert "alice is back and plays again." in posted.content
    stored = await world.bot.games.get(row.id)
    assert stored is not None and stored.stand_ins == []

    await human_carcassonne_move(world, world.bob)
    await human_carcassonne_move(world, world.bob)
    mine = world.channel.last_message
    assert f"Turn 5: <@{world.alice.id}>, place the drawn tile" in mine.content, "alice plays her own turn again"
    log = await world.bot.games.actions(row.id)
    assert [a["player"] for a in log if a["type"] == "place"] == [0, 1, 0, 1]
    assert not world.env.errors


async def test_lobby_rules_for_computer_seats(world: World) -> None:
    await world.alice.slash(world.channel, "catan new")
    lobby = world.channel.last_message
    await world.bob.click(lobby, label="Join")
    refused = reply(await world.bob.click(world.channel.last_message, label=RANDOM))
    assert refused.ephemeral and "Only the host" in refused.content
    if not available("catan", "standard"):
        missing = reply(await world.alice.click(world.channel.last_message, label="Add computer (standard)"))
        assert missing.ephemeral and "no standard computer player" in missing.content
    await world.alice.click(world.channel.last_message, label=RANDOM)
    await world.alice.click(world.channel.last_message, label=RANDOM)
    full = reply(await world.alice.click(world.channel.last_message, label=RANDOM))
    assert full.ephemeral and "The lobby is full (4 players)" in full.content
    late = reply(await world.carol.click(world.channel.last_message, label="Join"))
    assert late.ephemeral and "full" in late.content

    refused = reply(await world.bob.click(world.channel.last_message, label="Remove computer"))
    assert refused.ephemeral and "Only the host" in refused.content
    await world.alice.click(world.channel.last_message, label="Remove computer")
    await world.alice.click(world.channel.last_message, label="Remove computer")
    row = await lobby_row(world)
    assert [s.name for s in row.seats] == ["alice", "bob"]
    assert "Remove computer" not in labels(world.channel.last_message)
    await world.bob.click(world.channel.last_message, label="Leave")
    await world.alice.click(world.channel.last_message, label=RANDOM)
    short = reply(await world.alice.click(world.channel.last_message, label="Start"))
    assert short.ephemeral and "3" in short.content, "Catan needs three players, computers included"
    await world.alice.click(world.channel.last_message, label=RANDOM)
    await world.alice.click(world.channel.last_message, label="Start")
    assert "Catan begins" in world.channel.last_message.content or (await lobby_row(world)).status == "active"


async def test_takeover_needs_a_turn_limit(world: World) -> None:
    refused = reply(await world.alice.slash(world.channel, "carcassonne new", takeover=True))
    assert refused.ephemeral and "only when turns have a time limit" in refused.content


def test_computer_seat_names_are_localised() -> None:
    from bot.flows.computer_turns import computer_name
    from bot.text.i18n import speaking

    with speaking("ru"):
        assert computer_name(2, "standard") == t("computer.name", number=2, level=t("computer.level.standard"))
        assert "2" in computer_name(2, "standard") and "Computer" not in computer_name(2, "standard")


async def catan_with_a_computer_offer_open(world: World) -> tuple[GameRow, int]:
    """alice and two standard computers; computer 1 is on turn, has rolled and offers a trade to everyone. The
    computers' cog is away while the table is set (so nothing moves by itself); then the bot restarts with a
    60-second offer wait and its start-up sweep wakes the game. Returns the row and the offer's id."""
    await world.bot.remove_cog("Computers")
    await world.alice.slash(world.channel, "catan new")
    await world.alice.click(world.channel.last_message, label="Add computer (standard)")
    await world.alice.click(world.channel.last_message, label="Add computer (standard)")
    await set_options(world, first_player=1)
    await world.alice.click(world.channel.last_message, label="Start")
    row = await lobby_row(world)
    picker = random.Random(5)
    for _ in range(400):
        row = await lobby_row(world)
        game = world.bot.rows.game(row)
        assert isinstance(game, Catan)
        seat = game.actors()[0]
        legal = game.legal_actions(seat)
        offers = [a for a in legal if a["type"] == "offer" and a.get("to") is None]
        if game.phase == "main" and seat == 1 and offers and not game.offers:
            outcome = await world.bot.play.act(row.id, row.version, row.seats[1].user_id, offers[0])
            await world.bot.outbox.deliver(outcome)  # the offer is posted, with alice's Accept / Decline
            offer_id = outcome.game.offers[0]["id"]  # type: ignore[union-attr]
            break
        quiet = [a for a in legal if a["type"] not in TRADES and a["type"] not in ("buy", "play")]
        await world.bot.play.act(row.id, row.version, row.seats[seat].user_id, picker.choice(quiet or legal))
    else:
        raise AssertionError("computer 1 never had a turn with an offer to make")
    world.bot = BoardHost(replace(world.bot.config, computer_offer_wait=60))  # a restart: the sweep wakes the game
    await world.env.restart_bot(world.bot)
    await world.bot.wait_until_ready()
    await world.env.settle()
    return await lobby_row(world), offer_id


def offer_state(world: World, row: GameRow) -> tuple[list[int], list[dict[str, Any]]]:
    game = world.bot.rows.game(row)
    assert isinstance(game, Catan)
    return game.actors(), game.offers


async def test_a_computer_offer_stays_open_for_the_person_until_they_answer(world: World) -> None:
    row, offer = await catan_with_a_computer_offer_open(world)
    log = await world.bot.games.actions(row.id)
    assert log[-1]["type"] in ("accept", "decline") and log[-1]["player"] == 2, "the other computer answered at once"
    await world.env.advance_time(40)
    row = await lobby_row(world)
    actors, offers = offer_state(world, row)
    assert [o["id"] for o in offers] == [offer] and actors == [1, 0], "computer 1 waits for alice's answer"
    decline = t("catan.button.decline", offer=offer)
    message = next(m for m in reversed(list(world.channel.history())) if decline in labels(m))
    await world.alice.click(message, label=decline)
    await world.env.settle()
    log = await world.bot.games.actions(row.id)
    assert log[-1]["player"] == 1, "once alice has answered, computer 1 moves on at once"
    assert not world.env.errors


async def test_a_computer_moves_on_when_the_person_does_not_answer_in_time(world: World) -> None:
    row, _ = await catan_with_a_computer_offer_open(world)
    before = len(await world.bot.games.actions(row.id))
    await world.env.advance_time(30)
    assert len(await world.bot.games.actions(row.id)) == before
    await world.env.advance_time(35)
    log = await world.bot.games.actions(row.id)
    assert len(log) > before and log[before]["player"] == 1, "after the wait, computer 1 goes on with its turn"
    assert not world.env.errors


def test_computers_answer_offers_before_the_computer_on_turn_moves_on() -> None:
    from bot.host.computer_seats import computers_owing, people_owing_replies
    from bot.storage import Seat

    game = Catan.new(["alice", "C1", "C2"], {"first_player": 1}, 3)
    picker = random.Random(2)
    while not (game.phase == "main" and game.current == 1 and game.legal_actions(1)[0]["type"] != "roll"):
        seat = game.actors()[0]
        legal = [a for a in game.legal_actions(seat) if a["type"] not in TRADES]
        game.apply(picker.choice(legal))
        if game.phase == "main" and game.current != 1:
            game.apply({"player": game.current, "type": "end"})
    offer = next(a for a in game.legal_actions(1) if a["type"] == "offer" and a.get("to") is None)
    game.apply(offer)
    seats = [Seat(10, "alice"), Seat(-1, "C1", level="random"), Seat(-2, "C2", level="random")]
    row = GameRow.__new__(GameRow)
    object.__setattr__(row, "status", "active")
    object.__setattr__(row, "seats", seats)
    object.__setattr__(row, "stand_ins", [])
    object.__setattr__(row, "game", "catan")
    assert game.actors() == [1, 0, 2]
    assert computers_owing(row, game) == [2, 1], "computer 2 answers first, computer 1 moves on last"
    assert people_owing_replies(row, game) == [0]


async def test_a_closing_bot_stops_a_computer_waiting_for_answers_even_one_just_woken(world: World) -> None:
    """A person answers the computer's offer (its runner is woken from its wait) just as the bot closes: the runner
    stops all the same, and none starts again, so that nothing moves while the database closes."""
    row, _ = await catan_with_a_computer_offer_open(world)
    players = world.bot.get_cog("Computers").players  # type: ignore[union-attr]
    runner = players._runners[row.id]
    assert not runner.done(), "computer 1 waits for alice's answer"
    players.wake(row.id)  # her answer
    await players.stop()  # and the close, before the runner has run again
    assert runner.done()
    players.wake(row.id)
    assert row.id not in players._runners, "a closing bot starts no runner"
