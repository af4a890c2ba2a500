"""People at a table in the fake Discord: they only send interactions (slash commands, clicks, selects, modal
submits, autocomplete) and read what the bot sends, while the test keeps its own replay of the game in the engine
to choose legal moves and to know every secret that must never reach the channel.

The one thing not done through Discord: right after the lobby opens, the test writes the seed (and the first
player) into the lobby's stored row, the way the in-process fuzzer stores its options, so that a scripted game
meets every event it must (a seed found offline with ``python -m tests.process.scripted``). Everything after that
goes through interactions; the test's replay must agree with the bot at every step (the version carried by the
components and image names, the texts, and the exported replay at the end).
"""

from __future__ import annotations

import json
import random
import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import render
from bot.core.rendering import Job
from bot.local.loopback import Attachment, FakeDiscord, Message
from bot.local.loopback.channel_routes import ChannelRoutes
from bot.local.loopback.connections import Gateway
from bot.local.loopback.store import Store
from engine import Game, game_class
from render.carcassonne import pictures as carcassonne_pictures
from render.catan import pictures as catan_pictures

GAME_ID = re.compile(r"bh:(?:lobby|cc|ct):(?P<game>\d+):(?P<version>\d+):")


@dataclass
class Shown:
    """What one message in the game's channel showed after a create or an edit (every state is kept)."""

    message_id: int
    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachments: list[Attachment]


class ShownRoutes(ChannelRoutes):
    """The fake's channel routes, keeping every state of every channel message (an edit may hide what the post
    showed)."""

    def __init__(self, store: Store, gateway: Gateway) -> None:
        super().__init__(store, gateway)
        self.shown: dict[int, list[Shown]] = {}

    def _record(self, msg: Message) -> None:
        if msg.channel_id in self.store.channels and not msg.ephemeral:
            self.shown.setdefault(msg.channel_id, []).append(
                Shown(msg.id, msg.content, list(msg.embeds), list(msg.components), list(msg.attachments))
            )

    async def post(self, msg: Message) -> None:
        self._record(msg)
        await super().post(msg)

    def edit(self, msg: Message, body: Any, files: list[Attachment], route: str) -> Any:
        refused = super().edit(msg, body, files, route)
        if refused is None:
            self._record(msg)
        return refused


class WatchedDiscord(FakeDiscord):
    """The fake Discord, keeping every state of every channel message (``ShownRoutes``)."""

    def __init__(self) -> None:
        super().__init__(channel_routes=ShownRoutes)
        assert isinstance(self.channel_routes, ShownRoutes)
        self.shown = self.channel_routes.shown

    def states(self, channel_id: int) -> list[Shown]:
        """Every state the channel's messages went through, and each message as it is now (a deferred answer's
        placeholder is filled in by its first followup without an edit)."""
        now = [Shown(m.id, m.content, m.embeds, m.components, m.attachments) for m in self.messages[channel_id]]
        return [*self.shown.get(channel_id, []), *now]

    def latencies(self) -> list[float]:
        """Seconds from each interaction sent to its first answer."""
        return [i.answered_at - i.sent_at for i in self.interactions.values() if i.answered_at is not None]


def components(message: Message) -> list[dict[str, Any]]:
    return [c for row in message.components for c in row.get("components", []) if "custom_id" in c]


def find(message: Message, op: str, arg: str | None = None) -> dict[str, Any]:
    """The component of ``message`` whose custom id has ``op`` (and ``arg``, if given) after the version."""
    for component in components(message):
        parts = component["custom_id"].split(":", 5)
        if parts[4] == op and (arg is None or (parts[5] if len(parts) > 5 else "") == arg):
            return component
    shown = [c["custom_id"] for c in components(message)]
    raise AssertionError(f"no component {op}:{arg} in {shown}")


def has(message: Message, op: str, arg: str | None = None) -> bool:
    try:
        find(message, op, arg)
    except AssertionError:
        return False
    return True


@dataclass
class Person:
    id: int
    name: str
    locale: str = "en-US"  # the Discord client's language: private answers come in it


