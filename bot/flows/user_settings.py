"""What ``/settings`` does: ``/settings notifications`` (turn DMs, the time zone and quiet hours; with nothing given
it shows them) and ``/settings away until:<date>``, with the autocompletes of their options.

Quiet hours are typed the way people write them, in any script ("23:00-07:00", "23-7", 「２３：００～７：００」,
"23:00 до 7:00") or chosen from the suggestions, and are in the person's own time zone (an IANA name, such as
Europe/Berlin, chosen from the list). The day someone is back is a date ("2025-07-01", "1.7.2025",
「2025年7月1日」) or one of the next days offered; their time away ends at its midnight in their time zone (UTC
until they set one). A refusal changes nothing.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from typing import TYPE_CHECKING, Final

import discord
from babel.dates import format_date
from discord import app_commands

from bot.core.components import PAGE, controls
from bot.flows import away as away_flows
from bot.flows.presence import when
from bot.host import HostError
from bot.host.hours import LONGEST_QUIET, is_away, quiet_length, zone, zone_names
from bot.storage.settings import Availability
from bot.text import t
from bot.text.i18n import BABEL_LOCALES, language
from bot.text.limits import LABEL

if TYPE_CHECKING:
    from bot.core.host import Host

DAY: Final = 24 * 3600
LONGEST_AWAY: Final = 90  # days
OFF: Final = frozenset({"off", "none", "no", "-"})
SEPARATOR: Final = r"\s*(?:-|–|—|~|to|до|по|至|到)\s*"
CLOCK: Final = r"(\d{1,2})(?:[:.](\d{2}))?"
HOURS: Final = re.compile(CLOCK + SEPARATOR + CLOCK)
DATES: Final = (  # year, month, day: ISO (and with / or .), Russian day.month.year, Chinese 年月日
    (re.compile(r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})"), (1, 2, 3)),
    (re.compile(r"(\d{1,2})\.(\d{1,2})\.(\d{4})"), (3, 2, 1)),
    (re.compile(r"(\d{4})年(\d{1,2})月(\d{1,2})[日号]?"), (1, 2, 3)),
)
QUIET_SUGGESTIONS: Final = ((22, 7), (23, 7), (23, 8), (0, 8), (22, 6), (21, 7), (1, 9))
# Time zones offered before anything is typed: the reader's language's first.
COMMON_ZONES: Final = (
    "UTC",
    "Europe/London",
    "Europe/Berlin",
    "Europe/Moscow",
    "America/New_York",
    "America/Chicago",
    "America/Denver",
    "America/Los_Angeles",
    "America/Sao_Paulo",
    "Asia/Shanghai",
    "Asia/Taipei",
    "Asia/Hong_Kong",
    "Asia/Tokyo",
    "Asia/Kolkata",
    "Australia/Sydney",
)
FIRST_ZONES: Final = {"zh-CN": ("Asia/Shanghai",), "zh-TW": ("Asia/Taipei",), "ru": ("Europe/Moscow",)}


def plain(text: str) -> str:
    """What was typed, with full-width digits and punctuation made ordinary, in lower case."""
    return unicodedata.normalize("NFKC", text).strip().lower()


# -- reading what was typed ------------------------------------------------------------------------------------


def time_zone_named(text: str) -> str:
    """The IANA time zone ``text`` names (any case, spaces for underscores); HostError when there is none."""
    wanted = plain(text).replace(" ", "_")
    for name in zone_names():
        if name.lower() == wanted:
            return name
    raise HostError("unknown_time_zone", zone=text.strip()[:LABEL])


def quiet_hours(text: str) -> tuple[int, int] | None:
    """Quiet hours as (from, to) minutes after midnight, or None for "off"; HostError for anything else."""
    typed = plain(text)
    if typed in OFF:
        return None
    found = HOURS.fullmatch(typed)
    if found is None:
        raise HostError("bad_quiet_hours")
    start, end = _minutes(found[1], found[2]), _minutes(found[3], found[4])
    if start is None or end is None or quiet_length(start, end) == 0:
        raise HostError("bad_quiet_hours")
    if quiet_length(start, end) > LONGEST_QUIET:
        raise HostError("quiet_too_long", count=LONGEST_QUIET // 60)
    return start, end


def _minutes(hours: str, minutes: str | None) -> int | None:
    h, m = int(hours), int(minutes or 0)
    if h > 24 or m > 59 or (h == 24 and m):
        return None
    return (h * 60 + m) % (24 * 60)


def clock(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def hours_text(start: int, end: int) -> str:
    return f"{clock(start)}-{clock(end)}"


def day_named(text: str) -> date:
    """The date ``text`` gives; HostError when it gives none."""
    typed = plain(text)
    for pattern, (y, m, d) in DATES:
        found = pattern.match(typed)
        if found is not None:
            try:
                return date(int(found[y]), int(found[m]), int(found[d]))
            except ValueError:
                break
    raise HostError("bad_date")


def where(known: Availability) -> tzinfo:
    return zone(known.time_zone) or UTC


# -- the commands ------------------------------------------------------------------------------------------------


async def notifications(
    bot: Host,
    interaction: discord.Interaction,
    dm_on_turn: bool | None,
    time_zone: str | None,
    quiet: str | None,
) -> None:
    """``/settings notifications``: change what was given (all of it, or nothing if any of it is refused), then
    show every setting."""
    user = interaction.user.id
    known = (await bot.people.availability([user]))[user]
    named = time_zone_named(time_zone) if time_zone is not None else None
    hours = quiet_hours(quiet) if quiet is not None else None
    if hours is not None and named is None and zone(known.time_zone) is None:
        raise HostError("quiet_needs_time_zone")
    if named is not None:
        await bot.people.set_time_zone(user, named)
    if quiet is not None:
        await bot.people.set_quiet(user, *(hours or (None, None)))
    if dm_on_turn is not None:
        await bot.people.set_dm_on_turn(user, dm_on_turn)
    known = (await bot.people.availability([user]))[user]
    await interaction.response.send_message(summary(known, bot.rows.clock()), ephemeral=True)


def summary(known: Availability, moment: float) -> str:
    """Every setting of the reader, one line each, in the current language."""
    lines = [t("settings.dm_on" if known.dm_on_turn else "settings.dm_off")]
    local = zone(known.time_zone)
    if local is None:
        lines.append(t("settings.no_time_zone"))
    else:
        lines.append(
            t("settings.time_zone", zone=known.time_zone, time=datetime.fromtimestamp(moment, local).strftime("%H:%M"))
        )
    if local is not None and known.quiet_from is not None and known.quiet_to is not None:
        lines.append(t("settings.quiet", start=clock(known.quiet_from), end=clock(known.quiet_to)))
    else:
        lines.append(t("settings.no_quiet"))
    if known.away_until is not None and is_away(known, moment):
        lines.append(t("settings.away", until=when(known.away_until)))
    return "\n".join(lines)


async def away(bot: Host, interaction: discord.Interaction, until: str) -> None:
    """``/settings away until:<date>``: away from now until that day begins in the reader's time zone; the reply
    carries the *I'm back* button. Then computers take the seats waiting for them, where the hosts chose so."""
    user = interaction.user.id
    known = (await bot.people.availability([user]))[user]
    moment = datetime.combine(day_named(until), time(0), tzinfo=where(known)).timestamp()
    now = bot.rows.clock()
    if moment <= now:
        raise HostError("date_past")
    if moment > now + LONGEST_AWAY * DAY:
        raise HostError("date_too_far", count=LONGEST_AWAY)
    await bot.people.go_away(user, moment)
    view = controls()
    view.add_item(away_flows.back_button())
    key = "away.set" if zone(known.time_zone) is not None else "away.set_utc"
    await interaction.response.send_message(t(key, until=when(moment)), view=view, ephemeral=True)
    for row in await bot.rows.open_of(user):
        await away_flows.stand_in(bot, row)


