"""The loopback Discord reads an upload's form from its bytes: the same fields, files, names and types as aiohttp's
own reader, for forms as discord.py writes them, and a clear refusal of what is not such a form."""

from __future__ import annotations

import random
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.local.loopback import multipart


class Sink:
    def __init__(self) -> None:
        self.data = bytearray()

    async def write(self, chunk: bytes) -> None:
        self.data += chunk


async def written(form: aiohttp.FormData) -> tuple[str, bytes]:
    """The form's content type and body, as aiohttp's client sends them."""
    payload = form()
    sink = Sink()
    await payload.write(sink)  # type: ignore[arg-type]
    return payload.headers["Content-Type"], bytes(sink.data)


def discords_form(rng: random.Random) -> aiohttp.FormData:
    """A form as discord.py sends one: payload_json, then files[0..] with their names (awkward ones too) and bytes
    that hold line ends and dashes."""
    form = aiohttp.FormData()
    form.add_field("payload_json", '{"content": "Ход 3 — 轮到你了", "attachments": []}')
    names = ["board.png", "张伟 的 棋盘.png", 'quote "and" semicolon; here.webp', "back\\slash.gif", "x"]
    for index in range(rng.randint(1, 4)):  # no file: discord.py sends JSON
        data = bytes(rng.choice(b"\r\n-ab\x00\xff") for _ in range(rng.randint(0, 300)))
        form.add_field(f"files[{index}]", data, filename=rng.choice(names), content_type="application/octet-stream")
    return form


async def read_by_aiohttp(content_type: str, body: bytes) -> list[tuple[str, Any, Any, bytes]]:
    """What aiohttp's server reader (``request.post()``) makes of the same bytes."""
    seen: list[tuple[str, Any, Any, bytes]] = []

    async def handler(request: web.Request) -> web.Response:
        for name, value in (await request.post()).items():
            if isinstance(value, web.FileField):
                seen.append((name, value.filename, value.content_type, value.file.read()))
            else:
                seen.append((name, None, None, value.encode() if isinstance(value, str) else bytes(value)))
        return web.Response()

    app = web.Application()
    app.router.add_post("/", handler)
    async with TestClient(TestServer(app)) as client:
        await client.post("/", data=body, headers={"Content-Type": content_type})
    return seen


async def test_a_form_is_read_as_aiohttps_own_reader_reads_it() -> None:
    rng = random.Random(29)
    for _ in range(25):
        content_type, body = await written(discords_form(rng))
        ours = [
            (p.name, p.filename, p.content_type if p.filename else None, p.data)
            for p in multipart.parts(body, multipart.boundary(content_type))
        ]
        assert ours == await read_by_aiohttp(content_type, body)


def test_a_quoted_parameter_is_unquoted_and_an_extended_one_decoded() -> None:
    header = 'form-data; name="files[0]"; filename="a \\"b\\"; c.png"; title*=utf-8\'\'%E8%BD%AE%E5%88%B0'
    assert multipart.parameters(header) == {"name": "files[0]", "filename": 'a "b"; c.png', "title": "轮到"}
    assert multipart.boundary('multipart/form-data; boundary="abc"') == "abc"


@pytest.mark.parametrize(
    ("body", "why"),
    [
        (b"hello", "does not start with its boundary"),
        (b'--b\r\nContent-Disposition: form-data; name="x"\r\n\r\nno end', "without its closing boundary"),
        (b'--b\r\nContent-Disposition: form-data; name="x"\r\nno blank line\r\n--b--\r\n', "no blank line"),
        (b"--b\r\nContent-Disposition: attachment\r\n\r\nx\r\n--b--\r\n", "not a named form-data part"),
        (b"--b\r\nno colon here\r\n\r\nx\r\n--b--\r\n", "has no colon"),
        (b'--bxyz\r\nContent-Disposition: form-data; name="x"\r\n\r\nx\r\n--b--\r\n', "not followed by a line end"),
    ],
)
def test_what_is_not_a_form_is_refused_with_what_is_wrong(body: bytes, why: str) -> None:
    with pytest.raises(multipart.MalformedBody, match=why):
        multipart.parts(body, "b")
    with pytest.raises(multipart.MalformedBody, match="no boundary"):
        multipart.boundary("multipart/form-data")
