"""Ratings: openskill's Plackett-Luce over finished games, per server and game, people by id and computer players
by level; each game rated once, abandoned games never; and every rating rebuilt from the games' logs equals the one
stored game by game, even when games were rated out of the order they ended. Against SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main
from bot.host import Services
from bot.host.skill import Placing, Player, RatedGame, Standing, fold, placings, rate
from bot.storage import GameRow, Games, Seat
from bot.storage.opening import open_database
from tests.bot.conftest import sqlite_trips

ALICE, BOB, CAROL = Seat(1, "Alice"), Seat(2, "Bob"), Seat(3, "Carol")
DECK = ["E", "U", "E", "B", "K"]  # a Carcassonne game of five tiles


def test_winners_come_first_then_scores_and_equal_results_share_a_place() -> None:
    people = [Player(1), Player(2), Player(3), Player(0, "random")]
    found = placings(people, scores=[7, 9, 7, 2], winners=[1])
    assert [(p.place, p.won) for p in found] == [(2, False), (1, True), (2, False), (4, False)]
    catan = placings(people[:2], scores=[10, 10], winners=[1])  # the one who reached the points on their turn
    assert [p.place for p in catan] == [2, 1]


def test_a_win_raises_the_shown_rating_and_a_loss_lowers_the_estimate() -> None:
    game = RatedGame(1, 100.0, placings([Player(1), Player(2)], [12, 5], [0]))
    after, changes = rate({}, game)
    winner, loser = after[Player(1)], after[Player(2)]
    assert winner.mu > Standing().mu > loser.mu and winner.rating > 0
    assert (winner.games, winner.wins, winner.streak) == (1, 1, 1) and (loser.wins, loser.streak) == (0, 0)
    assert [c.before for c in changes] == [(Standing().mu, Standing().sigma)] * 2
    again, _ = rate(after, RatedGame(2, 200.0, placings([Player(1), Player(2)], [3, 8], [1])))
    assert again[Player(1)].streak == 0 and again[Player(2)].streak == 1 and again[Player(1)].games == 2


def test_two_computer_seats_of_one_level_move_one_rating() -> None:
    bot = Player(0, "random")
    game = RatedGame(1, 1.0, (Placing(0, Player(1), 1, True), Placing(1, bot, 2, False), Placing(2, bot, 2, False)))
    after, changes = rate({}, game)
    assert set(after) == {Player(1), bot} and after[bot].games == 1
    assert changes[1].after == changes[2].after == (after[bot].mu, after[bot].sigma)


def test_a_fold_rates_the_games_in_the_order_they_ended_whatever_the_order_given() -> None:
    games = [
        RatedGame(n, float(at), placings([Player(1), Player(2)], [1, 0] if n % 2 else [0, 1], [0 if n % 2 else 1]))
        for n, at in ((1, 30), (2, 10), (3, 20))
    ]
    assert fold(games).standings == fold(reversed(games)).standings
    assert [c.game_id for c in fold(games).changes] == [2, 2, 3, 3, 1, 1]


async def finished(
    service: Services,
    *,
    guild: int | None,
    channel: int,
    seats: list[Seat],
    computers: int = 0,
    game: str = "carcassonne",
) -> GameRow:
    """A short game played to its end: the people take their first legal move, the computers theirs."""
    options: dict[str, Any] = {"river": False, "deck": DECK} if game == "carcassonne" else {"points_to_win": 3}
    row = await service.lobby.open_lobby(guild_id=guild, channel_id=channel, game=game, host=seats[0], options=options)
    for seat in seats[1:]:
        row = await service.lobby.join(row.id, None, seat)
    for _ in range(computers):
        row = await service.lobby.add_computer(row.id, None, seats[0].user_id, "random", lambda n: f"Computer {n}")
    row = (await service.lobby.start(row.id, None, seats[0].user_id)).row
    rng = random.Random(row.id)
    while row.status == "active":
        moved = await service.stand_ins.computer_move(row.id)
        if moved is None:
            engine = service.rows.game(row)
            seat = engine.actors()[0]
            moved = await service.play.act(
                row.id, None, row.seats[seat].user_id, engine.random_action(rng) | {"player": seat}
            )
        row = moved.row
    return row


async def stored(service: Services) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    standings, changes = await service.records.standings.rows.everything()
    return [tuple(r) for r in standings], [tuple(r) for r in changes]


async def test_a_finished_game_is_rated_once_and_an_abandoned_one_never(service: Services) -> None:
    row = await finished(service, guild=9, channel=100, seats=[ALICE, BOB], computers=1)
    assert row.status == "finished"
    assert await service.records.rate(row.id) is True
    assert await service.records.rate(row.id) is False, "a retry of the owed rating changes nothing"
    board = dict(await service.records.standings.leaderboard((9, "carcassonne"), 10))
    assert set(board) == {Player(1), Player(2), Player(0, "random")}, "the computer player is rated by its level"
    assert all(s.games == 1 for s in board.values())
    assert sum(s.wins for s in board.values()) >= 1

    lobby = await service.lobby.open_lobby(guild_id=9, channel_id=101, game="carcassonne", host=ALICE, options={})
    await service.lobby.join(lobby.id, None, BOB)
    started = (await service.lobby.start(lobby.id, None, ALICE.user_id)).row
    await service.play.abandon(started.id, started.version, ALICE.user_id, can_manage=False)
    assert await service.records.rate(started.id) is False
    assert {p: s.games for p, s in await service.records.standings.leaderboard((9, "carcassonne"), 10)}[Player(1)] == 1
    cards = await service.records.standings.card(9, Player(1))
    (card,) = cards
    assert (card.game, card.players, card.history) == ("carcassonne", 3, (card.standing.rating,))
    assert card.position == 1 + sum(s.rating > card.standing.rating for s in board.values())


async def test_ratings_rebuilt_from_the_logs_equal_the_ones_stored_game_by_game(service: Services) -> None:
    games = [
        await finished(service, guild=9, channel=100, seats=[ALICE, BOB], computers=1),
        await finished(service, guild=9, channel=100, seats=[BOB, CAROL]),
        await finished(service, guild=9, channel=101, seats=[ALICE, CAROL], computers=2),
        await finished(service, guild=7, channel=200, seats=[ALICE, BOB]),  # another server: another pool
        await finished(service, guild=None, channel=300, seats=[CAROL, ALICE]),  # a direct message game
        await finished(service, guild=9, channel=102, seats=[ALICE, BOB, CAROL], game="catan"),
        await finished(service, guild=9, channel=100, seats=[CAROL, ALICE], computers=1),
    ]
    # The second game's rating comes late (another process rated the ones after it first): the pool is rated
    # again in the order the games ended.
    for row in [games[0], *games[2:], games[1]]:
        assert await service.records.rate(row.id)
    incremental = await stored(service)
    assert len(incremental[1]) == sum(len(row.seats) for row in games)
    rebuilt = await service.records.standings.rebuild()
    assert (rebuilt.games, rebuilt.pools, rebuilt.skipped) == (7, 4, ())
    assert await stored(service) == incremental, "the rebuild from the logs found other ratings"
    assert await service.records.standings.games_rated(9) == ["carcassonne", "catan"]
    assert await service.records.standings.games_rated(0) == ["carcassonne"]


async def test_games_rated_at_the_same_moment_are_rated_one_after_the_other(service: Services) -> None:
    """Processes rating games of one pool at once (PostgreSQL: each on its own connection) wait for each other."""
    games = [await finished(service, guild=9, channel=100 + n, seats=[ALICE, BOB, CAROL][n % 2 :]) for n in range(4)]
    assert await asyncio.gather(*(service.records.rate(row.id) for row in reversed(games))) == [True] * 4
    assert await service.records.standings.check() == []
    board = await service.records.standings.leaderboard((9, "carcassonne"), 10)
    assert {s.games for p, s in board if p == Player(2)} == {4}


def test_the_ratings_command_checks_the_ratings_against_the_logs_and_rebuilds_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("BOARDHOST_CONFIG", raising=False)
    monkeypatch.setenv("BOARDHOST_DATABASE", str(tmp_path / "boardhost.sqlite3"))

    async def two_games_one_rated() -> None:  # the second ended before an upgrade brought the ratings
        db = await open_database(tmp_path / "boardhost.sqlite3")
        service = Services.over(Games(db), random.Random(1))
        rated = await finished(service, guild=9, channel=100, seats=[ALICE, BOB])
        await finished(service, guild=9, channel=100, seats=[BOB, CAROL])
        await service.records.rate(rated.id)
        await db.close()

    asyncio.run(two_games_one_rated())
    assert main(["ratings"]) == 1
    out = capsys.readouterr().out
    assert "stored ratings differ from what the finished games' logs give" in out
    assert "rebuild them with: python -m bot ratings --rebuild" in out
    assert main(["ratings", "--rebuild"]) == 0
    assert "rebuilt the ratings of 2 finished games in 1 server and game pools" in capsys.readouterr().out
    assert main(["ratings"]) == 0
    assert "the stored ratings are what the finished games' logs give" in capsys.readouterr().out


async def test_a_rating_holds_sqlites_writer_for_one_trip(tmp_path: Path, monkeypatch: Any) -> None:
    """A game's end rates it in a transaction of a dozen statements: on SQLite they run in one trip to the writer's
    thread, so no other game's write waits for the event loop to come back to the rating between two of them.
    (SQLite only: PostgreSQL's transactions hold one connection of the pool, not the one writer.)"""
    db = await open_database(tmp_path / "boardhost.sqlite3")
    service = Services.over(Games(db), random.Random(1))
    row = await finished(service, guild=9, channel=100, seats=[ALICE, BOB], computers=1)
    trips = sqlite_trips(monkeypatch)
    db.check_every = 10**9  # type: ignore[attr-defined]  # no checkpoint trip in between (a SQLite setting)
    assert await service.records.rate(row.id) is True
    assert len(trips) == 2, trips  # the game's row read, then the rating in one trip
    assert await service.records.rate(row.id) is False
