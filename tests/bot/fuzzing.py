"""A fuzzing harness for the bot on simcord: random users (players and strangers) throw random clicks, selects, slash
commands and autocomplete requests at games running in several channels, and after every interaction and every step
the harness checks what a user or the database would notice.

The pieces:

- ``Driver``: what the harness needs to know about one game (how to open a table, the legal move of whoever must
  act, the game's own commands). ``tests/bot/test_fuzz.py`` holds the drivers and the list ``DRIVERS``.
- ``Fuzzer``: the users, the tables (one channel each), the seeded random choices, the steps and the checks.
- ``Catalogue``: tells whether a text the bot sent comes from ``bot.text.catalogue`` (and which key).

What is checked (``FuzzFailure`` names the seed, the step and the recent trail when something breaks):

- after every interaction: simcord recorded no bot error and nothing was logged at ERROR (a dynamic item's callback
  error only reaches discord.py's log, so the log is watched too); the interaction was acknowledged; every reply is
  a catalogue text (an ``error.rule`` reason must be the message of a ``RuleError`` raised meanwhile, with player
  names for "seat N", or another catalogue text; a reply of several lines, such as a hand or a DM's news, is
  matched line by line), never ``error.internal``, never empty, and ephemeral unless it is one of the few
  announcements meant for the channel; a slash command always replies; a click answered with a form (a modal)
  replies nothing else, and the form's submission is checked like any interaction; a click that gets no reply must
  have changed a game or the clicked message; a refusal changes no game; autocomplete offers at most 25 choices
  with short names;
- what only the situation decides: ``/game`` commands, ``/stats``, ``/settings``, lobby commands and each driver's
  commands get the answer the situation calls for (``answered``); ``/game status`` names who must act, ``/stats``
  counts the finished games, an export replays to the stored game; nobody changes a running game they do not sit
  at, whatever they click; a legal move through the UI is taken; what the bot posts while time passes are
  reminders naming whoever the game waits for;
- after every step: for every stored game, the saved state equals the replay of its stored action log
  (``bot.host.rebuild.rebuild``), its version never goes down, nothing changes without a new version, finished and
  abandoned games stay as they are, ``finished`` agrees with the engine and the winners with its result; a channel
  has at most one open game; the components on an open game's latest message carry its current version, and no
  other public message in the channel still offers that game's components, except those its driver says may last
  (``Driver.lasting``: a Catan public offer's replies while that offer is open, and not a moment longer); every
  direct message the bot sent meanwhile is a catalogue text.

``/game status`` and reminders name the seats the game publicly waits for (``public_actors``: the recipient of a
private Catan offer is not named).

Interactions at the same moment (two people clicking one button, a command typed while the bot still answers a
click) go through ``tests/bot/simultaneous.py``. Besides it, two things lean on simcord internals: the interaction
observer (``Env._register_dispatch_observer``, which lets every interaction be checked, those dispatched together
included) and reading stored messages through ``env.backend`` (as the other bot tests do).

Time: rendering turn images dominates (about a tenth of a second per accepted move), and simulated time passes now
and then so that discord.py's 15-minute timers on ephemeral views expire instead of piling up. The timelapse of a
finished game is drawn in this process (the bot's background task: up to 8 seconds on a loaded machine), which
simcord's 5-second limit for the bot to settle after an interaction would count against the click that ended the
game; so the fuzzer holds the outbox's drawing back (``Outbox._draw``) and, after the step, lets it draw and post
the timelapse, as long as it takes, and checks that it was posted and nothing stays owed.
"""

from __future__ import annotations

import json
import logging
import random
import re
import string
from collections import deque
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Final, NoReturn, Protocol

import discord
from simcord import ChannelHandle, InteractionResult, MemberActor, ResponseMessage

from bot.app import BoardHost
from bot.flows.outbox import Outbox
from bot.host import Outcome
from bot.host.computer_seats import controllers
from bot.host.rebuild import load, rebuild
from bot.storage import GameRow
from bot.storage.owed import OwedRow
from bot.text import t
from bot.text.catalogue import MESSAGES
from engine import Game, RuleError
from tests.bot.simultaneous import Call, click_call, once_changed, slash_call, together

COMPONENT_INTERACTION: Final = 3
AUTOCOMPLETE_INTERACTION: Final = 4
BUTTON: Final = 2
STRING_SELECT: Final = 3
EPHEMERAL: Final = 64
# Replies that announce something to the whole channel; every other reply (refusals above all) must be ephemeral.
PUBLIC_KEYS: Final = frozenset(
    {
        "cmd.abandoned",
        "cmd.left_game",
        "cmd.left_for_computer",
        "cmd.export.caption",
        "cmd.board.caption",
        "cmd.stats.none",
        "cmd.stats.title",
        "lobby.title",
        "lobby.started",
        "lobby.cancelled",
        "lobby.left",
    }
)


# Component custom ids start with prefix:game:version (bot.core.components.make_custom_id; the lobby's alike).
CUSTOM_ID: Final = re.compile(r"bh:[a-z]+:(?P<game>\d+):(?P<version>\d+):")


class FuzzFailure(AssertionError):
    """A broken invariant; the message says how to reproduce it."""


# -- the message catalogue -------------------------------------------------------------------------------------


# A template with less fixed text than this ("{name}: {score}", "{degrees}°") is only ever part of a larger message.
FIXED_TEXT: Final = 4


def _pattern(template: str) -> tuple[int, re.Pattern[str]]:
    """The template as a regular expression (each parameter: some text on one line), and how much is fixed text."""
    parts = []
    fixed = 0
    for literal, name, _spec, _conversion in string.Formatter().parse(template):
        parts.append(re.escape(literal))
        fixed += len(literal)
        if name is not None:
            parts.append(r"[^\n]+?")
    return fixed, re.compile("".join(parts))


