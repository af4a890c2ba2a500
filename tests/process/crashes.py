"""Kill -9, SIGTERM and Discord's faults around the outbox (``bot/flows/outbox.py``), through the real bot process and
the
fake Discord: the helpers of ``test_crashes.py``.

- ``Host``: the bot process, killed and started again on the same database (which the test reads: the game's
  version, what the outbox still owes), and its logs.
- ``Play``: one game played by people through interactions (``people.py``), move by move, remembering whom each
  version's turn message must ping.
- ``interrupted``: a move made while the game's channel holds its messages back (a request that never reaches
  Discord, or one done whose answer is slow or lost), the bot killed once the move is stored, then started again.
- ``told_once``: the outbox's promise, read from the fake's record of every message and edit: every version the game
  went through reached the channel exactly once (a message created for it, or the turn message edited to it), in
  order, pinging exactly the people who owed a decision then, and no buttons but the current turn message's are left.
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import time
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.core.rendering import draw
from bot.flows.outbox import PARTS
from bot.local.loopback import Exchange, Message
from engine.history import spectator_events
from tests.process.carcassonne_play import CarcassonnePeople
from tests.process.catan_play import CatanPeople, Script
from tests.process.conftest import BotProcess, Launcher
from tests.process.people import GAME_ID, Table, WatchedDiscord
from tests.process.secrets import same_picture
from tests.process.whole_games import people

HELD = 600.0  # seconds a held request or answer waits: longer than any test, so it is the kill that ends it
NONCE = re.compile(r"b(?P<game>\d+)\.(?P<version>\d+)\.(?P<part>\w+)")
TIMELAPSE = re.compile(r"(?:carcassonne|catan)-(?P<game>\d+)-timelapse\.(?:webp|gif)")
CRASHES_IN_LOG = ("Traceback", "Task exception was never retrieved", " ERROR ", " CRITICAL ")
ANSI = re.compile(r"\x1b\[[0-9;]*m")  # discord.py's log colours
# Ways a channel's request fails when the bot is killed: never reaching Discord (hang), done with its answer held
# (hang_after) or lost (lose_answer), refused by an outage (error: 503s, retried after a back-off), a rate limit
# (discord.py sleeping out a 429's retry_after), the channel out of the bot's sight (denied: it waits); ``hang_edit``
# holds only edits (an edited turn message, or the previous turn message's buttons being taken off after a new one
# was posted).
MODES = ("hang", "hang_edit", "hang_after", "lose_answer", "error", "rate_limit", "denied")


@dataclass
class Host:
    """The bot as a process the test kills and starts again on one database."""

    launcher: Launcher
    fake: WatchedDiscord
    config: Path
    bots: list[BotProcess] = field(default_factory=list)
    # Interactions nothing owes an answer once their process died: a read (``/game status``), not a change.
    reads: set[int] = field(default_factory=set)

    @property
    def bot(self) -> BotProcess:
        return self.bots[-1]

    @property
    def database(self) -> Path:
        return self.launcher.tmp / "boardhost.sqlite3"

    async def start(self) -> BotProcess:
        """Start the bot; returns once it is connected to the gateway."""
        fake = self.fake
        before = fake.identified + fake.resumed
        bot = await self.launcher.start(config=self.config)
        self.bots.append(bot)
        await fake.wait_for(lambda: fake.identified + fake.resumed > before, timeout=30)
        return bot

    async def kill(self) -> None:
        """SIGKILL; then the requests it left held never reach Discord, and Discord works again."""
        bot = self.bot
        bot.kill()
        assert await bot.wait(timeout=10) == -9
        self.fake.drop_held()
        self.fake.clear_faults()

    async def restart(self) -> BotProcess:
        await self.kill()
        return await self.start()

    async def terminate(self, within: float) -> float:
        """SIGTERM: the bot must exit 0 within ``within`` seconds; how long it took."""
        bot = self.bot
        started = time.monotonic()
        bot.terminate()
        code = await bot.wait(timeout=within)
        took = time.monotonic() - started
        assert code == 0, f"exit code {code}\n{bot.log[-3000:]}"
        self.fake.drop_held()
        self.fake.clear_faults()
        return took

    def rows(self, sql: str, *args: Any) -> list[sqlite3.Row]:
        """A read of the bot's database (SQLite in WAL mode: the bot may be writing meanwhile)."""
        with closing(sqlite3.connect(self.database, timeout=10)) as db:
            db.row_factory = sqlite3.Row
            return db.execute(sql, args).fetchall()

    def game(self, game_id: int) -> sqlite3.Row:
        return self.rows("SELECT version, shown_version, status, message_id FROM games WHERE id = ?", game_id)[0]

    def owed(self, game_id: int) -> dict[int, sqlite3.Row]:
        """Version -> what the outbox still owes for it."""
        rows = self.rows("SELECT * FROM outbox WHERE game_id = ? ORDER BY version", game_id)
        return {int(r["version"]): r for r in rows}

    def stored(self, game_id: int, version: int) -> bool:
        """The game is stored at ``version`` and owes the channel that change."""
        return self.game(game_id)["version"] == version and version in self.owed(game_id)

    async def delivered(self, table: Table, timeout: float = 30) -> None:
        """Until the channel shows the game at its current version and the outbox owes it nothing more but, at the
        end of the game, the timelapse (being drawn); and then nobody still waits on a private answer."""
        await table.settled(timeout)
        await self.fake.wait_for(lambda: all(self.drawing(row) for row in self.owed(table.game_id).values()), timeout)
        await answered(self.fake, skip=self.reads)

    @staticmethod
    def drawing(row: sqlite3.Row) -> bool:
        """Whether a change owes nothing but its timelapse (whose drawing has begun)."""
        return set(PARTS["turn"]) - set(json.loads(row["done"])) == {"timelapse"}

    def assert_clean_logs(self) -> None:
        for bot in self.bots:
            log = ANSI.sub("", bot.log)
            found = [line for line in log.splitlines() if any(mark in line for mark in CRASHES_IN_LOG)]
            assert not found, "\n".join(found) + "\n\n" + bot.log[-5000:]