# -- autocomplete ------------------------------------------------------------------------------------------------


def zone_choices(current: str) -> list[app_commands.Choice[str]]:
    """Time zones whose name (or city) begins with what was typed, then those that contain it."""
    wanted = plain(current).replace(" ", "_")
    if not wanted:
        found: Sequence[str] = [*FIRST_ZONES.get(language(), ()), *COMMON_ZONES]
    else:
        names = zone_names()
        starts = [n for n in names if n.lower().startswith(wanted) or n.lower().rsplit("/", 1)[-1].startswith(wanted)]
        found = [*starts, *(n for n in names if wanted in n.lower() and n not in starts)]
    return [app_commands.Choice(name=n, value=n) for n in dict.fromkeys(found)][:PAGE]


def quiet_choices(current: str) -> list[app_commands.Choice[str]]:
    """What was typed, read as quiet hours, then the usual nights; and no quiet hours at all."""
    found: list[tuple[int, int]] = []
    try:
        typed = quiet_hours(current) if current.strip() else None
    except HostError:
        typed = None
    if typed is not None:
        found.append(typed)
    digits = re.sub(r"\D", "", plain(current))
    for start, end in QUIET_SUGGESTIONS:
        text = hours_text(start * 60, end * 60)
        if not digits or re.sub(r"\D", "", text).startswith(digits):
            found.append((start * 60, end * 60))
    choices = [app_commands.Choice(name=hours_text(*hours), value=hours_text(*hours)) for hours in dict.fromkeys(found)]
    return [*choices[: PAGE - 1], app_commands.Choice(name=t("settings.quiet_off_choice"), value="off")]


async def day_choices(bot: Host, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The next days in the reader's time zone, each with its weekday in their language; what was typed first."""
    user = interaction.user.id
    known = (await bot.people.availability([user]))[user]
    today = datetime.fromtimestamp(bot.rows.clock(), where(known)).date()
    days = [today + timedelta(days=n) for n in range(1, PAGE + 1)]
    try:
        typed = day_named(current) if current.strip() else None
    except HostError:
        typed = None
    typed_text = plain(current)
    if typed is not None and typed > today:
        days = [typed, *(d for d in days if d != typed)]
    elif typed_text:
        days = [d for d in days if d.isoformat().startswith(typed_text)] or days
    locale = BABEL_LOCALES.get(language(), "en")
    return [
        app_commands.Choice(
            name=f"{d.isoformat()} · {format_date(d, format='full', locale=locale)}"[:LABEL], value=d.isoformat()
        )
        for d in days[:PAGE]
    ]
