"""Both games at once through the real processes, as a server would host them: ``python -m bot sync --guild ID``,
then ``python -m bot``, against the fake Discord; a Carcassonne game (River + Tower, two people) in one channel and a
Catan game (three people) in another, played only through interactions (``people.py``). Midway, while each game
has a private prompt open (Carcassonne's rotation buttons, a Catan menu), the bot is killed with SIGKILL and started
again; both games go on with the messages sent before.

``play_both`` plays them and checks, for each game: the test's replay and the bot's ``/game export`` agree; no
request broke Discord's limits; the bot's log has no traceback; nothing secret reached the channel
(``secrets.py``); the story of the game after the final scores is the test's own (picture, alt text, ratings);
``/stats`` ranks the players as rating the test's own results does, and a player's card draws their rating.
The test (``test_whole_games.py``) and the latency bench (``bench/interaction_latency.py``)
both call it. The channels' rate limit (5 messages in 5 seconds) sets the pace: about a message a second each.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import render
from bot.core.rendering import Job, draw
from bot.flows.leaderboard import CHART
from bot.host.skill import Player, RatedGame, Standing, placings, rate
from bot.lineup import GAMES
from bot.text import t
from bot.text.alt import describe as describe_with
from bot.text.i18n import decimal, speaking
from bot.text.story_words import rating_line
from engine.history import GameLog, frames
from engine.replay import play
from engine.story import story
from tests.bot.fuzzing import Catalogue
from tests.process.carcassonne_play import CarcassonnePeople
from tests.process.catan_play import GOALS, CatanPeople, Script
from tests.process.conftest import BotProcess, Launcher
from tests.process.people import Person, Table, WatchedDiscord
from tests.process.secrets import (
    alt_texts,
    boards,
    catan_scores,
    images,
    leaks,
    private_lines,
    same_picture,
    stories,
    timelapses,
)


def describe(job: Job) -> str | None:
    """The alt text of ``job``'s picture, its game's part told by that game's adapter (as the bot does)."""
    view = job.args[0] if job.args else None
    game = view.get("game") if isinstance(view, dict) else None
    words = next((adapter.words for adapter in GAMES if adapter.name == game), None)
    return describe_with(job, words)


# Found with carcassonne_play.play_through and catan_play.search: every event the test must see happens.
CARCASSONNE_SEED = 6
CATAN_SEED, CATAN_POINTS = 1165, 5
CARCASSONNE_IMAGES_CHECKED = 12  # drawing a Carcassonne board takes a fifth of a second: a sample, and the last


@dataclass
class Played:
    fake: WatchedDiscord
    tables: list[Table]
    seconds: float
    bots: list[BotProcess] = field(default_factory=list)
    carcassonne_events: dict[str, int] = field(default_factory=dict)
    catan_goals: set[str] = field(default_factory=set)

    def latencies(self) -> list[float]:
        return self.fake.latencies()


class Restart:
    """Kill -9 the bot once every game has reached its pause, start it again, and let them all go on."""

    def __init__(self, launcher: Launcher, fake: WatchedDiscord, bots: list[BotProcess], games: int) -> None:
        self.launcher, self.fake, self.bots = launcher, fake, bots
        self.waiting = games
        self.done = asyncio.Event()

    async def pause(self) -> None:
        self.waiting -= 1
        if self.waiting == 0:
            await self._restart()
        await self.done.wait()

    async def leave(self) -> None:
        """A game that ended before its pause (it should not): the others need not wait for it."""
        self.waiting -= 1
        if self.waiting == 0 and not self.done.is_set():
            await self._restart()

    async def _restart(self) -> None:
        bot = self.bots[-1]
        bot.kill()
        await bot.wait(timeout=10)
        assert bot.proc.returncode == -9, bot.proc.returncode
        self.bots.append(await running_bot(self.launcher, self.fake))
        self.done.set()


async def running_bot(launcher: Launcher, fake: WatchedDiscord) -> BotProcess:
    before = fake.identified + fake.resumed
    bot = await launcher.start()
    await fake.wait_for(lambda: fake.identified + fake.resumed > before, timeout=30)
    return bot


