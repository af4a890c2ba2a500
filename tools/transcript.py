"""Transcripts to read: a complete Carcassonne game (River and Tower) and a complete Catan game played through the
bot on the simulated Discord (simcord), written as text in one language, so that a reviewer reads everything a
player would read in one place.

    python -m tools.transcript ru --out docs/transcripts/ru.txt

Every channel message (text, embeds, buttons, selects, images with their alt text), every ephemeral reply, every direct
message and every form is written in order with who sees it, then ``/stats`` and a player's card after both games;
the players' own clicks, choices and typed text are written as the lines starting with ``>``. Everything is
deterministic: fixed seeds, no clock, and every Discord id replaced by a stable name. The players' moves are chosen by
the engine's ``standard`` computer player, with a few scripted moves so that every event a reviewer should read
happens (captures, ransoms, trades, every development card, discards on a seven); the moves are made only through the
simulated Discord, as a person would make them.

simcord is a test dependency (``pip install -e '.[test]'``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import random
import re
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.app import BoardHost
from bot.catan.names import bundle_text
from bot.core.config import Config
from bot.text.i18n import LANGUAGES, NATIVE_NAMES, speaking
from engine.ai import decide
from engine.catan import bank_trades, playable_cards
from engine.catan.board import RESOURCES
from engine.catan.state import CARDS, COSTS
from engine.catan.trading import holds

# Player names per language: names a player of that language would have, so that their grammar shows (Russian
# names in other cases, Chinese names inside sentences).
PLAYERS: dict[str, tuple[str, ...]] = {
    "en": ("Alice", "Bob", "Carol", "Dave"),
    "zh-CN": ("小明", "小红", "阿强", "丽丽"),
    "zh-TW": ("志明", "春嬌", "阿傑", "小美"),
    "ru": ("Аня", "Борис", "Вера", "Глеб"),
}
SERVER = "boardhost"
BOT_SEED = 3  # the host's generator: the games' seeds and first players
CARCASSONNE_SEED = 1  # the computer players' choices in Carcassonne
CATAN_SEED = 1  # ... and in Catan
MAX_STEPS = 3000
LOOK_STEP = 40  # the move before which players look at /game status and /game rules
REST = 901  # seconds of simulated time between two moves
EPHEMERAL = 64
MENTION = re.compile(r"<(@[!&]?|#)(\d+)>")
COMMAND_MENTION = re.compile(r"</([^:>]+):\d+>")


class TranscriptError(RuntimeError):
    """The scripted game could not go on (a move refused, or a required event missing)."""


def _simcord() -> Any:
    try:
        import simcord  # lazy: simcord is a test dependency
    except ImportError:
        sys.exit("transcripts play on the simulated Discord: install the test extra first (pip install -e '.[test]')")
    return simcord


# -- recording -------------------------------------------------------------------------------------------------


@dataclass
class Recorder:
    """Turns the bot's requests to Discord (simcord's request log) into readable lines, ids replaced by names."""

    env: Any
    names: dict[int, str] = field(default_factory=dict)  # user and channel ids
    actor_of: dict[str, str] = field(default_factory=dict)  # interaction token -> user name
    lines: list[str] = field(default_factory=list)
    seen: int = 0
    counter: int = 0  # messages posted in the channel
    channel: Any = None
    people: list[Any] = field(default_factory=list)

    def note(self, text: str) -> None:
        self.lines.append(text)

    def section(self, title: str) -> None:
        self.lines += ["", "=" * 78, title, "=" * 78, ""]

    def posted(self) -> str:
        self.counter += 1
        return f"[#{self.names.get(0, 'channel')}, message #{self.counter}]"

    def name_message(self, message_id: int) -> str:
        """A channel message's number: its place in the channel."""
        ids = sorted(m.id for m in self.env.backend.messages.get(self.channel.id, {}).values() if not m.is_ephemeral)
        return f"#{ids.index(message_id) + 1}" if message_id in ids else "(an earlier one)"

    def where(self, channel: int) -> str:
        for person in self.people:
            dm = person.user.dm_channel
            if dm is not None and dm.id == channel:
                return f"DM to {self.names[person.id]}"
        return "#" + self.names.get(channel, "?")

    def clean(self, text: str) -> str:
        def mention(match: re.Match[str]) -> str:
            ident = int(match[2])
            if match[1] == "#":
                return "#" + self.names.get(ident, "channel")
            return "@" + self.names.get(ident, "someone")

        return COMMAND_MENTION.sub(r"/\1", MENTION.sub(mention, text))

    def body(self, data: dict[str, Any]) -> list[str]:
        """A message payload as indented lines: content, embeds, attachments, components."""
        out: list[str] = []
        content = data.get("content")
        if content:
            out += self.clean(str(content)).splitlines()
        for embed in data.get("embeds") or []:
            if embed.get("title"):
                out.append(f"┃ {self.clean(embed['title'])}")
            for line in self.clean(str(embed.get("description") or "")).splitlines():
                out.append(f"┃ {line}")
            for item in embed.get("fields") or []:
                out.append(f"┃ ▸ {self.clean(str(item.get('name', '')))}")
                out += [f"┃   {line}" for line in self.clean(str(item.get("value", ""))).splitlines()]
            footer = (embed.get("footer") or {}).get("text")
            if footer:
                out.append(f"┃ — {self.clean(footer)}")
            image = (embed.get("image") or {}).get("url")
            if image:
                out.append(f"┃ [image: {image.rsplit('/', 1)[-1]}]")
        for attachment in data.get("attachments") or []:
            line = (
                f"[image: {attachment.get('filename')}]"
                if str(attachment.get("filename", "")).endswith((".png", ".webp", ".gif"))  # the timelapse too
                else f"[file: {attachment.get('filename')}]"
            )
            if attachment.get("description"):
                line += f" {attachment['description']}"
            out.append(line)
        for row in data.get("components") or []:
            buttons: list[str] = []
            for item in row.get("components") or []:
                if item.get("type") == 2:
                    buttons.append(f"[{item.get('label')}]")
                elif item.get("type") == 3:
                    out.append(f"<{item.get('placeholder') or '…'}>")
                    for choice in item.get("options") or []:
                        extra = f" — {choice['description']}" if choice.get("description") else ""
                        out.append(f"   · {choice.get('label')}{extra}")
            if buttons:
                out.append(" ".join(buttons))
        return ["    " + self.clean(line) for line in out] or ["    (empty)"]

    def modal(self, data: dict[str, Any]) -> list[str]:
        out = [f"    Form: {data.get('title')}"]
        for row in data.get("components") or []:
            for item in row.get("components") or []:
                label = item.get("label") or ""
                hint = f"  (hint: {item['placeholder']})" if item.get("placeholder") else ""
                out.append(f"    ▭ {label}{hint}")
        return out

    def flush(self, actor: str | None = None) -> None:
        """Write the requests made since the last flush; interactions started now belong to ``actor``."""
        requests = self.env.http_requests
        for entry in requests[self.seen :]:
            self._entry(entry, actor)
        self.seen = len(requests)

    def _entry(self, entry: Any, actor: str | None) -> None:
        parts = entry.path.strip("/").split("/")
        data = entry.json if isinstance(entry.json, dict) else {}
        if "payload_json" in data and isinstance(data["payload_json"], dict):
            data = data["payload_json"]
        if parts[0] == "interactions" and parts[-1] == "callback":
            token = parts[2]
            if actor is not None:
                self.actor_of.setdefault(token, actor)
            who = self.actor_of.get(token, "someone")
            kind = data.get("type")
            inner = data.get("data") or {}
            if kind == 4:
                private = bool(int(inner.get("flags") or 0) & EPHEMERAL)
                self.lines.append(f"[only {who} sees]" if private else self.posted())
                self.lines += self.body(inner)
            elif kind == 5 and not int(inner.get("flags") or 0) & EPHEMERAL:
                self.lines.append(self.posted())
                self.lines.append("    (the bot is thinking…)")
            elif kind == 7:
                self.lines.append(f"[the message {who} clicked now reads]")
                self.lines += self.body(inner)
            elif kind == 9:
                self.lines.append(f"[only {who} sees a form]")
                self.lines += self.modal(inner)
            elif kind == 8:
                choices = ", ".join(str(c.get("name")) for c in inner.get("choices") or [])
                self.lines.append(f"[only {who} sees suggestions] {choices}")
            return
        if parts[0] == "webhooks" and len(parts) >= 3:
            token = parts[2]
            who = self.actor_of.get(token, actor or "someone")
            if entry.method == "POST":
                private = bool(int(data.get("flags") or 0) & EPHEMERAL)
                self.lines.append(f"[only {who} sees]" if private else self.posted())
                self.lines += self.body(data)
            elif entry.method == "PATCH":
                self.lines.append(f"[the reply to {who} now reads]")
                self.lines += self.body(data)
            elif entry.method == "DELETE":
                self.lines.append(f"[the reply to {who} is removed]")
            return
        if parts[0] == "channels" and len(parts) >= 3 and parts[2] == "messages":
            channel = int(parts[1])
            where = self.where(channel)
            public = channel == self.channel.id
            if entry.method == "POST" and len(parts) == 3:
                self.lines.append(self.posted() if public else f"[{where}]")
                self.lines += self.body(data)
            elif entry.method == "PATCH" and len(parts) == 4:
                number = self.name_message(int(parts[3])) if public else "a message"
                if not any(data.get(k) for k in ("content", "embeds", "components", "attachments")):
                    self.lines.append(f"[{where}: message {number} loses its buttons]")
                else:
                    self.lines.append(f"[{where}: message {number} now reads]")
                    self.lines += self.body(data)
            elif entry.method == "DELETE" and len(parts) == 4:
                self.lines.append(f"[{where}: message {self.name_message(int(parts[3]))} is removed]")


