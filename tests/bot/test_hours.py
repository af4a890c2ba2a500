"""Quiet hours and time away as moments: in the person's own time zone, across midnight and daylight saving time,
and the time a turn limit's clock stands still for the people a game waits for."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from bot.host.hours import clock_ran, is_away, is_quiet, paused, quiet_spans, quiet_until, zone, zone_names
from bot.storage.settings import Availability

BERLIN = ZoneInfo("Europe/Berlin")
HOUR = 3600.0


def at(text: str, where: ZoneInfo = BERLIN) -> float:
    return datetime.fromisoformat(text).replace(tzinfo=where).timestamp()


def night_owl(start: int = 23 * 60, end: int = 7 * 60, where: str = "Europe/Berlin") -> Availability:
    return Availability(1, time_zone=where, quiet_from=start, quiet_to=end)


def test_quiet_hours_across_midnight_in_the_persons_own_time_zone() -> None:
    owl = night_owl()
    assert is_quiet(owl, at("2025-03-10 23:30")) and is_quiet(owl, at("2025-03-11 06:59"))
    assert not is_quiet(owl, at("2025-03-11 07:00")) and not is_quiet(owl, at("2025-03-10 12:00"))
    assert quiet_until(owl, at("2025-03-11 02:00")) == at("2025-03-11 07:00")
    assert quiet_until(owl, at("2025-03-11 12:00")) is None
    tokyo = night_owl(where="Asia/Tokyo")  # 23:30 in Berlin is 07:30 in Tokyo: awake there
    assert not is_quiet(tokyo, at("2025-03-10 23:30"))


def test_quiet_hours_follow_daylight_saving_time() -> None:
    owl = night_owl(1 * 60, 5 * 60)
    [(begins, ends)] = quiet_spans(owl, at("2025-03-30 00:00"), at("2025-03-30 12:00"))
    assert ends - begins == 3 * HOUR, "the night the clocks go forward has an hour less"
    [(begins, ends)] = quiet_spans(owl, at("2025-10-26 00:00"), at("2025-10-26 12:00"))
    assert ends - begins == 5 * HOUR, "and the night they go back an hour more"


def test_nobody_is_quiet_without_a_time_zone_or_hours() -> None:
    assert not is_quiet(Availability(1, quiet_from=0, quiet_to=600), at("2025-03-10 05:00"))
    assert not is_quiet(Availability(1, time_zone="Europe/Berlin"), at("2025-03-10 05:00"))
    assert not is_quiet(night_owl(where="Mars/Olympus"), at("2025-03-10 05:00"))
    assert zone("Mars/Olympus") is None and "Europe/Berlin" in zone_names()


def test_away_from_when_they_said_so_until_the_day_they_gave() -> None:
    away = Availability(1, away_since=at("2025-03-10 12:00"), away_until=at("2025-03-15 00:00"))
    assert is_away(away, at("2025-03-12 12:00"))
    assert not is_away(away, at("2025-03-10 11:00")) and not is_away(away, at("2025-03-15 00:00"))


def test_a_turn_limits_clock_stands_still_while_anyone_it_waits_for_sleeps_or_is_away() -> None:
    start, end = at("2025-03-10 20:00"), at("2025-03-11 20:00")
    owl = night_owl()  # 23:00 to 07:00: eight hours of the day
    early = Availability(2, time_zone="Europe/Berlin", quiet_from=21 * 60, quiet_to=5 * 60)  # 21:00 to 05:00
    assert paused([owl], start, end) == 8 * HOUR
    assert paused([owl, early], start, end) == 10 * HOUR, "overlapping nights count once: 21:00 to 07:00"
    away = Availability(3, away_since=at("2025-03-11 06:00"), away_until=at("2025-03-11 10:00"))
    assert paused([owl, away], start, end) == 11 * HOUR  # 23:00 to 10:00
    assert clock_ran([owl, away], start, end) == 13 * HOUR
    assert clock_ran([], start, end) == 24 * HOUR
