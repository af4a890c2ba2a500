"""The bot's operator commands (``python -m bot``, ``sync``, ``migrate``, ``copy-db``, ``invite``) and its config, run
as processes the way a host runs them: every mistake is answered with one line naming what was wrong and what is
allowed, and a non-zero exit; never a traceback, never a hang, never a file made by a typo.

Each case runs in a folder of its own; the cases run at once in a few threads (each is a process of a third of a
second), then each test reads its case's result.
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from bot.core.config import TOKEN_HELP
from bot.storage.opening import open_database
from tests.postgres import Server, required

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 60  # seconds: a case that takes longer hangs
GARBAGE = b"garbage, not a database\n"


@dataclass(frozen=True)
class Case:
    """``python -m bot ARGS`` in a folder holding ``files`` (``config``: its config.toml), with ``env``. ``{dir}``
    in any of them is the case's folder, ``{closed}`` a port nobody listens on, ``{nodb}`` a PostgreSQL database
    nobody created on a running server. The one line on stderr must hold every one of ``says``."""

    args: tuple[str, ...]
    says: tuple[str, ...]
    status: int = 1
    env: dict[str, str] = field(default_factory=dict)
    files: dict[str, bytes] = field(default_factory=dict)
    config: str | None = None
    needs_postgres: bool = False


def case(*args: str, says: str | tuple[str, ...], **more: object) -> Case:
    return Case(args, (says,) if isinstance(says, str) else says, **more)  # type: ignore[arg-type]


MIGRATED = b"<a migrated boardhost database>"  # replaced by one when the case's folder is made
SRC = {"src.sqlite3": MIGRATED}
TOKEN = {"DISCORD_TOKEN": "a-token"}
NO_DISCORD = '[discord]\nrest_base_url = "http://127.0.0.1:{closed}/api/v10"\ngateway_url = "ws://127.0.0.1:{closed}"\n'

CASES: dict[str, Case] = {
    # copy-db: FROM must exist and be a boardhost database; TO an empty database whose folder exists
    "copy-db from a garbage file": case(
        "copy-db", "garbage.json", "x.sqlite3", says=("FROM", "garbage.json is not a SQLite database"),
        files={"garbage.json": GARBAGE},
    ),
    "copy-db from a mistyped file": case(
        "copy-db", "misspelt.sqlite3", "x.sqlite3", says=("FROM", "misspelt.sqlite3 does not exist", "nothing")
    ),
    "copy-db from a mistyped sqlite URL": case(
        "copy-db", "sqlite:///misspelt.sqlite3", "x.sqlite3", says="misspelt.sqlite3 does not exist"
    ),
    "copy-db from an empty file": case(
        "copy-db", "empty.sqlite3", "x.sqlite3", says=("FROM", "empty.sqlite3 is an empty file"),
        files={"empty.sqlite3": b""},
    ),
    "copy-db into a missing folder": case(
        "copy-db", "src.sqlite3", "nowhere/x.sqlite3", says=("TO", "the folder {dir}/nowhere does not exist"),
        files=SRC,
    ),
    "copy-db into a file below a file": case(
        "copy-db", "src.sqlite3", "src.sqlite3/x.sqlite3", says=("TO", "src.sqlite3 is a file, not a folder"),
        files=SRC,
    ),
    "copy-db into a folder": case("copy-db", "src.sqlite3", ".", says=("TO", "is a folder"), files=SRC),
    "copy-db into a garbage file": case(
        "copy-db", "src.sqlite3", "garbage.json", says=("TO", "garbage.json is not a SQLite database"),
        files={**SRC, "garbage.json": GARBAGE},
    ),
    "copy-db onto itself": case(
        "copy-db", "src.sqlite3", "sqlite:///{dir}/src.sqlite3", says="FROM and TO are the same database", files=SRC
    ),
    "copy-db from mysql": case(
        "copy-db", "mysql://bot@db/boardhost", "x.sqlite3", says=("FROM", "mysql://", "SQLite", "postgresql://")
    ),
    "copy-db into mysql": case(
        "copy-db", "src.sqlite3", "mysql://bot@db/boardhost", says=("TO", "mysql://", "postgresql://"), files=SRC
    ),
    "copy-db from an unreachable PostgreSQL": case(
        "copy-db", "postgresql://bot:secret@127.0.0.1:{closed}/boardhost", "x.sqlite3",
        says=("FROM", "cannot reach PostgreSQL at postgresql://bot:***@127.0.0.1:{closed}/boardhost"),
    ),
    "copy-db into an unreachable PostgreSQL": case(
        "copy-db", "src.sqlite3", "postgresql://bot@127.0.0.1:{closed}/boardhost",
        says=("TO", "cannot reach PostgreSQL"), files=SRC,
    ),
    "copy-db from a PostgreSQL database nobody created": case(
        "copy-db", "{nodb}", "x.sqlite3", says=("FROM", '"nobody_made_this" does not exist', "create it"),
        needs_postgres=True,
    ),
    "copy-db with a PostgreSQL URL it cannot read": case(
        "copy-db", "postgresql://bot@127.0.0.1:port/boardhost", "x.sqlite3", says="not a PostgreSQL URL"
    ),
    "copy-db without TO": case("copy-db", "src.sqlite3", says="the following arguments are required: TO", status=2),
    # migrate
    "migrate into a folder that does not exist": case(
        "migrate", says=("migrate", "the folder /nonexistent does not exist"),
        env={"BOARDHOST_DATABASE": "/nonexistent/boardhost.sqlite3"},
    ),
    "migrate a garbage file": case(
        "migrate", says="garbage.sqlite3 is not a SQLite database", env={"BOARDHOST_DATABASE": "garbage.sqlite3"},
        files={"garbage.sqlite3": GARBAGE},
    ),
    "migrate an unreachable PostgreSQL": case(
        "migrate", says="cannot reach PostgreSQL", env={"BOARDHOST_DATABASE": "postgresql://bot@127.0.0.1:{closed}/b"}
    ),
    "migrate a PostgreSQL database nobody created": case(
        "migrate", says=('"nobody_made_this" does not exist', "create it"), env={"BOARDHOST_DATABASE": "{nodb}"},
        needs_postgres=True,
    ),
    # running the bot: the database is checked before Discord is called
    "run without a token": case(says=TOKEN_HELP, status=2),
    "run with a blank token": case(says="DISCORD_TOKEN is not set", status=2, env={"DISCORD_TOKEN": "  "}),
    "run on a folder that does not exist": case(
        says=("boardhost stopped", "the folder /nonexistent does not exist"), config=NO_DISCORD,
        env={**TOKEN, "BOARDHOST_DATABASE": "/nonexistent/boardhost.sqlite3"},
    ),
    "run on an unreachable PostgreSQL": case(
        says=("boardhost stopped", "cannot reach PostgreSQL"), config=NO_DISCORD,
        env={**TOKEN, "BOARDHOST_DATABASE": "postgresql://bot@127.0.0.1:{closed}/b"},
    ),
    "run on a garbage file": case(
        says=("boardhost stopped", "not a SQLite database"), config=NO_DISCORD + '[database]\npath = "g.sqlite3"\n',
        env=TOKEN, files={"g.sqlite3": GARBAGE},
    ),
    "run some shards on SQLite": case(
        "--shard-count", "4", "--shard-ids", "0-1", says=("shards 0,1 of 4", "PostgreSQL", "one process"),
        status=2, env=TOKEN,
    ),
    "run with a negative shard count": case(
        "--shard-count", "-1", says="--shard-count -1: must be a whole number from 0 to 100000 (0: no sharding)",
        status=2,
    ),
    "run shard ids without a shard count": case("--shard-ids", "0-1", says="needs a shard count", status=2),
    "run shard ids with a shard count of 0": case(
        "--shard-count", "0", "--shard-ids", "0", says="--shard-ids needs a shard count of 1 or more", status=2
    ),
    "run shard ids beyond the count": case(
        "--shard-count", "4", "--shard-ids", "0-999999999", says="shards are numbered from 0 to 3", status=2
    ),
    "run a shard count that is not a number": case(
        "--shard-count", "two", says="--shard-count: invalid int value: 'two'", status=2
    ),
    # try: refused before anything starts
    "try on a port out of range": case("try", "--port", "70000", says="try: --port is 0 to 65535", status=2),
    "try with no one at the table": case("try", "--people", "0", says="argument --people: invalid choice", status=2),
    "try with computers that wait an hour": case(
        "try", "--computer-pause", "3600", says="--computer-pause 0 to 60 seconds", status=2
    ),
    "an unknown command": case("serve", says=("invalid choice: 'serve'", "sync", "migrate"), status=2),
    # sync checks the database before registering anything (Discord is out of reach here: it is never called)
    "sync on a folder that does not exist": case(
        "sync", says=("nothing registered", "the folder /nonexistent does not exist"), config=NO_DISCORD,
        env={**TOKEN, "BOARDHOST_DATABASE": "/nonexistent/boardhost.sqlite3"},
    ),
    "sync on an unreachable PostgreSQL": case(
        "sync", says=("nothing registered", "cannot reach PostgreSQL"), config=NO_DISCORD,
        env={**TOKEN, "BOARDHOST_DATABASE": "postgresql://bot@127.0.0.1:{closed}/b"},
    ),
    "sync to a negative guild": case("sync", "--guild", "-1", says="--guild -1: must be a server's id", status=2),
    "sync to a guild id too long": case(
        "sync", "--guild", "1" * 21, says=f"--guild {'1' * 21}: must be a server's id, a whole number of up to 20",
        status=2,
    ),
    # invite
    "invite for a negative application id": case(
        "invite", "--application-id", "-5", says="--application-id -5: must be the application's id", status=2
    ),
    "invite for an application id too long": case(
        "invite", "--application-id", "9" * 21, says="must be the application's id, a whole number of up to 20 digits",
        status=2,
    ),
    "invite for an application id that is not a number": case(
        "invite", "--application-id", "x", says="--application-id: invalid int value: 'x'", status=2
    ),
    # config: the file and the environment checked alike (invite reads the config and writes nothing)
    "check_every_seconds negative": case(
        "invite", status=2, config="[reminders]\ncheck_every_seconds = -10\n",
        says="{dir}/config.toml: [reminders] check_every_seconds = -10: must be a whole number of seconds from 10",
    ),
    "check_every_seconds 0": case(
        "invite", status=2, config="[reminders]\ncheck_every_seconds = 0\n", says="from 10 to 3600"
    ),
    "application_id true": case(
        "invite", status=2, config="[discord]\napplication_id = true\n",
        says="[discord] application_id = true: must be an id as Discord shows it",
    ),
    "application_id negative": case(
        "invite", status=2, config="[discord]\napplication_id = -3\n", says="application_id = -3: must be an id"
    ),
    "language fr in the file": case(
        "invite", status=2, config='[language]\ndefault = "fr"\n',
        says='[language] default = "fr": must be a language the bot has: en, zh-CN, zh-TW, ru',
    ),
    "language fr in the environment": case(
        "invite", status=2, env={"BOARDHOST_LANGUAGE": "fr"},
        says="BOARDHOST_LANGUAGE=fr: must be a language the bot has: en, zh-CN, zh-TW, ru",
    ),
    "render processes negative in the file": case(
        "invite", status=2, config="[render]\nprocesses = -1\n", says="processes = -1: must be a whole number from 0"
    ),
    "render processes not a number in the environment": case(
        "invite", status=2, env={"BOARDHOST_RENDER_PROCESSES": "two"},
        says="BOARDHOST_RENDER_PROCESSES=two: must be a whole number from 0",
    ),
    "a setting of the wrong type": case(
        "invite", status=2, config='[computer]\npause_seconds = "soon"\n',
        says='pause_seconds = "soon": must be a number of seconds from 0 to 60',
    ),
    "a number that is not one": case(
        "invite", status=2, config="[discord]\ngive_up_after_seconds = nan\n",
        says="give_up_after_seconds = nan: must be a number of seconds, 0 or more",
    ),
    "reminders not a list": case(
        "invite", status=2, config="[reminders]\nafter_minutes = 60\n", says="must be a list of whole numbers"
    ),
    "a proxy URL without its scheme": case(
        "invite", status=2, config='[discord]\nrest_base_url = "proxy:8080"\n', says="must be an http:// or https://"
    ),
    "a database URL of another kind in the file": case(
        "invite", status=2, config='[database]\nurl = "mysql://bot@db/boardhost"\n',
        says='url = "mysql://bot@db/boardhost": must be a URL starting with sqlite:/// (a file) or postgresql://',
    ),
    "a database URL of another kind in the environment": case(
        "invite", status=2, env={"BOARDHOST_DATABASE": "mysql://bot@db/boardhost"},
        says="BOARDHOST_DATABASE=mysql://bot@db/boardhost: must be a URL starting with sqlite:///",
    ),
    "an empty database path": case(
        "invite", status=2, config='[database]\npath = ""\n', says='path = "": must be a file path, not empty'
    ),
    "shard ids with a shard count of 0 in the file": case(
        "invite", status=2, config='[discord]\nshard_count = 0\nshard_ids = "0-1"\n',
        says="[discord] shard_ids needs a shard count of 1 or more",
    ),
    "a config file that is not TOML": case(
        "invite", status=2, config="[render\n", says="{dir}/config.toml: not valid TOML"
    ),
    "a config file that is not UTF-8": case(
        "invite", status=2, files={"config.toml": b"\xff\xfe[render]\n"}, says="config.toml is not UTF-8 text"
    ),
    "a config file that does not exist": case(
        "invite", status=2, env={"BOARDHOST_CONFIG": "{dir}/misspelt.toml"},
        says="config file {dir}/misspelt.toml not found",
    ),
    "a config file that is a folder": case(
        "invite", status=2, env={"BOARDHOST_CONFIG": "{dir}"}, says="config file {dir} is a folder, not a file"
    ),
}  # fmt: skip


@dataclass
class Done:
    fill: dict[str, str]  # the case's {dir}, {closed}, {nodb}
    before: dict[str, bytes]
    after: dict[str, bytes]
    status: int | None
    stdout: str
    stderr: str


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _nobody_made_this(dsn: str) -> str:
    parts = urlsplit(dsn)
    return urlunsplit(parts._replace(path="/nobody_made_this"))


def _contents(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _run(one: Case, folder: Path, fill: dict[str, str], migrated: bytes) -> Done:
    folder.mkdir()
    if one.config is not None:
        (folder / "config.toml").write_text(one.config.format(**fill), encoding="utf-8")
    for name, content in one.files.items():
        (folder / name).write_bytes(migrated if content == MIGRATED else content)
    env = {k: v for k, v in os.environ.items() if not k.startswith("BOARDHOST_") and k != "DISCORD_TOKEN"}
    env.update({k: v.format(**fill) for k, v in one.env.items()}, PYTHONPATH=str(ROOT))
    before = _contents(folder)
    command = [sys.executable, "-m", "bot", *(arg.format(**fill) for arg in one.args)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, cwd=folder, env=env, timeout=TIMEOUT)
        status, out, err = done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired as hung:
        status, out, err = None, str(hung.stdout or ""), str(hung.stderr or "")
    return Done(fill, before, _contents(folder), status, out, err)


def _migrated(folder: Path) -> bytes:
    async def make() -> None:
        db = await open_database(folder / "migrated.sqlite3")
        await db.close()

    asyncio.run(make())
    return (folder / "migrated.sqlite3").read_bytes()


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Iterator[dict[str, Done]]:
    base = tmp_path_factory.mktemp("bot-commands")
    fill = {"closed": str(_closed_port()), "nodb": ""}
    server: Server = request.getfixturevalue("postgres_server")
    if server.dsn:
        fill["nodb"] = _nobody_made_this(server.dsn)
    cases = {name: one for name, one in CASES.items() if server.dsn or not one.needs_postgres}
    migrated = _migrated(base)
    with ThreadPoolExecutor(max_workers=4) as pool:
        running = {
            name: pool.submit(_run, one, base / f"case{i}", {**fill, "dir": str(base / f"case{i}")}, migrated)
            for i, (name, one) in enumerate(cases.items())
        }
        yield {name: future.result() for name, future in running.items()}


@pytest.mark.parametrize("name", list(CASES))
def test_a_mistake_is_answered_in_one_line_naming_it_and_nothing_is_made(
    name: str, results: dict[str, Done], postgres_server: Server
) -> None:
    one = CASES[name]
    if name not in results:
        assert not required(), postgres_server.why_not
        pytest.skip(postgres_server.why_not or "no PostgreSQL")
    done = results[name]
    assert done.status is not None, f"still running after {TIMEOUT} seconds: {done.stderr[-2000:]}"
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    for fragment in one.says:
        assert fragment.format(**done.fill) in lines[0], lines[0]
    assert done.status == one.status, lines[0]
    assert done.stdout == ""
    assert done.after == done.before, "the folder changed"


def test_a_reader_that_stops_early_ends_invite_without_a_traceback(tmp_path: Path) -> None:
    """``python -m bot invite | head -0``: the reader is gone before the link is written."""
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "invite", "--application-id", "42"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    status = process.wait(timeout=TIMEOUT)
    assert process.stderr.read() == b""
    assert status == 1
    process.stderr.close()


def test_a_relative_database_path_follows_the_config_file_and_is_named_absolute(tmp_path: Path) -> None:
    settings, elsewhere = tmp_path / "etc", tmp_path / "elsewhere"
    (settings / "data").mkdir(parents=True)
    elsewhere.mkdir()
    (settings / "config.toml").write_text('[database]\npath = "data/bot.sqlite3"\n', encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("BOARDHOST_")}
    env.update(BOARDHOST_CONFIG="../etc/config.toml", PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-m", "bot", "migrate"], capture_output=True, text=True, cwd=elsewhere, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"{settings / 'data' / 'bot.sqlite3'}: schema version")
    assert (settings / "data" / "bot.sqlite3").exists() and list(elsewhere.iterdir()) == []


def test_a_shard_count_of_0_means_no_sharding_on_the_command_line_as_in_the_file(tmp_path: Path) -> None:
    """Both are accepted: the bot goes on to ask for its token."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("BOARDHOST_") and k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(ROOT)
    (tmp_path / "config.toml").write_text("[discord]\nshard_count = 0\n", encoding="utf-8")
    for args in (["--shard-count", "0"], []):
        done = subprocess.run(
            [sys.executable, "-m", "bot", *args], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60
        )
        assert (done.returncode, done.stderr.strip()) == (2, TOKEN_HELP)
