"""The table's web server (127.0.0.1 only): the page, its files, the images the bot uploaded, and one websocket per
open page.

Each page plays one person at a time (``#Name`` in its address picks whom; the page switches in one click). Over its
websocket the page gets what that person's Discord client shows (``shown``), brought up to date after every change
the loopback notices (only what changed is sent again), and sends what the person does, which ``asking`` checks and
the loopback sends to the bot as interactions. Two pages can play two people at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import mimetypes
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from aiohttp import WSMsgType, web

import render
from bot.local.loopback import FakeDiscord, payloads
from bot.local.table import asking, shown
from bot.local.table.chrome import words
from bot.local.table.people import LOCALES, MOST, Person, next_name
from bot.text import t
from bot.text.i18n import resolve, speaking

log = logging.getLogger("boardhost.try")

STATIC: Final = Path(__file__).resolve().parent / "static"
PAGES: Final = {"table.css": "text/css", "table.js": "text/javascript"}
FONTS: Final = Path(render.__file__).resolve().parent / "fonts"
FONT_FILES: Final = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DroidSansFallbackFull.ttf", "BoardhostEmoji.ttf")
AUTOCOMPLETE_WAIT: Final = 3.5  # seconds: Discord gives the bot 3 to answer, the page a little more to hear it
EVERY: Final = 1.0  # seconds between two looks when nothing changes (Discord's "did not respond" comes by time)
CALM: Final = 0.1  # seconds between two updates of one page: a burst of changes goes out as one


@dataclass
class Bot:
    """How the bot's process is doing, for the page: starting, ready, or stopped (with the end of its log)."""

    status: str = "starting"
    detail: str = ""


