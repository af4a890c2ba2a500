"""Computer players in the channel: they move when a decision is theirs, and stand in for people who time out.

After every posted turn (``turn_posted``, heard by ``bot/cogs/computer_sweep.py``) the bot looks at the seats owing a
decision; if a computer plays one, the game's runner task wakes: it waits the configured pause (``[computer]
pause_seconds``, so the channel reads like a conversation), asks the host for the computer's move (decided in a
worker thread from the seat's view only, stored in one version-guarded transaction like a person's click) and posts
the turn like anyone's. One runner per game, so a game's computer moves come one at a time; a person's click that
lands first makes the computer's move stale and the runner simply looks again. A sweep (every ``[reminders]
check_every_seconds``, and once at start-up) wakes the runner of every game where a computer owes a decision, so a
restart resumes them.

With the host's takeover rule, a person whose turn limit runs out is played by a computer until they come back: they
move again themselves, press "I'm back" on the takeover message, or use ``/game back``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine, Mapping
from typing import TYPE_CHECKING, Any, Final

import discord

from bot.core.clicks import Click, Control, Op, Table, answer_then_deliver, button, owed_answer
from bot.core.components import BLUE, controls
from bot.core.funnel import each_game
from bot.core.pings import only
from bot.flows.away import back_button as away_back_button
from bot.flows.presence import presence, when
from bot.flows.turns import game_channel, nonce
from bot.host import HostError, Outcome
from bot.host.computer_seats import awaits_people, computers_owing, controllers
from bot.storage import GameRow
from bot.text import t
from bot.text.catalogue import MESSAGES
from engine import RuleError

if TYPE_CHECKING:
    from bot.core.host import Host

log = logging.getLogger("boardhost.computers")

# Moves one runner makes before it rests until the next sweep: computer players that keep answering each other
# (Catan offers between two computers) cannot hold a game's runner forever.
RUN_LIMIT = 500
STALE_RETRIES = 5
STOP_WITHIN = 1.0  # seconds the runners get to end once cancelled, when the bot closes
# Processes sharing a PostgreSQL database tell a game's own process to move its computer players on this channel.
WAKE_CHANNEL = "boardhost_wake"
SCOPE: Final = "back"  # the "I'm back" button's click table


def level_name(level: str) -> str:
    key = f"computer.level.{level}"
    return t(key) if key in MESSAGES else level


def computer_name(number: int, level: str) -> str:
    """A computer seat's name in the current language, e.g. "Computer 1 (standard)"."""
    return t("computer.name", number=number, level=level_name(level))


def back_button(game_id: int) -> Control:
    """On the takeover message: the person a computer stands in for plays again (any version: it is not a move)."""
    return button(SCOPE, game_id, 0, "back", label=t("computer.button.back"), style=BLUE)


async def _back(click: Click) -> None:
    await come_back(click.host, click.interaction, click.game_id)


# bh:back:{game} (older messages) and bh:back:{game}:0:back
TABLE: Final = Table(SCOPE, {"back": Op(_back, answer="own")}, default_op="back")


