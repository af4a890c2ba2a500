"""Crashes and Discord's faults against the outbox's promise (issue 22), through the real bot process and the fake
Discord (``crashes.py``): every stored move reaches the game's channel exactly once, at its version, with its pings,
whatever happens between storing it and posting it.

- kill -9 between storing a move and posting it, at moves of both games chosen at random (seeded), with the request
  never reaching Discord, done with its answer slow or lost (the nonce then finds the message made), refused by an
  outage or a rate limit, or the channel out of the bot's sight (``crashes.MODES``);
- kill -9 around the final scores and while the timelapse is drawn, and SIGTERM right after a game's last move;
- Discord failing while the bot runs: 5xx bursts, 429s, slow answers, a dropped gateway, missing permissions,
  closed DMs, a deleted turn message, a deleted channel.

After each, ``crashes.told_once`` reads the fake's record: every version once, in order, with its pings, the old
buttons gone; and the bot's log has no traceback or error.
"""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.local.loopback import Message
from bot.text import t
from bot.text.i18n import speaking
from engine.catan.state import MAIN
from tests.bot.fuzzing import Catalogue
from tests.process.catan_play import Script, bundle
from tests.process.conftest import Launcher
from tests.process.crashes import (
    HELD,
    MODES,
    NONCE,
    Host,
    Play,
    answered,
    carcassonne_play,
    catan_play,
    channel_routes,
    dm_posts,
    interrupted,
    offers,
    picture_is_the_spectators,
    timelapses,
    told_once,
)
from tests.process.people import GAME_ID, Table, WatchedDiscord, find, has

DECK = ["E", "U", "V", "B", "K", "A", "L", "W", "J", "R"]  # a short game: 10 tiles, 20 moves
SEED = 22  # which moves are interrupted, and how
CLOSE_WITHIN = 9.0  # seconds a SIGTERM may take (handlers get 3 s, then 1 to stop; the close 5 s at most)


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[Host]:
    fake = WatchedDiscord()
    await fake.start()
    launcher = Launcher(tmp_path, fake)
    try:
        code, sync = await launcher.run("sync", "--guild", str(fake.guild_id))
        assert code == 0, sync.log
        yield Host(launcher, fake, launcher.config())
    finally:
        for bot in launcher.started:
            bot.kill()
            await bot.proc.wait()
        await fake.stop()


def interruptions(rng: random.Random, steps: range, modes: list[str]) -> dict[int, str]:
    """Which moves (by their number) are interrupted, and how: ``modes`` at moves drawn from ``steps``."""
    rng.shuffle(modes)
    return dict(zip(sorted(rng.sample(steps, len(modes))), modes, strict=True))


def last_move(play: Play, action: dict[str, object]) -> bool:
    game = play.table.engine.copy()
    game.apply(action)
    while (automatic := game.automatic_action()) is not None:
        game.apply(automatic)
    return bool(game.finished)


async def test_carcassonne_killed_between_storing_and_posting_shows_every_move_once(host: Host) -> None:
    play = carcassonne_play(host.fake, host.database, DECK, seed=3)
    await host.start()
    await play.open("carcassonne new", river=False)
    rng = random.Random(SEED)
    chosen = interruptions(rng, range(1, 19), [*MODES, *rng.sample(MODES, 2)])
    step = 0
    while not last_move(play, play.next_action()):
        mode = chosen.get(step)
        if mode is None:
            await play.move(host)
        else:
            await interrupted(host, play, mode)
            told_once(play)
        step += 1
    await interrupted(host, play, "hang", picture=False)  # the final scores
    host.fake.hang(f"POST /channels/{play.table.channel_id}/messages", 600, times=None)  # no timelapse yet
    assert not timelapses(play)
    told_once(play)
    await picture_is_the_spectators(play, play.table.version)
    assert any(e.deduplicated for e in host.fake.exchanges), "no retry met the message its nonce had made"
    await host.restart()  # while the timelapse is drawn
    await host.fake.wait_for(lambda: not host.owed(play.table.game_id), timeout=30)
    told_once(play)
    assert len(timelapses(play)) == 1
    host.assert_clean_logs()