def dump(fake: WatchedDiscord, table: Table, bot: BotProcess, action: object) -> str:
    """What a failure needs to be understood: the log's end, the action, the last messages and interactions."""
    lines = [bot.log[-3000:], f"action {action} at version {table.version}"]
    for m in fake.messages[table.channel_id][-3:]:
        lines.append(f"message {m.id}: {m.content!r} {m.custom_ids()} {[a.filename for a in m.attachments]}")
    for i in list(fake.interactions.values())[-3:]:
        lines.append(f"interaction {i.payload['data']} answered {i.answers} followups {i.followups}")
    # What the channel's rate limit counted: the requests that touched its messages lately, and the messages deleted.
    for e in [e for e in fake.exchanges if f"/channels/{table.channel_id}/messages" in e.path][-25:]:
        lines.append(
            f"{e.started:.2f} {e.route} -> {e.status} {e.code or ''} nonce {e.nonce} message {e.message_id}"
            f"{' (deduplicated)' if e.deduplicated else ''} answered {e.answered and f'{e.answered:.2f}'}"
        )
    gone = [m for m in fake.deleted_messages if m.channel_id == table.channel_id][-5:]
    lines += [f"deleted {m.id}: {m.content[:80]!r} {[a.filename for a in m.attachments]}" for m in gone]
    # Everything, beside the database: the bot's whole log, every request and every interaction.
    report = table.database.parent / f"failure-{table.kind}.txt"
    whole = [f"now: wall {time.time():.2f}, monotonic {time.monotonic():.2f}", bot.log, "-- requests"]
    for e in fake.exchanges:
        answered = e.answered and f"{e.answered:.2f}"
        whole.append(f"{e.started:.2f} {e.route} -> {e.status} {e.code or ''} nonce {e.nonce} answered {answered}")
    whole.append("-- interactions")
    for i in fake.interactions.values():
        whole.append(f"{i.sent_at:.2f} {i.payload['data']} answered {i.answers} followups {len(i.followups)}")
    report.write_text("\n".join(whole), encoding="utf-8")
    lines.append(f"the whole log, every request and interaction: {report}")
    return "\n".join(lines)


async def play_carcassonne(table: Table, restart: Restart, bots: list[BotProcess]) -> dict[str, int]:
    await table.open("carcassonne new", river=True, tower=True)
    play = CarcassonnePeople(table)
    play.pause, play.pause_from = restart.pause, 100
    counts: dict[str, int] = {}
    while not table.engine.finished:
        if restart.done.is_set() and not table.boards:  # the bot just came back: people look at the game
            await table.look(table.people[1])
        action = play.next_action()
        try:
            events = await play.perform(action)
        except BaseException as err:
            raise AssertionError(dump(table.fake, table, bots[-1], action)) from err  # type: ignore[arg-type]
        for event in [action, *events]:
            counts[event["type"]] = counts.get(event["type"], 0) + 1
        if action.get("capture"):
            counts["capture"] = counts.get("capture", 0) + 1
    if play.pause is not None:
        await restart.leave()
    return counts


async def play_catan(table: Table, restart: Restart, bots: list[BotProcess]) -> set[str]:
    await table.open("catan new", points_to_win=CATAN_POINTS)
    script = Script(CATAN_SEED)
    play = CatanPeople(table, script)
    play.pause, play.pause_from = restart.pause, 50
    while not table.engine.finished:
        if restart.done.is_set() and not table.boards:  # the bot just came back: people look at the game
            await table.look(table.people[2])
        action = play.next_action()
        try:
            await play.perform(action)
        except BaseException as err:
            raise AssertionError(dump(table.fake, table, bots[-1], action)) from err  # type: ignore[arg-type]
    if play.pause is not None:
        await restart.leave()
    return script.done


async def exported(table: Table) -> dict[str, Any]:
    """``/game export`` in the table's channel: the replay file the bot attaches."""
    asked = await table.slash(table.people[0], "game export")
    message = await table.reply(asked)
    assert message.attachments, message
    data: dict[str, Any] = json.loads(message.attachments[0].data)
    return data


def game_log(table: Table) -> GameLog:
    return GameLog(table.kind, tuple(p.name for p in table.people), table.options, table.seed, tuple(table.log))


