"""A real Chromium, headless, driven over the DevTools protocol with aiohttp's websockets (no driver to install, no
browser download): the system's ``chromium`` (Debian's package), or the one ``BOARDHOST_CHROMIUM`` names.

Clicks are the mouse's (pressed and released at the element's middle), typing is the keyboard's: the page sees what
it would see from a person. Every JavaScript error the page throws is kept in ``Tab.errors``.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import os
import re
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp

ENV = "BOARDHOST_CHROMIUM"
NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
LISTENING = re.compile(r"DevTools listening on (ws://\S+)")


def find_chromium() -> str | None:
    if os.environ.get(ENV):
        return os.environ[ENV]
    return next((found for name in NAMES if (found := shutil.which(name))), None)


class Failed(Exception):
    pass


class Tab:
    """One page of the browser."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.ids = itertools.count(1)
        self.pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.errors: list[str] = []
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for frame in self.ws:
            if frame.type != aiohttp.WSMsgType.TEXT:
                continue
            data = json.loads(frame.data)
            if "id" in data and data["id"] in self.pending:
                self.pending.pop(data["id"]).set_result(data)
            elif data.get("method") == "Runtime.exceptionThrown":
                details = data["params"]["exceptionDetails"]
                self.errors.append(str((details.get("exception") or {}).get("description") or details.get("text")))
            elif data.get("method") == "Log.entryAdded" and data["params"]["entry"]["level"] == "error":
                self.errors.append(str(data["params"]["entry"]["text"]))

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        number = next(self.ids)
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[number] = answer
        await self.ws.send_str(json.dumps({"id": number, "method": method, "params": params}))
        data = await asyncio.wait_for(answer, 30)
        if "error" in data:
            raise Failed(f"{method}: {data['error']}")
        result: dict[str, Any] = data.get("result", {})
        return result

    async def evaluate(self, expression: str) -> Any:
        result = await self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise Failed(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    async def wait(self, expression: str, timeout: float = 20, what: str = "") -> Any:
        """The first truthy value of ``expression``, polled."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            value = await self.evaluate(expression)
            if value:
                return value
            if asyncio.get_running_loop().time() > deadline:
                raise Failed(f"waited {timeout} s for {what or expression}")
            await asyncio.sleep(0.1)

    async def click(self, selector: str, timeout: float = 20) -> None:
        """A mouse click in the middle of the first element ``selector`` finds (waiting for it to be there)."""
        await self.click_on(f"document.querySelector({json.dumps(selector)})", timeout, what=selector)

    async def click_on(self, element: str, timeout: float = 20, what: str = "") -> None:
        """A mouse click in the middle of the element the JavaScript expression ``element`` gives (once it does)."""
        await self.front()
        box = await self.wait(
            f"(() => {{ const e = {element}; if (!e) return null;"
            " e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();"
            " const x = r.x + r.width / 2, y = r.y + r.height / 2;"
            # what a person would hit there: the element itself, not something drawn over it or scrolled into place
            " return r.width && r.height && e.contains(document.elementFromPoint(x, y)) ? {x, y} : null; })()",
            timeout,
            what=what or element,
        )
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            await self.send("Input.dispatchMouseEvent", type=kind, x=box["x"], y=box["y"], button="left", clickCount=1)

    async def type(self, text: str) -> None:
        await self.send("Input.insertText", text=text)

    async def press(self, key: str) -> None:
        codes = {"Enter": 13, "Escape": 27, "Tab": 9}
        for kind in ("keyDown", "keyUp"):
            await self.send(
                "Input.dispatchKeyEvent",
                type=kind,
                key=key,
                code=key,
                windowsVirtualKeyCode=codes[key],
                **({"text": "\r"} if key == "Enter" and kind == "keyDown" else {}),
            )

    async def front(self) -> None:
        """Bring the window to the front, as a person does before clicking in it (a hidden page does not paint),
        and let it paint a frame."""
        await self.send("Page.bringToFront")
        await self.evaluate(
            "new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"
        )

    async def capture(self) -> bytes:
        """What the window shows now, as a PNG."""
        await self.front()
        shot = await self.send("Page.captureScreenshot", format="png")
        return base64.b64decode(shot["data"])

    async def screenshot(self, path: Path) -> None:
        path.write_bytes(await self.capture())

    async def close(self) -> None:
        self.reader.cancel()
        await self.ws.close()


class Chromium:
    def __init__(self, process: asyncio.subprocess.Process, endpoint: str, session: aiohttp.ClientSession) -> None:
        self.process = process
        self.endpoint = endpoint  # http://127.0.0.1:PORT
        self.session = session
        self.tabs: list[Tab] = []

    async def tab(self, url: str, width: int = 1280, height: int = 800) -> Tab:
        async with self.session.put(f"{self.endpoint}/json/new?about:blank") as answer:
            target = await answer.json()
        ws = await self.session.ws_connect(target["webSocketDebuggerUrl"], max_msg_size=64 * 1024 * 1024)
        tab = Tab(ws)
        self.tabs.append(tab)
        for domain in ("Page.enable", "Runtime.enable", "Log.enable"):
            await tab.send(domain)
        await tab.send("Emulation.setFocusEmulationEnabled", enabled=True)  # each window behaves as if focused
        await tab.send(
            "Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False
        )
        await tab.send("Page.navigate", url=url)
        return tab


@contextlib.asynccontextmanager
async def chromium(binary: str, profile: Path) -> AsyncIterator[Chromium]:
    process = await asyncio.create_subprocess_exec(
        binary,
        "--headless=new",
        "--no-sandbox",  # root in a container: Chromium's sandbox needs user namespaces it may not have
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-extensions",
        "--hide-scrollbars",
        "--mute-audio",
        "--force-device-scale-factor=1",
        "--remote-debugging-port=0",
        f"--user-data-dir={profile}",
        "about:blank",
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stderr is not None
    lines: list[str] = []
    try:
        async with asyncio.timeout(30):
            while not (match := LISTENING.search("\n".join(lines))):
                line = await process.stderr.readline()
                if not line:
                    raise Failed("chromium ended before it listened:\n" + "\n".join(lines))
                lines.append(line.decode(errors="replace"))
        drain = asyncio.create_task(_drain(process))
        endpoint = "http://" + match.group(1).removeprefix("ws://").split("/", 1)[0]
        async with aiohttp.ClientSession() as session:
            browser = Chromium(process, endpoint, session)
            try:
                yield browser
            finally:
                for tab in browser.tabs:
                    await tab.close()
        drain.cancel()
    finally:
        if process.returncode is None:
            process.kill()
        await process.wait()


async def _drain(process: asyncio.subprocess.Process) -> None:
    """Chromium writes on stderr as it runs: read it, lest the pipe fill and the browser stop."""
    assert process.stderr is not None
    while await process.stderr.read(65536):
        pass
