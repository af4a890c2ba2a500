"""A PostgreSQL server for tests and benchmarks: ``BOARDHOST_TEST_POSTGRES`` (a DSN) when set, otherwise a
throwaway server started from the binaries installed on the machine (``pg_config --bindir``: ``initdb`` and
``pg_ctl`` in a temporary folder, listening only on a unix socket there; as root they run as the ``postgres``
user). ``why_not`` says why neither is possible (then PostgreSQL tests are skipped, or fail under
``BOARDHOST_REQUIRE_POSTGRES=1``, which ``.ci/run`` sets on a machine that has the binaries)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import quote

import asyncpg
import pytest

ENV_DSN = "BOARDHOST_TEST_POSTGRES"
ENV_REQUIRE = "BOARDHOST_REQUIRE_POSTGRES"


def with_params(dsn: str, **params: str) -> str:
    """``dsn`` with query parameters added (asyncpg passes unknown ones, e.g. ``search_path``, to the server)."""
    extra = "&".join(f"{k}={quote(v, safe='/')}" for k, v in params.items())
    return f"{dsn}{'&' if '?' in dsn else '?'}{extra}" if extra else dsn


class Server:
    """A PostgreSQL server to run tests against: ``dsn`` reaches its ``postgres`` database as a superuser."""

    def __init__(self) -> None:
        self.dsn: str | None = os.environ.get(ENV_DSN) or None
        self.why_not: str | None = None
        self._folder: Path | None = None
        self._pg_ctl: Path | None = None
        self._as: list[str] = []

    def start(self) -> Server:
        if self.dsn:
            return self
        try:
            self._start()
        except (OSError, subprocess.SubprocessError, RuntimeError) as err:
            self.why_not = f"no PostgreSQL for the tests: {ENV_DSN} is not set and no server could be started ({err})"
            self.stop()
        return self

    def _start(self) -> None:
        pg_config = shutil.which("pg_config")
        if pg_config is None:
            raise RuntimeError("pg_config is not installed")
        found = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True, check=True)
        bindir = Path(found.stdout.strip())
        initdb, pg_ctl = bindir / "initdb", bindir / "pg_ctl"
        if not initdb.exists() or not pg_ctl.exists():
            raise RuntimeError(f"initdb or pg_ctl missing in {bindir} (install the server package)")
        folder = Path(tempfile.mkdtemp(prefix="boardhost-pg-"))
        self._folder = folder
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root
            runuser = shutil.which("runuser")
            if runuser is None:
                raise RuntimeError("running as root without runuser to start PostgreSQL as the postgres user")
            shutil.chown(folder, "postgres")
            self._as = [runuser, "-u", "postgres", "--"]
        data = folder / "data"
        self._run([str(initdb), "-D", str(data), "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"])
        options = (
            f"-k {folder} -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
            " -c max_connections=200"
        )
        self._pg_ctl = pg_ctl
        self._run([str(pg_ctl), "-D", str(data), "-o", options, "-l", str(folder / "log"), "-w", "-t", "60", "start"])
        self.dsn = f"postgresql://postgres@/postgres?host={folder}"

    def _run(self, command: list[str]) -> None:
        done = subprocess.run([*self._as, *command], capture_output=True, text=True, timeout=120, cwd="/")
        if done.returncode != 0:
            raise RuntimeError(f"{Path(command[0]).name} failed: {(done.stderr or done.stdout).strip()[-500:]}")

    def restart(self) -> None:
        """Stop the server (every connection is cut) and start it again on the same data and options."""
        if self._pg_ctl is None or self._folder is None:
            raise RuntimeError("only a server started here can be restarted")
        data, log = self._folder / "data", self._folder / "log"
        self._run([str(self._pg_ctl), "-D", str(data), "-l", str(log), "-m", "fast", "-w", "-t", "60", "restart"])

    def stop(self) -> None:
        if self._pg_ctl is not None and self._folder is not None:
            subprocess.run(
                [*self._as, str(self._pg_ctl), "-D", str(self._folder / "data"), "-m", "immediate", "-w", "stop"],
                capture_output=True,
                timeout=60,
                cwd="/",
            )
            self._pg_ctl = None
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None


def required() -> bool:
    return os.environ.get(ENV_REQUIRE, "") not in ("", "0")


async def postgres_schema(server: Server) -> AsyncIterator[str]:
    """A fresh, empty schema on ``server`` as the URL to open it with; dropped afterwards. Skips the test when there
    is no server (fails it instead under ``BOARDHOST_REQUIRE_POSTGRES``)."""
    if server.dsn is None:
        reason = server.why_not or "no PostgreSQL"
        if required():
            pytest.fail(f"{reason} ({ENV_REQUIRE} is set)")
        pytest.skip(reason)
    schema = f"t_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(server.dsn)
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
        yield with_params(server.dsn, search_path=schema)
        await admin.execute("SET lock_timeout = '20s'")
        await admin.execute(f"DROP SCHEMA {schema} CASCADE")
    finally:
        await admin.close()
