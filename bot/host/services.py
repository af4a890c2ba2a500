"""The host's services over one storage, wired together: the running bot (``bot.app``) puts each on itself, where
``bot.core.host.Host`` names them; tests use them as they are."""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.host.lobbies import Lobby
from bot.host.personal import People
from bot.host.play import Play
from bot.host.records import Records
from bot.host.rows import GameRows
from bot.host.stand_ins import StandIns
from bot.storage import Games


@dataclass(frozen=True)
class Services:
    """One of each service, all over the same game rows (so that every change goes through one memory of them)."""

    rows: GameRows  # the games read and written (every other service goes through it)
    lobby: Lobby
    play: Play
    stand_ins: StandIns  # computer players, takeovers, time away
    people: People  # settings, quiet hours, time away, held and refused DMs
    records: Records  # messages, language, log, ratings, the outbox's table

    @classmethod
    def over(cls, games: Games, rng: random.Random | None = None) -> Services:
        rows = GameRows(games)
        play = Play(rows)
        return cls(rows, Lobby(rows, rng), play, StandIns(rows, play), People(rows), Records(rows))
