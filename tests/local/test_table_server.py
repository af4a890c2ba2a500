"""The table's server without a browser or a bot: two pages talk to it over its websocket as the page's JavaScript
does, and the test plays the bot, answering through the loopback's REST API as discord.py would.

What each page is sent is what that person's Discord client would show: their own ephemeral answers and direct
messages, nobody else's; what a Discord client would not send never reaches the bot; a request of the bot's that
Discord refuses is shown on every page.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import pytest

from bot.local.loopback import FakeDiscord, Interaction
from bot.local.table import shown
from bot.local.table.people import Person
from bot.local.table.web import Table

COMMANDS = [
    {
        "name": "deal",
        "description": "Deal cards",
        "name_localizations": {"ru": "раздать"},
        "description_localizations": {"ru": "Раздать карты"},
        "options": [
            {"type": 3, "name": "to", "description": "Whom", "required": True, "autocomplete": True},
            {"type": 4, "name": "cards", "description": "How many", "min_value": 1, "max_value": 5},
        ],
    },
]


class Page:
    """One open page, as the page's JavaScript sees the server."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.table: dict[str, Any] = {}
        self.messages: dict[str, dict[str, Any]] = {}
        self.resets = 0
        self.answers: dict[int, dict[str, Any]] = {}
        self.numbers = itertools.count(1)
        self.changed = asyncio.Event()
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for frame in self.ws:
            data = json.loads(frame.data)
            if data["type"] == "table":
                self.table = data
            elif data["type"] == "messages":
                if data["reset"]:
                    self.messages.clear()
                    self.resets += 1
                for key in data["remove"]:
                    self.messages.pop(key, None)
                self.messages.update({m["id"]: m for m in data["upsert"]})
            else:
                self.answers[data["req"]] = data
            self.changed.set()

    async def until(self, check: Callable[[], Any], timeout: float = 5) -> Any:
        async with asyncio.timeout(timeout):
            while not (found := check()):
                self.changed.clear()
                await self.changed.wait()
        return found

    async def ask(self, op: str, **request: Any) -> dict[str, Any]:
        number = next(self.numbers)
        await self.ws.send_json({"op": op, "req": number, **request})
        answer: dict[str, Any] = await self.until(lambda: self.answers.get(number))
        return answer

    def texts(self) -> list[str]:
        return [m.get("content", "") for m in self.messages.values()]


