"""``/game mine``, quiet hours and time away through the real process (``python -m bot``) against the loopback fake
Discord, as a player meets them: the settings autocompleted and saved, a turn that pings a sleeping player silently
(Discord's suppress-notifications flag), the list of one's games and the *My games* button of a turn DM, time away
that the others see and a computer covers where the host chose it, and back with one click."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from bot.local.loopback import Message
from bot.local.loopback.payloads import SUPPRESS_NOTIFICATIONS
from tests.process.conftest import Launcher
from tests.process.people import Person, Table, WatchedDiscord, components


def button(message: Message, label: str) -> dict[str, object]:
    found = [c for c in components(message) if c.get("label") == label]
    assert found, f"no {label!r} button in {[c.get('label') for c in components(message)]}"
    return found[0]


async def test_quiet_hours_my_games_and_time_away_through_the_real_process(tmp_path: Path) -> None:
    fake = WatchedDiscord()
    await fake.start()
    launcher = Launcher(tmp_path, fake)
    try:
        code, sync = await launcher.run("sync", "--guild", str(fake.guild_id))
        assert code == 0, sync.log
        alice, bob = Person(fake.add_user("Alice"), "Alice"), Person(fake.add_user("Bob"), "Bob")
        database = launcher.tmp / "boardhost.sqlite3"
        bot = await launcher.start()
        await fake.wait_ready(timeout=30)
        here = Table(fake, database, "carcassonne", [alice, bob], fake.channel_id, 3, {"first_player": 1})
        there = Table(fake, database, "carcassonne", [alice, bob], fake.add_channel("there"), 4, {"first_player": 0})

        # Bob's settings: his time zone autocompleted, quiet hours from this hour of the day on (UTC)
        offered = await here.autocomplete(bob, "settings notifications", "time_zone", time_zone="berl")
        assert offered[0]["value"] == "Europe/Berlin"
        hour = datetime.now(UTC).hour
        hours = f"{hour:02d}:00-{(hour + 2) % 24:02d}:00"
        saved = await here.reply(await here.slash(bob, "settings notifications", time_zone="UTC", quiet_hours=hours))
        assert saved.ephemeral and f"Quiet hours: {hours.replace('-', ' to ')}, your time." in saved.content
        turn_dms = await here.reply(await here.slash(alice, "settings notifications", dm_on_turn=True))
        assert turn_dms.content.startswith("Turn DMs: on.")

        # Bob plays first here, in his quiet hours: the turn pings him silently
        await here.open("carcassonne new", river=False)
        first = here.turn_message()
        assert f"<@{bob.id}>, place the drawn tile" in first.content
        assert first.flags & SUPPRESS_NOTIFICATIONS and bob.id in first.pings.users

        # Alice plays first there (a computer covers her while she is away): her turn DM has the My games button
        await there.open("carcassonne new", river=False, away="computer")
        assert not there.turn_message().flags & SUPPRESS_NOTIFICATIONS, "alice has no quiet hours"
        dm = await fake.wait_for(lambda: next(iter(fake.dms(alice.id)), None), timeout=20)
        assert "It is your turn in Carcassonne" in dm.content
        listed = await here.reply(await here.click(alice, dm, button(dm, "My games")))
        assert listed.ephemeral
        entries = str(listed.embeds[0]["description"]).split("\n\n")
        assert entries[0].startswith(f"**Carcassonne** in <#{there.channel_id}>") and "Your turn since" in entries[0]
        assert "Waiting for Bob since" in entries[1] and f"/{here.channel_id}/{first.id})" in entries[1]
        mine = await here.reply(await here.slash(bob, "game mine"))
        assert mine.ephemeral and str(mine.embeds[0]["title"]) == "Your games: 1 waits for you"

        # Alice is away until the day after tomorrow: a computer plays her turn there, the others see it here
        days = await here.autocomplete(alice, "settings away", "until", until="")
        back_on = (date.today() + timedelta(days=2)).isoformat()
        assert back_on in [d["value"] for d in days]
        away = await here.reply(await here.slash(alice, "settings away", until=back_on))
        assert away.ephemeral and away.content.startswith("You are away until <t:")
        notice = await fake.wait_message(there.channel_id, where=lambda m: "Alice is away until" in m.content)
        assert "so a computer player" in notice.content and f"<@{alice.id}>" not in notice.content
        status = await here.reply(await here.slash(bob, "game status"))
        assert "💤 Alice is away until <t:" in str(status.embeds[0]["description"])

        # Back early, with one click
        welcome = await here.reply(await here.click(alice, away, button(away, "I'm back")))
        assert welcome.ephemeral and welcome.content.startswith("Welcome back!")
        await fake.wait_message(there.channel_id, where=lambda m: "Alice is back and plays again." in m.content)

        bot.terminate()
        assert await bot.wait(timeout=10) == 0
        bot.assert_no_traceback()
        fake.check()
    finally:
        for started in launcher.started:
            started.kill()
            await started.proc.wait()
        await fake.stop()
