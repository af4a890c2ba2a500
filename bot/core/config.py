"""Settings from a TOML file (optional), then environment variables; the token only from DISCORD_TOKEN.

Every setting is checked once, by one table (``SETTINGS``): a value from the environment is read as the same kind of
value as in the file and meets the same range, and a refusal names the setting, the value given and what is allowed,
in one line. Without a file every setting has its documented default (``config.example.toml``).
``BOARDHOST_DATABASE``, ``BOARDHOST_LANGUAGE`` and ``BOARDHOST_RENDER_PROCESSES`` override the file, so a container
needs no config file. A relative database path in the file is relative to the file's folder (wherever the bot is
started from); one from the environment, or the default without a file, to the current folder. Either way the
config holds it absolute, so the logs name the file itself.
"""

from __future__ import annotations

import math
import os
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

DEFAULT_PATH = Path("config.toml")
TOKEN_HELP = (  # one line: what to do next, and where every step is
    "no bot token: DISCORD_TOKEN is not set. To play at once on this computer, no token needed: python -m bot try. "
    "For your server, make one at https://discord.com/developers/applications (New Application, then Bot, Reset "
    "Token), run export DISCORD_TOKEN=<the token> and python -m bot again; every step to a game in your server: "
    'README.md, "Your Discord server in five steps"'
)
DATABASE_SCHEMES = ("sqlite:///", "postgresql://", "postgres://")
SQLITE_SCHEME = "sqlite:///"
MAX_SHARDS = 100_000  # far above any bot's; keeps a typo from listing a billion shard ids


class ConfigError(Exception):
    pass


class Invalid(Exception):
    """A value refused; the message says what is allowed ("a whole number from 10 to 3600")."""


# -- kinds of value: each checks a value as TOML gives it, and reads the same kind from an environment variable --


class Kind(Protocol):
    def check(self, raw: object) -> Any: ...

    def from_text(self, text: str) -> object: ...


@dataclass(frozen=True, slots=True)
class Whole:
    low: int
    high: int | None = None
    unit: str = ""  # "seconds": "a whole number of seconds"
    note: str = ""  # what a special value means: " (0: no sharding)"
    what: str = ""  # says it all instead

    def check(self, raw: object) -> int:
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise Invalid(self.allowed())
        if raw < self.low or (self.high is not None and raw > self.high):
            raise Invalid(self.allowed())
        return raw

    def allowed(self) -> str:
        unit = f" of {self.unit}" if self.unit else ""
        span = f" from {self.low} to {self.high}" if self.high is not None else f", {self.low} or more"
        return self.what or f"a whole number{unit}{span}{self.note}"

    def from_text(self, text: str) -> object:
        try:
            return int(text.strip())
        except ValueError:
            return text


@dataclass(frozen=True, slots=True)
class Number:
    """Seconds, hours: a whole or decimal number in a range (never NaN or infinite)."""

    low: float
    high: float | None = None
    unit: str = ""
    note: str = ""

    def check(self, raw: object) -> float:
        if isinstance(raw, bool) or not isinstance(raw, int | float) or not math.isfinite(raw):
            raise Invalid(self.allowed())
        if raw < self.low or (self.high is not None and raw > self.high):
            raise Invalid(self.allowed())
        return float(raw)

    def allowed(self) -> str:
        unit = f" of {self.unit}" if self.unit else ""
        span = f" from {self.low:g} to {self.high:g}" if self.high is not None else f", {self.low:g} or more"
        return f"a number{unit}{span}{self.note}"

    def from_text(self, text: str) -> object:
        try:
            return float(text.strip())
        except ValueError:
            return text


@dataclass(frozen=True, slots=True)
class Text:
    starts: tuple[str, ...] = ()  # the beginnings allowed (URL schemes); empty text is always allowed
    what: str = "text"

    def check(self, raw: object) -> str:
        if not isinstance(raw, str) or (raw and self.starts and not raw.startswith(self.starts)):
            raise Invalid(self.what)
        return raw

    def from_text(self, text: str) -> object:
        return text


@dataclass(frozen=True, slots=True)
class Choice:
    options: Callable[[], Sequence[str]]  # lazily: the languages load Babel and the catalogues
    what: str

    def check(self, raw: object) -> str:
        options = self.options()
        if raw not in options:
            raise Invalid(f"{self.what}: {', '.join(options)}")
        assert isinstance(raw, str)
        return raw

    def from_text(self, text: str) -> object:
        return text