@dataclass
class World:
    fake: FakeDiscord
    table: Table
    session: aiohttp.ClientSession
    url: str
    pages: list[Page] = field(default_factory=list)

    async def page(self, name: str) -> Page:
        page = Page(await self.session.ws_connect(self.url + "ws"))
        self.pages.append(page)
        await page.ask("as", person=name)
        await page.until(lambda: page.table.get("me") == str(self.table.person(name).id))
        return page

    def person(self, name: str) -> Person:
        return self.table.person(name)

    async def rest(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """The bot's request (its token, discord.py's JSON)."""
        headers = {"Authorization": f"Bot {self.fake.token}"}
        async with self.session.request(method, self.fake.rest_url + path, json=body, headers=headers) as answer:
            return answer.status, await answer.json() if answer.content_length else None

    async def answer(self, inter: Interaction, kind: int, data: dict[str, Any] | None = None) -> int:
        status, _ = await self.rest(
            "POST", f"/interactions/{inter.id}/{inter.token}/callback", {"type": kind, "data": data or {}}
        )
        return status

    async def interaction(self, count: int = 1) -> Interaction:
        """The newest interaction, once there are ``count``."""
        await self.fake.wait_for(lambda: len(self.fake.interactions) >= count)
        return list(self.fake.interactions.values())[-1]


@pytest.fixture
async def world() -> AsyncIterator[World]:
    fake = FakeDiscord()
    await fake.start()
    fake.register_commands(fake.guild_id, COMMANDS)
    table = Table(fake, [Person(fake.add_user("Ada"), "Ada"), Person(fake.add_user("Boris"), "Boris", "ru")])
    url = await table.start()
    table.bot.status = "ready"
    async with aiohttp.ClientSession() as session:
        made = World(fake, table, session, url)
        yield made
        for page in made.pages:
            page.reader.cancel()
            await page.ws.close()
    await table.stop()
    await fake.stop()


async def test_an_ephemeral_answer_and_a_direct_message_reach_only_their_person(world: World) -> None:
    ada, boris = await world.page("Ada"), await world.page("Boris")

    sent = await ada.ask("slash", channel=str(world.fake.channel_id), path=["deal"], options={"to": "Boris"})
    assert "error" not in sent
    asked = await world.interaction()
    assert asked.user_id == world.person("Ada").id and asked.payload["data"]["options"][0]["value"] == "Boris"
    assert await world.answer(asked, 4, {"content": "your cards: 7, 9", "flags": 64}) == 204
    _, dm = await world.rest("POST", "/users/@me/channels", {"recipient_id": str(world.person("Boris").id)})
    await world.rest("POST", f"/channels/{dm['id']}/messages", {"content": "Ada dealt you 2 cards"})

    await ada.until(lambda: "your cards: 7, 9" in ada.texts())
    await boris.until(lambda: "Ada dealt you 2 cards" in boris.texts())
    mine = next(m for m in ada.messages.values() if m["content"] == "your cards: 7, 9")
    assert mine["ephemeral"] and mine["used"] == {"by": str(world.person("Ada").id), "command": "/deal"}
    assert boris.table["dm"] == dm["id"] and ada.table["dm"] == ""
    await asyncio.sleep(0.3)  # whatever else was going to be sent has been
    assert "your cards: 7, 9" not in boris.texts() and "Ada dealt you 2 cards" not in ada.texts()

    resets = ada.resets
    await ada.ask("as", person="Boris")  # the page takes Boris's seat: Ada's answer leaves it first
    await ada.until(lambda: "Ada dealt you 2 cards" in ada.texts())
    assert ada.resets == resets + 1 and "your cards: 7, 9" not in ada.texts()


async def test_the_commands_show_in_each_persons_language_and_go_by_their_own_names(world: World) -> None:
    ada, boris = await world.page("Ada"), await world.page("Boris")

    assert [c["label"] for c in ada.table["commands"]] == ["/deal"]
    assert [(c["label"], c["description"]) for c in boris.table["commands"]] == [("/раздать", "Раздать карты")]
    refused = await boris.ask("slash", channel=str(world.fake.channel_id), path=["deal"], options={})
    assert refused["error"] == "to: обязательное поле."  # in Boris's language, and never sent
    refused = await ada.ask(
        "slash", channel=str(world.fake.channel_id), path=["deal"], options={"to": "Boris", "cards": "9"}
    )
    assert refused["error"] == "cards: from 1 to 5."
    assert not world.fake.interactions

    completing = asyncio.create_task(
        boris.ask("complete", channel=str(world.fake.channel_id), path=["deal"], options={"to": "A"}, focused="to")
    )
    asked = await world.interaction()
    assert asked.kind == 4 and asked.payload["locale"] == "ru"
    assert asked.payload["data"]["options"] == [{"name": "to", "type": 3, "value": "A", "focused": True}]
    await world.answer(asked, 8, {"choices": [{"name": "Ada", "name_localizations": {"ru": "Ада"}, "value": "Ada"}]})
    assert (await completing)["choices"] == [{"label": "Ада", "value": "Ada"}]


async def test_a_request_discord_would_refuse_is_shown_on_every_page(world: World) -> None:
    ada, boris = await world.page("Ada"), await world.page("Boris")

    status, _ = await world.rest("POST", f"/channels/{world.fake.channel_id}/messages", {"content": "x" * 2001})

    assert status == 400
    for page in (ada, boris):
        refused = await page.until(lambda page=page: page.table["refused"])
        assert refused[0]["route"].startswith("POST /channels/") and "BASE_TYPE_MAX_LENGTH" in refused[0]["detail"]


async def test_a_form_is_checked_as_discords_client_checks_it_then_submitted(world: World) -> None:
    ada, boris = await world.page("Ada"), await world.page("Boris")
    _, message = await world.rest(
        "POST",
        f"/channels/{world.fake.channel_id}/messages",
        {
            "content": "Trade?",
            "components": [
                {"type": 1, "components": [{"type": 2, "style": 1, "label": "Offer", "custom_id": "offer"}]}
            ],
        },
    )
    await ada.until(lambda: message["id"] in ada.messages)

    await ada.ask("click", message=message["id"], custom_id="offer")
    clicked = await world.interaction()
    assert clicked.payload["data"] == {"custom_id": "offer", "component_type": 2}
    field = {"type": 4, "custom_id": "give", "style": 1, "label": "Give", "required": True, "max_length": 10}
    await world.answer(
        clicked, 9, {"custom_id": "form", "title": "Offer", "components": [{"type": 1, "components": [field]}]}
    )
    form = await ada.until(lambda: ada.table["forms"])
    assert form[0]["title"] == "Offer" and not boris.table["forms"]

    assert (await ada.ask("submit", interaction=form[0]["interaction"], values={}))[
        "error"
    ] == "Give: this is required."
    long = await ada.ask("submit", interaction=form[0]["interaction"], values={"give": "x" * 11})
    assert long["error"] == "Give: from 0 to 10 characters."
    assert (await boris.ask("submit", interaction=form[0]["interaction"], values={"give": "1 ore"}))["error"]
    await ada.ask("submit", interaction=form[0]["interaction"], values={"give": "1 ore"})
    submitted = await world.interaction(2)
    assert submitted.kind == 5 and submitted.payload["data"]["components"][0]["components"][0]["value"] == "1 ore"
    await ada.until(lambda: not ada.table["forms"])


async def test_an_interaction_the_bot_leaves_unanswered_says_so_to_its_person(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shown, "ANSWER_WITHIN", 0.2)
    ada, boris = await world.page("Ada"), await world.page("Boris")

    await ada.ask("slash", channel=str(world.fake.channel_id), path=["deal"], options={"to": "Boris"})

    notice = await ada.until(lambda: next((m for m in ada.messages.values() if m.get("notice")), None), timeout=5)
    assert notice["notice"] == "no_answer" and notice["ephemeral"]
    assert not any(m.get("notice") for m in boris.messages.values())


async def test_another_site_in_the_browser_cannot_sit_at_the_table(world: World) -> None:
    with pytest.raises(aiohttp.WSServerHandshakeError):
        await world.session.ws_connect(world.url + "ws", headers={"Origin": "https://example.com"})
    page = Page(await world.session.ws_connect(world.url + "ws", headers={"Origin": world.url.rstrip("/")}))
    world.pages.append(page)
    assert (await page.ask("as", person="Ada"))["person"] == str(world.person("Ada").id)


async def test_a_persons_message_pings_whom_it_names(world: World) -> None:
    ada, boris = await world.page("Ada"), await world.page("Boris")

    await ada.ask("say", channel=str(world.fake.channel_id), text="good luck @Boris")

    said = await boris.until(lambda: next((m for m in boris.messages.values() if m["author"] != "bot"), None))
    assert said["content"] == f"good luck <@{world.person('Boris').id}>" and said["ping"]
    mine = await ada.until(lambda: next(iter(ada.messages.values()), None))
    assert mine["author"] == str(world.person("Ada").id) and not mine["ping"]