class Catalogue:
    """Which catalogue entry a text the bot sent is (``error.rule`` only when its reason is explained)."""

    def __init__(self) -> None:
        found: list[tuple[int, str, re.Pattern[str]]] = []  # (fixed characters, key, pattern)
        for key, entry in MESSAGES.items():
            for form in entry if isinstance(entry, tuple) else (entry,):
                fixed, pattern = _pattern(form)
                if fixed >= FIXED_TEXT:  # "error.rule" ("{reason}") among those left out: checked on its own
                    found.append((fixed, key, pattern))
        # The most specific template first.
        self.patterns = [(key, pattern) for _fixed, key, pattern in sorted(found, key=lambda f: -f[0])]

    def key(self, text: str, rule_messages: set[str]) -> str | None:
        """The catalogue key of ``text``: ``error.rule`` if it is the message of a RuleError raised meanwhile (or
        a catalogue text given as a rule's reason); for texts joined by blank lines, the key of the first part; a
        text of several lines (a hand, a DM's news) that is no template as a whole, line by line, the first line's."""
        parts = [text] if "\n\n" not in text else text.split("\n\n")
        keys = [self._key(part, rule_messages) for part in parts]
        return None if None in keys else keys[0]

    def _key(self, text: str, rule_messages: set[str]) -> str | None:
        found = self._line_key(text, rule_messages)
        if found is None and "\n" in text:
            keys = [self._line_key(line, rule_messages) for line in text.split("\n")]
            return None if None in keys else keys[0]
        return found

    def _line_key(self, text: str, rule_messages: set[str]) -> str | None:
        if text.strip() and any(rule.fullmatch(text) for rule in map(rule_pattern, rule_messages)):
            return "error.rule"
        for key, pattern in self.patterns:
            if pattern.fullmatch(text):
                return key
        return None


def rule_pattern(message: str) -> re.Pattern[str]:
    """A RuleError's message as a player may see it: "seat 2" (and "seat 2's") replaced by a name."""
    parts = re.split(r"\bseat \d+(?:'s)?", message)
    return re.compile(r"[^\n]+?".join(re.escape(part) for part in parts))


# -- drivers ---------------------------------------------------------------------------------------------------


class Driver(Protocol):
    """What the fuzzer needs to know about one game. Add a class like this to ``DRIVERS`` in test_fuzz.py.

    A driver does its clicking and typing through the ``Fuzzer`` helpers (``click``, ``use``, ``select``,
    ``slash``, ``autocomplete``, ``simultaneously``), so that every interaction it makes is checked like the rest,
    and says what it is about to do with ``fz.note`` first, so that a failure's trail shows it.
    """

    game: str  # the engine name: "carcassonne", "catan"
    seats: tuple[int, int]  # how many players the fuzzer seats at a table, fewest and most

    def lobby(self, rng: random.Random) -> tuple[str, dict[str, Any]]:
        """The slash command that opens a lobby and its random options: ("carcassonne new", {"river": True})."""
        ...

    def stored_options(self, rng: random.Random, row: GameRow) -> dict[str, Any]:
        """Options to store in a fresh lobby before anyone joins (say, a shorter stack so that games end); or {}."""
        ...

    async def move(self, fz: Fuzzer, table: Table, row: GameRow, game: Game) -> None:
        """Make one complete legal move, through the UI, for a seat that owes a decision.

        The fuzzer then insists that the game moved on (its version went up).
        """
        ...

    async def command(self, fz: Fuzzer, table: Table, user: MemberActor, row: GameRow | None) -> None:
        """One of the game's own slash commands or autocomplete requests with random arguments, usually by ``user``.

        ``row`` is the channel's open game, whatever its kind, or None. Check here what only this game knows (the
        answer a command must get, that autocomplete offers legal choices) with ``fz.answered`` and ``fz.expect``.
        """
        ...

    def lasting(self, game: Game, custom_id: str) -> bool:
        """Whether a component of the running ``game`` may stay on a public message other than its latest one
        (Catan: the reply buttons of a public offer while that offer is open). Carcassonne: never."""
        ...


# -- tables and users ------------------------------------------------------------------------------------------


@dataclass
class Table:
    """One channel and the game it hosts (``game_id``: the latest, open or over)."""

    channel: ChannelHandle
    game_id: int | None = None
    wanted: int = 0  # seats the lobby should fill before its host starts it


@dataclass
class Snapshot:
    """A stored game as the last check saw it."""

    version: int
    status: str
    state: Any
    actions: int


@dataclass
class Observed:
    """One interaction the bot received, with what the clicked message looked like just before."""

    record: Any  # simcord's interaction record
    source: tuple[str, str] | None  # (content, components JSON) of the clicked message


@dataclass
class Counts:
    steps: int = 0
    interactions: int = 0
    refusals: int = 0
    moves: int = 0
    opened: int = 0
    finished: int = 0
    abandoned: int = 0
    simultaneous: int = 0
    reminders: int = 0
    direct_messages: int = 0
    timelapses: int = 0
    kinds: dict[str, int] = field(default_factory=dict)
    refusal_keys: dict[str, int] = field(default_factory=dict)
    finished_games: dict[str, int] = field(default_factory=dict)  # per game ("carcassonne", "catan")
    done: dict[str, int] = field(default_factory=dict)  # what drivers did, by name ("catan.offer", "catan.dm")

    def tally(self, what: str, count: int = 1) -> None:
        self.done[what] = self.done.get(what, 0) + count


class ErrorLog(logging.Handler):
    """Every record at ERROR or above from any logger (discord.py logs swallowed callback errors there)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextmanager
def watching_rule_errors(into: set[str]) -> Iterator[None]:
    """Remember the message of every RuleError constructed meanwhile: the explanations ``error.rule`` may show."""
    original = RuleError.__init__

    def init(self: RuleError, code: str, message: str, **params: Any) -> None:
        original(self, code, message, **params)
        into.add(message)

    RuleError.__init__ = init  # type: ignore[method-assign]
    try:
        yield
    finally:
        RuleError.__init__ = original  # type: ignore[method-assign]


def flat(components: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The interactive components of a stored message's rows."""
    found: list[dict[str, Any]] = []
    for row in components:
        for child in row.get("components", []):
            if child.get("type") in (BUTTON, STRING_SELECT) and child.get("custom_id"):
                found.append(child)
    return found


