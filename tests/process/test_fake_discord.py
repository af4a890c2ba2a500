"""The fake Discord refuses what Discord refuses, with Discord's answers, and records it so that the test fails."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import pytest

from tests.fakediscord import FakeDiscord, limits, server


async def call(fake: FakeDiscord, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    async with (
        aiohttp.ClientSession() as session,
        session.request(
            method, fake.rest_url + path, json=body, headers={"Authorization": f"Bot {fake.token}"}
        ) as response,
    ):
        return response.status, await response.json() if response.status != 204 else None


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def button(custom_id: str, label: str = "ok") -> dict[str, Any]:
    return {"type": 2, "style": 1, "custom_id": custom_id, "label": label}


async def test_a_message_over_the_limits_gets_discords_invalid_form_body(fake: FakeDiscord) -> None:
    body = {
        "content": "x" * 2001,
        "components": [row(button("a", "y" * 81), button("a")), row({"type": 3, "custom_id": "s", "options": []})],
    }

    status, answer = await call(fake, "POST", f"/channels/{fake.channel_id}/messages", body)

    assert status == 400 and answer["code"] == 50035 and answer["message"] == "Invalid Form Body"
    assert answer["errors"]["content"]["_errors"][0]["code"] == "BASE_TYPE_MAX_LENGTH"
    first_row = answer["errors"]["components"]["0"]["components"]
    assert "label" in first_row["0"] and "custom_id" in first_row["1"]  # too long; the same id twice
    assert "options" in answer["errors"]["components"]["1"]["components"]["0"]
    assert fake.messages[fake.channel_id] == []
    with pytest.raises(AssertionError, match="Discord would refuse"):
        fake.check()


def test_embeds_modals_choices_and_uploads_are_held_to_discords_numbers() -> None:
    field = {"name": "n", "value": "v" * 1025}
    assert limits.check_embeds([{"description": "d"}] * 11)
    assert limits.check_embeds([{"fields": [field]}])
    assert limits.check_embeds([{"description": "d" * 4000}, {"description": "d" * 2001}])  # 6001 in all
    assert not limits.check_embeds([{"description": "d" * 4000}, {"description": "d" * 2000}])
    text = {"type": 4, "custom_id": "c", "label": "L", "style": 1}
    assert limits.check_modal({"title": "T" * 46, "custom_id": "m", "components": [row(text)]})
    assert limits.check_modal(
        {"title": "T", "custom_id": "m", "components": [row({**text, "custom_id": str(i)}) for i in range(6)]}
    )
    assert limits.check_modal({"title": "T", "custom_id": "m", "components": [row({**text, "label": "L" * 46})]})
    assert not limits.check_modal({"title": "T" * 45, "custom_id": "m", "components": [row(text)]})
    assert limits.check_choices([{"name": str(i), "value": str(i)} for i in range(26)])
    assert limits.check_message({}, [("board.png", limits.UPLOAD + 1)])
    assert not limits.check_message({}, [("board.png", limits.UPLOAD)])


def test_command_names_descriptions_and_localisations_follow_discords_rules() -> None:
    good = {"name": "game", "description": "The game", "name_localizations": {"ru": "игра", "zh-CN": "游戏"}}
    assert not limits.check_commands([good])
    assert limits.check_commands([{**good, "name": "Game"}])  # lowercase only
    assert limits.check_commands([{**good, "name": "two words"}])
    assert limits.check_commands([{**good, "name": "g" * 33}])
    assert limits.check_commands([{**good, "description": ""}])
    assert limits.check_commands([{**good, "description": "d" * 101}])
    assert limits.check_commands([{**good, "name_localizations": {"zh": "游戏"}}])  # not a Discord locale
    assert limits.check_commands([{**good, "description_localizations": {"ru": "д" * 101}}])
    optional_first = [
        {"name": "a", "description": "a", "type": 3},
        {"name": "b", "description": "b", "type": 3, "required": True},
    ]
    assert limits.check_commands([{**good, "options": optional_first}])


async def test_more_than_five_messages_in_five_seconds_get_a_429_with_retry_after(fake: FakeDiscord) -> None:
    answers = [await call(fake, "POST", f"/channels/{fake.channel_id}/messages", {"content": str(i)}) for i in range(6)]

    assert [status for status, _ in answers] == [200] * 5 + [429]
    assert 0 < answers[-1][1]["retry_after"] <= 5
    assert len(fake.messages[fake.channel_id]) == 5


async def test_a_dm_to_someone_who_closed_them_fails_with_50007(fake: FakeDiscord) -> None:
    shy = fake.add_user("Shy", dms_closed=True)
    status, channel = await call(fake, "POST", "/users/@me/channels", {"recipient_id": str(shy)})
    assert status == 200

    status, answer = await call(fake, "POST", f"/channels/{channel['id']}/messages", {"content": "your turn"})

    assert (status, answer["code"]) == (403, 50007)
    fake.check()  # Discord's answer, not a mistake of the bot


async def test_an_interaction_answered_late_gets_10062_and_answered_twice_gets_40060(
    fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice = fake.add_user("Alice")
    first = await fake.slash(alice, "game back")
    second = await fake.slash(alice, "game back")
    answer = {"type": 4, "data": {"content": "hi"}}

    status, _ = await call(fake, "POST", f"/interactions/{first}/{fake.interactions[first].token}/callback", answer)
    assert status == 204
    status, again = await call(fake, "POST", f"/interactions/{first}/{fake.interactions[first].token}/callback", answer)
    assert (status, again["code"]) == (400, 40060)

    monkeypatch.setattr(server, "ANSWER_WITHIN", 0.05)
    await asyncio.sleep(0.1)
    status, late = await call(
        fake, "POST", f"/interactions/{second}/{fake.interactions[second].token}/callback", answer
    )
    assert (status, late["code"]) == (404, 10062)
    assert len(fake.violations) == 2


async def test_a_429_comes_with_discords_via_header_so_discord_py_waits_and_retries(fake: FakeDiscord) -> None:
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {fake.token}"}) as session:
        for i in range(6):
            async with session.post(
                f"{fake.rest_url}/channels/{fake.channel_id}/messages", json={"content": str(i)}
            ) as r:
                status, via = r.status, r.headers.get("Via")

    assert (status, via) == (429, "1.1 google")  # without Via, discord.py takes a 429 for a Cloudflare ban


async def test_users_are_fetched_by_id_and_a_click_in_a_dm_comes_from_a_user_without_a_server(
    fake: FakeDiscord,
) -> None:
    bob = fake.add_user("Bob")
    status, user = await call(fake, "GET", f"/users/{bob}")
    assert (status, user["global_name"]) == (200, "Bob")
    assert (await call(fake, "GET", "/users/42"))[1]["code"] == 10013
    _, channel = await call(fake, "POST", "/users/@me/channels", {"recipient_id": str(bob)})
    button = {"type": 2, "style": 1, "custom_id": "bh:ct:1:2:acc:1", "label": "Accept"}
    await call(
        fake, "POST", f"/channels/{channel['id']}/messages", {"content": "an offer", "components": [row(button)]}
    )

    clicked = fake.interactions[await fake.click(bob, "bh:ct:1:2:acc:1")].payload

    assert clicked["user"]["id"] == str(bob) and "member" not in clicked and "guild_id" not in clicked
    assert clicked["channel"]["type"] == 1 and clicked["context"] == 1
