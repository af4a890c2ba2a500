"""Delivering what every stored change owes Discord: at least once, shown exactly once, in order per game.

Every accepted change (a click, a command, the lobby's Start, a turn limit, a computer's move, undo, leave, abandon)
is stored by the host (``bot.host``) together with what it owes Discord, in the same write (the ``outbox``
table). ``Outbox.deliver`` then posts it in the parts its kind owes, in order:

- ``turn``: at the end of a game first its rating (``Records.rate``: stored once, whatever the retries); the turn
  message (``bot.flows.turns.announce``: new or brought up to date, the previous one's buttons retired),
  the private news (Catan's direct messages), the answer the actor's interaction waits on when the process that
  stored the change died before giving it (``give_answer``), the turn DMs of players who asked for them, and at the
  end of a game the story of the game (``bot.flows.game_story``: one picture and a few sentences) and the timelapse
  (drawn in the background: the final scores never wait for it);
- ``takeover``: the takeover message with its ``I'm back`` button;
- ``ended``: the channel's line the command waits on (``give_answer``: "alice abandoned the game"), the last
  message's buttons retired;
- ``lobby``: the lobby message as the lobby is now (``bot.flows.lobby.show``), when the click or command that
  changed it did not show it.

Each part delivered is recorded; the change is deleted once all are. A part Discord refuses for a passing reason
(5xx, a timeout, the network gone, a rate limit beyond discord.py's own retries, a drawing process lost) stays owed
and is tried again with a bounded back-off, the game's later changes waiting behind it so that a channel never reads
out of order. A kill anywhere loses nothing: on start (and every few seconds) a process resumes what its games owe.
Retries never post twice: every message carries a nonce made of the game, version and part (Discord returns the
message already made for a nonce it saw in the last minutes), and a turn message at or below the version the
channel shows (``games.shown_version``) is not posted again. A change older than the game's current version is told
as its story alone (no board, no buttons): the newer change's message carries those.

Discord's refusals are states, each logged once: missing permissions in the channel (the game waits, the host is
told once by DM which permission, ``/game status`` says why, it resumes by itself when fixed: at once when Discord
tells of the channel's update), a deleted channel (the game is archived after ``[discord] archive_after_hours``), a
deleted turn message (posted again), closed DMs (remembered a day: ``People.dms_closed``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from typing import TYPE_CHECKING, Final

import discord

from bot.core import safely
from bot.core.safely import describe, passing
from bot.flows import computer_turns as computers
from bot.flows import game_story, lobby
from bot.flows import post_timelapse as timelapse
from bot.flows import turn_dms as notify
from bot.flows.turns import ChannelMissing, announce, nonce, post_story, retire
from bot.host import HostError, Outcome, OwedAnswer
from bot.host.outcome import REPLY_WITHIN
from bot.storage import GameRow
from bot.storage.owed import OwedRow
from bot.text import listing, t
from bot.text.limits import CONTENT

if TYPE_CHECKING:
    from bot.core.host import Host

log = logging.getLogger("boardhost.outbox")

# What each kind of change owes Discord, in order. The process holding a lobby click shows the lobby in the click's
# answer (the part is its own then), unless an answer is owed apart: a command's line in the channel.
PARTS: Final[dict[str, tuple[str, ...]]] = {
    "turn": ("rating", "turn", "news", "answer", "notify", "story", "timelapse"),
    "takeover": ("takeover",),
    "ended": ("answer", "retire"),
    "lobby": ("answer", "lobby"),
}
BACKOFF: Final = (1.0, 2.0, 4.0, 8.0, 15.0, 30.0, 60.0)  # seconds before the next try of a passing failure
WAITING_RETRY: Final = 60.0  # seconds between tries while the game waits for its channel to be fixed
FRESH: Final = 30.0  # seconds a change's own process has to deliver it before the sweep takes it up
# Permissions every game channel needs (what ``python -m bot invite`` asks for), in the order they are named.
NEEDED: Final = ("view_channel", "send_messages", "send_messages_in_threads", "embed_links", "attach_files")
MISSING_ACCESS, MISSING_PERMISSIONS, UNKNOWN_CHANNEL = 50001, 50013, 10003


class Outbox:
    """The one path from a stored change to Discord, and the sweep that resumes what is owed."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self._locks: dict[int, asyncio.Lock] = {}
        self._holders: dict[int, asyncio.Task[object]] = {}  # the task delivering each game's changes now
        self._behind: set[int] = set()  # games with an older undelivered change: deliver from the table, in order
        self._drawing: dict[tuple[int, int], asyncio.Task[None]] = {}  # timelapses being drawn
        self._told: set[tuple[int, str]] = set()  # (game, problem) logged (and the host told) by this process
        self._retries: dict[int, asyncio.Task[None]] = {}  # this process's timed retries asleep, by game
        self._trying: set[asyncio.Task[None]] = set()  # timed retries awake, delivering
        self._answering: set[tuple[int, int]] = set()  # changes whose answer their caller gives (``answering``)
        self._done: dict[int, int] = {}  # each game's newest version this process delivered (or handed to drawing)
        self._resumed = False  # the first sweep resumes everything owed, however fresh
        self._closing = False

    # -- delivering -----------------------------------------------------------------------------------------------

    async def deliver(self, outcome: Outcome) -> bool:
        """Post what ``outcome`` (stored with its debt) owes; False when something stays owed (retried later)."""
        game_id = outcome.row.id
        async with self._turn(game_id):
            if outcome.row.version <= self._done.get(game_id, -1):
                return True  # a sweep or a retry took the game first and delivered it: posted again, it would move
            if game_id in self._behind:
                return await self._drain(game_id, fresh=outcome)
            delivered = await self._attempt(OwedRow(game_id, outcome.row.version, outcome.owed()), outcome)
            if delivered:
                self._recovered(game_id)
            return delivered

    @contextmanager
    def answering(self, game_id: int, version: int) -> Iterator[None]:
        """The caller gives the change's answer itself (it holds the interaction), not a delivery meanwhile;
        a process killed first leaves it owed to the next one."""
        self._answering.add((game_id, version))
        try:
            yield
        finally:
            self._answering.discard((game_id, version))

    @asynccontextmanager
    async def _turn(self, game_id: int) -> AsyncIterator[None]:
        """The game's deliveries one at a time (in order), each known by its task so that a close can stop it."""
        async with self._locks.setdefault(game_id, asyncio.Lock()):
            task = asyncio.current_task()
            if task is not None:
                self._holders[game_id] = task
            try:
                yield
            finally:
                self._holders.pop(game_id, None)

    async def _drain(self, game_id: int, fresh: Outcome | None = None) -> bool:
        """Deliver the game's undelivered changes oldest first, stopping at the first that must wait."""
        owed = await self.bot.records.owed.of_game(game_id)
        for debt in owed:
            if (game_id, debt.version) in self._drawing:
                continue  # its timelapse is being drawn: that task finishes it
            outcome = fresh if fresh is not None and fresh.row.version == debt.version else None
            if outcome is None:
                outcome = await self._outcome_of(debt)
                if outcome is None:
                    await self.bot.records.owed.delivered(game_id, debt.version)
                    continue
            if not await self._attempt(debt, outcome):
                return False
        self._behind.discard(game_id)
        # Only now is the problem over: a change delivered with nothing to post (a story without lines) proves
        # nothing about the channel.
        self._recovered(game_id)
        return True

    async def _outcome_of(self, debt: OwedRow) -> Outcome | None:
        """The outcome a stored debt stands for, from the game as stored now (None: the game is gone)."""
        try:
            row = await self.bot.rows.row(debt.game_id)
        except HostError:
            return None
        game = self.bot.rows.game(row) if row.state is not None else None
        owed = debt.owed
        return Outcome(
            row, game, list(owed["events"]), [], list(owed["before"]), kind=owed["kind"], actor=owed["actor"],
            opening=owed["opening"], answer=OwedAnswer.from_json(owed.get("answer")),
        )  # fmt: skip

    async def _attempt(self, debt: OwedRow, outcome: Outcome) -> bool:
        """Deliver the parts of one change not delivered yet; on failure record how far it got and when to retry."""
        if self._closing:
            return False  # stays owed: the next start delivers it
        done = list(debt.done)
        superseded = debt.version < outcome.row.version  # the game moved on: this change is told as its story
        shown: list[int] = []  # the turn message posted for this change, its version not stored yet
        try:
            for part in PARTS.get(debt.owed["kind"], ()):
                if part in done:
                    continue
                if part == "timelapse" and not superseded and outcome.final:
                    await self._store_shown(debt, shown)
                    self._draw(debt, outcome, done)
                    self._done[debt.game_id] = max(debt.version, self._done.get(debt.game_id, -1))
                    return True
                await self._part(part, debt, outcome, superseded, shown)
                done.append(part)
        except Exception as err:
            await self._failed(debt, outcome.row, done, err, shown)
            return False
        except asyncio.CancelledError:  # stopped by a close: how far it got is kept for the next start
            await self._kept(debt, done, shown)
            raise
        # The version shown is stored with the delivery, in one transaction (one trip a move). A kill after the turn
        # message and before this leaves its turn part owed: posted again with its nonce (which finds the message
        # while Discord remembers it, a few minutes), the previous one retired again. Only the parts after the turn
        # message (Catan's direct messages) widen that window, and a kill delivers those again in any case.
        await self.bot.records.owed.delivered(debt.game_id, debt.version, shown=shown[-1] if shown else None)
        self._done[debt.game_id] = max(debt.version, self._done.get(debt.game_id, -1))
        return True

    async def _kept(self, debt: OwedRow, done: list[str], shown: list[int]) -> None:
        """A delivery stopped by a close: the parts done and the turn message posted are stored for the next start."""
        try:
            await self._store_shown(debt, shown)
            await self.bot.records.owed.progress(debt.game_id, debt.version, done)
        except Exception:
            log.exception("game %s: could not record a delivery stopped by the close", debt.game_id)

    async def _store_shown(self, debt: OwedRow, shown: list[int]) -> None:
        """Store the version the turn message posted for ``debt`` shows, ahead of the change's delivery."""
        if shown:
            await self.bot.records.set_message(debt.game_id, shown[-1], debt.version)
            shown.clear()

    async def _part(self, part: str, debt: OwedRow, outcome: Outcome, superseded: bool, shown: list[int]) -> None:
        bot, row = self.bot, outcome.row
        if part == "rating":
            if outcome.final:  # before any message: a channel that refuses them holds no rating back
                await bot.records.rate(row.id)
        elif part == "turn":
            if debt.version <= row.shown_version:
                return  # posted already (before a crash, or by another process)
            if superseded:
                await post_story(bot, row, debt.version, outcome.events)
            else:
                turn = nonce(row.id, debt.version, "t")
                await announce(bot, outcome, opening=outcome.opening, nonce=turn, unrecorded=shown)
                bot.dispatch("turn_posted", outcome)  # computer players look at it
        elif part == "news":
            after_move = bot.adapter(row.game).after_move
            if after_move is not None:
                await after_move(bot, outcome, outcome.actor)
        elif part == "answer" and (debt.game_id, debt.version) not in self._answering:
            await give_answer(bot, debt, outcome)
        elif part == "notify" and not superseded:
            await notify.turn_posted(bot, outcome, shown[-1] if shown else None)
        elif part == "story" and not superseded and outcome.final:
            await game_story.post(bot, row, nonce=nonce(row.id, debt.version, "y"))
        elif part == "lobby" and ((debt.game_id, debt.version) not in self._answering or outcome.answer is not None):
            await lobby.show(bot, row, nonce(row.id, debt.version, "o"))
        elif part == "takeover":
            await computers.post_takeover(bot, outcome)
        elif part == "retire" and row.message_id:
            await retire(bot, row, row.message_id)

    # -- the timelapse: drawn in the background, owed until posted ------------------------------------------------

    def _draw(self, debt: OwedRow, outcome: Outcome, done: list[str]) -> None:
        key = (debt.game_id, debt.version)
        if key in self._drawing or self._closing:
            return

        async def draw() -> None:
            try:
                async with self._turn(debt.game_id):
                    await self.bot.records.owed.progress(debt.game_id, debt.version, done)
                await timelapse.post(self.bot, outcome.row, nonce=nonce(debt.game_id, debt.version, "l"))
            except Exception as err:
                await self._failed(debt, outcome.row, [*done], err)
            else:
                await self.bot.records.owed.delivered(debt.game_id, debt.version)
            finally:
                self._drawing.pop(key, None)

        task = asyncio.create_task(draw(), name=f"timelapse-{debt.game_id}")
        self._drawing[key] = task

    # -- failures -----------------------------------------------------------------------------------------------

    async def _failed(
        self, debt: OwedRow, row: GameRow, done: Sequence[str], err: BaseException, shown: list[int] | None = None
    ) -> None:
        """Record how far the change got (the turn message posted, ``shown``) and when to try again; the game's later
        changes wait behind it."""
        self._behind.add(debt.game_id)
        attempts = debt.attempts + 1
        done = list(done)
        problem = lasting_problem(self.bot, row, err)
        try:
            await self._store_shown(debt, shown or [])
            if problem is not None:
                wait = await self._waiting(row, problem, err)
            elif passing(err) or self.bot.rows.storage_health() is not None:  # a database in trouble comes back
                wait = BACKOFF[min(attempts, len(BACKOFF)) - 1]
                log.warning(
                    "game %s: version %s not delivered yet (try %d, again in %.0f s): %s",
                    row.id, debt.version, attempts, wait, describe(err),
                )  # fmt: skip
            else:
                # A refusal no retry changes (a payload Discord rejects: a bug): logged with its traceback, and the
                # part skipped, so that the game does not wait forever on it.
                log.error("game %s: version %s: a part dropped: %s", row.id, debt.version, describe(err), exc_info=err)
                done += [p for p in PARTS.get(debt.owed["kind"], ()) if p not in done][:1]
                wait = 0.0
            await self.bot.records.owed.progress(debt.game_id, debt.version, done)
            await self.bot.records.owed.postpone(
                debt.game_id, debt.version, attempts=attempts, next_at=self.bot.rows.clock() + wait, problem=problem
            )
            self._retry_in(debt.game_id, wait)
        except Exception:
            log.exception("game %s: could not record a failed delivery", row.id)

    async def _waiting(self, row: GameRow, problem: str, err: BaseException) -> float:
        """A lasting problem, logged once and told to the host once (by DM); seconds until the next try."""
        key = (row.id, problem)
        first = key not in self._told
        if first:
            self._told.add(key)
            log.warning("game %s waits: %s (%s)", row.id, problem, describe(err))
        if problem == "channel_gone":
            return await self._archive_if_long_gone(row)
        if first and await self._first_time(row.id, problem):
            await tell_host(self.bot, row, problem)
        return WAITING_RETRY

    async def _first_time(self, game_id: int, problem: str) -> bool:
        """Whether no earlier try (in any process, before any restart) recorded this problem for the game."""
        return await self.bot.records.owed.problem(game_id) != problem

    async def _archive_if_long_gone(self, row: GameRow) -> float:
        """Archive the game once its channel has been gone ``archive_after``; else the seconds until the next try
        (at the latest when that time is up, so that it is archived on time)."""
        owed = await self.bot.records.owed.of_game(row.id)
        since = min((d.created_at for d in owed), default=self.bot.rows.clock())
        left = since + self.bot.config.archive_after - self.bot.rows.clock()
        if left > 0:
            return min(WAITING_RETRY, left)
        log.warning("game %s: its channel %s is gone; the game is archived", row.id, row.channel_id)
        await self.bot.play.archive(row.id)
        await self.bot.records.owed.forget_game(row.id)
        self._behind.discard(row.id)
        return 0.0

    def _recovered(self, game_id: int) -> None:
        solved = {key for key in self._told if key[0] == game_id}
        if solved:
            self._told -= solved
            log.info("game %s: delivered again after %s", game_id, ", ".join(sorted(p for _, p in solved)))

    # -- resuming ----------------------------------------------------------------------------------------------

    def _retry_in(self, game_id: int, wait: float) -> None:
        """Try the game's owed changes again in ``wait`` seconds (the sweep would too, less promptly: it is for what
        another process, or this one before a restart, left owed)."""
        if self._closing or game_id in self._retries:
            return

        async def retry() -> None:
            await asyncio.sleep(wait)
            task = asyncio.current_task()
            assert task is not None
            if self._retries.get(game_id) is task:
                del self._retries[game_id]  # a failure of this try schedules the next one
            self._trying.add(task)
            try:
                async with self._turn(game_id):
                    await self._drain(game_id)
            except Exception:  # a database fault: the sweep takes the game up again
                log.exception("game %s: retrying its owed messages failed", game_id)
            finally:
                self._trying.discard(task)

        self._retries[game_id] = asyncio.create_task(retry(), name=f"outbox-retry-{game_id}")

    async def channel_changed(self, channel_id: int) -> None:
        """Discord says a channel changed (its permissions, say): this process's games owing it something try again
        now rather than at their next retry (a minute, for a game waiting on its permissions)."""
        for game_id in await self.bot.records.owed.games():
            row = await self.bot.rows.stored(game_id)
            if self._closing or row is None or row.channel_id != channel_id or not self.bot.owns(row):
                continue
            waiting = self._retries.pop(game_id, None)
            if waiting is not None:  # still asleep (a retry under way has left the table): woken now
                waiting.cancel()
            self._behind.add(game_id)  # delivered from the table, in order
            self._retry_in(game_id, 0.0)

    async def sweep(self) -> None:
        """One round of the sweep (``bot/cogs/delivery_sweep.py``, every ``[reminders] check_every_seconds``): the
        first, once connected, resumes everything owed; later ones what is due."""
        if self._closing:
            return
        await self.resume(everything=not self._resumed)
        self._resumed = True

    async def resume(self, *, everything: bool = False) -> int:
        """Deliver every change this process's games owe that is due (``everything``: at start, all of them, a
        click's too: its own delivery then finds it done). Returns how many games were looked at."""
        now = self.bot.rows.clock()
        # At start every debt is tried at once, back-offs and waiting problems too: what was wrong may be fixed.
        games = await (self.bot.records.owed.games() if everything else self.bot.records.owed.due(now, fresh_for=FRESH))
        looked = 0
        for game_id in games:
            if self._closing:
                break
            row = await self.bot.rows.stored(game_id)
            if row is None:
                await self.bot.records.owed.forget_game(game_id)
                continue
            if not self.bot.owns(row):
                continue
            looked += 1
            self._behind.add(game_id)
            async with self._turn(game_id):
                await self._drain(game_id)
        return looked

    async def close(self, within: float) -> None:
        """Stop taking up owed changes; let deliveries under way finish for up to ``within`` seconds, then stop them
        (before the HTTP session and the database close under them). Whatever is not delivered stays owed, with
        the parts done recorded (a timelapse being drawn is drawn again after the restart)."""
        self._closing = True
        busy = [asyncio.ensure_future(lock.acquire()) for lock in self._locks.values() if lock.locked()]
        if busy:
            await asyncio.wait(busy, timeout=within)
            for acquiring in busy:
                acquiring.cancel()
        stopping = {*self._holders.values(), *self._drawing.values(), *self._retries.values(), *self._trying}
        stopping.discard(asyncio.current_task())
        for task in stopping:
            task.cancel()
        if stopping:
            await asyncio.wait(stopping, timeout=within)

    async def drawn(self) -> None:
        """Wait for the timelapses being drawn (tests; they are otherwise never waited for)."""
        while self._drawing:
            await asyncio.gather(*self._drawing.values(), return_exceptions=True)

    async def problem(self, game_id: int) -> str | None:
        return await self.bot.records.owed.problem(game_id)