@dataclass
class Table:
    """One game in one channel, played only through interactions; ``game`` is the test's replay of it."""

    fake: FakeDiscord
    database: Path
    kind: str  # carcassonne | catan
    people: list[Person]
    channel_id: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    game_id: int = 0
    version: int = 0
    game: Game | None = None
    log: list[dict[str, Any]] = field(default_factory=list)  # every action the engine recorded, in order
    views: dict[int, dict[str, Any]] = field(default_factory=dict)  # version -> spectator view
    jobs: dict[int, Job] = field(default_factory=dict)  # version -> its spectator picture
    interactions: list[int] = field(default_factory=list)
    boards: dict[int, int] = field(default_factory=dict)  # message id of a /game board -> the version it shows

    @property
    def engine(self) -> Any:
        assert self.game is not None
        return self.game

    # -- opening -----------------------------------------------------------------------------------------

    async def open(self, command: str, **lobby: Any) -> None:
        """The first person opens a lobby with ``command``, the others join, the host starts it."""
        host, *others = self.people
        asked = await self.fake.slash(host.id, command, channel_id=self.channel_id, locale=host.locale, **lobby)
        self.interactions.append(asked)
        lobby_message = await self.fake.wait_message(self.channel_id, where=lambda m: has(m, "join"))
        match = GAME_ID.match(find(lobby_message, "join")["custom_id"])
        assert match is not None
        self.game_id = int(match["game"])
        with sqlite3.connect(self.database) as db:  # the scripted game's seed (see the module's docstring)
            options = json.loads(db.execute("SELECT options FROM games WHERE id = ?", (self.game_id,)).fetchone()[0])
            options.update(self.options)
            db.execute(
                "UPDATE games SET seed = ?, options = ? WHERE id = ? AND status = 'lobby'",
                (self.seed, json.dumps(options), self.game_id),
            )
        # As the host does at the start: the first player drawn from the seed, then recorded as an option.
        options.setdefault("first_player", random.Random(self.seed).randrange(len(self.people)))
        self.options = options
        for person in others:
            await self.click(person, lobby_message, find(lobby_message, "join"))
            await self._wait_lobby(person)
        names = [p.name for p in self.people]
        self.game = game_class(self.kind).new(names, options, self.seed)
        self._automatic()
        await self.click(host, lobby_message, find(lobby_message, "start"))
        self.version = await self._started()
        self._snapshot()
        first = f"<@{self.people[self.engine.current].id}>"
        assert first in self.turn_message().content, f"the bot seated someone else first than {first}"

    async def _wait_lobby(self, person: Person) -> None:
        """Until the lobby lists ``person``."""
        mention = f"<@{person.id}>"
        await self.fake.wait_for(
            lambda: any(mention in json.dumps(m.embeds) for m in self.fake.messages[self.channel_id])
        )

    async def _started(self) -> int:
        """The version of the first turn message."""
        prefix = "bh:cc" if self.kind == "carcassonne" else "bh:ct"

        def first() -> int | None:
            for message in reversed(self.fake.messages[self.channel_id]):
                for component in components(message):
                    match = GAME_ID.match(component["custom_id"])
                    if component["custom_id"].startswith(prefix) and match and int(match["game"]) == self.game_id:
                        return int(match["version"])
            return None

        return int(await self.fake.wait_for(first, timeout=30))

    # -- the replay ----------------------------------------------------------------------------------------

    def _automatic(self) -> None:
        game = self.engine
        while (automatic := game.automatic_action()) is not None:
            self.log.append(game.apply(automatic).action)

    def applied(self, action: dict[str, Any]) -> list[dict[str, Any]]:
        """Apply ``action`` (as the bot will) to the replay; the events. The game's version goes up by one."""
        applied = self.engine.apply(action)
        self.log.append(applied.action)
        events = list(applied.events)
        game = self.engine
        while (automatic := game.automatic_action()) is not None:
            follow = game.apply(automatic)
            self.log.append(follow.action)
            events += follow.events
        self.version += 1
        self._snapshot()
        return events

    def _snapshot(self) -> None:
        view = self.engine.view(None)
        self.views[self.version] = view
        self.jobs[self.version] = spectator_job(self.kind, view, self.engine)

    async def look(self, person: Person) -> None:
        """``/game status`` and ``/game rules`` (answered privately), then ``/game board`` (posted in the channel)."""
        status = await self.reply(await self.slash(person, "game status"))
        assert status.ephemeral and status.embeds, status
        rules = await self.reply(await self.slash(person, "game rules"))
        assert rules.ephemeral and rules.content, rules
        board = await self.reply(await self.slash(person, "game board"))
        assert not board.ephemeral and [a.filename for a in board.attachments] == ["board.png"], board
        self.boards[board.id] = self.version

    # -- interactions ----------------------------------------------------------------------------------

    def turn_message(self) -> Message:
        """The channel message that carries the game's components at the current version."""
        marker = f":{self.game_id}:{self.version}:"
        for message in reversed(self.fake.messages[self.channel_id]):
            if any(marker in c["custom_id"] for c in components(message)):
                return message
        raise AssertionError(f"no message offers game {self.game_id} at version {self.version}")

    async def settled(self, timeout: float = 30) -> Message:
        """Until the channel shows the game at the current version: components or the image name carry it."""
        marker = f":{self.game_id}:{self.version}:"
        image = f"{self.kind}-{self.game_id}-{self.version}.png"

        def shown() -> Message | None:
            for message in reversed(self.fake.messages[self.channel_id]):
                if any(marker in c["custom_id"] for c in components(message)):
                    return message
                if any(a.filename == image for a in message.attachments):
                    return message
            return None

        found: Message = await self.fake.wait_for(shown, timeout=timeout)
        return found

    async def click(self, person: Person, message: Message, component: dict[str, Any]) -> int:
        asked = await self.fake.click(person.id, component["custom_id"], message=message, locale=person.locale)
        self.interactions.append(asked)
        return asked

    async def select(self, person: Person, message: Message, component: dict[str, Any], value: str) -> int:
        offered = [o["value"] for o in component["options"]]
        assert value in offered, f"{value} is not offered in {component['custom_id']}: {offered}"
        asked = await self.fake.select(
            person.id, component["custom_id"], [value], message=message, locale=person.locale
        )
        self.interactions.append(asked)
        return asked

    async def slash(self, person: Person, command: str, **options: Any) -> int:
        asked = await self.fake.slash(person.id, command, channel_id=self.channel_id, locale=person.locale, **options)
        self.interactions.append(asked)
        return asked

    async def autocomplete(self, person: Person, command: str, focused: str, **options: Any) -> list[dict[str, Any]]:
        asked = await self.fake.autocomplete(
            person.id, command, focused, channel_id=self.channel_id, locale=person.locale, **options
        )
        self.interactions.append(asked)
        await self.fake.wait_answer(asked)
        choices = self.fake.interactions[asked].choices
        assert choices is not None
        return choices

    async def submit(self, person: Person, opened_by: int, values: dict[str, str]) -> int:
        await self.fake.wait_answer(opened_by)
        asked = await self.fake.submit(person.id, opened_by, values, locale=person.locale)
        self.interactions.append(asked)
        return asked

    async def reply(self, asked: int, timeout: float = 20) -> Message:
        """The message an interaction was answered with (its deferred answer's first followup, or a new one)."""
        fake = self.fake

        def found() -> Message | None:
            inter = fake.interactions[asked]
            if inter.followups:
                return inter.followups[0]
            original = inter.original
            if original is not None and (original.content or original.components or original.embeds):
                return original
            return None

        message: Message = await fake.wait_for(found, timeout=timeout)
        return message