@dataclass
class Table:
    fake: FakeDiscord
    people: list[Person]
    bot: Bot = field(default_factory=Bot)
    private: dict[int, shown.Private] = field(default_factory=dict)
    _runner: web.AppRunner | None = None
    port: int = 0

    def person(self, key: object) -> Person:
        """A person by id or name (the first person for anything else)."""
        text = str(key)
        return next((p for p in self.people if str(p.id) == text or p.name == text), self.people[0])

    def private_of(self, person: Person) -> shown.Private:
        return self.private.setdefault(person.id, shown.Private())

    async def add_person(self) -> Person | None:
        name = next_name(self.people)
        if name is None or len(self.people) >= MOST:
            return None
        person = Person(self.fake.add_user(name), name)
        self.people.append(person)
        await self.fake.notify()
        return person

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/", self._index)
        app.router.add_get("/static/{name}", self._static)
        app.router.add_get("/fonts/{name}", self._font)
        app.router.add_get("/files/{id}/{name}", self._file)
        app.router.add_get("/ws", self._socket)
        return app

    async def start(self, port: int = 0) -> str:
        """Serve the page on 127.0.0.1 (``port`` 0: a free one); its address."""
        self._runner = web.AppRunner(self.app(), handle_signals=False, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        # aiohttp keeps the listening socket private (and typed as maybe absent): the port the system picked
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return f"http://127.0.0.1:{self.port}/"

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    # -- files --------------------------------------------------------------------------------------------------

    async def _index(self, request: web.Request) -> web.Response:
        return web.Response(text=(STATIC / "table.html").read_text(encoding="utf-8"), content_type="text/html")

    async def _static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in PAGES:
            raise web.HTTPNotFound()
        return web.Response(text=(STATIC / name).read_text(encoding="utf-8"), content_type=PAGES[name])

    async def _font(self, request: web.Request) -> web.FileResponse:
        name = request.match_info["name"]
        if name not in FONT_FILES:
            raise web.HTTPNotFound()
        return web.FileResponse(FONTS / name, headers={"Cache-Control": "max-age=86400"})

    async def _file(self, request: web.Request) -> web.Response:
        """An upload of the bot's (a board image, a replay file), as Discord's CDN serves it."""
        key = request.match_info["id"]
        found = self.fake.attachments.get(int(key)) if key.isdigit() else None
        if found is None or found.filename != request.match_info["name"]:
            raise web.HTTPNotFound()
        headers = {"Cache-Control": "max-age=86400"}
        if not found.filename.lower().endswith((".png", ".webp", ".gif", ".jpg", ".jpeg")):
            headers["Content-Disposition"] = f'attachment; filename="{found.filename}"'
        kind = found.content_type if found.content_type not in (None, "application/octet-stream") else None
        return web.Response(body=found.data, content_type=kind or _kind(found.filename), headers=headers)

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        origin = request.headers.get("Origin")
        if origin is not None and origin not in (f"http://127.0.0.1:{self.port}", f"http://localhost:{self.port}"):
            raise web.HTTPForbidden()  # another site open in the browser does not get to play at this table
        ws = web.WebSocketResponse(heartbeat=30)
        await ws.prepare(request)
        page = Page(self, ws, self.people[0])
        pump = asyncio.create_task(page.pump())
        try:
            async for frame in ws:
                if frame.type == WSMsgType.TEXT:
                    page.spawn(page.handle(json.loads(frame.data)))
        finally:
            pump.cancel()
            page.close()
        return ws


def _kind(filename: str) -> str:
    return mimetypes.guess_type(filename)[0] or "application/octet-stream"


class Page:
    """One open page: the person it plays now, and what it was last sent."""

    def __init__(self, table: Table, ws: web.WebSocketResponse, person: Person) -> None:
        self.table = table
        self.fake = table.fake
        self.ws = ws
        self.person = person
        self.sent: dict[str, object] = {}  # message id -> its state when sent
        self.sent_table = ""
        self.reset = True  # the page may hold another person's messages: it drops them all first
        self.wake = asyncio.Event()
        self.lock = asyncio.Lock()  # one update at a time, and never a switch of person in the middle of one
        self.tasks: set[asyncio.Task[None]] = set()

    def spawn(self, work: Awaitable[None]) -> None:
        async def run() -> None:
            try:
                await work
            except Exception:  # one bad request must not end the page; the log says what it was
                log.exception("the page's request failed")

        task = asyncio.create_task(run())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()

    async def pump(self) -> None:
        """Keep the page up to date: after every change, and every ``EVERY`` seconds."""
        seen = -1
        with contextlib.suppress(ConnectionError):
            while not self.ws.closed:
                await self.refresh()
                waiting = asyncio.create_task(self.fake.next_change(seen, EVERY))
                woken = asyncio.create_task(self.wake.wait())
                done, pending = await asyncio.wait({waiting, woken}, return_when=asyncio.FIRST_COMPLETED)
                for task in pending:
                    task.cancel()
                if waiting in done:
                    seen = waiting.result()
                self.wake.clear()
                await asyncio.sleep(CALM)

    async def refresh(self) -> None:
        async with self.lock:
            await self._refresh()

    async def _refresh(self) -> None:
        table, person, fake = self.table, self.person, self.fake
        private = table.private_of(person)
        view = shown.table(fake, table.people, person, private)
        view.update(
            bot={**view["bot"], "status": table.bot.status, "detail": table.bot.detail},
            commands=asking.menu(fake, person.locale),
            words=words(person.locale),
            locales=LOCALES,
            full=len(table.people) >= MOST,
        )
        text = json.dumps({"type": "table", **view}, ensure_ascii=False)
        if text != self.sent_table:
            await self.ws.send_str(text)
            self.sent_table = text
        items = shown.visible(fake, person, private)
        upsert = []
        for key, item in items.items():
            state = shown.state(fake, item)
            if self.sent.get(key) != state:
                upsert.append(shown.shown(fake, item, person))
                self.sent[key] = state
        removed = [key for key in self.sent if key not in items]
        for key in removed:
            del self.sent[key]
        if upsert or removed or self.reset:
            update = {"type": "messages", "upsert": upsert, "remove": removed, "reset": self.reset}
            await self.ws.send_str(json.dumps(update, ensure_ascii=False))
            self.reset = False
        person.seen = max(person.seen, shown.newest(fake, person))

    async def switch(self, person: Person) -> None:
        async with self.lock:
            self.person = person
            self.sent.clear()
            self.sent_table = ""
            self.reset = True

    async def answer(self, request: dict[str, Any], **answer: Any) -> None:
        if "req" in request and not self.ws.closed:
            await self.ws.send_str(json.dumps({"type": "answer", "req": request["req"], **answer}, ensure_ascii=False))

    async def handle(self, request: dict[str, Any]) -> None:
        op = str(request.get("op"))
        handler = HANDLERS.get(op)
        if handler is None:
            return
        try:
            await handler(self, request)
        except asking.Refused as refused:
            with speaking(resolve(self.person.locale)):
                await self.answer(request, error=t(refused.key, **refused.params))
            return
        self.wake.set()


# -- what a page asks for ---------------------------------------------------------------------------------------


async def _as(page: Page, request: dict[str, Any]) -> None:
    await page.switch(page.table.person(request.get("person")))
    await page.answer(request, person=str(page.person.id))


async def _locale(page: Page, request: dict[str, Any]) -> None:
    if request.get("locale") in LOCALES:
        async with page.lock:
            page.person.locale = str(request["locale"])
            page.sent.clear()  # the command names in "used /…" are in the reader's language
        await page.fake.notify()


async def _add_person(page: Page, request: dict[str, Any]) -> None:
    person = await page.table.add_person()
    if person is not None:
        await page.switch(person)
    await page.answer(request, person=str(page.person.id))


def _channel(page: Page, request: dict[str, Any]) -> int:
    channel = int(str(request.get("channel") or 0))
    if channel not in page.fake.channels:
        raise asking.Refused("try.gone")
    return channel


async def _slash(page: Page, request: dict[str, Any]) -> None:
    person, fake = page.person, page.fake
    path = [str(part) for part in request.get("path") or []]
    typed = asking.options(fake, path, request.get("options") or {}, person.locale)
    channel = _channel(page, request)
    await fake.slash(person.id, " ".join(path), channel_id=channel, locale=person.locale, **typed)
    await page.answer(request)


async def _complete(page: Page, request: dict[str, Any]) -> None:
    """Autocomplete: the interaction, then the bot's choices (none when it did not answer in time)."""
    person, fake = page.person, page.fake
    path = [str(part) for part in request.get("path") or []]
    focused = str(request.get("focused"))
    typed = asking.options(fake, path, request.get("options") or {}, person.locale, focused=focused)
    asked = await fake.autocomplete(
        person.id, " ".join(path), focused, channel_id=_channel(page, request), locale=person.locale, **typed
    )
    answer = None
    with contextlib.suppress(TimeoutError):
        answer = await fake.wait_answer(asked, timeout=AUTOCOMPLETE_WAIT)
    await page.answer(request, choices=asking.choices(answer, person.locale))


def _message(page: Page, request: dict[str, Any]) -> Any:
    """The message a click is on, if this person can see it."""
    key = str(request.get("message") or "")
    msg = page.fake.message(int(key)) if key.isdigit() else None
    if msg is None or key not in shown.visible(page.fake, page.person, page.table.private_of(page.person)):
        raise asking.Refused("try.gone")
    return msg


async def _click(page: Page, request: dict[str, Any]) -> None:
    msg = _message(page, request)
    custom_id = str(request.get("custom_id"))
    asking.component(msg, custom_id)
    await page.fake.click(page.person.id, custom_id, message=msg, locale=page.person.locale)
    await page.answer(request)


async def _select(page: Page, request: dict[str, Any]) -> None:
    msg = _message(page, request)
    custom_id = str(request.get("custom_id"))
    values = asking.picked(asking.component(msg, custom_id), [str(v) for v in request.get("values") or []])
    await page.fake.select(page.person.id, custom_id, values, message=msg, locale=page.person.locale)
    await page.answer(request)


def _form(page: Page, request: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    key = str(request.get("interaction") or "")
    inter = page.fake.interactions.get(int(key)) if key.isdigit() else None
    private = page.table.private_of(page.person)
    if inter is None or inter.user_id != page.person.id or inter.modal is None or inter.id in private.closed_forms:
        raise asking.Refused("try.gone")
    return inter.id, inter.modal


async def _submit(page: Page, request: dict[str, Any]) -> None:
    opened_by, modal = _form(page, request)
    values = asking.filled(modal, request.get("values") or {})
    page.table.private_of(page.person).closed_forms.add(opened_by)
    await page.fake.submit(page.person.id, opened_by, values, locale=page.person.locale)
    await page.answer(request)


async def _close_form(page: Page, request: dict[str, Any]) -> None:
    """Closing a form sends Discord nothing."""
    opened_by, _ = _form(page, request)
    page.table.private_of(page.person).closed_forms.add(opened_by)
    await page.answer(request)


async def _dismiss(page: Page, request: dict[str, Any]) -> None:
    """Dismissing an ephemeral message (or Discord's notice) hides it in this person's client only."""
    key = str(request.get("message") or "").removeprefix("n")
    if key.isdigit():
        page.table.private_of(page.person).dismissed.add(int(key))
    await page.answer(request)


async def _say(page: Page, request: dict[str, Any]) -> None:
    text = str(request.get("text") or "")
    if len(text) > payloads.CONTENT:
        raise asking.Refused("try.message_too_long")
    for person in page.table.people:  # "@Boris" pings Boris, as a Discord client turns it into his mention
        text = re.sub(rf"(?<![\w<])@{re.escape(person.name)}\b", f"<@{person.id}>", text)
    if text.strip():
        await page.fake.say(page.person.id, _channel(page, request), text)
    await page.answer(request)


HANDLERS: Final[dict[str, Callable[[Page, dict[str, Any]], Awaitable[None]]]] = {
    "as": _as,
    "locale": _locale,
    "add_person": _add_person,
    "slash": _slash,
    "complete": _complete,
    "click": _click,
    "select": _select,
    "submit": _submit,
    "close_form": _close_form,
    "dismiss": _dismiss,
    "say": _say,
}
