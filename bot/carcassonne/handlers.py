"""What each Carcassonne button and select does. A refusal is raised and answered by the funnel; nothing changes.

Public ops live on the turn message; the rotation buttons come in a private reply to the chosen cell.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.carcassonne.flows import apply, current_game
from bot.carcassonne.ids import SELECT_OPS, parse_cell
from bot.carcassonne.turn import rotation_message, turn_view
from bot.core.clicks import Press
from bot.core.client import bot_of
from bot.host import HostError
from bot.text import t
from engine import Action

if TYPE_CHECKING:
    pass


def button_action(op: str, arg: str) -> Action:
    """The action a turn button stands for."""
    if op == "rot":
        x, y, rotation = (int(v) for v in arg.split(","))
        return {"type": "place", "x": x, "y": y, "rotation": rotation}
    if op == "spot":
        return {"type": "follower", "on": arg}
    if op == "pass":
        return {"type": "pass"}
    if op == "top":
        x, y = (int(v) for v in arg.split(","))
        return {"type": "tower_top", "x": x, "y": y}
    if op == "ransom":
        return {"type": "ransom", "from": int(arg)}
    raise HostError("internal")


def select_action(op: str, value: str) -> Action:
    """The action a choice in the follower-spot or tower select stands for."""
    if op == "spots":
        return {"type": "follower", "on": value}
    parts = value.split(",")
    try:
        action: Action = {"type": "tower", "x": int(parts[0]), "y": int(parts[1])}
        if len(parts) >= 5:
            action["capture"] = {"x": int(parts[2]), "y": int(parts[3]), "on": ",".join(parts[4:])}
    except (ValueError, IndexError):
        raise HostError("stale") from None
    return action


async def _button(press: Press) -> None:
    interaction = press.interaction
    bot = bot_of(interaction)
    if press.op == "rot" and interaction.message is not None and interaction.message.flags.ephemeral:
        # The private rotation buttons are spent by this click whatever comes of it (a refusal follows as its own
        # reply, and the cell can be picked again): the answer to the click takes them away and says what was
        # chosen, in one request.
        action = button_action(press.op, press.arg)
        chosen = t("carcassonne.rotation_chosen", x=action["x"], y=action["y"], degrees=action["rotation"])
        await interaction.response.edit_message(content=chosen, view=None)
    else:
        await interaction.response.defer()
    if press.op == "page":
        row, game = await current_game(bot, press.game_id, press.version, interaction.user.id)
        await interaction.edit_original_response(view=turn_view(row, game, int(press.arg or 0)))
        return
    await apply(bot, interaction, press.game_id, press.version, button_action(press.op, press.arg))


async def _select(press: Press) -> None:
    interaction = press.interaction
    bot = bot_of(interaction)
    await interaction.response.defer()
    value = press.values[0] if press.values else ""
    if press.op == "cell":
        row, game = await current_game(bot, press.game_id, press.version, interaction.user.id)
        cell = parse_cell(value)
        if cell is None or cell not in game.legal_placements():
            raise HostError("rule", reason=t("carcassonne.no_cell"))
        await interaction.followup.send(**rotation_message(row, game, cell), ephemeral=True)
        return
    await apply(bot, interaction, press.game_id, press.version, select_action(press.op, value))


async def dispatch(press: Press) -> None:
    """Run a press's handler (refusals are raised: the funnel answers them)."""
    if press.op in SELECT_OPS:
        await _select(press)
    else:
        await _button(press)
