"""The one guard every slash command, autocomplete, button, select and form goes through.

- A refusal (``HostError``: the host or a handler says no) becomes the translated ephemeral reply of its key.
- A rule refusal (``RuleError`` from an engine) becomes the translated ephemeral explanation of its code.
- Anything else is a bug: it is logged with the interaction, the game id and a short incident id, and the user gets
  an ephemeral "something went wrong, nothing was changed (incident XXXX)" in their language, never Discord's bare
  "This interaction failed". Nothing was changed indeed: every change is one version-guarded transaction, and the
  exception came before it was stored or after (then only the message about it is missing).

Buttons and selects (``bot/core/clicks.py``) and forms call ``guarded``; slash commands reach ``on_tree_error`` (set as
``CommandTree.on_error``); autocompletes are wrapped with ``autocomplete``.

Background loops (reminders, turn limits, computer players' sweep) go through ``survives`` and ``each_game``: an
exception from one game is logged and the loop goes on with the others, and on its next round.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.core import safely
from bot.core.components import rule_reason
from bot.host import HostError
from bot.text import t
from engine import RuleError

log = logging.getLogger("boardhost.funnel")
Cog = TypeVar("Cog")
S = TypeVar("S")
R = TypeVar("R")
Round = Callable[[S], Coroutine[Any, Any, None]]  # one round of a background loop, a method of its cog
V = TypeVar("V", str, int, float)
Completer = Callable[[Cog, discord.Interaction, str], Coroutine[Any, Any, list[app_commands.Choice[V]]]]


def incident_id() -> str:
    """A short id the user can quote and the log can be searched for."""
    return secrets.token_hex(2).upper()


def _where(interaction: discord.Interaction) -> str:
    command = interaction.command.qualified_name if interaction.command is not None else None
    custom_id = interaction.data.get("custom_id") if interaction.data else None
    return (
        f"interaction {interaction.id} ({interaction.type.name}) by user {interaction.user.id} in channel "
        f"{interaction.channel_id}, command {command!r}, custom id {custom_id!r}"
    )


async def explain(
    interaction: discord.Interaction, err: HostError | RuleError, names: Sequence[str] | None = None
) -> None:
    """The one place refusals are worded: catalogue keys for host refusals, the rule's own explanation otherwise."""
    if isinstance(err, HostError):
        text = t(f"error.{err.key}", **err.params)
    else:
        text = t("error.rule", reason=rule_reason(err, names))
    await safely.reply(interaction, None, "refusal", content=text, ephemeral=True)


async def incident(interaction: discord.Interaction, err: BaseException, game_id: int | None) -> str:
    """Log an unexpected exception with its incident id and tell the user, in their language."""
    ident = incident_id()
    log.error("incident %s in game %s: %s", ident, game_id, _where(interaction), exc_info=err)
    await safely.reply(interaction, game_id, "incident", content=t("error.incident", incident=ident), ephemeral=True)
    return ident


async def handle(interaction: discord.Interaction, err: BaseException, game_id: int | None = None) -> None:
    if isinstance(err, HostError | RuleError):
        await explain(interaction, err)
    else:
        await incident(interaction, err, game_id)


@asynccontextmanager
async def guarded(interaction: discord.Interaction, game_id: int | None = None) -> AsyncIterator[None]:
    """Run a button's, select's or form's work; whatever it raises ends as an ephemeral answer (see the module)."""
    try:
        yield
    except Exception as err:  # the funnel: every kind is answered, nothing escapes to discord.py's bare log
        await handle(interaction, err, game_id)


async def on_tree_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
    """``CommandTree.on_error``: a slash command's exception (discord.py wraps it) through the funnel."""
    original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    await handle(interaction, original)


def survives(what: str) -> Callable[[Round[S]], Round[S]]:
    """A loop's round that raises is logged and ends; the loop (``discord.ext.tasks`` would stop) runs again."""

    def wrap(fn: Round[S]) -> Round[S]:
        @functools.wraps(fn)
        async def round_(owner: S) -> None:
            try:
                await fn(owner)
            except Exception:
                log.exception("incident %s: a round of %s failed; the next round runs as usual", incident_id(), what)

        return round_

    return wrap


async def each_game(rows: Iterable[R], what: str, work: Callable[[R], Awaitable[object]]) -> None:
    """``work(row)`` for every row; one game's exception is logged (with its id) and the others go on. Between two
    games the event loop runs what is waiting (a click): a game's work that awaits nothing would otherwise hold it
    for the whole sweep."""
    for row in rows:
        try:
            await work(row)
        except Exception:
            log.exception("incident %s: game %s: %s failed; the other games go on", incident_id(), game_of(row),
                          what)  # fmt: skip
        await asyncio.sleep(0)


def game_of(item: object) -> object:
    """The id of the game a sweep's item is about: its ``game_id`` (a held DM, a reminder), or a game row's ``id``."""
    return getattr(item, "game_id", None) or getattr(item, "id", "?")


def autocomplete(fn: Completer[Cog, V]) -> Completer[Cog, V]:
    """An autocomplete can only answer with choices: a refusal offers none; anything else is logged as an
    incident (no reply is possible) and offers none."""

    @functools.wraps(fn)
    async def wrapper(cog: Cog, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[V]]:
        try:
            return await fn(cog, interaction, current)
        except (HostError, RuleError):
            return []
        except Exception:
            log.exception("incident %s: autocomplete failed: %s", incident_id(), _where(interaction))
            return []

    return wrapper