async def test_catan_killed_between_storing_and_posting_shows_every_move_once(host: Host) -> None:
    play = catan_play(host.fake, host.database, seed=5)
    await host.start()
    await play.open("catan new", points_to_win=2)  # over once the set-up is: 12 moves
    rng = random.Random(SEED)
    chosen = interruptions(rng, range(0, 11), [*MODES, rng.choice(MODES)])
    step = 0
    while not last_move(play, play.next_action()):
        mode = chosen.get(step)
        if mode is None:
            await play.move(host)
        else:
            await interrupted(host, play, mode)
            told_once(play)
        step += 1
    await interrupted(host, play, "hang_after", picture=False)  # the final scores, posted, the answer never came
    host.fake.hang(f"POST /channels/{play.table.channel_id}/messages", 600, times=None)  # no timelapse yet
    assert not timelapses(play)
    told_once(play)
    await picture_is_the_spectators(play, play.table.version)
    assert any(e.deduplicated for e in host.fake.exchanges), "no retry met the message its nonce had made"
    took = await host.terminate(CLOSE_WITHIN)  # while the timelapse is drawn
    await host.start()
    await host.fake.wait_for(lambda: not host.owed(play.table.game_id), timeout=30)
    told_once(play)
    assert len(timelapses(play)) == 1
    host.assert_clean_logs()
    print(f"\nSIGTERM while the timelapse was drawn: exit 0 after {took:.1f} s")


async def test_a_sigterm_right_after_the_last_move_exits_at_once_and_the_timelapse_comes_after_the_restart(
    host: Host,
) -> None:
    play = carcassonne_play(host.fake, host.database, ["E"], seed=3)
    await host.start()
    await play.open("carcassonne new", river=False)
    await play.move(host)
    await play.send()  # the last move
    assert play.finished
    await play.table.settled()  # the final scores: the timelapse is being drawn
    host.fake.hang(f"POST /channels/{play.table.channel_id}/messages", 600, times=None)  # and is not posted yet
    took = await host.terminate(CLOSE_WITHIN)
    assert not timelapses(play)
    await host.start()
    await host.fake.wait_for(lambda: not host.owed(play.table.game_id), timeout=30)
    told_once(play)
    assert len(timelapses(play)) == 1
    host.assert_clean_logs()
    print(f"\nSIGTERM right after the last move: exit 0 after {took:.1f} s")


async def turn_end(play: Play, host: Host) -> None:
    """Play on until the next move ends a turn (its turn message is a new one)."""
    while play.next_action()["type"] == "place":
        await play.move(host)


async def placing(play: Play, host: Host) -> None:
    """Play on until the next move places a tile (the turn message offers the cells)."""
    while play.next_action()["type"] != "place":
        await play.move(host)


@pytest.mark.parametrize("mode", ["hang", "hang_after", "error"])
async def test_a_sigterm_while_a_move_is_being_posted_stops_the_delivery_and_the_restart_shows_the_move_once(
    host: Host, mode: str
) -> None:
    # The close waits a little for deliveries under way, then stops them before the HTTP session and the database
    # close under them: no error in the log, and what was done of the change is kept for the next start.
    play = carcassonne_play(host.fake, host.database, DECK[:4], seed=3)
    await host.start()
    await play.open("carcassonne new", river=False)
    await play.move(host)
    await interrupted(host, play, mode, sigterm=CLOSE_WITHIN)
    await play.move(host)  # the game goes on
    told_once(play)
    host.assert_clean_logs()


async def test_a_sigterm_while_a_command_is_still_being_answered_ends_its_handler_cleanly(host: Host) -> None:
    # /game status is acknowledged at once and answered after: the answer hangs. The bot gives its handlers a few
    # seconds, then stops them before the HTTP session closes under them: no traceback, and the game goes on.
    play = carcassonne_play(host.fake, host.database, DECK[:4], seed=3)
    await host.start()
    await play.open("carcassonne new", river=False)
    await play.move(host)
    since = len(host.fake.exchanges)
    host.fake.hang("* /webhooks/**", 600, times=None)  # the answer after the deferral
    host.reads.add(await play.table.slash(play.table.people[0], "game status"))  # a read: nobody owes its answer
    await host.fake.wait_for(lambda: any(e.fault == "hang" for e in host.fake.exchanges[since:]), timeout=30)
    await host.terminate(CLOSE_WITHIN)
    await host.start()
    await play.move(host)  # the game goes on
    told_once(play)
    host.assert_clean_logs()


