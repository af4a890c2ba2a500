"""The fake Discord's reading of whom a message pings (``bot/local/loopback/mentions.py``), by Discord's rules."""

from __future__ import annotations

from bot.local.loopback.mentions import Pings, check, pings

TEXT = "<@11> and <@!12>, <@&21>: @everyone @here"


def test_without_allowed_mentions_everything_in_the_content_pings() -> None:
    assert pings(TEXT, None) == Pings(frozenset({11, 12}), frozenset({21}), True)
    assert pings("hi", None, replied_to=13) == Pings(frozenset({13}))


def test_allowed_mentions_ping_only_what_they_allow() -> None:
    assert not pings(TEXT, {})
    assert not pings(TEXT, {"parse": []})
    assert pings(TEXT, {"parse": [], "users": ["12", "13"]}) == Pings(frozenset({12}))  # 13 is not in the content
    assert pings(TEXT, {"parse": ["users"]}) == Pings(frozenset({11, 12}))
    assert pings(TEXT, {"roles": [21]}) == Pings(roles=frozenset({21}))
    assert pings(TEXT, {"parse": ["everyone"]}) == Pings(everyone=True)
    assert pings("hi", {"replied_user": True}, replied_to=13) == Pings(frozenset({13}))
    assert not pings("hi", {"parse": []}, replied_to=13)


def test_a_name_in_a_text_pings_only_when_it_is_a_mention() -> None:
    harmless = "@\u200beveryone <@\u200b&21> @\u200bhere <@\u200b11>"
    assert not pings(harmless, None)


def test_discord_refuses_contradictory_or_oversized_allowed_mentions() -> None:
    assert check(None) == [] and check({"parse": ["users", "roles"], "users": []}) != []
    assert [p[1] for p in check({"parse": ["users"], "users": ["1"]})] == ["MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE"]
    assert [p[1] for p in check({"users": [str(i) for i in range(1, 102)]})] == ["BASE_TYPE_MAX_LENGTH"]
    assert [p[1] for p in check({"parse": ["channels"]})] == ["ENUM_TYPE_COERCE"]
    assert check({"parse": [], "users": ["1", 2], "roles": [], "replied_user": False}) == []
