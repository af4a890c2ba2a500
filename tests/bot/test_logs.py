"""The process's log: colour only on a terminal, wherever it runs (discord.py colours any stream in Docker), and no
voice warnings."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import discord
import pytest

from bot.core.logs import setup_logging


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture(autouse=True)
def root_logger() -> Iterator[None]:
    """Each test's handlers and level come off the root logger again."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


@pytest.fixture
def in_docker(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(discord.utils, "is_docker", lambda: True)  # what /.dockerenv makes discord.py believe
    monkeypatch.delenv("NO_COLOR", raising=False)


def logged(stream: io.StringIO) -> str:
    logging.getLogger("boardhost").warning("the database is slow")
    return stream.getvalue()


@pytest.mark.usefixtures("in_docker")
def test_a_log_file_in_docker_has_no_colour_codes() -> None:
    stream = io.StringIO()
    setup_logging(logging.INFO, stream)

    text = logged(stream)

    assert "\x1b[" not in text
    assert text.endswith("[WARNING ] boardhost: the database is slow\n")


@pytest.mark.usefixtures("in_docker")
def test_a_terminal_gets_colours_unless_no_color_is_set(monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = Terminal()
    setup_logging(logging.INFO, terminal)
    assert "\x1b[" in logged(terminal)

    monkeypatch.setenv("NO_COLOR", "1")
    terminal = Terminal()
    setup_logging(logging.INFO, terminal)
    assert "\x1b[" not in logged(terminal)


def test_the_missing_voice_libraries_are_not_warned_about(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)  # as without PyNaCl
    monkeypatch.setattr(discord.VoiceClient, "warn_dave", True)  # as without davey
    stream = io.StringIO()
    setup_logging(logging.INFO, stream)

    discord.Client(intents=discord.Intents.none())

    assert "voice" not in stream.getvalue()
