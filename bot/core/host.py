"""The host: what the flows, the games' handlers and the cogs use of the running bot, and the contract each game's
Discord package fulfils. Everything in ``bot/`` types against these protocols; only the entry point (``bot.app``,
started by ``python -m bot``) knows the concrete discord.py client that implements them.

A game lives in its own package (``bot/<game>/``) with the same modules: ``handlers`` (its click table: what each
button, select and form does), ``turn`` (the turn message), ``flows`` (posting), ``narration`` (events in words),
``commands`` (its slash commands) and ``adapter`` (this contract). The host, the computer players, the outbox and
the cogs reach a game only through its adapter, found by the stored row's ``game`` (``Host.adapter``): nothing
outside a game's package asks which game it is.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, cast, runtime_checkable

import discord
from discord.ext import commands

from bot.core.config import Config
from bot.core.rendering import Renderer
from bot.core.shards import Ownership
from bot.host import Outcome
from bot.host.lobbies import Lobby
from bot.host.personal import People
from bot.host.play import Play
from bot.host.records import Records
from bot.host.rows import GameRows
from bot.host.stand_ins import StandIns
from bot.storage import GameRow
from bot.text.alt import GameWords
from bot.text.languages import Languages
from engine import Event, Game


@dataclass(frozen=True)
class Posted:
    """What a poster put in the channel: the message, and what a later update of it in place may build on."""

    message: discord.Message | discord.PartialMessage
    step: object = None  # the game's point the message shows (a poster's own key, e.g. turn and player)
    story: tuple[str, ...] = ()  # the news lines it shows


@dataclass
class Shown:
    """The newest turn message this process posted for a game, and the lock that posts them one at a time.

    Held in memory only (``Host.shown``): after a restart the first turn message of each game is a new one. Used only
    for the next version after the one it shows; past that the stored message id is read again (another process
    may have posted).
    """

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    version: int = -1
    message_id: int | None = None
    step: object = None
    story: tuple[str, ...] = ()


@dataclass(frozen=True)
class Press:
    """One click, choice or form, as its custom id names it: the table (``scope``), the game, a number (the game's
    version; a replay's turn), the op and its argument, the values chosen in a select and the text typed in a form."""

    scope: str
    game_id: int
    version: int
    op: str
    arg: str = ""
    values: tuple[str, ...] = ()
    typed: tuple[tuple[str, str], ...] = ()  # a form's submit: each field's custom id and what was typed in it


class ClickTable(Protocol):
    """A table of ops (``bot.core.clicks.Table``) as the host keeps them: found by the scope of a custom id."""

    @property
    def scope(self) -> str: ...

    @property
    def tell_actor(self) -> Callable[[Outcome], str | None] | None:
        """The words of what an actor alone learns from their move, for their private answer (None: "Done." only)."""
        ...

    async def run(self, host: Host, interaction: discord.Interaction, press: Press) -> None:
        """Answer the press (its op's handler, then acting, replying or showing a form); refusals are raised."""
        ...


class Deliveries(Protocol):
    """What stored changes owe Discord (``bot.flows.outbox.Outbox``)."""

    async def deliver(self, outcome: Outcome) -> bool:
        """Post what a stored change owes; False when something stays owed (retried later)."""
        ...

    def answering(self, game_id: int, version: int) -> contextlib.AbstractContextManager[None]:
        """Within the block the caller gives the change's answer (``Outcome.answer``) itself, through the
        interaction it holds; a delivery meanwhile leaves it to the caller."""
        ...

    async def problem(self, game_id: int) -> str | None:
        """Why the game's deliveries wait, in the current language (None when they do not)."""
        ...

    async def sweep(self) -> None:
        """Deliver what stored changes of this process's games still owe."""
        ...

    async def channel_changed(self, channel_id: int) -> None:
        """The games waiting on the channel try again at once."""
        ...


# What a game's Discord package provides (``bot/<game>/adapter.py``), as the game-neutral parts of the bot call it.
PostTurn = Callable[["Host", GameRow, Game, Sequence[Event], bool, Shown, "str | None"], Awaitable["Posted | None"]]
AfterMove = Callable[["Host", Outcome, "int | None"], Awaitable[None]]
Narrate = Callable[[Sequence[Event], Sequence[str], "Mapping[str, Any] | None"], list[str]]
Rules = Callable[[Mapping[str, Any], "int | None"], str]
Awaiting = Callable[[Game, int], str]
Recap = Callable[[Mapping[str, Any]], list[str]]


@dataclass(frozen=True)
class GameAdapter:
    """One game's Discord presentation, as the game-neutral parts of the bot use it.

    - ``name``: the engine's name for the game (``game_class(name)``; the stored row's ``game``);
    - ``table``: its buttons, selects and forms (``bot/<game>/handlers.py``);
    - ``cog_type``: its cog of slash commands (``/<game> new`` and its in-game commands), built with the host;
    - ``post_turn(host, row, game, events, opening, shown, nonce)``: post (or bring up to date) the turn message
      after a change (``nonce``: the new message's, so that a retry cannot post it twice); Discord's refusals are
      raised (the outbox judges them). The caller (``bot.flows.turns``) records the message as the game's once the
      previous one's buttons are off;
    - ``narrate(events, names, state)``: spectator events (secret parts already gone) in the sentences the turn
      messages tell, in the current language: ``/game replay`` and "since your last turn" tell earlier turns with
      them; ``state`` is the game's stored state (``GameRow.state``), whose board names places as the image does;
    - ``rules(options, players)``: ``/game rules`` for a lobby (``players`` None) or game with these stored options,
      in the current language;
    - ``after_move(host, outcome, actor)``: private news of a move (direct messages) once its turn message is posted
      (``actor`` already knows); None for a game without secrets;
    - ``words``: its boards and turn pictures in words, for the alt text of every picture posted;
    - ``awaiting(game, seat)``: what the game waits for from ``seat`` (one of its actors), a short phrase in the
      current language ("place the drawn tile"), for ``/game mine``.
    - ``recap(story)``: the few sentences posted with the story of a finished game (``engine.story``'s numbers),
      in the current language (``bot/<game>/recap.py``).
    """

    name: str
    table: ClickTable
    cog_type: type[commands.Cog]
    post_turn: PostTurn
    narrate: Narrate
    rules: Rules
    after_move: AfterMove | None = None
    words: GameWords | None = None  # its pictures in words (alt text): ``bot/<game>/alt.py``
    awaiting: Awaiting | None = None  # what it waits for from a seat, in words (``/game mine``)
    recap: Recap | None = None  # the story of a finished game in words: ``bot/<game>/recap.py``

    def cog(self, host: Host) -> commands.Cog:
        """The game's cog for ``host``."""
        return self.cog_type(host)


class UnknownGame(LookupError):
    """A stored row names a game no adapter was built for."""


@runtime_checkable
class Host(Protocol):
    """The running bot as flows and handlers use it: the host's services (``bot.host``: the games read and written,
    lobbies, play, stand-ins, people's settings, records), the renderer, the settings, its languages, which games this
    process owns, the games' adapters and click tables, the outbox, and the few Discord client calls they make."""

    config: Config
    rows: GameRows
    lobby: Lobby
    play: Play
    stand_ins: StandIns
    people: People
    records: Records
    renderer: Renderer
    ownership: Ownership
    languages: Languages  # the default language, the readers' languages, the command mentions: this bot's own
    shown: dict[int, Shown]  # per game: the newest turn message this process posted

    @property
    def outbox(self) -> Deliveries: ...

    @property
    def tables(self) -> Mapping[str, ClickTable]:
        """Every click table by its scope: the games', the lobby's, the replay's, the computer stand-in's."""
        ...

    @property
    def user(self) -> discord.ClientUser | None: ...

    @property
    def allowed_mentions(self) -> discord.AllowedMentions | None: ...

    http: discord.http.HTTPClient  # the requests alone, for edits whose answer nobody reads (``bot.core.safely``)

    def adapter(self, name: str) -> GameAdapter:
        """The adapter of game ``name``; UnknownGame if this bot hosts no such game."""
        ...

    def adapters(self) -> Sequence[GameAdapter]:
        """The hosted games, in the order their commands are added."""
        ...

    def owns(self, row: GameRow) -> bool:
        """Whether this process does the game's background work (its guild's shard; see ``bot.core.shards``)."""
        ...

    def get_channel(
        self, id: int, /
    ) -> discord.abc.GuildChannel | discord.Thread | discord.abc.PrivateChannel | None: ...

    async def fetch_channel(
        self, channel_id: int, /
    ) -> discord.abc.GuildChannel | discord.abc.PrivateChannel | discord.Thread: ...

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = None, type: discord.ChannelType | None = None
    ) -> discord.PartialMessageable: ...

    def get_guild(self, id: int, /) -> discord.Guild | None: ...

    def get_cog(self, name: str, /) -> commands.Cog | None: ...

    async def create_dm(self, user: discord.abc.Snowflake) -> discord.DMChannel: ...

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None: ...

    async def wait_until_ready(self) -> None: ...


def host_of(interaction: discord.Interaction) -> Host:
    """``interaction.client`` as the host it is (discord.py types it as a plain ``discord.Client``); TypeError for
    any other client (a bug, for the funnel)."""
    client = interaction.client
    if type(client) in _HOSTS:
        return cast(Host, client)
    if not isinstance(client, Host):
        raise TypeError(f"interaction {interaction.id} came to {type(client).__name__}, not a boardhost bot")
    # A runtime Protocol check looks up every member of Host each time (a fifth of a millisecond, several times per
    # click): a class whose running instance passed it once is known.
    _HOSTS.add(type(client))
    return client


_HOSTS: set[type] = set()  # client classes known to be hosts (``host_of``)
