"""The Carcassonne turn flow: one channel message per turn with an image and the current player's choices.

Every component is a dynamic item whose custom id carries the game id and the state version
(``bh:cc:{game}:{version}:{op}:{arg}``), so the buttons of the latest message keep working after a restart and a
stale or repeated click is refused by the service without changing anything.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands
from discord.ext import commands

from bot.components import (
    BUTTON_LABEL,
    CONTENT,
    PAGE,
    ROW_WIDTH,
    Layout,
    Refusal,
    clip,
    image_file,
    make_custom_id,
    option,
    refuse,
    rule_reason,
)
from bot.host import HostError
from bot.host.service import Outcome
from bot.narrate import fit, narrate, spot_name
from bot.rendering import Job
from bot.storage import GameRow
from bot.text import t
from bot.turns import Posted, Shown, announce, channel_of, register
from engine import Game, RuleError

if TYPE_CHECKING:
    from bot.app import BoardHost

log = logging.getLogger("boardhost.carcassonne")

PREFIX: Final = "bh:cc"
BUTTON_OPS: Final = ("rot", "spot", "pass", "top", "ransom", "page")
SELECT_OPS: Final = ("cell", "tower", "spots")
_ID = r"bh:cc:(?P<game>\d+):(?P<version>\d+):(?P<op>{ops})(?::(?P<arg>[^\s]*))?"


def custom_id(game_id: int, version: int, op: str, arg: str = "") -> str:
    return make_custom_id(PREFIX, game_id, version, op, arg)


def ordered_cells(game: Game) -> list[tuple[int, int]]:
    """Legal cells in the order they are numbered on the preview (top row first, then left to right)."""
    return sorted(game.legal_placements(), key=lambda c: (c[1], c[0]))  # type: ignore[attr-defined]


def cell_value(x: int, y: int) -> str:
    return f"{x},{y}"


def parse_cell(value: str) -> tuple[int, int] | None:
    match = re.fullmatch(r"\s*\(?\s*(-?\d+)\s*,\s*(-?\d+)\s*\)?\s*", value)
    return None if match is None else (int(match[1]), int(match[2]))


def names_of(row: GameRow) -> list[str]:
    return [s.name for s in row.seats]


def mention(row: GameRow, seat: int) -> str:
    return row.mention(seat)


# -- the turn message ------------------------------------------------------------------------------------------


def turn_text(
    row: GameRow,
    game: Any,
    events: Sequence[Any],
    *,
    opening: bool = False,
    view: dict[str, Any] | None = None,
    story: Sequence[str] = (),
) -> tuple[str, list[str]]:
    """The turn message's text, and its news lines (``story``, what the message told before, first)."""
    names = names_of(row)
    view = view or game.view(None)
    scores = " · ".join(f"{p['name']} {p['score']}" for p in view["players"])
    if game.finished:
        winners = t("narrate.and").join(names[s] for s in game.winners)
        tail = t("carcassonne.over", winners=winners, scores=scores)
        told = [*story, *narrate("carcassonne", [e for e in events if e.get("type") != "game_over"], names)]
        return fit(told, tail, CONTENT), told
    lines = [*story, *narrate("carcassonne", events, names)]
    if opening:
        lines.insert(0, t("carcassonne.begins"))
    seat = game.current
    decision = game.decision()
    if decision == "place":
        turn = t(
            "carcassonne.turn_place",
            turn=game.turn,
            mention=mention(row, seat),
            tile=game.drawn,
            count=len(game.legal_placements()),
        )
    elif decision == "follower":
        x, y = view["placed"]
        turn = t("carcassonne.turn_follower", mention=mention(row, seat), x=x, y=y)
    else:
        turn = t("carcassonne.turn_other", turn=game.turn, mention=mention(row, seat))
    tail = turn + "\n" + t("carcassonne.scores", scores=scores, left=view["tiles_left"])
    return fit(lines, tail, CONTENT), lines