def ratings(table: Table) -> dict[Player, Standing]:
    """The players' ratings after the table's game, from the test's own result (each game is its server's first of
    its kind: rated from nothing)."""
    result = table.engine.result()
    seats = placings([Player(p.id) for p in table.people], result["scores"], result["winners"])
    return rate({}, RatedGame(table.game_id, 0.0, seats))[0]


async def told(table: Table) -> None:
    """Wait for the story of the table's game, posted after the final scores."""
    fake = table.fake
    assert isinstance(fake, WatchedDiscord)
    await fake.wait_for(lambda: stories(fake.states(table.channel_id), table) or None, timeout=60)


async def check_stats(tables: list[Table]) -> None:
    """``/stats`` ranks every player of both games by the rating the test's own results give, and a player's card
    shows their rating and draws its chart (asked in English)."""
    table = tables[0]
    asker = table.people[1]
    assert asker.locale == "en-US"
    answer = await table.reply(await table.slash(asker, "stats"))
    fields = {f["name"]: f["value"] for f in answer.embeds[0]["fields"]}
    with speaking("en"):
        for each in tables:
            board = fields[t("cmd.stats.board", game=t(f"game.{each.kind}"))]
            for player, standing in ratings(each).items():
                line = f"<@{player.user_id}> — {decimal(standing.rating)} · {t('cmd.stats.games', count=1)}"
                assert line in board, f"{line!r} not in {board!r}"
        person = table.people[0]
        rating = ratings(table)[Player(person.id)].rating
        job = Job(render.rating_chart_png, t("cmd.stats.chart_title", name=person.name), [(table.kind, (rating,))])
        words = describe(job)
    card = await table.reply(await table.slash(asker, "stats", player=person.id))
    assert decimal(rating) in card.embeds[0]["description"], card.embeds[0]
    (chart,) = card.attachments
    assert chart.filename == CHART and chart.description == words
    assert same_picture(chart.data, await asyncio.to_thread(draw, job)), "the rating chart is not the player's rating"


def check_story(table: Table, states: list[Any], expected: bytes) -> None:
    """One story message after the final scores: the test's own story in the picture and its words, and every
    player's rating change as rating the test's own result gives it."""
    (shown, *edits) = stories(states, table)
    assert all(e.message_id == shown.message_id for e in edits), "the story was posted more than once"
    (picture,) = shown.attachments
    assert same_picture(picture.data, expected), f"{table.kind}: the story is not the test's replay's"
    job = Job(render.story_png, story(game_log(table)))
    after = ratings(table)
    changes = [(seat, Standing().rating, after[Player(p.id)].rating) for seat, p in enumerate(table.people)]
    with speaking("en"):
        assert picture.description == describe(job), f"{table.kind}: the story's alt text is another's"
        caption = f"**{t('story.caption', game=t(f'game.{table.kind}'))}**"
        rated = rating_line(changes, [p.name for p in table.people])
    lines = shown.content.splitlines()
    assert lines[0] == caption and lines[-1:] == rated, lines


def check_replay(table: Table, replay: dict[str, Any]) -> None:
    """The bot's replay file plays to the test's own game (same seed, options, actions)."""
    assert replay["seed"] == table.seed
    replayed = play(replay)
    assert replayed.finished and replayed.result() == table.engine.result(), replayed.result()
    assert replayed.view(None) == table.engine.view(None), f"{table.kind}: the export ends elsewhere than the test"