async def test_a_kill_between_abandoning_a_game_and_saying_so_leaves_the_line_to_the_next_process(host: Host) -> None:
    # /game abandon stores the game as abandoned with the channel's line owed: the line's request never arrives and
    # the bot is killed. The next process says it, in the answer the command deferred, and retires the buttons.
    play = carcassonne_play(host.fake, host.database, DECK, seed=3)
    await host.start()
    await play.open("carcassonne new", river=False)
    await play.move(host)
    table, fake = play.table, host.fake
    since = len(fake.exchanges)
    fake.hang("POST /webhooks/**", HELD, times=None)  # the line, as the deferred answer's follow-up
    asked = await table.slash(table.people[0], "game abandon")
    await fake.wait_for(lambda: any(e.fault == "hang" for e in fake.exchanges[since:]), timeout=30)
    assert host.game(table.game_id)["status"] == "abandoned"
    await host.restart()
    await fake.wait_for(lambda: not host.owed(table.game_id), timeout=30)
    await answered(fake)
    line = fake.interactions[asked].original
    assert line is not None and not line.ephemeral, line
    with speaking("en"):
        assert line.content == t("cmd.abandoned", name=table.people[0].name, game=t("game.carcassonne")), line.content
    assert not [m for m in fake.messages_in(table.channel_id) if offers(m.versions[-1], table.game_id)], "buttons left"
    host.assert_clean_logs()


async def started(host: Host) -> tuple[Table, WatchedDiscord]:
    """The bot started, and a table of two in its channel (nobody has opened a lobby yet)."""
    play = carcassonne_play(host.fake, host.database, DECK, seed=3)
    await host.start()
    return play.table, host.fake


async def opened_lobby(table: Table, fake: WatchedDiscord) -> tuple[Message, int, int]:
    """The first person opens a Carcassonne lobby: its message, its game and its version."""
    await table.slash(table.people[0], "carcassonne new", river=False)
    lobby = await fake.wait_message(table.channel_id, where=lambda m: has(m, "join"))
    match = GAME_ID.match(find(lobby, "join")["custom_id"])
    assert match is not None
    return lobby, int(match["game"]), int(match["version"])


async def test_a_seat_taken_as_the_bot_is_killed_is_shown_in_the_lobby_after_the_restart(host: Host) -> None:
    # Bob's Join is stored and its answer (the lobby message brought up to date) never reaches Discord: the bot is
    # killed. The lobby message must not keep offering the version that is gone (every button would be refused):
    # the next process shows the lobby as it is, and the host starts the game from it.
    table, fake = await started(host)
    alice, bob = table.people
    lobby, game_id, opened = await opened_lobby(table, fake)
    since = len(fake.exchanges)
    fake.hang("POST /interactions/*/*/callback", HELD, times=None)  # the answer: the lobby message edited
    await table.click(bob, lobby, find(lobby, "join"))
    await fake.wait_for(lambda: any(e.fault == "hang" for e in fake.exchanges[since:]), timeout=30)
    assert host.game(game_id)["version"] == opened + 1  # stored
    await host.restart()
    await fake.wait_for(lambda: not host.owed(game_id), timeout=30)
    joined = int(GAME_ID.match(find(lobby, "start")["custom_id"])["version"])  # type: ignore[index]
    assert joined == opened + 1 and f"<@{bob.id}>" in json.dumps(lobby.embeds), lobby.embeds
    await table.click(alice, lobby, find(lobby, "start"))
    await fake.wait_for(lambda: host.game(game_id)["status"] == "active", timeout=30)
    await fake.wait_for(lambda: not host.owed(game_id), timeout=30)
    assert not has(lobby, "join"), "the lobby's buttons after the start"
    host.assert_clean_logs()


async def test_a_kill_between_leaving_a_lobby_by_command_and_saying_so_leaves_the_line_to_the_next_process(
    host: Host,
) -> None:
    # Bob's /game leave in a lobby is stored with the channel's line owed: the line's request never arrives and the
    # bot is killed. The next process says it, in the answer the command deferred, and shows the lobby without him.
    table, fake = await started(host)
    bob = table.people[1]
    lobby, game_id, _ = await opened_lobby(table, fake)
    await table.click(bob, lobby, find(lobby, "join"))
    await fake.wait_for(lambda: f"<@{bob.id}>" in json.dumps(lobby.embeds), timeout=30)
    since = len(fake.exchanges)
    fake.hang("POST /webhooks/**", HELD, times=None)  # the line, as the deferred answer's follow-up
    asked = await table.slash(bob, "game leave")
    await fake.wait_for(lambda: any(e.fault == "hang" for e in fake.exchanges[since:]), timeout=30)
    assert len(json.loads(host.rows("SELECT seats FROM games WHERE id = ?", game_id)[0]["seats"])) == 1  # stored
    await host.restart()
    await fake.wait_for(lambda: not host.owed(game_id), timeout=30)
    await answered(fake)
    line = fake.interactions[asked].original
    assert line is not None and not line.ephemeral, line
    with speaking("en"):
        assert line.content == t("lobby.left", name=bob.name), line.content
    await fake.wait_for(lambda: f"<@{bob.id}>" not in json.dumps(lobby.embeds), timeout=30)
    host.assert_clean_logs()


