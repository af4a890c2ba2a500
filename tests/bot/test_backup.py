"""``python -m bot backup TO`` as the README's "Backup and restore" uses it: a copy of the SQLite database in one
file, complete while the bot runs (moves still only in the WAL included), never overwriting a file, never creating
the database it was asked to read, and one line for each refusal."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from bot.__main__ import main


@pytest.fixture
def running(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[sqlite3.Connection]:
    """A database as the running bot keeps it: WAL mode, the newest writes not yet folded into the file."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("BOARDHOST_CONFIG", raising=False)
    monkeypatch.setenv("BOARDHOST_DATABASE", str(tmp_path / "boardhost.sqlite3"))
    with closing(sqlite3.connect(tmp_path / "boardhost.sqlite3")) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA wal_autocheckpoint=0")
        db.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, state TEXT)")
        db.execute("INSERT INTO games (state) VALUES ('a move only in the WAL')")
        db.commit()
        yield db


def test_a_backup_of_a_running_bots_database_is_one_complete_file(
    running: sqlite3.Connection, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (tmp_path / "boardhost.sqlite3-wal").stat().st_size > 0

    assert main(["backup", "saved.sqlite3"]) == 0

    assert "backed up to saved.sqlite3" in capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.glob("saved*")) == ["saved.sqlite3"]  # no -wal beside it
    with closing(sqlite3.connect(tmp_path / "saved.sqlite3")) as copy:
        assert copy.execute("SELECT state FROM games").fetchall() == [("a move only in the WAL",)]


def test_a_backup_never_overwrites_a_file(
    running: sqlite3.Connection, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "saved.sqlite3").write_text("last week's", encoding="utf-8")

    assert main(["backup", "saved.sqlite3"]) == 1

    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "exists already" in err
    assert (tmp_path / "saved.sqlite3").read_text(encoding="utf-8") == "last week's"


def test_a_missing_database_or_folder_is_one_line_and_creates_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("BOARDHOST_CONFIG", raising=False)
    monkeypatch.setenv("BOARDHOST_DATABASE", str(tmp_path / "typo.sqlite3"))

    assert main(["backup", "saved.sqlite3"]) == 1
    assert "no database at" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []

    (tmp_path / "typo.sqlite3").touch()
    assert main(["backup", "no/such/folder/saved.sqlite3"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no folder" in err


def test_postgresql_is_backed_up_with_pg_dump(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("BOARDHOST_CONFIG", raising=False)
    monkeypatch.setenv("BOARDHOST_DATABASE", "postgresql://boardhost:secret@db:5432/boardhost")

    assert main(["backup", "saved.sqlite3"]) == 2

    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pg_dump" in err and "secret" not in err
