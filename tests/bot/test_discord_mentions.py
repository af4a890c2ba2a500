"""Nobody is pinged by a name: players whose nicknames look like mentions play through a lobby, turns, a takeover,
leaving and abandoning, and every message the bot sent may ping only the players it meant to, never @everyone,
@here, a role, or anybody else (simcord works out each message's pings from its content and allowed mentions, as
Discord does)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.app import BoardHost
from bot.core.config import Config
from bot.core.pings import harmless
from bot.flows.game_commands import show_lobby
from bot.local.loopback import mentions
from bot.storage import GameRow
from tests.bot.conftest import reply
from tests.bot.test_discord_carcassonne import labels, place

HOUR = 3600


@pytest.fixture
def simcord_bot(tmp_path: Path) -> BoardHost:
    config = Config(
        database=tmp_path / "bot.sqlite3", reminder_check=1800, computer_pause=0, computer_offer_wait=0,
        render_processes=0,
    )  # fmt: skip
    return BoardHost(config)


@dataclass
class Crowd:
    env: Any
    bot: BoardHost
    channel: Any
    role: Any
    outsider: Any  # a member who never plays
    alice: Any  # nicknamed "@everyone <@&role> @here"
    bob: Any  # nicknamed "<@outsider>"
    carol: Any  # nicknamed "@here"

    @property
    def players(self) -> set[int]:
        return {self.alice.id, self.bob.id, self.carol.id}


@pytest.fixture
async def crowd(simcord_env: Any, simcord_bot: BoardHost) -> AsyncIterator[Crowd]:
    await simcord_bot.tree.sync()
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    role = guild.create_role("regulars", mentionable=True)
    outsider = guild.add_member(simcord_env.create_user("dave"))
    alice = guild.add_member(simcord_env.create_user("alice"), nick=f"@everyone <@&{role.id}> @here")
    bob = guild.add_member(simcord_env.create_user("bob"), nick=f"<@{outsider.id}>")
    carol = guild.add_member(simcord_env.create_user("carol"), nick="@here")
    yield Crowd(simcord_env, simcord_bot, channel, role, outsider, alice, bob, carol)


def sent(crowd: Crowd) -> Iterator[Any]:
    """Every message the bot posted anywhere (channels, DMs, interaction replies), as simcord stores it now."""
    bot_id = crowd.env.backend.bot_user.id
    for messages in crowd.env.backend.messages.values():
        yield from (m for m in messages.values() if m.author_id == bot_id)


def bodies(crowd: Crowd) -> Iterator[tuple[str, dict[str, Any]]]:
    """The body of every message the bot sent or edited with a text, as it went over the wire (an edit of embeds or
    buttons only keeps the text, and its pings, as they were; an embed never pings)."""
    for request in crowd.env.http_requests:
        body = request.json
        if isinstance(body, dict) and isinstance(body.get("data"), dict):
            body = body["data"]  # an interaction response
        if isinstance(body, dict) and body.get("content"):
            yield f"{request.method} {request.path}", body


def pinged(crowd: Crowd, text: str) -> list[int]:
    """Who the bot's message containing ``text`` pinged."""
    found = [m for m in sent(crowd) if text in m.content]
    assert found, f"no message says {text!r}"
    return list(found[-1].ping_user_ids)


async def lobby_row(crowd: Crowd) -> GameRow:
    row = await crowd.bot.games.open_in_channel(crowd.channel.id)
    assert row is not None
    return row


async def move(crowd: Crowd, who: Any) -> None:
    message = await place(crowd, who)  # type: ignore[arg-type]  # place() needs only .channel
    if "No follower" in labels(message):
        await who.click(message, label="No follower")


async def test_names_that_look_like_mentions_ping_nobody(crowd: Crowd) -> None:
    alice, bob, carol = crowd.alice, crowd.bob, crowd.carol
    # a lobby: alice hosts, bob joins, carol joins and leaves again
    await alice.slash(crowd.channel, "carcassonne new", river=False, turn_limit=2, takeover=True)
    await bob.click(crowd.channel.last_message, label="Join")
    await carol.click(crowd.channel.last_message, label="Join")
    left = reply(await carol.slash(crowd.channel, "game leave"))
    assert harmless("@here") in left.content and "@here" not in left.content  # the name reads as no mention
    row = await lobby_row(crowd)
    await crowd.bot.games.update(row.id, row.version, options={**row.options, "first_player": 0})
    row = await lobby_row(crowd)
    await show_lobby(crowd.bot, row)
    assert row.message_id is not None
    lobby = next(m for m in crowd.channel.history() if m.id == row.message_id)
    await alice.click(lobby, label="Start")
    assert set(pinged(crowd, "Carcassonne begins")) == {alice.id}  # the opening turn: alice places first

    # turns, each naming the players
    await move(crowd, alice)
    assert pinged(crowd, crowd.channel.last_message.content) == [bob.id]
    await move(crowd, bob)
    # alice runs out of time: a computer plays for her (she is told so); bob plays on; alice is back
    await crowd.env.advance_time(2.5 * HOUR)
    assert pinged(crowd, "ran out of time") == [alice.id]
    notice = next(m for m in crowd.channel.history() if "ran out of time" in (m.content or ""))
    await move(crowd, bob)
    await alice.click(notice, label="I'm back")
    # bob leaves the running game (a computer takes his seat); then alice leaves, which ends it
    await bob.slash(crowd.channel, "game leave")
    await alice.slash(crowd.channel, "game leave")
    assert (await crowd.bot.games.get(row.id)).status == "abandoned"  # type: ignore[union-attr]
    # another lobby, abandoned by its host
    await carol.slash(crowd.channel, "carcassonne new")
    await carol.slash(crowd.channel, "game abandon")

    messages = list(sent(crowd))
    assert len(messages) > 10
    for message in messages:
        assert not message.mention_everyone, message.content
        assert not message.ping_role_ids, message.content
        assert crowd.outsider.id not in message.ping_user_ids, message.content
        assert set(message.ping_user_ids) <= crowd.players, message.content
    said = "\n".join(m.content for m in messages)
    assert f"<@{crowd.outsider.id}>" not in said and "@everyone" not in said and "@here" not in said
    # every body the bot sent says whom it may ping, by id: never everyone, roles or users by the content
    wire = list(bodies(crowd))
    assert len(wire) > 10
    for where, body in wire:
        allowed = body.get("allowed_mentions")
        assert allowed is not None and allowed.get("parse") == [], (where, body)
        assert not set(map(int, allowed.get("users", []))) - crowd.players, (where, body)
        assert not allowed.get("roles"), (where, body)
        assert not mentions.check(allowed), (where, body)  # and the fake Discord's reading agrees
        heard = mentions.pings(body["content"], allowed)
        assert not heard.everyone and not heard.roles and heard.users <= crowd.players, (where, body)