def turn_image(game: Any, view: dict[str, Any] | None = None) -> Job:
    """The turn's picture as a render job: the spectator view and what to mark on it."""
    view = view or game.view(None)
    if game.finished:
        return "end_png", (view,)
    if game.decision() == "follower":
        x, y = view["placed"]
        return "carcassonne_spots_png", (view, x, y, list(game.follower_spots()))
    if game.decision() == "place":
        return "carcassonne_preview_png", (view, ordered_cells(game))
    return "board_png", (view,)


def turn_view(row: GameRow, game: Any, page: int = 0) -> discord.ui.View | None:
    """The current player's choices (anyone may click; the callbacks refuse everyone else)."""
    if game.finished:
        return None
    layout = Layout()
    gid, version = row.id, row.version
    decision = game.decision()
    if decision == "place":
        cells = ordered_cells(game)
        pages = max(1, -(-len(cells) // PAGE))
        page = min(max(page, 0), pages - 1)
        first = page * PAGE
        chunk = cells[first : first + PAGE]
        if chunk:
            options = [
                option(t("carcassonne.cell_option", number=first + i + 1, x=x, y=y), cell_value(x, y))
                for i, (x, y) in enumerate(chunk)
            ]
            placeholder = t("carcassonne.cell_placeholder", first=first + 1, last=first + len(chunk), count=len(cells))
            layout.select(CarcSelect(gid, version, "cell", str(page), options, placeholder))
        if pages > 1:
            if page > 0:
                label = t("carcassonne.page_prev", first=(page - 1) * PAGE + 1, last=page * PAGE)
                layout.button(CarcButton(gid, version, "page", str(page - 1), label, discord.ButtonStyle.secondary))
            if page < pages - 1:
                last = min((page + 2) * PAGE, len(cells))
                label = t("carcassonne.page_next", first=(page + 1) * PAGE + 1, last=last)
                layout.button(CarcButton(gid, version, "page", str(page + 1), label, discord.ButtonStyle.secondary))
    elif decision == "follower":
        _follower_choices(layout, row, game)
    for i, holder in enumerate(game.ransom_options()):
        label = t("carcassonne.ransom", name=row.seats[holder].name)
        button = CarcButton(gid, version, "ransom", str(holder), label, discord.ButtonStyle.danger)
        layout.button(button, new_row=i == 0 and decision == "follower")
    return layout.view


def _follower_choices(layout: Layout, row: GameRow, game: Any) -> None:
    gid, version = row.id, row.version
    names = names_of(row)
    towers: list[discord.SelectOption] = []
    for tower in game.tower_options():
        x, y = tower["x"], tower["y"]
        towers.append(option(t("carcassonne.tower_option", x=x, y=y, height=tower["height"] + 1), f"{x},{y}"))
        for cap in tower["captures"]:
            label = t(
                "carcassonne.tower_capture",
                x=x,
                y=y,
                owner=names[cap["player"]],
                on=spot_name(cap["on"]),
                tx=cap["x"],
                ty=cap["y"],
            )
            towers.append(option(label, f"{x},{y},{cap['x']},{cap['y']},{cap['on']}"))
    if len(towers) > PAGE:
        log.warning("tower options cut to %d of %d", PAGE, len(towers))
        towers = towers[:PAGE]
    if towers:
        layout.select(CarcSelect(gid, version, "tower", "", towers, t("carcassonne.tower_placeholder")))
    spots = list(game.follower_spots())
    tops = list(game.tower_top_options())
    ransoms = len(game.ransom_options())
    # buttons needed after the spots: No follower, tower tops and ransoms (ransoms start their own row)
    if len(spots) + 1 + len(tops) + ransoms + ROW_WIDTH > layout.free_buttons() and spots:
        options = [option(spot_name(on), on) for on in spots[:PAGE]]
        layout.select(CarcSelect(gid, version, "spots", "", options, t("carcassonne.spot_placeholder")))
        spots = []
    for on in spots:
        layout.button(CarcButton(gid, version, "spot", on, spot_name(on), discord.ButtonStyle.primary))
    layout.button(
        CarcButton(gid, version, "pass", "", t("carcassonne.no_follower"), discord.ButtonStyle.secondary),
        new_row=bool(spots) and len(spots) % ROW_WIDTH == 0,
    )
    for x, y in tops:
        layout.button(
            CarcButton(
                gid, version, "top", f"{x},{y}", t("carcassonne.tower_top", x=x, y=y), discord.ButtonStyle.primary
            )
        )


def step_of(game: Any) -> tuple[int, int] | None:
    """Which player's turn, and which turn, a message shows (None once the game is over)."""
    return None if game.finished else (game.turn, game.current)


async def post_turn(
    bot: BoardHost, row: GameRow, game: Any, events: Sequence[Any], opening: bool, shown: Shown
) -> Posted | None:
    """The turn message: a new one when a turn begins (or the game ends); while the same player's turn goes on
    (placing, then the follower; an undo) and nothing was posted after the turn's message, that message is brought
    up to date instead, its story kept."""
    channel = await channel_of(bot, row)
    if channel is None:
        return None
    step = step_of(game)
    same_turn = (
        step is not None
        and step == shown.step
        and row.version > shown.version
        and shown.message_id is not None
        and getattr(channel, "last_message_id", None) == shown.message_id  # else the choices would be up the channel
    )
    view = game.view(None)
    content, story = turn_text(row, game, events, opening=opening, view=view, story=shown.story if same_turn else ())
    image = await bot.renderer.png(turn_image(game, view))
    choices = turn_view(row, game)
    file = image_file(channel, image, f"carcassonne-{row.id}-{row.version}.png")
    if same_turn and hasattr(channel, "get_partial_message"):
        try:
            message = await channel.get_partial_message(shown.message_id).edit(
                content=content, attachments=[file] if file is not None else [], view=choices
            )
        except discord.NotFound:  # deleted meanwhile: post the turn as a new message
            file = image_file(channel, image, f"carcassonne-{row.id}-{row.version}.png")
        else:
            return Posted(message, step, tuple(story))
    kwargs: dict[str, Any] = {"content": content, "allowed_mentions": discord.AllowedMentions(users=True)}
    if file is not None:
        kwargs["file"] = file
    if choices is not None:
        kwargs["view"] = choices
    message = await channel.send(**kwargs)
    await bot.games.set_message(row.id, message.id)
    return Posted(message, step, tuple(story) if step is not None else ())  # a finished game goes on nowhere


# -- acting --------------------------------------------------------------------------------------------------


async def current_game(bot: BoardHost, game_id: int, version: int, user_id: int) -> tuple[GameRow, Any]:
    """The row and game for a click on ``version``; Refusal unless it is fresh and the user's turn."""
    row = await bot.service.row_at(game_id, version)
    if row.status != "active":
        raise Refusal("not_active")
    if row.version != version:
        raise Refusal("stale")
    return row, _require_turn(bot, row, user_id)


def _require_turn(bot: BoardHost, row: GameRow, user_id: int) -> Any:
    seat = row.seat_of(user_id)
    if seat is None:
        raise Refusal("not_seated")
    game = bot.service.game(row)
    if game.finished:
        raise Refusal("not_active")
    if seat != game.current:  # type: ignore[attr-defined]
        raise Refusal("not_your_turn")
    return game


async def apply(
    bot: BoardHost, interaction: discord.Interaction, game_id: int, version: int, action: dict[str, Any]
) -> None:
    """Check the turn, act, and post the next turn message; refusals go back ephemerally."""
    try:
        row, _ = await current_game(bot, game_id, version, interaction.user.id)
        outcome = await bot.service.act(game_id, version, interaction.user.id, action, row=row)
    except Refusal as err:
        await refuse(interaction, err.key, **err.params)
        return
    except HostError as err:
        await refuse(interaction, err.key, **err.params)
        return
    except RuleError as err:
        await refuse(interaction, "rule", reason=rule_reason(err))
        return
    await announce(bot, outcome)


# -- components ----------------------------------------------------------------------------------------------


class CarcButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=_ID.format(ops="|".join(BUTTON_OPS)),
):
    def __init__(
        self,
        game_id: int,
        version: int,
        op: str,
        arg: str = "",
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=clip(label or op, BUTTON_LABEL), style=style, custom_id=custom_id(game_id, version, op, arg)
            )
        )
        self.game_id = game_id
        self.version = version
        self.op = op
        self.arg = arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CarcButton:
        return cls(int(match["game"]), int(match["version"]), match["op"], match["arg"] or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: BoardHost = interaction.client  # type: ignore[assignment]
        try:
            if self.op == "rot" and interaction.message is not None and interaction.message.flags.ephemeral:
                # The private rotation buttons are spent by this click whatever comes of it (a refusal follows as
                # its own reply, and the cell can be picked again): the answer to the click takes them away and
                # says what was chosen, in one request.
                action = self._action()
                chosen = t("carcassonne.rotation_chosen", x=action["x"], y=action["y"], degrees=action["rotation"])
                await interaction.response.edit_message(content=chosen, view=None)
            else:
                await interaction.response.defer()
            if self.op == "page":
                await self._page(bot, interaction)
                return
            action = self._action()
        except Refusal as err:
            await refuse(interaction, err.key, **err.params)
            return
        except (HostError, RuleError) as err:
            await _refuse_error(interaction, err)
            return
        await apply(bot, interaction, self.game_id, self.version, action)

    def _action(self) -> dict[str, Any]:
        if self.op == "rot":
            x, y, rotation = (int(v) for v in self.arg.split(","))
            return {"type": "place", "x": x, "y": y, "rotation": rotation}
        if self.op == "spot":
            return {"type": "follower", "on": self.arg}
        if self.op == "pass":
            return {"type": "pass"}
        if self.op == "top":
            x, y = (int(v) for v in self.arg.split(","))
            return {"type": "tower_top", "x": x, "y": y}
        if self.op == "ransom":
            return {"type": "ransom", "from": int(self.arg)}
        raise Refusal("internal")

    async def _page(self, bot: BoardHost, interaction: discord.Interaction) -> None:
        row, game = await current_game(bot, self.game_id, self.version, interaction.user.id)
        view = turn_view(row, game, int(self.arg or 0))
        await interaction.edit_original_response(view=view)


class CarcSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=_ID.format(ops="|".join(SELECT_OPS)),
):
    def __init__(
        self,
        game_id: int,
        version: int,
        op: str,
        arg: str = "",
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=custom_id(game_id, version, op, arg),
                options=(options or [])[:PAGE] or [discord.SelectOption(label="-", value="-")],
                placeholder=clip(placeholder, 150) if placeholder else None,
                min_values=1,
                max_values=1,
            )
        )
        self.game_id = game_id
        self.version = version
        self.op = op
        self.arg = arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CarcSelect:
        return cls(int(match["game"]), int(match["version"]), match["op"], match["arg"] or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: BoardHost = interaction.client  # type: ignore[assignment]
        await interaction.response.defer()
        values = self.item.values
        value = str(values[0]) if values else ""
        if self.op == "cell":
            await self._cell(bot, interaction, value)
            return
        if self.op == "spots":
            action: dict[str, Any] = {"type": "follower", "on": value}
        else:
            parts = value.split(",")
            try:
                action = {"type": "tower", "x": int(parts[0]), "y": int(parts[1])}
                if len(parts) >= 5:
                    action["capture"] = {"x": int(parts[2]), "y": int(parts[3]), "on": ",".join(parts[4:])}
            except (ValueError, IndexError):
                await refuse(interaction, "stale")
                return
        await apply(bot, interaction, self.game_id, self.version, action)

    async def _cell(self, bot: BoardHost, interaction: discord.Interaction, value: str) -> None:
        try:
            row, game = await current_game(bot, self.game_id, self.version, interaction.user.id)
        except Refusal as err:
            await refuse(interaction, err.key, **err.params)
            return
        except HostError as err:
            await refuse(interaction, err.key, **err.params)
            return
        cell = parse_cell(value)
        legal = game.legal_placements()
        if cell is None or cell not in legal:
            await refuse(interaction, "rule", reason=t("carcassonne.no_cell"))
            return
        await interaction.followup.send(**rotation_message(row, game, cell), ephemeral=True)


def rotation_message(row: GameRow, game: Any, cell: tuple[int, int]) -> dict[str, Any]:
    x, y = cell
    number = ordered_cells(game).index(cell) + 1
    layout = Layout()
    for rotation in game.legal_placements()[cell]:
        layout.button(
            CarcButton(
                row.id,
                row.version,
                "rot",
                f"{x},{y},{rotation}",
                t("carcassonne.rotation", degrees=rotation),
                discord.ButtonStyle.primary,
            )
        )
    content = t("carcassonne.choose_rotation", tile=game.drawn, number=number, x=x, y=y)
    return {"content": content, "view": layout.view}


async def _refuse_error(interaction: discord.Interaction, err: HostError | RuleError) -> None:
    if isinstance(err, HostError):
        await refuse(interaction, err.key, **err.params)
    else:
        await refuse(interaction, "rule", reason=rule_reason(err))


# -- the cog -------------------------------------------------------------------------------------------------


class CarcassonneCog(commands.Cog):
    def __init__(self, bot: BoardHost) -> None:
        self.bot = bot
        register("carcassonne", post_turn)

    @commands.Cog.listener()
    async def on_game_started(self, row: GameRow, outcome: Outcome) -> None:
        if row.game != "carcassonne" or outcome.game is None:
            return
        await announce(self.bot, outcome, opening=True)

    async def _channel_game(self, interaction: discord.Interaction) -> tuple[GameRow, Any] | None:
        if interaction.channel_id is None:
            return None
        row = await self.bot.games.open_in_channel(interaction.channel_id)
        if row is None or row.game != "carcassonne" or row.status != "active" or row.state_json is None:
            return None
        return row, self.bot.service.game(row)

    @app_commands.command(name="place", description="Place the drawn Carcassonne tile")
    @app_commands.describe(cell="Where: pick a numbered cell", rotation="Clockwise rotation in degrees")
    async def place(self, interaction: discord.Interaction, cell: str, rotation: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            found = await self._channel_game(interaction)
            if found is None:
                row = await self.bot.service.in_channel(interaction.channel_id or 0)  # no game at all: say so
                if row.game == "carcassonne":  # its lobby
                    raise Refusal("not_started")
                raise Refusal("rule", reason=t("carcassonne.not_carcassonne"))
            row, _ = found
            _require_turn(self.bot, row, interaction.user.id)
            where = parse_cell(cell)
            if where is None:
                raise Refusal("rule", reason=t("carcassonne.no_cell"))
            outcome = await self.bot.service.act(
                row.id,
                row.version,
                interaction.user.id,
                {"type": "place", "x": where[0], "y": where[1], "rotation": rotation},
                row=row,
            )
        except Refusal as err:
            await refuse(interaction, err.key, **err.params)
            return
        except (HostError, RuleError) as err:
            await _refuse_error(interaction, err)
            return
        await interaction.followup.send(t("carcassonne.done"), ephemeral=True)
        await announce(self.bot, outcome)

    @place.autocomplete("cell")
    async def place_cell(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        found = await self._channel_game(interaction)
        if found is None:
            return []
        _, game = found
        typed = current.replace(" ", "").strip("()")
        choices = []
        for number, (x, y) in enumerate(ordered_cells(game), start=1):
            name = t("carcassonne.cell_option", number=number, x=x, y=y)
            value = cell_value(x, y)
            if not typed or value.startswith(typed) or str(number) == typed or typed in name.replace(" ", ""):
                choices.append(app_commands.Choice(name=clip(name), value=value))
        return choices[:PAGE]

    @place.autocomplete("rotation")
    async def place_rotation(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        found = await self._channel_game(interaction)
        if found is None:
            return []
        _, game = found
        cell = parse_cell(str(getattr(interaction.namespace, "cell", "") or ""))
        legal = game.legal_placements()
        rotations = legal.get(cell, []) if cell is not None else sorted({r for rs in legal.values() for r in rs})
        return [
            app_commands.Choice(name=t("carcassonne.rotation", degrees=r), value=r)
            for r in rotations
            if str(r).startswith(str(current).strip())
        ][:PAGE]
