"""`python -m bot invite`: the link that adds the bot asks for the bot and command scopes and exactly the channel
permissions the bot uses, by Discord's own bit numbers, for the application given."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from bot.__main__ import main
from bot.cli.invite import PERMISSIONS, invite_url

# Discord's permission bits (developer documentation, "Permissions"), written out here rather than taken from
# discord.py so that a wrong name in bot/cli/invite.py cannot agree with itself.
BITS = {
    "add_reactions": 6,
    "view_channel": 10,
    "send_messages": 11,
    "manage_messages": 13,
    "embed_links": 14,
    "attach_files": 15,
    "read_message_history": 16,
    "create_public_threads": 35,
    "send_messages_in_threads": 38,
}
BASIC = {"view_channel", "send_messages", "send_messages_in_threads"}  # posting in a channel or thread at all
ROOT = Path(__file__).resolve().parents[2]


def test_the_invite_asks_for_both_scopes_and_exactly_the_permissions_the_bot_uses() -> None:
    url = urlsplit(invite_url(1234567890))
    query = parse_qs(url.query)
    assert (url.scheme, url.netloc, url.path) == ("https", "discord.com", "/oauth2/authorize")
    assert query["client_id"] == ["1234567890"]
    assert query["scope"][0].split() == ["bot", "applications.commands"]
    assert BASIC <= set(PERMISSIONS) <= set(BITS)
    assert int(query["permissions"][0]) == sum(1 << BITS[name] for name in PERMISSIONS)


def test_the_command_line_prints_the_link_for_the_application_id_given(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["invite", "--application-id", "42"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == invite_url(42)
    for name in PERMISSIONS:
        assert name.replace("_", " ") in out


def test_the_application_id_comes_from_the_config_when_not_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[discord]\napplication_id = 77\n", encoding="utf-8")
    monkeypatch.setenv("BOARDHOST_CONFIG", str(config))
    assert main(["invite"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == invite_url(77)


def test_without_an_application_id_it_says_where_to_find_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # no config.toml here
    monkeypatch.delenv("BOARDHOST_CONFIG", raising=False)
    assert main(["invite"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "--application-id" in err and "application_id" in err


def test_the_readme_names_every_permission_and_scope_the_invite_asks_for() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "python -m bot invite" in readme
    for name in PERMISSIONS:
        assert name.replace("_", " ") in readme.lower()
    for scope in ("`bot`", "`applications.commands`"):
        assert scope in readme


# Calls in the bot's code that need a channel permission beyond the basic ones, and that permission.
NEEDS = {
    r"\.history\(|fetch_message\(": "read_message_history",
    r"add_reaction\(": "add_reactions",
    r"create_thread\(": "create_public_threads",
    r"\.pin\(|\.unpin\(": "manage_messages",
    r"\bembeds?=": "embed_links",
    r"image_file\(|discord\.File\(": "attach_files",
}


def test_the_invite_asks_for_a_permission_exactly_when_the_bot_makes_a_call_that_needs_it() -> None:
    """Derived from the code: a new call that needs another permission (reading the channel's history, say) fails
    here until bot/cli/invite.py asks for it; a permission no call needs any more fails too."""
    import re

    source = "\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "bot").rglob("*.py")))
    for pattern, permission in NEEDS.items():
        used = re.search(pattern, source) is not None
        assert used == (permission in PERMISSIONS), f"{permission}: {'used' if used else 'not used'} by the bot"
