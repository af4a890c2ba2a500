"""Settings: the documented example file loads, and a bad value is refused with a clear message."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from bot.core.config import Config, ConfigError, load_config

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "config.example.toml"


def test_the_example_config_loads_with_its_documented_values() -> None:
    config = load_config(EXAMPLE)
    assert config.render_processes == 2 and config.reminder_after == (12 * 3600, 24 * 3600)


def test_without_a_file_the_defaults_are_the_documented_ones(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("BOARDHOST_CONFIG", "BOARDHOST_DATABASE", "BOARDHOST_LANGUAGE", "BOARDHOST_RENDER_PROCESSES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # no ./config.toml here
    here = replace(Config(), database=tmp_path / "boardhost.sqlite3")  # the default file, named absolute
    assert load_config() == here
    assert Config().render_processes == 2 == load_config(EXAMPLE).render_processes  # as README says
    empty = tmp_path / "empty.toml"
    empty.write_text("", encoding="utf-8")
    assert load_config(empty) == here


def test_the_environment_overrides_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("BOARDHOST_CONFIG", raising=False)
    monkeypatch.setenv("BOARDHOST_DATABASE", "/data/boardhost.sqlite3")
    monkeypatch.setenv("BOARDHOST_LANGUAGE", "ru")
    monkeypatch.setenv("BOARDHOST_RENDER_PROCESSES", "0")
    config = load_config()
    assert (config.database, config.default_language, config.render_processes) == (
        Path("/data/boardhost.sqlite3"),
        "ru",
        0,
    )
    assert load_config(EXAMPLE).database == Path("/data/boardhost.sqlite3")
    monkeypatch.setenv("BOARDHOST_RENDER_PROCESSES", "two")
    with pytest.raises(ConfigError, match="BOARDHOST_RENDER_PROCESSES"):
        load_config()


def test_a_negative_number_of_render_processes_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "config.toml"
    bad.write_text("[render]\nprocesses = -1\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="processes"):
        load_config(bad)


def test_the_computer_pause_is_read_and_checked(tmp_path: Path) -> None:
    assert load_config(EXAMPLE).computer_pause == 1.5
    good = tmp_path / "config.toml"
    good.write_text("[computer]\npause_seconds = 0\n", encoding="utf-8")
    assert load_config(good).computer_pause == 0.0
    good.write_text("[computer]\npause_seconds = -1\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="pause_seconds"):
        load_config(good)
    good.write_text('[computer]\npause_seconds = "soon"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="pause_seconds"):
        load_config(good)


def test_the_computer_offer_wait_is_read_and_checked(tmp_path: Path) -> None:
    assert load_config(EXAMPLE).computer_offer_wait == 120
    good = tmp_path / "config.toml"
    good.write_text("[computer]\noffer_wait_seconds = 30\n", encoding="utf-8")
    assert load_config(good).computer_offer_wait == 30.0
    good.write_text("[computer]\noffer_wait_seconds = -5\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="offer_wait_seconds"):
        load_config(good)


def test_the_archive_grace_for_a_deleted_channel_is_read_in_hours_and_checked(tmp_path: Path) -> None:
    assert load_config(EXAMPLE).archive_after == 72 * 3600
    good = tmp_path / "config.toml"
    good.write_text("[discord]\narchive_after_hours = 0.5\n", encoding="utf-8")
    assert load_config(good).archive_after == 1800.0
    for bad in ("-1", "true"):
        good.write_text(f"[discord]\narchive_after_hours = {bad}\n", encoding="utf-8")
        with pytest.raises(ConfigError, match="archive_after_hours"):
            load_config(good)


def test_the_database_url_wins_over_the_path_and_shards_are_read(tmp_path: Path) -> None:
    assert load_config(EXAMPLE).database == ROOT / "boardhost.sqlite3"  # beside the file, wherever the tests run
    good = tmp_path / "config.toml"
    good.write_text(
        '[database]\npath = "x.sqlite3"\nurl = "postgresql://bot@db/boardhost"\n'
        '[discord]\nshard_count = 8\nshard_ids = "0-2,6"\n',
        encoding="utf-8",
    )
    config = load_config(good)
    assert config.database == "postgresql://bot@db/boardhost"
    assert config.shard_count == 8 and config.shard_ids == (0, 1, 2, 6)


@pytest.mark.parametrize(
    ("ids", "count", "problem"),
    [("0-3", 0, "needs a shard count"), ("7-8", 8, "from 0 to 7"), ("a-b", 4, "like 0-3"), ("1,1", 2, "listed twice")],
)
def test_bad_shard_settings_are_refused(tmp_path: Path, ids: str, count: int, problem: str) -> None:
    bad = tmp_path / "config.toml"
    bad.write_text(f'[discord]\nshard_count = {count}\nshard_ids = "{ids}"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=problem):
        load_config(bad)


def test_a_misspelt_setting_is_refused_when_the_config_loads_with_the_known_ones_listed(tmp_path: Path) -> None:
    bad = tmp_path / "config.toml"
    bad.write_text("[reminders]\nafter_minute = [60]\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"unknown setting \[reminders\] after_minute .*after_minutes"):
        load_config(bad)
    bad.write_text("[reminder]\nafter_minutes = [60]\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"unknown section \[reminder\] .*reminders"):
        load_config(bad)


def test_an_unsupported_default_language_is_refused_with_the_supported_ones_listed(tmp_path: Path) -> None:
    bad = tmp_path / "config.toml"
    bad.write_text('[language]\ndefault = "fr"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r'default = "fr": must be a language the bot has: en, zh-CN, zh-TW, ru'):
        load_config(bad)
    bad.write_text('[language]\ndefault = "zh-TW"\n', encoding="utf-8")
    assert load_config(bad).default_language == "zh-TW"


def test_every_setting_of_the_example_file_is_a_known_one() -> None:
    import tomllib

    from bot.core.config import KNOWN

    example = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    assert {section: tuple(values) for section, values in example.items()} == KNOWN


def test_the_database_url_from_the_environment_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOARDHOST_DATABASE", "postgresql://bot:secret@db/boardhost")
    assert load_config(EXAMPLE).database == "postgresql://bot:secret@db/boardhost"
    monkeypatch.delenv("BOARDHOST_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)  # no config.toml: every default but the database
    assert load_config().database == "postgresql://bot:secret@db/boardhost"


def test_a_database_url_of_another_kind_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bad = tmp_path / "config.toml"
    bad.write_text('[database]\nurl = "mysql://bot@db/boardhost"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r'url = "mysql://bot@db/boardhost": must be a URL starting with'):
        load_config(bad)
    monkeypatch.setenv("BOARDHOST_DATABASE", "redis://cache")
    with pytest.raises(ConfigError, match="BOARDHOST_DATABASE=redis://cache: must be a URL starting with sqlite:///"):
        load_config(EXAMPLE)


@pytest.mark.parametrize(
    ("variable", "key", "value"),
    [
        ("BOARDHOST_LANGUAGE", "[language]\ndefault", "fr"),
        ("BOARDHOST_RENDER_PROCESSES", "[render]\nprocesses", "-1"),
        ("BOARDHOST_RENDER_PROCESSES", "[render]\nprocesses", "100"),
    ],
)
def test_a_value_is_refused_alike_from_the_environment_and_from_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variable: str, key: str, value: str
) -> None:
    bad = tmp_path / "config.toml"
    bad.write_text(f"{key} = {value if value[-1].isdigit() else repr(value)}\n".replace("'", '"'), encoding="utf-8")
    with pytest.raises(ConfigError) as from_file:
        load_config(bad)
    monkeypatch.setenv(variable, value)
    with pytest.raises(ConfigError) as from_environment:
        load_config(EXAMPLE)
    assert str(from_file.value).split(": must be ")[1] == str(from_environment.value).split(": must be ")[1]


def test_relative_database_paths_in_the_file_follow_the_file_not_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("BOARDHOST_DATABASE", raising=False)
    settings = tmp_path / "etc" / "config.toml"
    settings.parent.mkdir()
    monkeypatch.chdir(tmp_path)
    for text, found in [
        ('[database]\npath = "data/bot.sqlite3"', tmp_path / "etc" / "data" / "bot.sqlite3"),
        ('[database]\nurl = "sqlite:///../bot.sqlite3"', tmp_path / "bot.sqlite3"),
        ('[database]\nurl = "sqlite:////srv/bot.sqlite3"', Path("/srv/bot.sqlite3")),
        ("[render]\nprocesses = 0", tmp_path / "etc" / "boardhost.sqlite3"),  # the default path, beside the file
    ]:
        settings.write_text(text + "\n", encoding="utf-8")
        assert load_config(Path("etc/config.toml")).database == found, text
    monkeypatch.setenv("BOARDHOST_DATABASE", "here.sqlite3")  # the environment's: the current folder's
    assert load_config(settings).database == tmp_path / "here.sqlite3"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[reminders]\ncheck_every_seconds = -10", "check_every_seconds = -10: must be a whole number of seconds"),
        ("[reminders]\ncheck_every_seconds = 0", "from 10 to 3600"),
        ("[reminders]\ncheck_every_seconds = 5.5", "a whole number"),
        ("[reminders]\nafter_minutes = [60, true]", "must be a list of whole numbers from 1"),
        ("[discord]\napplication_id = true", "application_id = true: must be an id as Discord shows it"),
        ("[discord]\napplication_id = -1", "application_id = -1: must be an id"),
        ("[discord]\ndev_guild = 1.5", "dev_guild = 1.5: must be an id"),
        ("[discord]\ngive_up_after_seconds = inf", "give_up_after_seconds = inf: must be a number of seconds"),
        ('[discord]\ngateway_url = "http://gw"', "must be a ws:// or wss:// URL"),
        ("[computer]\npause_seconds = 3600", "pause_seconds = 3600: must be a number of seconds from 0 to 60"),
        ("[discord]\nshard_count = true", "shard_count = true: must be a whole number from 0 to 100000"),
    ],
)
def test_types_and_ranges_are_checked_in_good_english(tmp_path: Path, text: str, says: str) -> None:
    bad = tmp_path / "config.toml"
    bad.write_text(text + "\n", encoding="utf-8")
    with pytest.raises(ConfigError) as refused:
        load_config(bad)
    assert says in str(refused.value) and str(refused.value).startswith(f"{bad}: ")
    assert " a int" not in str(refused.value) and " a float" not in str(refused.value)


def test_sharding_a_sqlite_bot_is_refused_unless_one_process_runs_every_shard(tmp_path: Path) -> None:
    from bot.core.config import check_storage_for_shards

    some = replace(Config(), shard_count=4, shard_ids=(0, 1))
    with pytest.raises(ConfigError, match="needs PostgreSQL"):
        check_storage_for_shards(some)
    check_storage_for_shards(replace(some, shard_ids=(0, 1, 2, 3)))
    check_storage_for_shards(replace(some, database="postgresql://bot@db/boardhost"))
