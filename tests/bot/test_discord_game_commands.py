"""/game status, board, rules, abandon, leave, export, /stats and /settings through simulated Discord."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.storage import GameRow
from bot.text import t
from bot.text.i18n import text
from tests.bot.conftest import World, reply
from tests.bot.test_discord_carcassonne import DECK, labels, place, start


async def start_carcassonne(world: World) -> None:
    await world.alice.slash(world.channel, "carcassonne new", river=False)
    lobby = world.channel.last_message
    await world.bob.click(lobby, label="Join")
    await world.alice.click(lobby, label="Start")


async def test_commands_without_a_game_explain_how_to_start(world: World) -> None:
    status = reply(await world.bob.slash(world.channel, "game status"))
    assert status.ephemeral and "/carcassonne new" in status.content
    rules = reply(await world.bob.slash(world.channel, "game rules"))
    assert rules.ephemeral and "Carcassonne" in rules.content and "Catan" in rules.content
    stats = reply(await world.bob.slash(world.channel, "stats"))
    assert "No finished games" in stats.content


async def test_status_board_and_rules_of_a_running_game(world: World) -> None:
    await start_carcassonne(world)
    status = reply(await world.carol.slash(world.channel, "game status"))
    assert status.ephemeral and "turn 1" in status.embeds[0].title
    assert "alice: 0" in status.embeds[0].description and "Waiting for <@" in status.embeds[0].description
    board = reply(await world.carol.slash(world.channel, "game board"))
    assert board.attachments and board.attachments[0].filename == "board.png"
    assert board.attachments[0].description.startswith("Carcassonne board at turn 1. ")  # the picture in words
    rules = reply(await world.carol.slash(world.channel, "game rules"))
    assert "Carcassonne" in rules.content and "Catan" not in rules.content
    export = reply(await world.alice.slash(world.channel, "game export"))
    assert export.ephemeral and "once it is over" in export.content


async def test_status_tells_the_host_and_moderators_when_the_database_refuses_moves(world: World) -> None:
    await start(world, DECK)  # alice hosts and plays first
    mods = world.alice.guild.create_role("mods", permissions=discord.Permissions(manage_channels=True))
    moderator = world.alice.guild.add_member(world.env.create_user("moderator"), roles=[mods])
    line = t("cmd.status.storage", problem="readonly: attempt to write a readonly database (SQLITE_READONLY)")

    def shown(user: object) -> bool:
        return line in status[user].embeds[0].description

    await world.bot.db.execute("PRAGMA query_only = ON")  # the database stops taking writes
    turn = world.channel.last_message
    await place(world, world.alice)
    assert world.channel.last_message.id == turn.id, "the move was refused"
    status = {user: reply(await user.slash(world.channel, "game status")) for user in (world.alice, world.bob,
              world.carol, moderator)}  # fmt: skip
    assert shown(world.alice) and shown(moderator), "the host and whoever manages the channel are told"
    assert not shown(world.bob) and not shown(world.carol), "players and onlookers are not"

    await world.bot.db.execute("PRAGMA query_only = OFF")  # writable again: the next move is stored
    message = await place(world, world.alice)
    assert "placed a tile" in message.content
    status = {world.alice: reply(await world.alice.slash(world.channel, "game status"))}
    assert not shown(world.alice)


async def test_a_player_who_leaves_is_replaced_by_a_computer_and_the_last_person_leaving_ends_the_game(
    world: World,
) -> None:
    await start_carcassonne(world)
    refused = reply(await world.carol.slash(world.channel, "game abandon"))
    assert refused.ephemeral and "Only the host" in refused.content
    outsider = reply(await world.carol.slash(world.channel, "game leave"))
    assert outsider.ephemeral and "not playing" in outsider.content
    row = await world.bot.games.open_in_channel(world.channel.id)
    assert row is not None and row.message_id is not None
    bob = row.seat_of(world.bob.id)
    assert bob is not None

    left = reply(await world.bob.slash(world.channel, "game leave"))
    assert "bob left the game: a computer player (expert) plays their seat" in left.content
    row = await world.bot.games.open_in_channel(world.channel.id)
    assert row is not None and row.status == "active" and row.stand_ins == [bob], "the game goes on"
    for _ in range(4):  # alice plays; the computer answers for bob each time
        await world.env.advance_time(5)
        game = world.bot.rows.game(await world.bot.games.get(row.id))  # type: ignore[arg-type]
        assert game.actors() == [1 - bob], "the computer never keeps alice waiting"
        message = world.channel.last_message
        if "No follower" in labels(message):
            await world.alice.click(message, label="No follower")
        else:
            await place(world, world.alice)
    log = await world.bot.games.actions(row.id)
    assert any(a["player"] == bob for a in log[2:]), "bob's seat is played by the computer"
    assert f"<@{world.bob.id}>" not in world.channel.last_message.content, "a seat played by a computer is not pinged"

    ended = reply(await world.alice.slash(world.channel, "game leave"))
    assert "ends here" in ended.content, "only a computer would be left: the game ends"
    assert await world.bot.games.open_in_channel(world.channel.id) is None
    again = reply(await world.alice.slash(world.channel, "game abandon"))
    assert again.ephemeral and "no game in this channel" in again.content


async def test_settings_are_remembered(world: World) -> None:
    saved = reply(await world.bob.slash(world.channel, "settings notifications", dm_on_turn=True))
    assert saved.ephemeral and "direct message" in saved.content
    from bot.storage import UserSettings

    assert await UserSettings(world.bot.db).dm_on_turn(world.bob.id)


async def test_an_idle_turn_is_reminded_after_the_configured_delay(world: World) -> None:
    await start_carcassonne(world)
    row = await world.bot.games.open_in_channel(world.channel.id)
    assert row is not None
    first = row.seats[row.options["first_player"]].user_id
    before = world.channel.last_message.id
    await world.env.advance_time(11 * 3600)
    assert world.channel.last_message.id == before, "no reminder before 12 hours"
    await world.env.advance_time(2 * 3600)
    reminder = world.channel.last_message
    assert f"<@{first}>" in reminder.content and "waiting for you" in reminder.content
    await world.env.advance_time(3600)
    assert world.channel.last_message.id == reminder.id, "one reminder per delay"


async def test_a_reminder_discord_fails_to_post_is_posted_at_the_next_sweep_once(world: World) -> None:
    await start_carcassonne(world)
    before = world.channel.last_message.id
    world.env.inject_error("POST", f"/channels/{world.channel.id}/messages", status=503, times=None)
    await world.env.advance_time(13 * 3600)  # the reminder was due: Discord is down
    assert world.channel.last_message.id == before
    world.env.backend.faults.clear()
    await world.env.advance_time(3600)
    reminder = world.channel.last_message
    assert reminder.id != before and "waiting for you" in reminder.content, "not lost: posted once Discord is back"
    await world.env.advance_time(3 * 3600)
    assert world.channel.last_message.id == reminder.id, "posted once"


async def test_leaving_a_lobby_by_command_keeps_its_buttons_working(world: World) -> None:
    await world.alice.slash(world.channel, "carcassonne new", river=False)
    lobby = world.channel.last_message
    await world.bob.click(lobby, label="Join")
    await world.carol.click(lobby, label="Join")
    left = reply(await world.carol.slash(world.channel, "game leave"))
    assert "carol left." in left.content
    shown = world.env.backend.get_message(world.channel.id, lobby.id)
    assert f"<@{world.carol.id}>" not in shown.embeds[0]["fields"][0]["value"]
    await world.alice.click(lobby, label="Start")
    assert "Carcassonne begins" in world.channel.last_message.content


async def test_texts_name_commands_as_clickable_mentions_once_their_ids_are_known(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.core.command_mentions import load_command_ids
    from bot.text import i18n

    monkeypatch.setattr(i18n, "resolve", lambda locale, default="en": "zh-TW")  # bob reads Traditional Chinese
    # what start-up does once sync has run (this bot started before the sync: it knew no ids)
    world.bot.languages.mentions = await load_command_ids(world.bot.db, world.bot.tree, None)
    ids = {c.name: c.id for c in await world.bot.tree.fetch_commands()}
    status = reply(await world.bob.slash(world.channel, "game status"))
    assert status.content == (
        f"這個頻道沒有遊戲。用</carcassonne new:{ids['carcassonne']}>或</catan new:{ids['catan']}>開一局。"
    )


# -- /game rules follows the game's options; /game status after the end -----------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh-CN", "zh-TW", "ru"])
async def test_the_rules_of_a_catan_lobby_state_its_own_options(
    world: World, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    from bot.text import i18n

    await world.alice.slash(world.channel, "catan new", points_to_win=12, strict_phases=True, board="beginner",
                            setup="beginner")  # fmt: skip
    monkeypatch.setattr(i18n, "resolve", lambda locale, default="en": lang)  # carol reads ``lang``

    rules = reply(await world.carol.slash(world.channel, "game rules")).content

    lines = rules.split("\n")
    assert lines[0].startswith(text("rules.catan.turn", lang))
    assert text("rules.catan.goal", lang, count=12) in lines
    assert text("rules.catan.goal", lang, count=10) not in rules, "not the default 10 points"
    assert text("rules.catan.strict_phases", lang) in lines and text("rules.catan.phases", lang) not in rules
    assert text("rules.catan.board.beginner", lang) in lines and text("rules.catan.setup.beginner", lang) in lines
    assert "Carcassonne" not in rules and len(rules) <= 2000
    wording = {
        "en": "The first to 12 points on their own turn wins.",
        "zh-CN": "率先达到12分的玩家获胜",
        "zh-TW": "最先在自己的回合達到12點勝利點數的玩家獲勝",
        "ru": "первым наберёт 12 очков",
    }
    assert wording[lang] in rules


async def test_the_rules_of_a_carcassonne_game_follow_its_options(world: World) -> None:
    await start(world, DECK, farm_scoring="first_edition", small_city=True, tower=True)  # river off, 2 players

    rules = reply(await world.carol.slash(world.channel, "game rules")).content

    assert "a city of just two tiles only 1 per tile and pennant: the small city rule" in rules
    assert "each finished city scores 4 for whoever has the most farmers" in rules
    assert "farm scores 3 per finished city" not in rules
    assert "Without The River" in rules and "The River: its tiles come first" not in rules
    assert "The Tower: instead of placing a follower" in rules and "Each player has 10 tower pieces." in rules
    assert "Catan" not in rules


async def test_the_rules_of_a_default_carcassonne_lobby_name_the_river_and_current_farms(world: World) -> None:
    await world.alice.slash(world.channel, "carcassonne new")

    rules = reply(await world.carol.slash(world.channel, "game rules")).content

    assert "The River: its tiles come first" in rules
    assert "each farm scores 3 per finished city it supplies" in rules
    assert "small city" not in rules and "The Tower" not in rules


async def test_status_after_the_end_shows_the_result_and_where_to_see_the_game_again(world: World) -> None:
    row = await start(world, DECK)
    for user in (world.alice, world.bob, world.alice):
        message = await place(world, user)
        await user.click(message, label="No follower")
    ended = await world.bot.rows.row(row.id)
    result = world.bot.rows.game(ended).result()
    assert ended.status == "finished"

    status = reply(await world.carol.slash(world.channel, "game status"))

    assert status.ephemeral and not status.content
    [embed] = status.embeds
    assert embed.title == f"Carcassonne: finished on turn {result['turn']}"
    names = {0: "alice", 1: "bob"}
    winners = [names[seat] for seat in result["winners"]]
    told = f"Winner: {winners[0]}." if len(winners) == 1 else "A tie: the winners are alice and bob."
    assert told in embed.description
    for seat, score in enumerate(result["scores"]):
        assert f"{names[seat]}: {score}" in embed.description
    assert "Look back at any turn with /game replay, or download the replay file with /game export." in (
        embed.description
    )
    export = reply(await world.carol.slash(world.channel, "game export"))
    assert export.attachments, "the export it points to is there"


async def test_status_after_an_abandon_says_so_and_points_to_the_replay(world: World) -> None:
    await start_carcassonne(world)
    await world.alice.slash(world.channel, "game abandon")

    status = reply(await world.carol.slash(world.channel, "game status"))

    [embed] = status.embeds
    assert embed.title == "Carcassonne: abandoned on turn 1"
    assert "alice: 0" in embed.description and "bob: 0" in embed.description
    assert "Winner" not in embed.description and "/game export" not in embed.description
    assert embed.description.endswith("Look back at any turn with /game replay.")


def beaten_once(world: World, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Another change of the game (a reminder sent, say) is stored between the next change's read and its
    version-guarded write, once; returns the versions the lost writes expected."""
    games = world.bot.games
    update = games.update
    lost: list[int] = []

    async def after_another(game_id: int, expected: int, **changes: Any) -> GameRow:
        if not lost:
            lost.append(expected)
            await update(game_id, expected, reminders_sent=1)  # the version moves on
        return await update(game_id, expected, **changes)

    monkeypatch.setattr(games, "update", after_another)
    return lost


