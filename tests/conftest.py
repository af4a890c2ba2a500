"""Fixtures for every test directory: a real PostgreSQL server (tests/postgres.py) and empty databases in it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from tests.postgres import Server, postgres_schema


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[Server]:
    """One PostgreSQL server for the whole run (see tests/postgres.py); each test gets its own schema in it."""
    server = Server().start()
    yield server
    server.stop()


@pytest.fixture
async def postgres_url(postgres_server: Server) -> AsyncIterator[str]:
    """A URL of an empty PostgreSQL database (a schema of its own), for tests that need PostgreSQL itself."""
    async for url in postgres_schema(postgres_server):
        yield url