@dataclass(frozen=True, slots=True)
class WholeList:
    item: Whole

    def check(self, raw: object) -> tuple[int, ...]:
        try:
            if isinstance(raw, list):
                return tuple(self.item.check(value) for value in raw)
        except Invalid:
            pass
        raise Invalid(f"a list of {self.item.allowed().removeprefix('a ').replace('number', 'numbers', 1)}")

    def from_text(self, text: str) -> object:
        return [self.item.from_text(part) for part in text.split(",")]


def _languages() -> Sequence[str]:
    from bot.text.i18n import LANGUAGES  # lazy: Babel and the catalogues load only to check a language

    return LANGUAGES


def _hours(value: float) -> float:
    return value * 3600


def _minutes(values: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted(m * 60 for m in values))


def _or_none(value: Any) -> Any:
    return value or None


@dataclass(frozen=True, slots=True)
class Setting:
    section: str
    key: str
    kind: Kind
    field: str | None = None  # the Config field it sets (None: read with others, see ``_config``)
    convert: Callable[[Any], Any] = lambda value: value
    env: str | None = None  # the environment variable that overrides it

    @property
    def name(self) -> str:
        return f"[{self.section}] {self.key}"


DISCORD_ID = Whole(0, what="an id as Discord shows it (a whole number), or 0 for none")

# Every setting the file may hold (config.example.toml documents each one), in the file's order. Anything else is
# refused when the file loads, so that a misspelt key does not silently fall back to its default.
SETTINGS: tuple[Setting, ...] = (
    Setting("database", "path", Text(what="a file path")),
    Setting("database", "url", Text(DATABASE_SCHEMES, "a URL starting with sqlite:/// (a file) or postgresql://")),
    Setting(
        "language",
        "default",
        Choice(_languages, "a language the bot has"),
        "default_language",
        env="BOARDHOST_LANGUAGE",
    ),
    Setting("reminders", "after_minutes", WholeList(Whole(1, 525_600)), "reminder_after", _minutes),
    Setting("reminders", "check_every_seconds", Whole(10, 3600, "seconds"), "reminder_check"),
    Setting("discord", "application_id", DISCORD_ID, "application_id", _or_none),
    Setting("discord", "dev_guild", DISCORD_ID, "dev_guild", _or_none),
    Setting(
        "discord",
        "rest_base_url",
        Text(("http://", "https://"), "an http:// or https:// URL"),
        "rest_base_url",
        _or_none,
    ),
    Setting("discord", "gateway_url", Text(("ws://", "wss://"), "a ws:// or wss:// URL"), "gateway_url", _or_none),
    Setting("discord", "give_up_after_seconds", Number(0, unit="seconds", note=" (0: never give up)"), "give_up_after"),
    Setting("discord", "archive_after_hours", Number(0, unit="hours"), "archive_after", _hours),
    Setting("discord", "shard_count", Whole(0, MAX_SHARDS, note=" (0: no sharding)")),
    Setting("discord", "shard_ids", Text(what="shard ids like 0-3 or 0,2,5-7")),
    Setting(
        "render",
        "processes",
        Whole(0, 64, note=" (0: draw in threads of the bot's process)"),
        "render_processes",
        env="BOARDHOST_RENDER_PROCESSES",
    ),
    Setting("computer", "pause_seconds", Number(0, 60, "seconds"), "computer_pause"),
    Setting("computer", "offer_wait_seconds", Number(0, 86_400, "seconds"), "computer_offer_wait"),
)
BY_NAME: dict[tuple[str, str], Setting] = {(s.section, s.key): s for s in SETTINGS}
KNOWN: dict[str, tuple[str, ...]] = {
    section: tuple(s.key for s in SETTINGS if s.section == section)
    for section in dict.fromkeys(s.section for s in SETTINGS)
}
SHARD_COUNT = BY_NAME["discord", "shard_count"]


@dataclass(frozen=True, slots=True)
class Config:
    database: str | Path = Path("boardhost.sqlite3")  # a SQLite path, or a PostgreSQL URL
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


@dataclass(frozen=True, slots=True)
class Given:
    """A value as given, where it was given (for the message that refuses it) and the folder a path in it is
    relative to."""

    raw: object
    name: str  # "/srv/config.toml: [render] processes", "BOARDHOST_RENDER_PROCESSES"
    shown: str  # the value as given: " = 3" in a file, "=3" in the environment
    folder: Path = field(default_factory=Path.cwd)

    @property
    def where(self) -> str:
        return f"{self.name}{self.shown}"