async def test_carcassonne_through_discords_faults_tells_every_move_once(host: Host) -> None:
    host.config = host.launcher.config(discord="archive_after_hours = 0.001\n")  # 3.6 s
    play = carcassonne_play(host.fake, host.database, [*DECK, "E", "U"], seed=3)
    fake, table = host.fake, play.table
    alice, bob = table.people
    await host.start()
    await play.open("carcassonne new", river=False)
    post, edit = channel_routes(table.channel_id)
    game_id = table.game_id

    # A 5xx burst on the channel's posts: discord.py retries the 500 itself, the outbox the 503s. Meanwhile the next
    # player places a tile with /place: that waits behind, and both arrive, in order.
    await turn_end(play, host)
    faults = [fake.fail(post, 500), fake.fail(post, 503, times=2)]
    await play.send()
    await fake.wait_for(lambda: host.stored(game_id, table.version) and faults[1].hits, timeout=10)
    await play.send(by_command=True)
    await host.delivered(table)
    assert [f.hits for f in faults] == [1, 2]
    told_once(play)

    # A 429 with retry_after, then slow answers: discord.py waits, the moves arrive once.
    faults = [fake.rate_limit(post, retry_after=1.0), fake.rate_limit(edit, retry_after=1.0)]
    faults += [fake.hang_after(post, 2.0, times=2), fake.hang_after(edit, 2.0, times=2)]
    for _ in range(3):
        await play.move(host)
    assert all(f.hits for f in faults), [f.hits for f in faults]
    told_once(play)

    # The gateway drops while a move is delivered: the bot resumes, and the game plays on.
    resumed = fake.resumed
    await play.send()
    await fake.drop_gateway(4000)
    await fake.wait_for(lambda: fake.resumed > resumed, timeout=20)
    await host.delivered(table)
    await play.move(host)
    told_once(play)

    # Missing permissions: the game waits, the host is told once (in their language) which one, /game status says
    # why; once Discord gives it back, what is owed arrives by itself, in order.
    await turn_end(play, host)
    await fake.deny(table.channel_id, "send_messages")
    await play.send()
    waits = table.version
    await fake.wait_for(lambda: waiting(host, game_id) == "permissions:send_messages", timeout=10)
    status = await table.reply(await table.slash(bob, "game status"))
    with speaking("en"):
        assert t("permission.send_messages") in status.content + json.dumps(status.embeds), status
    await play.send(by_command=True)  # the next player places meanwhile: it waits behind (and tries again)
    await fake.wait_for(lambda: host.stored(game_id, table.version) and tried_since(host, game_id, waits), timeout=10)
    told_host = fake.dms(alice.id)
    with speaking("ru"):
        assert len(told_host) == 1 and t("permission.send_messages") in told_host[0].content, told_host
        assert t("permission.embed_links") not in told_host[0].content  # Discord's consequence, not its cause
    await fake.allow(table.channel_id)
    await host.delivered(table, timeout=15)  # long before the next retry (a minute): the update woke it
    told_once(play)
    assert len(fake.dms(alice.id)) == 1

    # The turn message deleted: the next move posts a new one, with the buttons.
    await placing(play, host)
    await fake.delete_message(table.turn_message())
    await play.move(host, by_command=True)
    told_once(play)

    # The channel deleted while a move is posted: nothing crashes, the move stays owed, then the game is archived.
    await turn_end(play, host)
    fault = fake.hang(post, 1.0)
    await play.send()
    await fake.wait_for(lambda: host.stored(game_id, table.version) and fault.hits, timeout=10)
    await fake.delete_channel(table.channel_id)
    await fake.wait_for(lambda: waiting(host, game_id) == "channel_gone", timeout=10)
    assert host.game(game_id)["status"] == "active"
    await fake.wait_for(lambda: host.game(game_id)["status"] == "abandoned" and not host.owed(game_id), timeout=20)
    assert host.bot.proc.returncode is None
    host.assert_clean_logs()
    fake.check()


def waiting(host: Host, game_id: int) -> str | None:
    """Why the game's oldest owed change waits, as the outbox recorded it."""
    owed = host.owed(game_id)
    return next((row["problem"] for row in owed.values() if row["problem"]), None)


def tried_since(host: Host, game_id: int, waited: int) -> bool:
    """Whether the game's owed changes have all been tried since ``waited`` first failed (it was tried again, or
    delivered: a change the game has moved past may have nothing left to tell)."""
    owed = host.owed(game_id)
    again = waited not in owed or owed[waited]["attempts"] >= 2
    return again and all(row["attempts"] >= 1 for row in owed.values())