# -- a game played move by move -------------------------------------------------------------------------------------


@dataclass
class Play:
    """A game played through interactions; ``pings[v]``: the people version ``v``'s turn message must ping."""

    table: Table
    people: CarcassonnePeople | CatanPeople
    opening: int = 0
    pings: dict[int, frozenset[int]] = field(default_factory=dict)
    events: dict[int, list[dict[str, Any]]] = field(default_factory=dict)  # version -> the change's events

    @property
    def fake(self) -> WatchedDiscord:
        fake = self.table.fake
        assert isinstance(fake, WatchedDiscord)
        return fake

    @property
    def finished(self) -> bool:
        return bool(self.table.engine.finished)

    def owing(self) -> frozenset[int]:
        """The people owing a decision in the game now, as the channel may know it (nobody once it is over)."""
        game = self.table.engine
        if game.finished:
            return frozenset()
        return frozenset(self.table.people[seat].id for seat in game.public_actors())

    async def open(self, command: str, **lobby: Any) -> None:
        await self.table.open(command, **lobby)
        self.opening = self.table.version
        self.pings[self.table.version] = self.owing()

    def next_action(self) -> dict[str, Any]:
        return self.people.next_action()

    async def send(self, action: dict[str, Any] | None = None, **how: Any) -> dict[str, Any]:
        """Make the next move (or ``action``) through Discord, without waiting for the bot to show it."""
        action = action or self.next_action()
        self.made(await self.people.send(action, **how))
        return action

    def made(self, events: list[dict[str, Any]]) -> None:
        """Note the change just made (``table.applied``'s events)."""
        self.events[self.table.version] = events
        self.pings[self.table.version] = self.owing()

    def story(self, version: int) -> list[str]:
        """What the bot tells of a change the game had moved past when it was delivered: its spectator story."""
        from bot.carcassonne.narration import narrate as carcassonne
        from bot.catan.narration import narrate as catan
        from bot.text.i18n import speaking

        narrate = carcassonne if self.table.kind == "carcassonne" else catan
        with speaking("en"):
            return narrate(spectator_events(self.events.get(version, [])), [p.name for p in self.table.people])

    async def move(self, host: Host, action: dict[str, Any] | None = None, **how: Any) -> dict[str, Any]:
        """Make a move and wait until it is delivered."""
        action = await self.send(action, **how)
        await host.delivered(self.table)
        return action