# -- the fuzzer ------------------------------------------------------------------------------------------------


class Fuzzer:
    def __init__(
        self,
        env: Any,
        bot: BoardHost,
        drivers: Sequence[Driver],
        *,
        seed: int,
        tables: int = 3,
        users: Sequence[str] = ("alice", "bob", "carol", "dmitri", "émile", "李雷", "ゆき", "zoë"),
    ) -> None:
        self.env = env
        self.bot = bot
        self.drivers = list(drivers)
        self.seed = seed
        self.rng = random.Random(seed)
        self.catalogue = Catalogue()
        guild = env.create_guild()
        self.guild_id = guild.id
        mods = guild.create_role("mods", permissions=discord.Permissions(manage_channels=True))
        self.users: list[MemberActor] = [guild.add_member(env.create_user(name)) for name in users]
        # One more member may end any game (Manage Channels) without ever sitting down.
        self.moderator: MemberActor = guild.add_member(env.create_user("moderator"), roles=[mods])
        self.everyone = [*self.users, self.moderator]
        self.by_id = {u.id: u for u in self.everyone}
        self.tables = [Table(guild.create_text_channel(f"table-{i}")) for i in range(tables)]
        self.counts = Counts()
        self.trail: deque[str] = deque(maxlen=25)
        self.step_label = "set-up"
        self.rule_messages: set[str] = set()
        self.errors = ErrorLog()
        self.seen: dict[int, Snapshot] = {}
        self._observed: list[Observed] = []
        self._dms_seen: set[int] = set()  # ids of the direct messages already checked
        self._error_cursor = 0
        self._log_cursor = 0
        # games that ended in this step, their timelapses still to draw: the outbox and its arguments to ``_draw``
        self._timelapses: list[tuple[Outbox, OwedRow, Outcome, list[str]]] = []

    # -- running -------------------------------------------------------------------------------------------

    async def run(self, steps: int) -> Counts:
        logging.getLogger().addHandler(self.errors)
        unregister = self.env._register_dispatch_observer(self._observe)
        draw = self._draw = Outbox._draw  # every bot's, restarted ones' too

        def keep(outbox: Outbox, debt: OwedRow, outcome: Outcome, done: list[str]) -> None:
            self._keep_timelapse(outbox, debt, outcome, done)

        Outbox._draw = keep  # type: ignore[method-assign]  # drawn after the step: see the module's "Time"
        try:
            with watching_rule_errors(self.rule_messages):
                for table in self.tables:
                    await self.open_table(table)
                await self.check_storage()
                for number in range(steps):
                    self.counts.steps = number + 1
                    await self.step(number)
                    await self.draw_timelapses()
                    await self.check_storage()
                    self.check_direct_messages()
        finally:
            Outbox._draw = draw  # type: ignore[method-assign]  # the bot's own again
            unregister()
            logging.getLogger().removeHandler(self.errors)
        return self.counts

    # Kinds of step and their weights: a good share of legal moves keeps games moving and finishing.
    WEIGHTS: Final[dict[str, float]] = {
        "move": 38,
        "click_latest": 12,
        "click_any": 10,
        "game_command": 10,
        "info": 12,
        "simultaneous": 6,
        "leave": 0.4,
        "abandon": 0.4,
        "time_passes": 4,
        "restart": 0.4,
        "new_lobby": 1,
    }

    async def step(self, number: int) -> None:
        rng = self.rng
        table = rng.choice(self.tables)
        row = await self.current_row(table)
        if (row is None or row.status in ("finished", "abandoned")) and rng.random() < 0.35:
            self.begin(number, table, "open a new game")
            await self.open_table(table)
            return
        kinds = list(self.WEIGHTS)
        kind = rng.choices(kinds, weights=[self.WEIGHTS[k] for k in kinds])[0]
        self.counts.kinds[kind] = self.counts.kinds.get(kind, 0) + 1
        self.begin(number, table, kind)
        if kind == "move" and row is not None and row.status in ("lobby", "active"):
            await self.move(table, row)
        elif kind == "click_latest":
            await self.click_latest(table, row)
        elif kind == "click_any":
            await self.click_any(table, row)
        elif kind == "game_command":  # mostly the channel's own game's, sometimes another game's
            opened = row if row is not None and row.status in ("lobby", "active") else None
            driver = self.driver_for(opened) if opened and rng.random() < 0.8 else rng.choice(self.drivers)
            await driver.command(self, table, self.pick_user(row), opened)
        elif kind == "info":
            await self.info(table, row)
        elif kind == "simultaneous":
            await self.click_together(table, row)
        elif kind == "time_passes":
            await self.time_passes()
        elif kind in ("leave", "abandon"):
            await self.leave_or_abandon(table, row, kind)
        elif kind == "restart":
            await self.restart()
        elif kind == "new_lobby":
            await self.new_lobby(table, row)
        else:  # a move with no game open: someone asks for the status instead
            await self.info(table, row)

    def _keep_timelapse(self, outbox: Outbox, debt: OwedRow, outcome: Outcome, done: list[str]) -> None:
        """Stands in for ``Outbox._draw`` (the bot's background task): the game is kept for ``draw_timelapses``."""
        self._timelapses.append((outbox, debt, outcome, list(done)))

    async def draw_timelapses(self) -> None:
        """Let the outbox draw and post the timelapses of the games that ended in this step, taking as long as
        drawing takes, and check that each was posted in its game's channel with a catalogue caption."""
        while self._timelapses:
            outbox, debt, outcome, done = self._timelapses.pop(0)
            row = outcome.row
            self.note(f"the timelapse of game {row.id} is drawn")
            self._draw(outbox, debt, outcome, done)
            await outbox.drawn()
            await self.env.settle()
            self._check_errors()
            owed = await self.bot.records.owed.of_game(row.id)
            self.expect(not owed, f"game {row.id}: its timelapse is still owed")
            channel = next(t.channel for t in self.tables if t.channel.id == row.channel_id)
            stored = channel.last_message
            key = self.catalogue.key(stored.content, set())
            self.expect(key == "timelapse.caption" and stored.attachments, f"not a timelapse: {stored.content!r}")
            self.counts.timelapses += 1

    def begin(self, number: int, table: Table, kind: str) -> None:
        self.step_label = f"step {number} in #{table.channel.name}: {kind}"
        self.trail.append(self.step_label)

    def note(self, text: str) -> None:
        self.trail.append("    " + text)

    # -- the kinds of step ---------------------------------------------------------------------------------

    async def open_table(self, table: Table) -> None:
        """A random host opens a lobby, seats join, and (mostly) the host starts it at once."""
        rng = self.rng
        driver = rng.choice(self.drivers)
        host = rng.choice(self.users)
        name, options = driver.lobby(rng)
        self.note(f"{host.name}: /{name} {options}")
        await self.slash(host, table.channel, name, **options)
        row = await self.bot.games.open_in_channel(table.channel.id)
        self.expect(row is not None and row.host_id == host.id, f"/{name} opened no lobby")
        assert row is not None
        table.game_id = row.id
        table.wanted = rng.randint(*driver.seats)
        self.counts.opened += 1
        extra = driver.stored_options(rng, row)
        if extra:  # written as the lobby's options; the version stays so that its buttons stay valid
            async with self.bot.db.transaction() as conn:
                await conn.execute(
                    "UPDATE games SET options = ? WHERE id = ?", (json.dumps({**row.options, **extra}), row.id)
                )
        if rng.random() < 0.2:
            self.note("the lobby stays open for a while")
            return
        while (row := await self.bot.rows.row(row.id)).status == "lobby":
            await self.lobby_move(table, row)

    async def new_lobby(self, table: Table, row: GameRow | None) -> None:
        """Anyone types a game's lobby command: refused in a busy channel, else the lobby opens and stays open."""
        driver = self.rng.choice(self.drivers)
        user = self.rng.choice(self.everyone)
        name, options = driver.lobby(self.rng)
        self.note(f"{user.name}: /{name} {options}")
        result = await self.slash(user, table.channel, name, **options)
        if row is not None and row.status in ("lobby", "active"):
            self.answered(result, "error.channel_busy")
            return
        self.answered(result, "lobby.title")
        opened = await self.bot.games.open_in_channel(table.channel.id)
        self.expect(opened is not None and opened.host_id == user.id, f"/{name} opened no lobby")
        assert opened is not None
        table.game_id, table.wanted = opened.id, self.rng.randint(*driver.seats)
        self.counts.opened += 1

    async def lobby_move(self, table: Table, row: GameRow) -> None:
        message = self.message_of(table, row)
        self.expect(message is not None, "the lobby message is gone")
        assert message is not None
        if len(row.seats) < table.wanted:
            user = self.rng.choice([u for u in self.users if row.seat_of(u.id) is None])
            label = t("lobby.button.join")
        else:
            user, label = self.by_id[row.host_id], t("lobby.button.start")
        self.note(f"{user.name}: {label}")
        component = next((c for c in flat(self.stored(message).components) if c.get("label") == label), None)
        self.expect(component is not None, f"no {label} button on the lobby")
        assert component is not None
        await self.click(user, message, component)
        after = await self.bot.rows.row(row.id)
        self.expect(after.version > row.version, f"the lobby ignored {user.name}'s {label}")
        if after.status == "active":
            self.counts.moves += 1

    async def move(self, table: Table, row: GameRow) -> None:
        if row.status == "lobby":
            await self.lobby_move(table, row)
            return
        driver = self.driver_for(row)
        game = load(row)
        if not game.actors():
            return
        if any(seat in controllers(row) for seat in game.actors()):  # a computer player owes it: let it think
            self.note("a computer player owes a decision: time passes")
            await self.env.advance_time(self.bot.config.computer_pause + 1)
            return
        await driver.move(self, table, row, game)
        after = await self.bot.rows.row(row.id)
        self.expect(after.version > row.version, "a legal move by the player to act was not taken")
        self.counts.moves += 1

    async def click_latest(self, table: Table, row: GameRow | None) -> None:
        """A random user, a random component of the channel's latest message that has any."""
        user = self.pick_user(row)
        public = [m for m in self.messages(table, user) if not m.flags & EPHEMERAL]
        if not public:
            await self.info(table, row)
            return
        message = public[-1]
        component = self.rng.choice(flat(message.components))
        self.note(f"{user.name}: {self.describe(component)} on the latest message")
        before = await self.game_of(component)
        await self.use(user, self.handle(message), component)
        await self.strangers_changed_nothing(before, [user])

    async def click_any(self, table: Table, row: GameRow | None) -> None:
        """A random user, a random component of any message they can see: old ones, their own ephemeral replies."""
        user = self.rng.choice(self.everyone)
        messages = self.messages(table, user)
        if not messages:
            await self.info(table, row)
            return
        message = self.rng.choice(messages)
        component = self.rng.choice(flat(message.components))
        where = "their ephemeral reply" if message.flags & EPHEMERAL else "message"
        self.note(f"{user.name}: {self.describe(component)} on {where} {message.id}")
        before = await self.game_of(component)
        await self.use(user, self.handle(message), component)
        await self.strangers_changed_nothing(before, [user])

    async def click_together(self, table: Table, row: GameRow | None) -> None:
        """Two interactions dispatched together: the same component clicked twice (a double click, or a player and
        someone else), or a click while someone types a ``/game`` command (``abandon`` among them)."""
        public = [m for m in self.messages(table, None) if not m.flags & EPHEMERAL]
        if not public:
            await self.info(table, row)
            return
        message = public[-1]
        component = self.rng.choice(flat(message.components))
        value = self.value_for(component)
        first = self.pick_user(row, seated=0.8)
        second = first if self.rng.random() < 0.5 else self.pick_user(row)
        clickable = self.handle(message)
        click = self.click_call(first, clickable, component, value)
        if self.rng.random() < 0.3:
            command = self.rng.choices(("game status", "game board", "game abandon", "game leave"), (4, 1, 1, 1))[0]
            self.note(f"{first.name}: {self.describe(component)} {value or ''}, and at once {second.name}: /{command}")
            await self.simultaneously([click, self.slash_call(second, table.channel, command)])
            return
        self.note(f"{first.name} and {second.name} together: {self.describe(component)} {value or ''}")
        before = await self.game_of(component)
        await self.simultaneously([click, self.click_call(second, clickable, component, value)])
        await self.strangers_changed_nothing(before, [first, second])

    async def game_of(self, component: dict[str, Any]) -> GameRow | None:
        """The stored game a component belongs to (by its custom id), if any."""
        match = CUSTOM_ID.match(str(component.get("custom_id")))
        return None if match is None else await self.bot.games.get(int(match["game"]))

    async def strangers_changed_nothing(self, before: GameRow | None, users: Sequence[MemberActor]) -> None:
        """Nobody changes a running game they do not sit at, whatever they click."""
        if before is None or before.status != "active" or any(before.seat_of(u.id) is not None for u in users):
            return
        after = await self.bot.games.get(before.id)
        names = " and ".join(u.name for u in users)
        self.expect(after is not None and after.version == before.version, f"{names}, not seated, changed {before.id}")

    async def info(self, table: Table, row: GameRow | None) -> None:
        """A command about the game or the server, and the answer it must get."""
        rng = self.rng
        user = self.pick_user(row)
        choice = rng.choices(
            ["game status", "game board", "game rules", "game export", "stats", "settings notifications"],
            weights=[5, 1, 2, 3, 2, 1],
        )[0]
        options: dict[str, Any] = {"dm_on_turn": rng.random() < 0.5} if choice == "settings notifications" else {}
        self.note(f"{user.name}: /{choice} {options or ''}")
        result = await self.slash(user, table.channel, choice, **options)
        opened = row if row is not None and row.status in ("lobby", "active") else None
        ended = await self.bot.games.latest_started_in_channel(table.channel.id) if opened is None else None
        if choice == "game status" and ended is not None:  # the channel's last game: how it ended
            self.answered(result, f"cmd.status.{ended.status}_title")
        elif choice in ("game status", "game board"):
            refusal = (
                "error.no_game_here" if opened is None else "error.not_started" if opened.status == "lobby" else None
            )
            reply = self.answered(
                result, refusal or ("cmd.status.title" if choice == "game status" else "cmd.board.caption")
            )
            if refusal is None and opened is not None and choice == "game status":
                description = reply.embeds[0].description or ""
                for seat in load(opened).public_actors():  # a private offer's recipient stays unnamed
                    self.expect(
                        f"<@{opened.seats[seat].user_id}>" in description, f"status names no actor: {description}"
                    )
            if refusal is None and choice == "game board":
                self.expect([a.filename for a in reply.attachments] == ["board.png"], "the board has no image")
        elif choice == "game export":
            refusal = (
                "error.no_game_here" if row is None else None if row.status == "finished" else "error.export_unfinished"
            )
            reply = self.answered(result, refusal or "cmd.export.caption")
            if refusal is None and row is not None:
                await self._check_export(reply, row)
        elif choice == "stats":
            rows = await self.bot.db.fetchall(
                "SELECT COUNT(*) FROM games WHERE guild_id = ? AND status = 'finished'", (self.guild_id,)
            )
            finished = int(rows[0][0])
            reply = self.answered(result, "cmd.stats.title" if finished else "cmd.stats.none")
            if finished:
                total = (reply.embeds[0].description or "").split("\n")[0]
                self.expect(total == t("cmd.stats.total", count=finished), f"/stats says {total!r}, not {finished}")
        elif choice == "settings notifications":  # every setting, one line each: turn DMs first
            self.answered(result, "settings.dm_on" if options["dm_on_turn"] else "settings.dm_off")
        else:
            self.answered(result, f"rules.{opened.game}.turn" if opened else "rules.carcassonne")  # its options'

    async def leave_or_abandon(self, table: Table, row: GameRow | None, kind: str) -> None:
        user = self.pick_user(row)
        self.note(f"{user.name}: /game {kind}")
        result = await self.slash(user, table.channel, f"game {kind}")
        opened = row if row is not None and row.status in ("lobby", "active") else None
        if opened is None:
            self.answered(result, "error.no_game_here")
        elif kind == "abandon":
            allowed = user.id == opened.host_id or user is self.moderator
            self.answered(result, "cmd.abandoned" if allowed else "error.host_only")
        elif opened.seat_of(user.id) is None:
            self.answered(result, "error.not_seated")
        elif opened.status == "lobby":
            self.answered(result, "error.host_cannot_leave" if user.id == opened.host_id else "lobby.left")
        else:
            seat = opened.seat_of(user.id)
            others = [
                s for s, who in enumerate(opened.seats) if s != seat and not who.computer and s not in opened.stand_ins
            ]
            # Someone else still plays: a computer takes the seat; otherwise the game ends.
            self.answered(result, "cmd.left_for_computer" if others else "cmd.left_game")

    async def _check_export(self, reply: ResponseMessage, row: GameRow) -> None:
        """The exported replay plays back to the stored game."""
        from engine.replay import play

        files = reply.attachments
        self.expect(len(files) == 1 and files[0].filename.endswith(".json"), "the export has no replay file")
        data = json.loads(await files[0].read())
        replayed = play(data)
        self.expect(replayed.result() == load(row).result(), f"the exported replay of game {row.id} plays differently")

    async def restart(self) -> None:
        """The bot process restarts: a fresh bot on the same database, old messages' components still work."""
        old = self.bot
        fresh = BoardHost(old.config, rng=random.Random(self.rng.getrandbits(32)))
        self.note("the bot restarts")
        await self.env.restart_bot(fresh)
        await fresh.wait_until_ready()
        await old.db.close()
        self.bot = fresh
        self._check_errors()

    async def time_passes(self) -> None:
        """Minutes or, rarely, half a day go by: reminders are due, ephemeral views expire (discord.py gives them 15
        minutes; their buttons still work afterwards through the dynamic items)."""
        seconds = 13 * 3600 if self.rng.random() < 0.05 else self.rng.choice((60, 300, 900, 1200))
        self.note(f"{seconds} seconds pass")
        before = len(self._observed)
        known = {t.channel.id: set(self.env.backend.messages.get(t.channel.id, {})) for t in self.tables}
        await self.env.advance_time(seconds)
        self._check_errors()
        self.expect(len(self._observed) == before, "nobody acted while time passed")
        for table in self.tables:  # what the bot said meanwhile: reminders for whoever the game waits for
            posted = [
                m
                for i, m in self.env.backend.messages.get(table.channel.id, {}).items()
                if i not in known[table.channel.id]
            ]
            if not posted:
                continue
            row = await self.current_row(table)
            self.expect(row is not None and row.status == "active", f"#{table.channel.name}: a message with no game")
            assert row is not None
            played = controllers(row)  # computer players and the people they stand in for are never reminded
            waiting = {f"<@{row.seats[s].user_id}>" for s in load(row).public_actors() if s not in played}
            for message in posted:
                key = self.catalogue.key(message.content, set())
                mentioned = set(re.findall(r"<@\d+>", message.content))
                self.expect(key == "reminder.turn" and mentioned == waiting, f"not a reminder: {message.content!r}")
                self.counts.reminders += 1

    # -- helpers for drivers -------------------------------------------------------------------------------

    def pick_user(self, row: GameRow | None, *, seated: float = 0.55) -> MemberActor:
        """A seated player of ``row`` with probability ``seated``, else anyone (a stranger, often)."""
        people = [s for s in row.seats if not s.computer] if row is not None else []
        if people and self.rng.random() < seated:
            return self.by_id[self.rng.choice(people).user_id]
        return self.rng.choice(self.everyone)

    def player(self, row: GameRow, seat: int) -> MemberActor:
        return self.by_id[row.seats[seat].user_id]

    def driver_for(self, row: GameRow) -> Driver:
        for driver in self.drivers:
            if driver.game == row.game:
                return driver
        raise FuzzFailure(f"no driver for {row.game}")

    async def current_row(self, table: Table) -> GameRow | None:
        return None if table.game_id is None else await self.bot.games.get(table.game_id)

    def stored(self, message: Any) -> Any:
        return self.env.backend.get_message(message.channel_id, message.id)

    def handle(self, stored: Any) -> ResponseMessage:
        """Something an actor can click: a stored message as simcord's public message type."""
        return ResponseMessage(self.env, stored)

    def message_of(self, table: Table, row: GameRow) -> ResponseMessage | None:
        """The game's latest message (its turn message, or the lobby)."""
        if row.message_id is None:
            return None
        messages = self.env.backend.messages.get(table.channel.id, {})
        stored = messages.get(row.message_id)
        return None if stored is None else self.handle(stored)

    def components(self, message: Any) -> list[dict[str, Any]]:
        return flat(self.stored(message).components)

    def messages(self, table: Table, user: MemberActor | None) -> list[Any]:
        """Stored messages of the channel with components that ``user`` can see (None: public ones), oldest first."""
        found = []
        for message in self.env.backend.messages.get(table.channel.id, {}).values():
            if flat(message.components) and message.visible_to(user.id if user else None):
                found.append(message)
        return sorted(found, key=lambda m: m.id)

    def value_for(self, component: dict[str, Any]) -> str | None:
        if component.get("type") != STRING_SELECT:
            return None
        return str(self.rng.choice(component["options"])["value"])

    @staticmethod
    def describe(component: dict[str, Any]) -> str:
        kind = "select" if component.get("type") == STRING_SELECT else "button"
        return f"{kind} {component.get('custom_id')} {component.get('label') or ''}".rstrip()

    def replies(self, result: InteractionResult, source_id: int | None = None) -> list[ResponseMessage]:
        """What the user saw in answer: the response (unless it is the clicked message itself) and follow-ups."""
        found = []
        response = result.response
        if response is not None and response.id != source_id:
            found.append(response)
        return found + result.followups

    def answered(self, result: InteractionResult, key: str | tuple[str, ...]) -> ResponseMessage:
        """The reply to ``result`` that is the catalogue text ``key`` (or one of several; fails if there is none)."""
        keys = (key,) if isinstance(key, str) else key
        seen = []
        for reply in self.replies(result):
            for text in [reply.content, *(e.title or "" for e in reply.embeds)]:
                found = self.catalogue.key(text, self.rule_messages) if text else None
                if found in keys:
                    return reply
                seen.append(f"{found}: {text!r}")
        self.fail(f"expected the answer {key}, got {seen or 'nothing'}")

    def expect(self, condition: object, what: str) -> None:
        if not condition:
            self.fail(what)

    def fail(self, what: str) -> NoReturn:
        trail = "\n".join(self.trail)
        raise FuzzFailure(
            f"{what}\nat {self.step_label} (FUZZ_SEED={self.seed}; the last steps, oldest first:)\n{trail}"
        )

    # -- interactions, each checked ------------------------------------------------------------------------

    async def click(self, user: MemberActor, message: Any, component: dict[str, Any]) -> InteractionResult:
        """Click a button (``use`` with a random option, for a select)."""
        return await self.use(user, message, component)

    async def use(
        self, user: MemberActor, message: Any, component: dict[str, Any], value: str | None = None
    ) -> InteractionResult:
        """Click a button, or choose ``value`` (else a random option) in a select."""
        custom_id = str(component["custom_id"])
        if component.get("type") == STRING_SELECT:
            chosen = value if value is not None else self.value_for(component)
            return await self._checked(lambda: user.select(message, [chosen], custom_id=custom_id))
        return await self._checked(lambda: user.click(message, custom_id=custom_id))

    async def click_id(self, user: Any, message: Any, custom_id: str) -> InteractionResult:
        """Click the button ``custom_id`` (``user``: a member, or a user handle in their DMs)."""
        return await self._checked(lambda: user.click(message, custom_id=custom_id))

    async def select(self, user: Any, message: Any, custom_id: str, value: str) -> InteractionResult:
        return await self._checked(lambda: user.select(message, [value], custom_id=custom_id))

    async def slash(self, user: MemberActor, channel: ChannelHandle, name: str, **options: Any) -> InteractionResult:
        return await self._checked(lambda: user.slash(channel, name, **options))

    async def submit(self, user: Any, shown: InteractionResult, values: dict[str, str]) -> InteractionResult:
        """Fill in and send the form that ``shown`` (an interaction answered with a modal) opened for ``user``."""
        return await self._checked(lambda: user.submit_modal(shown, values))

    async def autocomplete(
        self, user: MemberActor, channel: ChannelHandle, name: str, option: str, value: str, **filled: Any
    ) -> list[dict[str, Any]]:
        """The choices offered; checked to be answered, at most 25, each name 1-100 characters."""
        result = await self._checked(lambda: user.autocomplete(channel, name, option, value, **filled))
        choices = result.autocomplete_choices
        self.expect(choices is not None, f"autocomplete /{name} {option}={value!r} was not answered")
        assert choices is not None
        self.expect(len(choices) <= 25, f"autocomplete offered {len(choices)} choices")
        for choice in choices:
            self.expect(1 <= len(str(choice.get("name", ""))) <= 100, f"autocomplete choice name {choice!r}")
        return choices

    def click_call(self, user: MemberActor, message: Any, component: dict[str, Any], value: str | None = None) -> Call:
        """A click (or a choice in a select: ``value``, else a random option) to hand to ``simultaneously``."""
        chosen = value if value is not None else self.value_for(component)
        return click_call(user, message, str(component["custom_id"]), chosen)

    def slash_call(self, user: MemberActor, channel: ChannelHandle, name: str, **options: Any) -> Call:
        return slash_call(user, channel, name, **options)

    def once_changed(self, game_id: int, version: int, call: Call) -> Call:
        return once_changed(self.bot, game_id, version, call)

    async def simultaneously(self, calls: Sequence[Call]) -> list[InteractionResult]:
        """Dispatch several interactions at once (``together``) and check them all."""
        self.counts.simultaneous += 1
        first = len(self._observed)
        await self._checked(lambda: together(self.env, calls), together=True)
        return [InteractionResult(self.env, seen.record) for seen in self._observed[first:]]

    async def _checked(self, act: Callable[[], Awaitable[Any]], *, together: bool = False) -> InteractionResult:
        """Run ``act`` (one actor verb, or several clicks together) and check every interaction it dispatched."""
        before = await self._versions()
        first = len(self._observed)
        self.rule_messages.clear()
        await act()
        observed = self._observed[first:]
        after = await self._versions()
        self._check_errors()
        self.expect(observed, "the interaction never reached the bot")
        bumps = sum(version - before.get(gid, 0) for gid, version in after.items())
        silent = refused = 0
        edited = False
        for seen in observed:
            answered, was_edited, was_refused = self._check_interaction(seen)
            silent += not answered
            edited = edited or was_edited
            refused += was_refused
        # A click answered with nothing must have done something: moved a game on (the accepted one of several
        # clicks together), or changed the clicked message (a page of choices).
        allowed = bumps if bumps else len(observed) if edited else 0
        self.expect(silent <= allowed, f"{silent} click(s) got no answer and changed nothing")
        if refused and not together:
            self.expect(bumps == 0, "a refused interaction changed a game")
        self.counts.interactions += len(observed)
        self.counts.refusals += refused
        return InteractionResult(self.env, observed[-1].record)

    def _observe(self, record: Any) -> None:
        source = None
        if record.source_message_id is not None:
            message = self.env.backend.get_message(record.channel_id, record.source_message_id)
            source = (message.content, json.dumps(message.components, sort_keys=True))
        self._observed.append(Observed(record, source))

    async def _versions(self) -> dict[int, int]:
        rows = await self.bot.db.fetchall("SELECT id, version FROM games")
        return {int(r[0]): int(r[1]) for r in rows}

    def _check_errors(self) -> None:
        errors = self.env.errors_since(self._error_cursor)
        self._error_cursor += len(errors)
        self.expect(not errors, f"simcord recorded bot errors: {errors!r}")
        records = self.errors.records[self._log_cursor :]
        self._log_cursor = len(self.errors.records)
        if records:
            text = "\n".join(f"{r.name}: {r.getMessage()}\n{self.errors.format(r)}" for r in records)
            self.fail(f"errors were logged:\n{text}")

    def _check_interaction(self, seen: Observed) -> tuple[bool, bool, bool]:
        """Check one interaction's answer: (whether it was answered, its message edited, it was a refusal)."""
        record = seen.record
        result = InteractionResult(self.env, record)
        what = f"interaction {record.id} ({record.command_name or 'component'}) by {self.by_id[record.user_id].name}"
        self.expect(result.acknowledged, f"{what} was never acknowledged")
        if record.type == AUTOCOMPLETE_INTERACTION:
            return True, False, False
        replies = self.replies(result, record.source_message_id)
        if result.modal is not None:  # a form opened: the answer is the form (its submission is checked on its own)
            self.expect(not replies, f"{what} opened a form and replied besides")
            return True, False, False
        refused = False
        for reply in replies:
            refused = self._check_reply(what, reply) or refused
        edited = False
        if seen.source is not None:
            message = self.env.backend.get_message(record.channel_id, record.source_message_id)
            edited = seen.source != (message.content, json.dumps(message.components, sort_keys=True))
        if not replies:
            self.expect(record.type == COMPONENT_INTERACTION, f"{what} got no reply")
        return bool(replies), edited, refused

    def _check_reply(self, what: str, reply: ResponseMessage) -> bool:
        """Check one reply; True if it is a refusal (an ``error.*`` text)."""
        texts = [reply.content] if reply.content else []
        texts += [embed.title or "" for embed in reply.embeds]
        self.expect(texts, f"{what} was answered with an empty message")
        refused = False
        for text in texts:
            key = self.catalogue.key(text, self.rule_messages)
            self.expect(key is not None, f"{what} was answered with a text not from the catalogue: {text!r}")
            assert key is not None
            self.expect(key != "error.internal", f"{what} was refused with the generic internal error")
            self.expect(
                reply.ephemeral or key in PUBLIC_KEYS, f"{what}: {key} was shown to the whole channel: {text!r}"
            )
            if key.startswith("error."):
                refused = True
                self.counts.refusal_keys[key] = self.counts.refusal_keys.get(key, 0) + 1
        return refused

    def check_direct_messages(self) -> None:
        """What the bot sent people directly (offers, stolen and bought cards, turn notices) since the last step:
        catalogue texts, line by line."""
        for user in self.everyone:
            for message in self.env.backend.messages.get(user.user.dm_channel.id, {}).values():
                if message.id in self._dms_seen:
                    continue
                self._dms_seen.add(message.id)
                key = self.catalogue.key(message.content, set()) if message.content else None
                self.expect(key is not None, f"a direct message to {user.name} is not from the catalogue: {message!r}")
                self.counts.direct_messages += 1

    # -- storage ---------------------------------------------------------------------------------------------

    async def check_storage(self) -> None:
        """Every stored game: state equals the replay of its log; versions only go up; open games' messages live."""
        rows = [GameRow.from_row(r) for r in await self.bot.db.fetchall("SELECT * FROM games ORDER BY id")]
        counts = {
            int(r[0]): int(r[1])
            for r in await self.bot.db.fetchall("SELECT game_id, COUNT(*) FROM actions GROUP BY game_id")
        }
        open_channels: set[int] = set()
        for row in rows:
            now = Snapshot(row.version, row.status, row.state, counts.get(row.id, 0))
            before = self.seen.get(row.id)
            if row.status in ("lobby", "active"):
                self.expect(row.channel_id not in open_channels, f"two open games in channel {row.channel_id}")
                open_channels.add(row.channel_id)
            if before is not None:
                self.expect(now.version >= before.version, f"game {row.id}: version went down")
                if now.version == before.version:
                    self.expect(
                        (now.status, now.state, now.actions) == (before.status, before.state, before.actions),
                        f"game {row.id} changed without a new version",
                    )
                if before.status in ("finished", "abandoned"):
                    self.expect(now.version == before.version, f"game {row.id} changed after it was {before.status}")
            if before is None or now.version != before.version:
                await self._check_replay(row, now.actions)
                if row.status != (before.status if before else None) and row.status in ("finished", "abandoned"):
                    setattr(self.counts, row.status, getattr(self.counts, row.status) + 1)
                    if row.status == "finished":
                        finished = self.counts.finished_games
                        finished[row.game] = finished.get(row.game, 0) + 1
            if row.status in ("lobby", "active"):
                self._check_latest_message(row)
            self.seen[row.id] = now

    async def _check_replay(self, row: GameRow, count: int) -> None:
        if row.state is None:
            self.expect(row.status in ("lobby", "abandoned"), f"game {row.id} is {row.status} without a state")
            self.expect(count == 0, f"game {row.id} has actions but no state")
            return
        log = await self.bot.games.actions(row.id)
        try:
            replayed = rebuild(row, log)
        except RuleError as err:
            self.fail(f"game {row.id}: its {len(log)} stored actions do not replay: {err.message}")
        stored = load(row)
        self.expect(
            stored.to_json() == replayed.to_json()
            and json.dumps(row.state, sort_keys=True) == json.dumps(replayed.to_json(), sort_keys=True),
            f"game {row.id}: the stored state differs from the replay of its {len(log)} stored actions",
        )
        if row.status == "abandoned":
            return
        self.expect((row.status == "finished") == replayed.finished, f"game {row.id} is {row.status}")
        if replayed.finished:
            winners = [row.seats[s].user_id for s in replayed.result()["winners"]]
            self.expect(row.winners == winners, f"game {row.id}: stored winners {row.winners}, engine {winners}")

    def _check_latest_message(self, row: GameRow) -> None:
        """An open game's latest message offers its current version; no other public message offers the game."""
        messages = self.env.backend.messages.get(row.channel_id, {})
        latest = messages.get(row.message_id) if row.message_id is not None else None
        self.expect(latest is not None, f"game {row.id}: its latest message {row.message_id} is missing")
        current = f":{row.id}:{row.version}:"
        for component in flat(latest.components):
            self.expect(
                current in component["custom_id"] + ":",
                f"game {row.id} is at version {row.version} but its message offers {component['custom_id']}",
            )
        game = load(row) if row.status == "active" else None
        driver = self.driver_for(row)
        for message in messages.values():
            if message.id == row.message_id or message.flags & EPHEMERAL:
                continue
            for component in flat(message.components):
                match = CUSTOM_ID.match(component["custom_id"])
                self.expect(
                    match is None
                    or int(match["game"]) != row.id
                    or (game is not None and driver.lasting(game, component["custom_id"])),
                    f"game {row.id}: an older message {message.id} still offers {component['custom_id']}",
                )