async def give_answer(bot: Host, debt: OwedRow, outcome: Outcome) -> None:
    """The answer the actor's interaction waits on, when the process that stored the change did not give it (killed
    first): through the interaction's token while Discord keeps it. Given twice it reads the same."""
    answer = outcome.answer
    if answer is None:
        return
    if bot.rows.clock() - (debt.created_at or bot.rows.clock()) > REPLY_WITHIN:
        log.info("game %s: version %s: the answer owed is too old to give", debt.game_id, debt.version)
        return
    with bot.languages.speaking(answer.language):
        text = answer.text
        if text is None:
            told = bot.adapter(outcome.row.game).table.tell_actor
            text = told(outcome) if told is not None else None
    if text is not None:
        await safely.answer_later(bot, answer, debt.game_id, text[:CONTENT])


async def tell_host(bot: Host, row: GameRow, problem: str) -> None:
    """Tell a game's host, by direct message, why the game waits."""
    with bot.languages.of_reader(row.host_id, row.language):  # a direct message: the reader's language
        text = waiting_text(row, problem)
    await safely.dm(bot, row.host_id, row.id, "waiting notice", logger=log, content=text,
                    allowed_mentions=discord.AllowedMentions.none())  # fmt: skip


def lasting_problem(bot: Host, row: GameRow, err: BaseException) -> str | None:
    """The lasting problem behind a refusal, if it is one: missing permissions, a deleted channel."""
    if isinstance(err, ChannelMissing):
        return "channel_gone"
    if isinstance(err, discord.HTTPException):
        if err.code == UNKNOWN_CHANNEL:
            return "channel_gone"
        if err.code in (MISSING_ACCESS, MISSING_PERMISSIONS) or isinstance(err, discord.Forbidden):
            return "permissions:" + ",".join(missing_permissions(bot, row))
    return None