def carcassonne_play(fake: WatchedDiscord, database: Path, deck: list[str], seed: int) -> Play:
    table = Table(
        fake,
        database,
        "carcassonne",
        people(fake, ("Алиса", "ru"), ("Bob", "en-US")),
        fake.add_channel("carcassonne"),
        seed,
        {"deck": deck},
    )
    return Play(table, CarcassonnePeople(table))


def catan_play(fake: WatchedDiscord, database: Path, seed: int) -> Play:
    table = Table(
        fake,
        database,
        "catan",
        people(fake, ("陈", "zh-CN"), ("林", "zh-TW"), ("Élodie", "en-GB")),
        fake.add_channel("catan"),
        seed,
    )
    return Play(table, CatanPeople(table, Script(seed)))


def waiting(fake: WatchedDiscord, skip: set[int] | frozenset[int] = frozenset()) -> list[str]:
    """The people's interactions still "thinking…": answered by a deferred answer that nothing filled in."""
    found = []
    for inter in fake.interactions.values():
        placeholder = inter.original
        if inter.id in skip or placeholder is None or not inter.answers or inter.answers[0].get("type") != 5:
            continue
        if not (placeholder.content or placeholder.embeds or placeholder.attachments):
            found.append(f"interaction {inter.id} of user {inter.user_id}: {json.dumps(inter.payload.get('data'))}")
    return found


async def answered(fake: WatchedDiscord, timeout: float = 10, *, skip: set[int] | frozenset[int] = frozenset()) -> None:
    """Every interaction deferred with "thinking…" (but ``skip``) is answered within ``timeout`` seconds (a process
    killed before it answered leaves the answer to the next one)."""
    try:
        await fake.wait_for(lambda: not waiting(fake, skip), timeout)
    except TimeoutError:
        still = "\n  ".join(waiting(fake, skip))
        raise AssertionError(f"still thinking after the change was delivered:\n  {still}") from None


# -- a move interrupted by a kill ---------------------------------------------------------------------------------


def channel_routes(channel_id: int) -> tuple[str, str]:
    return f"POST /channels/{channel_id}/messages", f"PATCH /channels/{channel_id}/messages/*"


def hold_back(fake: WatchedDiscord, channel_id: int, mode: str) -> Callable[[], Exchange | None]:
    """Make the channel's requests fail the ``mode`` way (see ``MODES``); a check that one of them did."""
    post, edit = channel_routes(channel_id)
    routes = (edit,) if mode == "hang_edit" else (post, edit)
    kind = {"hang_edit": "hang", "denied": None}.get(mode, mode)
    for route in routes:
        if kind == "hang":
            fake.hang(route, HELD, times=None)
        elif kind == "hang_after":
            fake.hang_after(route, HELD, times=None)
        elif kind == "lose_answer":
            fake.lose_answer(route, times=None)
        elif kind == "error":
            fake.fail(route, 503, times=None)
        elif kind == "rate_limit":
            fake.rate_limit(route, retry_after=HELD, times=None)
        elif mode != "denied":  # taken away by ``interrupted``
            raise ValueError(mode)
    since = len(fake.exchanges)

    def hit() -> Exchange | None:
        for exchange in fake.exchanges[since:]:
            if not any(exchange.matches(r) for r in routes):
                continue
            if mode == "denied" and exchange.code == 50001:
                return exchange
            # held before it is done; or done (its status known) with the answer held, lost, or an error
            if exchange.fault == kind and (kind == "hang") == (exchange.status == 0):
                return exchange
        return None

    return hit


