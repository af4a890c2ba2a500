"""One click protocol for every button, select and form of the bot: op tables and the one dispatcher.

A feature (each game, the lobby, the replay, the computer stand-in) declares one ``Table``: for each op, what it is
(a button, a select, or a form's submit), how the click is answered first (``Op.answer``), whether a click at an
older version is refused (``Op.strict``), and its handler. A handler reads like the rules: it returns the engine
action the click stands for (the dispatcher acts), a ``Reply`` (a private menu, or the clicked message brought up to
date), a form to fill in (``Form``), or None when it answered by itself. Refusals are raised and reach the funnel;
nothing changes.

One custom-id scheme for all: ``bh:{scope}:{game}[:{version}:{op}[:{arg}]]``, parsed by one dynamic item
(``Control``) for buttons and selects and by the same reader for forms' submits (``answer_from_data``), so every
button, and every form open when the bot restarts, keeps working after a restart. A click counts only where its game
is: in the game's channel, or in a direct message with one of its seated people (``check``); anywhere else it is
refused with a translated reply and changes nothing. A *personal* table's ops (the clicker's own games, their time
away) name no game (game 0): they count wherever they are clicked, for whoever clicks.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

import discord

from bot.core import safely
from bot.core.components import BUTTON_LABEL, CONTENT, GREY, LABEL, PAGE, PLACEHOLDER, clip, names_of
from bot.core.funnel import explain, handle
from bot.core.host import Host, Press, host_of
from bot.host import HostError, Outcome, OwedAnswer
from bot.text.i18n import language
from bot.text.limits import MODAL_TITLE
from engine import Action, RuleError

# How a click is answered before its handler runs (Discord wants an answer within 3 seconds):
# "private": "thinking…" only the clicker sees; a Reply follows privately (menus, results, refusals);
# "public": acknowledged without a word (turn-message buttons: the channel hears through the outbox);
# "update": the clicked message is brought up to date by the handler's Reply (pages of a menu, the replay);
# "form": the handler's Form is the answer (a form must be the first response, so nothing is deferred);
# "own": the handler answers by itself (the lobby edits its message in one request);
# "menu": nothing before a quick handler (no wait on Discord or drawing): its Reply is the answer itself, privately,
# in one request instead of an acknowledgement and a follow-up (the cell select's rotations); a move is acknowledged
# without a word, as "public".
Answer = Literal["private", "public", "update", "form", "own", "menu"]
TEMPLATE: Final = r"bh:(?P<scope>[a-z]+):(?P<game>\d+)(?::(?P<version>\d+):(?P<op>\w+)(?::(?P<arg>\S*))?)?"
PATTERN: Final = re.compile(TEMPLATE)
log = logging.getLogger("boardhost.clicks")


@dataclass(frozen=True)
class Reply:
    """A private answer (a menu with its components), or what the clicked message becomes (``answer="update"``)."""

    content: str | None = None
    view: discord.ui.View | None = None
    embed: discord.Embed | None = None
    files: list[discord.File] | None = None  # None: a message brought up to date keeps its attachments

    def kwargs(self, *, edit: bool) -> dict[str, Any]:
        found: dict[str, Any] = {}
        if self.content is not None:
            found["content"] = self.content[:CONTENT]
        if self.view is not None:
            found["view"] = self.view
        if self.embed is not None:
            found["embed"] = self.embed
        if self.files is not None and (edit or self.files):
            found["attachments" if edit else "files"] = self.files
        return found


Result = Action | Reply | discord.ui.Modal | None
Handler = Callable[["Click"], Awaitable[Result]]


@dataclass(frozen=True)
class Op:
    """One op of a table: its handler, what it is, how it is answered, and whether it is bound to its version."""

    handler: Handler
    kind: Literal["button", "select", "submit"] = "button"  # "submit": a ``Form``'s, its handler reads ``Click.typed``
    answer: Answer = "private"
    strict: bool = True  # a click on an older version is refused ("out of date"); else the engine judges it


@dataclass
class Click:
    """One press, with what its handler needs: the host, the game, the op's argument and the values chosen."""

    interaction: discord.Interaction
    host: Host
    table: Table
    press: Press
    op: Op

    @property
    def game_id(self) -> int:
        return self.press.game_id

    @property
    def version(self) -> int:
        return self.press.version

    @property
    def at(self) -> int | None:
        """The version a strict op is bound to; None for ops the engine judges on the game as it is now."""
        return self.press.version if self.op.strict else None

    @property
    def arg(self) -> str:
        return self.press.arg

    @property
    def values(self) -> tuple[str, ...]:
        return self.press.values

    def typed(self, field: str) -> str:
        """What was typed in a submitted form's field (by its custom id); "" for a field left empty or not there."""
        return dict(self.press.typed).get(field, "")

    @property
    def user_id(self) -> int:
        return self.interaction.user.id

    async def act(self, action: Action) -> Outcome:
        """Apply ``action`` for the clicker (at the op's version, if strict) and deliver what it owes Discord."""
        return await self.table.act(self.host, self.interaction, self.game_id, self.at, action)