def spectator_job(kind: str, view: dict[str, Any], game: Any) -> Job:
    """The picture a turn message must show: drawn from the spectator view, marking only public choices."""
    from engine.catan import road_spots, settlement_spots

    if game.finished:
        return Job(render.end_png, view)
    if kind == "carcassonne":
        decision = game.decision()
        if decision == "follower":
            x, y = view["placed"]
            return Job(carcassonne_pictures.spots_png, view, x, y, list(game.follower_spots()))
        if decision == "place":
            cells = sorted(game.legal_placements(), key=lambda c: (c[1], c[0]))
            return Job(carcassonne_pictures.preview_png, view, cells)
        return Job(render.board_png, view)
    decision = game.pending()[0]["decision"]
    if decision == "setup_settlement":
        return Job(catan_pictures.preview_png, view, settlement_spots(game, game.current))
    if decision == "setup_road":
        return Job(catan_pictures.preview_png, view, road_spots(game, game.current))
    return Job(render.board_png, view)


def texts(shown: Shown) -> list[str]:
    """Every text a message state shows: content, embeds, component labels, placeholders and options, and the alt
    text of its images."""
    out = [shown.content, *(a.description or "" for a in shown.attachments)]
    for embed in shown.embeds:
        out += [str(embed.get(k) or "") for k in ("title", "description")]
        out += [str((embed.get("footer") or {}).get("text") or "")]
        for f in embed.get("fields") or []:
            out += [str(f.get("name") or ""), str(f.get("value") or "")]
    for row in shown.components:
        for c in row.get("components", []):
            out += [str(c.get("label") or ""), str(c.get("placeholder") or "")]
            for o in c.get("options") or []:
                out += [str(o.get("label") or ""), str(o.get("description") or "")]
    return [t for t in out if t]


def lines_of(shown: Sequence[Shown]) -> list[str]:
    return [line for s in shown for text in texts(s) for line in text.splitlines() if line.strip()]