async def interrupted(
    host: Host,
    play: Play,
    mode: str,
    action: dict[str, Any] | None = None,
    *,
    picture: bool = True,
    sigterm: float | None = None,
) -> Exchange:
    """Make a move while the channel's requests fail the ``mode`` way; once the move is stored and a request of its
    delivery was hit, kill -9 the bot (or SIGTERM it, ``sigterm``: the seconds it may take to exit 0), let Discord
    work again and start the bot again. The request hit.

    ``denied``: the bot cannot see the channel (until the test gives it back, after the restart and a failed try
    there): the host is told once, not once per process. ``picture``: check the picture of the version shown (else
    the caller does: the last move's timelapse may be posted meanwhile)."""
    table, fake = play.table, play.fake
    hit = hold_back(fake, table.channel_id, mode)
    host_id = table.people[0].id
    told_host = len(fake.dms(host_id))
    if mode == "denied":
        await fake.deny(table.channel_id, "view_channel")
    await play.send(action)
    exchange: Exchange = await fake.wait_for(lambda: host.stored(table.game_id, table.version) and hit(), timeout=30)
    if mode == "denied":  # the problem recorded, the host told: only then the kill
        await fake.wait_for(lambda: len(fake.dms(host_id)) > told_host and any(
            row["problem"] for row in host.owed(table.game_id).values()), timeout=10)  # fmt: skip
    if sigterm is None:
        await host.restart()
    else:
        await host.terminate(sigterm)
        await host.start()
    if mode == "denied":  # a channel update wakes it: it tries again (and does not tell the host again)
        tried = sum(row["attempts"] for row in host.owed(table.game_id).values())
        await fake.deny(table.channel_id, "view_channel")
        await fake.wait_for(lambda: sum(r["attempts"] for r in host.owed(table.game_id).values()) > tried, timeout=10)
        await fake.allow(table.channel_id)
    await host.delivered(table)
    assert len(fake.dms(host_id)) == told_host + (mode == "denied"), fake.dms(host_id)
    if picture:
        await picture_is_the_spectators(play, table.version)
    return exchange


async def picture_is_the_spectators(play: Play, version: int) -> None:
    """The channel's picture of ``version`` is the spectator's, drawn from the test's own replay."""
    table = play.table
    name = f"{table.kind}-{table.game_id}-{version}.png"
    shown = [a.data for state in play.fake.states(table.channel_id) for a in state.attachments if a.filename == name]
    assert shown, f"no picture {name} in the channel"
    job = table.jobs[version]
    expected = await asyncio.to_thread(draw, job)
    assert all(same_picture(data, expected) for data in shown), f"{name} is not the spectator's {job.function.__name__}"


# -- what the channel shows ---------------------------------------------------------------------------------------


def offers(version: Any, game_id: int) -> set[int]:
    """The versions of game ``game_id`` a message version's components offer choices at (the lobby's aside)."""
    found = set()
    for row in version.components:
        for component in row.get("components", []):
            match = GAME_ID.match(component.get("custom_id", ""))
            if match and int(match["game"]) == game_id and not component["custom_id"].startswith("bh:lobby"):
                found.add(int(match["version"]))
    return found


def shows(version: Any, game_id: int, kind: str) -> set[int]:
    """The versions of game ``game_id`` a message version shows: on its turn components, or its board's name."""
    found = offers(version, game_id)
    for name in version.attachments:
        match = re.fullmatch(rf"{kind}-{game_id}-(\d+)\.png", name)
        if match:
            found.add(int(match[1]))
    return found


@dataclass
class Told:
    """A version of the game reaching the channel: a message created for it, or a message edited to show it."""

    version: int
    message: Message
    edit: int  # 0: the message was created for it; n: its n-th edit
    at: float


