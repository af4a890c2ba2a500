"""When a person may be disturbed: quiet hours in their own time zone, and time away, as moments (seconds since the
epoch, as the storage stamps them). The engines know no clock; this is the host's.

Quiet hours are a daily span of local time (``quiet_from`` to ``quiet_to``, minutes after midnight; across midnight
when it ends earlier than it starts) in the person's IANA time zone, so they follow daylight saving time. A turn
limit's clock stands still while a person it waits for is in their quiet hours or away (``paused``).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime, time, timedelta
from functools import cache
from typing import Final
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from bot.storage.settings import Availability

DAY: Final = 24 * 60  # minutes
LONGEST_QUIET: Final = 12 * 60  # minutes: quiet hours may not stop a turn limit's clock for longer than this a day

Span = tuple[float, float]  # from, to (moments)


@cache
def zone(name: str | None) -> ZoneInfo | None:
    """The time zone of an IANA name (None for no name or an unknown one)."""
    if not name:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


@cache
def zone_names() -> tuple[str, ...]:
    """Every IANA time zone name this machine knows, sorted (what ``/settings`` offers)."""
    return tuple(sorted(available_timezones()))


def quiet_length(start: int, end: int) -> int:
    """Minutes of quiet hours from ``start`` to ``end`` (0: none)."""
    return (end - start) % DAY


def _local(day: date, minutes: int, where: ZoneInfo) -> float:
    moment = datetime.combine(day, time(minutes // 60, minutes % 60), tzinfo=where)
    return moment.timestamp()


def quiet_spans(person: Availability, start: float, end: float) -> list[Span]:
    """The person's quiet hours that overlap ``start`` to ``end``, each as it falls on its own day."""
    where = zone(person.time_zone)
    if where is None or person.quiet_from is None or person.quiet_to is None:
        return []
    length = quiet_length(person.quiet_from, person.quiet_to)
    if not length:
        return []
    first = datetime.fromtimestamp(start, where).date() - timedelta(days=1)  # last evening's span may reach in
    last = datetime.fromtimestamp(end, where).date()
    spans = []
    day = first
    while day <= last:
        begins = _local(day, person.quiet_from, where)
        ends_on = day + timedelta(days=1) if person.quiet_to <= person.quiet_from else day
        ends = _local(ends_on, person.quiet_to, where)
        if ends > start and begins < end:
            spans.append((begins, ends))
        day += timedelta(days=1)
    return spans


def quiet_until(person: Availability, moment: float) -> float | None:
    """The end of the person's quiet hours under way at ``moment``, or None when they are not in them."""
    for begins, ends in quiet_spans(person, moment, moment):
        if begins <= moment < ends:
            return ends
    return None


def is_quiet(person: Availability, moment: float) -> bool:
    return quiet_until(person, moment) is not None


def is_away(person: Availability, moment: float) -> bool:
    """Whether the person is away at ``moment`` (from when they said so until the day they gave)."""
    if person.away_until is None or moment >= person.away_until:
        return False
    return person.away_since is None or person.away_since <= moment


def away_span(person: Availability) -> Span | None:
    if person.away_until is None:
        return None
    return (person.away_since if person.away_since is not None else float("-inf"), person.away_until)


def paused(people: Iterable[Availability], start: float, end: float) -> float:
    """Seconds between ``start`` and ``end`` during which any of ``people`` was in their quiet hours or away: the
    time a turn limit waiting for them does not count."""
    spans: list[Span] = []
    for person in people:
        spans += quiet_spans(person, start, end)
        away = away_span(person)
        if away is not None:
            spans.append(away)
    clipped = sorted((max(a, start), min(b, end)) for a, b in spans if b > start and a < end)
    total = 0.0
    reach = start
    for a, b in clipped:
        if b <= reach:
            continue
        total += b - max(a, reach)
        reach = b
    return total


def clock_ran(people: Iterable[Availability], start: float, now: float) -> float:
    """Seconds a turn limit's clock has run since ``start``: the wait less the paused time."""
    return max(0.0, now - start - paused(list(people), start, now))
