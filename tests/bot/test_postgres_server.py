"""The tests' PostgreSQL: a DSN from the environment wins; without one and without the binaries the reason is told
(and BOARDHOST_REQUIRE_POSTGRES, set by .ci/run where the binaries are, turns the skip into a failure)."""

from __future__ import annotations

import pytest

from tests import postgres
from tests.postgres import Server, required, with_params


def test_a_dsn_from_the_environment_is_used_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOARDHOST_TEST_POSTGRES", "postgresql://ci@db/test")
    server = Server().start()
    assert server.dsn == "postgresql://ci@db/test" and server.why_not is None
    server.stop()


def test_without_a_dsn_or_the_binaries_the_reason_is_told(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BOARDHOST_TEST_POSTGRES", raising=False)
    monkeypatch.setattr(postgres.shutil, "which", lambda name: None)
    server = Server().start()
    assert server.dsn is None
    assert server.why_not is not None and "BOARDHOST_TEST_POSTGRES is not set" in server.why_not
    assert "pg_config is not installed" in server.why_not


def test_ci_requires_postgresql_where_the_binaries_are(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOARDHOST_REQUIRE_POSTGRES", "1")
    assert required()
    monkeypatch.setenv("BOARDHOST_REQUIRE_POSTGRES", "0")
    assert not required()


def test_a_schema_is_chosen_through_the_url() -> None:
    assert with_params("postgresql://u@/db?host=/tmp/x", search_path="t_1") == (
        "postgresql://u@/db?host=/tmp/x&search_path=t_1"
    )
    assert with_params("postgresql://u@h/db", search_path="t_1") == "postgresql://u@h/db?search_path=t_1"