# Hooks a table may have: the stale-button refresh (a racing edit may have left old buttons on a message), and
# what the actor alone learns from their move (Catan's bought card), in words for their private answer (None: the
# actor is not seated). The outbox calls the second too, for an answer a killed process owed.
Refresh = Callable[[Host, int], Awaitable[None]]
Told = Callable[[Outcome], "str | None"]


@dataclass
class Table:
    """One feature's ops under one custom-id scope; the host keeps its tables and the dispatcher runs them."""

    scope: str
    ops: Mapping[str, Op]
    refresh: Refresh | None = None
    tell_actor: Told | None = None
    default_op: str = ""  # the op of an id that names only the game (``bh:back:{game}``)
    personal: bool = False  # its ops are about the clicker, not a game: game 0, honoured anywhere

    async def run(self, host: Host, interaction: discord.Interaction, press: Press) -> None:
        """Answer a press: the op's first answer, its handler, then what the handler returned."""
        op = self.ops.get(press.op or self.default_op)
        if (press.game_id == 0) != self.personal:
            raise HostError("stale")  # only a personal table's ids name no game
        if op is None or (op.kind == "select" and not press.values) or (op.kind == "submit") != bool(press.typed):
            raise HostError("stale")  # an op of an older release, a select sent with nothing chosen, or not a form's
        click = Click(interaction, host, self, press, op)
        if op.answer == "form":
            form = await op.handler(click)
            if not isinstance(form, Form):
                raise TypeError(f"{self.scope}:{press.op} must return a form")
            await interaction.response.send_modal(form)
            return
        if op.answer == "private":
            await interaction.response.defer(ephemeral=True, thinking=True)
        elif op.answer in ("public", "update"):
            await interaction.response.defer()
        result = await op.handler(click)
        if isinstance(result, Reply):
            if op.answer == "update":
                await interaction.edit_original_response(**result.kwargs(edit=True))
            elif op.answer == "menu" and not interaction.response.is_done():
                await interaction.response.send_message(**result.kwargs(edit=False), ephemeral=True)
            else:
                await interaction.followup.send(**result.kwargs(edit=False), ephemeral=True)
        elif isinstance(result, dict):
            if op.answer == "menu" and not interaction.response.is_done():
                await interaction.response.defer()
            await click.act(result)

    async def act(
        self,
        host: Host,
        interaction: discord.Interaction,
        game_id: int,
        version: int | None,
        action: Action,
        *,
        answer: str | None = None,
    ) -> Outcome:
        """The act path of every click, form and in-game command: store the move (refusals raised), answer the actor
        privately with ``answer`` at once (a command's "Done."), deliver what the move owes Discord (the turn
        message, then private news), then tell the actor what only they learn.

        An actor who waits on that answer ("thinking…") is owed it with the move (``owed_answer``): a process killed
        before it answers leaves it to the next one (the outbox's part "answer")."""
        owes = owed_answer(interaction, answer) if answer is not None or self.tell_actor is not None else None
        try:
            outcome = await host.play.act(game_id, version, interaction.user.id, action, answer=owes)
        except HostError as err:
            if err.key == "stale" and self.refresh is not None:
                await self.refresh(host, game_id)  # a racing edit may have left old buttons on the message
            raise
        with host.outbox.answering(game_id, outcome.row.version):
            if answer is not None:  # before the delivery: Discord may keep the channel waiting, never the actor
                await say_privately(interaction, game_id, answer)
            await host.outbox.deliver(outcome)
            told = self.tell_actor(outcome) if self.tell_actor is not None else None
            if told is not None:
                await say_privately(interaction, game_id, told)
        return outcome


def owed_answer(interaction: discord.Interaction, text: str | None = None) -> OwedAnswer | None:
    """The answer ``interaction`` waits on, if it does ("thinking…": a deferred answer, private or public), to be stored
    with the change it makes; ``text`` as given, or else the game's words for what the actor learned."""
    if interaction.response.type is not discord.InteractionResponseType.deferred_channel_message:
        return None  # answered already, or acknowledged without a word: nobody waits
    return OwedAnswer(interaction.application_id, interaction.token, language(), text)


async def answer_then_deliver(
    host: Host, interaction: discord.Interaction, outcome: Outcome, text: str, *, private: bool = True
) -> None:
    """Give the answer ``interaction`` waits on (owed with ``outcome``'s change: ``owed_answer``), then deliver what
    the change owes Discord; a process killed before the answer leaves it to the next one."""
    game_id = outcome.row.id
    with host.outbox.answering(game_id, outcome.row.version):
        await safely.followup(interaction, game_id, "answer", content=text[:CONTENT], ephemeral=private)
        await host.outbox.deliver(outcome)