async def first_private_offer(host: Host) -> tuple[Play, dict[str, Any]]:
    """A Catan game played through its set-up and first roll, and the private offer its first player can make."""
    play = catan_play(host.fake, host.database, seed=5)
    table = play.table
    await host.start()
    await play.open("catan new")
    while table.engine.phase != MAIN:  # the set-up, the first roll (and the robber, on a 7)
        await play.move(host)
    game = table.engine
    offer = Script(table.seed).private_offer(game, game.current)
    assert offer is not None, "choose a seed where the first player can offer the next one a card"
    return play, offer


async def test_a_form_open_when_the_bot_restarts_is_taken_after_the_restart(host: Host) -> None:
    """A player opens the offer form and types while the bot restarts (an update, a crash): discord.py kept open forms
    in memory only, so the submit after the restart was dropped unanswered ("This interaction failed") and the
    offer never made. The form's id names what its submit does, as a button's does: the new process makes the
    offer and tells its maker."""
    play, offer = await first_private_offer(host)
    table = play.table
    maker = table.people[offer["player"]]
    menu = await play.people.menu(maker, table.turn_message(), "trade")
    opened = await table.click(maker, menu, find(menu, "offer", str(offer["to"])))
    await host.fake.wait_answer(opened)
    assert host.fake.interactions[opened].modal is not None, "no form shown"
    await host.restart()
    sent = await table.submit(maker, opened, {"give": bundle(offer["give"]), "get": bundle(offer["get"])})
    play.made(table.applied(offer))
    await host.delivered(table)
    told = await table.reply(sent)
    assert told.ephemeral and table.people[offer["to"]].name in told.content, told.content  # the offer, privately
    made = [e for e in play.events[table.version] if e["type"] == "offer_made"]
    assert made and table.engine.offers, made
    told_once(play)
    host.assert_clean_logs()


async def test_catan_player_with_closed_dms_is_told_once_in_the_channel_then_only_mentioned(host: Host) -> None:
    play, offer = await first_private_offer(host)
    fake, table = host.fake, play.table
    maker, shy = table.people[offer["player"]], table.people[offer["to"]]
    fake.close_dms(shy.id)
    since = max(m.id for m in fake.messages_in(table.channel_id))

    # A private offer to the player whose DMs are closed: the DM fails, the channel tells them so, once.
    await play.move(host, offer)
    offer_id = next(e["offer"] for e in play.events[table.version] if e["type"] == "offer_made")
    # Its maker withdraws it (from /hand): more private news, told by a mention only, without trying a DM again.
    hand = await table.reply(await table.slash(maker, "hand"))
    await table.click(maker, hand, find(hand, "wd", str(offer_id)))
    play.made(table.applied({"player": offer["player"], "type": "withdraw", "offer": offer_id}))
    await host.delivered(table)
    told_once(play)

    attempts = dm_posts(fake, shy.id)
    assert [(e.status, e.code) for e in attempts] == [(403, 50007)], attempts
    catalogue = Catalogue()
    # the notices carry their change's private-news nonce plus "c" (told once even if the change is delivered again)
    notices = [m for m in fake.messages_in(table.channel_id) if m.id > since and f"<@{shy.id}>" in m.content
               and (found := NONCE.fullmatch(m.nonce or "")) and found["part"].endswith("c")]  # fmt: skip
    assert [catalogue.key(m.content, set()) for m in notices] == ["catan.dm_closed", "catan.dm_instead"], notices
    assert all(m.pings.users == {shy.id} for m in notices), [m.pings for m in notices]
    host.assert_clean_logs()


async def test_a_form_submitted_before_the_bot_has_read_the_answer_that_showed_it_is_still_taken(host: Host) -> None:
    """A person's submit can reach the bot before the answer to its own request to show the form: the gateway and
    the HTTP answer race on a busy bot. discord.py learned of a form only once it had read that answer, and dropped
    such a submit unanswered: a trade offer was never made, and the whole-games test stalled so under load. Here
    Discord answers every interaction's callback two seconds late, and the offer form is filled in at once."""
    play, offer = await first_private_offer(host)
    fake, table = host.fake, play.table
    fake.hang_after("POST /interactions/*/*/callback", 2.0, times=None)  # done at once, answered late
    await play.move(host, offer)  # the menu, the form (submitted at once), the offer: delivered, or a timeout
    made = [e for e in play.events[table.version] if e["type"] == "offer_made"]
    assert made and table.engine.offers, made
    fake.clear_faults()
    told_once(play)
    host.assert_clean_logs()