def told(play: Play) -> list[Told]:
    """Every time a version of the game reached its channel, in the order it did. A message created with the nonce
    of a version's turn message (``b{game}.{version}.t``) or story (``.s``) tells that version (other parts' nonces:
    nothing); a message created without such a nonce tells the versions it shows (a turn message must never be
    posted without one); an edit tells the versions it shows that the message did not show before."""
    table = play.table
    game_id = table.game_id
    found: list[Told] = []
    for message in play.fake.messages_in(table.channel_id, deleted=True):
        if message.interaction_id is not None:  # an answer to a command (/game board), not the outbox's
            continue
        match = NONCE.fullmatch(message.nonce or "")
        first = message.versions[0]
        if match and int(match["game"]) == game_id:
            if match["part"] in ("t", "s"):
                found.append(Told(int(match["version"]), message, 0, first.at))
        else:  # discord.py's own random nonce, or none
            found += [Told(v, message, 0, first.at) for v in sorted(shows(first, game_id, table.kind))]
        for n in range(1, len(message.versions)):
            before = shows(message.versions[n - 1], game_id, table.kind)
            now = message.versions[n]
            found += [Told(v, message, n, now.at) for v in sorted(shows(now, game_id, table.kind) - before)]
    return sorted(found, key=lambda t: t.at)


def told_once(play: Play) -> list[Told]:
    """Check the outbox's promise for every version the game went through so far (see the module's docstring)."""
    table = play.table
    found = told(play)
    versions = [t.version for t in found]
    # A change the game had moved past when it was delivered is told by its story alone: nothing when it has none
    # (a pass: the next turn's message says whose turn it is).
    expected = [v for v in range(play.opening, table.version + 1) if v in versions or play.story(v)]
    assert versions == expected, f"versions told {versions}, expected each of {expected} once, in order\n" + "\n".join(
        f"  v{t.version}: message {t.message.id} {'created' if not t.edit else f'edit {t.edit}'}"
        f" nonce {t.message.nonce} {t.message.versions[t.edit].content[:80]!r}"
        for t in found
    )
    for each in found:
        if each.edit == 0 and (each.message.nonce or "").endswith(".t"):
            pinged = each.message.pings
            assert pinged.users == play.pings[each.version] and not pinged.roles and not pinged.everyone, (
                f"version {each.version} pings {pinged}, not {sorted(play.pings[each.version])}"
            )
    live = [m for m in play.fake.messages_in(table.channel_id) if offers(m.versions[-1], table.game_id)]
    if table.engine.finished:
        assert not live, f"buttons left after the end: {[m.custom_ids() for m in live]}"
    else:
        assert len(live) == 1, f"buttons left on {len(live)} messages: {[m.custom_ids() for m in live]}\n{trail(play)}"
        assert offers(live[0].versions[-1], table.game_id) == {table.version}, live[0].custom_ids()
    play.fake.check()
    return found


def trail(play: Play) -> str:
    """The channel's requests, for a failure's message."""
    lines = []
    for e in play.fake.exchanges:
        if f"/channels/{play.table.channel_id}/" in e.path:
            lines.append(
                f"  {e.route} {e.status} code={e.code} fault={e.fault} nonce={e.nonce} message={e.message_id}"
                f" dedup={e.deduplicated} answered={e.delivered}"
            )
    return "\n".join(lines)


def timelapses(play: Play) -> list[Message]:
    """The game's timelapse messages (deleted ones too)."""
    return [
        m
        for m in play.fake.messages_in(play.table.channel_id, deleted=True)
        if any((match := TIMELAPSE.fullmatch(a)) and int(match["game"]) == play.table.game_id
               for a in m.versions[0].attachments)
    ]  # fmt: skip


def dm_posts(fake: WatchedDiscord, user_id: int) -> list[Exchange]:
    """Every request to post in the person's DM channel."""
    channels = [c for c, u in fake.dm_channels.items() if u == user_id]
    return [e for c in channels for e in fake.exchanges_for(f"POST /channels/{c}/messages")]