class Control(discord.ui.DynamicItem[discord.ui.Item[Any]], template=TEMPLATE):
    """Every button and select of the bot: its custom id names the table, the game, the version and the op."""

    def __init__(self, item: discord.ui.Item[Any]) -> None:
        super().__init__(item)
        match = self.template.fullmatch(self.custom_id)
        assert match is not None  # DynamicItem checked the template
        self.press = parse(match)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Control:
        return cls(item)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Whether the click is where its game is (anywhere for a personal op: game 0); if not, the user has been
        told why."""
        if self.press.game_id == 0:
            return True  # the table refuses game 0 unless it is personal
        return await check(interaction, self.press.game_id)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = tuple(str(v) for v in getattr(self.item, "values", ()))
        press = Press(self.press.scope, self.press.game_id, self.press.version, self.press.op, self.press.arg, values)
        await dispatch(interaction, press)


async def _run_control(interaction: discord.Interaction, match: re.Match[str]) -> None:
    """A click on a ``Control`` or a form's submit as discord.py would run them (``interaction_check``, then
    ``callback`` or ``on_submit``: a failure of either is logged), from the interaction's own data: its custom id, and
    the values chosen or the text typed."""
    press = parse(match)
    data: Any = interaction.data or {}
    press = Press(press.scope, press.game_id, press.version, press.op, press.arg,
                  tuple(str(v) for v in data.get("values", ())), typed(data.get("components", ())))  # fmt: skip
    try:
        allow = press.game_id == 0 or await check(interaction, press.game_id)
    except Exception:
        log.exception("a click's check failed: %s", interaction.data)
        return
    if allow:
        try:
            await dispatch(interaction, press)
        except Exception:
            log.exception("a click's dispatch failed: %s", interaction.data)


def typed(components: Any) -> tuple[tuple[str, str], ...]:
    """Each text field of a form's submit (its rows, or labels, of text inputs) and what was typed in it."""
    found: list[tuple[str, str]] = []
    for component in components:
        if component.get("type") == 1:  # a row
            found += typed(component.get("components", ()))
        elif component.get("type") == 18:  # a label around one input
            found += typed([component.get("component", {})])
        elif "custom_id" in component:
            found.append((str(component["custom_id"]), str(component.get("value") or "")))
    return tuple(found)


def answer_from_data() -> None:
    """Run clicks on ``Control`` and forms' submits from the interaction's data.

    A click: without the View discord.py otherwise rebuilds from the clicked message's every component (a 25-option
    select, its buttons) just to find the one clicked: a tenth of the event loop's time per click. Nothing of that
    View is used: ``Control`` needs its custom id and the values.

    A submit: discord.py finds the form it answers among the forms it keeps in memory, so a form open when the bot
    restarted (an update, a crash) was dropped unanswered, and so was one submitted before discord.py had read the
    answer to the request that showed it (the gateway and the HTTP answer race on a busy bot). A ``Form`` names its op
    in its custom id and is never kept (``Form.__init__``): its submit is read from its data like a click.

    discord.py has no public hook for either: ``tests/bot/test_gateway.py`` fails the day it renames them."""
    store: Any = discord.ui.view.ViewStore
    original = store.schedule_dynamic_item_call
    if getattr(original, "boardhost", False):
        return
    shown = store.dispatch_modal

    def submitted(self: Any, custom_id: str, interaction: discord.Interaction, *args: Any) -> None:
        match = PATTERN.fullmatch(custom_id)
        if match is None:
            shown(self, custom_id, interaction, *args)
        else:
            self.add_task(asyncio.create_task(_run_control(interaction, match), name=f"boardhost-form-{custom_id}"))

    async def schedule(
        self: Any, component_type: int, factory: type, interaction: discord.Interaction, custom_id: str,
        match: re.Match[str],
    ) -> None:  # fmt: skip
        if factory is not Control or interaction.message is None:
            await original(self, component_type, factory, interaction, custom_id, match)
        else:
            await _run_control(interaction, match)

    setattr(schedule, "boardhost", True)  # noqa: B010  # a mark on the function: installed once
    for replacement, replaced in ((schedule, original), (submitted, shown)):
        setattr(replacement, "replaces", replaced)  # noqa: B010  # for the test that discord.py still calls it
    store.schedule_dynamic_item_call = schedule
    store.dispatch_modal = submitted


def custom_id(scope: str, game_id: int, version: int, op: str, arg: str = "") -> str:
    """``bh:{scope}:{game}:{version}:{op}[:{arg}]``: the game and version make stale clicks detectable."""
    value = f"bh:{scope}:{game_id}:{version}:{op}" + (f":{arg}" if arg else "")
    if len(value) > LABEL:
        raise ValueError(f"custom id too long: {value!r}")
    return value