async def check_channel(table: Table, catalogue: Catalogue) -> None:
    fake = table.fake
    assert isinstance(fake, WatchedDiscord)
    states = fake.states(table.channel_id)
    found = leaks(states, private_lines(fake), catalogue)
    assert not found, "secrets in the channel:\n" + "\n".join(found)
    if table.kind == "catan":
        wrong = catan_scores(states, table)
        assert not wrong, "scores that are not the spectator's:\n" + "\n".join(wrong)
    shown = images(states, table)
    assert max(shown) == table.version, "the last turn message has no image"
    versions = sorted(shown)
    if table.kind == "carcassonne":
        step = max(1, len(versions) // CARCASSONNE_IMAGES_CHECKED)
        versions = sorted({*versions[::step], versions[-1]})
    described = alt_texts(states, table)
    for version in versions:
        job = table.jobs[version]
        expected = await asyncio.to_thread(draw, job)
        if not same_picture(shown[version], expected):
            raise AssertionError(
                f"{table.kind} version {version}: the image is not the spectator's {job.function.__name__}; "
                + kept(table, f"turn-{version}", shown[version], expected)
            )
        with speaking("en"):  # the channel's language, as the images' labels
            words = describe(job)
        assert words and described[version] == words, f"{table.kind} version {version}: the alt text is another's"
    expected = await asyncio.to_thread(draw, Job(render.story_png, story(game_log(table))))
    check_story(table, states, expected)
    for data in timelapses(states, table):
        views = [view for _, view in frames(game_log(table))]
        expected = await asyncio.to_thread(draw, Job(render.timelapse_bytes, views))
        assert same_picture(data, expected), f"{table.kind}: the timelapse is not the spectator's board, turn by turn"
    posted = boards(states, table)
    assert posted and len(table.boards) == 1, posted
    for version, data in posted:
        expected = await asyncio.to_thread(draw, Job(render.board_png, table.views[version]))
        if not same_picture(data, expected):
            others = [v for v, view in table.views.items() if same_picture(data, draw(Job(render.board_png, view)))]
            raise AssertionError(
                f"{table.kind}: /game board is not the spectator's at version {version} (it is at {others}); "
                + kept(table, "board", data, expected)
            )


def kept(table: Table, name: str, posted: bytes, expected: bytes) -> str:
    """Keep a picture that differs from the test's beside the database, with the test's own; where they are, and
    which other versions' pictures (drawn as the turn messages are) the posted one is."""
    folder = table.database.parent
    (folder / f"{table.kind}-{name}-posted.png").write_bytes(posted)
    (folder / f"{table.kind}-{name}-expected.png").write_bytes(expected)
    same = [v for v, job in table.jobs.items() if same_picture(posted, draw(job))]
    return f"the posted picture is the test's at versions {same}; both pictures are in {folder}"


async def play_both(tmp: Path) -> Played:
    fake = WatchedDiscord()
    await fake.start()
    launcher = Launcher(tmp, fake)
    bots: list[BotProcess] = []
    try:
        started = time.monotonic()
        code, sync = await launcher.run("sync", "--guild", str(fake.guild_id))
        assert code == 0, sync.log
        sync.assert_no_traceback()
        database = tmp / "boardhost.sqlite3"
        carcassonne = Table(
            fake,
            database,
            "carcassonne",
            people(fake, ("Алиса", "ru"), ("Bob", "en-US")),
            fake.add_channel("carcassonne"),
            CARCASSONNE_SEED,
        )
        catan = Table(
            fake,
            database,
            "catan",
            people(fake, ("陈", "zh-CN"), ("林", "zh-TW"), ("Élodie", "en-GB")),
            fake.add_channel("catan"),
            CATAN_SEED,
        )
        bots.append(await running_bot(launcher, fake))
        restart = Restart(launcher, fake, bots, 2)
        counts, goals = await asyncio.gather(
            play_carcassonne(carcassonne, restart, bots), play_catan(catan, restart, bots)
        )
        seconds = time.monotonic() - started
        catalogue = Catalogue()
        for table in (carcassonne, catan):
            check_replay(table, await exported(table))
            await told(table)
        await check_stats([carcassonne, catan])
        bot = bots[-1]
        bot.terminate()
        assert await bot.wait(timeout=10) == 0
        for table in (carcassonne, catan):
            await check_channel(table, catalogue)
        for each in bots:
            each.assert_no_traceback()
            assert "Can't keep up" not in each.log, each.log  # the fake's heartbeats answer as Discord's do
        fake.check()
        return Played(fake, [carcassonne, catan], seconds, bots, counts, goals)
    finally:
        for bot in launcher.started:
            bot.kill()
            await bot.proc.wait()
        await fake.stop()


def people(fake: WatchedDiscord, *who: tuple[str, str]) -> list[Person]:
    """People with 32-character names (the longest Discord allows), each with their client's language."""
    out = []
    for name, locale in who:
        long = ((name + " ") * 32)[:31] + name[0]
        out.append(Person(fake.add_user(long), long, locale))
    return out


__all__ = ["GOALS", "Played", "play_both"]
