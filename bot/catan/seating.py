"""Who is seated where in a Catan game a click or command is about: the game, fresh, and the user's seat."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.host import HostError
from bot.storage import GameRow
from engine import Game
from engine.catan import Catan

if TYPE_CHECKING:
    from bot.core.host import Host

NAME = "catan"


def _catan(game: Game) -> Catan:
    if not isinstance(game, Catan):
        raise HostError("not_active")
    return game


@dataclass
class Seated:
    row: GameRow
    game: Catan
    seat: int


async def seated(bot: Host, game_id: int, version: int | None, user_id: int) -> Seated:
    """The game for a click; HostError unless it is running, fresh (when ``version`` is given) and the user plays."""
    row = await bot.rows.row(game_id)
    if row.game != NAME or row.status != "active":
        raise HostError("not_active")
    if version is not None and row.version != version:
        raise HostError("stale")
    seat = row.seat_of(user_id)
    if seat is None:
        raise HostError("not_seated")
    return Seated(row, catan(bot, row), seat)


def catan(bot: Host, row: GameRow) -> Catan:
    return _catan(bot.rows.game(row))


def require_turn(found: Seated) -> None:
    if found.seat != found.game.current:
        raise HostError("not_your_turn")