async def test_abandon_and_leave_that_lose_the_race_to_another_change_still_happen_and_the_channel_reads_it(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/game abandon and /game leave answer in the channel, deferred before the write: a write beaten by another
    change (a move, a reminder) is made again on the newer game, never refused as "out of date" in public."""
    await world.alice.slash(world.channel, "carcassonne new", river=False)
    lobby = world.channel.last_message
    await world.bob.click(lobby, label="Join")
    await world.carol.click(lobby, label="Join")
    lost = beaten_once(world, monkeypatch)
    left = reply(await world.carol.slash(world.channel, "game leave"))
    assert lost and not left.ephemeral and "carol left" in left.content, left.content
    row = await world.bot.games.open_in_channel(world.channel.id)
    assert row is not None and row.seat_of(world.carol.id) is None

    await world.alice.click(lobby, label="Start")
    lost = beaten_once(world, monkeypatch)
    left = reply(await world.bob.slash(world.channel, "game leave"))
    assert lost and "bob left the game: a computer player" in left.content, left.content
    row = await world.bot.games.open_in_channel(world.channel.id)
    assert row is not None and row.stand_ins == [row.seat_of(world.bob.id)]

    lost = beaten_once(world, monkeypatch)
    abandoned = reply(await world.alice.slash(world.channel, "game abandon"))
    assert lost and not abandoned.ephemeral and "abandoned" in abandoned.content, abandoned.content
    assert await world.bot.games.open_in_channel(world.channel.id) is None
