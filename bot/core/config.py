"""Settings from a TOML file (optional), then environment variables; the token only from DISCORD_TOKEN.

Without a file every setting has its documented default (``config.example.toml``). ``BOARDHOST_DATABASE``,
``BOARDHOST_LANGUAGE`` and ``BOARDHOST_RENDER_PROCESSES`` override the file, so a container needs no config file.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

DEFAULT_PATH = Path("config.toml")
TOKEN_HELP = (  # one line: what to do next, and where every step is
    "no bot token: DISCORD_TOKEN is not set. Make one at https://discord.com/developers/applications "
    "(New Application, then Bot, Reset Token), run export DISCORD_TOKEN=<the token> and python -m bot again; "
    'every step to a game in your server: README.md, "Your Discord server in five steps"'
)


class ConfigError(Exception):
    pass


# Every setting the file may hold, by section (config.example.toml documents each one). Anything else is refused
# when the file loads, so that a misspelt key does not silently fall back to its default.
KNOWN: dict[str, tuple[str, ...]] = {
    "database": ("path", "url"),
    "language": ("default",),
    "reminders": ("after_minutes", "check_every_seconds"),
    "discord": (
        "application_id",
        "dev_guild",
        "rest_base_url",
        "gateway_url",
        "give_up_after_seconds",
        "archive_after_hours",
        "shard_count",
        "shard_ids",
    ),
    "render": ("processes",),
    "computer": ("pause_seconds", "offer_wait_seconds"),
}


def _check_known(data: dict[str, Any]) -> None:
    for section, values in data.items():
        if section not in KNOWN:
            raise ConfigError(f"unknown section [{section}] (known sections: {', '.join(KNOWN)})")
        if not isinstance(values, dict):
            raise ConfigError(f"{section} must be a section ([{section}]), not a single value")
        for key in values:
            if key not in KNOWN[section]:
                known = ", ".join(KNOWN[section])
                raise ConfigError(f"unknown setting [{section}] {key} (known in [{section}]: {known})")


@dataclass(frozen=True, slots=True)
class Config:
    database: str | Path = Path("boardhost.sqlite3")  # a SQLite path, or a URL: sqlite:///PATH, postgresql://...
    default_language: str = "en"
    reminder_after: tuple[int, ...] = (12 * 3600, 24 * 3600)  # seconds of idleness before each reminder
    reminder_check: int = 60  # seconds between reminder sweeps
    dev_guild: int | None = None
    application_id: int | None = None  # only for `python -m bot invite`
    rest_base_url: str | None = None
    gateway_url: str | None = None
    give_up_after: float = 300.0  # seconds without a gateway connection before the bot exits (0: never)
    archive_after: float = 72 * 3600.0  # seconds a game waits for its deleted channel before it is archived
    render_processes: int = 2  # drawing processes; 0: draw images in threads of the bot's process
    computer_pause: float = 1.5  # seconds a computer player waits before its move (0 in tests)
    computer_offer_wait: float = 120.0  # seconds a computer's trade offer stays open for people to answer
    shard_count: int | None = None  # Discord shards of the whole bot (None: one process, no sharding)
    shard_ids: tuple[int, ...] | None = None  # the shards this process runs (None: all of them)


def _get(data: dict[str, Any], section: str, key: str, kind: type | tuple[type, ...], default: Any) -> Any:
    value = data.get(section, {}).get(key, default)
    if value is not default and not isinstance(value, kind):
        name = " or ".join(k.__name__ for k in kind) if isinstance(kind, tuple) else kind.__name__
        raise ConfigError(f"[{section}] {key} must be a {name}, not {value!r}")
    return value


DATABASE_SCHEMES = ("sqlite:///", "postgresql://", "postgres://")


def database_url(url: str, where: str) -> str:
    """``url`` if it names a database boardhost can use."""
    if not url.startswith(DATABASE_SCHEMES):
        raise ConfigError(f"{where} must start with sqlite:/// (a file) or postgresql://, not {url.split(':')[0]!r}")
    return url


def load_config(path: Path | None = None) -> Config:
    """Read ``path`` (or $BOARDHOST_CONFIG, or ./config.toml; a missing default file means all defaults), then
    apply the environment's overrides."""
    return from_environment(_from_file(path), os.environ)


def from_environment(config: Config, environ: Mapping[str, str]) -> Config:
    """``config`` with the settings the environment gives (``BOARDHOST_DATABASE``, ``BOARDHOST_LANGUAGE``,
    ``BOARDHOST_RENDER_PROCESSES``)."""
    changes: dict[str, Any] = {}
    if environ.get("BOARDHOST_DATABASE"):
        target = environ["BOARDHOST_DATABASE"]  # a SQLite path, or a URL (sqlite:///PATH, postgresql://...)
        changes["database"] = database_url(target, "BOARDHOST_DATABASE") if "://" in target else Path(target)
    if environ.get("BOARDHOST_LANGUAGE"):
        changes["default_language"] = environ["BOARDHOST_LANGUAGE"]
    if environ.get("BOARDHOST_RENDER_PROCESSES"):
        value = environ["BOARDHOST_RENDER_PROCESSES"]
        try:
            number = int(value)
        except ValueError:
            raise ConfigError(f"BOARDHOST_RENDER_PROCESSES must be a whole number, not {value!r}") from None
        changes["render_processes"] = _render_processes(number)
    return replace(config, **changes)