def missing_permissions(bot: Host, row: GameRow) -> list[str]:
    """The permissions the bot lacks in the game's channel, as far as its cache knows (all needed if unknown)."""
    channel = bot.get_channel(row.channel_id)
    if isinstance(channel, discord.abc.GuildChannel | discord.Thread):
        me = channel.guild.me
        if me is not None:
            have = channel.permissions_for(me)
            needed = [p for p in NEEDED if p != "send_messages_in_threads" or isinstance(channel, discord.Thread)]
            missing = [p for p in needed if not getattr(have, p)]
            # Discord takes the rest away with View Channel, links and files with Send Messages (discord.py
            # reports those missing too): only what to give back is named.
            if "view_channel" in missing:
                return ["view_channel"]
            if "send_messages" in missing:
                missing = [p for p in missing if p not in ("embed_links", "attach_files")]
            if missing:
                return missing
    return ["send_messages"]


def waiting_text(row: GameRow, problem: str) -> str:
    """Why a game waits, in the current language (the host's DM, ``/game status``)."""
    channel = f"<#{row.channel_id}>"
    game = t(f"game.{row.game}")
    if problem.startswith("permissions:"):
        names = [t(f"permission.{p}") for p in problem.split(":", 1)[1].split(",") if p]
        return t("outbox.missing_permissions", game=game, channel=channel, permissions=listing(names),
                 count=len(names))  # fmt: skip
    if problem == "channel_gone":
        return t("outbox.channel_gone", game=game, channel=channel)
    return t("outbox.waiting", game=game, channel=channel)