async def come_back(bot: Host, interaction: discord.Interaction, game_id: int) -> None:
    """``I'm back`` or ``/game back``: the person plays their seat again; the turn is posted again. The welcome is
    owed with the change (a kill before it leaves it to the next process)."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    welcome = t("computer.welcome_back")
    outcome = await bot.stand_ins.come_back(game_id, interaction.user.id, answer=owed_answer(interaction, welcome))
    await answer_then_deliver(bot, interaction, outcome, welcome)


class ComputerPlayers:
    """The runners of every game's computer players, and the takeover of idle people's seats."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self._runners: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        # Runners waiting for people's answers to a computer's offer, by game; ``wake`` ends their wait early.
        self._napping: dict[int, asyncio.Task[Any]] = {}
        self._woken_early: set[int] = set()
        self._notes: set[asyncio.Task[None]] = set()  # notifications to or from other processes under way
        self._stopped = False

    async def stop(self) -> None:
        """The bot is closing: every runner and notification stops (a decision under way is made again after the
        start), and is waited for, so that none runs on while the database closes."""
        self._stopped = True
        stopping = [*self._runners.values(), *self._notes]
        for task in stopping:
            task.cancel()
        if stopping:
            await asyncio.wait(stopping, timeout=STOP_WITHIN)

    # -- waking the runners -------------------------------------------------------------------------------------

    def turn_posted(self, outcome: Outcome) -> None:
        if outcome.game is not None and computers_owing(outcome.row, outcome.game):
            if self.bot.owns(outcome.row):
                self.wake(outcome.row.id)
            else:  # a DM interaction reached this process: the game's own process moves its computers
                self._soon(self.bot.stand_ins.tell_processes(WAKE_CHANNEL, str(outcome.row.id)))

    def woken(self, payload: str) -> None:
        """Another process posted a turn of a game where a computer owes a decision (PostgreSQL NOTIFY)."""
        if payload.isdigit():
            self._soon(self._wake_if_owned(int(payload)))

    async def _wake_if_owned(self, game_id: int) -> None:
        row = await self.bot.rows.stored(game_id)
        if row is not None and self.bot.owns(row):
            self.wake(game_id)

    def _soon(self, work: Coroutine[Any, Any, None]) -> None:
        if self._stopped:
            work.close()  # never started: the bot is closing
            return
        task = asyncio.create_task(work)
        self._notes.add(task)
        task.add_done_callback(self._notes.discard)

    async def sweep(self) -> None:
        """Wake the runner of every running game where a computer owes a decision (at start-up: resume them)."""

        async def resume(row: GameRow) -> None:
            if computers_owing(row, self.bot.rows.game(row)):
                self.wake(row.id)

        await self.bot.ownership.refresh()
        mine = [row for row in await self.bot.rows.with_computers() if self.bot.owns(row)]  # this process's shards
        await each_game(mine, "resuming its computer players", resume)

    def wake(self, game_id: int) -> None:
        """Make sure the game's runner looks for computer decisions (again, if it is running)."""
        if self._stopped:
            return
        task = self._runners.get(game_id)
        if task is not None and not task.done():
            self._again.add(game_id)
            napping = self._napping.get(game_id)
            if napping is not None and game_id not in self._woken_early:
                self._woken_early.add(game_id)
                napping.cancel()
            return
        self._runners[game_id] = asyncio.create_task(self._run(game_id), name=f"computers-{game_id}")

    async def _run(self, game_id: int) -> None:
        moves = stale = 0
        loop = asyncio.get_running_loop()
        answers_until: float | None = None  # while a computer's offer waits for people's answers
        try:
            while moves < RUN_LIMIT:
                self._again.discard(game_id)
                if self.bot.config.computer_pause > 0:
                    await asyncio.sleep(self.bot.config.computer_pause)
                if await self._people_to_answer(game_id):
                    if answers_until is None:
                        answers_until = loop.time() + self.bot.config.computer_offer_wait
                    if loop.time() < answers_until:
                        await self._nap(game_id, answers_until)
                        continue
                else:
                    answers_until = None
                try:
                    outcome = await self.bot.stand_ins.computer_move(game_id)
                except HostError as err:
                    if err.key == "stale" and stale < STALE_RETRIES:  # a person moved first: look again
                        stale += 1
                        continue
                    log.info("game %s: computer move skipped (%s)", game_id, err.key)
                    return
                except RuleError as err:  # a policy chose an illegal action: a bug, but nothing was stored
                    log.error("game %s: computer move refused: %s", game_id, err.message)
                    return
                if outcome is None:
                    if game_id in self._again:
                        continue
                    return
                moves += 1
                answers_until = None
                await self._post(outcome)
            log.warning("game %s: %d computer moves in a row; resting until the next sweep", game_id, moves)
        except Exception:
            log.exception("game %s: computer player failed", game_id)
        finally:
            if self._runners.get(game_id) is asyncio.current_task():
                del self._runners[game_id]

    async def _people_to_answer(self, game_id: int) -> bool:
        """Whether the next computer decision is the player on turn's while people still owe answers to its offer:
        the computer then gives them ``[computer] offer_wait_seconds`` before it moves on."""
        row = await self.bot.rows.row(game_id)
        if row.status != "active" or row.state is None:
            return False
        return awaits_people(row, self.bot.rows.game(row))

    async def _nap(self, game_id: int, until: float) -> None:
        """Sleep until ``until``, or until the game changes (``wake`` cancels the sleep), whichever comes first."""
        if game_id in self._again:
            return
        task = asyncio.current_task()
        assert task is not None
        self._napping[game_id] = task
        try:
            await asyncio.sleep(max(0.0, until - asyncio.get_running_loop().time()))
        except asyncio.CancelledError:
            if game_id not in self._woken_early or self._stopped:
                raise  # the cog is unloading: stop
            task.uncancel()  # woken early: the runner goes on
        finally:
            self._napping.pop(game_id, None)
            self._woken_early.discard(game_id)

    async def _post(self, outcome: Outcome) -> None:
        # The turn message, a card the computer stole from you, an offer to you: owed by the move's write.
        await self.bot.outbox.deliver(outcome)

    # -- takeover --------------------------------------------------------------------------------------------

    async def take_over(self, row: GameRow) -> None:
        """The turn limit ran out in a game with the takeover rule: computers play the idle people's seats."""
        try:
            outcome = await self.bot.stand_ins.take_over(row.id, row.version)
        except HostError as err:  # "stale": somebody moved; "nothing_to_take_over": computers owe the moves
            log.info("game %s: takeover skipped (%s)", row.id, err.key)
            if err.key == "nothing_to_take_over":
                self.wake(row.id)
            return
        await self.bot.outbox.deliver(outcome)  # the takeover message; then the computers move


async def post_takeover(bot: Host, outcome: Outcome) -> None:
    """The takeover message with its ``I'm back`` button (what a takeover owes the channel); then the computers now
    playing the idle seats move (``turn_posted``)."""
    updated = outcome.row
    level = controllers(updated)
    channel = await game_channel(bot, updated)
    timed_out = [e["player"] for e in outcome.events if e["type"] != "away"]
    with bot.languages.of_game(updated.language, updated.guild_id):  # the channel: the game's language
        lines = [stood_in(updated, event, level_name(level[event["player"]])) for event in outcome.events]
        view = controls()
        # Someone away is back for all their games at once; someone timed out takes back this game's seat.
        view.add_item(away_back_button() if len(timed_out) < len(outcome.events) else back_button(updated.id))
    here = await presence(bot, updated)  # the people timed out are pinged (silently in their quiet hours)
    pings = here.pings(only(updated.seats[seat].user_id for seat in timed_out))
    await channel.send(content="\n".join(lines), view=view, nonce=nonce(updated.id, updated.version, "k"), **pings)
    bot.dispatch("turn_posted", outcome)


def stood_in(row: GameRow, event: Mapping[str, Any], level: str) -> str:
    """The line of one seat a computer now plays: someone who ran out of time (pinged), or someone away."""
    seat = row.seats[event["player"]]
    if event["type"] == "away":
        return t("computer.away", name=seat.name, level=level, until=when(event["until"]))
    return t("computer.takeover", mention=seat.mention, level=level)