def _from_file(path: Path | None) -> Config:
    explicit = path or (Path(os.environ["BOARDHOST_CONFIG"]) if os.environ.get("BOARDHOST_CONFIG") else None)
    target = explicit or DEFAULT_PATH
    if not target.exists():
        if explicit:
            raise ConfigError(f"config file {target} not found (copy config.example.toml)")
        return Config()
    try:
        data = tomllib.loads(target.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{target}: {err}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{target} is not UTF-8 text") from None
    try:
        _check_known(data)
    except ConfigError as err:
        raise ConfigError(f"{target}: {err}") from None
    from bot.text.i18n import LANGUAGES  # lazy: Babel and the catalogues load only to check a config file

    language = _get(data, "language", "default", str, "en")
    if language not in LANGUAGES:
        raise ConfigError(f"[language] default {language!r} is not supported (supported: {', '.join(LANGUAGES)})")
    minutes = _get(data, "reminders", "after_minutes", list, [720, 1440])
    if not all(isinstance(m, int) and m > 0 for m in minutes):
        raise ConfigError("[reminders] after_minutes must be a list of positive whole numbers")
    dev_guild = _get(data, "discord", "dev_guild", int, 0)
    url = _get(data, "database", "url", str, "")
    if url:
        database_url(url, "[database] url")
    shard_count = _get(data, "discord", "shard_count", int, 0) or None
    shard_text = _get(data, "discord", "shard_ids", str, "")
    return Config(
        database=url or Path(_get(data, "database", "path", str, "boardhost.sqlite3")),
        default_language=language,
        reminder_after=tuple(sorted(m * 60 for m in minutes)),
        reminder_check=_get(data, "reminders", "check_every_seconds", int, 60),
        dev_guild=dev_guild or None,
        application_id=_get(data, "discord", "application_id", int, 0) or None,
        rest_base_url=_get(data, "discord", "rest_base_url", str, "") or None,
        gateway_url=_get(data, "discord", "gateway_url", str, "") or None,
        give_up_after=_give_up(_get(data, "discord", "give_up_after_seconds", (int, float), 300)),
        archive_after=_archive_after(_get(data, "discord", "archive_after_hours", (int, float), 72)),
        render_processes=_render_processes(_get(data, "render", "processes", int, 2)),
        computer_pause=_seconds(data, "pause_seconds", 1.5),
        computer_offer_wait=_seconds(data, "offer_wait_seconds", 120),
        **shards(shard_text or None, shard_count),
    )


def parse_shard_ids(text: str) -> tuple[int, ...]:
    """``"0-3"``, ``"0,2,5-7"``: the shard ids listed, in order."""
    found: list[int] = []
    try:
        for part in text.split(","):
            low, _, high = part.strip().partition("-")
            found += range(int(low), int(high or low) + 1)
    except ValueError:
        raise ConfigError(f"shard ids {text!r}: write them like 0-3 or 0,2,5-7") from None
    return tuple(found)


def shards(shard_ids: str | None, shard_count: int | None) -> dict[str, Any]:
    """The ``shard_count`` and ``shard_ids`` settings, checked: ids need a count and lie below it."""
    if shard_count is None:
        if shard_ids:
            raise ConfigError("shard ids need a shard count (--shard-count, [discord] shard_count)")
        return {}
    if shard_count < 1:
        raise ConfigError("the shard count must be 1 or more")
    ids = parse_shard_ids(shard_ids) if shard_ids else tuple(range(shard_count))
    if not ids or len(set(ids)) != len(ids) or not all(0 <= i < shard_count for i in ids):
        raise ConfigError(f"shard ids must be distinct numbers from 0 to {shard_count - 1}")
    return {"shard_count": shard_count, "shard_ids": ids}


def _seconds(data: dict[str, Any], key: str, default: float) -> float:
    value = _get(data, "computer", key, (int, float), default)
    if isinstance(value, bool) or value < 0:
        raise ConfigError(f"[computer] {key} must be a number of seconds, 0 or more")
    return float(value)


def _give_up(value: float) -> float:
    if isinstance(value, bool) or value < 0:
        raise ConfigError("[discord] give_up_after_seconds must be a number of seconds, 0 (never) or more")
    return float(value)


def _archive_after(hours: float) -> float:
    if isinstance(hours, bool) or hours < 0:
        raise ConfigError("[discord] archive_after_hours must be a number of hours, 0 or more")
    return float(hours) * 3600


def _render_processes(value: int) -> int:
    if value < 0:
        raise ConfigError("[render] processes must be 0 (threads) or a positive number of processes")
    return value


def token() -> str | None:
    return os.environ.get("DISCORD_TOKEN") or None