def _toml(value: object) -> str:
    """A value written as in the file."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(map(_toml, value)) + "]"
    if isinstance(value, dict):
        return "{...}"
    return str(value)


def config_file(path: Path | None = None) -> Path | None:
    """The config file ``load_config`` reads: ``path``, else $BOARDHOST_CONFIG, else ./config.toml if there is one;
    absolute. None: no file (every default)."""
    explicit = path or (Path(os.environ["BOARDHOST_CONFIG"]) if os.environ.get("BOARDHOST_CONFIG") else None)
    target = (explicit or DEFAULT_PATH).absolute()
    if explicit and not target.is_file():
        why = "is a folder, not a file" if target.is_dir() else "not found"
        raise ConfigError(f"config file {target} {why} (copy config.example.toml there, or fix BOARDHOST_CONFIG)")
    return target if target.is_file() else None


def load_config(path: Path | None = None) -> Config:
    """Read ``path`` (or $BOARDHOST_CONFIG, or ./config.toml; a missing default file means all defaults), apply the
    environment's overrides, and check every value."""
    return from_environment(_from_file(path), os.environ)


def _read_file(target: Path) -> dict[tuple[str, str], Given]:
    try:
        data = tomllib.loads(target.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{target}: not valid TOML: {err}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{target} is not UTF-8 text") from None
    except OSError as err:
        raise ConfigError(f"cannot read the config file {target}: {err.strerror or err}") from None
    given: dict[tuple[str, str], Given] = {}
    for section, values in data.items():
        if section not in KNOWN:
            raise ConfigError(f"{target}: unknown section [{section}] (known sections: {', '.join(KNOWN)})")
        if not isinstance(values, dict):
            raise ConfigError(f"{target}: {section} must be a section ([{section}]), not a single value")
        for key, raw in values.items():
            if key not in KNOWN[section]:
                known = ", ".join(KNOWN[section])
                raise ConfigError(f"{target}: unknown setting [{section}] {key} (known in [{section}]: {known})")
            given[section, key] = Given(raw, f"{target}: [{section}] {key}", f" = {_toml(raw)}", target.parent)
    return given


def _environment(environ: Mapping[str, str]) -> dict[tuple[str, str], Given]:
    given: dict[tuple[str, str], Given] = {}
    for setting in SETTINGS:
        if setting.env and environ.get(setting.env):
            text = environ[setting.env]
            given[setting.section, setting.key] = Given(setting.kind.from_text(text), setting.env, f"={text}")
    if environ.get("BOARDHOST_DATABASE"):
        target = environ["BOARDHOST_DATABASE"]  # a SQLite path, or a URL (sqlite:///PATH, postgresql://...)
        name, shown = "BOARDHOST_DATABASE", f"={target}"
        # Either way it replaces both of the file's settings: the file's url would otherwise win over a path.
        given["database", "url"] = Given(target if "://" in target else "", name, shown)
        given["database", "path"] = Given(target if "://" not in target else "boardhost.sqlite3", name, shown)
    return given


def _from_file(path: Path | None) -> Config:
    target = config_file(path)
    given = _read_file(target) if target else {}
    folder = target.parent if target else Path.cwd()
    given.setdefault(("database", "path"), Given("boardhost.sqlite3", "[database] path", "", folder))
    return _config(Config(), given)


def from_environment(config: Config, environ: Mapping[str, str]) -> Config:
    """``config`` with the settings the environment gives (``BOARDHOST_DATABASE``, ``BOARDHOST_LANGUAGE``,
    ``BOARDHOST_RENDER_PROCESSES``), checked like the file's."""
    return _config(config, _environment(environ))


def _checked(key: tuple[str, str], given: Given) -> Any:
    setting = BY_NAME[key]
    try:
        return setting.kind.check(given.raw)
    except Invalid as err:
        raise ConfigError(f"{given.where}: must be {err}") from None


def _config(config: Config, given: Mapping[tuple[str, str], Given]) -> Config:
    """``config`` with the ``given`` values, each checked, and together checked for what they mean together."""
    changes: dict[str, Any] = {}
    for key, value in given.items():
        setting = BY_NAME[key]
        checked = _checked(key, value)
        if setting.field:
            changes[setting.field] = setting.convert(checked)
    if ("database", "path") in given or ("database", "url") in given:
        changes["database"] = _database(given)
    if ("discord", "shard_count") in given or ("discord", "shard_ids") in given:
        count = given.get(("discord", "shard_count"))
        ids = given.get(("discord", "shard_ids"))
        checked = shards(
            _checked(("discord", "shard_ids"), ids) if ids else None,
            _checked(("discord", "shard_count"), count) if count else None,
            ids_name=ids.name if ids else "[discord] shard_ids",
            count_name=count.name if count else "[discord] shard_count",
        )
        changes.update({"shard_count": None, "shard_ids": None, **checked})
    return replace(config, **changes)


def _database(given: Mapping[tuple[str, str], Given]) -> str | Path:
    """The database the settings name: the url if there is one, else the path; a SQLite file made absolute against
    the folder of where it was given."""
    url = given.get(("database", "url"))
    if url is not None and _checked(("database", "url"), url):
        text = str(url.raw)
        if not text.startswith(SQLITE_SCHEME):
            return text
        if not text[len(SQLITE_SCHEME) :]:
            raise ConfigError(f"{url.where}: sqlite:/// needs a file after it (sqlite:///boardhost.sqlite3)")
        return _absolute(Path(text[len(SQLITE_SCHEME) :]), url.folder)
    path = given[("database", "path")]
    if not _checked(("database", "path"), path):
        raise ConfigError(f"{path.where}: must be a file path, not empty")
    return _absolute(Path(str(path.raw)).expanduser(), path.folder)


def _absolute(path: Path, folder: Path) -> Path:
    return Path(os.path.normpath(folder / path))


# -- shards: the same rules for the file and the command line ------------------------------------------------------


def parse_shard_ids(text: str, below: int, name: str = "shard ids") -> tuple[int, ...]:
    """``"0-3"``, ``"0,2,5-7"``: the shard ids listed, in order; each checked to lie below ``below`` before a range
    is spelt out."""
    found: list[int] = []
    for part in text.split(","):
        low_text, dash, high_text = part.strip().partition("-")
        try:
            low, high = int(low_text), int(high_text if dash else low_text)
        except ValueError:
            raise ConfigError(f"{name} {text}: write shard ids like 0-3 or 0,2,5-7") from None
        if not 0 <= low <= high < below:
            raise ConfigError(
                f"{name} {text}: shards are numbered from 0 to {below - 1} (the shard count is {below}), written like "
                "0-3 or 0,2,5-7"
            )
        found += range(low, high + 1)
    if len(set(found)) != len(found):
        raise ConfigError(f"{name} {text}: a shard is listed twice")
    return tuple(found)


def shards(
    shard_ids: str | None,
    shard_count: int | None,
    *,
    ids_name: str = "--shard-ids",
    count_name: str = "--shard-count",
) -> dict[str, Any]:
    """The ``shard_count`` and ``shard_ids`` settings, checked: a count of 0 (or none) is no sharding; ids need a
    count and lie below it."""
    if shard_count is not None:
        try:
            SHARD_COUNT.kind.check(shard_count)
        except Invalid as err:
            raise ConfigError(f"{count_name} {shard_count}: must be {err}") from None
    if not shard_count:
        if shard_ids:
            raise ConfigError(
                f"{ids_name} needs a shard count of 1 or more (--shard-count N, or [discord] shard_count)"
            )
        return {}
    ids = parse_shard_ids(shard_ids, shard_count, ids_name) if shard_ids else tuple(range(shard_count))
    return {"shard_count": shard_count, "shard_ids": ids}


def check_storage_for_shards(config: Config) -> None:
    """Refuse to run only some of the shards on SQLite: the other shards' processes could not share its file (one
    process owns a SQLite database; only PostgreSQL tells the others what changed)."""
    from bot.storage.database import is_postgres  # lazy: config loads without the storage package

    if config.shard_count is None or is_postgres(config.database):
        return
    if config.shard_ids is not None and len(config.shard_ids) < config.shard_count:
        raise ConfigError(
            f"this process runs shards {','.join(map(str, config.shard_ids))} of {config.shard_count}: the other "
            "shards' processes must share its database, which needs PostgreSQL ([database] url = "
            '"postgresql://..." or BOARDHOST_DATABASE); on SQLite run every shard in one process'
        )


def token() -> str | None:
    return os.environ.get("DISCORD_TOKEN", "").strip() or None
