"""What each Carcassonne button and select does: the game's click table (``TABLE``) and one handler per op.

Public ops live on the turn message and are acknowledged without a word (the channel hears through the outbox); the
rotation buttons come in a private reply to the chosen cell. A refusal is raised and answered by the funnel;
nothing changes.
"""

from __future__ import annotations

from typing import Final

from bot.carcassonne.cells import cell_text
from bot.carcassonne.flows import current_game
from bot.carcassonne.ids import SCOPE, parse_cell
from bot.carcassonne.turn import rotation_message, turn_view
from bot.core.clicks import Click, Op, Reply, Table
from bot.host import HostError
from bot.text import t
from engine import Action


async def place(click: Click) -> Action:
    """A rotation button: the drawn tile on the chosen cell, turned. Clicked in its private reply, that reply is
    spent whatever comes of it (a refusal follows as its own reply, and the cell can be picked again)."""
    x, y, rotation = (int(v) for v in click.arg.split(","))
    interaction = click.interaction
    if interaction.message is not None and interaction.message.flags.ephemeral:
        chosen = t("carcassonne.rotation_chosen", cell=cell_text(x, y), degrees=rotation)
        await interaction.response.edit_message(content=chosen, view=None)
    else:
        await interaction.response.defer()
    return {"type": "place", "x": x, "y": y, "rotation": rotation}


async def choose_cell(click: Click) -> Reply:
    """The cell select: the rotations the tile fits in there, privately."""
    row, game = await current_game(click.host, click.game_id, click.version, click.user_id)
    cell = parse_cell(click.values[0])
    if cell is None or cell not in game.legal_placements():
        raise HostError("rule", reason=t("carcassonne.no_cell"))
    return Reply(**rotation_message(row, game, cell))


async def turn_page(click: Click) -> Reply:
    """Another page of the cells (more than a select holds)."""
    row, game = await current_game(click.host, click.game_id, click.version, click.user_id)
    return Reply(view=turn_view(row, game, int(click.arg or 0)))


async def follower(click: Click) -> Action:
    """A follower on a feature of the tile just placed (a button, or the select when there are many)."""
    return {"type": "follower", "on": click.values[0] if click.values else click.arg}


async def no_follower(click: Click) -> Action:
    return {"type": "pass"}


async def tower_piece(click: Click) -> Action:
    """A tower piece on a tower, capturing a follower in its sight when the select's choice names one."""
    parts = click.values[0].split(",")
    try:
        action: Action = {"type": "tower", "x": int(parts[0]), "y": int(parts[1])}
        if len(parts) >= 5:
            action["capture"] = {"x": int(parts[2]), "y": int(parts[3]), "on": ",".join(parts[4:])}
    except (ValueError, IndexError):
        raise HostError("stale") from None
    return action


async def follower_on_tower(click: Click) -> Action:
    x, y = (int(v) for v in click.arg.split(","))
    return {"type": "tower_top", "x": x, "y": y}


async def ransom(click: Click) -> Action:
    """Pay 3 points to free a prisoner held by another player."""
    return {"type": "ransom", "from": int(click.arg)}


TABLE: Final = Table(
    SCOPE,
    {
        "cell": Op(choose_cell, kind="select", answer="menu"),
        "page": Op(turn_page, answer="update"),
        "rot": Op(place, answer="own"),
        "spot": Op(follower, answer="public"),
        "spots": Op(follower, kind="select", answer="public"),
        "pass": Op(no_follower, answer="public"),
        "tower": Op(tower_piece, kind="select", answer="public"),
        "top": Op(follower_on_tower, answer="public"),
        "ransom": Op(ransom, answer="public"),
    },
)