def button(
    scope: str,
    game_id: int,
    version: int,
    op: str,
    arg: str = "",
    *,
    label: str,
    style: discord.ButtonStyle = GREY,
    disabled: bool = False,
    row: int | None = None,
) -> Control:
    """A button of ``scope``'s table (builders of messages need not import the handlers that build messages)."""
    item: discord.ui.Button[Any] = discord.ui.Button(
        label=clip(label, BUTTON_LABEL),
        style=style,
        custom_id=custom_id(scope, game_id, version, op, arg),
        disabled=disabled,
        row=row,
    )
    return Control(item)


def select(
    scope: str,
    game_id: int,
    version: int,
    op: str,
    arg: str = "",
    *,
    options: list[discord.SelectOption],
    placeholder: str | None = None,
) -> Control:
    """A one-choice select of ``scope``'s table within Discord's limits (at most a page of options, never none, a
    clipped placeholder)."""
    item: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=custom_id(scope, game_id, version, op, arg),
        options=options[:PAGE] or [discord.SelectOption(label="-", value="-")],
        placeholder=clip(placeholder, PLACEHOLDER) if placeholder else None,
        min_values=1,
        max_values=1,
    )
    return Control(item)


@dataclass(frozen=True)
class Scope:
    """The builders of one table's buttons and selects, for the modules that build messages (they cannot import
    the handlers, which build messages themselves): ``button(game, version, op, arg, label, style)``."""

    name: str

    def button(
        self, game_id: int, version: int, op: str, arg: str = "", label: str = "", style: discord.ButtonStyle = GREY
    ) -> Control:
        return button(self.name, game_id, version, op, arg, label=label or op, style=style)

    def select(
        self,
        game_id: int,
        version: int,
        op: str,
        arg: str = "",
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> Control:
        return select(self.name, game_id, version, op, arg, options=options or [], placeholder=placeholder)


def parse(match: re.Match[str]) -> Press:
    version = match["version"]
    return Press(
        match["scope"], int(match["game"]), int(version) if version else 0, match["op"] or "", match["arg"] or ""
    )


async def dispatch(interaction: discord.Interaction, press: Press) -> None:
    """Run a press through its table; whatever it raises ends as an ephemeral answer (``bot.core.funnel``), a rule
    refusal naming the game's seats by their names."""
    try:
        host = host_of(interaction)
        table = host.tables.get(press.scope)
        if table is None:
            raise HostError("stale")
        await table.run(host, interaction, press)
    except RuleError as err:
        await explain(interaction, err, await seat_names(host, press.game_id))
    except Exception as err:  # the funnel: every kind is answered, nothing escapes to discord.py's bare log
        await handle(interaction, err, press.game_id)


async def seat_names(host: Host, game_id: int) -> list[str] | None:
    try:
        return names_of(await host.rows.row(game_id))
    except HostError:
        return None


def in_direct_message(interaction: discord.Interaction) -> bool:
    """Whether the click came from a one-to-one DM with the bot (not a server channel, not a group DM)."""
    channel = interaction.channel
    return interaction.guild_id is None and getattr(channel, "type", None) == discord.ChannelType.private


async def check(interaction: discord.Interaction, game_id: int) -> bool:
    """Whether a click on game ``game_id``'s component or form may go on; if not, the user has been told why."""
    try:
        row = await host_of(interaction).rows.placed(game_id)
        if interaction.channel_id == row.channel_id:
            return True
        if not in_direct_message(interaction):
            raise HostError("elsewhere")
        if row.seat_of(interaction.user.id) is None:
            raise HostError("not_your_game")
        return True
    except Exception as err:  # the funnel: a refusal in the reader's language, anything else an incident
        await handle(interaction, err, game_id)
        return False


class Form(discord.ui.Modal):
    """A form to fill in (a trade offer, a discard), shown by a click: its custom id names the op of the same table
    that its submit runs (an ``Op`` of kind "submit", which reads ``Click.typed`` and returns the action), answered
    from the submit's own data like any click (``answer_from_data``). discord.py never keeps it: a form open when the
    bot restarts is still taken after the restart."""

    def __init__(self, click: Click, op: str, arg: str = "", *, title: str) -> None:
        super().__init__(
            title=clip(title, MODAL_TITLE),
            timeout=None,
            custom_id=custom_id(click.table.scope, click.game_id, click.version, op, arg),
        )
        self.stop()  # a finished form is not kept by discord.py when it is shown: nothing in memory to lose


async def say_privately(interaction: discord.Interaction, game_id: int, content: str) -> None:
    """A private line after a click was answered (``safely``: a refused follow-up is logged, nothing more)."""
    await safely.followup(interaction, game_id, "private reply", content=content[:CONTENT], ephemeral=True)