def _call(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Callable[[], Any]:
    return lambda: function(*args, **kwargs)


# -- the table -------------------------------------------------------------------------------------------------


@dataclass
class Table:
    env: Any
    bot: Any
    channel: Any
    people: list[Any]
    recorder: Recorder

    def name(self, user: Any) -> str:
        return str(self.recorder.names[user.id])

    async def game(self) -> Any:
        """The game being played in the channel, read from the host (to choose moves; never to make them)."""
        row = await self.bot.rows.open_in_channel(self.channel.id)
        if row is None:
            return None
        return self.bot.rows.game(row)

    async def act(self, user: Any, what: str, call: Callable[[], Any]) -> Any:
        self.recorder.flush()
        self.recorder.note("")
        self.recorder.note(f"> {self.name(user)} {what}")
        result = await call()
        self.recorder.flush(self.name(user))
        if self.env.errors:
            raise TranscriptError(f"the bot raised {self.env.errors[0]!r}")
        return result

    async def rest(self) -> None:
        """Let a quarter of an hour pass: discord.py forgets the spent private menus (their interactions expire),
        which the simulated Discord would otherwise look through on every later click."""
        await self.env.advance_time(REST)

    # components ----------------------------------------------------------------------------------------------

    @staticmethod
    def components(message: Any) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []
        for row in message.components:
            found += row["components"] if isinstance(row, dict) else [c.to_dict() for c in row.children]
        return found

    def find(self, message: Any, op: str, arg: str | None = None) -> dict[str, Any] | None:
        for item in self.components(message):
            parts = str(item.get("custom_id", "")).split(":")
            if len(parts) >= 5 and parts[4] == op and (arg is None or ":".join(parts[5:]) == arg):
                return item
            if len(parts) == 5 and parts[4] == op and arg == "":
                return item
        return None

    def need(self, message: Any, op: str, arg: str | None = None) -> dict[str, Any]:
        found = self.find(message, op, arg)
        if found is None:
            shown = [c.get("custom_id") for c in self.components(message)]
            raise TranscriptError(f"no {op}:{arg} on a message showing {shown}")
        return found

    async def click(self, user: Any, message: Any, op: str, arg: str | None = None, *, dm: bool = False) -> Any:
        item = self.need(message, op, arg)
        actor = user.user if dm else user
        return await self.act(
            user, f"clicks [{item.get('label')}]", lambda: actor.click(message, custom_id=item["custom_id"])
        )

    async def select(self, user: Any, message: Any, op: str, value: str, page_op: str | None = None) -> Any:
        for _ in range(20):
            item = self.need(message, op)
            chosen = next((o for o in item.get("options") or [] if o["value"] == value), None)
            if chosen is not None:
                what = f"chooses “{chosen['label']}” in <{item.get('placeholder')}>"
                return await self.act(user, what, _call(user.select, message, [value], custom_id=item["custom_id"]))
            if page_op is None:
                break
            pages = [c for c in self.components(message) if f":{page_op}:" in str(c.get("custom_id"))]
            ahead = pages[-1]
            await self.act(
                user, f"clicks [{ahead.get('label')}]", _call(user.click, message, custom_id=ahead["custom_id"])
            )
            message = self.refreshed(message)
        raise TranscriptError(f"{value} is not offered in {op}")

    async def submit(self, user: Any, shown: Any, values: dict[str, str]) -> Any:
        labels: dict[str, str] = {}
        for row in (shown.modal or {}).get("components") or []:
            for item in row.get("components") or []:
                labels[str(item.get("custom_id"))] = str(item.get("label") or "")
        typed = "; ".join(f"{labels.get(k, k)} “{v}”" for k, v in values.items())
        return await self.act(user, f"fills in the form: {typed}", lambda: user.submit_modal(shown, values))

    async def slash(self, user: Any, command: str, **options: Any) -> Any:
        shown = " ".join([f"/{command}", *(f"{k}:{v}" for k, v in options.items())])
        return await self.act(user, f"types {shown}", lambda: user.slash(self.channel, command, **options))

    def refreshed(self, message: Any) -> Any:
        from simcord.results import ResponseMessage  # lazy: simcord is a test dependency

        channel_id = message.channel_id if hasattr(message, "channel_id") else message.channel.id
        return ResponseMessage(self.env, self.env.backend.get_message(channel_id, message.id))

    async def turn_message(self) -> Any:
        from simcord.results import ResponseMessage  # lazy: simcord is a test dependency

        row = await self.bot.rows.open_in_channel(self.channel.id)
        row = None if row is None else await self.bot.rows.stored(row.id)  # the turn message as stored now
        if row is None or row.message_id is None:
            raise TranscriptError("no turn message")
        return ResponseMessage(self.env, self.env.backend.get_message(self.channel.id, row.message_id))

    @staticmethod
    def reply(result: Any) -> Any:
        return result.followups[0] if result.followups else result.response


# -- lobby -----------------------------------------------------------------------------------------------------


async def open_game(table: Table, command: str, players: list[Any], **options: Any) -> None:
    host = players[0]
    await table.slash(host, command, **options)
    for player in players[1:]:
        await table.click(player, table.channel.last_message, "join")
    await table.click(host, table.channel.last_message, "start")


# -- Carcassonne -----------------------------------------------------------------------------------------------


async def carcassonne_move(table: Table, action: dict[str, Any]) -> None:
    user = table.people[action["player"]]
    kind = action["type"]
    message = await table.turn_message()
    if kind == "place":
        picked = table.reply(await table.select(user, message, "cell", f"{action['x']},{action['y']}", "page"))
        await table.click(user, picked, "rot", f"{action['x']},{action['y']},{action['rotation']}")
    elif kind == "follower":
        if table.find(message, "spot", action["on"]) is not None:
            await table.click(user, message, "spot", action["on"])
        else:
            await table.select(user, message, "spots", action["on"])
    elif kind == "pass":
        await table.click(user, message, "pass", "")
    elif kind == "tower":
        value = f"{action['x']},{action['y']}"
        if "capture" in action:
            cap = action["capture"]
            value += f",{cap['x']},{cap['y']},{cap['on']}"
        await table.select(user, message, "tower", value)
    elif kind == "tower_top":
        await table.click(user, message, "top", f"{action['x']},{action['y']}")
    elif kind == "ransom":
        await table.click(user, message, "ransom", str(action["from"]))
    else:
        raise TranscriptError(f"no way to make {action} through Discord")


CARCASSONNE_EVENTS = frozenset({"place", "follower", "pass", "tower", "tower:capture", "ransom"})


async def play_carcassonne(table: Table, seed: int) -> set[str]:

    players = table.people[:2]
    await open_game(table, "carcassonne new", players, river=True, tower=True)
    rng = random.Random(seed)
    seen: set[str] = set()
    for step in range(MAX_STEPS):
        game = await table.game()
        if game is None or game.finished:
            break
        seat = game.actors()[0]
        if step == LOOK_STEP:  # the other player looks at the game: what /game status and /game rules say
            await table.slash(players[1 - seat], "game status")
            await table.slash(players[1 - seat], "game rules")
        ransoms = [a for a in game.legal_actions(seat) if a["type"] == "ransom"]
        action = ransoms[0] if ransoms and "ransom" not in seen else decide(game, seat, "standard", rng)
        seen.add(action["type"])
        if "capture" in action:
            seen.add("tower:capture")
        await carcassonne_move(table, action)
        await table.rest()
    else:
        raise TranscriptError("the Carcassonne game did not finish")
    return seen


# -- Catan -----------------------------------------------------------------------------------------------------


async def find_anywhere(table: Table, user: Any, op: str, arg: str) -> tuple[Any, bool] | None:
    """The newest message showing ``op:arg`` that ``user`` can see: in the channel, else in their DMs."""
    from simcord.results import ResponseMessage  # lazy: simcord is a test dependency

    stored = table.env.backend.messages.get(table.channel.id, {}).values()
    for raw in sorted((m for m in stored if not m.is_ephemeral), key=lambda m: -m.id)[:12]:
        message = ResponseMessage(table.env, raw)
        if table.find(message, op, arg) is not None:
            return message, False
    dm = user.user.dm_channel
    if dm is not None and dm.last_message is not None and table.find(dm.last_message, op, arg) is not None:
        return dm.last_message, True
    return None


async def catan_move(table: Table, action: dict[str, Any], lang: str) -> None:

    user = table.people[action["player"]]
    kind = action["type"]
    message = await table.turn_message()

    async def robber(where: Any, op: str) -> None:
        shown = table.reply(await table.select(user, where, op, action["hex"]))
        victim = action.get("victim")
        if shown is not None and table.find(shown, "vic") is not None:
            mode = "k" if op == "khex" else "r"
            await table.click(user, shown, "vic", f"{mode},{action['hex']},{'' if victim is None else victim}")

    def typed(bundle: dict[str, int]) -> str:
        with speaking(lang):  # what a player of this language types
            return bundle_text(bundle)

    setup = table.find(message, "spot") is not None or table.find(message, "sroad") is not None
    if kind == "settlement" and setup:
        await table.select(user, message, "spot", str(action["at"]), "spage")
    elif kind == "road" and setup:
        await table.click(user, message, "sroad", action["at"])
    elif kind in ("settlement", "city", "road"):
        shown = table.reply(await table.click(user, message, "b", kind))
        await table.select(user, shown, "bs", str(action["at"]), "bpage")
    elif kind in ("roll", "end_turn", "buy"):
        await table.click(user, message, {"roll": "roll", "end_turn": "end", "buy": "buy"}[kind], "")
    elif kind == "discard":
        shown = await table.click(user, message, "disc", "")
        values = {f"discard:{r}": str(n) for r, n in action["cards"].items() if n}
        await table.submit(user, shown, values)
    elif kind == "robber":
        await robber(message, "rob")
    elif kind in ("knight", "road_building", "year_of_plenty", "monopoly"):
        cards = table.reply(await table.click(user, message, "play", ""))
        shown = table.reply(await table.click(user, cards, "card", kind))
        if kind == "knight":
            await robber(shown, "khex")
        elif kind == "monopoly":
            await table.click(user, shown, "mono", action["resource"])
        elif kind == "year_of_plenty":
            take = [r for r, n in action["take"].items() for _ in range(n)]
            await table.select(user, shown, "yop", "+".join(take))
        else:
            roads = action["roads"]
            second = table.reply(await table.select(user, shown, "rb1", roads[0]))
            if len(roads) == 2:
                await table.select(user, second, "rb2", roads[1])
    elif kind == "bank_trade":
        shown = table.reply(await table.click(user, message, "bank", ""))
        (give, _), (get, _) = next(iter(action["give"].items())), next(iter(action["get"].items()))
        await table.select(user, shown, "bk", f"{give}>{get}")
    elif kind == "offer":
        shown = table.reply(await table.click(user, message, "trade", ""))
        to = action.get("to")
        form = await table.click(user, shown, "offer", "all" if to is None else str(to))
        await table.submit(user, form, {"give": typed(action["give"]), "get": typed(action["get"])})
    elif kind in ("accept", "decline", "withdraw", "counter", "confirm"):
        op = {"accept": "acc", "decline": "dec", "withdraw": "wd", "counter": "cnt", "confirm": "conf"}[kind]
        arg = f"{action['offer']},{action['with']}" if kind == "confirm" else str(action["offer"])
        found = await find_anywhere(table, user, op, arg)
        if found is None:  # answered from the player's hand
            found = (table.reply(await table.slash(user, "hand")), False)
        where, dm = found
        result = await table.click(user, where, op, arg, dm=dm)
        if kind == "counter":
            await table.submit(user, result, {"give": typed(action["give"]), "get": typed(action["get"])})
    else:
        raise TranscriptError(f"no way to make {action} through Discord")


@dataclass
class Director:
    """Chooses Catan moves: the standard computer player, with scripted moves until every event has happened."""

    rng: random.Random
    done: set[str] = field(default_factory=set)
    scripted: dict[int, int | None] = field(default_factory=dict)  # offer id -> the seat that should accept
    dev_before: list[list[int]] = field(default_factory=list)
    traded: set[int] = field(default_factory=set)  # resources of the scripted offers so far

    def observe(self, game: Any) -> None:
        """Note the development cards bought since the last look."""
        if self.dev_before:
            for seat, cards in enumerate(game.dev):
                for k, count in enumerate(cards):
                    if count > self.dev_before[seat][k]:
                        self.done.add(f"bought:{CARDS[k]}")
        self.dev_before = [list(cards) for cards in game.dev]

    def choose(self, game: Any) -> dict[str, Any]:

        self.observe(game)
        pending = game.pending()
        first = pending[0]
        if first["decision"] == "discard":
            return decide(game, first["seat"], "standard", self.rng)
        for item in pending:  # replies to the scripted offers: the chosen seat accepts, the others decline
            if item["decision"] == "trade_reply" and item["offer"] in self.scripted:
                seat = item["seat"]
                kind = "accept" if self.scripted[item["offer"]] == seat else "decline"
                return {"player": seat, "type": kind, "offer": item["offer"]}
        for item in pending:
            if item["decision"] == "trade_reply":
                return decide(game, item["seat"], "standard", self.rng)
        seat = first["seat"]
        legal = game.legal_actions(seat)
        if first["decision"] in ("roll_or_play", "main"):
            for offer in game.offers:
                if offer["id"] in self.scripted and offer["accepted"]:
                    partner = offer["accepted"][0]
                    self.done.add("trade:public" if offer["to"] is None else "trade:private")
                    del self.scripted[offer["id"]]
                    return {"player": seat, "type": "confirm", "offer": offer["id"], "with": partner}
            for card in playable_cards(game, seat):
                if f"played:{card}" not in self.done:
                    options: list[dict[str, Any]] = [a for a in legal if a["type"] == card]
                    if options:
                        self.done.add(f"played:{card}")
                        return options[int(self.rng.random() * len(options))]
        if first["decision"] == "main" and not game.offers:
            hand = game.hand[seat]
            if "bank" not in self.done and bank_trades(game, seat):
                self.done.add("bank")
                return next(a for a in legal if a["type"] == "bank_trade")
            for kind in ("public", "private"):
                if f"offer:{kind}" in self.done:
                    continue
                for other in range(game.n):
                    if other == seat:
                        continue
                    theirs = game.hand[other]
                    fresh = [r for r in range(5) if r not in self.traded] or list(range(5))
                    give = max(fresh, key=lambda r: (hand[r], -r))
                    get = max((r for r in fresh if r != give), key=lambda r: (theirs[r] - hand[r], -r), default=give)
                    if get == give or not hand[give] or not theirs[get]:
                        continue
                    self.traded |= {give, get}
                    self.done.add(f"offer:{kind}")
                    self.scripted[game.next_offer] = other
                    return {
                        "player": seat,
                        "type": "offer",
                        "to": None if kind == "public" else other,
                        "give": {RESOURCES[give]: 1},
                        "get": {RESOURCES[get]: 1},
                    }
            wanted = {"knight", "victory_point", "road_building", "year_of_plenty", "monopoly"}
            missing = not {f"bought:{c}" for c in wanted} <= self.done
            if missing and holds(game.hand[seat], COSTS["card"]) and any(a["type"] == "buy" for a in legal):
                return {"player": seat, "type": "buy"}
            # The standard player spends down before a seven; someone must hold on for the discard to be shown.
            if "discard" not in self.done and sum(hand) > 7 and any(a["type"] == "end_turn" for a in legal):
                return {"player": seat, "type": "end_turn"}
        action: dict[str, Any] = decide(game, seat, "standard", self.rng)
        if action["type"] in ("knight", "road_building", "year_of_plenty", "monopoly"):
            self.done.add(f"played:{action['type']}")
        return action


CATAN_EVENTS = frozenset(
    {"bank", "trade:public", "trade:private", "discard", "robber:steal"}
    | {f"bought:{c}" for c in ("knight", "victory_point", "road_building", "year_of_plenty", "monopoly")}
    | {f"played:{c}" for c in ("knight", "road_building", "year_of_plenty", "monopoly")}
)


async def look(table: Table, game: Any, step: int, looked: set[str]) -> None:
    """Players looking without moving, once each: a hand after set-up, a hand with development cards, a hand with
    an offer to answer, /game status and /game rules."""
    pending = game.pending()
    first = pending[0]
    current = table.people[game.current]

    async def once(name: str, user: Any, how: str) -> None:
        if name in looked:
            return
        looked.add(name)
        if how == "hand button":
            await table.click(user, await table.turn_message(), "hand", "")
        elif how == "hand":
            await table.slash(user, "hand")
        else:
            await table.slash(user, how)

    if first["decision"] == "roll_or_play":
        await once("hand after set-up", current, "hand button")
    if first["decision"] == "main" and sum(game.dev[game.current]) >= 2:
        await once("hand with cards", current, "hand button")
    replies = [item for item in pending if item["decision"] == "trade_reply"]
    if replies:
        await once("hand with an offer", table.people[replies[0]["seat"]], "hand")
    if step == LOOK_STEP:
        await once("status", table.people[(game.current + 1) % game.n], "game status")
        await once("rules", table.people[(game.current + 1) % game.n], "game rules")


async def play_catan(table: Table, seed: int, lang: str) -> set[str]:
    await open_game(table, "catan new", table.people, board="beginner")
    director = Director(random.Random(seed))
    looked: set[str] = set()
    for step in range(MAX_STEPS):
        game = await table.game()
        if game is None or game.finished:
            break
        await look(table, game, step, looked)
        action = director.choose(game)
        if action["type"] == "discard":
            director.done.add("discard")
        if action["type"] in ("robber", "knight") and action.get("victim") is not None:
            director.done.add("robber:steal")
        await catan_move(table, action, lang)
        await table.rest()
    else:
        raise TranscriptError("the Catan game did not finish")
    return director.done


# -- the whole transcript --------------------------------------------------------------------------------------


@contextlib.contextmanager
def reader_locale(lang: str) -> Iterator[None]:
    """simcord sends every interaction with the locale en-US; the readers here read ``lang``."""
    from simcord import interactions  # lazy: simcord is a test dependency

    original = interactions.base_payload

    def localised(*args: Any, **kwargs: Any) -> Any:
        record, payload = original(*args, **kwargs)
        payload["locale"] = lang
        if "guild_locale" in payload:
            payload["guild_locale"] = lang
        return record, payload

    interactions.base_payload = localised
    try:
        yield
    finally:
        interactions.base_payload = original


async def transcript(lang: str) -> str:
    """Both games played on a fresh simulated Discord whose server and readers use ``lang``, as text."""
    simcord = _simcord()

    names = PLAYERS[lang]
    with tempfile.TemporaryDirectory() as folder, reader_locale(lang):
        config = Config(database=Path(folder) / "transcript.sqlite3", reminder_check=10**9, render_processes=0)
        bot = BoardHost(config, rng=random.Random(BOT_SEED))
        try:
            async with simcord.run(bot) as env:
                await bot.tree.sync()
                guild = env.create_guild(SERVER, preferred_locale=lang)
                channel = guild.create_text_channel("games")
                people = [guild.add_member(env.create_user(name)) for name in names]
                recorder = Recorder(env, channel=channel, people=people)
                recorder.names.update({p.id: n for p, n in zip(people, names, strict=True)})
                recorder.names[channel.id] = "games"
                recorder.names[0] = "games"
                table = Table(env, bot, channel, people, recorder)
                recorder.lines += [
                    f"boardhost transcript: {NATIVE_NAMES[lang]} ({lang})",
                    "Regenerate: python -m tools.transcript " + lang + f" --out docs/transcripts/{lang}.txt",
                    "Lines starting with > are what a player did; [...] says who sees what follows.",
                ]
                recorder.section("Carcassonne with The River and The Tower")
                events = await play_carcassonne(table, CARCASSONNE_SEED)
                missing = CARCASSONNE_EVENTS - events
                if missing:
                    raise TranscriptError(f"the Carcassonne game lacks {sorted(missing)}")
                recorder.section("Catan")
                events = await play_catan(table, CATAN_SEED, lang)
                missing = CATAN_EVENTS - events
                if missing:
                    raise TranscriptError(f"the Catan game lacks {sorted(missing)}")
                recorder.section("Ratings")
                asker, rated = people[1], people[0]
                await table.slash(asker, "stats")
                shown = f"types /stats player:@{names[0]}"
                await table.act(asker, shown, lambda: asker.slash(channel, "stats", player=rated))
                recorder.flush()
                text = "\n".join(recorder.lines) + "\n"
        finally:
            await bot.close()
            gc.collect()
    return text


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tools.transcript",
        description="Play a complete Carcassonne game (River and Tower) and a complete Catan game through the bot on "
        "the simulated Discord and write everything the players read, in one language, as text.",
    )
    parser.add_argument("language", metavar="LANG", help=f"the language to write in: {', '.join(LANGUAGES)}")
    parser.add_argument(
        "--out", metavar="FILE", type=Path, help="write the transcript to FILE (default: standard output)"
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.language not in LANGUAGES:
        print(f"unknown language {args.language!r}: use one of {', '.join(LANGUAGES)}", file=sys.stderr)
        return 2
    text = asyncio.run(transcript(args.language))
    if args.out is None:
        sys.stdout.write(text)
    else:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
